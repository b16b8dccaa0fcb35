/* osrt_sum: time spent in each OS runtime function (OSRT_API rows of event
 * class 27; the start/finish markers of classes 31 and 32 are not calls). */
#include "reports/common.h"

#define OSRT "OSRT_API"
#define OS_RUNTIME_CLASS 27

static const struct nst_class_calls calls = {
	.table = OSRT, .cls = OS_RUNTIME_CLASS, .every_without_class = true,
	.nodata = "OS Runtime trace data.", .name_of = nst_raw_name,
};

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	return nst_summarise_class_calls(ctx, out, &calls, err);
}

static const struct nst_need needs[] = {
	NST_CLASS_CALL_NEEDS(OSRT),
	{ NULL, NULL, false },
};

const struct nst_report nst_report_osrt_sum = {
	.name = "osrt_sum",
	.title = "OS Runtime Summary",
	.help = "Time spent in each OS runtime library function (OSRT_API calls of\n"
		"event class 27): the number of calls, their total time and its\n"
		"share, and the average, median, minimum, maximum and standard\n"
		"deviation of one call.\n"
		NST_TOP_ROWS_HELP,
	.args = (const char *const[]){ "rows", NULL },
	.needs = needs,
	.run = run,
	.flags = NST_REPORT_TOP_ROWS,
};
