/* capture_info: what an export says about itself and its capture, as
 * property/value rows: the export's schema and the nsys that wrote it,
 * the capture's span, and its processes.  What `nstats summary` heads its
 * page with; a report, so that scripts get it in every format too. */
#include <inttypes.h>

#include "reports/common.h"

#define ANALYSIS "ANALYSIS_DETAILS"
#define PROCESSES "PROCESSES"

static enum nst_status emit(struct nst_ctx *ctx, const struct nst_sink *out,
			    const char *property, const char *value, struct nst_error *err)
{
	(void)ctx;
	if (!value)
		return NST_OK;
	struct nst_cell c[2] = { nst_text(property), nst_text(value) };
	return out->row(out->ctx, c, err);
}

static enum nst_status emit_ns(struct nst_ctx *ctx, const struct nst_sink *out,
			       const char *property, const int64_t *col, struct nst_error *err)
{
	if (!col || *col == NST_NULL_I64)
		return NST_OK;
	const char *v = nst_arena_printf(ctx->arena, "%" PRId64, *col);
	return v ? emit(ctx, out, property, v, err) : nst_fail(err, NST_ERR_NOMEM, "out of memory");
}

/* The first ANALYSIS_DETAILS row: nsys writes one per capture. */
static enum nst_status span_rows(struct nst_ctx *ctx, const struct nst_sink *out,
				 struct nst_error *err)
{
	size_t n = 0;
	const int64_t *start = NULL, *stop = NULL, *dur = NULL;
	enum nst_status s = nst_ev_rows(ctx->ev_all, ANALYSIS, &n, err);
	if (!s && n) s = nst_ev_i64(ctx->ev_all, ANALYSIS, "startTime", &start, err);
	if (!s && n) s = nst_ev_i64(ctx->ev_all, ANALYSIS, "stopTime", &stop, err);
	if (!s && n) s = nst_ev_i64(ctx->ev_all, ANALYSIS, "duration", &dur, err);
	if (!s) s = emit_ns(ctx, out, "Capture Start (ns)", start, err);
	if (!s) s = emit_ns(ctx, out, "Capture End (ns)", stop, err);
	if (!s) s = emit_ns(ctx, out, "Capture Duration (ns)", dur, err);
	return s;
}

static enum nst_status process_rows(struct nst_ctx *ctx, const struct nst_sink *out,
				    struct nst_error *err)
{
	size_t n = 0;
	const int64_t *pid = NULL;
	const char *const *name = NULL;
	enum nst_status s = nst_ev_rows(ctx->ev_all, PROCESSES, &n, err);
	if (!s && n) s = nst_ev_i64(ctx->ev_all, PROCESSES, "pid", &pid, err);
	if (!s && n) s = nst_ev_text(ctx->ev_all, PROCESSES, "name", &name, err);
	for (size_t i = 0; !s && pid && i < n; i++) {
		const char *v = nst_arena_printf(ctx->arena, "%s (pid %" PRId64 ")",
						 name && name[i] ? name[i] : "?", pid[i]);
		s = v ? emit(ctx, out, "Process", v, err)
		      : nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	return s;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	static const char *const cols[] = { "Property", "Value" };
	enum nst_status s = out->begin(out->ctx, cols, 2, err);
	if (!s) s = emit(ctx, out, "Export Schema", nst_db_meta(ctx->db, "EXPORT_SCHEMA_VERSION"), err);
	if (!s) s = emit(ctx, out, "Nsight Systems Version",
			 nst_db_meta(ctx->db, "EXPORT_PRODUCT_VERSION"), err);
	if (!s) s = span_rows(ctx, out, err);
	if (!s) s = process_rows(ctx, out, err);
	return s;
}

static const struct nst_need needs[] = {
	{ ANALYSIS, "startTime", false },
	{ ANALYSIS, "stopTime", false },
	{ ANALYSIS, "duration", false },
	{ PROCESSES, "pid", false },
	{ PROCESSES, "name", true },
	{ NULL, NULL, false },
};

const struct nst_report nst_report_capture_info = {
	.name = "capture_info",
	.title = "Capture Information",
	.help = "What the export says about itself, as Property and Value rows: its\n"
		"schema version and the Nsight Systems version that wrote it\n"
		"(META_DATA_EXPORT), the capture's start, end and duration in ns\n"
		"(ANALYSIS_DETAILS), and one row per process, \"name (pid N)\"\n"
		"(PROCESSES).  A row whose value the export lacks is left out.  Filters\n"
		"do not apply: the capture is the same whatever they keep.",
	.args = (const char *const[]){ NULL },
	.needs = NULL,
	.needs_unfiltered = needs,
	.run = run,
	.flags = NST_REPORT_ADDITION,
};
