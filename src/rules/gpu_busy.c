/* GPU operations by process and device, for the utilization rules. */
#include <stdlib.h>
#include <string.h>

#include "rules/gpu_busy.h"

/* Where operations come from.  nsys keeps each graphics API's workloads
 * apart from the CUDA operations and from each other: a (process, device)
 * of Vulkan workloads is not the same timeline as its CUDA kernels. */
struct origin {
	const char *table;
	const char *pid_col, *device_col, *context_col;
	int64_t kind; /* a grouping key: 0 for CUDA */
};

static const struct origin sources[] = {
	{ KERNEL, "globalPid", "deviceId", "contextId", 0 },
	{ MEMCPY, "globalPid", "deviceId", "contextId", 0 },
	{ MEMSET, "globalPid", "deviceId", "contextId", 0 },
	{ NST_BUSY_VULKAN, "globalTid", "gpu", "contextId", 1 },
	{ NST_BUSY_DX12, "globalTid", "gpu", "shortContextId", 2 },
	{ NST_BUSY_OPENGL, "globalTid", "gpu", "contextId", 3 },
};
#define NSOURCES (sizeof sources / sizeof *sources)

/* The ids as stored (32-bit offsets where they fit): they are read once
 * here, and widening them would copy each column for good. */
struct source {
	size_t n;
	const int64_t *start, *end;
	const struct nst_col *gpid, *device, *context;
};

static enum nst_status read_source(struct nst_ctx *ctx, const struct origin *o, struct source *t,
				   struct nst_error *err)
{
	memset(t, 0, sizeof *t);
	struct nst_events *ev = ctx->ev;
	const char *table = o->table;
	enum nst_status s = nst_ev_rows(ev, table, &t->n, err);
	if (!s) s = nst_ev_i64(ev, table, "start", &t->start, err);
	if (!s) s = nst_ev_i64(ev, table, "end", &t->end, err);
	if (!s) s = nst_ev_col(ev, table, o->pid_col, &t->gpid, err);
	if (!s) s = nst_ev_col(ev, table, o->device_col, &t->device, err);
	if (!s) s = nst_ev_col(ev, table, o->context_col, &t->context, err);
	if (!s && t->n && (!t->start || !t->end))
		s = nst_fail(err, NST_ERR_DB, "%s: %s lacks start or end", nst_db_path(ctx->db), table);
	return s;
}

/* A table without globalPid (trimmed exports) belongs to the one process
 * that makes CUDA calls; with several there is no telling. */
static enum nst_status lone_process(struct nst_ctx *ctx, const char *table, int64_t *gpid,
				    struct nst_error *err)
{
	size_t n = 0;
	const int64_t *gtid = NULL;
	/* nsys asks main.CUPTI_ACTIVITY_KIND_RUNTIME: all the calls, whatever
	 * the filter. */
	struct nst_ctx all = nst_ctx_unfiltered(ctx);
	enum nst_status s = nst_ev_rows(all.ev, RUNTIME, &n, err);
	if (!s) s = nst_ev_i64(all.ev, RUNTIME, "globalTid", &gtid, err);
	if (s != NST_OK)
		return s;
	*gpid = NST_NULL_I64;
	for (size_t i = 0; gtid && i < n; i++) {
		if (gtid[i] == NST_NULL_I64)
			continue;
		if (*gpid != NST_NULL_I64 && *gpid != nst_gpid(gtid[i])) {
			*gpid = NST_NULL_I64;
			break;
		}
		*gpid = nst_gpid(gtid[i]);
	}
	if (*gpid != NST_NULL_I64)
		return NST_OK;
	return nst_fail(err, NST_ERR_NODATA, "%s does not contain 'globalPid' column in %s.",
			nst_db_path(ctx->db), table);
}

static int64_t at(const struct nst_col *col, size_t row, int64_t dflt)
{
	return col ? nst_col_at(col, row) : dflt;
}

static enum nst_status reserve(struct nst_busy *b, size_t cap, struct nst_error *err)
{
	int64_t **cols[] = { &b->start, &b->end, &b->pid, &b->device, &b->context, &b->kind };
	if (!cap)
		cap = 1;
	for (size_t c = 0; c < sizeof cols / sizeof *cols; c++) {
		int64_t *p = realloc(*cols[c], cap * sizeof *p);
		if (!p)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		*cols[c] = p;
	}
	return NST_OK;
}

static void push(struct nst_busy *b, int64_t start, int64_t end, int64_t pid, int64_t device,
		 int64_t context, int64_t kind)
{
	b->start[b->n] = start;
	b->end[b->n] = end;
	b->pid[b->n] = pid;
	b->device[b->n] = device;
	b->context[b->n] = context;
	b->kind[b->n++] = kind;
}

static enum nst_status gather(struct nst_ctx *ctx, struct nst_busy *b, struct source *t,
			      struct nst_error *err)
{
	size_t total = 0;
	for (size_t k = 0; k < NSOURCES; k++)
		total += t[k].n;
	enum nst_status s = reserve(b, total, err);
	for (size_t k = 0; !s && k < NSOURCES; k++) {
		int64_t lone = NST_NULL_I64;
		if (t[k].n && !t[k].gpid && sources[k].kind == 0)
			s = lone_process(ctx, sources[k].table, &lone, err);
		for (size_t i = 0; !s && i < t[k].n; i++) {
			int64_t g = at(t[k].gpid, i, lone);
			push(b, t[k].start[i], t[k].end[i], g == NST_NULL_I64 ? g : nst_pid(g),
			     at(t[k].device, i, NST_NULL_I64), at(t[k].context, i, NST_NULL_I64),
			     sources[k].kind);
		}
	}
	return s;
}

/* Groups b's rows by origin, process and device, each group in start order. */
static enum nst_status group(struct nst_busy *b, struct nst_error *err)
{
	nst_groups_release(&b->g);
	memset(&b->g, 0, sizeof b->g);
	uint32_t *rows = malloc((b->n ? b->n : 1) * sizeof *rows);
	if (!rows)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < b->n; i++)
		rows[i] = (uint32_t)i;
	const int64_t *keys[3] = { b->kind, b->pid, b->device };
	enum nst_status s = nst_group(keys, 3, rows, b->n, &b->g, err);
	free(rows);
	for (size_t k = 0; !s && k < b->g.n; k++)
		s = nst_sort_by_key(b->g.order + b->g.start[k], b->g.start[k + 1] - b->g.start[k],
				    b->start, err);
	return s;
}

/* The profiler's own work that keeps a GPU from running the application's
 * (nsys counts it as busy time by these names only). */
static bool busy_overhead(struct nst_ctx *ctx, int64_t name_id)
{
	static const char *const names[] = {
		"CUDA profiling data flush overhead",
		"CUDA profiling stop overhead",
		"CUDA profiling overhead",
	};
	const char *name = name_id == NST_NULL_I64 ? NULL : nst_db_string(ctx->db, name_id);
	for (size_t i = 0; name && i < sizeof names / sizeof *names; i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/* What a CUDA group spans: overhead rows join it only strictly inside
 * (from after its first start to before its last end), under the context
 * of the operation that ends last, as nsys places them. */
struct span {
	int64_t pid, device, first, last, context;
};

void nst_busy_notes(struct nst_ctx *ctx, const char *advice, const char *noresult,
		    struct nst_rule_notes *notes)
{
	advice = advice ? nst_rule_wrap(ctx, advice) : NULL;
	noresult = noresult ? nst_rule_wrap(ctx, noresult) : NULL;
	notes->advice = advice ? nst_arena_printf(ctx->arena, "%s\n\n"
		"Suggestions:\n"
		"   1. Use CPU sampling data, OS Runtime blocked state backtraces, and/or OS\n"
		"Runtime APIs related to thread synchronization to understand if a sluggish or\n"
		"blocked CPU is causing the gaps.\n"
		"   2. Add NVTX annotations to CPU code to understand the reason behind the gaps.\n",
		advice) : NULL;
	notes->noresult = noresult ? nst_arena_printf(ctx->arena, "%s\n", noresult) : NULL;
}

uint32_t nst_busy_last_ending(const struct nst_busy *b, size_t k)
{
	const uint32_t *row = b->g.order + b->g.start[k];
	size_t n = b->g.start[k + 1] - b->g.start[k];
	uint32_t last = row[0];
	for (size_t i = 1; i < n; i++)
		if (b->end[row[i]] > b->end[last])
			last = row[i];
	return last;
}

static void group_span(const struct nst_busy *b, size_t k, struct span *sp)
{
	const uint32_t *row = b->g.order + b->g.start[k];
	uint32_t last = nst_busy_last_ending(b, k);
	*sp = (struct span){ b->pid[row[0]], b->device[row[0]], b->start[row[0]], b->end[last],
			     b->context[last] };
}

static bool inside(const struct span *sp, int64_t pid, int64_t start, int64_t end)
{
	return sp->pid == pid && end != NST_NULL_I64 && start > sp->first && end < sp->last;
}

/* Adds the PROFILER_OVERHEAD rows to the CUDA groups of their process
 * that they fall inside, once per such group. */
static enum nst_status add_overhead(struct nst_ctx *ctx, struct nst_busy *b, struct nst_error *err)
{
	size_t n = 0;
	const int64_t *start = NULL, *end = NULL, *gtid = NULL, *name = NULL;
	enum nst_status s = nst_ev_rows(ctx->ev, NST_BUSY_OVERHEAD, &n, err);
	if (!s) s = nst_ev_i64(ctx->ev, NST_BUSY_OVERHEAD, "start", &start, err);
	if (!s) s = nst_ev_i64(ctx->ev, NST_BUSY_OVERHEAD, "end", &end, err);
	if (!s) s = nst_ev_i64(ctx->ev, NST_BUSY_OVERHEAD, "globalTid", &gtid, err);
	if (!s) s = nst_ev_i64(ctx->ev, NST_BUSY_OVERHEAD, "nameId", &name, err);
	if (s || !n || !start || !end || !gtid || !name || !b->g.n)
		return s;
	struct span *sp = malloc(b->g.n * sizeof *sp);
	if (!sp)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	size_t ncuda = 0;
	for (size_t k = 0; k < b->g.n; k++)
		if (b->kind[b->g.first[k]] == 0)
			group_span(b, k, &sp[ncuda++]);
	size_t extra = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; gtid[i] != NST_NULL_I64 && k < ncuda; k++)
			extra += inside(&sp[k], nst_pid(gtid[i]), start[i], end[i]) && busy_overhead(ctx, name[i]);
	s = extra ? reserve(b, b->n + extra, err) : NST_OK;
	for (size_t i = 0; !s && extra && i < n; i++)
		for (size_t k = 0; gtid[i] != NST_NULL_I64 && k < ncuda; k++)
			if (inside(&sp[k], nst_pid(gtid[i]), start[i], end[i]) &&
			    busy_overhead(ctx, name[i]))
				push(b, start[i], end[i], sp[k].pid, sp[k].device, sp[k].context, 0);
	free(sp);
	if (!s && extra)
		s = group(b, err);
	return s;
}

enum nst_status nst_busy_load(struct nst_ctx *ctx, struct nst_busy *b, struct nst_error *err)
{
	memset(b, 0, sizeof *b);
	bool any = false;
	for (size_t k = 0; k < NSOURCES; k++)
		any = any || nst_db_has_table(ctx->db, sources[k].table);
	if (!any)
		return nst_fail(err, NST_ERR_NODATA,
				"%s could not be analyzed because it does not contain the required "
				"data. Does the application launch GPU operations?",
				nst_db_path(ctx->db));
	struct source t[NSOURCES];
	enum nst_status s = NST_OK;
	for (size_t k = 0; !s && k < NSOURCES; k++)
		s = read_source(ctx, &sources[k], &t[k], err);
	if (!s) s = gather(ctx, b, t, err);
	if (!s) s = group(b, err);
	if (!s) s = add_overhead(ctx, b, err);
	return s;
}

void nst_busy_release(struct nst_busy *b)
{
	free(b->start);
	free(b->end);
	free(b->pid);
	free(b->device);
	free(b->context);
	free(b->kind);
	nst_groups_release(&b->g);
}
