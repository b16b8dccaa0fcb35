/* cuda_api_sum: time spent in each CUDA API function, over the calls in
 * CUPTI_ACTIVITY_KIND_RUNTIME (runtime and driver API; backtrace records
 * are not calls and are left out). */
#include <stdlib.h>

#include "reports/common.h"

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	enum nst_status s = nst_require_strings(ctx, err);
	if (s != NST_OK)
		return s;
	if (!nst_db_has_table(ctx->db, RUNTIME))
		return nst_nodata(ctx, err, "CUDA trace data.");
	const struct nst_calls *c;
	struct nst_span dur;
	if ((s = nst_calls_durations(ctx, &c, &dur, err)) != NST_OK)
		return s;
	return nst_summarise_calls(ctx, out, &dur, c->name_id, c->rows, c->ncalls,
				   nst_api_name, err);
}

static const struct nst_need needs[] = {
	NST_CALL_SPAN_NEEDS,
	{ NULL, NULL, false },
};

const struct nst_report nst_report_cuda_api_sum = {
	.name = "cuda_api_sum",
	.title = "CUDA API Summary",
	.help = "Time spent in each CUDA runtime and driver API function: the\n"
		"number of calls, their total time and its share, and the average,\n"
		"median, minimum, maximum and standard deviation of one call.\n"
		"A `_vNNNN` version suffix is dropped from the names. CUDA backtrace\n"
		"records are not counted as calls (nsys 2024.2.3 counts them).\n"
		NST_TOP_ROWS_HELP,
	.args = (const char *const[]){ "rows", NULL },
	.needs = needs,
	.run = run,
	.flags = NST_REPORT_CALLS | NST_REPORT_TOP_ROWS,
};
