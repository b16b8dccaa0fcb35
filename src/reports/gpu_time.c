/* GPU operations as intervals, and their coverage by device, process and
 * stream (gpu_time.h). */
#include <stdlib.h>
#include <string.h>

#include "core/big.h"
#include "core/hashmap.h"
#include "core/resize.h"
#include "core/search.h"
#include "core/sqlstat.h"
#include "reports/gpu_time.h"
#include "reports/shared.h"

/* The tables of GPU work: each row one operation of one kind. */
static const struct {
	const char *table;
	enum nst_gt_kind kind;
} sources[] = {
	{ KERNEL, NST_GT_KERNEL },
	{ MEMCPY, NST_GT_MEMCPY },
	{ MEMSET, NST_GT_MEMSET },
	{ GRAPH_TRACE, NST_GT_GRAPH },
};
#define NSOURCES (sizeof sources / sizeof *sources)

struct columns {
	size_t n;
	const int64_t *start, *end;
	const struct nst_col *device, *gpid, *stream; /* as stored */
};

static enum nst_status read_columns(struct nst_events *ev, const char *table,
				    struct columns *c, struct nst_error *err)
{
	memset(c, 0, sizeof *c);
	enum nst_status s = nst_ev_rows(ev, table, &c->n, err);
	if (!s) s = nst_ev_i64(ev, table, "start", &c->start, err);
	if (!s) s = nst_ev_i64(ev, table, "end", &c->end, err);
	if (!s) s = nst_ev_col(ev, table, "deviceId", &c->device, err);
	if (!s) s = nst_ev_col(ev, table, "globalPid", &c->gpid, err);
	if (!s) s = nst_ev_col(ev, table, "streamId", &c->stream, err);
	if (!s && (!c->start || !c->end))
		c->n = 0; /* a table without times holds no interval */
	return s;
}

static enum nst_status reserve(struct nst_gt_ops *ops, size_t cap, struct nst_error *err)
{
	ops->start = nst_big_alloc(cap, sizeof *ops->start);
	ops->end = nst_big_alloc(cap, sizeof *ops->end);
	ops->lane = nst_big_alloc(cap, sizeof *ops->lane);
	ops->kind = nst_big_alloc(cap, 1);
	if (!ops->start || !ops->end || !ops->lane || !ops->kind)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	return NST_OK;
}

/* ---- lanes ------------------------------------------------------------------- */

/* The lanes as the operations meet them: those met lately by a hash of
 * their ids (a table's rows come from a few streams, interleaved), else
 * exact maps (device, stream) -> pair and (process, pair) -> lane. */
#define RECENT 64

struct lanes {
	struct nst_gt_lane *v;
	size_t n, cap;
	uint32_t recent[RECENT]; /* UINT32_MAX: none */
	struct nst_map pairs, by_pair;
	size_t npairs;
};

static int lanes_init(struct lanes *l)
{
	memset(l, 0, sizeof *l);
	memset(l->recent, 0xff, sizeof l->recent);
	return nst_map_init(&l->pairs, 64) || nst_map_init(&l->by_pair, 64) ? -1 : 0;
}

static void lanes_release(struct lanes *l)
{
	nst_map_release(&l->pairs);
	nst_map_release(&l->by_pair);
	free(l->v);
}

static bool same_lane(const struct nst_gt_lane *a, const struct nst_gt_lane *b)
{
	return a->device == b->device && a->gpid == b->gpid && a->stream == b->stream;
}

/* Lane k's index, added where it is new; -1 when out of memory. */
static int64_t lane_id(struct lanes *l, const struct nst_gt_lane *k)
{
	uint64_t h = ((uint64_t)k->device * 0x9E3779B97F4A7C15ull) ^
		     ((uint64_t)k->gpid * 0xC2B2AE3D27D4EB4Full) ^ (uint64_t)k->stream;
	uint32_t *hint = &l->recent[(h * 0x9E3779B97F4A7C15ull) >> 58];
	if (*hint != UINT32_MAX && same_lane(&l->v[*hint], k))
		return *hint;
	uint32_t pair, lane;
	bool fresh;
	if (nst_map_get_or_put(&l->pairs, k->device, k->stream, (uint32_t)l->npairs, &pair, &fresh))
		return -1;
	l->npairs += fresh;
	if (nst_map_get_or_put(&l->by_pair, k->gpid, pair, (uint32_t)l->n, &lane, &fresh))
		return -1;
	if (fresh) {
		if (l->n == l->cap && NST_RESIZE(l->v, l->cap = l->cap ? 2 * l->cap : 16))
			return -1;
		l->v[l->n++] = *k;
	}
	*hint = lane;
	return lane;
}

/* Where time stands: the earliest start and the latest end seen so far
 * (an end before its start counts as the start). */
struct extent {
	bool any;
	int64_t lo, hi;
};

static void extend(struct extent *x, int64_t start, int64_t end)
{
	if (end < start)
		end = start;
	if (!x->any || start < x->lo)
		x->lo = start;
	if (!x->any || end > x->hi)
		x->hi = end;
	x->any = true;
}

static int push(struct nst_gt_ops *ops, struct lanes *lanes, const struct columns *c, size_t row,
		enum nst_gt_kind kind, const struct nst_ev_window *cut)
{
	int64_t start = c->start[row], end = c->end[row];
	if (cut && start < cut->start)
		start = cut->start;
	if (cut && end > cut->end)
		end = cut->end;
	struct nst_gt_lane k = { nst_col_or_null(c->device, row), nst_col_or_null(c->gpid, row),
				 nst_col_or_null(c->stream, row) };
	int64_t lane = lane_id(lanes, &k);
	if (lane < 0)
		return -1;
	size_t i = ops->n++;
	ops->start[i] = start;
	ops->end[i] = end;
	ops->lane[i] = (uint32_t)lane;
	ops->kind[i] = (uint8_t)kind;
	return 0;
}

static enum nst_status gather(struct nst_ctx *ctx, struct nst_gt_ops *ops,
			      const struct nst_ev_window *cut, struct extent *x,
			      struct nst_error *err)
{
	struct columns c[NSOURCES];
	struct lanes lanes;
	size_t total = 0;
	enum nst_status s = NST_OK;
	for (size_t k = 0; !s && k < NSOURCES; k++) {
		s = read_columns(ctx->ev, sources[k].table, &c[k], err);
		total += s ? 0 : c[k].n;
	}
	if (s)
		return s;
	if (lanes_init(&lanes))
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (!s)
		s = reserve(ops, total, err);
	for (size_t k = 0; !s && k < NSOURCES; k++)
		for (size_t i = 0; !s && i < c[k].n; i++) {
			if (c[k].start[i] == NST_NULL_I64 || c[k].end[i] == NST_NULL_I64)
				continue;
			extend(x, c[k].start[i], c[k].end[i]);
			if (push(ops, &lanes, &c[k], i, sources[k].kind, cut))
				s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
		}
	ops->lanes = lanes.v;
	ops->nlanes = lanes.n;
	lanes.v = NULL;
	lanes_release(&lanes);
	return s;
}

/* The session: from time 0 to ANALYSIS_DETAILS.duration (the longest,
 * should there be a row per VM). */
static enum nst_status session(struct nst_ctx *ctx, struct extent *x, struct nst_error *err)
{
	size_t n = 0;
	const int64_t *dur = NULL;
	enum nst_status s = nst_ev_rows(ctx->ev, ANALYSIS_DETAILS, &n, err);
	if (!s) s = nst_ev_i64(ctx->ev, ANALYSIS_DETAILS, "duration", &dur, err);
	for (size_t i = 0; !s && dur && i < n; i++)
		if (dur[i] != NST_NULL_I64 && dur[i] >= 0)
			extend(x, 0, dur[i]);
	return s;
}

/* Without ANALYSIS_DETAILS: the CUDA calls (backtrace records are none),
 * whatever the filter, for the capture does not shrink with it. */
static enum nst_status calls_extent(struct nst_ctx *ctx, struct extent *x, struct nst_error *err)
{
	if (!nst_db_has_table(ctx->db, RUNTIME))
		return NST_OK;
	struct nst_ctx all = nst_ctx_unfiltered(ctx);
	const struct nst_calls *calls;
	enum nst_status s = nst_calls_get(&all, &calls, err);
	for (size_t i = 0; !s && calls->start && calls->end && i < calls->ncalls; i++) {
		uint32_t r = nst_call_row(calls, i);
		if (calls->start[r] != NST_NULL_I64 && calls->end[r] != NST_NULL_I64)
			extend(x, calls->start[r], calls->end[r]);
	}
	return s;
}

static enum nst_status capture_span(struct nst_ctx *ctx, const struct extent *ops_x,
				    const struct nst_ev_window *cut, struct nst_gt_ops *ops,
				    struct nst_error *err)
{
	struct extent x = { 0 };
	enum nst_status s = session(ctx, &x, err);
	if (!s && !x.any)
		s = calls_extent(ctx, &x, err);
	if (s)
		return s;
	if (ops_x->any)
		extend(&x, ops_x->lo, ops_x->hi);
	ops->span_start = x.lo;
	ops->span_end = x.hi;
	if (cut && ops->span_start < cut->start)
		ops->span_start = cut->start;
	if (cut && ops->span_end > cut->end)
		ops->span_end = cut->end;
	if (ops->span_end < ops->span_start)
		ops->span_end = ops->span_start;
	return NST_OK;
}

enum nst_status nst_gt_load(struct nst_ctx *ctx, enum nst_gt_cut cut,
			    struct nst_gt_ops *ops, struct nst_error *err)
{
	memset(ops, 0, sizeof *ops);
	bool any = false;
	for (size_t k = 0; k < NSOURCES; k++)
		any = any || nst_db_has_table(ctx->db, sources[k].table);
	if (!any)
		return nst_nodata(ctx, err,
				  "GPU operations (CUDA kernels, memory copies, memsets or graphs).");
	const struct nst_ev_window *w = cut == NST_GT_CUT_TO_WINDOW ? nst_ev_window_of(ctx->ev) : NULL;
	struct extent x = { 0 };
	enum nst_status s = gather(ctx, ops, w, &x, err);
	if (!s)
		s = capture_span(ctx, &x, w, ops, err);
	return s;
}

static enum nst_status gt_shared_locked(struct nst_ctx *ctx, enum nst_gt_cut cut,
				       const struct nst_gt_ops **ops, const uint32_t **by_device,
				       struct nst_error *err)
{
	struct nst_shared *sh = ctx->shared;
	size_t k = nst_ev_window_of(ctx->ev) ? (size_t)cut : 0;
	if (!sh->gt_loaded[k]) {
		enum nst_status s = nst_gt_load(ctx, cut, &sh->gt[k], err);
		if (!s)
			s = nst_gt_order(&sh->gt[k], NST_GT_BY_DEVICE, &sh->gt_by_device[k], err);
		if (s != NST_OK) {
			nst_gt_release(&sh->gt[k]);
			return s;
		}
		sh->gt_loaded[k] = true;
	}
	*ops = &sh->gt[k];
	*by_device = sh->gt_by_device[k];
	return NST_OK;
}

bool nst_gt_shared_loaded(struct nst_ctx *ctx, enum nst_gt_cut cut,
			  const struct nst_gt_ops **ops, const uint32_t **by_device)
{
	struct nst_shared *sh = ctx->shared;
	size_t k = nst_ev_window_of(ctx->ev) ? (size_t)cut : 0;
	pthread_mutex_lock(&sh->lock);
	bool loaded = sh->gt_loaded[k];
	*ops = loaded ? &sh->gt[k] : NULL;
	*by_device = loaded ? sh->gt_by_device[k] : NULL;
	pthread_mutex_unlock(&sh->lock);
	return loaded;
}

/* Under the shared lock (shared.h). */
enum nst_status nst_gt_shared(struct nst_ctx *ctx, enum nst_gt_cut cut,
			      const struct nst_gt_ops **ops, const uint32_t **by_device,
			      struct nst_error *err)
{
	pthread_mutex_lock(&ctx->shared->lock);
	enum nst_status s = gt_shared_locked(ctx, cut, ops, by_device, err);
	pthread_mutex_unlock(&ctx->shared->lock);
	return s;
}

void nst_gt_release(struct nst_gt_ops *ops)
{
	free(ops->start);
	free(ops->end);
	free(ops->lane);
	free(ops->kind);
	free(ops->lanes);
	memset(ops, 0, sizeof *ops);
}

/* ---- groups ------------------------------------------------------------------ */

static void key_of(const struct nst_gt_lane *l, enum nst_gt_by by, int64_t key[3])
{
	key[0] = by == NST_GT_BY_DEVICE ? NST_NULL_I64 : l->gpid;
	key[1] = l->device;
	key[2] = by == NST_GT_BY_STREAM ? l->stream : NST_NULL_I64;
}

/* Each lane's group, numbered in the order of the groups' keys. */
struct ranked_lane {
	int64_t key[3];
	uint32_t lane;
};

static int by_key(const void *a, const void *b)
{
	const struct ranked_lane *x = a, *y = b;
	return nst_cmp_keys(x->key, y->key, 3);
}

static enum nst_status group_of_lanes(const struct nst_gt_ops *ops, enum nst_gt_by by,
				      uint32_t *group, size_t *ngroups, struct nst_error *err)
{
	struct ranked_lane *r = malloc((ops->nlanes ? ops->nlanes : 1) * sizeof *r);
	if (!r)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < ops->nlanes; i++) {
		key_of(&ops->lanes[i], by, r[i].key);
		r[i].lane = (uint32_t)i;
	}
	qsort(r, ops->nlanes, sizeof *r, by_key);
	*ngroups = 0;
	for (size_t i = 0; i < ops->nlanes; i++) {
		*ngroups += i == 0 || by_key(&r[i - 1], &r[i]) != 0;
		group[r[i].lane] = (uint32_t)(*ngroups - 1);
	}
	free(r);
	return NST_OK;
}

/* Whether the operations are in order of start, then end, as a table of
 * one kind usually is: the passes by end and start then move nothing. */
static bool in_time_order(const struct nst_gt_ops *ops)
{
	for (size_t i = 1; i < ops->n; i++)
		if (ops->start[i] < ops->start[i - 1] ||
		    (ops->start[i] == ops->start[i - 1] && ops->end[i] < ops->end[i - 1]))
			return false;
	return true;
}

/* Operations that start together, idx[0..n), by end, stably: few and
 * short runs, where a radix sort's passes would cost more. */
static enum nst_status by_end(const struct nst_gt_ops *ops, uint32_t *idx, size_t n,
			      struct nst_error *err)
{
	if (n > 32)
		return nst_sort_by_key(idx, n, ops->end, err);
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && ops->end[idx[j]] < ops->end[idx[j - 1]]; j--) {
			uint32_t t = idx[j];
			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	return NST_OK;
}

/* idx (row order) by start, then end, then row: one radix sort by start
 * (which packs the row beside the key), then each run of equal starts by
 * end, where a sort by end before the one by start sorted every row. */
static enum nst_status time_order(const struct nst_gt_ops *ops, uint32_t *idx,
				  struct nst_error *err)
{
	enum nst_status s = nst_sort_by_key(idx, ops->n, ops->start, err);
	for (size_t i = 0, j; !s && i < ops->n; i = j) {
		for (j = i + 1; j < ops->n && ops->start[idx[j]] == ops->start[idx[i]]; j++)
			;
		s = by_end(ops, idx + i, j - i, err);
	}
	return s;
}

/* The operations in time order (time[0..n), or row order where time is
 * NULL) moved to out by group, stably: a counting sort by lane group. */
static enum nst_status by_group(const struct nst_gt_ops *ops, enum nst_gt_by by,
				const uint32_t *time, uint32_t *out, struct nst_error *err)
{
	size_t ngroups = 0;
	uint32_t *group = malloc((ops->nlanes ? ops->nlanes : 1) * sizeof *group);
	enum nst_status s = group ? group_of_lanes(ops, by, group, &ngroups, err)
				  : nst_fail(err, NST_ERR_NOMEM, "out of memory");
	size_t *at = s ? NULL : calloc(ngroups + 1, sizeof *at);
	if (!s && !at)
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; !s && i < ops->n; i++)
		at[group[ops->lane[i]] + 1]++;
	for (size_t g = 0; !s && g < ngroups; g++)
		at[g + 1] += at[g];
	for (size_t k = 0; !s && k < ops->n; k++) {
		uint32_t i = time ? time[k] : (uint32_t)k;
		out[at[group[ops->lane[i]]]++] = i;
	}
	free(at);
	free(group);
	return s;
}

/* idx in group order, and in each group by start then end. */
static enum nst_status order_ops(const struct nst_gt_ops *ops, enum nst_gt_by by, uint32_t *idx,
				 struct nst_error *err)
{
	if (in_time_order(ops))
		return by_group(ops, by, NULL, idx, err);
	uint32_t *time = nst_big_alloc(ops->n, sizeof *time);
	if (!time)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < ops->n; i++)
		time[i] = (uint32_t)i;
	enum nst_status s = time_order(ops, time, err);
	if (!s)
		s = by_group(ops, by, time, idx, err);
	free(time);
	return s;
}

/* Where the group of idx[i], whose key is key, ends in idx. */
static size_t group_end(const struct nst_gt_ops *ops, enum nst_gt_by by, const uint32_t *idx,
			size_t i, const int64_t key[3])
{
	size_t j = i + 1;
	for (int64_t next[3]; j < ops->n; j++) {
		if (ops->lane[idx[j]] == ops->lane[idx[j - 1]])
			continue;
		key_of(nst_gt_lane_of(ops, idx[j]), by, next);
		if (memcmp(key, next, sizeof next) != 0)
			break;
	}
	return j;
}

/* One group: rows idx[0..n) in start order.  False when a sum of its
 * durations does not fit int64. */
static bool measure(const struct nst_gt_ops *ops, const uint32_t *idx, size_t n, int64_t gap,
		    struct nst_gt_group *g)
{
	struct nst_coverage_acc all, kern;
	nst_coverage_start(&all, gap);
	nst_coverage_start(&kern, gap);
	g->graph_sum = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t r = idx[i];
		nst_coverage_add(&all, ops->start[r], ops->end[r]);
		if (ops->kind[r] == NST_GT_KERNEL || ops->kind[r] == NST_GT_GRAPH)
			nst_coverage_add(&kern, ops->start[r], ops->end[r]);
		if (ops->kind[r] == NST_GT_GRAPH && ops->end[r] > ops->start[r] &&
		    !nst_add_i64(&g->graph_sum, ops->end[r] - ops->start[r]))
			return false;
	}
	g->busy = nst_coverage_end(&all);
	g->kern = nst_coverage_end(&kern);
	return !g->busy.sum_overflow && !g->kern.sum_overflow;
}

enum nst_status nst_gt_order(const struct nst_gt_ops *ops, enum nst_gt_by by, uint32_t **order,
			     struct nst_error *err)
{
	*order = nst_big_alloc(ops->n, sizeof **order);
	enum nst_status s = *order ? order_ops(ops, by, *order, err)
				   : nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (s) {
		free(*order);
		*order = NULL;
	}
	return s;
}

/* Room for twice the groups: a device has a few streams, a capture a few
 * devices, where the operations number millions. */
static int grow_groups(struct nst_gt_group **g, size_t *cap)
{
	size_t want = *cap ? 2 * *cap : 16;
	struct nst_gt_group *p = realloc(*g, want * sizeof *p);
	if (!p)
		return -1;
	*g = p;
	*cap = want;
	return 0;
}

enum nst_status nst_gt_measure(const struct nst_gt_ops *ops, enum nst_gt_by by, int64_t gap,
			       const uint32_t *order, struct nst_gt_group **out, size_t *n,
			       struct nst_error *err)
{
	*out = NULL;
	*n = 0;
	size_t cap = 0;
	struct nst_gt_group *g = NULL;
	enum nst_status s = NST_OK;
	for (size_t i = 0, j; !s && i < ops->n; i = j) {
		int64_t key[3];
		key_of(nst_gt_lane_of(ops, order[i]), by, key);
		j = group_end(ops, by, order, i, key);
		if (*n == cap && grow_groups(&g, &cap)) {
			s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
			break;
		}
		struct nst_gt_group *grp = &g[(*n)++];
		grp->gpid = key[0];
		grp->device = key[1];
		grp->stream = key[2];
		if (!measure(ops, order + i, j - i, gap, grp))
			s = nst_fail_sum(err);
	}
	if (s) {
		free(g);
		*n = 0;
		return s;
	}
	*out = g;
	return NST_OK;
}

enum nst_status nst_gt_groups(const struct nst_gt_ops *ops, enum nst_gt_by by, int64_t gap,
			      struct nst_gt_group **out, size_t *n, struct nst_error *err)
{
	uint32_t *order;
	*out = NULL;
	*n = 0;
	enum nst_status s = nst_gt_order(ops, by, &order, err);
	if (!s)
		s = nst_gt_measure(ops, by, gap, order, out, n, err);
	free(order);
	return s;
}

static enum nst_status copy_groups(const struct nst_gt_group *g, size_t n,
				   struct nst_gt_group **out, size_t *nout, struct nst_error *err)
{
	*out = malloc((n ? n : 1) * sizeof **out);
	if (!*out)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (n)
		memcpy(*out, g, n * sizeof *g);
	*nout = n;
	return NST_OK;
}

static enum nst_status by_device_locked(struct nst_ctx *ctx, enum nst_gt_cut cut, int64_t gap,
					struct nst_gt_group **out, size_t *n,
					struct nst_error *err)
{
	struct nst_shared *sh = ctx->shared;
	size_t k = nst_ev_window_of(ctx->ev) ? (size_t)cut : 0;
	const struct nst_gt_ops *ops;
	const uint32_t *by_device;
	enum nst_status s = gt_shared_locked(ctx, cut, &ops, &by_device, err);
	if (s == NST_OK && !sh->gt_dev_measured[k]) {
		sh->gt_dev_gap[k] = gap == NST_GT_ANY_GAP ? NST_GT_DEFAULT_GAP_NS : gap;
		s = nst_gt_measure(ops, NST_GT_BY_DEVICE, sh->gt_dev_gap[k], by_device,
				   &sh->gt_dev[k], &sh->ngt_dev[k], err);
		sh->gt_dev_measured[k] = s == NST_OK;
	}
	if (s != NST_OK)
		return s;
	if (gap != NST_GT_ANY_GAP && gap != sh->gt_dev_gap[k])
		return nst_gt_measure(ops, NST_GT_BY_DEVICE, gap, by_device, out, n, err);
	return copy_groups(sh->gt_dev[k], sh->ngt_dev[k], out, n, err);
}

/* Under the shared lock (shared.h). */
enum nst_status nst_gt_shared_by_device(struct nst_ctx *ctx, enum nst_gt_cut cut, int64_t gap,
					struct nst_gt_group **out, size_t *n,
					struct nst_error *err)
{
	*out = NULL;
	*n = 0;
	pthread_mutex_lock(&ctx->shared->lock);
	enum nst_status s = by_device_locked(ctx, cut, gap, out, n, err);
	pthread_mutex_unlock(&ctx->shared->lock);
	return s;
}

/* ---- the numbers of gpu_time_sum ---------------------------------------------- */

const char *const nst_gt_time_cols[NST_GT_NTIME] = {
	"Capture Span:dur_ns", "GPU Span:dur_ns", "Busy:dur_ns", "Kernel Union:dur_ns",
	"Kernel Sum:dur_ns", "Overlap:dur_ns", "Graph:dur_ns", "Idle:dur_ns",
	"Capture Util:ratio_%", "GPU Span Util:ratio_%", "Idle Gaps", "Gap Time:dur_ns",
};

static struct nst_cell share(int64_t part, int64_t whole)
{
	return whole > 0 ? nst_round1((double)part * 100.0 / (double)whole) : nst_null();
}

void nst_gt_time_cells(const struct nst_gt_group *g, int64_t capture, struct nst_cell *c)
{
	int64_t gpu_span = g->busy.last - g->busy.first;
	struct nst_cell v[NST_GT_NTIME] = {
		nst_int(capture),
		nst_int(gpu_span),
		nst_int(g->busy.covered),
		nst_int(g->kern.covered),
		nst_int(g->kern.sum),
		nst_int(g->kern.sum - g->kern.covered),
		nst_int(g->graph_sum),
		nst_int(capture - g->busy.covered),
		share(g->busy.covered, capture),
		share(g->busy.covered, gpu_span),
		nst_int((int64_t)g->busy.gaps),
		nst_int(g->busy.gap_time),
	};
	memcpy(c, v, sizeof v);
}
