/* cuda_gpu_kern_gb_sum: time spent in each CUDA kernel, grouped by the
 * kernel's name and its grid and block dimensions. */
#include "reports/gpu_ops.h"

static const char *const dims[6] = {
	"gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ",
};

/* printf('%4d %4d %4d', x, y, z) as SQLite writes it; NULL prints as 0. */
static const char *xyz(struct nst_ctx *ctx, const int64_t *const *col, uint32_t row)
{
	int64_t v[3];
	for (int k = 0; k < 3; k++)
		v[k] = col[k] && col[k][row] != NST_NULL_I64 ? col[k][row] : 0;
	return nst_arena_printf(ctx->arena, "%4lld %4lld %4lld", (long long)v[0],
				(long long)v[1], (long long)v[2]);
}

struct gb_cols {
	const int64_t *dim[6];
};

static void grid_block_tail(struct nst_ctx *ctx, const struct nst_op_set *set,
			    uint32_t grp, struct nst_cell *tail)
{
	const struct gb_cols *c = set->user;
	uint32_t row = set->sum.g.first[grp];
	tail[0] = nst_text(xyz(ctx, &c->dim[0], row));
	tail[1] = nst_text(xyz(ctx, &c->dim[3], row));
	tail[2] = nst_text(nst_op_group_name(set, grp));
}

static enum nst_status load_dims(struct nst_ctx *ctx, struct gb_cols *c,
				 struct nst_error *err)
{
	for (int k = 0; k < 6; k++) {
		enum nst_status s = nst_ev_i64(ctx->ev, KERNEL, dims[k], &c->dim[k], err);
		if (s != NST_OK)
			return s;
		if (!c->dim[k])
			return nst_fail(err, NST_ERR_DB, "%s: %s lacks %s",
					nst_db_path(ctx->db), KERNEL, dims[k]);
	}
	return NST_OK;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	enum nst_status s = nst_require_strings(ctx, err);
	if (s != NST_OK)
		return s;
	if (!nst_db_has_table(ctx->db, KERNEL))
		return nst_nodata(ctx, err, "CUDA kernel data.");
	struct gb_cols c;
	if ((s = load_dims(ctx, &c, err)) != NST_OK)
		return s;
	struct nst_op_set set;
	s = nst_op_set_build(ctx, NST_SRC_KERNEL, NST_OP_DURATION, c.dim, 6,
			     NST_ORDER_TOTAL_COUNT_NAME, &set, err);
	if (s != NST_OK)
		return s;
	set.user = &c;
	static const char *const tail[] = { "GridXYZ", "BlockXYZ", "Name" };
	s = nst_op_emit_summary(ctx, out, "Instances", tail, 3, grid_block_tail, &set, err);
	nst_op_set_release(&set);
	return s;
}

static const struct nst_need needs[] = {
	NST_GPU_SPAN_NEEDS(KERNEL), NST_KERNEL_NAME_NEEDS,
	{ KERNEL, "gridX", false }, { KERNEL, "gridY", false }, { KERNEL, "gridZ", false },
	{ KERNEL, "blockX", false }, { KERNEL, "blockY", false }, { KERNEL, "blockZ", false },
	{ NULL, NULL, false },
};

const struct nst_report nst_report_cuda_gpu_kern_gb_sum = {
	.name = "cuda_gpu_kern_gb_sum",
	.title = "CUDA GPU Kernel/Grid/Block Summary",
	.help = "Time spent in each CUDA kernel, grouped by kernel name and by the\n"
		"launch's grid and block dimensions: the number of launches, their\n"
		"total time and its share, and the average, median, minimum, maximum\n"
		"and standard deviation of one execution.\n"
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
