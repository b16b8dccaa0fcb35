/* dx12_gpu_marker_sum: time spent in each PIX marker of D3D12 command lists on the GPU
 * (DX12_WORKLOAD rows with a marker text), by name. */
#include "reports/graphics.h"

#define TABLE "DX12_WORKLOAD"
/* nsys's words for a missing TABLE */
#define NO_DATA "DX12 GPU debug markers."

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	enum nst_status s = nst_gfx_check(ctx, TABLE, NO_DATA, err);
	return s != NST_OK ? s : nst_gfx_gpu_marker_sum(ctx, out, TABLE, err);
}

static const struct nst_need needs[] = {
	NST_GFX_GPU_MARKER_NEEDS(TABLE),
	{ NULL, NULL, false },
};

const struct nst_report nst_report_dx12_gpu_marker_sum = {
	.name = "dx12_gpu_marker_sum",
	.title = "DX12 GPU Command List PIX Ranges Summary",
	.help = "Time spent in PIX marker ranges of D3D12 command lists on the GPU\n"
		"(workload rows with a marker text), by marker. For each marker:\n"
		NST_GFX_RANGE_HELP "\n"
		NST_TOP_ROWS_HELP,
	.args = (const char *const[]){ "rows", NULL },
	.needs = needs,
	.run = run,
	.flags = NST_REPORT_TOP_ROWS,
};
