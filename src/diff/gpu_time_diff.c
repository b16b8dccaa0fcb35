/* gpu_time_diff: every number of gpu_time_sum per device on both sides and
 * B - A. */
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
		.keys = keys, .nkeys = 1,
		.m = measures, .nm = sizeof measures / sizeof *measures,
	};
	return diff_keyed_run(d, &k, out, err);
}

static const char *const sources[] = { "gpu_time_sum", NULL };

const struct nst_report nst_diff_gpu_time_diff = {
	.name = "gpu_time_diff",
	.title = "GPU Time Compared",
	.help = "Every number of gpu_time_sum, per device, on both sides and B - A:\n"
		"capture and GPU span, busy time (each nanosecond once), kernel union and\n"
		"sum, overlap, graph time, idle time, utilization, and idle gaps.  In\n"
		"device order.",
	.flags = NST_REPORT_ADDITION,
	.diff = diff,
	.sources = sources,
};
