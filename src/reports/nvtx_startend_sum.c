/* nvtx_startend_sum: time spent in each start/end NVTX range name (with
 * its domain). */
#include "reports/nvtx.h"

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	return nst_nvtx_summary(ctx, out, NST_NVTX_STYLE_BIT(NST_NVTX_STARTEND), err);
}

const struct nst_report nst_report_nvtx_startend_sum = {
	.name = "nvtx_startend_sum",
	.title = "NVTX Start/End Range Summary",
	.help = "Time spent in each start/end NVTX range, by name (\"domain:name\"\n"
		"for ranges of a named domain): the number of ranges, their total\n"
		"time and its share of all start/end ranges, and the average,\n"
		"median, minimum, maximum and standard deviation of one range. A\n"
		"range may end on another thread than the one it started on; one\n"
		"that never ended runs to the last NVTX timestamp.\n"
		NST_TOP_ROWS_HELP,
	.args = (const char *const[]){ "rows", NULL },
	.needs = nst_nvtx_needs,
	.run = run,
	.flags = NST_REPORT_TOP_ROWS,
};
