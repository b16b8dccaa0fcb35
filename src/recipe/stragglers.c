/* stragglers: which rank holds the others back.  Each rank gives its
 * iterations' durations and its collectives' starts as groups keyed by
 * iteration (and sequence number), so that the medians over ranks are
 * computed from every rank's value in the second step, wherever the
 * ranks were read. */
#include <stdlib.h>
#include <string.h>

#include "recipe/nccl.h"
#include "recipe/recipe.h"
#include "reports/nvtx.h"

enum { TAB_ITER, TAB_COLL };
enum { CLS_ITER, CLS_COLL };
enum { I_ITER, I_RANKS, I_MEDIAN, I_SLOWEST_RANK, I_SLOWEST, I_LAG };
enum { C_ITER, C_SEQ, C_NAME, C_RANKS, C_LAST_RANK, C_LAG, C_SKEW };

#define SESSION "TARGET_INFO_SESSION_START_TIME"
/* A collective's name travels with its start as values: NAME_VALS * 8
 * bytes, longer than any NCCL collective's name. */
#define NAME_VALS 3
#define NAME_MAX_LEN (NAME_VALS * 8)

struct args {
	char range[1]; /* iteration=RANGE, "" without; allocated to its length */
};

static enum nst_status args_of(const struct nst_arg *args, size_t nargs, void **out,
			       struct nst_error *err)
{
	const char *range = "";
	for (size_t i = 0; i < nargs; i++)
		if (strcmp(args[i].key, "iteration") == 0) {
			if (!args[i].value || !*args[i].value)
				return nst_fail(err, NST_ERR_USAGE,
						"iteration=: the name of an NVTX range, as in iteration=step");
			range = args[i].value;
		}
	struct args *a = malloc(sizeof *a + strlen(range));
	if (!a)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	strcpy(a->range, range);
	*out = a;
	return NST_OK;
}

static enum nst_status check(const struct nst_arg *args, size_t nargs, struct nst_error *err)
{
	void *a = NULL;
	enum nst_status s = args_of(args, nargs, &a, err);
	free(a);
	return s;
}

/* ---- a rank's iterations and collectives --------------------------------------------------- */

/* An iteration or an NCCL kernel of a rank; a kernel's row tells equal
 * starts apart, its name its collective. */
struct ev {
	recipe_uid uid;
	int64_t start, end;
	size_t row;
	const char *name;
};

static int cmp_ev(const void *x, const void *y)
{
	const struct ev *a = x, *b = y;
	if (a->uid != b->uid)
		return a->uid < b->uid ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->end != b->end)
		return a->end < b->end ? -1 : 1;
	return (a->row > b->row) - (a->row < b->row);
}

struct evs {
	struct ev *v;
	size_t n;
};

static enum nst_status evs_alloc(struct evs *e, size_t n, struct nst_error *err)
{
	e->n = 0;
	e->v = malloc((n ? n : 1) * sizeof *e->v);
	return e->v ? NST_OK : nst_fail(err, NST_ERR_NOMEM, "out of memory");
}

/* The instances of the NVTX range named range on each rank. */
static enum nst_status nvtx_iterations(struct nst_ctx *ctx, struct recipe_part *rp,
				       const char *range, struct evs *it, struct nst_error *err)
{
	struct nst_nvtx nv;
	enum nst_status s = nst_nvtx_check(ctx, err);
	if (s == NST_OK)
		s = nst_nvtx_load(ctx, &nv, err);
	if (s == NST_OK)
		s = evs_alloc(it, nv.n, err);
	for (size_t i = 0; s == NST_OK && i < nv.n; i++) {
		enum nst_nvtx_style style;
		const char *name;
		if (nv.start[i] == NST_NULL_I64 ||
		    !nst_nvtx_range_style(nst_col_at(nv.type, i), &style) ||
		    !(name = nst_nvtx_base_name(ctx, &nv, i)) || strcmp(name, range) != 0)
			continue;
		struct ev e = { recipe_rank_of(rp, nst_col_or_null(nv.gtid, i)), nv.start[i],
				nst_nvtx_end(&nv, i), i, NULL };
		if (!e.uid)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		it->v[it->n++] = e;
	}
	return s;
}

struct kernels {
	size_t n;
	const int64_t *start, *end, *gpid;
	const struct nst_col *name;
};

static enum nst_status read_kernels(struct nst_ctx *ctx, struct kernels *k, struct nst_error *err)
{
	memset(k, 0, sizeof *k);
	enum nst_status s = nst_ev_rows(ctx->ev, KERNEL, &k->n, err);
	if (s != NST_OK || !k->n)
		return s;
	if (!s) s = nst_ev_i64(ctx->ev, KERNEL, "start", &k->start, err);
	if (!s) s = nst_ev_i64(ctx->ev, KERNEL, "end", &k->end, err);
	if (!s) s = nst_ev_i64(ctx->ev, KERNEL, "globalPid", &k->gpid, err);
	if (!s) s = nccl_kernel_names(ctx, &k->name, err);
	if (!s && (!k->start || !k->end || !k->name))
		k->n = 0;
	return s;
}

/* The NCCL kernels of each rank and, without iteration=, each rank's one
 * iteration: the first start to the last end of its kernels. */
static enum nst_status kernel_events(struct nst_ctx *ctx, struct recipe_part *rp, bool whole,
				     struct evs *coll, struct evs *it, struct nst_error *err)
{
	struct kernels k;
	enum nst_status s = read_kernels(ctx, &k, err);
	if (s == NST_OK)
		s = evs_alloc(coll, k.n, err);
	if (s == NST_OK && whole)
		s = evs_alloc(it, k.n, err);
	for (size_t i = 0; s == NST_OK && i < k.n; i++) {
		if (k.start[i] == NST_NULL_I64 || k.end[i] == NST_NULL_I64)
			continue;
		int64_t id = nst_col_at(k.name, i);
		const char *name = id == NST_NULL_I64 ? NULL : nst_db_string(ctx->db, id);
		struct ev e = { recipe_rank_of(rp, k.gpid ? k.gpid[i] : NST_NULL_I64), k.start[i],
				k.end[i], i, name };
		if (!e.uid)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		if (nccl_is_kernel(name))
			coll->v[coll->n++] = e;
		if (whole)
			it->v[it->n++] = e;
	}
	return s;
}

/* Each rank's kernels in it[] (sorted) become its one iteration. */
static void whole_capture(struct evs *it)
{
	size_t n = 0;
	for (size_t i = 0; i < it->n; i++) {
		int64_t end = it->v[i].end > it->v[i].start ? it->v[i].end : it->v[i].start;
		if (n && it->v[n - 1].uid == it->v[i].uid) {
			if (end > it->v[n - 1].end)
				it->v[n - 1].end = end;
		} else
			it->v[n++] = (struct ev){ it->v[i].uid, it->v[i].start, end, 0, NULL };
	}
	it->n = n;
}

/* Where the export's clock started in UTC (0 when it does not say), so
 * that starts from inputs captured apart compare. */
static enum nst_status session_start(struct nst_ctx *ctx, int64_t *epoch, struct nst_error *err)
{
	size_t n = 0;
	const int64_t *utc = NULL;
	*epoch = 0;
	enum nst_status s = nst_ev_rows(ctx->ev, SESSION, &n, err);
	if (s == NST_OK && n)
		s = nst_ev_i64(ctx->ev, SESSION, "utcEpochNs", &utc, err);
	if (s == NST_OK && n && utc && utc[0] != NST_NULL_I64)
		*epoch = utc[0];
	return s;
}

static enum nst_status push_iteration(struct recipe_part *rp, const struct ev *e, int64_t k,
				      struct nst_error *err)
{
	size_t h;
	struct nst_cell key = nst_int(k);
	int64_t d = e->end - e->start;
	enum nst_status s = recipe_group(rp, CLS_ITER, &key, 1, e->uid, &h, err);
	return s == NST_OK ? recipe_push(rp, h, &d, 1, err) : s;
}

static enum nst_status push_collective(struct recipe_part *rp, const struct ev *e, int64_t k,
				       int64_t seq, int64_t epoch, struct nst_error *err)
{
	size_t h;
	struct nst_cell key[2] = { nst_int(k), nst_int(seq) };
	int64_t v[1 + NAME_VALS] = { e->start + epoch };
	const char *word;
	size_t len = nccl_collective(e->name, &word);
	memcpy(&v[1], word, len < NAME_MAX_LEN ? len : NAME_MAX_LEN);
	enum nst_status s = recipe_group(rp, CLS_COLL, key, 2, e->uid, &h, err);
	return s == NST_OK ? recipe_push(rp, h, v, 1 + NAME_VALS, err) : s;
}

/* One rank's groups: its iterations it[0..ni) and NCCL kernels
 * coll[0..nc), each sorted by start; a kernel is in the last iteration
 * that started at or before it. */
static enum nst_status rank_groups(struct recipe_part *rp, const struct ev *it, size_t ni,
				   const struct ev *coll, size_t nc, int64_t epoch,
				   struct nst_error *err)
{
	enum nst_status s = NST_OK;
	for (size_t k = 0; s == NST_OK && k < ni; k++)
		s = push_iteration(rp, &it[k], (int64_t)k, err);
	size_t k = 0;
	int64_t seq = 0;
	for (size_t i = 0; s == NST_OK && i < nc; i++) {
		size_t was = k;
		while (k + 1 < ni && it[k + 1].start <= coll[i].start)
			k++;
		seq = k == was ? seq : 0;
		if (ni && coll[i].start >= it[k].start)
			s = push_collective(rp, &coll[i], (int64_t)k, seq++, epoch, err);
	}
	return s;
}

static size_t run_of(const struct evs *e, size_t i, recipe_uid uid)
{
	size_t j = i;
	while (j < e->n && e->v[j].uid == uid)
		j++;
	return j;
}

static enum nst_status groups(struct recipe_part *rp, const struct evs *it,
			      const struct evs *coll, int64_t epoch, struct nst_error *err)
{
	enum nst_status s = NST_OK;
	size_t i = 0, c = 0;
	while (s == NST_OK && (i < it->n || c < coll->n)) {
		recipe_uid uid = i < it->n && (c >= coll->n || it->v[i].uid <= coll->v[c].uid)
			? it->v[i].uid : coll->v[c].uid;
		size_t ie = run_of(it, i, uid), ce = run_of(coll, c, uid);
		s = rank_groups(rp, it->v + i, ie - i, coll->v + c, ce - c, epoch, err);
		i = ie;
		c = ce;
	}
	return s;
}

static enum nst_status part(struct nst_ctx *ctx, struct recipe_part *rp, const void *args,
			    struct nst_error *err)
{
	const struct args *a = args;
	bool whole = !a->range[0];
	struct evs it = { 0 }, coll = { 0 };
	int64_t epoch = 0;
	enum nst_status s = session_start(ctx, &epoch, err);
	if (s == NST_OK && !whole)
		s = nvtx_iterations(ctx, rp, a->range, &it, err);
	if (s == NST_OK)
		s = kernel_events(ctx, rp, whole, &coll, &it, err);
	if (s == NST_OK) {
		recipe_sort(it.v, it.n, sizeof *it.v, cmp_ev);
		recipe_sort(coll.v, coll.n, sizeof *coll.v, cmp_ev);
		if (whole)
			whole_capture(&it);
		s = groups(rp, &it, &coll, epoch, err);
	}
	free(it.v);
	free(coll.v);
	return s;
}

/* ---- over every rank ---------------------------------------------------------------------- */

static int cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
	return (a > b) - (a < b);
}

/* v - the median of vals[0..n) (sorted in place), exact where the
 * values are too large for a double's mean (UTC starts). */
static double minus_median(int64_t v, int64_t *vals, size_t n)
{
	recipe_sort(vals, n, sizeof *vals, cmp_i64);
	if (n % 2)
		return (double)(v - vals[n / 2]);
	return ((double)(v - vals[n / 2 - 1]) + (double)(v - vals[n / 2])) / 2.0;
}

/* The member with the largest value at vals[at] of each member's, the
 * lowest rank on ties. */
static size_t largest(const struct recipe_group *g, size_t at)
{
	size_t best = 0;
	for (size_t i = 1; i < g->n; i++)
		if (g->m[i].vals[at] > g->m[best].vals[at])
			best = i;
	return best;
}

static enum nst_status reduce_iteration(const struct recipe_group *g, struct recipe_out *o,
					int64_t *buf, struct nst_error *err)
{
	for (size_t i = 0; i < g->n; i++)
		buf[i] = g->m[i].vals[0];
	size_t slow = largest(g, 0);
	int64_t d = g->m[slow].vals[0];
	double lag = minus_median(d, buf, g->n);
	struct nst_cell c[RECIPE_MAX_COLS] = {
		[I_ITER] = g->key[0], [I_RANKS] = nst_int((int64_t)g->n),
		[I_MEDIAN] = nst_round1((double)d - lag), [I_SLOWEST_RANK] = nst_int(g->m[slow].uid),
		[I_SLOWEST] = nst_int(d), [I_LAG] = nst_round1(lag),
	};
	return recipe_emit(o, TAB_ITER, c, err);
}

static enum nst_status reduce_collective(const struct recipe_group *g, struct recipe_out *o,
					 int64_t *buf, struct nst_error *err)
{
	char name[NAME_MAX_LEN + 1] = { 0 };
	memcpy(name, &g->m[0].vals[1], NAME_MAX_LEN);
	int64_t lo = g->m[0].vals[0];
	for (size_t i = 0; i < g->n; i++) {
		buf[i] = g->m[i].vals[0];
		lo = buf[i] < lo ? buf[i] : lo;
	}
	size_t last = largest(g, 0);
	int64_t at = g->m[last].vals[0];
	struct nst_cell c[RECIPE_MAX_COLS] = {
		[C_ITER] = g->key[0], [C_SEQ] = g->key[1], [C_NAME] = nst_text(name),
		[C_RANKS] = nst_int((int64_t)g->n), [C_LAST_RANK] = nst_int(g->m[last].uid),
		[C_LAG] = nst_round1(minus_median(at, buf, g->n)), [C_SKEW] = nst_int(at - lo),
	};
	return recipe_emit(o, TAB_COLL, c, err);
}

/* A member's values as its part gave them: one per rank and group. */
static bool well_formed(const struct recipe_group *g)
{
	size_t want = g->cls == CLS_ITER ? 1 : 1 + NAME_VALS;
	if (g->n == 0 || g->cls > CLS_COLL)
		return false;
	for (size_t i = 0; i < g->n; i++)
		if (g->m[i].nvals != want)
			return false;
	return true;
}

static enum nst_status reduce(const struct recipe_group *g, struct recipe_out *o,
			      const void *args, struct nst_error *err)
{
	(void)args;
	if (!well_formed(g))
		return nst_fail(err, NST_ERR_DB, "stragglers: a rank's part holds a group of another shape");
	int64_t *buf = malloc(g->n * sizeof *buf);
	if (!buf)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	enum nst_status s = g->cls == CLS_ITER ? reduce_iteration(g, o, buf, err)
					       : reduce_collective(g, o, buf, err);
	free(buf);
	return s;
}

static const char *const iter_cols[] = {
	"Iteration", "Ranks", "Median:dur_ns", "Slowest Rank", "Slowest:dur_ns", "Lag:dur_ns", NULL,
};
static const char *const coll_cols[] = {
	"Iteration", "Seq", "Collective", "Ranks", "Last Rank", "Lag:dur_ns", "Skew:dur_ns", NULL,
};
static const int8_t iter_order[] = { 1, 0 };
static const int8_t coll_order[] = { 1, 2, 0 };

static const struct recipe_table tables[] = {
	{ "iterations", "(iterations)", iter_cols, 0, 1u << I_SLOWEST_RANK, iter_order, NULL },
	{ "collectives", "(collectives)", coll_cols, 0, 1u << C_LAST_RANK, coll_order, NULL },
};

static const struct nst_recipe recipe = {
	.tables = tables, .ntables = 2, .nkeys = { 1, 2 }, .args = args_of, .part = part,
	.reduce = reduce,
};

static const struct nst_need needs[] = {
	{ KERNEL, "start", false }, { KERNEL, "end", false }, { KERNEL, "globalPid", false },
	NCCL_NEEDS,
	{ NVTX, "start", false }, { NVTX, "end", false }, { NVTX, "eventType", false },
	{ NVTX, "globalTid", false }, { NVTX, "textId", false }, { NVTX, "domainId", false },
	{ NVTX, "text", true },
	{ SESSION, "utcEpochNs", false },
	{ NULL, NULL, false },
};

const struct nst_report nst_recipe_stragglers = {
	.name = "stragglers",
	.title = "Stragglers",
	.help = "Which rank holds the others back, iteration by iteration.  An iteration\n"
		"is an instance of the NVTX push/pop or start/end range named by\n"
		"iteration=RANGE (its own name, in any domain) on a rank, numbered 0, 1,\n"
		"... in order of start; without iteration=, a rank's one iteration runs\n"
		"from its first kernel's start to its last kernel's end.  iterations: per\n"
		"iteration, the ranks that have it, the median duration, the slowest rank\n"
		"and its duration, and its lag behind the median.  collectives: the k-th\n"
		"NCCL kernel (ncclKernel_*, ncclDevKernel_*) of an iteration on every\n"
		"rank is one call; per iteration and Seq k, its collective, the ranks,\n"
		"the rank that started it last, its lag behind the median start and the\n"
		"skew from the first start to the last (on UTC where an input records its\n"
		"session's start).",
	.args = (const char *const[]){ "iteration", NULL },
	.needs = needs,
	.check = check,
	.recipe = &recipe,
};
