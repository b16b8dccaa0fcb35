/* nvtx_sum: time spent in each NVTX range name (with its domain), per
 * range style (push/pop or start/end). */
#include "reports/nvtx.h"

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	return nst_nvtx_summary(ctx, out, NST_NVTX_ALL_STYLES, err);
}

const struct nst_report nst_report_nvtx_sum = {
	.name = "nvtx_sum",
	.title = "NVTX Range Summary",
	.help = "Time spent in each NVTX range, by name (\"domain:name\" for ranges\n"
		"of a named domain) and style (PushPop or StartEnd): the number of\n"
		"ranges, their total time and its share, and the average, median,\n"
		"minimum, maximum and standard deviation of one range. A range\n"
		"that never ended runs to the last NVTX timestamp.\n"
		NST_TOP_ROWS_HELP,
	.args = (const char *const[]){ "rows", NULL },
	.needs = nst_nvtx_needs,
	.run = run,
	.flags = NST_REPORT_TOP_ROWS,
};
