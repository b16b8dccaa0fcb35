/* The export as a stream of tracks and slices (trace.h), every track
 * declared before its first slice: the host's slices (NVTX ranges and API
 * calls) in one start order, then the GPU's in another.
 *
 * The rows are the reports' rows, read by the reports' code: the API calls
 * of cuda_api_trace (never a CUDA backtrace record, nst_calls), the GPU
 * operations of cuda_gpu_trace (nst_gpu_table_load), the named NVTX ranges
 * of nvtx_pushpop_trace and nvtx_startend_sum (nst_nvtx_name_ranges), and
 * the launch of each GPU operation found on (process, correlationId) as
 * cuda_kern_exec_trace finds it (nst_calls_find).  Besides the columns the
 * run loads, the walk holds one sort order per source and one count per
 * runtime row (its GPU operations not yet written, for the flows). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/big.h"
#include "core/copykind.h"
#include "reports/gpu_ops.h"
#include "reports/kernel_names.h"
#include "reports/nvtx.h"
#include "reports/threads.h"
#include "run/run.h"
#include "trace/trace.h"

#define PROCESSES "PROCESSES"
#define GPU_INFO "TARGET_INFO_GPU"
/* Ids of what has no id of its own in the Trace Event Format: GPUs as
 * processes, lanes of NVTX start/end ranges as threads; above the 24 bits
 * of a host's pid and tid, so that they never meet one. */
#define GPU_PID_BASE ((int64_t)1 << 30)
#define LANE_TID_BASE ((int64_t)1 << 30)
#define INPUT_SHIFT 24

const char *const trace_key_names[KEY_COUNT] = {
	[KEY_CORRELATION] = "correlation", [KEY_RESULT] = "result", [KEY_DEVICE] = "device",
	[KEY_CONTEXT] = "context", [KEY_STREAM] = "stream", [KEY_GRID] = "grid",
	[KEY_BLOCK] = "block", [KEY_REGISTERS] = "registers per thread",
	[KEY_STATIC_SMEM] = "static shared memory", [KEY_DYNAMIC_SMEM] = "dynamic shared memory",
	[KEY_BYTES] = "bytes", [KEY_COPY_KIND] = "copy kind", [KEY_SRC_KIND] = "src kind",
	[KEY_DST_KIND] = "dst kind", [KEY_MEM_KIND] = "memory kind", [KEY_DOMAIN] = "domain",
	[KEY_GREEN_CONTEXT] = "green context",
};

/* Kineto's categories, which its readers (nstats's among them) know. */
const char *const trace_cat_names[CAT_COUNT] = {
	[CAT_API] = "cuda_runtime", [CAT_KERNEL] = "kernel", [CAT_MEMCPY] = "gpu_memcpy",
	[CAT_MEMSET] = "gpu_memset", [CAT_NVTX] = "user_annotation",
	[CAT_NVTX_STARTEND] = "nvtx_startend",
};

static const struct nst_need needs[] = {
	NST_CALL_NEEDS, NST_CALL_ID_NEEDS, NST_CALL_RESULT_NEEDS, NST_THREAD_NEEDS,
	NST_GPU_ALL_NEEDS(KERNEL), NST_KERNEL_NAME_NEEDS,
	{ KERNEL, "gridX", false }, { KERNEL, "gridY", false }, { KERNEL, "gridZ", false },
	{ KERNEL, "blockX", false }, { KERNEL, "blockY", false }, { KERNEL, "blockZ", false },
	{ KERNEL, "registersPerThread", false }, { KERNEL, "staticSharedMemory", false },
	{ KERNEL, "dynamicSharedMemory", false }, { KERNEL, "globalPid", false },
	NST_GPU_ALL_NEEDS(MEMCPY), NST_MEMCPY_KIND_NEEDS, { MEMCPY, "globalPid", false },
	{ MEMCPY, "srcKind", false }, { MEMCPY, "dstKind", false },
	NST_GPU_ALL_NEEDS(MEMSET), { MEMSET, "memKind", false }, { MEMSET, "globalPid", false },
	{ NVTX, "start", false }, { NVTX, "end", false }, { NVTX, "eventType", false },
	{ NVTX, "globalTid", false }, { NVTX, "textId", false }, { NVTX, "domainId", false },
	{ NVTX, "text", true },
	{ NULL, NULL, false },
};

/* Read unfiltered: names of processes and GPUs. */
static const struct nst_need names_needs[] = {
	{ PROCESSES, "pid", false }, { PROCESSES, "name", true },
	{ GPU_INFO, "id", false }, { GPU_INFO, "name", true },
	{ NULL, NULL, false },
};

/* ---- the GPU operations ------------------------------------------------------------------ */

struct gpu_source {
	struct nst_gpu_table t;
	const struct nst_col *gpid;
	const struct nst_col *name_id, *dim[6], *regs, *ssmem, *dsmem; /* kernels */
	const struct nst_col *kind, *src, *dst;                          /* copies, sets */
	enum trace_cat cat;
};

/* A GPU operation of the union kernels, copies, sets. */
struct gpu_op {
	const struct gpu_source *src;
	size_t row;
};

/* ---- the walk ---------------------------------------------------------------------------- */

struct lanes {
	int64_t *end; /* the end of each lane's last range */
	size_t n, cap;
};

struct walk {
	struct nst_ctx *ctx;
	const struct trace_writer *w;
	uint32_t input;
	const char *label;
	uint64_t *next_uuid;
	int64_t id_offset;
	/* tracks by key, as indexes into track */
	struct nst_map keys;
	struct trace_track *track;
	size_t ntracks, cap;
	/* By track: the lanes of a process's start/end ranges, of a stream's
	 * operations that overlap, of a thread's slices that cross; and the
	 * ends of a thread's open slices. */
	struct lanes *lanes, *open;
	struct nst_threads threads;
	size_t nproc;
	const int64_t *proc_pid;
	const char *const *proc_name;
	size_t ngpu;
	const int64_t *gpu_id;
	const char *const *gpu_name;
	struct gpu_source gpu[3];
	const struct nst_calls *calls;
	uint32_t *gpu_left; /* by runtime row: GPU operations not written yet */
	struct nst_label_cache mem_kind;
	struct nst_op_names op_names;
	struct trace_slice slice;
	char kineto_name[256]; /* the slice's, reused */
};

static enum nst_status nomem(struct nst_error *err)
{
	return nst_fail(err, NST_ERR_NOMEM, "out of memory");
}

/* ---- tracks ------------------------------------------------------------------------------ */

enum key_kind { K_PROCESS = 1, K_THREAD, K_GPU, K_STREAM, K_LANE, K_SIDE };

static int64_t key_of(enum key_kind k, int64_t a)
{
	return (int64_t)(((uint64_t)k << 56) ^ ((uint64_t)a & 0x00FFFFFFFFFFFFFFull));
}

/* The track of (kind, a, b), or a new one to fill when *fresh. */
static enum nst_status track_slot(struct walk *wk, enum key_kind kind, int64_t a, int64_t b,
				  size_t *at, bool *fresh, struct nst_error *err)
{
	uint32_t v;
	if (nst_map_get_or_put(&wk->keys, key_of(kind, a), b, (uint32_t)wk->ntracks, &v, fresh))
		return nomem(err);
	*at = v;
	if (!*fresh)
		return NST_OK;
	if (wk->ntracks == wk->cap) {
		size_t cap = wk->cap ? 2 * wk->cap : 32;
		struct trace_track *t = realloc(wk->track, cap * sizeof *t);
		struct lanes *l = realloc(wk->lanes, cap * sizeof *l);
		if (l)
			wk->lanes = l;
		struct lanes *o = realloc(wk->open, cap * sizeof *o);
		if (t)
			wk->track = t;
		if (o)
			wk->open = o;
		if (!t || !l || !o)
			return nomem(err);
		wk->cap = cap;
	}
	wk->lanes[wk->ntracks] = wk->open[wk->ntracks] = (struct lanes){ 0 };
	wk->track[wk->ntracks] = (struct trace_track){ .uuid = (*wk->next_uuid)++ };
	wk->ntracks++;
	return NST_OK;
}

static enum nst_status declare(struct walk *wk, size_t at, struct nst_error *err)
{
	if (!wk->track[at].name)
		return nomem(err);
	return wk->w->track(wk->w->self, &wk->track[at], err);
}

static const char *process_name(struct walk *wk, int64_t pid)
{
	for (size_t i = 0; i < wk->nproc; i++)
		if (wk->proc_pid[i] == pid && wk->proc_name && wk->proc_name[i])
			return wk->proc_name[i];
	return "process";
}

/* "[label] name (pid N)": which input a process is from shows in its name. */
static enum nst_status process_track(struct walk *wk, int64_t gtid, size_t *at,
				     struct nst_error *err)
{
	int64_t pid = gtid == NST_NULL_I64 ? 0 : nst_pid(gtid);
	bool fresh;
	enum nst_status s = track_slot(wk, K_PROCESS, pid, 0, at, &fresh, err);
	if (s != NST_OK || !fresh)
		return s;
	struct trace_track *t = &wk->track[*at];
	t->kind = TRACK_PROCESS;
	t->pid = pid + wk->id_offset;
	t->name = nst_arena_printf(wk->ctx->arena, "%s%s%s%s (pid %lld)", wk->label ? "[" : "",
				   wk->label ? wk->label : "", wk->label ? "] " : "",
				   process_name(wk, pid), (long long)pid);
	return declare(wk, *at, err);
}

static const char *thread_name(struct walk *wk, int64_t gtid)
{
	struct nst_cell c = nst_threads_name(wk->ctx, &wk->threads, nst_threads_first(&wk->threads, gtid));
	if (c.kind == NST_TEXT)
		return nst_arena_printf(wk->ctx->arena, "%s", c.v.s);
	return nst_arena_printf(wk->ctx->arena, "thread %lld", (long long)nst_tid(gtid));
}

static enum nst_status thread_track(struct walk *wk, int64_t gtid, size_t *out,
				    struct nst_error *err)
{
	size_t proc, at;
	bool fresh;
	enum nst_status s = process_track(wk, gtid, &proc, err);
	if (s == NST_OK)
		s = track_slot(wk, K_THREAD, gtid, 0, &at, &fresh, err);
	if (s != NST_OK)
		return s;
	if (fresh) {
		struct trace_track *t = &wk->track[at];
		t->kind = TRACK_THREAD;
		t->parent = wk->track[proc].uuid;
		t->pid = wk->track[proc].pid;
		t->tid = (gtid == NST_NULL_I64 ? 0 : nst_tid(gtid)) + wk->id_offset;
		t->name = thread_name(wk, gtid);
		if ((s = declare(wk, at, err)) != NST_OK)
			return s;
	}
	*out = at;
	return NST_OK;
}

static const char *gpu_name(struct walk *wk, int64_t id)
{
	for (size_t i = 0; i < wk->ngpu; i++)
		if (wk->gpu_id[i] == id && wk->gpu_name && wk->gpu_name[i])
			return wk->gpu_name[i];
	return NULL;
}

static enum nst_status gpu_track(struct walk *wk, int64_t device, size_t *at, struct nst_error *err)
{
	bool fresh;
	enum nst_status s = track_slot(wk, K_GPU, device, 0, at, &fresh, err);
	if (s != NST_OK || !fresh)
		return s;
	const char *name = gpu_name(wk, device);
	struct trace_track *t = &wk->track[*at];
	t->kind = TRACK_GPU;
	t->pid = GPU_PID_BASE + ((int64_t)wk->input << 16) + (device & 0xFFFF);
	t->name = nst_arena_printf(wk->ctx->arena, "%s%s%sGPU %lld%s%s", wk->label ? "[" : "",
				   wk->label ? wk->label : "", wk->label ? "] " : "",
				   (long long)device, name ? ": " : "", name ? name : "");
	s = declare(wk, *at, err);
	if (s == NST_OK && wk->w->device)
		s = wk->w->device(wk->w->self, device, name ? name : "", err);
	return s;
}

/* A stream is its device's, and its context's: contexts are processes'. */
static enum nst_status stream_track(struct walk *wk, int64_t device, int64_t context,
				    int64_t stream, size_t *out, struct nst_error *err)
{
	size_t gpu, at;
	bool fresh;
	int64_t key = (int64_t)(((uint64_t)device << 32) ^ ((uint64_t)context & 0xFFFFFFFF));
	enum nst_status s = gpu_track(wk, device, &gpu, err);
	if (s == NST_OK)
		s = track_slot(wk, K_STREAM, key, stream, &at, &fresh, err);
	if (s != NST_OK)
		return s;
	if (fresh) {
		struct trace_track *t = &wk->track[at];
		t->kind = TRACK_STREAM;
		t->parent = wk->track[gpu].uuid;
		t->pid = wk->track[gpu].pid;
		t->tid = stream;
		t->name = context == NST_NULL_I64
			? nst_arena_printf(wk->ctx->arena, "Stream %lld", (long long)stream)
			: nst_arena_printf(wk->ctx->arena, "Stream %lld (context %lld)",
					   (long long)stream, (long long)context);
		if ((s = declare(wk, at, err)) != NST_OK)
			return s;
	}
	*out = at;
	return NST_OK;
}

static enum nst_status push_end(struct lanes *l, int64_t end, struct nst_error *err)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 8;
		int64_t *e = realloc(l->end, cap * sizeof *e);
		if (!e)
			return nomem(err);
		l->end = e;
		l->cap = cap;
	}
	l->end[l->n++] = end;
	return NST_OK;
}

/* The first lane of track `at`'s lanes where [start, end) overlaps
 * nothing, that lane's end moved to end: slices that overlap without
 * nesting would be cut short on one track, which nests by time. */
static enum nst_status lane_of(struct walk *wk, size_t at, int64_t start, int64_t end, size_t *k,
			       struct nst_error *err)
{
	struct lanes *l = &wk->lanes[at];
	*k = 0;
	while (*k < l->n && l->end[*k] > start)
		(*k)++;
	if (*k == l->n)
		return push_end(l, end, err);
	l->end[*k] = end;
	return NST_OK;
}

/* NVTX start/end ranges of a process, which may overlap: on lanes of it. */
static enum nst_status lane_track(struct walk *wk, int64_t gtid, int64_t start, int64_t end,
				  const struct trace_track **out, struct nst_error *err)
{
	size_t proc, at, k;
	bool fresh;
	enum nst_status s = process_track(wk, gtid, &proc, err);
	if (s == NST_OK)
		s = lane_of(wk, proc, start, end, &k, err);
	if (s != NST_OK)
		return s;
	int64_t pid = wk->track[proc].pid;
	uint64_t parent = wk->track[proc].uuid;
	if ((s = track_slot(wk, K_LANE, pid, (int64_t)k, &at, &fresh, err)) != NST_OK)
		return s;
	if (fresh) {
		struct trace_track *t = &wk->track[at];
		t->kind = TRACK_LANE;
		t->parent = parent;
		t->pid = pid;
		t->tid = LANE_TID_BASE + (int64_t)k;
		t->name = k == 0 ? nst_arena_printf(wk->ctx->arena, "NVTX start/end ranges")
				 : nst_arena_printf(wk->ctx->arena, "NVTX start/end ranges %zu", k + 1);
		if ((s = declare(wk, at, err)) != NST_OK)
			return s;
	}
	*out = &wk->track[at];
	return NST_OK;
}

/* The JSON's tid of lane k beside a track of tid `tid` (a stream's may be
 * anything the export holds, NULL too): wraps rather than overflows. */
static int64_t beside(int64_t tid, size_t k)
{
	return (int64_t)((uint64_t)tid + ((uint64_t)k << 32));
}

/* Lane n (from 1) beside track `at`, a track of its own named after it,
 * "Stream 7 #2", "worker #2", under the same parent. */
static enum nst_status side_track(struct walk *wk, size_t at, enum trace_track_kind kind, size_t n,
				  const struct trace_track **out, struct nst_error *err)
{
	size_t side;
	bool fresh;
	enum nst_status s = track_slot(wk, K_SIDE, (int64_t)wk->track[at].uuid, (int64_t)n, &side,
				       &fresh, err);
	if (s != NST_OK)
		return s;
	if (fresh) {
		struct trace_track *t = &wk->track[side], *base = &wk->track[at];
		*t = (struct trace_track){ .kind = kind, .uuid = t->uuid, .parent = base->parent,
					   .pid = base->pid, .tid = beside(base->tid, n) };
		t->name = nst_arena_printf(wk->ctx->arena, "%s #%zu", base->name, n + 1);
		if ((s = declare(wk, side, err)) != NST_OK)
			return s;
	}
	*out = &wk->track[side];
	return NST_OK;
}

/* GPU operations of one stream that overlap (unified memory migrations,
 * some real captures): the second and later lanes beside the stream's. */
static enum nst_status stream_lane(struct walk *wk, size_t stream, int64_t start, int64_t end,
				   const struct trace_track **out, struct nst_error *err)
{
	size_t k;
	enum nst_status s = lane_of(wk, stream, start, end, &k, err);
	if (s != NST_OK || k == 0) {
		*out = &wk->track[stream];
		return s;
	}
	return side_track(wk, stream, TRACK_STREAM, k, out, err);
}

/* A slice of a thread, in the host's start order: on the thread's track
 * when it nests with the slices open there, else (ranges that cross:
 * NVTX_EVENTS can hold them) on a lane beside it, "worker #2". */
static enum nst_status host_track(struct walk *wk, int64_t gtid, int64_t start, int64_t end,
				  const struct trace_track **out, struct nst_error *err)
{
	size_t thr, k;
	enum nst_status s = thread_track(wk, gtid, &thr, err);
	if (s != NST_OK)
		return s;
	struct lanes *open = &wk->open[thr];
	/* close what ended by start (a zero-length slice at an end nests there) */
	while (open->n && open->end[open->n - 1] <= start &&
	       !(open->end[open->n - 1] == start && end == start))
		open->n--;
	if (!open->n || open->end[open->n - 1] >= end) {
		*out = &wk->track[thr];
		return push_end(open, end, err);
	}
	if ((s = lane_of(wk, thr, start, end, &k, err)) != NST_OK)
		return s;
	return side_track(wk, thr, TRACK_LANE, k + 1, out, err);
}

/* ---- slices ------------------------------------------------------------------------------ */

static void arg_int(struct trace_slice *sl, enum trace_key key, int64_t v)
{
	if (v != NST_NULL_I64 && sl->nargs < TRACE_MAX_ARGS)
		sl->arg[sl->nargs++] = (struct trace_arg){ .key = key, .kind = ARG_INT, .i = { v } };
}

static void arg_col(struct trace_slice *sl, enum trace_key key, const struct nst_col *c, size_t row)
{
	arg_int(sl, key, nst_col_or_null(c, row));
}

static void arg_text(struct trace_slice *sl, enum trace_key key, const char *s)
{
	if (s && sl->nargs < TRACE_MAX_ARGS)
		sl->arg[sl->nargs++] = (struct trace_arg){ .key = key, .kind = ARG_TEXT, .s = s };
}

static void arg_dim3(struct trace_slice *sl, enum trace_key key, const struct nst_col *const *c,
		     size_t row)
{
	struct trace_arg a = { .key = key, .kind = ARG_DIM3 };
	for (int d = 0; d < 3; d++)
		if ((a.i[d] = nst_col_or_null(c[d], row)) == NST_NULL_I64)
			return;
	if (sl->nargs < TRACE_MAX_ARGS)
		sl->arg[sl->nargs++] = a;
}

static struct trace_slice *slice_new(struct walk *wk, const struct trace_track *track,
				     enum trace_cat cat, int64_t start, int64_t end, const char *name)
{
	struct trace_slice *sl = &wk->slice;
	sl->track = track;
	sl->cat = cat;
	sl->start = start;
	sl->end = end;
	sl->name = name ? name : "";
	sl->kineto_name = NULL;
	sl->nargs = 0;
	sl->flow = FLOW_NONE;
	sl->flow_id = 0;
	return sl;
}

/* One flow per launch that has GPU work: its id names the input and the
 * launch's runtime row. */
static uint64_t flow_id(const struct walk *wk, size_t rrow)
{
	return ((uint64_t)(wk->input + 1) << 40) | (uint64_t)rrow;
}

/* ---- ordering ---------------------------------------------------------------------------- */

/* idx in start order; equal starts longest first, so that a range holding
 * another from its first nanosecond opens before it (ties are few: an
 * insertion sort of each run). */
static enum nst_status start_order(uint32_t *idx, size_t n, const int64_t *start,
				   const int64_t *end, struct nst_error *err)
{
	enum nst_status s = nst_sort_by_key(idx, n, start, err);
	for (size_t i = 1; s == NST_OK && i < n; i++) {
		uint32_t v = idx[i];
		size_t j = i;
		while (j > 0 && start[idx[j - 1]] == start[v] && end[idx[j - 1]] < end[v]) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = v;
	}
	return s;
}

/* ---- NVTX ranges ------------------------------------------------------------------------- */

static enum nst_status nvtx_range(struct walk *wk, const struct nst_nvtx *nv,
				  const struct nst_nvtx_named *named, size_t k, int64_t end,
				  struct nst_error *err)
{
	uint32_t row = named->row[k];
	int64_t gtid = nst_col_or_null(nv->gtid, row);
	int64_t id = nst_nvtx_name_of(named, k);
	const char *name = id == NST_NULL_I64 ? "" : named->text[id];
	const struct trace_track *track = NULL;
	bool pushpop = named->style[k] == NST_NVTX_PUSHPOP;
	enum nst_status s = pushpop ? host_track(wk, gtid, nv->start[row], end, &track, err)
				    : lane_track(wk, gtid, nv->start[row], end, &track, err);
	if (s != NST_OK)
		return s;
	struct trace_slice *sl = slice_new(wk, track, pushpop ? CAT_NVTX : CAT_NVTX_STARTEND,
					   nv->start[row], end, name);
	return wk->w->slice(wk->w->self, sl, err);
}

/* The named ranges in start order, with their ends. */
struct nvtx_order {
	struct nst_nvtx nv;
	struct nst_nvtx_named named;
	uint32_t *idx;
	int64_t *start, *end;
	size_t n;
};

static enum nst_status nvtx_order(struct walk *wk, struct nvtx_order *o, struct nst_error *err)
{
	if (!nst_db_has_table(wk->ctx->db, NVTX))
		return NST_OK;
	enum nst_status s = nst_nvtx_load(wk->ctx, &o->nv, err);
	if (s == NST_OK)
		s = nst_nvtx_name_ranges(wk->ctx, &o->nv, NST_NVTX_ALL_STYLES, &o->named, err);
	if (s != NST_OK)
		return s;
	nst_nvtx_named_once(&o->named);
	size_t n = o->named.n ? o->named.n : 1;
	o->idx = nst_big_alloc(n, sizeof *o->idx);
	o->start = nst_big_alloc(n, sizeof *o->start);
	o->end = nst_big_alloc(n, sizeof *o->end);
	if (!o->idx || !o->start || !o->end)
		return nomem(err);
	for (size_t k = 0; k < o->named.n; k++) {
		o->idx[k] = (uint32_t)k;
		o->start[k] = o->nv.start[o->named.row[k]];
		o->end[k] = nst_nvtx_end(&o->nv, o->named.row[k]);
	}
	o->n = o->named.n;
	return start_order(o->idx, o->n, o->start, o->end, err);
}

static void nvtx_order_release(struct nvtx_order *o)
{
	nst_nvtx_named_release(&o->named);
	free(o->idx);
	free(o->start);
	free(o->end);
}

/* ---- CUDA API calls ---------------------------------------------------------------------- */

static enum nst_status api_call(struct walk *wk, uint32_t r, struct nst_error *err)
{
	const struct nst_calls *c = wk->calls;
	const struct trace_track *track = NULL;
	int64_t gtid = nst_col_or_null(c->gtid, r);
	enum nst_status s = host_track(wk, gtid, c->start[r], c->end[r], &track, err);
	if (s != NST_OK)
		return s;
	struct trace_slice *sl = slice_new(wk, track, CAT_API, c->start[r], c->end[r],
					   nst_api_name(wk->ctx, nst_col_at(c->name_id, r)));
	arg_col(sl, KEY_CORRELATION, c->corr, r);
	arg_col(sl, KEY_RESULT, c->ret, r);
	if (wk->gpu_left && wk->gpu_left[r]) {
		sl->flow = FLOW_START;
		sl->flow_id = flow_id(wk, r);
	}
	return wk->w->slice(wk->w->self, sl, err);
}

/* The host's slices: the NVTX ranges and the API calls merged into one
 * start order (a range first when it starts with a call and holds it),
 * so that on each thread track a slice begins only after every slice
 * that ends before it began: Perfetto nests the slices of a track by the
 * order of their packets where their times tie. */
static enum nst_status walk_host(struct walk *wk, struct nst_error *err)
{
	const struct nst_calls *c = wk->calls;
	size_t ncalls = c ? c->ncalls : 0;
	struct nvtx_order o = { 0 };
	uint32_t *idx = nst_big_alloc(ncalls, sizeof *idx);
	enum nst_status s = idx ? nvtx_order(wk, &o, err) : nomem(err);
	if (s == NST_OK && ncalls) {
		for (size_t k = 0; k < ncalls; k++)
			idx[k] = nst_call_row(c, k);
		s = start_order(idx, ncalls, c->start, c->end, err);
	}
	size_t i = 0, k = 0;
	while (s == NST_OK && (i < o.n || k < ncalls)) {
		bool range = k == ncalls;
		if (i < o.n && k < ncalls) {
			int64_t rs = o.start[o.idx[i]], cs = c->start[idx[k]];
			range = rs < cs || (rs == cs && o.end[o.idx[i]] >= c->end[idx[k]]);
		}
		if (range) {
			uint32_t r = o.idx[i++];
			s = nvtx_range(wk, &o.nv, &o.named, r, o.end[r], err);
		} else
			s = api_call(wk, idx[k++], err);
	}
	free(idx);
	nvtx_order_release(&o);
	return s;
}

/* ---- GPU operations ---------------------------------------------------------------------- */

static enum nst_status load_gpu(struct walk *wk, struct nst_error *err)
{
	static const char *const dims[6] = { "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ" };
	static const char *const tables[3] = { KERNEL, MEMCPY, MEMSET };
	struct nst_ctx *ctx = wk->ctx;
	enum nst_status s = NST_OK;
	for (int i = 0; s == NST_OK && i < 3; i++) {
		struct gpu_source *g = &wk->gpu[i];
		g->cat = (enum trace_cat)(CAT_KERNEL + i);
		s = nst_gpu_table_load(ctx, tables[i], NST_GPU_ALL, &g->t, err);
		if (!s) s = nst_ev_col(ctx->ev, tables[i], "globalPid", &g->gpid, err);
	}
	struct gpu_source *k = &wk->gpu[0], *c = &wk->gpu[1], *m = &wk->gpu[2];
	for (int d = 0; s == NST_OK && d < 6; d++)
		s = nst_ev_col(ctx->ev, KERNEL, dims[d], &k->dim[d], err);
	if (!s) s = nst_ev_col(ctx->ev, KERNEL, "registersPerThread", &k->regs, err);
	if (!s) s = nst_ev_col(ctx->ev, KERNEL, "staticSharedMemory", &k->ssmem, err);
	if (!s) s = nst_ev_col(ctx->ev, KERNEL, "dynamicSharedMemory", &k->dsmem, err);
	if (!s && k->t.n) s = nst_report_kernel_name_ids(ctx, &k->name_id, err);
	if (!s) s = nst_ev_col(ctx->ev, MEMCPY, "copyKind", &c->kind, err);
	if (!s) s = nst_ev_col(ctx->ev, MEMCPY, "srcKind", &c->src, err);
	if (!s) s = nst_ev_col(ctx->ev, MEMCPY, "dstKind", &c->dst, err);
	if (!s) s = nst_ev_col(ctx->ev, MEMSET, "memKind", &m->kind, err);
	return s;
}

static int64_t launch_of(struct walk *wk, const struct gpu_source *g, size_t row)
{
	if (!wk->gpu_left)
		return -1;
	return nst_calls_find(wk->ctx, nst_col_or_null(g->gpid, row), nst_col_or_null(g->t.corr, row));
}

/* How many GPU operations each launch has, for the last to end its flow. */
static enum nst_status count_launches(struct walk *wk, struct nst_error *err)
{
	if (!nst_db_has_table(wk->ctx->db, RUNTIME))
		return NST_OK;
	enum nst_status s = nst_calls_index(wk->ctx, err);
	if (s == NST_OK)
		s = nst_calls_results(wk->ctx, &wk->calls, err);
	if (s != NST_OK || !wk->calls->gtid || !wk->calls->corr)
		return s;
	wk->gpu_left = nst_big_zalloc(wk->calls->n, sizeof *wk->gpu_left);
	if (!wk->gpu_left)
		return nomem(err);
	for (int i = 0; i < 3; i++)
		for (size_t row = 0; row < wk->gpu[i].t.n; row++) {
			int64_t r = launch_of(wk, &wk->gpu[i], row);
			if (r >= 0)
				wk->gpu_left[r]++;
		}
	return NST_OK;
}

static const char *mem_kind(struct walk *wk, const struct nst_col *c, size_t row)
{
	int64_t v = nst_col_or_null(c, row);
	return v == NST_NULL_I64 ? NULL : nst_label_cached(wk->ctx->db, &wk->mem_kind, v);
}

static void kernel_args(struct walk *wk, const struct gpu_source *g, size_t row,
			struct trace_slice *sl)
{
	int64_t id = nst_col_or_null(g->name_id, row);
	sl->name = id == NST_NULL_I64 ? "" : nst_kernel_name_text(wk->ctx, id);
	if (!sl->name)
		sl->name = "";
	arg_dim3(sl, KEY_GRID, g->dim, row);
	arg_dim3(sl, KEY_BLOCK, g->dim + 3, row);
	arg_col(sl, KEY_REGISTERS, g->regs, row);
	arg_col(sl, KEY_STATIC_SMEM, g->ssmem, row);
	arg_col(sl, KEY_DYNAMIC_SMEM, g->dsmem, row);
}

/* Kineto's "Memcpy HtoD (Pageable -> Device)" and "Memset (Device)". */
static enum nst_status copy_args(struct walk *wk, const struct gpu_source *g, size_t row,
				 struct trace_slice *sl, struct nst_error *err)
{
	int64_t kind = nst_col_or_null(g->kind, row);
	int64_t name = kind == NST_NULL_I64 ? 0 : nst_op_name_memcpy(wk->ctx, &wk->op_names, kind);
	if (name < 0)
		return nomem(err);
	sl->name = name ? nst_op_name(&wk->op_names, name) : "[CUDA memcpy]";
	const char *src = mem_kind(wk, g->src, row), *dst = mem_kind(wk, g->dst, row);
	/* the name in Kineto's words ("Memcpy Unknown" for a unified-memory
	 * copy), the "copy kind" arg in nstats's, which the reader takes back */
	const char *k = nst_copy_kind_word(kind, NST_KINETO_COPY_KINDS);
	if (src && dst)
		snprintf(wk->kineto_name, sizeof wk->kineto_name, "Memcpy %s (%s -> %s)", k, src, dst);
	else
		snprintf(wk->kineto_name, sizeof wk->kineto_name, "Memcpy %s", k);
	sl->kineto_name = wk->kineto_name;
	arg_int(sl, KEY_BYTES, nst_col_or_null(g->t.bytes, row));
	arg_text(sl, KEY_COPY_KIND, nst_copy_kind_word(kind, NST_COPY_KINDS));
	arg_text(sl, KEY_SRC_KIND, src);
	arg_text(sl, KEY_DST_KIND, dst);
	return NST_OK;
}

static enum nst_status set_args(struct walk *wk, const struct gpu_source *g, size_t row,
				struct trace_slice *sl, struct nst_error *err)
{
	int64_t name = nst_op_name_memset(&wk->op_names);
	if (name < 0)
		return nomem(err);
	sl->name = nst_op_name(&wk->op_names, name);
	const char *kind = mem_kind(wk, g->kind, row);
	snprintf(wk->kineto_name, sizeof wk->kineto_name, "Memset%s%s%s", kind ? " (" : "",
		 kind ? kind : "", kind ? ")" : "");
	sl->kineto_name = wk->kineto_name;
	arg_int(sl, KEY_BYTES, nst_col_or_null(g->t.bytes, row));
	arg_text(sl, KEY_MEM_KIND, kind);
	return NST_OK;
}

static void gpu_flow(struct walk *wk, const struct gpu_source *g, size_t row,
		     struct trace_slice *sl)
{
	int64_t r = launch_of(wk, g, row);
	if (r < 0 || !wk->gpu_left[r])
		return;
	sl->flow = --wk->gpu_left[r] ? FLOW_STEP : FLOW_END;
	sl->flow_id = flow_id(wk, (size_t)r);
}

static enum nst_status gpu_op(struct walk *wk, const struct gpu_source *g, size_t row,
			      struct nst_error *err)
{
	const struct nst_gpu_table *t = &g->t;
	const struct trace_track *track = NULL;
	int64_t device = nst_col_or_null(t->device, row);
	size_t stream;
	enum nst_status s = stream_track(wk, device, nst_col_or_null(t->context, row),
					 nst_col_or_null(t->stream, row), &stream, err);
	if (s == NST_OK)
		s = stream_lane(wk, stream, t->start[row], t->end[row], &track, err);
	if (s != NST_OK)
		return s;
	struct trace_slice *sl = slice_new(wk, track, g->cat, t->start[row], t->end[row], NULL);
	arg_int(sl, KEY_DEVICE, device);
	arg_col(sl, KEY_CONTEXT, t->context, row);
	arg_col(sl, KEY_STREAM, t->stream, row);
	arg_col(sl, KEY_CORRELATION, t->corr, row);
	int64_t green = nst_col_or_null(t->green, row);
	if (green != 0) /* cuda_gpu_trace's "no green context", as 2024.2's exports write it */
		arg_int(sl, KEY_GREEN_CONTEXT, green);
	if (g->cat == CAT_KERNEL)
		kernel_args(wk, g, row, sl);
	else
		s = g->cat == CAT_MEMCPY ? copy_args(wk, g, row, sl, err) : set_args(wk, g, row, sl, err);
	gpu_flow(wk, g, row, sl);
	return s == NST_OK ? wk->w->slice(wk->w->self, sl, err) : s;
}

static struct gpu_op op_at(const struct walk *wk, size_t op)
{
	int i = 0;
	while (i < 2 && op >= wk->gpu[i].t.n)
		op -= wk->gpu[i++].t.n;
	return (struct gpu_op){ &wk->gpu[i], op };
}

/* The union in start order, ties in the union's order, as cuda_gpu_trace. */
static enum nst_status walk_gpu(struct walk *wk, struct nst_error *err)
{
	size_t n = wk->gpu[0].t.n + wk->gpu[1].t.n + wk->gpu[2].t.n;
	if (!n)
		return NST_OK;
	int64_t *start = nst_big_alloc(n, sizeof *start);
	uint32_t *idx = nst_big_alloc(n, sizeof *idx);
	enum nst_status s = start && idx ? NST_OK : nomem(err);
	for (size_t op = 0; s == NST_OK && op < n; op++) {
		struct gpu_op o = op_at(wk, op);
		start[op] = o.src->t.start[o.row];
		idx[op] = (uint32_t)op;
	}
	if (s == NST_OK)
		s = nst_sort_by_key(idx, n, start, err);
	free(start);
	for (size_t i = 0; s == NST_OK && i < n; i++) {
		struct gpu_op o = op_at(wk, idx[i]);
		s = gpu_op(wk, o.src, o.row, err);
	}
	free(idx);
	return s;
}

/* ---- setting up -------------------------------------------------------------------------- */

static enum nst_status declare_needs(struct nst_export *x, bool filtered, struct nst_error *err)
{
	enum nst_status s = NST_OK;
	for (const struct nst_need *n = needs; s == NST_OK && n->table; n++) {
		s = nst_ev_want(x->ev, n->table, n->column, n->text);
		if (s == NST_OK && filtered)
			s = nst_ev_want_filter(x->ev, n->table);
	}
	for (const struct nst_need *n = names_needs; s == NST_OK && n->table; n++)
		s = nst_ev_want(x->ev, n->table, n->column, n->text);
	if (s != NST_OK)
		return nomem(err);
	return nst_ev_preload(x->ev, err);
}

static enum nst_status load_names(struct walk *wk, struct nst_error *err)
{
	struct nst_events *all = wk->ctx->ev_all;
	enum nst_status s = nst_ev_rows(all, PROCESSES, &wk->nproc, err);
	if (!s) s = nst_ev_i64(all, PROCESSES, "pid", &wk->proc_pid, err);
	if (!s) s = nst_ev_text(all, PROCESSES, "name", &wk->proc_name, err);
	if (!s && !wk->proc_pid)
		wk->nproc = 0;
	if (!s) s = nst_ev_rows(all, GPU_INFO, &wk->ngpu, err);
	if (!s) s = nst_ev_i64(all, GPU_INFO, "id", &wk->gpu_id, err);
	if (!s) s = nst_ev_text(all, GPU_INFO, "name", &wk->gpu_name, err);
	if (!s && !wk->gpu_id)
		wk->ngpu = 0;
	if (!s) s = nst_threads_load(wk->ctx, &wk->threads, err);
	return s;
}

static enum nst_status walk_all(struct walk *wk, struct nst_error *err)
{
	enum nst_status s = load_names(wk, err);
	if (s == NST_OK)
		s = load_gpu(wk, err);
	if (s == NST_OK)
		s = count_launches(wk, err);
	if (s == NST_OK)
		s = walk_host(wk, err);
	if (s == NST_OK)
		s = walk_gpu(wk, err);
	return s;
}

static void walk_release(struct walk *wk)
{
	for (size_t i = 0; i < wk->ntracks; i++)
		free(wk->lanes[i].end), free(wk->open[i].end);
	free(wk->lanes);
	free(wk->open);
	free(wk->track);
	free(wk->gpu_left);
	nst_map_release(&wk->keys);
	nst_threads_release(&wk->threads);
	nst_op_names_release(&wk->op_names);
}

static enum nst_status walk_view(struct nst_export *x, struct walk *wk, const struct nst_filter *f,
				 struct nst_error *err)
{
	struct nst_ctx *ctx = wk->ctx;
	const struct nst_filter none = { 0 };
	enum nst_status s = run_views_get(x->views, &none, &ctx->ev_all, &ctx->shared_all, err);
	if (s == NST_OK)
		s = run_views_get(x->views, f, &ctx->ev, &ctx->shared, err);
	if (s != NST_OK)
		return s;
	ctx->nvtx = f->nvtx;
	if (nst_map_init(&wk->keys, 64))
		return nomem(err);
	s = nst_op_names_init(&wk->op_names, err);
	return s == NST_OK ? walk_all(wk, err) : s;
}

enum nst_status trace_walk(struct nst_export *x, uint32_t input, const char *label,
			   const struct nst_filter *filter, const struct trace_writer *w,
			   uint64_t *next_uuid, struct nst_error *err)
{
	struct nst_filter f;
	run_filter_of(filter, NULL, &f);
	enum nst_status s = declare_needs(x, !run_filter_is_none(&f), err);
	if (s != NST_OK)
		return run_name_export(x, s, err);
	struct nst_arena arena = { 0 };
	struct nst_ctx ctx = { .db = x->db, .arena = &arena };
	struct walk wk = {
		.ctx = &ctx, .w = w, .input = input, .label = label, .next_uuid = next_uuid,
		.id_offset = (int64_t)input << INPUT_SHIFT,
		.mem_kind = { .table = "ENUM_CUDA_MEM_KIND" },
	};
	s = walk_view(x, &wk, &f, err);
	walk_release(&wk);
	nst_arena_release(&arena);
	return run_name_export(x, s, err);
}
