/* osrt_sum: time spent in each OS runtime function (OSRT_API rows of event
 * class 27; the start/finish markers of classes 31 and 32 are not calls). */
#include <stdlib.h>

#include "reports/common.h"

#define OSRT "OSRT_API"
#define OS_RUNTIME_CLASS 27

/* The rows that are OS runtime calls. */
static enum nst_status call_rows(const struct nst_col *event_class, size_t n,
				 uint32_t **rows, size_t *nrows, struct nst_error *err)
{
	*nrows = 0;
	*rows = malloc((n ? n : 1) * sizeof **rows);
	if (!*rows)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		if (!event_class || nst_col_at(event_class, i) == OS_RUNTIME_CLASS)
			(*rows)[(*nrows)++] = (uint32_t)i;
	return NST_OK;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	enum nst_status strings = nst_require_strings(ctx, err);
	if (strings != NST_OK)
		return strings;
	if (!nst_db_has_table(ctx->db, OSRT))
		return nst_nodata(ctx, err, "OS Runtime trace data.");
	size_t n;
	struct nst_span dur;
	const struct nst_col *cls, *name_id;
	enum nst_status s = nst_ev_rows(ctx->ev, OSRT, &n, err);
	if (!s) s = nst_ev_durations(ctx->ev, OSRT, &dur, err);
	if (!s) s = nst_ev_col(ctx->ev, OSRT, "eventClass", &cls, err);
	if (!s) s = nst_ev_col(ctx->ev, OSRT, "nameId", &name_id, err);
	if (s != NST_OK)
		return s;
	if (nst_span_none(&dur) || !name_id)
		return nst_fail(err, NST_ERR_DB, "%s: %s lacks start, end or nameId",
				nst_db_path(ctx->db), OSRT);
	uint32_t *rows;
	size_t nrows;
	s = call_rows(cls, n, &rows, &nrows, err);
	if (s == NST_OK)
		s = nst_summarise_calls(ctx, out, &dur, name_id, rows, nrows,
					nst_raw_name, err);
	free(rows);
	return s;
}

static const struct nst_need needs[] = {
	{ OSRT, NST_EV_DURATION, false },
	{ OSRT, "eventClass", false }, { OSRT, "nameId", false },
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
