/* vulkan_api_sum: time spent in each Vulkan API function (VULKAN_API rows
 * of event class 53, TRACE_PROCESS_EVENT_VULKAN_API). */
#include <stdlib.h>

#include "reports/common.h"

#define VULKAN_API "VULKAN_API"
#define VULKAN_API_CLASS 53

static enum nst_status call_rows(const struct nst_col *event_class, size_t n,
				 uint32_t **rows, size_t *nrows, struct nst_error *err)
{
	*nrows = 0;
	*rows = malloc((n ? n : 1) * sizeof **rows);
	if (!*rows)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		if (event_class && nst_col_at(event_class, i) == VULKAN_API_CLASS)
			(*rows)[(*nrows)++] = (uint32_t)i;
	return NST_OK;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	enum nst_status s = nst_require_strings(ctx, err);
	if (s != NST_OK)
		return s;
	if (!nst_db_has_table(ctx->db, VULKAN_API))
		return nst_nodata(ctx, err, "Vulkan API trace data.");
	size_t n;
	struct nst_span dur;
	const struct nst_col *cls, *name_id;
	s = nst_ev_rows(ctx->ev, VULKAN_API, &n, err);
	if (!s) s = nst_ev_durations(ctx->ev, VULKAN_API, &dur, err);
	if (!s) s = nst_ev_col(ctx->ev, VULKAN_API, "eventClass", &cls, err);
	if (!s) s = nst_ev_col(ctx->ev, VULKAN_API, "nameId", &name_id, err);
	if (s != NST_OK)
		return s;
	if (nst_span_none(&dur) || !name_id)
		return nst_fail(err, NST_ERR_DB, "%s: %s lacks start, end or nameId",
				nst_db_path(ctx->db), VULKAN_API);
	uint32_t *rows;
	size_t nrows;
	s = call_rows(cls, n, &rows, &nrows, err);
	if (s == NST_OK)
		s = nst_summarise_calls(ctx, out, &dur, name_id, rows, nrows,
					nst_api_name, err);
	free(rows);
	return s;
}

static const struct nst_need needs[] = {
	{ VULKAN_API, NST_EV_DURATION, false },
	{ VULKAN_API, "eventClass", false }, { VULKAN_API, "nameId", false },
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
