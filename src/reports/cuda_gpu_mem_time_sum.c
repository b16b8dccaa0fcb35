/* cuda_gpu_mem_time_sum: time spent in GPU memory operations, by kind of
 * copy and memset. */
#include "reports/gpu_ops.h"

static void operation_tail(struct nst_ctx *ctx, const struct nst_op_set *set,
			   uint32_t grp, struct nst_cell *tail)
{
	(void)ctx;
	tail[0] = nst_text(nst_op_group_name(set, grp));
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	if (!nst_db_has_table(ctx->db, MEMCPY) && !nst_db_has_table(ctx->db, MEMSET))
		return nst_nodata(ctx, err, "GPU memory data.");
	struct nst_op_set set;
	enum nst_status s = nst_op_set_build(ctx, NST_SRC_MEMCPY | NST_SRC_MEMSET,
					     NST_OP_DURATION, NULL, 0,
					     NST_ORDER_TOTAL_NAME, &set, err);
	if (s != NST_OK)
		return s;
	static const char *const tail[] = { "Operation" };
	s = nst_op_emit_summary(ctx, out, "Count", tail, 1, operation_tail, &set, err);
	nst_op_set_release(&set);
	return s;
}

static const struct nst_need needs[] = {
	NST_GPU_SPAN_NEEDS(MEMCPY), NST_MEMCPY_KIND_NEEDS,
	NST_GPU_SPAN_NEEDS(MEMSET),
	{ NULL, NULL, false },
};

const struct nst_report nst_report_cuda_gpu_mem_time_sum = {
	.name = "cuda_gpu_mem_time_sum",
	.title = "CUDA GPU MemOps Summary (by Time)",
	.help = "Time spent in GPU memory operations, by kind of copy and memset:\n"
		"the number of operations, their total time and its share, and the\n"
		"average, median, minimum, maximum and standard deviation of one\n"
		"operation.\n"
		NST_TOP_ROWS_HELP,
	.args = (const char *const[]){ "rows", NULL },
	.needs = needs,
	.run = run,
	.flags = NST_REPORT_TOP_ROWS,
};
