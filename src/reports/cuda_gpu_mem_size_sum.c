/* cuda_gpu_mem_size_sum: bytes moved or set by GPU memory operations, by
 * kind of copy and memset. */
#include "reports/gpu_ops.h"

static const char *const cols[] = {
	"Total:mem_B", "Count", "Avg:mem_B", "Med:mem_B", "Min:mem_B",
	"Max:mem_B", "StdDev:mem_B", "Operation",
};
#define NCOLS (sizeof cols / sizeof *cols)

/* Unlike the time summaries, nsys leaves the average, median and standard
 * deviation unrounded here. */
static void size_row(const struct nst_op_set *set, uint32_t grp, struct nst_cell *c)
{
	const struct nst_dist *d = &set->sum.d[grp];
	c[0] = nst_int(d->sum);
	c[1] = nst_int((int64_t)d->n);
	c[2] = nst_real(d->avg);
	c[3] = nst_mid_cell(d->med);
	c[4] = nst_int(d->min);
	c[5] = nst_int(d->max);
	c[6] = nst_real(d->stdev);
	c[7] = nst_text(nst_op_group_name(set, grp));
}

static enum nst_status emit(const struct nst_sink *out, const struct nst_op_set *set,
			    struct nst_error *err)
{
	enum nst_status s;
	if ((s = out->begin(out->ctx, cols, NCOLS, err)) != NST_OK)
		return s;
	for (size_t k = 0; k < set->sum.n; k++) {
		struct nst_cell c[NCOLS];
		size_row(set, set->sum.order[k], c);
		if ((s = out->row(out->ctx, c, err)) != NST_OK)
			return s;
	}
	return NST_OK;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	if (!nst_db_has_table(ctx->db, MEMCPY) && !nst_db_has_table(ctx->db, MEMSET))
		return nst_nodata(ctx, err, "GPU memory data.");
	struct nst_op_set set;
	enum nst_status s = nst_op_set_build(ctx, NST_SRC_MEMCPY | NST_SRC_MEMSET,
					     NST_OP_BYTES, NULL, 0,
					     NST_ORDER_TOTAL_NAME, &set, err);
	if (s != NST_OK)
		return s;
	s = emit(out, &set, err);
	nst_op_set_release(&set);
	return s;
}

static const struct nst_need needs[] = {
	NST_GPU_BYTES_NEEDS(MEMCPY), NST_MEMCPY_KIND_NEEDS,
	NST_GPU_BYTES_NEEDS(MEMSET),
	{ NULL, NULL, false },
};

const struct nst_report nst_report_cuda_gpu_mem_size_sum = {
	.name = "cuda_gpu_mem_size_sum",
	.title = "CUDA GPU MemOps Summary (by Size)",
	.help = "Bytes moved or set by GPU memory operations, by kind of copy and\n"
		"memset: the number of operations, their total size, and the\n"
		"average, median, minimum, maximum and standard deviation of one\n"
		"operation's size.\n"
		NST_TOP_ROWS_HELP,
	.args = (const char *const[]){ "rows", NULL },
	.needs = needs,
	.run = run,
	.flags = NST_REPORT_TOP_ROWS,
};
