/* api_diff: each CUDA API function on both sides, as cuda_api_sum counts
 * it: calls, total and average time, and the change of the total. */
#include "diff/diff.h"

static const char *const keys[] = { "Name" };

static const struct diff_measure measures[] = {
	{ 0, "Num Calls", "Calls", "", true, false },
	{ 0, "Total Time:dur_ns", "Total", ":dur_ns", true, true },
	{ 0, "Avg:dur_ns", "Avg", ":dur_ns", false, false },
};

/* Each call's durations, one a row of cuda_api_trace. */
static enum nst_status calls(struct nst_diff_ctx *d, int side, struct diff_samples *out,
			    struct nst_error *err)
{
	return diff_report_samples(d, side, "cuda_api_trace", "Name", "Duration:dur_ns", out, err);
}

static enum nst_status diff(struct nst_diff_ctx *d, const struct nst_sink *out,
			    struct nst_error *err)
{
	static const struct diff_keyed k = {
		.source = { { { "cuda_api_sum", NULL } } },
		.keys = keys, .nkeys = 1,
		.m = measures, .nm = sizeof measures / sizeof *measures,
		.order = 1, .has_order = true,
		.samples = calls, .status = true,
	};
	return diff_keyed_run(d, &k, out, err);
}

static const char *const args[] = { "tolerance", NULL };
static const char *const sources[] = { "cuda_api_sum", "cuda_api_trace", NULL };

const struct nst_report nst_diff_api_diff = {
	.name = "api_diff",
	.title = "CUDA API Compared",
	.help = "Each CUDA runtime and driver API function on both sides, as cuda_api_sum\n"
		"counts it (CUDA backtrace records are no calls): the number of calls, the\n"
		"total and average time, B - A and the change of the total in percent of\n"
		"A; each function's call durations compared (cuda_api_trace's calls) and\n"
		"a status as kern_diff's (tolerance=, default 2).  Largest change of the\n"
		"total first.",
	.args = args,
	.flags = NST_REPORT_ADDITION,
	.check = diff_check_tolerance,
	.diff = diff,
	.sources = sources,
};
