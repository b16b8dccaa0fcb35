/* dx12_pix_sum: time spent in each D3D12 PIX event on the CPU, by name; a range runs
 * from the end of its begin call to the start of its end call. */
#include "reports/graphics.h"

#define TABLE "D3D12_PIX_DEBUG_API"
/* nsys's words for a missing TABLE */
#define NO_DATA "DX12 CPU debug markers."

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	enum nst_status s = nst_gfx_check(ctx, TABLE, NO_DATA, err);
	return s != NST_OK ? s : nst_gfx_cpu_marker_sum(ctx, out, TABLE, err);
}

static const struct nst_need needs[] = {
	NST_GFX_CPU_MARKER_NEEDS(TABLE),
	{ NULL, NULL, false },
};

const struct nst_report nst_report_dx12_pix_sum = {
	.name = "dx12_pix_sum",
	.title = "DX12 PIX Range Summary",
	.help = "Time spent in D3D12 PIX event ranges on the CPU, by marker text: a\n"
		"range runs from the end of its begin call to the start of the end\n"
		"call with the same thread and correlation id. For each marker:\n"
		NST_GFX_RANGE_HELP "\n"
		NST_TOP_ROWS_HELP,
	.args = (const char *const[]){ "rows", NULL },
	.needs = needs,
	.run = run,
	.flags = NST_REPORT_TOP_ROWS,
};
