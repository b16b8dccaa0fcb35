/* gpu_time_sum: how much of the capture each GPU was busy, how much of
 * that was kernels, and how much a plain sum of kernel durations counts
 * twice, by device, by process and device, or by stream. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reports/gpu_time.h"

static bool parse_gap(const char *v, int64_t *out)
{
	char *end;
	errno = 0;
	long long g = strtoll(v, &end, 10);
	if (!*v || *end || errno || g < 0)
		return false;
	*out = g;
	return true;
}

static bool parse_by(const char *v, enum nst_gt_by *out)
{
	static const char *const names[] = { "device", "process", "stream" };
	for (size_t i = 0; v && i < sizeof names / sizeof *names; i++)
		if (strcmp(v, names[i]) == 0) {
			*out = (enum nst_gt_by)i;
			return true;
		}
	return false;
}

static enum nst_status check(const struct nst_arg *args, size_t nargs, struct nst_error *err)
{
	for (size_t i = 0; i < nargs; i++) {
		const char *k = args[i].key, *v = args[i].value;
		enum nst_gt_by by;
		int64_t gap;
		if (strcmp(k, "by") == 0 && !parse_by(v, &by))
			return nst_fail(err, NST_ERR_USAGE, "by=%s: not one of device, process, stream",
					v ? v : "");
		if (strcmp(k, "gap") == 0 && (!v || !parse_gap(v, &gap)))
			return nst_fail(err, NST_ERR_USAGE, "gap=%s: not a whole number of ns (0 or more)",
					v ? v : "");
	}
	return NST_OK;
}

static const char *const key_cols[] = { "PID", "Device", "Stream" };

#define NKEYS 3
#define NTIME NST_GT_NTIME

/* The key columns a grouping shows: [first, NKEYS) of key_cols, less the
 * PID for devices and the stream for processes. */
static size_t header(enum nst_gt_by by, const char **cols)
{
	size_t n = 0;
	if (by != NST_GT_BY_DEVICE)
		cols[n++] = key_cols[0];
	cols[n++] = key_cols[1];
	if (by == NST_GT_BY_STREAM)
		cols[n++] = key_cols[2];
	for (size_t i = 0; i < NTIME; i++)
		cols[n++] = nst_gt_time_cols[i];
	return n;
}

static size_t key_cells(enum nst_gt_by by, const struct nst_gt_group *g, struct nst_cell *c)
{
	size_t n = 0;
	if (by != NST_GT_BY_DEVICE)
		c[n++] = g->gpid == NST_NULL_I64 ? nst_null() : nst_int(nst_pid(g->gpid));
	c[n++] = nst_int_or_null(g->device);
	if (by == NST_GT_BY_STREAM)
		c[n++] = nst_int_or_null(g->stream);
	return n;
}

static enum nst_status emit(const struct nst_sink *out, enum nst_gt_by by,
			    const struct nst_gt_ops *ops, const struct nst_gt_group *g, size_t n,
			    struct nst_error *err)
{
	enum nst_status s;
	const char *cols[NKEYS + NTIME];
	if ((s = out->begin(out->ctx, cols, header(by, cols), err)) != NST_OK)
		return s;
	int64_t capture = ops->span_end - ops->span_start;
	for (size_t k = 0; k < n; k++) {
		struct nst_cell c[NKEYS + NTIME];
		nst_gt_time_cells(&g[k], capture, c + key_cells(by, &g[k], c));
		if ((s = out->row(out->ctx, c, err)) != NST_OK)
			return s;
	}
	return NST_OK;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out, struct nst_error *err)
{
	enum nst_gt_by by = NST_GT_BY_DEVICE;
	int64_t gap = NST_GT_DEFAULT_GAP_NS;
	const char *v = nst_ctx_value(ctx, "by");
	if (v)
		parse_by(v, &by);
	if ((v = nst_ctx_value(ctx, "gap")))
		parse_gap(v, &gap);
	const struct nst_gt_ops *ops;
	const uint32_t *by_device;
	struct nst_gt_group *g = NULL;
	size_t n = 0;
	enum nst_status s = nst_gt_shared(ctx, NST_GT_CUT_TO_WINDOW, &ops, &by_device, err);
	if (!s && by == NST_GT_BY_DEVICE)
		s = nst_gt_shared_by_device(ctx, NST_GT_CUT_TO_WINDOW, gap, &g, &n, err);
	else if (!s)
		s = nst_gt_groups(ops, by, gap, &g, &n, err);
	if (!s)
		s = emit(out, by, ops, g, n, err);
	free(g);
	return s;
}

static const struct nst_need needs[] = {
	NST_GT_NEEDS,
	{ NULL, NULL, false },
};

const struct nst_report nst_report_gpu_time_sum = {
	.name = "gpu_time_sum",
	.title = "GPU Time Summary",
	.help = "Where GPU time went, to the nanosecond, one row per device (by=device,\n"
		"the default), per process and device (by=process) or per process,\n"
		"device and stream (by=stream).  GPU operations are the rows of the\n"
		"CUDA kernel, memcpy, memset and graph trace tables (CUPTI_ACTIVITY_KIND_\n"
		"KERNEL, _MEMCPY, _MEMSET, _GRAPH_TRACE); a device is a deviceId, whatever\n"
		"process used it.  Columns, all in ns but the shares:\n"
		"  Capture Span: from the session's start (time 0) to its end\n"
		"    (ANALYSIS_DETAILS.duration; without that table, from the first to\n"
		"    the last CUDA API call, backtrace records left out), widened to\n"
		"    any GPU operation outside it; the same for every row.\n"
		"  GPU Span: from the group's first GPU operation's start to its last\n"
		"    one's end.\n"
		"  Busy: the union of the group's operations: each nanosecond in which\n"
		"    at least one ran, once.\n"
		"  Kernel Union: the same over kernels and graph executions.  A graph\n"
		"    traced at graph level (--cuda-graph-trace=graph, nsys's default)\n"
		"    hides its kernels: its execution counts as kernel time.\n"
		"  Kernel Sum: the plain sum of those durations (cuda_gpu_kern_sum's\n"
		"    Total Times added up, plus graphs, when none is below zero).\n"
		"  Overlap: Kernel Sum - Kernel Union, the time concurrent kernels\n"
		"    count twice (or exact duplicate rows do; see nstats check).\n"
		"  Graph: the plain sum of graph execution durations.\n"
		"  Idle: Capture Span - Busy.\n"
		"  Capture Util: Busy / Capture Span; GPU Span Util: Busy / GPU Span.\n"
		"  Idle Gaps, Gap Time: the holes in Busy, between its first and last\n"
		"    operation, longer than gap=NS (whole ns, default 1000, about a kernel\n"
		"    launch's latency), and their total length.\n"
		"Profiler overhead and graphics workloads are no GPU operations here\n"
		"(the gpu_gaps and gpu_time_util rules count them, as nsys does).\n"
		"An operation that ends before it starts, or at its start, covers\n"
		"nothing and adds 0 to the sums.  A row with no deviceId, globalPid or\n"
		"streamId (a NULL, or an export without the column) is grouped with the\n"
		"others that lack it, shown with an empty cell.  Under a time or NVTX\n"
		"filter (--filter-time, --filter-nvtx, start=, end=, nvtx=) the\n"
		"operations are those the filter keeps, each cut to the window, and\n"
		"the Capture Span is cut to the window too: the numbers measure the\n"
		"window.\n"
		NST_TOP_ROWS_HELP,
	.args = (const char *const[]){ "by", "gap", "rows", NULL },
	.needs = needs,
	.run = run,
	.flags = NST_REPORT_ADDITION | NST_REPORT_TOP_ROWS,
	.check = check,
};
