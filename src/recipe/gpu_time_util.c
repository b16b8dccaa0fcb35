/* gpu_time_util: gpu_time_sum's numbers per rank and device, and each
 * device's busy share over time in N buckets, the data of a rank x time
 * heat map.  A rank's rows come from the one export that holds the rank,
 * so they are finished in the first step. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/big.h"
#include "recipe/recipe.h"
#include "reports/gpu_time.h"

#define DEFAULT_BUCKETS 100
/* With Rank, Device and Bucket Time, within RECIPE_MAX_COLS: a strip a
 * screen wide, about a bucket a pixel. */
#define MAX_BUCKETS 2000

enum { TAB_RANK, TAB_UTIL };
enum { COL_RANK, COL_DEVICE, COL_TIME };

struct args {
	int64_t gap;
	size_t buckets;
	char names[MAX_BUCKETS][11]; /* the bucket columns: "0" ... (room for any unsigned) */
};

static bool parse_count(const char *v, long long lo, long long hi, long long *out)
{
	char *end;
	errno = 0;
	long long n = v ? strtoll(v, &end, 10) : 0;
	if (!v || !*v || *end || errno || n < lo || n > hi)
		return false;
	*out = n;
	return true;
}

static enum nst_status parse(const struct nst_arg *args, size_t nargs, struct args *a,
			     struct nst_error *err)
{
	long long n;
	a->gap = NST_GT_DEFAULT_GAP_NS;
	a->buckets = DEFAULT_BUCKETS;
	for (size_t i = 0; i < nargs; i++) {
		const char *k = args[i].key, *v = args[i].value;
		if (strcmp(k, "buckets") == 0) {
			if (!parse_count(v, 1, MAX_BUCKETS, &n))
				return nst_fail(err, NST_ERR_USAGE, "buckets=%s: not a whole number from 1 to %d",
						v ? v : "", MAX_BUCKETS);
			a->buckets = (size_t)n;
		} else if (strcmp(k, "gap") == 0) {
			if (!parse_count(v, 0, INT64_MAX, &n))
				return nst_fail(err, NST_ERR_USAGE, "gap=%s: not a whole number of ns (0 or more)",
						v ? v : "");
			a->gap = n;
		}
	}
	for (size_t i = 0; i < a->buckets; i++)
		snprintf(a->names[i], sizeof a->names[i], "%u", (unsigned)i);
	return NST_OK;
}

static enum nst_status check(const struct nst_arg *args, size_t nargs, struct nst_error *err)
{
	struct args a;
	return parse(args, nargs, &a, err);
}

static enum nst_status args_of(const struct nst_arg *args, size_t nargs, void **out,
			       struct nst_error *err)
{
	struct args *a = malloc(sizeof *a);
	if (!a)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	enum nst_status s = parse(args, nargs, a, err);
	if (s != NST_OK) {
		free(a);
		return s;
	}
	*out = a;
	return NST_OK;
}

static void columns(unsigned tab, const void *args, const char **cols, size_t *n)
{
	const struct args *a = args;
	*n = 0;
	cols[(*n)++] = "Rank";
	cols[(*n)++] = "Device";
	if (tab == TAB_RANK) {
		for (size_t i = 0; i < NST_GT_NTIME; i++)
			cols[(*n)++] = nst_gt_time_cols[i];
		return;
	}
	cols[(*n)++] = "Bucket Time:dur_ns";
	for (size_t i = 0; i < a->buckets; i++)
		cols[(*n)++] = a->names[i];
}

/* ---- the busy share of each bucket ------------------------------------------------------ */

/* Buckets of width w from first, the last one running to last. */
struct buckets {
	int64_t first, last, w;
	size_t n;
	int64_t *busy; /* ns covered in each */
};

static size_t bucket_at(const struct buckets *b, int64_t t)
{
	if (b->w == 0)
		return b->n - 1;
	int64_t i = (t - b->first) / b->w;
	return i >= (int64_t)b->n ? b->n - 1 : (size_t)i;
}

static int64_t bucket_start(const struct buckets *b, size_t i)
{
	return b->first + (int64_t)i * b->w;
}

static int64_t bucket_end(const struct buckets *b, size_t i)
{
	return i + 1 == b->n ? b->last : bucket_start(b, i + 1);
}

static void add_piece(struct buckets *b, int64_t start, int64_t end)
{
	for (size_t i = bucket_at(b, start); i < b->n && bucket_start(b, i) < end; i++) {
		int64_t lo = start > bucket_start(b, i) ? start : bucket_start(b, i);
		int64_t hi = end < bucket_end(b, i) ? end : bucket_end(b, i);
		if (hi > lo)
			b->busy[i] += hi - lo;
	}
}

/* ---- rows ---------------------------------------------------------------------------------- */

/* The busy time of each bucket: the union of a device's operations,
 * rows[0..n) of ops in the order nst_gt_measure measured them (by start). */
static void fill_buckets(struct buckets *b, const struct nst_gt_ops *ops, const uint32_t *rows,
			 size_t n)
{
	struct nst_union u = { .open = false };
	struct nst_interval piece;
	for (size_t i = 0; i < n; i++)
		if (nst_union_add(&u, ops->start[rows[i]], ops->end[rows[i]], &piece))
			add_piece(b, piece.start, piece.end);
	if (nst_union_last(&u, &piece))
		add_piece(b, piece.start, piece.end);
}

static enum nst_status util_row(struct recipe_part *rp, const struct args *a, recipe_uid uid,
				const struct nst_gt_group *g, const struct nst_gt_ops *ops,
				const uint32_t *rows, struct nst_error *err)
{
	int64_t busy[MAX_BUCKETS] = { 0 };
	struct buckets b = { g->busy.first, g->busy.last, 0, a->buckets, busy };
	b.w = (b.last - b.first) / (int64_t)b.n;
	fill_buckets(&b, ops, rows, g->busy.n);
	struct nst_cell c[RECIPE_MAX_COLS];
	c[COL_RANK] = nst_int(uid);
	c[COL_DEVICE] = nst_int_or_null(g->device);
	c[COL_TIME] = nst_int(b.w);
	for (size_t i = 0; i < b.n; i++) {
		int64_t width = bucket_end(&b, i) - bucket_start(&b, i);
		c[COL_TIME + 1 + i] = width > 0 ? nst_round1((double)busy[i] * 100.0 / (double)width)
						: nst_null();
	}
	return recipe_row(rp, TAB_UTIL, uid, c, err);
}

/* The rows of one rank, whose operations are order[0..ops->n): indexes
 * into ops's arrays by device, then start, end and row (nst_gt_order),
 * measured by device into g[0..ng). */
static enum nst_status rank_rows_of(struct recipe_part *rp, const struct args *a,
				    const struct nst_gt_ops *ops, const uint32_t *order,
				    const struct nst_gt_group *g, size_t ng, int64_t capture,
				    recipe_uid uid, struct nst_error *err)
{
	enum nst_status s = NST_OK;
	for (size_t k = 0, at = 0; s == NST_OK && k < ng; at += g[k++].busy.n) {
		struct nst_cell c[RECIPE_MAX_COLS];
		c[COL_RANK] = nst_int(uid);
		c[COL_DEVICE] = nst_int_or_null(g[k].device);
		nst_gt_time_cells(&g[k], capture, &c[COL_TIME]);
		s = recipe_row(rp, TAB_RANK, uid, c, err);
		if (s == NST_OK)
			s = util_row(rp, a, uid, &g[k], ops, order + at, err);
	}
	return s;
}

/* The ranks of an export's operations, found by lane: an operation's
 * rank is its lane's process's.  The lanes come in the order the
 * operations first meet them, so the distinct uids are in order of
 * first appearance, as the operations would give them. */
struct ranks {
	recipe_uid *uid; /* distinct */
	size_t n;
	uint32_t *of;    /* by lane: index into uid */
};

/* The rows of one rank: its operations are those of ops whose lane is
 * the rank's, n of them.  They are measured in by_device's order kept to
 * them: by device, then start, end and row, as an order of their own
 * would be, with no copy of their times (21 bytes an operation) and no
 * sort; the measure reads ops's arrays through the order, n long. */
static enum nst_status rank_rows(struct nst_ctx *ctx, struct recipe_part *rp,
				 const struct args *a, const struct nst_gt_ops *ops,
				 const uint32_t *by_device, const struct ranks *r, size_t k, size_t n,
				 struct nst_error *err)
{
	int64_t capture = ops->span_end - ops->span_start;
	struct nst_gt_group *g = NULL;
	size_t ng = 0;
	enum nst_status s;
	if (n == ops->n) { /* the one rank: measured as gpu_time_sum measures it */
		s = nst_gt_shared_by_device(ctx, NST_GT_CUT_TO_WINDOW, a->gap, &g, &ng, err);
		if (s == NST_OK)
			s = rank_rows_of(rp, a, ops, by_device, g, ng, capture, r->uid[k], err);
		free(g);
		return s;
	}
	uint32_t *order = nst_big_alloc(n, sizeof *order);
	if (!order)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	size_t m = 0;
	for (size_t i = 0; i < ops->n; i++)
		if (r->of[ops->lane[by_device[i]]] == k)
			order[m++] = by_device[i];
	struct nst_gt_ops mine = *ops;
	mine.n = m;
	s = nst_gt_measure(&mine, NST_GT_BY_DEVICE, a->gap, order, &g, &ng, err);
	if (s == NST_OK)
		s = rank_rows_of(rp, a, &mine, order, g, ng, capture, r->uid[k], err);
	free(g);
	free(order);
	return s;
}

static enum nst_status ranks_of(struct recipe_part *rp, const struct nst_gt_ops *ops,
				struct ranks *r, struct nst_error *err)
{
	size_t m = ops->nlanes ? ops->nlanes : 1;
	r->n = 0;
	r->uid = malloc(m * sizeof *r->uid);
	r->of = malloc(m * sizeof *r->of);
	if (!r->uid || !r->of)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t l = 0; l < ops->nlanes; l++) {
		recipe_uid uid = recipe_rank_of(rp, ops->lanes[l].gpid);
		if (!uid)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		size_t k = 0;
		while (k < r->n && r->uid[k] != uid)
			k++;
		if (k == r->n)
			r->uid[r->n++] = uid;
		r->of[l] = (uint32_t)k;
	}
	return NST_OK;
}

static enum nst_status part(struct nst_ctx *ctx, struct recipe_part *rp, const void *args,
			    struct nst_error *err)
{
	const struct nst_gt_ops *ops;
	const uint32_t *by_device;
	struct ranks r = { 0 };
	enum nst_status s = nst_gt_shared(ctx, NST_GT_CUT_TO_WINDOW, &ops, &by_device, err);
	if (s != NST_OK)
		return s;
	s = ranks_of(rp, ops, &r, err);
	size_t *count = s == NST_OK ? calloc(r.n + 1, sizeof *count) : NULL;
	if (s == NST_OK && !count)
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; count && i < ops->n; i++)
		count[r.of[ops->lane[i]]]++;
	for (size_t k = 0; s == NST_OK && k < r.n; k++)
		s = rank_rows(ctx, rp, args, ops, by_device, &r, k, count[k], err);
	free(count);
	free(r.uid);
	free(r.of);
	return s;
}

static const int8_t order[] = { 1, 2, 0 };

static const struct recipe_table tables[] = {
	{ "rank", "(per rank and device)", NULL, 0, 1, order, NULL },
	{ "util", "(busy share over time)", NULL, 0, 1, order, NULL },
};

static const struct nst_recipe recipe = {
	.tables = tables, .ntables = 2, .args = args_of, .part = part, .columns = columns,
};

static const struct nst_need needs[] = {
	NST_GT_NEEDS,
	{ NULL, NULL, false },
};

const struct nst_report nst_recipe_gpu_time_util = {
	.name = "gpu_time_util",
	.title = "GPU Time Utilization",
	.help = "Where GPU time went on every rank.  rank: per rank and device, the\n"
		"numbers of `stats -r gpu_time_sum` (Capture Span, GPU Span, Busy, Kernel\n"
		"Union, Kernel Sum, Overlap, Graph, Idle, Capture Util, GPU Span Util,\n"
		"Idle Gaps, Gap Time) over that rank's GPU operations.  util: per rank\n"
		"and device, its GPU span (first start to last end of its operations)\n"
		"cut in buckets=N buckets (1 to 2000, default 100) of Bucket Time ns, the\n"
		"last one running to the span's end, and the percentage of each during\n"
		"which some operation ran: a rank x time heat map.  gap=NS as\n"
		"gpu_time_sum's (whole ns, default 1000).",
	.args = (const char *const[]){ "buckets", "gap", NULL },
	.needs = needs,
	.check = check,
	.recipe = &recipe,
};
