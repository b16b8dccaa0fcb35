/* vulkan_api_sum: time spent in each Vulkan API function (VULKAN_API rows
 * of event class 53, TRACE_PROCESS_EVENT_VULKAN_API). */
#include "reports/common.h"

#define VULKAN_API "VULKAN_API"
#define VULKAN_API_CLASS 53

static const struct nst_class_calls calls = {
	.table = VULKAN_API, .cls = VULKAN_API_CLASS, .every_without_class = false,
	.nodata = "Vulkan API trace data.", .name_of = nst_api_name,
};

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	return nst_summarise_class_calls(ctx, out, &calls, err);
}

static const struct nst_need needs[] = {
	NST_CLASS_CALL_NEEDS(VULKAN_API),
	{ NULL, NULL, false },
};

const struct nst_report nst_report_vulkan_api_sum = {
	.name = "vulkan_api_sum",
	.title = "Vulkan API Summary",
	.help = "Time spent in each Vulkan API function (VULKAN_API rows of event\n"
		"class 53): the number of calls, their total time and its share,\n"
		"and the average, median, minimum, maximum and standard deviation\n"
		"of one call. A `_vNNNN` version suffix is dropped from the names.\n"
		NST_TOP_ROWS_HELP,
	.args = (const char *const[]){ "rows", NULL },
	.needs = needs,
	.run = run,
	.flags = NST_REPORT_TOP_ROWS,
};
