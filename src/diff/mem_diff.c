/* mem_diff: memory copies by kind and memsets on both sides, as
 * cuda_gpu_mem_time_sum and cuda_gpu_mem_size_sum measure them. */
#include "diff/diff.h"

static const char *const keys[] = { "Operation" };

static const struct diff_measure measures[] = {
	{ 0, "Count", "Count", "", true, false },
	{ 0, "Total Time:dur_ns", "Time", ":dur_ns", true, true },
	{ 1, "Total:mem_B", "Size", ":mem_B", true, true },
};

/* Each operation's durations, one a row of cuda_gpu_trace. */
static enum nst_status operations(struct nst_diff_ctx *d, int side, struct diff_samples *out,
			    struct nst_error *err)
{
	return diff_report_samples(d, side, "cuda_gpu_trace", "Name", "Duration:dur_ns", out, err);
}

static enum nst_status diff(struct nst_diff_ctx *d, const struct nst_sink *out,
			    struct nst_error *err)
{
	static const struct diff_keyed k = {
		.source = { { { "cuda_gpu_mem_time_sum", NULL } },
			    { { "cuda_gpu_mem_size_sum", NULL } } },
		.keys = keys, .nkeys = 1,
		.m = measures, .nm = sizeof measures / sizeof *measures,
		.order = 1, .has_order = true, .status = true,
		.samples = operations,
	};
	return diff_keyed_run(d, &k, out, err);
}

static const char *const args[] = { "tolerance", NULL };
static const char *const sources[] = {
	"cuda_gpu_mem_time_sum", "cuda_gpu_mem_size_sum", "cuda_gpu_trace", NULL,
};

const struct nst_report nst_diff_mem_diff = {
	.name = "mem_diff",
	.title = "CUDA GPU MemOps Compared",
	.help = "Memory copies by kind, and memsets, on both sides: count, total time\n"
		"(cuda_gpu_mem_time_sum) and total size (cuda_gpu_mem_size_sum; MB unless bytes= says),\n"
		"B - A and the change in percent of A; each kind's durations compared\n"
		"and a status as kern_diff's (tolerance=, default 2).  Largest change of\n"
		"the time first.",
	.args = args,
	.flags = NST_REPORT_ADDITION,
	.check = diff_check_tolerance,
	.diff = diff,
	.sources = sources,
};
