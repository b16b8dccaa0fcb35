/* Filtered views of the event tables against the SQL that defines nsys's
 * filter: for many windows, the rows a view keeps are the rows SQLite's
 * own evaluation of the overlap condition keeps (NULLs included); the
 * thread/process scope, rowids, unfiltered reads beside filtered ones,
 * the lookup of NVTX ranges, and columns kept as a sequence (base + row,
 * nothing stored) until a value breaks it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "temp_export.h"

#include "db/db.h"
#include "events/events.h"

#define PID(p) ((int64_t)(p) << 24)
#define TID(p, t) (PID(p) | (t))

static char path[TEMP_PATH];

/* MPI_T: times with NULL ends and extremes (MPI_ tables may leave end NULL;
 * the reader refuses a NULL start and times beyond +-2^61 ns);
 * MPI_P: globalPid only; U: no end column;
 * NVTX_EVENTS: ranges on a main and a worker thread, in a domain. */
static int make_export(void **state)
{
	*state = path;
	sqlite3 *h = temp_export_open(path, "filter");
	exec_sql(h, "CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT);"
		"INSERT INTO StringIds VALUES (1, 'registered');"
		"CREATE TABLE MPI_T(start INT, end INT, globalTid INT, globalPid INT, v TEXT);"
		"CREATE TABLE MPI_P(start INT, end INT, globalPid INT);"
		"CREATE TABLE U(start INT, v INT);"
		"INSERT INTO U VALUES (1, 1), (100, 5);"
		"CREATE TABLE NVTX_EVENTS(start INT, end INT, eventType INT, text TEXT, textId INT,"
		" globalTid INT, domainId INT);");
	static const int64_t times[] = { -((int64_t)1 << 61), -5, 0, 5, 9, 10, 15, 20, 25, 30,
					 ((int64_t)1 << 61) - 1 };
	size_t nt = sizeof times / sizeof *times;
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(h, "INSERT INTO MPI_T VALUES (?, ?, ?, ?, ?)", -1, &st, NULL),
			 SQLITE_OK);
	int k = 0;
	for (size_t i = 0; i < nt; i++)
		for (size_t j = 0; j <= nt; j++, k++) {
			sqlite3_bind_int64(st, 1, times[i]);
			if (j < nt) sqlite3_bind_int64(st, 2, times[j]); else sqlite3_bind_null(st, 2);
			if (k % 7 == 3) sqlite3_bind_null(st, 3);
			else sqlite3_bind_int64(st, 3, TID(100 + k % 2, k % 3 ? 100 + k % 2 : 7));
			sqlite3_bind_int64(st, 4, PID(100 + k % 2));
			char v[16];
			snprintf(v, sizeof v, "r%d", k);
			sqlite3_bind_text(st, 5, v, -1, SQLITE_TRANSIENT);
			assert_int_equal(sqlite3_step(st), SQLITE_DONE);
			sqlite3_reset(st);
		}
	sqlite3_finalize(st);
	exec_sql(h, "INSERT INTO MPI_P SELECT start, end, globalPid FROM MPI_T;"
		/* domain 1 "app" created on the main thread of process 100 */
		"INSERT INTO NVTX_EVENTS VALUES (1, NULL, 75, 'app', NULL, 1677721700, 1);"
		"INSERT INTO NVTX_EVENTS VALUES (5, 25, 59, 'work', NULL, 1677721607, 1);"   /* worker */
		"INSERT INTO NVTX_EVENTS VALUES (9, 20, 59, 'work', NULL, 1677721700, 1);"   /* main */
		"INSERT INTO NVTX_EVENTS VALUES (0, 10, 60, NULL, 1, 1677721700, 0);"
		"INSERT INTO NVTX_EVENTS VALUES (3, NULL, 60, 'open', NULL, 1677721607, 0);");
	/* Sequences (base + row) that hold, break early, late, with a NULL
	 * first, and by a value 32 bits cannot reach from the base. */
	exec_sql(h, "CREATE TABLE SEQ(a INT, b INT, c INT, d INT, e INT, f INT, g INT, n INT, k INT,"
		" m INT, z INT, w INT);"
		"WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < 4999)"
		" INSERT INTO SEQ SELECT i + 1, CASE WHEN i = 3000 THEN 1000000 ELSE i - 7 END,"
		" CASE WHEN i = 0 THEN NULL ELSE i END, CASE WHEN i = 4999 THEN 0 ELSE i + 40 END,"
		" (1 << 40) + i, CASE WHEN i >= 2000 THEN (1 << 40) ELSE i END,"
		" -7, NULL, CASE WHEN i < 2500 THEN 7 ELSE i END,"
		" CASE WHEN i < 100 THEN NULL ELSE 3 END, CASE WHEN i = 4999 THEN 9 ELSE NULL END,"
		" CASE WHEN i < 3 THEN 5 WHEN i = 3 THEN NULL ELSE (1 << 40) END FROM r;");
	/* A column that leaves 32 bits at row 5, and a text in an integer
	 * column at row 10: the scan fails after widening. */
	exec_sql(h, "CREATE TABLE BAD(a INT, b INT);"
		"WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < 19)"
		" INSERT INTO BAD SELECT CASE WHEN i >= 5 THEN (1 << 40) + i ELSE i END,"
		" CASE WHEN i = 10 THEN 'x' ELSE i END FROM r;");
	/* Texts: 6000 names over the store's 4096-slot memo, names that are
	 * prefixes of each other, empty ones, NULLs, and a run of one name. */
	exec_sql(h, "CREATE TABLE TXT(v TEXT);"
		"WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < 19999)"
		" INSERT INTO TXT SELECT CASE WHEN i % 997 = 0 THEN NULL WHEN i % 13 = 0 THEN ''"
		" WHEN i >= 18000 THEN 'same' WHEN i % 3 = 0 THEN substr('pqrstuvwxyz', 1, 1 + i % 11)"
		" ELSE 'n' || (i % 6000) END FROM r;");
	sqlite3_close(h);
	return 0;
}

/* The rowids SQLite keeps for the window, in rowid order. */
static size_t sql_rows(const char *table, int64_t s, int64_t e, const char *scope, int64_t *out)
{
	sqlite3 *h;
	assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
	char sql[512];
	snprintf(sql, sizeof sql,
		 "SELECT rowid FROM %s WHERE ((start >= ?1 AND start < ?2) OR (end >= ?1 AND end < ?2)"
		 " OR (start < ?1 AND end >= ?2)) AND %s ORDER BY rowid", table, scope);
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_int64(st, 1, s);
	sqlite3_bind_int64(st, 2, e);
	size_t n = 0;
	while (sqlite3_step(st) == SQLITE_ROW)
		out[n++] = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(h);
	return n;
}

static void check_view(struct nst_events *all, const char *table,
		       const struct nst_ev_window *w, const char *scope)
{
	struct nst_events *ev = nst_ev_filter(all, w);
	struct nst_error err = { 0 };
	const int64_t *rowid;
	size_t n;
	int64_t want[256];
	assert_int_equal(nst_ev_rows(ev, table, &n, &err), NST_OK);
	assert_int_equal(nst_ev_i64(ev, table, "rowid", &rowid, &err), NST_OK);
	size_t nw = sql_rows(table, w->start, w->end, scope, want);
	if (n != nw)
		print_message("window %lld %lld scope %s: %zu rows, SQL %zu\n", (long long)w->start, (long long)w->end, scope, n, nw);
	assert_int_equal(n, nw);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(rowid[i], want[i]);
	nst_ev_free(ev);
}

static struct nst_db *open_export(void)
{
	struct nst_db *db;
	struct nst_error err = { 0 };
	assert_int_equal(nst_db_open(path, &db, &err), NST_OK);
	return db;
}

static void window_is_nsys_overlap_condition(void **state)
{
	(void)state;
	struct nst_db *db = open_export();
	struct nst_events *all = nst_ev_new(db, NULL);
	static const int64_t bounds[] = { INT64_MIN, -5, 0, 5, 10, 12, 20, 30, INT64_MAX };
	size_t nb = sizeof bounds / sizeof *bounds;
	for (size_t i = 0; i < nb; i++)
		for (size_t j = 0; j < nb; j++) {
			struct nst_ev_window w = { bounds[i], bounds[j], NST_EV_ALL_THREADS, 0 };
			check_view(all, "MPI_T", &w, "1");
		}
	nst_ev_free(all);
	nst_db_close(db);
}

static void scope_is_thread_or_process(void **state)
{
	(void)state;
	struct nst_db *db = open_export();
	struct nst_events *all = nst_ev_new(db, NULL);
	char scope[128];
	int64_t g = TID(100, 7);
	struct nst_ev_window w = { 0, 20, NST_EV_THREAD, g };
	snprintf(scope, sizeof scope, "globalTid = %lld", (long long)g);
	check_view(all, "MPI_T", &w, scope);
	w.scope = NST_EV_PROCESS;
	snprintf(scope, sizeof scope, "globalTid >> 24 = %lld", (long long)(g >> 24));
	check_view(all, "MPI_T", &w, scope);
	/* a table with only globalPid: by process, for a thread too */
	w.scope = NST_EV_THREAD;
	snprintf(scope, sizeof scope, "globalPid >> 24 = %lld", (long long)(g >> 24));
	check_view(all, "MPI_P", &w, scope);
	nst_ev_free(all);
	nst_db_close(db);
}

/* Filtered and unfiltered copies of one table side by side; tables
 * without an end column, and those missing, read through. */
static void unfiltered_beside_filtered(void **state)
{
	(void)state;
	struct nst_db *db = open_export();
	struct nst_events *all = nst_ev_new(db, NULL);
	struct nst_error err = { 0 };
	struct nst_ev_window w = { 10, 20, NST_EV_ALL_THREADS, 0 };
	struct nst_events *ev = nst_ev_filter(all, &w);
	assert_ptr_equal(nst_ev_all(ev), all);
	assert_ptr_equal(nst_ev_all(all), all);
	assert_int_equal(nst_ev_want(ev, "MPI_T", "v", true), NST_OK);
	assert_int_equal(nst_ev_preload(ev, &err), NST_OK);
	size_t nf, na;
	const char *const *vf, *const *va;
	const int64_t *rf;
	assert_int_equal(nst_ev_rows(ev, "MPI_T", &nf, &err), NST_OK);
	assert_int_equal(nst_ev_rows(all, "MPI_T", &na, &err), NST_OK);
	assert_true(nf > 0 && nf < na);
	assert_int_equal(nst_ev_text(ev, "MPI_T", "v", &vf, &err), NST_OK);
	assert_int_equal(nst_ev_text(all, "MPI_T", "v", &va, &err), NST_OK);
	assert_int_equal(nst_ev_i64(ev, "MPI_T", "rowid", &rf, &err), NST_OK);
	for (size_t i = 0; i < nf; i++)
		assert_string_equal(vf[i], va[rf[i] - 1]);
	const int64_t *u;
	assert_int_equal(nst_ev_rows(ev, "U", &nf, &err), NST_OK);
	assert_int_equal(nf, 2);
	assert_int_equal(nst_ev_i64(ev, "U", "v", &u, &err), NST_OK);
	assert_int_equal(u[1], 5);
	assert_int_equal(nst_ev_rows(ev, "NOSUCH", &nf, &err), NST_OK);
	assert_int_equal(nf, 0);
	assert_int_equal(nst_ev_i64(ev, "NOSUCH", "start", &u, &err), NST_OK);
	assert_null(u);
	nst_ev_free(ev);
	nst_ev_free(all);
	nst_db_close(db);
}

/* A column lent at 32 bits stays as it was lent when nst_ev_i64 asks for
 * it at 64: a report on another thread may be reading its cells. */
static void lent_column_survives_widening(void **state)
{
	(void)state;
	struct nst_db *db = open_export();
	struct nst_events *all = nst_ev_new(db, NULL);
	struct nst_error err = { 0 };
	const struct nst_col *v;
	const int64_t *wide;
	assert_int_equal(nst_ev_col(all, "U", "v", &v, &err), NST_OK);
	assert_non_null(v);
	assert_non_null(v->i32);
	const int32_t *cells = v->i32;
	assert_int_equal(nst_ev_i64(all, "U", "v", &wide, &err), NST_OK);
	assert_ptr_equal(v->i32, cells);
	assert_null(v->i64);
	assert_int_equal(nst_col_at(v, 0), 1);
	assert_int_equal(nst_col_at(v, 1), 5);
	assert_int_equal(wide[0], 1);
	assert_int_equal(wide[1], 5);
	nst_ev_free(all);
	nst_db_close(db);
}

static void nvtx_range_lookup(void **state)
{
	(void)state;
	struct nst_db *db = open_export();
	struct nst_error err = { 0 };
	struct nst_ev_window w;
	bool open;
	assert_int_equal(nst_ev_nvtx_window(db, "work@app", &w, &open, &err), NST_OK);
	assert_int_equal(w.start, 5);
	assert_int_equal(w.end, 25);
	assert_int_equal(w.scope, NST_EV_THREAD);
	assert_int_equal(w.gtid, 1677721607);
	assert_false(open);
	assert_int_equal(nst_ev_nvtx_window(db, "work@app/1", &w, &open, &err), NST_OK);
	assert_int_equal(w.start, 9);
	assert_int_equal(w.scope, NST_EV_PROCESS);
	assert_int_equal(nst_ev_nvtx_window(db, "registered", &w, &open, &err), NST_OK);
	assert_int_equal(w.end, 10);
	assert_int_equal(nst_ev_nvtx_window(db, "open", &w, &open, &err), NST_OK);
	assert_true(open);
	assert_int_equal(w.end, INT64_MAX);
	static const char *const missing[] = { "work", "work@app/2", "work@app/x", "work@other" };
	for (size_t i = 0; i < sizeof missing / sizeof *missing; i++) {
		assert_int_equal(nst_ev_nvtx_window(db, missing[i], &w, &open, &err), NST_ERR_NODATA);
		char want[256];
		snprintf(want, sizeof want, "NVTX range '%s' could not be found in %s.", missing[i], path);
		assert_string_equal(err.msg, want);
	}
	nst_db_close(db);
}

static int64_t sql_cell(sqlite3_stmt *st, int k)
{
	return sqlite3_column_type(st, k) == SQLITE_NULL ? NST_NULL_I64 : sqlite3_column_int64(st, k);
}

/* Every cell as SQLite reads it, whichever way the store kept it; a
 * column that stays a sequence, or one value (NULL too), lends no array
 * at all; one that leaves such a run writes the rows before it out. */
static void sequences_read_back(void **state)
{
	(void)state;
	static const char *const cols[] = { "rowid", "a", "b", "c", "d", "e", "f",
					    "g", "n", "k", "m", "z", "w" };
	enum { NCOLS = sizeof cols / sizeof *cols };
	struct nst_db *db = open_export();
	struct nst_events *all = nst_ev_new(db, NULL);
	struct nst_error err = { 0 };
	const struct nst_col *c[NCOLS];
	for (size_t k = 0; k < NCOLS; k++)
		assert_int_equal(nst_ev_want(all, "SEQ", cols[k], false), NST_OK);
	assert_int_equal(nst_ev_preload(all, &err), NST_OK);
	for (size_t k = 0; k < NCOLS; k++)
		assert_int_equal(nst_ev_col(all, "SEQ", cols[k], &c[k], &err), NST_OK);
	static const size_t runs[] = { 0, 5, 7, 8 }; /* rowid, e: sequences; g, n: constants */
	for (size_t k = 0; k < sizeof runs / sizeof *runs; k++) {
		assert_null(c[runs[k]]->i64);
		assert_null(c[runs[k]]->i32);
	}
	assert_non_null(c[2]->i32); /* b broke at row 3000 */
	assert_non_null(c[6]->i64); /* f broke out of 32 bits */
	assert_non_null(c[9]->i32); /* k: one value until row 2500 */
	assert_non_null(c[10]->i32); /* m: NULL until row 100 */
	assert_non_null(c[11]->i32); /* z: NULL until the last row */
	assert_non_null(c[12]->i64); /* w: 5, NULL, then out of 32 bits */
	sqlite3 *h;
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h, "SELECT rowid, a, b, c, d, e, f, g, n, k, m, z, w"
					    " FROM SEQ ORDER BY rowid", -1, &st, NULL), SQLITE_OK);
	size_t row = 0;
	for (; sqlite3_step(st) == SQLITE_ROW; row++)
		for (size_t k = 0; k < NCOLS; k++)
			if (nst_col_at(c[k], row) != sql_cell(st, (int)k))
				fail_msg("SEQ.%s, row %zu: %lld, SQLite %lld", cols[k], row,
					 (long long)nst_col_at(c[k], row), (long long)sql_cell(st, (int)k));
	assert_int_equal(row, 5000);
	const int64_t *wide;
	assert_int_equal(nst_ev_i64(all, "SEQ", "rowid", &wide, &err), NST_OK);
	assert_int_equal(wide[0], 1);
	assert_int_equal(wide[4999], 5000);
	assert_int_equal(nst_ev_i64(all, "SEQ", "n", &wide, &err), NST_OK);
	assert_true(wide[0] == NST_NULL_I64 && wide[4999] == NST_NULL_I64);
	sqlite3_finalize(st);
	sqlite3_close(h);
	nst_ev_free(all);
	nst_db_close(db);
}

/* Text cells as SQLite reads them, through the store's memo of the
 * values met lately; a run of one value is stored once. */
static void texts_read_back(void **state)
{
	(void)state;
	struct nst_db *db = open_export();
	struct nst_events *all = nst_ev_new(db, NULL);
	struct nst_error err = { 0 };
	const char *const *v;
	assert_int_equal(nst_ev_want(all, "TXT", "v", true), NST_OK);
	assert_int_equal(nst_ev_preload(all, &err), NST_OK);
	assert_int_equal(nst_ev_text(all, "TXT", "v", &v, &err), NST_OK);
	sqlite3 *h;
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h, "SELECT v FROM TXT ORDER BY rowid", -1, &st, NULL),
			 SQLITE_OK);
	size_t row = 0;
	for (; sqlite3_step(st) == SQLITE_ROW; row++) {
		const char *want = (const char *)sqlite3_column_text(st, 0);
		if (!want != !v[row] || (want && strcmp(want, v[row]) != 0))
			fail_msg("TXT.v, row %zu: \"%s\", SQLite \"%s\"", row, v[row] ? v[row] : "(NULL)",
				 want ? want : "(NULL)");
	}
	assert_int_equal(row, 20000);
	assert_string_equal(v[18001], "same");
	assert_ptr_equal(v[18001], v[19999]);
	sqlite3_finalize(st);
	sqlite3_close(h);
	nst_ev_free(all);
	nst_db_close(db);
}

/* A table whose read failed on a bad cell fails again, the same way,
 * when it is asked for again (once, its widened column was taken for a
 * sequence with no array and written through NULL). */
static void failed_read_fails_again(void **state)
{
	(void)state;
	struct nst_db *db = open_export();
	struct nst_events *all = nst_ev_new(db, NULL);
	const struct nst_col *c = NULL;
	for (int attempt = 0; attempt < 3; attempt++) {
		struct nst_error err = { 0 };
		assert_int_equal(nst_ev_want(all, "BAD", "a", false), NST_OK);
		assert_int_equal(nst_ev_want(all, "BAD", "b", false), NST_OK);
		assert_int_equal(nst_ev_col(all, "BAD", "a", &c, &err), NST_ERR_DB);
		assert_non_null(strstr(err.msg, "BAD.b, row 11: expected an integer"));
	}
	nst_ev_free(all);
	nst_db_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(window_is_nsys_overlap_condition),
		cmocka_unit_test(scope_is_thread_or_process),
		cmocka_unit_test(unfiltered_beside_filtered),
		cmocka_unit_test(nvtx_range_lookup),
		cmocka_unit_test(lent_column_survives_widening),
		cmocka_unit_test(sequences_read_back),
		cmocka_unit_test(texts_read_back),
		cmocka_unit_test(failed_read_fails_again),
	};
	return cmocka_run_group_tests(tests, make_export, temp_export_remove);
}
