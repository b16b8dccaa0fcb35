/* vulkan_marker_sum: time spent in each Vulkan debug label on the CPU, by name; a range
 * runs from the end of its begin call to the start of its end call. */
#include "reports/graphics.h"

#define TABLE "VULKAN_DEBUG_API"
/* nsys's words for a missing TABLE */
#define NO_DATA "Vulkan Debug Extension (Vulkan Debug Util) data."

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

const struct nst_report nst_report_vulkan_marker_sum = {
	.name = "vulkan_marker_sum",
	.title = "Vulkan Range Summary",
	.help = "Time spent in Vulkan debug label ranges on the CPU, by label: a\n"
		"range runs from the end of its begin call to the start of the end\n"
		"call with the same thread and correlation id. For each label:\n"
		NST_GFX_RANGE_HELP "\n"
		NST_TOP_ROWS_HELP,
	.args = (const char *const[]){ "rows", NULL },
	.needs = needs,
	.run = run,
	.flags = NST_REPORT_TOP_ROWS,
};
