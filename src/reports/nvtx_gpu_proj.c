#include "reports/nvtx_gpu_proj.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/big.h"
#include "reports/gpu_ops.h"

const struct nst_need nst_proj_needs[] = {
	{ NVTX, "start", false }, { NVTX, "end", false },
	{ NVTX, "eventType", false }, { NVTX, "globalTid", false },
	{ NVTX, "textId", false }, { NVTX, "domainId", false },
	{ NVTX, "text", true }, { NVTX, "endGlobalTid", false },
	{ NVTX, "rowid", false },
	NST_CALL_NEEDS, NST_CALL_ID_NEEDS,
	NST_GPU_TIMES_NEEDS(KERNEL), NST_LAUNCH_NEEDS(KERNEL),
	NST_GPU_TIMES_NEEDS(MEMCPY), NST_LAUNCH_NEEDS(MEMCPY),
	NST_GPU_TIMES_NEEDS(MEMSET), NST_LAUNCH_NEEDS(MEMSET),
	{ NULL, NULL, false },
};

enum nst_status nst_proj_check(struct nst_ctx *ctx, struct nst_error *err)
{
	enum nst_status s = nst_nvtx_check(ctx, err);
	if (s == NST_OK && !nst_db_has_table(ctx->db, RUNTIME))
		s = nst_nodata(ctx, err, "CUDA API data.");
	if (s == NST_OK && !nst_db_has_table(ctx->db, KERNEL) &&
	    !nst_db_has_table(ctx->db, MEMCPY) && !nst_db_has_table(ctx->db, MEMSET))
		s = nst_nodata(ctx, err, "GPU operation data.");
	return s;
}

int64_t nst_proj_range_id(const struct nst_proj *p, size_t i)
{
	size_t row = p->named.row[p->entry[i]];
	return p->rowid ? nst_col_at(p->rowid, row) : (int64_t)row + 1;
}

int64_t nst_proj_start(const struct nst_proj *p, size_t i)
{
	return p->nv.start[p->named.row[p->entry[i]]];
}

int64_t nst_proj_end(const struct nst_proj *p, size_t i)
{
	return nst_nvtx_end(&p->nv, p->named.row[p->entry[i]]);
}

/* ---- GPU operations and their calls ---------------------------------------- */

/* Every launch of the three GPU tables, one after another, with the
 * operation where its table holds it. */
enum { OP_TABLES = 3 };

struct ops {
	const struct nst_calls *c;
	size_t first[OP_TABLES];               /* the table's first launch */
	struct nst_launches l[OP_TABLES];
	struct nst_gpu_table t[OP_TABLES];
	const struct nst_col *corr[OP_TABLES];
};

static void ops_release(struct ops *o)
{
	for (size_t k = 0; k < OP_TABLES; k++)
		nst_launches_release(&o->l[k]);
}

/* Launch i's operation: its table's columns and row. */
static uint32_t op_at(const struct ops *o, size_t i, size_t *k)
{
	*k = i >= o->first[2] ? 2 : i >= o->first[1] ? 1 : 0;
	return o->l[*k].op[i - o->first[*k]];
}

/* The launches that ranges may hold. */
static enum nst_status ops_load(struct nst_ctx *ctx, const struct nst_spans *ranges, struct ops *o,
				struct nst_error *err)
{
	static const char *const tables[OP_TABLES] = { KERNEL, MEMCPY, MEMSET };
	size_t n = 0;
	memset(o, 0, sizeof *o);
	enum nst_status s = nst_calls_ids(ctx, &o->c, err);
	if (s == NST_OK)
		s = nst_launches_inside(ctx, ranges, false, tables, OP_TABLES, o->l, err);
	for (size_t k = 0; s == NST_OK && k < OP_TABLES; k++) {
		s = nst_gpu_table_load(ctx, tables[k], NST_GPU_TIMES, &o->t[k], err);
		if (s == NST_OK && o->l[k].n > 0)
			s = nst_ev_col(ctx->ev, tables[k], "correlationId", &o->corr[k], err);
		o->first[k] = n;
		n += o->l[k].n;
	}
	return s;
}

/* ---- projecting ---------------------------------------------------------------- */

/* By named range: the projection so far, 24 bytes a range (the sweep
 * updates a range per launch inside it).  Operations of one call come one
 * after another in the sweep, so a correlationId is counted when it
 * differs from that of the launch counted last. */
struct projected {
	int64_t start, end;
	uint32_t nops, last; /* last: a launch */
};

/* r, a range each, comes with the first launch: after the sweep has
 * sorted the ranges, off the peak of that sort. */
struct acc {
	const struct ops *o;
	struct projected *r;
	size_t nranges;
};

static int64_t corr_of(const struct ops *o, uint32_t launch)
{
	size_t k;
	uint32_t op = op_at(o, launch, &k);
	return nst_col_or_null(o->corr[k], op);
}

static int take_op(void *arg, uint32_t range, uint32_t launch)
{
	struct acc *a = arg;
	if (!a->r && !(a->r = nst_big_zalloc(a->nranges, sizeof *a->r)))
		return -1;
	size_t k;
	uint32_t op = op_at(a->o, launch, &k);
	const struct nst_gpu_table *t = &a->o->t[k];
	struct projected *r = &a->r[range];
	if (r->nops == 0 || t->start[op] < r->start)
		r->start = t->start[op];
	if (r->nops == 0 || t->end[op] > r->end)
		r->end = t->end[op];
	if (r->nops == 0 || nst_col_or_null(a->o->corr[k], op) != corr_of(a->o, r->last)) {
		r->nops++;
		r->last = launch;
	}
	return 0;
}

/* Ranges that start and end on one thread, as spans (others NULL): nsys
 * takes those without an endGlobalTid, even one equal to globalTid. */
static enum nst_status own_thread_spans(struct nst_ctx *ctx, struct nst_proj *p,
					struct nst_spans *s, struct nst_error *err)
{
	const struct nst_col *end_tid;
	enum nst_status st = nst_ev_col(ctx->ev, NVTX, "endGlobalTid", &end_tid, err);
	if (st == NST_OK)
		st = nst_nvtx_spans(&p->nv, &p->named, s, err);
	for (size_t i = 0; st == NST_OK && i < s->n; i++) {
		if (nst_col_or_null(end_tid, p->named.row[i]) != NST_NULL_I64)
			s->start[i] = NST_NULL_I64;
	}
	return st;
}

static enum nst_status alloc_i64(int64_t **out, size_t n, struct nst_error *err)
{
	*out = nst_big_zalloc(n, sizeof **out);
	return *out ? NST_OK : nst_fail(err, NST_ERR_NOMEM, "out of memory");
}

static enum nst_status alloc_u32(uint32_t **out, size_t n, struct nst_error *err)
{
	*out = nst_big_zalloc(n, sizeof **out);
	return *out ? NST_OK : nst_fail(err, NST_ERR_NOMEM, "out of memory");
}

/* Keeps the ranges that got operations (none where r is NULL), in NVTX
 * row order. */
static enum nst_status keep_projected(struct nst_proj *p, const struct projected *r,
				      struct nst_error *err)
{
	size_t n = 0, m = r ? p->named.n : 0;
	for (size_t i = 0; i < m; i++)
		n += r[i].nops > 0;
	p->entry = nst_big_alloc(n, sizeof *p->entry);
	enum nst_status s = p->entry ? NST_OK : nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (!s) s = alloc_i64(&p->pstart, n, err);
	if (!s) s = alloc_i64(&p->pend, n, err);
	if (!s) s = alloc_i64(&p->nops, n, err);
	for (size_t i = 0; s == NST_OK && i < m; i++) {
		if (r[i].nops == 0)
			continue;
		p->entry[p->n] = (uint32_t)i;
		p->pstart[p->n] = r[i].start;
		p->pend[p->n] = r[i].end;
		p->nops[p->n++] = r[i].nops;
	}
	return s;
}

static enum nst_status project(struct nst_ctx *ctx, struct nst_proj *p, struct nst_error *err)
{
	struct ops o;
	struct nst_spans ranges = { 0 };
	struct acc a = { .o = &o, .nranges = p->named.n };
	enum nst_status s = NST_OK;
	memset(&o, 0, sizeof o);
	if (!s) s = own_thread_spans(ctx, p, &ranges, err);
	if (!s) s = ops_load(ctx, &ranges, &o, err);
	if (!s) s = nst_launches_in_ranges(&ranges, o.c, o.l, OP_TABLES, take_op, &a, err);
	/* the ranges and launches are done with: their memory serves the kept ranges */
	nst_spans_release(&ranges);
	ops_release(&o);
	if (!s) s = keep_projected(p, a.r, err);
	free(a.r);
	return s;
}

/* ---- nesting ------------------------------------------------------------------- */

/* The projected ranges by thread, start, end descending: a parent before
 * its children. */
static enum nst_status nesting_order(const struct nst_proj *p, uint32_t *idx,
				     struct nst_error *err)
{
	int64_t *key = nst_big_alloc(p->n, sizeof *key);
	if (!key)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < p->n; i++) {
		idx[i] = (uint32_t)i;
		key[i] = -nst_proj_end(p, i);
	}
	enum nst_status s = nst_sort_by_key(idx, p->n, key, err);
	for (size_t i = 0; s == NST_OK && i < p->n; i++)
		key[i] = nst_proj_start(p, i);
	if (s == NST_OK)
		s = nst_sort_by_key(idx, p->n, key, err);
	for (size_t i = 0; s == NST_OK && i < p->n; i++)
		key[i] = nst_col_or_null(p->nv.gtid, p->named.row[p->entry[i]]);
	if (s == NST_OK)
		s = nst_sort_by_key(idx, p->n, key, err);
	free(key);
	return s;
}

static bool never_ended(const struct nst_proj *p, size_t i)
{
	return !p->nv.end || p->nv.end[p->named.row[p->entry[i]]] == NST_NULL_I64;
}

static const char *stack_text(struct nst_ctx *ctx, const struct nst_proj *p, size_t i)
{
	const char *up = p->parent[i] == NST_PROJ_NONE ? "" : p->stack[p->parent[i]];
	return nst_arena_printf(ctx->arena, "%s:%" PRId64, up, nst_proj_range_id(p, i));
}

/* The tightest range around another: the shortest other range that
 * holds it, the smallest id among equally short ones, as nsys picks
 * parents (with partly overlapping ranges that is not always the latest
 * to start).  Two equal ranges so become each other's parents. */
struct tightest {
	const struct nst_spans *s;
	uint32_t *parent;
};

static int64_t span_dur(const struct nst_spans *s, uint32_t i)
{
	return s->end[i] - s->start[i];
}

static int take_tighter(void *arg, uint32_t r, uint32_t q)
{
	struct tightest *t = arg;
	if (r == q)
		return 0;
	uint32_t up = t->parent[q];
	int64_t dr = span_dur(t->s, r);
	if (up == NST_PROJ_NONE || dr < span_dur(t->s, up) || (dr == span_dur(t->s, up) && r < up))
		t->parent[q] = r;
	return 0;
}

/* Parents among the projected ranges; a range that never ended has a
 * NULL end, which holds nothing and fits nowhere. */
static enum nst_status find_parents(struct nst_proj *p, struct nst_error *err)
{
	struct nst_spans s = { 0 };
	enum nst_status st = nst_spans_alloc(&s, p->n, err);
	for (size_t i = 0; st == NST_OK && i < p->n; i++) {
		s.start[i] = never_ended(p, i) ? NST_NULL_I64 : nst_proj_start(p, i);
		s.end[i] = nst_proj_end(p, i);
		s.tid[i] = nst_col_or_null(p->nv.gtid, p->named.row[p->entry[i]]);
		p->parent[i] = NST_PROJ_NONE;
	}
	if (st == NST_OK)
		st = nst_enclosing(&s, take_tighter, &(struct tightest){ &s, p->parent }, err);
	nst_spans_release(&s);
	return st;
}

static bool same_span(const struct nst_proj *p, size_t a, size_t b)
{
	return nst_proj_start(p, a) == nst_proj_start(p, b) &&
	       nst_proj_end(p, a) == nst_proj_end(p, b);
}

/* Levels and stacks follow the parents from the top-level ranges, each
 * parent first.  Ranges that no chain of parents leads to from the top
 * (two equal ranges, parents of each other, and all inside them) have no
 * level, parent id or stack, as nsys shows them; NumChild counts every
 * range that names the range its parent. */
static enum nst_status nest(struct nst_ctx *ctx, struct nst_proj *p, bool stacks,
			    struct nst_error *err)
{
	size_t n = p->n ? p->n : 1;
	uint32_t *idx = NULL;
	/* what the parents' search does not need comes after it, off its peak */
	enum nst_status s = alloc_u32(&p->parent, n, err);
	if (!s) s = find_parents(p, err);
	if (!s) s = alloc_u32(&p->lvl, n, err);
	if (!s) s = alloc_u32(&p->nchild, n, err);
	if (!s && stacks && !(p->stack = nst_big_zalloc(n, sizeof *p->stack)))
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (!s && !(idx = nst_big_alloc(n, sizeof *idx)))
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (!s) s = nesting_order(p, idx, err);
	for (size_t k = 0; s == NST_OK && k < p->n; k++) {
		uint32_t i = idx[k];
		uint32_t up = p->parent[i];
		if (up != NST_PROJ_NONE)
			p->nchild[up]++;
		if (up != NST_PROJ_NONE && (same_span(p, i, up) || p->lvl[up] == NST_PROJ_NONE)) {
			p->lvl[i] = NST_PROJ_NONE; /* unreachable from the top */
			continue;
		}
		p->lvl[i] = up != NST_PROJ_NONE ? p->lvl[up] + 1 : 0;
		if (stacks && !(p->stack[i] = stack_text(ctx, p, i)))
			s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	free(idx);
	return s;
}

enum nst_status nst_proj_build(struct nst_ctx *ctx, bool stacks, struct nst_proj *p,
			       struct nst_error *err)
{
	memset(p, 0, sizeof *p);
	enum nst_status s = nst_nvtx_load(ctx, &p->nv, err);
	if (!s) s = nst_ev_col(ctx->ev, NVTX, "rowid", &p->rowid, err);
	if (!s) s = nst_nvtx_name_ranges(ctx, &p->nv, NST_NVTX_ALL_STYLES, &p->named, err);
	if (!s) nst_nvtx_named_once(&p->named);
	if (!s) s = project(ctx, p, err);
	if (!s) s = nest(ctx, p, stacks, err);
	return s;
}

void nst_proj_release(struct nst_proj *p)
{
	nst_nvtx_named_release(&p->named);
	free(p->entry);
	free(p->pstart);
	free(p->pend);
	free(p->nops);
	free(p->lvl);
	free(p->nchild);
	free(p->parent);
	free(p->stack);
	memset(p, 0, sizeof *p);
}
