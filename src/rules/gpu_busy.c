/* GPU operations by process and device, for the utilization rules. */
#include <stdlib.h>
#include <string.h>

#include "core/big.h"
#include "core/hashmap.h"
#include "core/resize.h"
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

/* A table's times; its ids stay in the store as read, 32-bit offsets
 * where they fit: copying them was 32 bytes an operation. */
struct times {
	const int64_t *start, *end;
};

static enum nst_status read_source(struct nst_ctx *ctx, const struct origin *o,
				   struct nst_busy_source *src, struct times *t,
				   struct nst_error *err)
{
	memset(src, 0, sizeof *src);
	memset(t, 0, sizeof *t);
	struct nst_events *ev = ctx->ev;
	const char *table = o->table;
	src->kind = o->kind;
	src->lone_gpid = NST_NULL_I64;
	enum nst_status s = nst_ev_rows(ev, table, &src->n, err);
	if (!s) s = nst_ev_i64(ev, table, "start", &t->start, err);
	if (!s) s = nst_ev_i64(ev, table, "end", &t->end, err);
	if (!s) s = nst_ev_col(ev, table, o->pid_col, &src->gpid, err);
	if (!s) s = nst_ev_col(ev, table, o->device_col, &src->device, err);
	if (!s) s = nst_ev_col(ev, table, o->context_col, &src->context, err);
	if (!s && src->n && (!t->start || !t->end))
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

static int64_t at(const struct nst_col *col, size_t row)
{
	return col ? nst_col_at(col, row) : NST_NULL_I64;
}

/* The table op comes from and its row there; NULL for an overhead row. */
static const struct nst_busy_source *source_of(const struct nst_busy *b, uint32_t op,
					       size_t *row)
{
	for (size_t k = 0; k < NST_BUSY_SOURCES; k++)
		if (op < b->src[k].first + b->src[k].n) {
			*row = op - b->src[k].first;
			return &b->src[k];
		}
	*row = op - b->nsrc;
	return NULL;
}

static int64_t source_pid(const struct nst_busy_source *src, size_t row)
{
	int64_t g = src->gpid ? nst_col_at(src->gpid, row) : src->lone_gpid;
	return g == NST_NULL_I64 ? g : nst_pid(g);
}

int64_t nst_busy_pid(const struct nst_busy *b, uint32_t op)
{
	size_t row;
	const struct nst_busy_source *src = source_of(b, op, &row);
	return src ? source_pid(src, row) : b->extra[3 * row];
}

int64_t nst_busy_device(const struct nst_busy *b, uint32_t op)
{
	size_t row;
	const struct nst_busy_source *src = source_of(b, op, &row);
	return src ? at(src->device, row) : b->extra[3 * row + 1];
}

int64_t nst_busy_context(const struct nst_busy *b, uint32_t op)
{
	size_t row;
	const struct nst_busy_source *src = source_of(b, op, &row);
	return src ? at(src->context, row) : b->extra[3 * row + 2];
}

int64_t nst_busy_kind(const struct nst_busy *b, uint32_t op)
{
	size_t row;
	const struct nst_busy_source *src = source_of(b, op, &row);
	return src ? src->kind : 0;
}

static enum nst_status reserve(struct nst_busy *b, size_t cap, size_t nextra,
			       struct nst_error *err)
{
	if (NST_RESIZE(b->start, cap) || NST_RESIZE(b->end, cap) || NST_RESIZE(b->extra, 3 * nextra))
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	return NST_OK;
}

static enum nst_status gather(struct nst_ctx *ctx, struct nst_busy *b, const struct times *t,
			      struct nst_error *err)
{
	size_t total = 0;
	for (size_t k = 0; k < NSOURCES; k++) {
		b->src[k].first = total;
		total += b->src[k].n;
	}
	enum nst_status s = reserve(b, total, 0, err);
	for (size_t k = 0; !s && k < NSOURCES; k++) {
		struct nst_busy_source *src = &b->src[k];
		if (src->n && !src->gpid && src->kind == 0)
			s = lone_process(ctx, sources[k].table, &src->lone_gpid, err);
		if (!s && src->n) {
			memcpy(b->start + src->first, t[k].start, src->n * sizeof *b->start);
			memcpy(b->end + src->first, t[k].end, src->n * sizeof *b->end);
		}
	}
	b->n = b->nsrc = total;
	return s;
}

/* Group ids by first appearance of (kind, pid, device): the process is
 * 24 bits, so kind and process make one key. */
struct group_ids {
	struct nst_map ids;
	int64_t a, device; /* the key looked up last, and its group */
	uint32_t last;
	bool any;
};

static int group_id(struct group_ids *t, struct nst_groups *g, uint32_t op, int64_t kind,
		    int64_t pid, int64_t device, uint32_t *gid)
{
	int64_t a = kind << 26 | (pid == NST_NULL_I64 ? 1 << 25 : pid);
	if (!t->any || a != t->a || device != t->device) {
		bool fresh;
		if (nst_map_get_or_put(&t->ids, a, device, (uint32_t)g->n, &t->last, &fresh))
			return -1;
		if (fresh)
			g->first[g->n++] = op;
		t->a = a;
		t->device = device;
		t->any = true;
	}
	*gid = t->last;
	return 0;
}

static int assign_ids(const struct nst_busy *b, struct nst_groups *g, uint32_t *gid)
{
	struct group_ids t = { .any = false };
	if (nst_map_init(&t.ids, 64))
		return -1;
	int rc = 0;
	for (size_t k = 0; !rc && k < NSOURCES; k++) {
		const struct nst_busy_source *src = &b->src[k];
		for (size_t i = 0; !rc && i < src->n; i++) {
			uint32_t op = (uint32_t)(src->first + i);
			rc = group_id(&t, g, op, src->kind, source_pid(src, i), at(src->device, i),
				      &gid[op]);
		}
	}
	for (size_t i = b->nsrc; !rc && i < b->n; i++)
		rc = group_id(&t, g, (uint32_t)i, 0, b->extra[3 * (i - b->nsrc)],
			      b->extra[3 * (i - b->nsrc) + 1], &gid[i]);
	nst_map_release(&t.ids);
	return rc;
}

/* Groups b's rows by origin, process and device, each group in start order. */
static enum nst_status group(struct nst_busy *b, struct nst_error *err)
{
	nst_groups_release(&b->g);
	uint32_t *gid = nst_big_alloc(b->n, sizeof *gid);
	b->g.first = nst_big_alloc(b->n, sizeof *b->g.first);
	enum nst_status s = NST_OK;
	if (!gid || !b->g.first || assign_ids(b, &b->g, gid))
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (!s) s = nst_group_by_ids(gid, NULL, b->n, &b->g, err);
	free(gid);
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
	*sp = (struct span){ nst_busy_pid(b, row[0]), nst_busy_device(b, row[0]), b->start[row[0]],
			     b->end[last], nst_busy_context(b, last) };
}

static bool inside(const struct span *sp, int64_t pid, int64_t start, int64_t end)
{
	return sp->pid == pid && end != NST_NULL_I64 && start > sp->first && end < sp->last;
}

static void push_overhead(struct nst_busy *b, int64_t start, int64_t end, const struct span *sp)
{
	int64_t *x = b->extra + 3 * (b->n - b->nsrc);
	b->start[b->n] = start;
	b->end[b->n++] = end;
	x[0] = sp->pid;
	x[1] = sp->device;
	x[2] = sp->context;
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
		if (nst_busy_kind(b, b->g.first[k]) == 0)
			group_span(b, k, &sp[ncuda++]);
	size_t extra = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; gtid[i] != NST_NULL_I64 && k < ncuda; k++)
			extra += inside(&sp[k], nst_pid(gtid[i]), start[i], end[i]) && busy_overhead(ctx, name[i]);
	s = extra ? reserve(b, b->n + extra, extra, err) : NST_OK;
	for (size_t i = 0; !s && extra && i < n; i++)
		for (size_t k = 0; gtid[i] != NST_NULL_I64 && k < ncuda; k++)
			if (inside(&sp[k], nst_pid(gtid[i]), start[i], end[i]) &&
			    busy_overhead(ctx, name[i]))
				push_overhead(b, start[i], end[i], &sp[k]);
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
	struct times t[NSOURCES];
	enum nst_status s = NST_OK;
	for (size_t k = 0; !s && k < NSOURCES; k++)
		s = read_source(ctx, &sources[k], &b->src[k], &t[k], err);
	if (!s) s = gather(ctx, b, t, err);
	if (!s) s = group(b, err);
	if (!s) s = add_overhead(ctx, b, err);
	return s;
}

void nst_busy_release(struct nst_busy *b)
{
	free(b->start);
	free(b->end);
	free(b->extra);
	nst_groups_release(&b->g);
}
