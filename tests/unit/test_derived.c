/* Columns the store derives as it reads.  A table's durations
 * (NST_EV_DURATION, nst_ev_durations): read as one column when nothing
 * else of the run reads start or end, else taken from them; either way
 * end - start of every row as SQLite computes it, NULL for an open range;
 * through the page reader and through SQLite, in one scan and in parts; a
 * bad start or end named as the column it is.  A flag (NST_EV_FLAG): 1
 * where its column holds the value, a constant where no row does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
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

/* Enough rows for the store to read OPS in parts (2^20 and more). */
enum { ROWS = 1200000 };

static char path[TEMP_PATH];

/* OPS: durations i % 5000, one of 2^40 at row 900,000 (past 32 bits in
 * a late part only), starts far apart.  NVTX_EVENTS, whose end may be
 * NULL: every third range open.  BAD_END: a text end in row 3.
 * NULL_END: a NULL end in row 2, where the schema allows none. FAR: a
 * start beyond 2^61 ns in row 2.  NOEND: no end column at all. */
static int make_export(void **state)
{
	*state = path;
	sqlite3 *h = temp_export_open(path, "derived");
	exec_sql(h, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN;"
		"CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT);"
		"CREATE TABLE OPS(start INT NOT NULL, end INT NOT NULL, name INT);"
		"CREATE TABLE NVTX_EVENTS(start INT NOT NULL, end INT, text TEXT);"
		"CREATE TABLE BAD_END(start INT, end INT);"
		"INSERT INTO BAD_END VALUES (1, 2), (3, 4), (5, 'six');"
		"CREATE TABLE NULL_END(start INT, end INT);"
		"INSERT INTO NULL_END VALUES (1, 2), (3, NULL);"
		"CREATE TABLE FAR(start INT, end INT);"
		"INSERT INTO FAR VALUES (1, 2), (4611686018427387904, 4611686018427387905);"
		"CREATE TABLE NOEND(start INT);"
		"INSERT INTO NOEND VALUES (1);"
		"CREATE TABLE CLS(cls INT);"
		"INSERT INTO CLS VALUES (0), (1), (67), (NULL), (67.0), (68);"
		"CREATE TABLE NO67(cls INT);"
		"INSERT INTO NO67 VALUES (0), (1), (1), (0);"
		"CREATE TABLE BADCLS(cls INT);"
		"INSERT INTO BADCLS VALUES (0), ('x');");
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(h, "INSERT INTO OPS VALUES (?, ?, ?)", -1, &st, NULL),
			 SQLITE_OK);
	for (int64_t i = 0; i < ROWS; i++) {
		int64_t start = ((int64_t)1 << 45) + 7919 * i;
		int64_t dur = i == 900000 ? (int64_t)1 << 40 : i % 5000;
		sqlite3_bind_int64(st, 1, start);
		sqlite3_bind_int64(st, 2, start + dur);
		sqlite3_bind_int64(st, 3, i % 3);
		assert_int_equal(sqlite3_step(st), SQLITE_DONE);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	assert_int_equal(sqlite3_prepare_v2(h, "INSERT INTO NVTX_EVENTS VALUES (?, ?, 'r')", -1,
					    &st, NULL), SQLITE_OK);
	for (int64_t i = 0; i < 100; i++) {
		sqlite3_bind_int64(st, 1, 1000 * i);
		if (i % 3 == 0)
			sqlite3_bind_null(st, 2);
		else
			sqlite3_bind_int64(st, 2, 1000 * i + i);
		assert_int_equal(sqlite3_step(st), SQLITE_DONE);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	exec_sql(h, "COMMIT;");
	sqlite3_close(h);
	return 0;
}

/* How the store reads: the page reader or SQLite, one thread or several. */
struct how {
	bool sqlite;
	int threads;
};

static const struct how hows[] = { { false, 1 }, { false, 3 }, { true, 1 }, { true, 3 } };
enum { NHOWS = sizeof hows / sizeof *hows };

/* The timing lines' says: a table read in parts, a column of end-start. */
struct lines {
	int parts, span_col;
};

static void on_timing(void *arg, const char *line)
{
	struct lines *l = arg;
	l->parts += strstr(line, " parts ") != NULL;
	l->span_col += strstr(line, NST_EV_DURATION) != NULL;
}

/* An export opened and a store reading it as `how` says, its timing lines
 * counted. */
struct fixture {
	struct nst_db *db;
	struct nst_options o;
	struct lines l;
	struct nst_events *ev;
	struct nst_error err;
};

static void open_fixture(struct fixture *f, const struct how *how)
{
	memset(f, 0, sizeof *f);
	assert_int_equal(nst_db_open(path, &f->db, &f->err), NST_OK);
	f->o = (struct nst_options){ .version = NST_API_VERSION, .read_threads = how->threads,
				     .sqlite_reader = how->sqlite, .timing = on_timing,
				     .arg = &f->l };
	f->ev = nst_ev_new(f->db, &f->o);
	assert_non_null(f->ev);
}

static void close_fixture(struct fixture *f)
{
	nst_ev_free(f->ev);
	nst_db_close(f->db);
}

/* Every row of span against SQLite's "end - start" of table (NULL as
 * NST_NULL_I64). */
static void same_as_sqlite(const char *table, const struct nst_span *span, size_t n)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	char sql[128];
	snprintf(sql, sizeof sql, "SELECT \"end\" - start FROM %s ORDER BY rowid", table);
	assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
	size_t row = 0;
	for (; sqlite3_step(st) == SQLITE_ROW; row++) {
		int64_t want = sqlite3_column_type(st, 0) == SQLITE_NULL ? NST_NULL_I64
									  : sqlite3_column_int64(st, 0);
		if (nst_span_at(span, row) != want)
			fail_msg("%s, row %zu: %lld, SQLite %lld", table, row,
				 (long long)nst_span_at(span, row), (long long)want);
	}
	sqlite3_finalize(st);
	sqlite3_close(h);
	assert_int_equal(row, n);
}

/* OPS's durations read every way, its start and end declared too when
 * with_times: a column of their own without them, none with. */
static void durations_of_ops(bool with_times)
{
	for (size_t k = 0; k < NHOWS; k++) {
		struct fixture f;
		struct nst_error err = { 0 };
		open_fixture(&f, &hows[k]);
		struct nst_events *ev = f.ev;
		assert_int_equal(nst_ev_want(ev, "OPS", NST_EV_DURATION, false), NST_OK);
		assert_int_equal(nst_ev_want(ev, "OPS", "name", false), NST_OK);
		if (with_times) {
			assert_int_equal(nst_ev_want(ev, "OPS", "start", false), NST_OK);
			assert_int_equal(nst_ev_want(ev, "OPS", "end", false), NST_OK);
		}
		assert_int_equal(nst_ev_preload(ev, &err), NST_OK);
		struct nst_span span;
		size_t n;
		assert_int_equal(nst_ev_durations(ev, "OPS", &span, &err), NST_OK);
		assert_int_equal(nst_ev_rows(ev, "OPS", &n, &err), NST_OK);
		assert_true(!span.dur == with_times);
		assert_true(!span.start == !with_times && !span.end == !with_times);
		assert_int_equal(f.l.span_col, !with_times);
		/* the 2^40 duration widens the column in one part only */
		assert_true(with_times || span.dur->i64);
		assert_int_equal(f.l.parts, !hows[k].sqlite && hows[k].threads > 1);
		same_as_sqlite("OPS", &span, n);
		close_fixture(&f);
	}
}

static void one_column_when_alone(void **state)
{
	(void)state;
	durations_of_ops(false);
}

static void from_start_and_end_when_read_anyway(void **state)
{
	(void)state;
	durations_of_ops(true);
}

/* Asked for without being declared: read then, as a column. */
static void read_when_first_asked(void **state)
{
	(void)state;
	struct fixture f;
	struct nst_error err = { 0 };
	open_fixture(&f, &hows[0]);
	struct nst_events *ev = f.ev;
	struct nst_span span;
	size_t n;
	assert_int_equal(nst_ev_durations(ev, "NVTX_EVENTS", &span, &err), NST_OK);
	assert_int_equal(nst_ev_rows(ev, "NVTX_EVENTS", &n, &err), NST_OK);
	assert_non_null(span.dur);
	assert_int_equal(nst_span_at(&span, 0), NST_NULL_I64); /* an open range */
	assert_int_equal(nst_span_at(&span, 1), 1);
	same_as_sqlite("NVTX_EVENTS", &span, n);
	close_fixture(&f);
}

/* Through a time filter: the kept rows' end - start, from their start
 * and end, which the filter reads. */
static void filtered_view(void **state)
{
	(void)state;
	struct fixture f;
	struct nst_error err = { 0 };
	open_fixture(&f, &hows[0]);
	struct nst_events *all = f.ev;
	struct nst_ev_window w = { .start = 10000, .end = 50000, .scope = NST_EV_ALL_THREADS };
	struct nst_events *v = nst_ev_filter(all, &w);
	assert_non_null(v);
	assert_int_equal(nst_ev_want(v, "NVTX_EVENTS", NST_EV_DURATION, false), NST_OK);
	assert_int_equal(nst_ev_preload(v, &err), NST_OK);
	struct nst_span span;
	const int64_t *start;
	size_t n;
	assert_int_equal(nst_ev_durations(v, "NVTX_EVENTS", &span, &err), NST_OK);
	assert_int_equal(nst_ev_i64(v, "NVTX_EVENTS", "start", &start, &err), NST_OK);
	assert_int_equal(nst_ev_rows(v, "NVTX_EVENTS", &n, &err), NST_OK);
	assert_int_equal(n, 40); /* starts 10000 to 49000 */
	for (size_t r = 0; r < n; r++) {
		int64_t i = start[r] / 1000;
		assert_int_equal(nst_span_at(&span, r), i % 3 == 0 ? NST_NULL_I64 : i);
	}
	nst_ev_free(v);
	close_fixture(&f);
}

/* The error one scan of table gives for its durations, read as `how`. */
static void duration_error(const char *table, const struct how *how, char *msg, size_t size)
{
	struct fixture f;
	struct nst_error err = { 0 };
	open_fixture(&f, how);
	struct nst_events *ev = f.ev;
	struct nst_span span;
	assert_int_equal(nst_ev_durations(ev, table, &span, &err), NST_ERR_DB);
	snprintf(msg, size, "%s", err.msg);
	close_fixture(&f);
}

static void bad_times_named_as_their_column(void **state)
{
	(void)state;
	static const struct {
		const char *table, *says;
	} cases[] = {
		{ "BAD_END", "BAD_END.end, row 3: expected an integer" },
		{ "NULL_END", "NULL_END.end, row 2: expected an integer, found NULL" },
		{ "FAR", "FAR.start, row 2: 4611686018427387904 ns is beyond +-2^61 ns" },
	};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		char pages[1100], sql[1100];
		duration_error(cases[c].table, &hows[0], pages, sizeof pages);
		duration_error(cases[c].table, &hows[2], sql, sizeof sql);
		if (!strstr(pages, cases[c].says))
			fail_msg("%s: \"%s\" does not say \"%s\"", cases[c].table, pages,
				 cases[c].says);
		assert_string_equal(sql, pages);
	}
}

static void none_without_start_or_end(void **state)
{
	(void)state;
	struct fixture f;
	struct nst_error err = { 0 };
	open_fixture(&f, &hows[0]);
	struct nst_events *ev = f.ev;
	struct nst_span span;
	assert_int_equal(nst_ev_durations(ev, "NOEND", &span, &err), NST_OK);
	assert_true(nst_span_none(&span));
	assert_int_equal(nst_ev_durations(ev, "NO_SUCH_TABLE", &span, &err), NST_OK);
	assert_true(nst_span_none(&span));
	close_fixture(&f);
}

static void flags_where_the_value_is(void **state)
{
	(void)state;
	static const int64_t want[] = { 0, 0, 1, 0, 1, 0 };
	for (size_t k = 0; k < NHOWS; k++) {
		struct fixture f;
		struct nst_error err = { 0 };
		open_fixture(&f, &hows[k]);
		struct nst_events *ev = f.ev;
		const struct nst_col *flag, *none, *bad;
		size_t n;
		assert_int_equal(nst_ev_col(ev, "CLS", NST_EV_FLAG("cls", 67), &flag, &err), NST_OK);
		assert_int_equal(nst_ev_rows(ev, "CLS", &n, &err), NST_OK);
		assert_int_equal(n, 6);
		for (size_t r = 0; r < n; r++)
			assert_int_equal(nst_col_at(flag, r), want[r]);
		/* no row of the class: a constant, no array */
		assert_int_equal(nst_ev_col(ev, "NO67", NST_EV_FLAG("cls", 67), &none, &err), NST_OK);
		assert_null(none->i64);
		assert_null(none->i32);
		assert_int_equal(nst_col_at(none, 3), 0);
		assert_int_equal(nst_ev_col(ev, "NOEND", NST_EV_FLAG("cls", 67), &none, &err), NST_OK);
		assert_null(none);
		assert_int_equal(nst_ev_col(ev, "BADCLS", NST_EV_FLAG("cls", 67), &bad, &err),
				 NST_ERR_DB);
		assert_non_null(strstr(err.msg, "BADCLS.cls, row 2: expected an integer"));
		close_fixture(&f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_column_when_alone),
		cmocka_unit_test(from_start_and_end_when_read_anyway),
		cmocka_unit_test(read_when_first_asked),
		cmocka_unit_test(filtered_view),
		cmocka_unit_test(bad_times_named_as_their_column),
		cmocka_unit_test(none_without_start_or_end),
		cmocka_unit_test(flags_where_the_value_is),
	};
	return cmocka_run_group_tests(tests, make_export, temp_export_remove);
}
