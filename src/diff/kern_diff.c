/* kern_diff: each kernel on both sides, as cuda_gpu_kern_dist measures it
 * on each: instances, total, mean and percentiles, the change of the
 * total, and whether the kernel was added, removed, or became slower or
 * faster beyond the tolerance. */
#include "diff/diff.h"

static const char *const keys[] = { "Name" };

static const struct diff_measure measures[] = {
	{ 0, "Instances", "Instances", "", true, false },
	{ 0, "Total Time:dur_ns", "Total", ":dur_ns", true, true },
	{ 0, "Mean:dur_ns", "Mean", ":dur_ns", false, false },
	{ 0, "P50:dur_ns", "P50", ":dur_ns", false, false },
	{ 0, "P90:dur_ns", "P90", ":dur_ns", false, false },
	{ 0, "P99:dur_ns", "P99", ":dur_ns", false, false },
};

static enum nst_status diff(struct nst_diff_ctx *d, const struct nst_sink *out,
			    struct nst_error *err)
{
	static const struct diff_keyed k = {
		.source = { { { "cuda_gpu_kern_dist", "cuda_gpu_kern_dist:base" } } },
		.keys = keys, .nkeys = 1,
		.m = measures, .nm = sizeof measures / sizeof *measures,
		.order = 1, .has_order = true, .status = true,
		.samples = diff_kernel_samples,
	};
	return diff_keyed_run(d, &k, out, err);
}

static const char *const args[] = { "tolerance", NULL };

static const char *const sources[] = { "cuda_gpu_kern_dist", NULL };

const struct nst_report nst_diff_kern_diff = {
	.name = "kern_diff",
	.title = "CUDA GPU Kernels Compared",
	.help = "Each kernel name on both sides (A the baseline, B the candidate), as\n"
		"cuda_gpu_kern_dist measures it on each: instances, total time, mean and\n"
		"the P50, P90 and P99 durations (nearest rank), and B - A; and its\n"
		"instances compared.  Med is the median as nsys's Med is (the mean of the\n"
		"two middle values).  Shift is the Hodges-Lehmann estimate of how much\n"
		"slower B's instances are than A's, as a ratio (the median of the ratios\n"
		"of every instance of B to every instance of A), in percent, with its 95%\n"
		"interval; P-Value is the two-sided Mann-Whitney U test's (exact up to 60\n"
		"instances in all, else normal with the tie correction), Holm P-Value the\n"
		"same adjusted over the kernels of the report.  Status: added (only in B),\n"
		"removed (only in A), ~ when the Holm p-value is at least --alpha (default\n"
		"0.05): no significant change; else same when the shift is within\n"
		"tolerance= percent (default 2), else slower or faster.  A changed number\n"
		"of instances changes the totals, not the status.  Largest change of the\n"
		"total first.  Kernels match by name: the demangled name, or the base name\n"
		"with --names base (what matches across profilers).",
	.args = args,
	.sources = sources,
	.flags = NST_REPORT_ADDITION,
	.check = diff_check_tolerance,
	.diff = diff,
};
