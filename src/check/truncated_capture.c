/* Rows after the end of the session.  Times are ns on the session's
 * timeline, which starts at 0; ANALYSIS_DETAILS.duration is the span of
 * the whole trace, so nothing should start or end after it.  (Its startTime
 * and stopTime are wall-clock times, not on that timeline.)  A row past it
 * was written by a capture stopped while work was in flight, or carries a
 * bad timestamp. */
#include <string.h>

#include "check/check.h"

static enum nst_status count_table(struct chk_ctx *ctx, const char *table,
				   int64_t session_end, struct chk_result *r,
				   struct nst_error *err)
{
	char *sql = nst_arena_printf(ctx->arena,
		"SELECT count(*), min(rowid) FROM \"%s\" WHERE start > %lld OR end > %lld",
		table, (long long)session_end, (long long)session_end);
	sqlite3 *h = nst_db_handle(ctx->db);
	sqlite3_stmt *st;
	if (!sql || sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
		return nst_fail(err, NST_ERR_DB, "%s: %s", nst_db_path(ctx->db), sqlite3_errmsg(h));
	int64_t n = 0, first = 0;
	if (sqlite3_step(st) == SQLITE_ROW) {
		n = sqlite3_column_int64(st, 0);
		first = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	if (n == 0)
		return NST_OK;
	const char *name = nst_arena_strndup(ctx->arena, table, strlen(table));
	r->count += n;
	chk_part_add(r, name ? name : "?", n);
	struct chk_example *e = chk_example(r, name, first);
	chk_num(e, "rows", n);
	chk_num(e, "session end", session_end);
	return NST_OK;
}

/* Every table with start and end columns, from sqlite_master. */
static enum nst_status each_timed_table(struct chk_ctx *ctx, int64_t session_end,
					struct chk_result *r, struct nst_error *err)
{
	sqlite3 *h = nst_db_handle(ctx->db);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(h, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
			       -1, &st, NULL) != SQLITE_OK)
		return nst_fail(err, NST_ERR_DB, "%s: %s", nst_db_path(ctx->db), sqlite3_errmsg(h));
	enum nst_status s = NST_OK;
	while (s == NST_OK && sqlite3_step(st) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 0);
		char *name = t ? nst_arena_strndup(ctx->arena, t, strlen(t)) : NULL;
		if (name && !strchr(name, '"') && nst_db_has_column(ctx->db, name, "start") &&
		    nst_db_has_column(ctx->db, name, "end"))
			s = count_table(ctx, name, session_end, r, err);
	}
	sqlite3_finalize(st);
	return s;
}

static enum nst_status run(struct chk_ctx *ctx, struct chk_result *r,
			   struct nst_error *err)
{
	int64_t end = INT64_MIN;
	if (!nst_db_has_column(ctx->db, "ANALYSIS_DETAILS", "duration")) {
		r->count = CHK_NOT_CHECKED;
		r->note = "no ANALYSIS_DETAILS.duration: the session's end is not known";
		return NST_OK;
	}
	enum nst_status s = chk_sql_i64(ctx, "SELECT max(duration) FROM ANALYSIS_DETAILS",
					INT64_MIN, &end, err);
	if (s != NST_OK)
		return s;
	if (end == INT64_MIN) {
		r->count = CHK_NOT_CHECKED;
		r->note = "ANALYSIS_DETAILS has no row: the session's end is not known";
		return NST_OK;
	}
	r->note = nst_arena_printf(ctx->arena, "session end: ANALYSIS_DETAILS.duration = %lld ns",
				   (long long)end);
	return each_timed_table(ctx, end, r, err);
}

const struct chk_finding chk_truncated_capture = {
	.name = "truncated_capture",
	.title = "rows that start or end after the session's end",
	.help = "The session ends at ANALYSIS_DETAILS.duration (ns; the timeline starts at\n"
		"0; startTime/stopTime there are wall-clock).  Counts, in every table with\n"
		"start and end columns, the rows with start or end after it.  Not checked\n"
		"when the export has no ANALYSIS_DETAILS row.",
	.affects = "every report over the tables named",
	.run = run,
};
