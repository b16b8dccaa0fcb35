/* rows=N of the summary reports (NST_REPORT_TOP_ROWS): the first N rows
 * in the report's own order, cut between the report and its sink, so
 * that every such report gets it alike and none sorts differently for it.
 * Formats that size columns see only the rows kept. */
#include <string.h>

#include "core/parse.h"
#include "run/run.h"

/* The value of rows=, or NULL when the job has none (the last one wins,
 * as for every argument). */
static const char *rows_value(const struct nst_job *job, bool *given)
{
	const char *v = NULL;
	*given = false;
	for (size_t i = 0; i < job->nargs; i++)
		if (strcmp(job->args[i].key, "rows") == 0) {
			v = job->args[i].value;
			*given = true;
		}
	return v;
}

enum nst_status run_top_rows_check(const struct nst_job *job, struct nst_error *err)
{
	bool given;
	const char *v = rows_value(job, &given);
	int64_t n;
	if (!(job->report->flags & NST_REPORT_TOP_ROWS) || !given)
		return NST_OK;
	if (!v)
		return nst_fail(err, NST_ERR_USAGE, "report '%s': argument rows: expected one argument",
				job->name);
	if (!nst_parse_i64(v, &n) || n < 1)
		return nst_fail(err, NST_ERR_USAGE,
				"report '%s': argument rows: expected a positive integer, found '%s'",
				job->name, v);
	return NST_OK;
}

size_t run_top_rows_of(const struct nst_job *job)
{
	bool given;
	const char *v = rows_value(job, &given);
	int64_t n;
	if (!(job->report->flags & NST_REPORT_TOP_ROWS) || !v || !nst_parse_i64(v, &n) || n < 1)
		return SIZE_MAX;
	return (uint64_t)n > SIZE_MAX ? SIZE_MAX : (size_t)n;
}

static enum nst_status top_begin(void *ctx, const char *const *cols, size_t n,
				 struct nst_error *err)
{
	struct run_top_rows *t = ctx;
	return t->to->begin(t->to->ctx, cols, n, err);
}

static enum nst_status top_row(void *ctx, const struct nst_cell *cells, struct nst_error *err)
{
	struct run_top_rows *t = ctx;
	if (t->left == 0)
		return NST_OK;
	t->left--;
	return t->to->row(t->to->ctx, cells, err);
}

static enum nst_status top_note(void *ctx, enum nst_note kind, const char *text,
				struct nst_error *err)
{
	struct run_top_rows *t = ctx;
	return t->to->note ? t->to->note(t->to->ctx, kind, text, err) : NST_OK;
}

struct nst_sink run_top_rows_sink(struct run_top_rows *t, const struct nst_sink *to,
				  size_t limit)
{
	*t = (struct run_top_rows){ .to = to, .left = limit };
	return (struct nst_sink){ top_begin, top_row, to->note ? top_note : NULL, t };
}
