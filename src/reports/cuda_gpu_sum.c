/* cuda_gpu_sum: time spent in each GPU operation -- kernels by name,
 * memory copies by kind, memsets -- in one summary. */
#include "reports/gpu_ops.h"

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	enum nst_status s = nst_require_strings(ctx, err);
	if (s != NST_OK)
		return s;
	if (!nst_db_has_table(ctx->db, KERNEL) && !nst_db_has_table(ctx->db, MEMCPY) &&
	    !nst_db_has_table(ctx->db, MEMSET))
		return nst_nodata(ctx, err, "GPU kernel/memory operations data.");
	struct nst_op_set set;
	s = nst_op_set_build(ctx, NST_SRC_KERNEL | NST_SRC_MEMCPY | NST_SRC_MEMSET,
			     NST_OP_DURATION, NULL, 0, NST_ORDER_TOTAL_NAME, &set, err);
	if (s != NST_OK)
		return s;
	static const char *const tail[] = { "Category", "Operation" };
	s = nst_op_emit_summary(ctx, out, "Instances", tail, 2, nst_op_category_tail, &set, err);
	nst_op_set_release(&set);
	return s;
}

static const struct nst_need needs[] = {
	NST_GPU_SPAN_NEEDS(KERNEL), NST_KERNEL_NAME_NEEDS,
	NST_GPU_SPAN_NEEDS(MEMCPY), NST_MEMCPY_KIND_NEEDS,
	NST_GPU_SPAN_NEEDS(MEMSET),
	{ NULL, NULL, false },
};

const struct nst_report nst_report_cuda_gpu_sum = {
	.name = "cuda_gpu_sum",
	.title = "CUDA GPU Summary (Kernels/MemOps)",
	.help = "Time spent in each GPU operation: kernels (by name), memory copies\n"
		"(by kind) and memsets, with their count, total time and its share,\n"
		"and the average, median, minimum, maximum and standard deviation of\n"
		"one operation.\n"
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
