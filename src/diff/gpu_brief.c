/* gpu_brief: each pair of devices in a line, what `nstats diff` shows
 * first: busy time (each nanosecond once) on both sides and its change,
 * and how much of the GPU span that was.  gpu_time_diff has every number
 * of gpu_time_sum. */
#include "diff/diff.h"

static const char *const keys[] = { "Device" };

static const struct diff_measure measures[] = {
	{ 0, "Busy:dur_ns", "Busy", ":dur_ns", false, true },
	{ 0, "GPU Span Util:ratio_%", "Util", ":ratio_%", false, false },
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

const struct nst_report nst_diff_gpu_brief = {
	.name = "gpu_brief",
	.title = "GPUs Compared, in Brief",
	.help = "Each pair of devices in a line: its busy time on each side (each\n"
		"nanosecond once, however many kernels overlap: gpu_time_sum's Busy), the\n"
		"change in percent of A, and the busy share of each side's GPU span\n"
		"(Util).  Devices pair as gpu_time_diff pairs them: by the kernels they\n"
		"ran (--devices auto) or by id.  One number a side: no test; a run that\n"
		"did fewer iterations was busy for less time.  gpu_time_diff has every\n"
		"number of gpu_time_sum.",
	.flags = NST_REPORT_ADDITION,
	.diff = diff,
	.sources = sources,
};
