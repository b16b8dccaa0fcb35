/* gpu_time_diff: every number of gpu_time_sum per pair of devices on both
 * sides and B - A; devices pair by the kernels they ran (devices.c). */
#include "diff/diff.h"

static const char *const keys[] = { "Device" };

#define TIME(col, label) { 0, col ":dur_ns", label, ":dur_ns", true, false }
static const struct diff_measure measures[] = {
	TIME("Capture Span", "Capture Span"), TIME("GPU Span", "GPU Span"), TIME("Busy", "Busy"),
	TIME("Kernel Union", "Kernel Union"), TIME("Kernel Sum", "Kernel Sum"),
	TIME("Overlap", "Overlap"), TIME("Graph", "Graph"), TIME("Idle", "Idle"),
	{ 0, "Capture Util:ratio_%", "Capture Util", ":ratio_%", true, false },
	{ 0, "GPU Span Util:ratio_%", "GPU Span Util", ":ratio_%", true, false },
	{ 0, "Idle Gaps", "Idle Gaps", "", true, false },
	TIME("Gap Time", "Gap Time"),
};

static enum nst_status diff(struct nst_diff_ctx *d, const struct nst_sink *out,
			    struct nst_error *err)
{
	static const struct diff_keyed k = {
		.source = { { { "gpu_time_sum", NULL } } },
		.keys = keys, .nkeys = 1, .match = diff_match_devices,
		.m = measures, .nm = sizeof measures / sizeof *measures,
	};
	return diff_keyed_run(d, &k, out, err);
}

/* cuda_gpu_kern_sum: the kernels' names, which the devices pair by */
static const char *const sources[] = { "gpu_time_sum", "cuda_gpu_kern_sum", NULL };

const struct nst_report nst_diff_gpu_time_diff = {
	.name = "gpu_time_diff",
	.title = "GPU Time Compared",
	.help = "Every number of gpu_time_sum, per pair of devices, on both sides and\n"
		"B - A: capture and GPU span, busy time (each nanosecond once), kernel\n"
		"union and sum, overlap, graph time, idle time, utilization, and idle\n"
		"gaps.  Device A and Device B are the pair's ids, one of them empty for\n"
		"a device only one side has.  With --devices auto (the default) devices\n"
		"pair by the kernels they ran, so that rank 3 on GPU 3 meets rank 1 on\n"
		"GPU 1: for each pair the launches they share (by kernel name, by\n"
		"--names), the pair sharing the most first (ties: the same id, then the\n"
		"lower ids), each device once; devices that share none (only memory\n"
		"copies or sets) pair by id.  The pairing heads the column and table\n"
		"formats when it joins two different ids.  With --devices id, by id\n"
		"alone.  In A's device order, then devices only B has.",
	.flags = NST_REPORT_ADDITION,
	.diff = diff,
	.sources = sources,
};
