/* opengl_khr_gpu_range_sum: time spent in each OpenGL KHR_debug group on the GPU
 * (KHR_DEBUG_EVENTS rows of event type 63), by name. */
#include "reports/graphics.h"

/* nsys's words for a missing KHR_DEBUG_EVENTS */
#define NO_DATA "GPU KHR Extension (KHR_DEBUG) data."

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	enum nst_status s = nst_gfx_check(ctx, KHR_DEBUG, NO_DATA, err);
	return s != NST_OK ? s : nst_gfx_khr_sum(ctx, out, KHR_GPU_RANGE, err);
}

static const struct nst_need needs[] = {
	NST_GFX_KHR_NEEDS,
	{ NULL, NULL, false },
};

const struct nst_report nst_report_opengl_khr_gpu_range_sum = {
	.name = "opengl_khr_gpu_range_sum",
	.title = "OpenGL KHR_debug GPU Range Summary",
	.help = "Time spent in OpenGL KHR_debug push/pop groups on the GPU, by\n"
		"message text (the KHR event id where a group has none; a group\n"
		"that never ended runs to the last end in the table). For each name:\n"
		NST_GFX_RANGE_HELP "\n"
		NST_TOP_ROWS_HELP,
	.args = (const char *const[]){ "rows", NULL },
	.needs = needs,
	.run = run,
	.flags = NST_REPORT_TOP_ROWS,
};
