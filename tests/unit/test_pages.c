/* Tables read from their pages (src/db/pages.c) against the same tables
 * read through SQLite: every row and cell equal, on trees several levels
 * deep, every size of integer, REALs, NULLs, text and blobs, rowid gaps,
 * records shorter than the table (ALTER TABLE ADD COLUMN), an INTEGER
 * PRIMARY KEY and the largest page size, records spilled onto overflow
 * pages; and NST_PAGES_UNSUPPORTED, never a wrong row, where the reader
 * stops (a column DEFAULT, WITHOUT ROWID, WAL, a file cut short, pointers
 * out of the file, a page that points at itself, an overflow chain that
 * leaves the file or loops). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "db/db.h"
#include "temp_export.h"

static char path[TEMP_PATH];

static int make_path(void **state)
{
	*state = path;
	temp_export_path(path, "pages");
	return 0;
}

/* A fresh export at path: StringIds (the mark nst_db_open wants), then sql. */
static void make_export(const char *pragmas, const char *sql)
{
	unlink(path);
	sqlite3 *h;
	char *msg = NULL;
	assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
	if (sqlite3_exec(h, pragmas ? pragmas : "", NULL, NULL, &msg) != SQLITE_OK ||
	    sqlite3_exec(h, "CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT);", NULL, NULL,
			 &msg) != SQLITE_OK ||
	    sqlite3_exec(h, sql, NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("%s", msg);
	assert_int_equal(sqlite3_close(h), SQLITE_OK);
}

struct rows {
	struct nst_page_cell *cells;
	size_t n, cap, ncols;
};

static int take(void *arg, const struct nst_page_cell *cells)
{
	struct rows *r = arg;
	if ((r->n + 1) * r->ncols > r->cap) {
		r->cap = 2 * (r->n + 1) * r->ncols;
		r->cells = realloc(r->cells, r->cap * sizeof *r->cells);
		assert_non_null(r->cells);
	}
	struct nst_page_cell *row = r->cells + r->n * r->ncols;
	memcpy(row, cells, r->ncols * sizeof *cells);
	for (size_t c = 0; c < r->ncols; c++) {
		if (row[c].kind != NST_CELL_TEXT)
			continue;
		char *copy = malloc(row[c].n + 1); /* the page's bytes go with the page */
		assert_non_null(copy);
		memcpy(copy, row[c].s, row[c].n);
		row[c].s = copy;
	}
	r->n++;
	return 0;
}

static void release(struct rows *r)
{
	for (size_t i = 0; i < r->n * r->ncols; i++)
		if (r->cells[i].kind == NST_CELL_TEXT)
			free((char *)r->cells[i].s);
	free(r->cells);
}

/* The table's columns from its pages: the reader's answer, rows in *r. */
static int from_pages(const char *table, const char *const *cols, size_t n, struct rows *r)
{
	struct nst_db *db = NULL;
	struct nst_error err = { 0 };
	if (nst_db_open(path, &db, &err) != NST_OK)
		fail_msg("%s", err.msg);
	*r = (struct rows){ .ncols = n };
	int rc = nst_db_scan_pages(db, table, cols, n, take, r);
	nst_db_close(db);
	return rc;
}

/* Every row of the pages equals SQLite's, cell by cell. */
static void same_as_sqlite(const char *table, const char *const *cols, size_t n)
{
	struct rows r;
	assert_int_equal(from_pages(table, cols, n, &r), NST_PAGES_OK);
	char sql[512] = "SELECT ";
	for (size_t c = 0; c < n; c++)
		snprintf(sql + strlen(sql), sizeof sql - strlen(sql), "%s\"%s\"", c ? "," : "",
			 cols[c]);
	snprintf(sql + strlen(sql), sizeof sql - strlen(sql), " FROM \"%s\"", table);
	sqlite3 *h;
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
	size_t row = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		assert_true(row < r.n);
		for (size_t c = 0; c < n; c++) {
			const struct nst_page_cell *got = &r.cells[row * n + c];
			switch (sqlite3_column_type(st, (int)c)) {
			case SQLITE_NULL:
				assert_int_equal(got->kind, NST_CELL_NULL);
				break;
			case SQLITE_INTEGER:
				assert_int_equal(got->kind, NST_CELL_INT);
				assert_true(got->i == sqlite3_column_int64(st, (int)c));
				break;
			case SQLITE_FLOAT:
				assert_int_equal(got->kind, NST_CELL_REAL);
				assert_true(got->r == sqlite3_column_double(st, (int)c));
				break;
			case SQLITE_TEXT:
				assert_int_equal(got->kind, NST_CELL_TEXT);
				assert_int_equal(got->n, sqlite3_column_bytes(st, (int)c));
				assert_memory_equal(got->s, sqlite3_column_text(st, (int)c), got->n);
				break;
			default:
				assert_int_equal(got->kind, NST_CELL_OTHER);
			}
		}
		row++;
	}
	assert_int_equal(row, r.n);
	sqlite3_finalize(st);
	sqlite3_close(h);
	release(&r);
}

static void assert_unsupported(const char *table, const char *const *cols, size_t n)
{
	struct rows r;
	assert_int_equal(from_pages(table, cols, n, &r), NST_PAGES_UNSUPPORTED);
	release(&r);
}

/* 20,000 rows of every serial type on 512-byte pages (a tree of several
 * levels), every seventh row deleted. */
static const char deep_sql[] =
	"CREATE TABLE t(a INTEGER, b INTEGER, c, d INTEGER NOT NULL, e);"
	"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) "
	"INSERT INTO t SELECT "
	" CASE i % 13 WHEN 0 THEN 0 WHEN 1 THEN 1 WHEN 2 THEN 127 WHEN 3 THEN -128 "
	"  WHEN 4 THEN 32767 WHEN 5 THEN -40000 WHEN 6 THEN 8388607 WHEN 7 THEN 2147483648 "
	"  WHEN 8 THEN -1099511627776 WHEN 9 THEN 140737488355327 WHEN 10 THEN 9223372036854775807"
	"  WHEN 11 THEN -9223372036854775808 ELSE NULL END,"
	" i * 1000003, CASE i % 5 WHEN 0 THEN 2.0 WHEN 1 THEN 2.5 WHEN 2 THEN 'text' "
	"  WHEN 3 THEN x'00ff' ELSE -i END, i, CASE WHEN i % 3 = 0 THEN NULL ELSE 'r' || i END FROM n;"
	"DELETE FROM t WHERE rowid % 7 = 0;";

static void deep_tree_reads_as_sqlite(void **state)
{
	(void)state;
	static const char *const cols[] = { "a", "rowid", "e", "b", "c", "d" };
	make_export("PRAGMA page_size = 512;", deep_sql);
	same_as_sqlite("t", cols, 6);
	make_export("PRAGMA page_size = 65536;", deep_sql);
	same_as_sqlite("t", cols, 6);
}

static void short_records_and_the_rowid_alias(void **state)
{
	(void)state;
	static const char *const cols[] = { "id", "x", "y" };
	make_export(NULL, "CREATE TABLE t(id INTEGER PRIMARY KEY, x INTEGER);"
		    "INSERT INTO t VALUES (5, 50), (9, 90);"
		    "ALTER TABLE t ADD COLUMN y INTEGER;"
		    "INSERT INTO t VALUES (12, 120, 7);");
	same_as_sqlite("t", cols, 3);
}

static void a_default_is_left_to_sqlite(void **state)
{
	(void)state;
	static const char *const cols[] = { "x", "y" };
	make_export(NULL, "CREATE TABLE t(x INTEGER); INSERT INTO t VALUES (1);"
		    "ALTER TABLE t ADD COLUMN y INTEGER DEFAULT 5;");
	assert_unsupported("t", cols, 2);
}

static void what_the_reader_leaves_to_sqlite(void **state)
{
	(void)state;
	static const char *const x[] = { "x" };
	make_export(NULL, "CREATE TABLE t(x INTEGER PRIMARY KEY, y) WITHOUT ROWID;"
		    "INSERT INTO t VALUES (1, 2);");
	assert_unsupported("t", x, 1);
	make_export("PRAGMA journal_mode = WAL;", "CREATE TABLE t(x INTEGER); INSERT INTO t VALUES (1);");
	assert_unsupported("t", x, 1);
	make_export(NULL, "CREATE TABLE t(x INTEGER);");
	static const char *const nope[] = { "nope" };
	assert_unsupported("t", nope, 1);
	assert_unsupported("missing", x, 1);
}

/* Records of every length around the cuts of the format's rule for the
 * bytes kept on the page (usable - 35, and the share left when the rest
 * fills whole overflow pages), text and blobs, on the smallest and the
 * largest pages; the columns after a long one are read from the chain. */
static const char spill_sql[] =
	"CREATE TABLE t(a INTEGER, s TEXT, b BLOB, z INTEGER);"
	"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400) "
	"INSERT INTO t SELECT i, printf('%.*c', i * 37 % 9000, 'a') || i,"
	" CASE WHEN i % 3 = 0 THEN randomblob(i * 211 % 70000) ELSE NULL END, -i FROM n;";

static void overflow_records_read_as_sqlite(void **state)
{
	(void)state;
	static const char *const cols[] = { "z", "s", "a", "b", "rowid" };
	make_export("PRAGMA page_size = 512;", spill_sql);
	same_as_sqlite("t", cols, 5);
	make_export("PRAGMA page_size = 65536;", spill_sql);
	same_as_sqlite("t", cols, 5);
}

/* The first table's root page, where the deep tree's root is. */
static long root_of(const char *table)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	long root = 0;
	assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h, "SELECT rootpage FROM sqlite_master WHERE name = ?1",
					    -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		root = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(h);
	return root;
}

static void patch(long at, const uint8_t *bytes, size_t n)
{
	FILE *f = fopen(path, "r+b");
	assert_non_null(f);
	assert_int_equal(fseek(f, at, SEEK_SET), 0);
	assert_int_equal(fwrite(bytes, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static void damaged_files_stop_the_reader(void **state)
{
	(void)state;
	static const char *const cols[] = { "a", "b" };
	/* the root's right-most child far past the end of the file */
	make_export("PRAGMA page_size = 512;", deep_sql);
	long root = root_of("t");
	patch((root - 1) * 512 + 8, (const uint8_t[]){ 0x7f, 0xff, 0xff, 0xff }, 4);
	assert_unsupported("t", cols, 2);
	/* the root's right-most child is the root itself */
	make_export("PRAGMA page_size = 512;", deep_sql);
	uint8_t self[4] = { (uint8_t)(root >> 24), (uint8_t)(root >> 16), (uint8_t)(root >> 8),
			    (uint8_t)root };
	patch((root - 1) * 512 + 8, self, 4);
	assert_unsupported("t", cols, 2);
	/* a page type that is no table page */
	make_export("PRAGMA page_size = 512;", deep_sql);
	patch((root - 1) * 512, (const uint8_t[]){ 0x02 }, 1);
	assert_unsupported("t", cols, 2);
	/* a file cut inside a page */
	make_export("PRAGMA page_size = 512;", deep_sql);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	long size = ftell(f);
	fclose(f);
	assert_int_equal(truncate(path, size - 100), 0);
	assert_unsupported("t", cols, 2);
}

/* One record of 3000 bytes on 512-byte pages, and where its first
 * overflow page number lies: the 4 bytes after the part kept on the leaf
 * (its cell is the only one, at the end of the leaf). */
static long one_spilled_record(void)
{
	make_export("PRAGMA page_size = 512;", "CREATE TABLE t(x INTEGER, big BLOB);"
		    "INSERT INTO t VALUES (1, zeroblob(3000));");
	return root_of("t") * 512 - 4;
}

static void broken_overflow_chains_stop_the_reader(void **state)
{
	(void)state;
	static const char *const cols[] = { "x", "big" };
	one_spilled_record();
	same_as_sqlite("t", cols, 2);
	/* the first overflow page past the end of the file */
	patch(one_spilled_record(), (const uint8_t[]){ 0x00, 0xff, 0xff, 0xff }, 4);
	assert_unsupported("t", cols, 2);
	/* page 1, the schema, as an overflow page */
	patch(one_spilled_record(), (const uint8_t[]){ 0, 0, 0, 0 }, 4);
	assert_unsupported("t", cols, 2);
	/* an overflow page whose next is itself: the chain never ends */
	long at = one_spilled_record();
	FILE *f = fopen(path, "rb");
	uint8_t first[4];
	assert_non_null(f);
	assert_int_equal(fseek(f, at, SEEK_SET), 0);
	assert_int_equal(fread(first, 1, 4, f), 4);
	fclose(f);
	long page = (long)first[0] << 24 | first[1] << 16 | first[2] << 8 | first[3];
	patch((page - 1) * 512, first, 4);
	assert_unsupported("t", cols, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(deep_tree_reads_as_sqlite),
		cmocka_unit_test(short_records_and_the_rowid_alias),
		cmocka_unit_test(a_default_is_left_to_sqlite),
		cmocka_unit_test(what_the_reader_leaves_to_sqlite),
		cmocka_unit_test(damaged_files_stop_the_reader),
		cmocka_unit_test(overflow_records_read_as_sqlite),
		cmocka_unit_test(broken_overflow_chains_stop_the_reader),
	};
	return cmocka_run_group_tests(tests, make_path, temp_export_remove);
}
