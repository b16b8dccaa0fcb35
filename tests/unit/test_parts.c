/* A big table read in parts on several threads (each part a run of the
 * b-tree's subtrees, its rows placed by their rowids, then merged) holds
 * what one scan holds: every cell as SQLite reads it, each column kept
 * the way one scan keeps it (a run, 32-bit offsets or int64), rowids
 * with gaps, and a bad cell in a late part reported as one scan reports
 * it. */
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

/* Enough rows for three parts of 2^19 (the store cuts tables of 2^20 rows
 * and more). */
enum { ROWS = 1600000, PARTS = 3 };

static char path[TEMP_PATH];

static const char *const cols[] = { "rowid", "a", "b", "c", "d", "e", "f",
				    "g", "h", "s", "m" };
enum { NCOLS = sizeof cols / sizeof *cols };

/* BIG's columns, each a way the parts can differ from one another:
 *   a 7 everywhere, b NULL everywhere, c i + 1000, s -2^50 + i: runs over
 *     the whole table;
 *   d i % 1000, g 2^40 + i % 7: 32-bit offsets from each part's own
 *     first value, made the table's;
 *   e 5 until row 1,000,000 (inside the second part), then i: runs in two
 *     parts, broken in the other;
 *   f 3000 i: past 32 bits inside the second part only: int64;
 *   h NULL until row 600,000 (inside the second part), then i;
 *   m i on even rows, NULL on odd ones; t a text, NULL every 1000th row.
 * Rowids start at 11 and skip 101 after row 700,000: the parts hold fewer
 * rows than their rowids leave room for.
 * BAD: 1.2M integers with one text in the last part. */
static int make_export(void **state)
{
	*state = path;
	sqlite3 *h = temp_export_open(path, "parts");
	exec_sql(h, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN;"
		"CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT);"
		"CREATE TABLE BIG(a INT, b INT, c INT, d INT, e INT, f INT, g INT, h INT,"
		" s INT, m INT, t TEXT);"
		"CREATE TABLE BAD(v INT);");
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(h, "INSERT INTO BIG(rowid, a, b, c, d, e, f, g, h,"
					    " s, m, t) VALUES (?, 7, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &st, NULL), SQLITE_OK);
	for (int64_t i = 0; i < ROWS; i++) {
		char text[16];
		snprintf(text, sizeof text, "k%d", (int)(i % 10));
		sqlite3_bind_int64(st, 1, i + 11 + (i >= 700000 ? 101 : 0));
		sqlite3_bind_int64(st, 2, i + 1000);
		sqlite3_bind_int64(st, 3, i % 1000);
		sqlite3_bind_int64(st, 4, i < 1000000 ? 5 : i);
		sqlite3_bind_int64(st, 5, 3000 * i);
		sqlite3_bind_int64(st, 6, ((int64_t)1 << 40) + i % 7);
		if (i < 600000)
			sqlite3_bind_null(st, 7);
		else
			sqlite3_bind_int64(st, 7, i);
		sqlite3_bind_int64(st, 8, -((int64_t)1 << 50) + i);
		if (i % 2)
			sqlite3_bind_null(st, 9);
		else
			sqlite3_bind_int64(st, 9, i);
		if (i % 1000 == 999)
			sqlite3_bind_null(st, 10);
		else
			sqlite3_bind_text(st, 10, text, -1, SQLITE_TRANSIENT);
		assert_int_equal(sqlite3_step(st), SQLITE_DONE);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	assert_int_equal(sqlite3_prepare_v2(h, "INSERT INTO BAD VALUES (?)", -1, &st, NULL),
			 SQLITE_OK);
	for (int64_t i = 0; i < 1200000; i++) {
		if (i == 1150000)
			sqlite3_bind_text(st, 1, "x", -1, SQLITE_STATIC);
		else
			sqlite3_bind_int64(st, 1, i * 7);
		assert_int_equal(sqlite3_step(st), SQLITE_DONE);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	exec_sql(h, "COMMIT;");
	sqlite3_close(h);
	return 0;
}

struct lines {
	int parts; /* timing lines that say a table was read in parts */
};

static void on_timing(void *arg, const char *line)
{
	struct lines *l = arg;
	l->parts += strstr(line, " parts ") != NULL;
}

/* BIG read with `threads` readers, every column wanted. */
static struct nst_events *read_big(struct nst_db *db, int threads, struct lines *l,
				   const struct nst_col *c[NCOLS], const char *const **t)
{
	struct nst_options o = { .version = NST_API_VERSION, .read_threads = threads,
				 .timing = on_timing, .arg = l };
	struct nst_events *ev = nst_ev_new(db, &o);
	struct nst_error err = { 0 };
	assert_non_null(ev);
	for (size_t k = 0; k < NCOLS; k++)
		assert_int_equal(nst_ev_want(ev, "BIG", cols[k], false), NST_OK);
	assert_int_equal(nst_ev_want(ev, "BIG", "t", true), NST_OK);
	assert_int_equal(nst_ev_want(ev, "StringIds", "value", true), NST_OK);
	assert_int_equal(nst_ev_preload(ev, &err), NST_OK);
	for (size_t k = 0; k < NCOLS; k++)
		assert_int_equal(nst_ev_col(ev, "BIG", cols[k], &c[k], &err), NST_OK);
	assert_int_equal(nst_ev_text(ev, "BIG", "t", t, &err), NST_OK);
	return ev;
}

static int64_t sql_cell(sqlite3_stmt *st, int k)
{
	return sqlite3_column_type(st, k) == SQLITE_NULL ? NST_NULL_I64 : sqlite3_column_int64(st, k);
}

/* Which arrays a column lends: none (a run), 32 bits or 64. */
static int shape(const struct nst_col *c)
{
	return c->i64 ? 64 : c->i32 ? 32 : 0;
}

static void parts_read_back(void **state)
{
	(void)state;
	struct nst_db *db;
	struct nst_error err = { 0 };
	assert_int_equal(nst_db_open(path, &db, &err), NST_OK);
	struct lines one = { 0 }, many = { 0 };
	const struct nst_col *c1[NCOLS], *cn[NCOLS];
	const char *const *t1, *const *tn;
	struct nst_events *ev1 = read_big(db, 1, &one, c1, &t1);
	struct nst_events *evn = read_big(db, PARTS, &many, cn, &tn);
	assert_int_equal(one.parts, 0);
	assert_int_equal(many.parts, 1);
	for (size_t k = 0; k < NCOLS; k++)
		if (shape(c1[k]) != shape(cn[k]))
			fail_msg("BIG.%s: one scan keeps it as %d, the parts as %d", cols[k],
				 shape(c1[k]), shape(cn[k]));
	assert_int_equal(shape(cn[1]), 0);  /* a */
	assert_int_equal(shape(cn[2]), 0);  /* b */
	assert_int_equal(shape(cn[3]), 0);  /* c */
	assert_int_equal(shape(cn[9]), 0);  /* s */
	assert_int_equal(shape(cn[4]), 32); /* d */
	assert_int_equal(shape(cn[6]), 64); /* f */
	sqlite3 *h;
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h, "SELECT rowid, a, b, c, d, e, f, g, h, s, m, t"
					    " FROM BIG ORDER BY rowid", -1, &st, NULL), SQLITE_OK);
	size_t row = 0;
	for (; sqlite3_step(st) == SQLITE_ROW; row++) {
		for (size_t k = 0; k < NCOLS; k++)
			if (nst_col_at(cn[k], row) != sql_cell(st, (int)k))
				fail_msg("BIG.%s, row %zu: %lld, SQLite %lld", cols[k], row,
					 (long long)nst_col_at(cn[k], row),
					 (long long)sql_cell(st, (int)k));
		const char *s = (const char *)sqlite3_column_text(st, NCOLS);
		if (!s != !tn[row] || (s && strcmp(s, tn[row]) != 0))
			fail_msg("BIG.t, row %zu: %s, SQLite %s", row, tn[row] ? tn[row] : "NULL",
				 s ? s : "NULL");
	}
	sqlite3_finalize(st);
	sqlite3_close(h);
	assert_int_equal(row, ROWS);
	nst_ev_free(ev1);
	nst_ev_free(evn);
	nst_db_close(db);
}

/* The text in BAD's last part: the same error, row and all, as one scan's. */
static void bad_cell_late(void **state)
{
	(void)state;
	char msg[2][1100];
	for (int i = 0; i < 2; i++) {
		struct nst_db *db;
		struct nst_error err = { 0 };
		assert_int_equal(nst_db_open(path, &db, &err), NST_OK);
		struct nst_options o = { .version = NST_API_VERSION, .read_threads = i ? PARTS : 1 };
		struct nst_events *ev = nst_ev_new(db, &o);
		assert_int_equal(nst_ev_want(ev, "BAD", "v", false), NST_OK);
		assert_int_equal(nst_ev_want(ev, "BIG", "a", false), NST_OK);
		/* one reader reads BAD when it is asked for, several up front */
		const struct nst_col *c;
		enum nst_status s = nst_ev_preload(ev, &err);
		if (s == NST_OK)
			s = nst_ev_col(ev, "BAD", "v", &c, &err);
		assert_int_equal(s, NST_ERR_DB);
		snprintf(msg[i], sizeof msg[i], "%s", err.msg);
		nst_ev_free(ev);
		nst_db_close(db);
	}
	assert_non_null(strstr(msg[0], "BAD.v, row 1150001: expected an integer"));
	assert_string_equal(msg[1], msg[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parts_read_back),
		cmocka_unit_test(bad_cell_late),
	};
	return cmocka_run_group_tests(tests, make_export, temp_export_remove);
}
