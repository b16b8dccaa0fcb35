/* The capture's settings (META_DATA_CAPTURE, name/value pairs) that explain
 * what the other findings found.  Runs last: it reads their results. */
#include <string.h>

#include "check/check.h"

/* An option explains a finding when its name contains `key` (per-process
 * options carry a PROCESS_<n>: prefix) and the finding counted something. */
static const struct explains {
	const char *key, *finding;
} rules[] = {
	{ "BACKTRACE", "backtrace_rows" },                   /* --cudabacktrace */
	{ "CUDA_GRAPH_TRACE_OPTIONS:MODE", "graph_trace_rows" }, /* --cuda-graph-trace */
	{ "CUDA_FLUSH_ON_CUDA_PROFILER_STOP", "launches_without_gpu" },
	{ "CUDA_FLUSH_PERIODICALLY", "launches_without_gpu" },
	{ "CUDA_FLUSH_PERIOD", "launches_without_gpu" },
	{ "RUN_DURATION_MS", "truncated_capture" },          /* --duration */
	{ "STOP_TRIGGER", "truncated_capture" },
	{ "RUN_DURATION_MS", "open_ranges" },
	{ "STOP_TRIGGER", "open_ranges" },
};

/* "BACKTRACE" alone would take the CPU-sampling and OS-runtime options too. */
static bool matches(const char *name, const struct explains *x)
{
	if (strcmp(x->key, "BACKTRACE") == 0)
		return strstr(name, "CUDA") && strstr(name, "BACKTRACE");
	return strstr(name, x->key) != NULL &&
	       strcmp(name + strlen(name) - strlen(x->key), x->key) == 0;
}

static void explain(struct chk_ctx *ctx, struct chk_result *r, const char *name,
		    const char *value)
{
	for (size_t i = 0; i < sizeof rules / sizeof *rules; i++) {
		struct chk_result *other = (struct chk_result *)chk_result_of(ctx, rules[i].finding);
		if (!other || other->count <= 0 || !matches(name, &rules[i]))
			continue;
		const char *pair = nst_arena_printf(ctx->arena, "%s=%s", name, value);
		if (!pair)
			continue;
		chk_part_add(r, nst_arena_printf(ctx->arena, "%s -> %s", pair, rules[i].finding), 1);
		if (!other->explained_by)
			other->explained_by = pair;
		r->count++;
	}
}

static enum nst_status run(struct chk_ctx *ctx, struct chk_result *r,
			   struct nst_error *err)
{
	if (!nst_db_has_table(ctx->db, "META_DATA_CAPTURE")) {
		r->count = CHK_NOT_CHECKED;
		r->note = "no META_DATA_CAPTURE table: the capture's options are not in the export";
		return NST_OK;
	}
	sqlite3 *h = nst_db_handle(ctx->db);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(h, "SELECT name, value FROM META_DATA_CAPTURE ORDER BY rowid",
			       -1, &st, NULL) != SQLITE_OK)
		return nst_fail(err, NST_ERR_DB, "%s: %s", nst_db_path(ctx->db), sqlite3_errmsg(h));
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const char *value = (const char *)sqlite3_column_text(st, 1);
		if (name)
			explain(ctx, r, name, value ? value : "");
	}
	sqlite3_finalize(st);
	r->note = "options of the capture that explain the findings above";
	return NST_OK;
}

const struct chk_finding chk_capture_options = {
	.name = "capture_options",
	.title = "capture options that explain a finding",
	.help = "META_DATA_CAPTURE options tied to a positive finding: CUDA backtrace\n"
		"options to backtrace_rows, CUDA_GRAPH_TRACE_OPTIONS:MODE to\n"
		"graph_trace_rows, the CUDA_FLUSH_* options to launches_without_gpu,\n"
		"RUN_DURATION_MS and STOP_TRIGGER to truncated_capture and open_ranges.\n"
		"Informational.",
	.affects = "",
	.informational = true,
	.run = run,
};
