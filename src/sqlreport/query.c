/* Running one SQL report on an export.
 *
 * The query gets a read-only connection of its own (the export's own
 * handle only for an export built in memory), so that nothing it does
 * reaches the library's other reads.  A filter becomes TEMP views named
 * after the tables it cuts: SQLite looks an unqualified name up in the
 * temp schema first, so the query reads the filtered rows without
 * knowing, as nsys's reports do; main.X still reads every row.  Then a
 * guard (the authorizer) lets through only what reads, the progress
 * handler stops the query past the time limit or when the caller says
 * so, and each row goes to the run's sink as it comes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "db/db.h"
#include "run/run.h"
#include "sqlreport/sqlreport.h"

/* Virtual machine steps between two looks at the clock and the caller. */
#define PROGRESS_STEPS 1000
/* The longest string or blob a query may make: building one is a single
 * step that the time limit cannot cut, and no report prints a bigger
 * cell. */
#define MAX_VALUE_BYTES (16 << 20)

struct query {
	const struct sqlreport *r;
	sqlite3 *h;
	bool own;                /* h is this query's: closed after it */
	sqlite3_stmt *st;
	char refused[160];       /* what the guard refused, for the message */
	size_t nviews;           /* TEMP views made on h */
	int saved_length;        /* h's SQLITE_LIMIT_LENGTH before */
	/* what stops it */
	const struct nst_options *opts;
	struct timespec t0;
	enum { RUNNING, STOP_INTERRUPTED, STOP_LIMIT } stop;
	/* blobs as text, one buffer a column, for the row being sent */
	char **blob;
	size_t ncols;
};

/* ---- errors that name the file and line ----------------------------------------- */

static enum nst_status fail_at(const struct query *q, enum nst_status s, int offset,
			       const char *msg, struct nst_error *err)
{
	size_t at = offset >= 0 ? (size_t)offset : sqlreport_skip_blank(q->r->sql, 0);
	char line[512];
	sqlreport_one_line(line, sizeof line, msg);
	return nst_fail(err, s, "%s:%d: %s", q->r->path, sqlreport_line(q->r, at), line);
}

/* ---- the guard ------------------------------------------------------------------ */

/* Pragmas that only read the schema: their table-valued forms
 * (pragma_table_info('X')) are how a query learns columns. */
static const char *const reading_pragmas[] = {
	"table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo",
	"foreign_key_list", "function_list", "pragma_list", "collation_list", "database_list",
	"compile_options", NULL,
};

static bool reads_only(const char *pragma)
{
	for (const char *const *p = reading_pragmas; pragma && *p; p++)
		if (strcasecmp(*p, pragma) == 0)
			return true;
	return false;
}

static const char *action_name(int action)
{
	switch (action) {
	case SQLITE_INSERT: return "INSERT";
	case SQLITE_UPDATE: return "UPDATE";
	case SQLITE_DELETE: return "DELETE";
	case SQLITE_ATTACH: return "ATTACH";
	case SQLITE_DETACH: return "DETACH";
	case SQLITE_TRANSACTION: return "a transaction";
	case SQLITE_SAVEPOINT: return "a savepoint";
	case SQLITE_ANALYZE: return "ANALYZE";
	case SQLITE_REINDEX: return "REINDEX";
	case SQLITE_ALTER_TABLE: return "ALTER TABLE";
	case SQLITE_DROP_TABLE: case SQLITE_DROP_TEMP_TABLE: case SQLITE_DROP_VIEW:
	case SQLITE_DROP_TEMP_VIEW: case SQLITE_DROP_INDEX: case SQLITE_DROP_TEMP_INDEX:
	case SQLITE_DROP_TRIGGER: case SQLITE_DROP_TEMP_TRIGGER: case SQLITE_DROP_VTABLE:
		return "DROP";
	default: return "CREATE";
	}
}

/* The authorizer: reading, SELECT, recursive CTEs, functions but
 * load_extension(), and the pragmas that only read.  Anything else is
 * refused, and said so. */
static int guard(void *arg, int action, const char *a, const char *b, const char *db,
		 const char *inner)
{
	struct query *q = arg;
	(void)db, (void)inner;
	switch (action) {
	case SQLITE_SELECT:
	case SQLITE_READ:
	case SQLITE_RECURSIVE:
		return SQLITE_OK;
	case SQLITE_FUNCTION:
		if (!b || strcasecmp(b, "load_extension") != 0)
			return SQLITE_OK;
		snprintf(q->refused, sizeof q->refused, "load_extension()");
		return SQLITE_DENY;
	case SQLITE_PRAGMA:
		if (reads_only(a))
			return SQLITE_OK;
		snprintf(q->refused, sizeof q->refused, "PRAGMA %.60s", a ? a : "");
		return SQLITE_DENY;
	case SQLITE_INSERT:
	case SQLITE_UPDATE:
	case SQLITE_DELETE:
		/* The schema table: a table-valued pragma asks to update it, and
		 * CREATE and DROP ask before their own action code, which the
		 * guard refuses; SQLite never lets a statement write it itself. */
		if (a && (strcmp(a, "sqlite_master") == 0 || strcmp(a, "sqlite_temp_master") == 0))
			return SQLITE_OK;
		break;
	}
	if (!q->refused[0])
		snprintf(q->refused, sizeof q->refused, "%s", action_name(action));
	return SQLITE_DENY;
}

/* ---- the time limit and the caller's stop ------------------------------------- */

static double seconds_since(const struct timespec *t0)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

static int progress(void *arg)
{
	struct query *q = arg;
	if (q->opts->interrupted && q->opts->interrupted(q->opts->arg))
		q->stop = STOP_INTERRUPTED;
	else if (q->opts->query_limit > 0 && seconds_since(&q->t0) > q->opts->query_limit)
		q->stop = STOP_LIMIT;
	return q->stop != RUNNING;
}

/* ---- the filter: TEMP views over the tables it cuts ---------------------------- */

/* The WHERE of one table's view: nsys's overlap test, and the NVTX
 * range's thread or process (src/events/view.c does the same in C). */
static char *view_sql(const char *table, const struct nst_ev_window *w, bool gtid, bool gpid)
{
	long long s = w->start, e = w->end, g = w->gtid, p = w->gtid >> 24;
	char scope[128] = "";
	if (w->scope == NST_EV_THREAD && gtid)
		snprintf(scope, sizeof scope, " AND globalTid = %lld", g);
	else if (w->scope != NST_EV_ALL_THREADS && (gtid || gpid))
		snprintf(scope, sizeof scope, " AND (%s >> 24) = %lld",
			 gtid ? "globalTid" : "globalPid", p);
	return sqlite3_mprintf("CREATE TEMP VIEW \"%w\" AS SELECT * FROM main.\"%w\" WHERE "
			       "((start >= %lld AND start < %lld) OR (\"end\" >= %lld AND \"end\" < %lld)"
			       " OR (start < %lld AND \"end\" >= %lld))%s",
			       table, table, s, e, s, e, s, e, scope);
}

/* The tables with start and end, and whether each has globalTid and
 * globalPid. */
static const char tables_sql[] =
	"SELECT m.name,"
	" EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = 'globalTid'),"
	" EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = 'globalPid')"
	" FROM main.sqlite_master AS m WHERE m.type = 'table'"
	" AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = 'start')"
	" AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = 'end')";

static enum nst_status make_views(struct query *q, const struct nst_ev_window *w,
				  struct nst_error *err)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(q->h, tables_sql, -1, &st, NULL) != SQLITE_OK)
		return nst_fail(err, NST_ERR_DB, "cannot read the schema: %s", sqlite3_errmsg(q->h));
	int rc;
	enum nst_status s = NST_OK;
	while (s == NST_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *table = (const char *)sqlite3_column_text(st, 0);
		char *sql = view_sql(table ? table : "", w, sqlite3_column_int(st, 1),
				     sqlite3_column_int(st, 2));
		char *why = NULL;
		if (!sql)
			s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
		else if (sqlite3_exec(q->h, sql, NULL, NULL, &why) != SQLITE_OK)
			s = nst_fail(err, NST_ERR_DB, "cannot filter %s: %s", table,
				     why ? why : "out of memory");
		else
			q->nviews++;
		sqlite3_free(why);
		sqlite3_free(sql);
	}
	if (s == NST_OK && rc != SQLITE_DONE)
		s = nst_fail(err, NST_ERR_DB, "cannot read the schema: %s", sqlite3_errmsg(q->h));
	sqlite3_finalize(st);
	return s;
}

/* An export built in memory is query_only (src/input/memdb.c): its TEMP
 * views are made and dropped with that lifted for a moment, before the
 * guard is in place and after it is gone. */
static void query_only(struct query *q, bool on)
{
	if (!q->own)
		sqlite3_exec(q->h, on ? "PRAGMA query_only = 1" : "PRAGMA query_only = 0",
			     NULL, NULL, NULL);
}

static enum nst_status shadow_tables(struct query *q, const struct nst_ev_window *w,
				     struct nst_error *err)
{
	query_only(q, false);
	enum nst_status s = make_views(q, w, err);
	query_only(q, true);
	return s;
}

/* On the export's own handle, the views go when the query is done. */
static void drop_views(struct query *q)
{
	if (q->own || q->nviews == 0)
		return;
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(q->h, "SELECT name FROM temp.sqlite_master WHERE type = 'view'",
			       -1, &st, NULL) != SQLITE_OK)
		return;
	char **names = calloc(q->nviews, sizeof *names);
	size_t n = 0;
	while (names && n < q->nviews && sqlite3_step(st) == SQLITE_ROW)
		names[n++] = sqlite3_mprintf("DROP VIEW temp.\"%w\"", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	query_only(q, false);
	for (size_t i = 0; i < n; i++) {
		if (names[i])
			sqlite3_exec(q->h, names[i], NULL, NULL, NULL);
		sqlite3_free(names[i]);
	}
	query_only(q, true);
	free(names);
}

/* ---- the statement --------------------------------------------------------------- */

static enum nst_status refusal(const struct query *q, struct nst_error *err)
{
	char msg[sizeof q->refused + 64];
	snprintf(msg, sizeof msg, "refused: a report only reads the export (%s)", q->refused);
	return fail_at(q, NST_ERR_USAGE, -1, msg, err);
}

/* The offset after ';' and blanks: where a second statement would start. */
static size_t after_statement(const char *sql, size_t at)
{
	for (;;) {
		at = sqlreport_skip_blank(sql, at);
		if (sql[at] != ';')
			return at;
		at++;
	}
}

/* A statement that cannot be a query is refused by its first word, the
 * same on every export (the guard sees only what a statement touches:
 * REINDEX with no index touches nothing).  What starts as a query is
 * the guard's to judge, writes inside WITH included. */
static bool starts_as_query(struct query *q)
{
	static const char *const query_words[] = { "SELECT", "WITH", "VALUES", "PRAGMA", "EXPLAIN",
						   NULL };
	const char *p = q->r->sql + sqlreport_skip_blank(q->r->sql, 0);
	size_t len = 0;
	while ((p[len] >= 'a' && p[len] <= 'z') || (p[len] >= 'A' && p[len] <= 'Z'))
		len++;
	if (len == 0)
		return true;
	for (const char *const *w = query_words; *w; w++)
		if (strlen(*w) == len && strncasecmp(*w, p, len) == 0)
			return true;
	size_t n = len < sizeof q->refused - 1 ? len : sizeof q->refused - 1;
	for (size_t i = 0; i < n; i++)
		q->refused[i] = (char)(p[i] >= 'a' ? p[i] - 'a' + 'A' : p[i]);
	q->refused[n] = '\0';
	return false;
}

static enum nst_status prepare(struct query *q, struct nst_error *err)
{
	const char *sql = q->r->sql, *tail = NULL;
	q->refused[0] = '\0';
	if (!starts_as_query(q))
		return refusal(q, err);
	if (sqlite3_prepare_v2(q->h, sql, -1, &q->st, &tail) != SQLITE_OK)
		return q->refused[0] ? refusal(q, err)
				     : fail_at(q, NST_ERR_USAGE, (int)sqlite3_error_offset(q->h),
					       sqlite3_errmsg(q->h), err);
	if (!q->st)
		return fail_at(q, NST_ERR_USAGE, 0, "no SQL statement in the file", err);
	size_t next = after_statement(sql, (size_t)(tail - sql));
	if (sql[next])
		return fail_at(q, NST_ERR_USAGE, (int)next,
			       "a second statement: a report is one SELECT", err);
	/* what gives no columns is no query (REINDEX, ANALYZE where there is
	 * nothing to do) */
	if (!sqlite3_stmt_readonly(q->st) || sqlite3_column_count(q->st) == 0) {
		snprintf(q->refused, sizeof q->refused, "not a SELECT");
		return refusal(q, err);
	}
	if (sqlite3_bind_parameter_count(q->st) > 0) {
		char msg[200];
		const char *p = sqlite3_bind_parameter_name(q->st, 1);
		snprintf(msg, sizeof msg, "parameter %.80s: a report takes no parameters",
			 p ? p : "?");
		return fail_at(q, NST_ERR_USAGE, -1, msg, err);
	}
	return NST_OK;
}

/* ---- rows --------------------------------------------------------------------------- */

static enum nst_status why_stopped(struct query *q, struct nst_error *err)
{
	/* a table-valued function may meet the guard when it first runs */
	if (q->refused[0])
		return refusal(q, err);
	if (q->stop == STOP_INTERRUPTED)
		return nst_fail(err, NST_ERR_INTERRUPTED, "%s: interrupted", q->r->path);
	if (q->stop == STOP_LIMIT)
		return nst_fail(err, NST_ERR_QUERY, "%s: the query ran past its time limit of %g s",
				q->r->path, q->opts->query_limit);
	return fail_at(q, NST_ERR_QUERY, sqlite3_error_offset(q->h), sqlite3_errmsg(q->h), err);
}

static const char *blob_text(struct query *q, int i)
{
	const unsigned char *b = sqlite3_column_blob(q->st, i);
	size_t n = (size_t)sqlite3_column_bytes(q->st, i);
	char *t = realloc(q->blob[i], n * 2 + 4);
	if (!t)
		return NULL;
	q->blob[i] = t;
	char *p = t + sprintf(t, "x'");
	for (size_t k = 0; k < n; k++)
		p += sprintf(p, "%02X", b[k]);
	strcpy(p, "'");
	return t;
}

static enum nst_status cell_of(struct query *q, int i, struct nst_cell *c, struct nst_error *err)
{
	switch (sqlite3_column_type(q->st, i)) {
	case SQLITE_INTEGER:
		*c = (struct nst_cell){ .kind = NST_INT, .v.i = sqlite3_column_int64(q->st, i) };
		return NST_OK;
	case SQLITE_FLOAT:
		*c = (struct nst_cell){ .kind = NST_REAL, .v.r = sqlite3_column_double(q->st, i) };
		return NST_OK;
	case SQLITE_NULL:
		*c = (struct nst_cell){ .kind = NST_NULL };
		return NST_OK;
	case SQLITE_BLOB:
		c->kind = NST_TEXT;
		c->v.s = blob_text(q, i);
		break;
	default:
		c->kind = NST_TEXT;
		c->v.s = (const char *)sqlite3_column_text(q->st, i);
		break;
	}
	return c->v.s ? NST_OK : nst_fail(err, NST_ERR_NOMEM, "out of memory");
}

static enum nst_status begin(struct query *q, const struct nst_sink *out, struct nst_error *err)
{
	const char **cols = calloc(q->ncols ? q->ncols : 1, sizeof *cols);
	if (!cols)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < q->ncols; i++) {
		cols[i] = sqlite3_column_name(q->st, (int)i);
		cols[i] = cols[i] ? cols[i] : "";
	}
	enum nst_status s = out->begin(out->ctx, cols, q->ncols, err);
	free(cols);
	return s;
}

/* The columns go to the sink with the first row (or at the end when
 * there is none), so that a query that fails or is stopped before its
 * first row opens no output. */
static enum nst_status send_rows(void *arg, const struct nst_sink *out, struct nst_error *err)
{
	struct query *q = arg;
	struct nst_cell *cells = calloc(q->ncols ? q->ncols : 1, sizeof *cells);
	if (!cells)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	enum nst_status s = NST_OK;
	bool begun = false;
	int rc;
	clock_gettime(CLOCK_MONOTONIC, &q->t0);
	while (s == NST_OK && (rc = sqlite3_step(q->st)) == SQLITE_ROW) {
		if (!begun && (s = begin(q, out, err)) != NST_OK)
			break;
		begun = true;
		for (size_t i = 0; s == NST_OK && i < q->ncols; i++)
			s = cell_of(q, (int)i, &cells[i], err);
		if (s == NST_OK)
			s = out->row(out->ctx, cells, err);
	}
	if (s == NST_OK && rc != SQLITE_DONE)
		s = why_stopped(q, err);
	if (s == NST_OK && !begun)
		s = begin(q, out, err);
	free(cells);
	return s;
}

/* ---- one run ------------------------------------------------------------------------ */

static void open_connection(struct query *q, struct nst_export *x)
{
	q->h = nst_db_connect(x->db);
	q->own = q->h != NULL;
	if (!q->h)
		q->h = nst_db_handle(x->db);
	sqlite3_db_config(q->h, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, (int *)NULL);
	sqlite3_db_config(q->h, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
	q->saved_length = sqlite3_limit(q->h, SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES);
}

static void close_connection(struct query *q)
{
	sqlite3_finalize(q->st);
	sqlite3_set_authorizer(q->h, NULL, NULL);
	sqlite3_progress_handler(q->h, 0, NULL, NULL);
	sqlite3_limit(q->h, SQLITE_LIMIT_LENGTH, q->saved_length);
	drop_views(q);
	if (q->own)
		sqlite3_close(q->h);
	for (size_t i = 0; q->blob && i < q->ncols; i++)
		free(q->blob[i]);
	free(q->blob);
}

enum nst_status sqlreport_run(struct nst_export *x, const struct nst_run *run,
			      struct nst_error *err)
{
	struct query q = { .r = run->job->sql, .opts = &x->opts };
	struct nst_filter filter;
	struct nst_ev_window w;
	run_filter_of(run->filter, run->job, &filter);
	enum nst_status s = run_filter_window(x->db, &filter, &w, err);
	if (s == NST_OK)
		open_connection(&q, x);
	if (s == NST_OK && !run_filter_is_none(&filter))
		s = shadow_tables(&q, &w, err);
	if (s == NST_OK) {
		sqlite3_set_authorizer(q.h, guard, &q);
		s = prepare(&q, err);
	}
	if (s == NST_OK) {
		q.ncols = (size_t)sqlite3_column_count(q.st);
		q.blob = calloc(q.ncols ? q.ncols : 1, sizeof *q.blob);
		if (!q.blob)
			s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	if (s == NST_OK) {
		sqlite3_progress_handler(q.h, PROGRESS_STEPS, progress, &q);
		s = run_output(run, send_rows, &q, NULL, err);
	}
	if (q.h)
		close_connection(&q);
	return s;
}
