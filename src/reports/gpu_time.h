/* Precise GPU time (gpu_time_sum, cuda_gpu_kern_dist): every GPU
 * operation of an export as an interval -- kernels, memory copies,
 * memsets and CUDA graph executions -- with the device, process and
 * stream it ran on, and the coverage of each group of them: how much of
 * the time the GPU was busy (a union, each nanosecond once), how much of
 * that was kernels, and how much the plain sum of durations counts twice.
 *
 * A graph traced at graph level (CUPTI_ACTIVITY_KIND_GRAPH_TRACE, nsys's
 * default --cuda-graph-trace=graph) hides its kernels: its execution
 * counts as kernel time, for it is all the kernel time there is to see. */
#ifndef NSTATS_REPORTS_GPU_TIME_H
#define NSTATS_REPORTS_GPU_TIME_H

#include "core/intervals.h"
#include "reports/common.h"

#define GRAPH_TRACE "CUPTI_ACTIVITY_KIND_GRAPH_TRACE"
#define ANALYSIS_DETAILS "ANALYSIS_DETAILS"

enum nst_gt_kind { NST_GT_KERNEL, NST_GT_MEMCPY, NST_GT_MEMSET, NST_GT_GRAPH };

/* Where an operation ran.  An unknown device, process or stream (a NULL,
 * or a column the export lacks) is NST_NULL_I64, a group of its own. */
struct nst_gt_lane {
	int64_t device, gpid, stream;
};

/* The operations in the order of their tables, each in row order, each
 * with its lane: a capture has a few lanes (devices x processes x
 * streams) for millions of operations, so an operation costs 21 bytes,
 * not 41 with the three ids beside it. */
struct nst_gt_ops {
	size_t n;
	int64_t *start, *end;
	uint32_t *lane;       /* into lanes */
	uint8_t *kind;        /* enum nst_gt_kind */
	struct nst_gt_lane *lanes;
	size_t nlanes;
	int64_t span_start;   /* the capture span (see nst_gt_load) */
	int64_t span_end;
};

static inline const struct nst_gt_lane *nst_gt_lane_of(const struct nst_gt_ops *ops, size_t i)
{
	return &ops->lanes[ops->lane[i]];
}

/* Whether the operations are cut to the window of a time or NVTX filter:
 * gpu_time_sum measures time inside the window; a distribution of
 * durations wants each operation whole, as the filter keeps it. */
enum nst_gt_cut { NST_GT_WHOLE, NST_GT_CUT_TO_WINDOW };

/* Loads the operations that ctx->ev shows (those a filter keeps).  Rows
 * with a NULL start or end are no interval and are left out.
 *
 * The capture span runs from the session's start (time 0: event times
 * count from it) to its end, ANALYSIS_DETAILS.duration; an export without
 * that table has the span from the earliest start to the latest end of
 * its CUDA runtime calls and GPU operations.  It widens to cover any GPU
 * operation outside it, and with NST_GT_CUT_TO_WINDOW it is cut to the
 * filter's window too.  NST_ERR_NODATA when the export has none of the
 * four tables. */
enum nst_status nst_gt_load(struct nst_ctx *ctx, enum nst_gt_cut cut,
			    struct nst_gt_ops *ops, struct nst_error *err);
void nst_gt_release(struct nst_gt_ops *ops);
/* nst_gt_load's operations, loaded on first use and kept with the export
 * (and filter) that ctx shows, with their order by device (nst_gt_order):
 * the reports that measure GPU time, run one after another, then read
 * and sort them once.  Neither is to be released. */
enum nst_status nst_gt_shared(struct nst_ctx *ctx, enum nst_gt_cut cut,
			      const struct nst_gt_ops **ops, const uint32_t **by_device,
			      struct nst_error *err);

/* nst_gt_shared's where a report has loaded them (one loading them now
 * is waited for); false, and nothing loaded, where none has. */
bool nst_gt_shared_loaded(struct nst_ctx *ctx, enum nst_gt_cut cut,
			  const struct nst_gt_ops **ops, const uint32_t **by_device);
enum nst_gt_by { NST_GT_BY_DEVICE, NST_GT_BY_PROCESS, NST_GT_BY_STREAM };

/* One group's time.  busy covers every operation; kern the kernels and
 * graph executions; graph_sum is the plain sum of the graph executions'
 * durations (a part of kern.sum).  Gaps are counted in busy. */
struct nst_gt_group {
	int64_t device, gpid, stream; /* NST_NULL_I64 where the grouping has none */
	struct nst_coverage busy, kern;
	int64_t graph_sum;
};

/* The groups of ops by device (all processes together), by (process,
 * device) or by (process, device, stream), in order of those keys
 * ascending (unknown first).  Holes in busy time longer than gap ns are
 * counted.  *out is malloc'ed. */
enum nst_status nst_gt_groups(const struct nst_gt_ops *ops, enum nst_gt_by by, int64_t gap,
			      struct nst_gt_group **out, size_t *n, struct nst_error *err);
/* nst_gt_groups in two steps: *order (malloc'ed) the operations'
 * indexes group after group, busy.n of each, each group's in order of
 * start, then end (the order nst_intervals_sort gives); then the groups
 * measured in that order. */
enum nst_status nst_gt_order(const struct nst_gt_ops *ops, enum nst_gt_by by, uint32_t **order,
			     struct nst_error *err);
enum nst_status nst_gt_measure(const struct nst_gt_ops *ops, enum nst_gt_by by, int64_t gap,
			       const uint32_t *order, struct nst_gt_group **out, size_t *n,
			       struct nst_error *err);

/* nst_gt_measure by device of nst_gt_shared's operations, measured once
 * for every report that asks with the same gap (the page's utilisation
 * and cuda_gpu_kern_dist read the same 10M operations otherwise); *out
 * is a malloc'ed copy, a few groups.  NST_GT_ANY_GAP takes the groups
 * measured with any gap (the default where none are): their busy time
 * does not depend on it, only the gaps counted in it. */
#define NST_GT_ANY_GAP INT64_MIN
enum nst_status nst_gt_shared_by_device(struct nst_ctx *ctx, enum nst_gt_cut cut, int64_t gap,
					struct nst_gt_group **out, size_t *n,
					struct nst_error *err);

/* Holes in busy time shorter than this are the GPU going from one
 * operation to the next, about a kernel launch's latency, not idleness
 * worth acting on. */
#define NST_GT_DEFAULT_GAP_NS 1000

/* gpu_time_sum's columns after its keys, and a group's cells under them
 * (capture: the capture span's length). */
#define NST_GT_NTIME 12
extern const char *const nst_gt_time_cols[NST_GT_NTIME];
void nst_gt_time_cells(const struct nst_gt_group *g, int64_t capture, struct nst_cell *c);

#define NST_GT_TABLE_NEEDS(table)                                           \
	{ table, "start", false }, { table, "end", false },                 \
	{ table, "deviceId", false }, { table, "streamId", false },         \
	{ table, "globalPid", false }
/* What nst_gt_load reads, for the reports' `needs`. */
#define NST_GT_NEEDS                                                        \
	NST_GT_TABLE_NEEDS(KERNEL), NST_GT_TABLE_NEEDS(MEMCPY),             \
	NST_GT_TABLE_NEEDS(MEMSET), NST_GT_TABLE_NEEDS(GRAPH_TRACE),        \
	{ ANALYSIS_DETAILS, "duration", false }

#endif
