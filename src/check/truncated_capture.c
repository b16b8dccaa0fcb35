/* Rows after the end of the session.  Times are ns on the session's
 * timeline, which starts at 0; ANALYSIS_DETAILS.duration is the span of
 * the whole trace, so nothing should start or end after it.  (Its startTime
 * and stopTime are wall-clock times, not on that timeline.)  A row past it
 * was written by a capture stopped while work was in flight, or carries a
 * bad timestamp. */
#include <string.h>

#include "check/check.h"

/* The tables whose rowid, start and end the findings read into memory
 * anyway: counted there rather than by another scan in SQL. */
static const char *const in_memory[] = {
	CHK_KERNEL, CHK_MEMCPY, CHK_MEMSET, CHK_RUNTIME, "NVTX_EVENTS",
};
#define NMEMORY (sizeof in_memory / sizeof *in_memory)

static enum nst_status want(struct nst_events *ev)
{
	static const char *const cols[] = { "rowid", "start", "end" };
	enum nst_status s = NST_OK;
	for (size_t t = 0; s == NST_OK && t < NMEMORY; t++)
		for (size_t c = 0; s == NST_OK && c < 3; c++)
			s = nst_ev_want(ev, in_memory[t], cols[c], false);
	return s;
}

static bool read_in_memory(const char *table)
{
	for (size_t t = 0; t < NMEMORY; t++)
		if (strcmp(table, in_memory[t]) == 0)
			return true;
	return false;
}

/* What count_sql() counts, over the rows in memory (in rowid order, so the
 * first is the least rowid).  A NULL start or end is past nothing, as in
 * SQL. */
static enum nst_status count_memory(struct chk_ctx *ctx, const char *table, int64_t session_end,
				    int64_t *n, int64_t *first, struct nst_error *err)
{
	size_t rows = 0;
	const struct nst_col *rowid = NULL, *start = NULL, *end = NULL;
	enum nst_status s = chk_rows(ctx, table, &rows, err);
	if (!s) s = chk_col(ctx, table, "rowid", &rowid, err);
	if (!s) s = chk_col(ctx, table, "start", &start, err);
	if (!s) s = chk_col(ctx, table, "end", &end, err);
	for (size_t i = 0; s == NST_OK && start && end && i < rows; i++) {
		int64_t b = nst_col_at(start, i), e = nst_col_at(end, i);
		if ((b == NST_NULL_I64 || b <= session_end) && (e == NST_NULL_I64 || e <= session_end))
			continue;
		if ((*n)++ == 0)
			*first = chk_at(rowid, i);
	}
	return s;
}

static enum nst_status count_sql(struct chk_ctx *ctx, const char *table, int64_t session_end,
				 int64_t *n, int64_t *first, struct nst_error *err)
{
	char *sql = nst_arena_printf(ctx->arena,
		"SELECT count(*), min(rowid) FROM \"%s\" WHERE start > %lld OR end > %lld",
		table, (long long)session_end, (long long)session_end);
	sqlite3 *h = nst_db_handle(ctx->db);
	sqlite3_stmt *st;
	if (!sql || sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
		return nst_fail(err, NST_ERR_DB, "%s: %s", nst_db_path(ctx->db), sqlite3_errmsg(h));
	if (sqlite3_step(st) == SQLITE_ROW) {
		*n = sqlite3_column_int64(st, 0);
		*first = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return NST_OK;
}

static enum nst_status count_table(struct chk_ctx *ctx, const char *table,
				   int64_t session_end, struct chk_result *r,
				   struct nst_error *err)
{
	int64_t n = 0, first = 0;
	enum nst_status s = read_in_memory(table)
				    ? count_memory(ctx, table, session_end, &n, &first, err)
				    : count_sql(ctx, table, session_end, &n, &first, err);
	if (s != NST_OK || n == 0)
		return s;
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
	.want = want,
	.run = run,
};
