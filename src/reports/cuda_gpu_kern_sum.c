/* cuda_gpu_kern_sum: time spent in each CUDA kernel, grouped by the
 * kernel's name (demangled, or base/mangled on request). */
#include "reports/gpu_ops.h"

static void name_tail(struct nst_ctx *ctx, const struct nst_op_set *set,
		      uint32_t grp, struct nst_cell *tail)
{
	(void)ctx;
	tail[0] = nst_text(nst_op_group_name(set, grp));
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	struct nst_op_set set;
	enum nst_status s = nst_kernels_by_name(ctx, true, &set, err);
	if (s != NST_OK)
		return s;
	static const char *const tail[] = { "Name" };
	s = nst_op_emit_summary(ctx, out, "Instances", tail, 1, name_tail, &set, err);
	nst_op_set_release(&set);
	return s;
}

static const struct nst_need needs[] = {
	NST_GPU_SPAN_NEEDS(KERNEL), NST_KERNEL_NAME_NEEDS,
	{ NULL, NULL, false },
};

const struct nst_report nst_report_cuda_gpu_kern_sum = {
	.name = "cuda_gpu_kern_sum",
	.title = "CUDA GPU Kernel Summary",
	.help = "Time spent in each CUDA kernel: the number of launches, their total\n"
		"time and its share, and the average, median, minimum, maximum and\n"
		"standard deviation of one execution, grouped by kernel name.\n"
		"base names kernels by their short name, mangled by their mangled\n"
		"name where the export has one.  nvtx-name prefixes each kernel's name\n"
		"with the name of the innermost NVTX range around its launch, on the\n"
		"launching thread (\"range/kernel\").\n"
		NST_TOP_ROWS_HELP,
	.args = (const char *const[]){ "nvtx-name", "base", "mangled", "rows", NULL },
	.needs = needs,
	.run = run,
	.flags = NST_REPORT_KERNELS | NST_REPORT_TOP_ROWS,
};
