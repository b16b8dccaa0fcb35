/* NVTX ranges meet the GPU work launched inside them: nvtx_kern_sum,
 * nvtx_gpu_proj_sum, nvtx_gpu_proj_trace and the `nvtx-name` argument of
 * the CUDA reports.
 *
 * A GPU operation belongs to a range when the API call that launched it
 * (found on (globalPid, correlationId)) lies inside the range on the same
 * thread: range.start <= call.start and call.end <= range.end.  Ranges and
 * calls are matched by one sweep per thread over both sorted by start,
 * keeping the ranges still open, so millions of each cost O(n log n) plus
 * the number of matches, never a pairwise join. */
#ifndef NSTATS_REPORTS_NVTX_GPU_H
#define NSTATS_REPORTS_NVTX_GPU_H

#include "reports/nvtx.h"

/* Intervals on threads (globalTid); NST_NULL_I64 in any field leaves the
 * interval out of every match. */
struct nst_spans {
	size_t n;
	int64_t *start, *end, *tid;
};
enum nst_status nst_spans_alloc(struct nst_spans *s, size_t n, struct nst_error *err);
void nst_spans_release(struct nst_spans *s);

/* Called for each (range, query) with the query inside the range on the
 * same thread.  For one query, ranges come outermost first (start
 * ascending, then end descending), so the last call is the innermost.
 * Nonzero stops the sweep with out of memory. */
typedef int (*nst_enclose_fn)(void *arg, uint32_t range, uint32_t query);
/* fn for each span of s (the query) and each span of s around it (the
 * range, the query itself included). */
enum nst_status nst_enclosing(const struct nst_spans *s, nst_enclose_fn fn, void *arg,
			      struct nst_error *err);

/* GPU rows paired with the calls that launched them, in GPU row order; a
 * row that several calls match (a driver call nested in a runtime call
 * shares its correlationId) comes once per call, as in an SQL join.
 * CUDA backtrace records are never calls.  The GPU rows are those the
 * filter shows; their calls too, or with all_calls every call (rows of
 * nst_ctx_unfiltered's tables then). */
struct nst_launches {
	size_t n;
	uint32_t *op;   /* row of the GPU table */
	uint32_t *call; /* row of CUPTI_ACTIVITY_KIND_RUNTIME */
};
enum nst_status nst_launches_of(struct nst_ctx *ctx, const char *table, bool all_calls,
				struct nst_launches *l, struct nst_error *err);
void nst_launches_release(struct nst_launches *l);
/* nst_launches_of() for each of tables[0..ntables) into l[0..ntables)
 * for nst_launches_in_ranges() over ranges, which passes on no launch
 * whose call no range holds on its thread: where the calls some range
 * holds are few, only they are indexed and joined, and the launches are
 * theirs alone. */
enum nst_status nst_launches_inside(struct nst_ctx *ctx, const struct nst_spans *ranges,
				    bool all_calls, const char *const *tables, size_t ntables,
				    struct nst_launches *l, struct nst_error *err);

/* nst_enclosing() with launches for queries: query i is launch i of the
 * lists taken one after another, its span its call's (c from
 * nst_calls_ids()).  The launches of one call come one after another, in
 * list order; calls in row order where each thread's launching calls are
 * in start order, as nsys writes them (no sort then), else by start. */
enum nst_status nst_launches_in_ranges(const struct nst_spans *ranges, const struct nst_calls *c,
				       const struct nst_launches *l, size_t nl,
				       nst_enclose_fn fn, void *arg, struct nst_error *err);

/* The NVTX ranges as spans, one per named range (r->row order), with a
 * range that never ended running to the last NVTX timestamp. */
enum nst_status nst_nvtx_spans(const struct nst_nvtx *nv, const struct nst_nvtx_named *r,
			       struct nst_spans *s, struct nst_error *err);

/* The columns these reports read besides the NVTX ones. */
#define NST_LAUNCH_NEEDS(table) \
	{ table, "correlationId", false }, { table, "globalPid", false }

/* What nst_nvtx_kernel_names() reads, filtered and unfiltered: the run
 * declares it before its first read when a report has `nvtx-name`. */
extern const struct nst_need nst_nvtx_name_needs[];

/* `nvtx-name`: kernel name ids with the name of the innermost range around
 * each kernel's launch prefixed ("range/kernel", the range's own name
 * without domain); kernels outside every range keep their id.  New names
 * get ids id_base + i for text[i], whose strings live in arena. */
enum nst_status nst_nvtx_kernel_names(struct nst_ctx *ctx, const struct nst_col *base_ids,
				      int64_t id_base, struct nst_arena *arena,
				      int64_t **ids, const char ***text, size_t *ntext,
				      struct nst_error *err);

#endif
