/* vulkan_gpu_marker_sum: time spent in each Vulkan debug label on the GPU (VULKAN_WORKLOAD
 * rows with a label), by name. */
#include "reports/graphics.h"

#define TABLE "VULKAN_WORKLOAD"
/* nsys's words for a missing TABLE */
#define NO_DATA "GPU Vulkan Debug Extension (GPU Vulkan Debug markers) data."

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

const struct nst_report nst_report_vulkan_gpu_marker_sum = {
	.name = "vulkan_gpu_marker_sum",
	.title = "Vulkan GPU Range Summary",
	.help = "Time spent in Vulkan debug label ranges on the GPU (workload rows\n"
		"with a label), by label. For each label:\n"
		NST_GFX_RANGE_HELP "\n"
		NST_TOP_ROWS_HELP,
	.args = (const char *const[]){ "rows", NULL },
	.needs = needs,
	.run = run,
	.flags = NST_REPORT_TOP_ROWS,
};
