/* The window of an NVTX range, as nsys's --filter-nvtx and nvtx= find it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/events.h"

/* "NAME/3" is NAME's range 3; a suffix that is not a number is part of
 * the name.  *index is -1 for an index too big to exist. */
static size_t split_index(const char *spec, int64_t *index)
{
	const char *slash = strrchr(spec, '/');
	size_t len = strlen(spec);
	*index = 0;
	if (!slash || !slash[1] || strspn(slash + 1, "0123456789") != strlen(slash + 1))
		return len;
	errno = 0;
	long long i = strtoll(slash + 1, NULL, 10);
	*index = errno == ERANGE ? -1 : i;
	return (size_t)(slash - spec);
}

/* Ranges by "name@domain", the domain being the DomainCreate row (75) of
 * the range's domainId in its process. */
static char *range_sql(struct nst_db *db)
{
	bool text_id = nst_db_has_column(db, "NVTX_EVENTS", "textId") &&
		       nst_db_has_table(db, "StringIds");
	bool domain = nst_db_has_column(db, "NVTX_EVENTS", "domainId");
	char *sql = malloc(1024);
	if (!sql)
		return NULL;
	snprintf(sql, 1024,
		 "WITH d AS MATERIALIZED (SELECT domainId AS id, globalTid & 0x0000FFFFFF000000 AS p,"
		 " text FROM NVTX_EVENTS WHERE eventType = 75 AND %s)"
		 " SELECT e.start, e.end, e.globalTid FROM NVTX_EVENTS AS e"
		 " LEFT JOIN d ON d.id = %s AND d.p = e.globalTid & 0x0000FFFFFF000000"
		 " WHERE e.eventType IN (59, 60, 70, 71)"
		 " AND coalesce(e.text, %s) || coalesce('@' || d.text, '') = ?1"
		 " ORDER BY e.start, e.rowid LIMIT 1 OFFSET ?2",
		 domain ? "1" : "0", domain ? "e.domainId" : "NULL",
		 text_id ? "(SELECT value FROM StringIds WHERE id = e.textId)" : "NULL");
	return sql;
}

static enum nst_status not_found(struct nst_db *db, const char *spec,
				 struct nst_error *err)
{
	return nst_fail(err, NST_ERR_NODATA, "NVTX range '%s' could not be found in %s.",
			spec, nst_db_path(db));
}

static void scope_of(int64_t gtid, struct nst_ev_window *w)
{
	/* A range on the main thread (tid == pid) stands for its process. */
	int64_t pid = (gtid >> 24) & 0xFFFFFF, tid = gtid & 0xFFFFFF;
	w->gtid = gtid;
	w->scope = gtid == NST_NULL_I64 ? NST_EV_ALL_THREADS
		 : tid == pid ? NST_EV_PROCESS : NST_EV_THREAD;
}

enum nst_status nst_ev_nvtx_window(struct nst_db *db, const char *spec,
				   struct nst_ev_window *w, bool *open,
				   struct nst_error *err)
{
	int64_t index;
	size_t len = split_index(spec, &index);
	*open = false;
	if (!nst_db_has_table(db, "NVTX_EVENTS"))
		return nst_fail(err, NST_ERR_NODATA,
				"%s does not contain NV Tools Extension (NVTX) data.", nst_db_path(db));
	if (index < 0)
		return not_found(db, spec, err);
	char *sql = range_sql(db);
	if (!sql)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	sqlite3 *h = nst_db_handle(db);
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(h, sql, -1, &st, NULL);
	free(sql);
	if (rc != SQLITE_OK)
		return nst_fail(err, NST_ERR_DB, "%s: cannot read NVTX_EVENTS: %s",
				nst_db_path(db), sqlite3_errmsg(h));
	sqlite3_bind_text(st, 1, spec, (int)len, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, index);
	enum nst_status s;
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		w->start = sqlite3_column_int64(st, 0);
		*open = sqlite3_column_type(st, 1) == SQLITE_NULL;
		w->end = *open ? INT64_MAX : sqlite3_column_int64(st, 1);
		scope_of(sqlite3_column_type(st, 2) == SQLITE_NULL ? NST_NULL_I64
				 : sqlite3_column_int64(st, 2), w);
		s = NST_OK;
	} else if (rc == SQLITE_DONE) {
		s = not_found(db, spec, err);
	} else {
		s = nst_fail(err, NST_ERR_DB, "%s: cannot read NVTX_EVENTS: %s",
			     nst_db_path(db), sqlite3_errmsg(h));
	}
	sqlite3_finalize(st);
	return s;
}
