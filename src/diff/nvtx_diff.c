/* nvtx_diff: NVTX ranges by name and style on both sides (nvtx_sum), with
 * the GPU time projected onto them where both sides have GPU work
 * (nvtx_gpu_proj_sum), and each name's ranges compared as kernels are. */
#include "diff/diff.h"

static const char *const keys[] = { "Range", "Style" };

static const struct diff_measure measures[] = {
	{ 0, "Instances", "Instances", "", true, false },
	{ 0, "Total Time:dur_ns", "Total", ":dur_ns", true, true },
	{ 1, "Total Proj Time:dur_ns", "GPU Proj", ":dur_ns", true, true },
};

static enum nst_status diff(struct nst_diff_ctx *d, const struct nst_sink *out,
			    struct nst_error *err)
{
	static const struct diff_keyed k = {
		.source = { { { "nvtx_sum", NULL } }, { { "nvtx_gpu_proj_sum", NULL } } },
		.keys = keys, .nkeys = 2,
		.m = measures, .nm = sizeof measures / sizeof *measures,
		.order = 1, .has_order = true, .status = true,
		.samples = diff_range_samples,
	};
	return diff_keyed_run(d, &k, out, err);
}

static const char *const args[] = { "tolerance", NULL };
static const char *const sources[] = { "nvtx_sum", "nvtx_gpu_proj_sum", NULL };

const struct nst_report nst_diff_nvtx_diff = {
	.name = "nvtx_diff",
	.title = "NVTX Ranges Compared",
	.help = "NVTX ranges by name (with @domain where they have one) and style on\n"
		"both sides: instances and total time (nvtx_sum), and the GPU time\n"
		"projected onto them (nvtx_gpu_proj_sum, empty where a side has no GPU\n"
		"work under the range), B - A and the change in percent of A; each\n"
		"name's ranges compared as kern_diff compares a kernel's instances, with\n"
		"its status (tolerance=, default 2).  Largest change of the total first.",
	.args = args,
	.flags = NST_REPORT_ADDITION,
	.check = diff_check_tolerance,
	.diff = diff,
	.sources = sources,
};
