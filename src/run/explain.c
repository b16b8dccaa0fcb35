/* What explains a filter's empty output: the time span of the capture,
 * and the NVTX ranges there are instead of one not found. */
#include <string.h>

#include "run/run.h"

static enum nst_status db_error(struct nst_export *x, struct nst_error *err)
{
	return nst_fail(err, NST_ERR_DB, "%s: %s", x->path, sqlite3_errmsg(nst_db_handle(x->db)));
}

/* One row of two integers; false when the row is NULLs. */
static enum nst_status two_ints(struct nst_export *x, const char *sql, int64_t *a, int64_t *b,
				bool *found, struct nst_error *err)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(nst_db_handle(x->db), sql, -1, &st, NULL) != SQLITE_OK)
		return db_error(x, err);
	int rc = sqlite3_step(st);
	*found = rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL &&
		 sqlite3_column_type(st, 1) != SQLITE_NULL;
	if (*found) {
		*a = sqlite3_column_int64(st, 0);
		*b = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? NST_OK : db_error(x, err);
}

/* The first start and the last end of the rows of every table that has
 * both columns: the session itself (ANALYSIS_DETAILS, from 0) is wider
 * than what was traced in it, and a window that overlaps only its empty
 * start still shows nothing. */
static enum nst_status events_span(struct nst_export *x, int64_t *start, int64_t *end,
				   bool *found, struct nst_error *err)
{
	sqlite3_stmt *st;
	sqlite3 *h = nst_db_handle(x->db);
	if (sqlite3_prepare_v2(h, "SELECT name FROM sqlite_master WHERE type = 'table'", -1, &st,
			       NULL) != SQLITE_OK)
		return db_error(x, err);
	enum nst_status s = NST_OK;
	*found = false;
	while (s == NST_OK && sqlite3_step(st) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 0);
		if (!t || strchr(t, '"') || !nst_db_has_column(x->db, t, "start") ||
		    !nst_db_has_column(x->db, t, "end"))
			continue;
		char sql[300];
		int64_t a, b;
		bool any;
		snprintf(sql, sizeof sql, "SELECT min(start), max(coalesce(end, start)) FROM \"%s\"", t);
		s = two_ints(x, sql, &a, &b, &any, err);
		if (s != NST_OK || !any)
			continue;
		*start = *found && *start < a ? *start : a;
		*end = *found && *end > b ? *end : b;
		*found = true;
	}
	sqlite3_finalize(st);
	return s;
}

enum nst_status nst_export_span(struct nst_export *x, int64_t *start, int64_t *end,
				struct nst_error *err)
{
	bool found = false;
	enum nst_status s = events_span(x, start, end, &found, err);
	if (s == NST_OK && !found)
		s = nst_fail(err, NST_ERR_NODATA, "%s holds no timed event", x->path);
	return s;
}

enum nst_status nst_export_nvtx_hint(struct nst_export *x, const char *spec, char *hint,
				     size_t size, struct nst_error *err)
{
	return nst_ev_nvtx_hint(x->db, spec, hint, size, err);
}
