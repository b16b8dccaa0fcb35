/* nvtx_pushpop_sum: time spent in each push/pop NVTX range name (with its
 * domain). */
#include "reports/nvtx.h"

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	return nst_nvtx_summary(ctx, out, NST_NVTX_STYLE_BIT(NST_NVTX_PUSHPOP), err);
}

const struct nst_report nst_report_nvtx_pushpop_sum = {
	.name = "nvtx_pushpop_sum",
	.title = "NVTX Push/Pop Range Summary",
	.help = "Time spent in each push/pop NVTX range, by name (\"domain:name\"\n"
		"for ranges of a named domain): the number of ranges, their total\n"
		"time and its share of all push/pop ranges, and the average,\n"
		"median, minimum, maximum and standard deviation of one range. A\n"
		"range that was never popped runs to the last NVTX timestamp.\n"
		NST_TOP_ROWS_HELP,
	.args = (const char *const[]){ "rows", NULL },
	.needs = nst_nvtx_needs,
	.run = run,
	.flags = NST_REPORT_TOP_ROWS,
};
