#include "reports/nvtx_gpu.h"

#include <stdlib.h>
#include <string.h>

#include "core/big.h"
#include "core/corrindex.h"
#include "core/resize.h"
#include "core/strtab.h"

/* ---- spans ---------------------------------------------------------------- */

enum nst_status nst_spans_alloc(struct nst_spans *s, size_t n, struct nst_error *err)
{
	size_t m = n ? n : 1;
	s->n = n;
	s->start = nst_big_alloc(m, sizeof *s->start);
	s->end = nst_big_alloc(m, sizeof *s->end);
	s->tid = nst_big_alloc(m, sizeof *s->tid);
	if (s->start && s->end && s->tid)
		return NST_OK;
	nst_spans_release(s);
	return nst_fail(err, NST_ERR_NOMEM, "out of memory");
}

void nst_spans_release(struct nst_spans *s)
{
	free(s->start);
	free(s->end);
	free(s->tid);
	memset(s, 0, sizeof *s);
}

static bool span_valid(const struct nst_spans *s, uint32_t i)
{
	return s->start[i] != NST_NULL_I64 && s->end[i] != NST_NULL_I64 &&
	       s->tid[i] != NST_NULL_I64;
}

/* The valid spans ordered by thread, start, and end descending, so that
 * on one thread an enclosing range comes first; equal spans in row order. */
static enum nst_status range_order(const struct nst_spans *s, uint32_t **out, size_t *n,
				   struct nst_error *err)
{
	uint32_t *idx = nst_big_alloc(s->n, sizeof *idx);
	*out = idx;
	*n = 0;
	if (!idx)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < s->n; i++)
		if (span_valid(s, (uint32_t)i))
			idx[(*n)++] = (uint32_t)i;
	enum nst_status st = nst_sort_by_key_desc(idx, *n, s->end, err);
	if (st == NST_OK)
		st = nst_sort_by_key(idx, *n, s->start, err);
	if (st == NST_OK)
		st = nst_sort_by_key(idx, *n, s->tid, err);
	return st;
}

/* One thread's ranges, order[lo, hi); those still open, outermost first,
 * at open[lo, lo + nopen). */
struct thread_ranges {
	size_t lo, hi, next, nopen;
	int64_t last; /* the latest query start so far */
};

#define SEEN 64

/* Ranges swept thread by thread: the queries of each thread must come in
 * start order, those of different threads may interleave. */
struct sweep {
	const struct nst_spans *r;
	uint32_t *order, *open; /* n valid ranges */
	size_t n;
	struct thread_ranges *threads;
	struct nst_map by_tid; /* (globalTid, 0) -> threads[] */
	/* Threads looked up lately, by a hash of their id: calls of a few
	 * threads interleave row by row. */
	int64_t seen_tid[SEEN];
	struct thread_ranges *seen[SEEN];
};

static void sweep_release(struct sweep *w)
{
	free(w->order);
	free(w->open);
	free(w->threads);
	nst_map_release(&w->by_tid);
}

static enum nst_status sweep_init(struct sweep *w, const struct nst_spans *ranges,
				  struct nst_error *err)
{
	size_t n, nthreads = 0, cap = 0;
	memset(w, 0, sizeof *w);
	w->r = ranges;
	for (size_t h = 0; h < SEEN; h++)
		w->seen_tid[h] = NST_NULL_I64; /* a NULL thread is never looked up */
	enum nst_status s = range_order(ranges, &w->order, &n, err);
	w->n = n;
	if (s != NST_OK)
		return s;
	w->open = nst_big_alloc(n, sizeof *w->open);
	if (!w->open || nst_map_init(&w->by_tid, 64))
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		int64_t tid = ranges->tid[w->order[i]];
		if (i > 0 && tid == ranges->tid[w->order[i - 1]]) {
			w->threads[nthreads - 1].hi = i + 1;
			continue;
		}
		uint32_t k;
		bool fresh;
		/* a few threads hold the ranges: grown as they come */
		if (nthreads == cap && NST_RESIZE(w->threads, cap = cap ? 2 * cap : 16))
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		if (nst_map_get_or_put(&w->by_tid, tid, 0, (uint32_t)nthreads, &k, &fresh))
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		w->threads[nthreads++] = (struct thread_ranges){ i, i + 1, i, 0, INT64_MIN };
	}
	return NST_OK;
}

/* The ranges of thread tid, or NULL where it has none. */
static struct thread_ranges *sweep_thread(struct sweep *w, int64_t tid)
{
	size_t h = (size_t)(((uint64_t)tid * 0x9E3779B97F4A7C15ull) >> 58);
	uint32_t k;
	if (tid != w->seen_tid[h]) {
		w->seen_tid[h] = tid;
		w->seen[h] = nst_map_get(&w->by_tid, tid, 0, &k) ? &w->threads[k] : NULL;
	}
	return w->seen[h];
}

/* Calls fn for each range of t around query q: opens the ranges that
 * start at or before it, and forgets those that ended before it, since
 * later queries start later. */
static int sweep_query(struct sweep *w, struct thread_ranges *t, int64_t start, int64_t end,
		       const uint32_t *q, size_t nq, nst_enclose_fn fn, void *arg)
{
	const struct nst_spans *r = w->r;
	uint32_t *open = w->open + t->lo;
	while (t->next < t->hi && r->start[w->order[t->next]] <= start)
		open[t->nopen++] = w->order[t->next++];
	size_t kept = 0;
	for (size_t i = 0; i < t->nopen; i++)
		if (r->end[open[i]] >= start)
			open[kept++] = open[i];
	t->nopen = kept;
	for (size_t k = 0; k < nq; k++)
		for (size_t i = 0; i < kept; i++)
			if (r->end[open[i]] >= end && fn(arg, open[i], q[k]))
				return -1;
	return 0;
}

/* The spans are their own queries: the sweep's order, by thread and
 * start, is an order they may come in, and no second order (4 bytes a
 * span, and a sort's 16) sits on nvtx_gpu_proj's peak. */
enum nst_status nst_enclosing(const struct nst_spans *s, nst_enclose_fn fn, void *arg,
			      struct nst_error *err)
{
	struct sweep w;
	enum nst_status st = sweep_init(&w, s, err);
	for (size_t k = 0; st == NST_OK && k < w.n; k++) {
		uint32_t q = w.order[k];
		struct thread_ranges *t = sweep_thread(&w, s->tid[q]);
		if (t && sweep_query(&w, t, s->start[q], s->end[q], &w.order[k], 1, fn, arg))
			st = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	sweep_release(&w);
	return st;
}

/* ---- ranges around launches ------------------------------------------------- */

/* The launches grouped by call row (a counting sort), each call's in list
 * order; the calls to visit, in start order on each thread. */
struct by_call {
	uint32_t *end;   /* end[r]: where call r's launches end in order[] */
	uint32_t *order; /* launch indices */
	uint32_t *rows;  /* the call rows to visit, or NULL: all in row order */
	size_t nrows;
};

static void by_call_release(struct by_call *b)
{
	free(b->end);
	free(b->order);
	free(b->rows);
}

static enum nst_status by_call_fill(struct by_call *b, const struct nst_calls *c,
				    const struct nst_launches *l, size_t nl,
				    struct nst_error *err)
{
	size_t n = 0;
	for (size_t k = 0; k < nl; k++)
		n += l[k].n;
	memset(b, 0, sizeof *b);
	b->end = nst_big_zalloc(c->n, sizeof *b->end);
	b->order = nst_big_alloc(n, sizeof *b->order);
	if (!b->end || !b->order)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory ordering launches by call");
	for (size_t k = 0; k < nl; k++)
		for (size_t i = 0; i < l[k].n; i++)
			b->end[l[k].call[i]]++;
	uint32_t sum = 0;
	for (size_t r = 0; r < c->n; r++) {
		uint32_t count = b->end[r];
		b->end[r] = sum; /* the start for now: filling moves it to the end */
		sum += count;
	}
	for (size_t k = 0, q = 0; k < nl; k++)
		for (size_t i = 0; i < l[k].n; i++, q++)
			b->order[b->end[l[k].call[i]]++] = (uint32_t)q;
	return NST_OK;
}

static uint32_t calls_begin(const struct by_call *b, uint32_t r)
{
	return r ? b->end[r - 1] : 0;
}

/* The thread's ranges where call r launched something and has a valid
 * span on a thread with ranges, else NULL. */
static struct thread_ranges *call_thread(struct sweep *w, const struct nst_calls *c,
					 const struct by_call *b, uint32_t r)
{
	if (calls_begin(b, r) == b->end[r] || c->start[r] == NST_NULL_I64 ||
	    c->end[r] == NST_NULL_I64)
		return NULL;
	int64_t tid = nst_col_or_null(c->gtid, r);
	return tid == NST_NULL_I64 ? NULL : sweep_thread(w, tid);
}

/* Whether each thread's launching calls come in start order by row, as
 * nsys writes them. */
static bool rows_in_start_order(struct sweep *w, const struct nst_calls *c,
				const struct by_call *b)
{
	for (uint32_t r = 0; r < c->n; r++) {
		struct thread_ranges *t = call_thread(w, c, b, r);
		if (t && c->start[r] < t->last)
			return false;
		if (t)
			t->last = c->start[r];
	}
	return true;
}

/* Else the launching calls sorted by start. */
static enum nst_status rows_by_start(struct by_call *b, const struct nst_calls *c,
				     struct nst_error *err)
{
	b->rows = nst_big_alloc(c->n, sizeof *b->rows);
	if (!b->rows)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory ordering launches by call");
	for (uint32_t r = 0; r < c->n; r++)
		if (calls_begin(b, r) < b->end[r] && c->start[r] != NST_NULL_I64)
			b->rows[b->nrows++] = r;
	return nst_sort_by_key(b->rows, b->nrows, c->start, err);
}

enum nst_status nst_launches_in_ranges(const struct nst_spans *ranges, const struct nst_calls *c,
				       const struct nst_launches *l, size_t nl,
				       nst_enclose_fn fn, void *arg, struct nst_error *err)
{
	struct sweep w;
	struct by_call b = { 0 };
	enum nst_status s = sweep_init(&w, ranges, err);
	if (s == NST_OK)
		s = by_call_fill(&b, c, l, nl, err);
	if (s == NST_OK && !rows_in_start_order(&w, c, &b))
		s = rows_by_start(&b, c, err);
	size_t n = b.rows ? b.nrows : c->n;
	for (size_t k = 0; s == NST_OK && k < n; k++) {
		uint32_t r = nst_row_at(b.rows, k);
		struct thread_ranges *t = call_thread(&w, c, &b, r);
		uint32_t lo = calls_begin(&b, r);
		if (t && sweep_query(&w, t, c->start[r], c->end[r], &b.order[lo], b.end[r] - lo, fn, arg))
			s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	by_call_release(&b);
	sweep_release(&w);
	return s;
}

/* ---- launches --------------------------------------------------------------- */

/* Room for n + more pairs: a row per call is the rule, so the arrays are
 * sized to the rows first and grow only where calls share a key. */
static int launches_reserve(struct nst_launches *l, size_t *cap, size_t more)
{
	if (l->n + more <= *cap)
		return 0;
	size_t want = *cap ? *cap : l->n + more;
	while (want < l->n + more)
		want *= 2;
	if (NST_RESIZE(l->op, want) || NST_RESIZE(l->call, want))
		return -1;
	*cap = want;
	return 0;
}

/* Where a GPU row finds its calls: the index of every call, or an index
 * of some of them (own) with its chains. */
struct call_join {
	struct nst_ctx *ctx;
	struct nst_corrindex *own;
	const uint32_t *next;
	/* The ids of own's calls, a bit each from lo (NULL: not kept): few
	 * calls have ids all over the range, which a hash map holds, and a
	 * bit turns away most GPU rows before a lookup. */
	uint64_t *ids;
	int64_t lo, hi;
};

static bool may_be_own(const struct call_join *j, int64_t corr)
{
	if (!j->ids)
		return true;
	if (corr < j->lo || corr > j->hi)
		return false;
	uint64_t at = (uint64_t)corr - (uint64_t)j->lo;
	return j->ids[at / 64] >> (at % 64) & 1;
}

static int64_t first_call(const struct call_join *j, int64_t gpid, int64_t corr)
{
	if (!j->own)
		return nst_calls_find(j->ctx, gpid, corr);
	if (gpid == NST_NULL_I64 || corr == NST_NULL_I64 || !may_be_own(j, corr))
		return -1;
	return nst_corrindex_find(j->own, gpid, corr);
}

/* The id bits of rows[0..n), where they take at most a byte for each of
 * the table's rows (ids are nearly dense: a bit each, as a rule). */
static int mark_ids(struct call_join *j, const struct nst_col *corr, const uint32_t *rows,
		    size_t n, size_t nrows)
{
	bool any = false;
	for (size_t i = 0; i < n; i++) {
		int64_t id = nst_col_at(corr, rows[i]);
		if (id == NST_NULL_I64)
			continue;
		j->lo = !any || id < j->lo ? id : j->lo;
		j->hi = !any || id > j->hi ? id : j->hi;
		any = true;
	}
	uint64_t words = any ? ((uint64_t)j->hi - (uint64_t)j->lo) / 64 + 1 : 0;
	if (!any || words > nrows / 8 + 1024)
		return 0;
	if (!(j->ids = nst_big_zalloc((size_t)words, sizeof *j->ids)))
		return -1;
	for (size_t i = 0; i < n; i++) {
		int64_t id = nst_col_at(corr, rows[i]);
		uint64_t at = (uint64_t)id - (uint64_t)j->lo;
		if (id != NST_NULL_I64)
			j->ids[at / 64] |= 1ull << (at % 64);
	}
	return 0;
}

/* Appends a pair for each call of GPU row i. */
static int add_calls(const struct call_join *j, const struct nst_col *gpid,
		     const struct nst_col *corr, size_t i, struct nst_launches *l, size_t *cap)
{
	int64_t r = first_call(j, nst_col_or_null(gpid, i), nst_col_or_null(corr, i));
	for (; r >= 0; r = nst_calls_next(j->next, r)) {
		if (launches_reserve(l, cap, 1))
			return -1;
		l->op[l->n] = (uint32_t)i;
		l->call[l->n++] = (uint32_t)r;
	}
	return 0;
}

/* The pairs of table's rows (those ctx shows) as j joins them.  The
 * arrays start at the table's size where every call is indexed, else
 * small: few calls, few launches. */
static enum nst_status join(struct nst_ctx *ctx, const char *table, const struct call_join *j,
			    struct nst_launches *l, struct nst_error *err)
{
	memset(l, 0, sizeof *l);
	size_t rows, cap = 0;
	const struct nst_col *gpid, *corr;
	enum nst_status s = nst_ev_rows(ctx->ev, table, &rows, err);
	if (!s) s = nst_ev_col(ctx->ev, table, "globalPid", &gpid, err);
	if (!s) s = nst_ev_col(ctx->ev, table, "correlationId", &corr, err);
	if (s != NST_OK || rows == 0)
		return s;
	int rc = launches_reserve(l, &cap, j->own ? 64 : rows);
	for (size_t i = 0; !rc && i < rows; i++)
		rc = add_calls(j, gpid, corr, i, l, &cap);
	if (rc) {
		nst_launches_release(l);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory joining %s to calls", table);
	}
	return NST_OK;
}

enum nst_status nst_launches_of(struct nst_ctx *ctx, const char *table, bool all_calls,
				struct nst_launches *l, struct nst_error *err)
{
	struct nst_ctx all = all_calls ? nst_ctx_unfiltered(ctx) : *ctx;
	struct call_join j = { .ctx = &all };
	memset(l, 0, sizeof *l);
	enum nst_status s = nst_calls_chain(&all, &j.next, err);
	return s ? s : join(ctx, table, &j, l, err);
}

/* ---- launches inside ranges -------------------------------------------------- */

/* A call lies inside a range of its thread when some range starts at or
 * before it and ends at or after its end (and its start: the sweep drops
 * a range that ended before a call started).  With each thread's ranges
 * by start, the latest end among those up to a point answers that for
 * every call by one binary search. */
struct reach {
	struct sweep w;
	int64_t *end; /* by position in w.order: the latest end up to it */
};

static enum nst_status reach_init(struct reach *rc, const struct nst_spans *ranges,
				  struct nst_error *err)
{
	enum nst_status s = sweep_init(&rc->w, ranges, err);
	size_t n = 0;
	for (size_t i = 0; s == NST_OK && i < ranges->n; i++)
		n += span_valid(ranges, (uint32_t)i);
	rc->end = s ? NULL : nst_big_alloc(n, sizeof *rc->end);
	if (s == NST_OK && !rc->end)
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (s != NST_OK)
		return s;
	for (size_t i = 0; i < n; i++) {
		int64_t e = ranges->end[rc->w.order[i]];
		bool same_thread = i > 0 && ranges->tid[rc->w.order[i - 1]] == ranges->tid[rc->w.order[i]];
		rc->end[i] = same_thread && rc->end[i - 1] > e ? rc->end[i - 1] : e;
	}
	return NST_OK;
}

static void reach_release(struct reach *rc)
{
	free(rc->end);
	sweep_release(&rc->w);
}

static bool inside_some_range(struct reach *rc, int64_t tid, int64_t start, int64_t end)
{
	struct thread_ranges *t = sweep_thread(&rc->w, tid);
	if (!t)
		return false;
	const int64_t *rstart = rc->w.r->start;
	size_t lo = t->lo, hi = t->hi; /* the first range to start after the call */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (rstart[rc->w.order[mid]] <= start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > t->lo && rc->end[lo - 1] >= (end > start ? end : start);
}

/* Whether call i lies inside some range of its thread. */
static bool call_inside(struct reach *rc, const struct nst_calls *c, size_t i)
{
	uint32_t r = nst_call_row(c, i);
	int64_t tid = nst_col_or_null(c->gtid, r);
	return c->start[r] != NST_NULL_I64 && c->end[r] != NST_NULL_I64 && tid != NST_NULL_I64 &&
	       inside_some_range(rc, tid, c->start[r], c->end[r]);
}

/* Whether the calls' starts ascend in row order, as nsys writes them. */
static bool starts_ascend(const struct nst_calls *c)
{
	for (size_t i = 1; i < c->ncalls; i++)
		if (c->start[nst_call_row(c, i)] < c->start[nst_call_row(c, i - 1)])
			return false;
	return true;
}

/* The first call (by row) that starts at or after t; the calls' starts ascend. */
static size_t first_from(const struct nst_calls *c, int64_t t)
{
	size_t lo = 0, hi = c->ncalls;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->start[nst_call_row(c, mid)] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* A call inside a range starts within it.  With the calls' starts in
 * row order, each range's calls are found by a binary search, not by
 * asking every call: in[] gets the candidates' positions in c->rows, in
 * order and once each; false when there are more than max. */
static bool candidates(const struct nst_spans *ranges, const struct nst_calls *c, size_t max,
		       uint32_t *in, size_t *n)
{
	*n = 0;
	for (size_t k = 0; k < ranges->n; k++) {
		if (!span_valid(ranges, (uint32_t)k))
			continue;
		for (size_t i = first_from(c, ranges->start[k]);
		     i < c->ncalls && c->start[nst_call_row(c, i)] <= ranges->end[k]; i++) {
			if (*n == max)
				return false;
			in[(*n)++] = (uint32_t)i;
		}
	}
	qsort(in, *n, sizeof *in, cmp_u32);
	size_t kept = 0;
	for (size_t j = 0; j < *n; j++)
		if (kept == 0 || in[kept - 1] != in[j])
			in[kept++] = in[j];
	*n = kept;
	return true;
}

/* The calls some range of their thread holds, in row order, while there
 * are at most max of them; *rows NULL where there are more. */
static enum nst_status calls_inside(const struct nst_spans *ranges, const struct nst_calls *c,
				    size_t max, uint32_t **rows, size_t *n, struct nst_error *err)
{
	struct reach rc = { 0 };
	*n = 0;
	*rows = NULL;
	enum nst_status s = reach_init(&rc, ranges, err);
	uint32_t *in = s ? NULL : nst_big_alloc(max, sizeof *in);
	if (s == NST_OK && !in)
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	size_t m = 0;
	if (s == NST_OK && starts_ascend(c) && candidates(ranges, c, max, in, &m)) {
		for (size_t j = 0; j < m; j++)
			if (call_inside(&rc, c, in[j]))
				in[(*n)++] = nst_call_row(c, in[j]);
		reach_release(&rc);
		*rows = in;
		return s;
	}
	for (size_t i = 0; s == NST_OK && i < c->ncalls; i++) {
		if (!call_inside(&rc, c, i))
			continue;
		if (*n == max) {
			free(in);
			in = NULL;
			break;
		}
		in[(*n)++] = nst_call_row(c, i);
	}
	reach_release(&rc);
	*rows = in;
	return s;
}

/* Few calls inside ranges (a handful of ranges in a long capture): an
 * index of those calls alone, and GPU rows joined to them, skip the index
 * of every call and the pairs that no range would take. */
#define FEW_CALLS_SHARE 8 /* at most one call in this many */

/* Whether few calls may be inside ranges: not where there is a range for
 * every few calls (an NVTX range around each step of a loop), whose
 * calls the search would look through only to give up. */
static bool few_ranges(const struct nst_spans *ranges, const struct nst_calls *c)
{
	return ranges->n <= c->ncalls / (8 * FEW_CALLS_SHARE);
}

enum nst_status nst_launches_inside(struct nst_ctx *ctx, const struct nst_spans *ranges,
				    bool all_calls, const char *const *tables, size_t ntables,
				    struct nst_launches *l, struct nst_error *err)
{
	struct nst_ctx all = all_calls ? nst_ctx_unfiltered(ctx) : *ctx;
	const struct nst_calls *c;
	uint32_t *rows = NULL;
	size_t n = 0;
	struct nst_corrindex x = { 0 };
	uint32_t *next = NULL;
	struct call_join j = { .ctx = &all, .own = &x };
	memset(l, 0, ntables * sizeof *l);
	enum nst_status s = nst_calls_ids(&all, &c, err);
	if (s == NST_OK && c->gtid && c->corr && few_ranges(ranges, c))
		s = calls_inside(ranges, c, c->ncalls / FEW_CALLS_SHARE, &rows, &n, err);
	if (s == NST_OK && rows &&
	    (nst_calls_index_rows(c, rows, n, &x) ||
	     nst_corrindex_chain(&x, c->n, &next) || mark_ids(&j, c->corr, rows, n, c->n)))
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory indexing %s", RUNTIME);
	j.next = next;
	for (size_t k = 0; s == NST_OK && k < ntables; k++)
		s = rows ? join(ctx, tables[k], &j, &l[k], err)
			 : nst_launches_of(ctx, tables[k], all_calls, &l[k], err);
	free(next);
	free(j.ids);
	nst_corrindex_release(&x);
	free(rows);
	return s;
}

void nst_launches_release(struct nst_launches *l)
{
	free(l->op);
	free(l->call);
	memset(l, 0, sizeof *l);
}

enum nst_status nst_nvtx_spans(const struct nst_nvtx *nv, const struct nst_nvtx_named *r,
			       struct nst_spans *s, struct nst_error *err)
{
	enum nst_status st = nst_spans_alloc(s, r->n, err);
	for (size_t i = 0; st == NST_OK && i < r->n; i++) {
		uint32_t row = r->row[i];
		s->start[i] = nv->start[row];
		s->end[i] = nst_nvtx_end(nv, row);
		s->tid[i] = nst_col_or_null(nv->gtid, row);
	}
	return st;
}

/* ---- nvtx-name ------------------------------------------------------------ */

/* The ranges nvtx-name considers: every range that ended on its own
 * thread, as spans indexed by NVTX row (others left NULL). */
static enum nst_status own_thread_ranges(struct nst_ctx *ctx, const struct nst_nvtx *nv,
					 struct nst_spans *s, struct nst_error *err)
{
	const struct nst_col *end_tid;
	enum nst_status st = nst_ev_col(ctx->ev, NVTX, "endGlobalTid", &end_tid, err);
	if (st == NST_OK)
		st = nst_spans_alloc(s, nv->n, err);
	for (size_t i = 0; st == NST_OK && i < nv->n; i++) {
		enum nst_nvtx_style style;
		bool take = nst_nvtx_range_style(nst_col_at(nv->type, i), &style) &&
			    nst_col_or_null(end_tid, i) == NST_NULL_I64;
		s->start[i] = take ? nv->start[i] : NST_NULL_I64;
		s->end[i] = nst_nvtx_end(nv, i);
		s->tid[i] = nst_col_or_null(nv->gtid, i);
	}
	return st;
}

struct innermost {
	const struct nst_spans *r;
	int64_t *best; /* by query: the range, or -1 */
};

static int take_innermost(void *arg, uint32_t range, uint32_t query)
{
	struct innermost *in = arg;
	in->best[query] = range;
	return 0;
}

/* By kernel row: the innermost range around any of its launches (the
 * latest start), or -1. */
static enum nst_status innermost_ranges(struct nst_ctx *ctx, const struct nst_spans *ranges,
					int64_t *by_kernel, size_t nk, struct nst_error *err)
{
	struct nst_launches l;
	const struct nst_calls *c;
	int64_t *best = NULL;
	for (size_t k = 0; k < nk; k++)
		by_kernel[k] = -1;
	/* nsys names a kernel in the filter by its launch even when the call
	 * itself lies outside: it joins main.CUPTI_ACTIVITY_KIND_RUNTIME */
	struct nst_ctx all = nst_ctx_unfiltered(ctx);
	enum nst_status s = nst_calls_ids(&all, &c, err);
	if (s == NST_OK)
		s = nst_launches_inside(ctx, ranges, true, (const char *const[]){ KERNEL }, 1, &l, err);
	if (s != NST_OK) {
		nst_launches_release(&l);
		return s;
	}
	best = nst_big_alloc(l.n, sizeof *best);
	if (!best)
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; s == NST_OK && i < l.n; i++)
		best[i] = -1;
	if (s == NST_OK)
		s = nst_launches_in_ranges(ranges, c, &l, 1, take_innermost,
					   &(struct innermost){ ranges, best }, err);
	for (size_t i = 0; s == NST_OK && i < l.n; i++) {
		int64_t *b = &by_kernel[l.op[i]];
		if (best[i] >= 0 && (*b < 0 || ranges->start[best[i]] > ranges->start[*b]))
			*b = best[i];
	}
	free(best);
	nst_launches_release(&l);
	return s;
}

/* "range/kernel" ids, interned by text. */
static enum nst_status prefix_names(struct nst_ctx *ctx, const struct nst_nvtx *nv,
				    const int64_t *range_of, const struct nst_col *base_ids,
				    size_t nk, int64_t id_base, int64_t *ids, struct nst_strtab *t,
				    struct nst_arena *arena, struct nst_error *err)
{
	struct nst_map cache; /* (range name, kernel id) -> id + 1 */
	if (nst_map_init(&cache, 64))
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	struct nst_strtab rnames = { 0 };
	enum nst_status s = NST_OK;
	for (size_t k = 0; s == NST_OK && k < nk; k++) {
		const char *rname = range_of[k] < 0 ? NULL : nst_nvtx_base_name(ctx, nv, (size_t)range_of[k]);
		int64_t base = nst_col_at(base_ids, k);
		const char *kname = base == NST_NULL_I64 ? NULL : nst_db_string(ctx->db, base);
		ids[k] = base;
		if (!rname || !kname)
			continue; /* SQL's || of NULL: nothing to prefix */
		int64_t rid = nst_strtab_intern(&rnames, rname);
		uint32_t hit;
		bool fresh;
		if (rid < 0) {
			s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
		} else if (nst_map_get(&cache, rid, base, &hit)) {
			ids[k] = id_base + hit;
		} else {
			const char *full = nst_arena_printf(arena, "%s/%s", rname, kname);
			int64_t id = full ? nst_strtab_intern(t, full) : -1;
			if (id < 0 || nst_map_get_or_put(&cache, rid, base, (uint32_t)id, &hit, &fresh))
				s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
			else
				ids[k] = id_base + id;
		}
	}
	nst_strtab_release(&rnames);
	nst_map_release(&cache);
	return s;
}

static enum nst_status nvtx_name_check(struct nst_ctx *ctx, struct nst_error *err)
{
	enum nst_status s = nst_nvtx_check(ctx, err);
	if (s == NST_OK && !nst_db_has_table(ctx->db, RUNTIME))
		s = nst_nodata(ctx, err, "CUDA API data.");
	return s;
}

/* What nvtx-name reads besides the report's own columns; declared before
 * the first read, so that each table is scanned once for all of them
 * rather than once per column. */
const struct nst_need nst_nvtx_name_needs[] = {
	{ NVTX, "start", false }, { NVTX, "end", false },
	{ NVTX, "eventType", false }, { NVTX, "globalTid", false },
	{ NVTX, "textId", false }, { NVTX, "domainId", false },
	{ NVTX, "text", true }, { NVTX, "endGlobalTid", false },
	NST_CALL_NEEDS, NST_CALL_ID_NEEDS, NST_LAUNCH_NEEDS(KERNEL),
	{ NULL, NULL, false },
};

static enum nst_status want_all(struct nst_ctx *ctx, const struct nst_need *needs,
				struct nst_error *err)
{
	for (; needs->table; needs++)
		if (nst_ev_want(ctx->ev, needs->table, needs->column, needs->text) != NST_OK)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	return NST_OK;
}

enum nst_status nst_nvtx_kernel_names(struct nst_ctx *ctx, const struct nst_col *base_ids,
				      int64_t id_base, struct nst_arena *arena,
				      int64_t **ids, const char ***text, size_t *ntext,
				      struct nst_error *err)
{
	struct nst_nvtx nv;
	struct nst_spans ranges = { 0 };
	struct nst_strtab t = { 0 };
	size_t nk;
	int64_t *range_of = NULL;
	*ids = NULL;
	/* kernels as the filter shows them, in ranges from all of them */
	struct nst_ctx all = nst_ctx_unfiltered(ctx);
	enum nst_status s = nvtx_name_check(ctx, err);
	if (!s) s = want_all(ctx, nst_nvtx_name_needs, err);
	if (!s) s = want_all(&all, nst_nvtx_name_needs, err);
	if (!s) s = nst_ev_rows(ctx->ev, KERNEL, &nk, err);
	if (!s) s = nst_nvtx_load(&all, &nv, err);
	if (!s) s = own_thread_ranges(&all, &nv, &ranges, err);
	if (s == NST_OK) {
		range_of = nst_big_alloc(nk, sizeof *range_of);
		*ids = nst_big_alloc(nk, sizeof **ids);
		if (!range_of || !*ids)
			s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	if (!s) s = innermost_ranges(ctx, &ranges, range_of, nk, err);
	if (!s) s = prefix_names(&all, &nv, range_of, base_ids, nk, id_base, *ids, &t, arena, err);
	free(range_of);
	nst_spans_release(&ranges);
	nst_strtab_release_index(&t);
	if (s != NST_OK) {
		free(*ids);
		free(t.text);
		*ids = NULL;
		return s;
	}
	*text = t.text;
	*ntext = t.n;
	return NST_OK;
}
