/* nccl_overlap: how much of each stream's NCCL time other GPU work of the
 * same rank hid, on its device.  A rank's rows come from one export and
 * are finished in the first step; the job's total is one group of every
 * rank's sums, added up in the second. */
#include <stdlib.h>
#include <string.h>

#include "core/intervals.h"
#include "recipe/nccl.h"
#include "recipe/recipe.h"

enum { TAB_RANK, TAB_ALL };
enum { R_RANK, R_DEVICE, R_STREAM, R_KERNELS, R_TIME, R_HIDDEN, R_EXPOSED, R_SHARE };
enum { A_RANKS, A_KERNELS, A_TIME, A_HIDDEN, A_EXPOSED, A_SHARE };

/* A GPU operation of a rank; stream is 0 for the non-NCCL work, whose
 * stream does not matter. */
struct op {
	recipe_uid uid;
	int64_t device, stream, start, end;
};

struct ops {
	struct op *nccl, *other;
	size_t nnccl, nother, cap;
};

static int cmp_op(const void *x, const void *y)
{
	const struct op *a = x, *b = y;
	const int64_t ka[] = { a->uid, a->device, a->stream, a->start, a->end };
	const int64_t kb[] = { b->uid, b->device, b->stream, b->start, b->end };
	for (size_t i = 0; i < 5; i++)
		if (ka[i] != kb[i])
			return ka[i] < kb[i] ? -1 : 1;
	return 0;
}

static bool same_place(const struct op *a, const struct op *b, bool stream)
{
	return a->uid == b->uid && a->device == b->device && (!stream || a->stream == b->stream);
}

/* ---- reading ------------------------------------------------------------------------------ */

struct table_cols {
	size_t n;
	const int64_t *start, *end;
	const struct nst_col *device, *stream, *gpid;
};

static enum nst_status read_table(struct nst_ctx *ctx, const char *table, struct table_cols *t,
				  struct nst_error *err)
{
	memset(t, 0, sizeof *t);
	enum nst_status s = nst_ev_rows(ctx->ev, table, &t->n, err);
	if (!s) s = nst_ev_i64(ctx->ev, table, "start", &t->start, err);
	if (!s) s = nst_ev_i64(ctx->ev, table, "end", &t->end, err);
	if (!s) s = nst_ev_col(ctx->ev, table, "deviceId", &t->device, err);
	if (!s) s = nst_ev_col(ctx->ev, table, "streamId", &t->stream, err);
	if (!s) s = nst_ev_col(ctx->ev, table, "globalPid", &t->gpid, err);
	if (!s && (!t->start || !t->end))
		t->n = 0; /* no times, no intervals */
	return s;
}

/* The operations of one table; names (kernels only) tell NCCL's apart. */
static enum nst_status add_table(struct nst_ctx *ctx, struct recipe_part *rp, const char *table,
				 const struct nst_col *names, struct ops *o, struct nst_error *err)
{
	struct table_cols t;
	enum nst_status s = read_table(ctx, table, &t, err);
	if (s != NST_OK)
		return s;
	for (size_t i = 0; i < t.n; i++) {
		if (t.start[i] == NST_NULL_I64 || t.end[i] == NST_NULL_I64)
			continue;
		int64_t id = names ? nst_col_at(names, i) : NST_NULL_I64;
		bool nccl = id != NST_NULL_I64 && nccl_is_kernel(nst_db_string(ctx->db, id));
		struct op op = { recipe_rank_of(rp, nst_col_or_null(t.gpid, i)),
				 nst_col_or_null(t.device, i),
				 nccl ? nst_col_or_null(t.stream, i) : 0, t.start[i], t.end[i] };
		if (!op.uid)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		if (nccl)
			o->nccl[o->nnccl++] = op;
		else
			o->other[o->nother++] = op;
	}
	return NST_OK;
}

static enum nst_status read_ops(struct nst_ctx *ctx, struct recipe_part *rp, struct ops *o,
				struct nst_error *err)
{
	static const char *const tables[] = { KERNEL, MEMCPY, MEMSET };
	size_t n[3], total = 0;
	const struct nst_col *names = NULL;
	enum nst_status s = nccl_kernel_names(ctx, &names, err);
	for (size_t k = 0; s == NST_OK && k < 3; k++) {
		s = nst_ev_rows(ctx->ev, tables[k], &n[k], err);
		total += n[k];
	}
	if (s != NST_OK)
		return s;
	o->nccl = malloc((total ? total : 1) * sizeof *o->nccl);
	o->other = malloc((total ? total : 1) * sizeof *o->other);
	if (!o->nccl || !o->other)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t k = 0; s == NST_OK && k < 3; k++)
		s = add_table(ctx, rp, tables[k], k == 0 ? names : NULL, o, err);
	recipe_sort(o->nccl, o->nnccl, sizeof *o->nccl, cmp_op);
	recipe_sort(o->other, o->nother, sizeof *o->other, cmp_op);
	return s;
}

/* ---- measuring ------------------------------------------------------------------------------ */

/* The union of op[0..n) (sorted by start) as intervals into iv; returns
 * how many pieces. */
static size_t union_of(const struct op *op, size_t n, struct nst_interval *iv)
{
	for (size_t i = 0; i < n; i++)
		iv[i] = (struct nst_interval){ op[i].start, op[i].end };
	return nst_intervals_union(iv, n);
}

static int64_t length(const struct nst_interval *iv, size_t n)
{
	int64_t t = 0;
	for (size_t i = 0; i < n; i++)
		t += iv[i].end - iv[i].start;
	return t;
}

/* The length of the intersection of two unions. */
static int64_t common(const struct nst_interval *a, size_t na, const struct nst_interval *b,
		      size_t nb)
{
	int64_t t = 0;
	for (size_t i = 0, j = 0; i < na && j < nb;) {
		int64_t lo = a[i].start > b[j].start ? a[i].start : b[j].start;
		int64_t hi = a[i].end < b[j].end ? a[i].end : b[j].end;
		if (hi > lo)
			t += hi - lo;
		if (a[i].end < b[j].end)
			i++;
		else
			j++;
	}
	return t;
}

static struct nst_cell share(int64_t part, int64_t whole)
{
	return whole > 0 ? nst_round1((double)part * 100.0 / (double)whole) : nst_null();
}

/* The other work's union on the device of nccl, found from *at on
 * (other is sorted by rank and device as nccl is). */
static size_t other_union(const struct ops *o, const struct op *nccl, size_t *at,
			  struct nst_interval *iv)
{
	while (*at < o->nother && cmp_op(&o->other[*at], &(struct op){ nccl->uid, nccl->device,
				 INT64_MIN, INT64_MIN, INT64_MIN }) < 0)
		(*at)++;
	size_t end = *at;
	while (end < o->nother && same_place(&o->other[end], nccl, false))
		end++;
	return union_of(o->other + *at, end - *at, iv);
}

/* One stream's row, and its numbers pushed to the job's total. */
static enum nst_status stream_row(struct recipe_part *rp, const struct op *first, size_t n,
				  int64_t time, int64_t hidden, struct nst_error *err)
{
	struct nst_cell c[RECIPE_MAX_COLS] = {
		[R_RANK] = nst_int(first->uid), [R_DEVICE] = nst_int_or_null(first->device),
		[R_STREAM] = nst_int_or_null(first->stream), [R_KERNELS] = nst_int((int64_t)n),
		[R_TIME] = nst_int(time), [R_HIDDEN] = nst_int(hidden),
		[R_EXPOSED] = nst_int(time - hidden), [R_SHARE] = share(hidden, time),
	};
	enum nst_status s = recipe_row(rp, TAB_RANK, first->uid, c, err);
	size_t h;
	const struct nst_cell key = nst_int(0);
	const int64_t vals[] = { (int64_t)n, time, hidden };
	if (s == NST_OK)
		s = recipe_group(rp, 0, &key, 1, first->uid, &h, err);
	return s == NST_OK ? recipe_push(rp, h, vals, 3, err) : s;
}

static enum nst_status measure(struct recipe_part *rp, const struct ops *o, struct nst_error *err)
{
	size_t cap = (o->nnccl > o->nother ? o->nnccl : o->nother) + 1;
	struct nst_interval *a = malloc(cap * sizeof *a), *b = malloc(cap * sizeof *b);
	enum nst_status s = a && b ? NST_OK : nst_fail(err, NST_ERR_NOMEM, "out of memory");
	size_t at = 0;
	for (size_t i = 0, j; s == NST_OK && i < o->nnccl; i = j) {
		for (j = i + 1; j < o->nnccl && same_place(&o->nccl[j], &o->nccl[i], true); j++)
			;
		size_t na = union_of(o->nccl + i, j - i, a);
		size_t nb = other_union(o, &o->nccl[i], &at, b);
		s = stream_row(rp, &o->nccl[i], j - i, length(a, na), common(a, na, b, nb), err);
	}
	free(a);
	free(b);
	return s;
}

static enum nst_status part(struct nst_ctx *ctx, struct recipe_part *rp, const void *args,
			    struct nst_error *err)
{
	(void)args;
	struct ops o = { 0 };
	enum nst_status s = read_ops(ctx, rp, &o, err);
	if (s == NST_OK)
		s = measure(rp, &o, err);
	free(o.nccl);
	free(o.other);
	return s;
}

/* ---- every rank ------------------------------------------------------------------------------ */

static enum nst_status reduce(const struct recipe_group *g, struct recipe_out *o,
			      const void *args, struct nst_error *err)
{
	(void)args;
	int64_t sum[3] = { 0 };
	for (size_t i = 0; i < g->n; i++)
		for (size_t k = 0; k + 3 <= g->m[i].nvals; k += 3)
			for (size_t v = 0; v < 3; v++)
				sum[v] += g->m[i].vals[k + v];
	struct nst_cell c[RECIPE_MAX_COLS] = {
		[A_RANKS] = nst_int((int64_t)g->n), [A_KERNELS] = nst_int(sum[0]),
		[A_TIME] = nst_int(sum[1]), [A_HIDDEN] = nst_int(sum[2]),
		[A_EXPOSED] = nst_int(sum[1] - sum[2]), [A_SHARE] = share(sum[2], sum[1]),
	};
	return recipe_emit(o, TAB_ALL, c, err);
}

static const char *const rank_cols[] = {
	"Rank", "Device", "Stream", "NCCL Kernels", "NCCL Time:dur_ns", "Hidden:dur_ns",
	"Exposed:dur_ns", "Hidden:ratio_%", NULL,
};
static const char *const all_cols[] = {
	"Ranks", "NCCL Kernels", "NCCL Time:dur_ns", "Hidden:dur_ns", "Exposed:dur_ns",
	"Hidden:ratio_%", NULL,
};
static const int8_t rank_order[] = { 1, 2, 3, 0 };

static const struct recipe_table tables[] = {
	{ "rank", "(per rank, device and stream)", rank_cols, 0, 1, rank_order, NULL },
	{ "all", "(all ranks)", all_cols, 0, 0, NULL, NULL },
};

static const struct nst_recipe recipe = {
	.tables = tables, .ntables = 2, .nkeys = { 1 }, .part = part, .reduce = reduce,
};

#define OP_NEEDS(table)                                                                  \
	{ table, "start", false }, { table, "end", false }, { table, "deviceId", false },  \
	{ table, "streamId", false }, { table, "globalPid", false }

static const struct nst_need needs[] = {
	OP_NEEDS(KERNEL), OP_NEEDS(MEMCPY), OP_NEEDS(MEMSET), NCCL_NEEDS,
	{ NULL, NULL, false },
};

const struct nst_report nst_recipe_nccl_overlap = {
	.name = "nccl_overlap",
	.title = "NCCL Overlap",
	.help = "How much NCCL communication other GPU work hid.  rank: per rank,\n"
		"device and stream with NCCL kernels (ncclKernel_*, ncclDevKernel_*):\n"
		"their number, NCCL Time (the union of their intervals on that stream),\n"
		"Hidden (the part of it during which the rank's other kernels, memcpys\n"
		"or memsets ran on the same device, on any stream), Exposed (NCCL Time -\n"
		"Hidden) and Hidden (%) of NCCL Time.  all: the same summed over every\n"
		"rank, device and stream, and how many ranks have NCCL kernels.",
	.needs = needs,
	.recipe = &recipe,
};
