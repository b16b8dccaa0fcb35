/* StringIds lookups and their slots: a real export (GindaChen__nsys-ai's
 * mfu_2gpu_before) has 126 strings with ids up to 3.4 million, and the
 * caches of names derived from strings are arrays by slot, so the slots
 * must be as many as the strings, not as the largest id.  Each test reads
 * StringIds both ways: from its pages (with names long enough to spill
 * onto overflow pages) and through SQLite. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "db/db.h"
#include "temp_export.h"

static char path[TEMP_PATH];

static int make_export(void **state)
{
	*state = path;
	sqlite3 *h = temp_export_open(path, "strings");
	exec_sql(h, "CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT);"
		    "INSERT INTO StringIds VALUES (0, 'zero'), (1, 'one'), (5, 'five'),"
		    " (3436172, 'cudaLaunchKernel_v7000'), (1366487, 'gemm'),"
		    " (-7, 'negative'), (9223372036854775807, 'last'), (6, NULL),"
		    " (7, 'k' || printf('%.9000c', 'x')), (8, printf('%.70000c', 'y') || 'z');");
	sqlite3_close(h);
	return 0;
}

static struct nst_db *open_export(bool pages)
{
	struct nst_db *db = NULL;
	struct nst_error err = { 0 };
	if (nst_db_open(path, &db, &err) != NST_OK)
		fail_msg("%s", err.msg);
	nst_db_set_page_reader(db, pages);
	return db;
}

/* A string as long as n bytes: first, then n - 2 copies of fill, then last. */
static bool long_string(const char *s, size_t n, char first, char fill, char last)
{
	if (!s || strlen(s) != n || s[0] != first || s[n - 1] != last)
		return false;
	for (size_t i = 1; i + 1 < n; i++)
		if (s[i] != fill)
			return false;
	return true;
}

static void slots_are_few_and_distinct(void **state)
{
	(void)state;
	static const int64_t ids[] = { 0, 1, 5, 3436172, 1366487, -7, INT64_MAX, 7, 8 };
	static const char *const text[] = { "zero", "one", "five", "cudaLaunchKernel_v7000",
					    "gemm", "negative", "last" };
	enum { N = sizeof ids / sizeof *ids };
	for (int pages = 0; pages < 2; pages++) {
		struct nst_db *db = open_export(pages);
		size_t nslots = nst_db_string_slots(db);
		assert_true(nslots >= N);
		assert_true(nslots < 4096); /* the largest id is 2^63 - 1 */
		int64_t seen[N];
		for (size_t i = 0; i < N; i++) {
			if (i < sizeof text / sizeof *text)
				assert_string_equal(nst_db_string(db, ids[i]), text[i]);
			seen[i] = nst_db_string_slot(db, ids[i]);
			assert_true(seen[i] >= 0 && (size_t)seen[i] < nslots);
			for (size_t j = 0; j < i; j++)
				assert_true(seen[i] != seen[j]);
			assert_int_equal(nst_db_string_slot(db, ids[i]), seen[i]); /* stable */
		}
		/* 9,001 and 70,001 bytes: spilled onto 2 and 18 overflow pages */
		assert_true(long_string(nst_db_string(db, 7), 9001, 'k', 'x', 'x'));
		assert_true(long_string(nst_db_string(db, 8), 70001, 'y', 'y', 'z'));
		nst_db_close(db);
	}
}

static void ids_without_a_string_have_no_slot(void **state)
{
	(void)state;
	static const int64_t none[] = { 2, 4, 6, 1000, 3436171, 3436173, -1, INT64_MIN };
	for (int pages = 0; pages < 2; pages++) {
		struct nst_db *db = open_export(pages);
		for (size_t i = 0; i < sizeof none / sizeof *none; i++) {
			assert_null(nst_db_string(db, none[i]));
			assert_int_equal(nst_db_string_slot(db, none[i]), -1);
		}
		nst_db_close(db);
	}
}

/* A value SQLite shows as text though it is stored as a BLOB (a TEXT
 * column keeps BLOBs as they are): the page reader leaves StringIds to
 * SQLite, whose text it is. */
static void a_number_reads_as_sqlite_shows_it(void **state)
{
	(void)state;
	char other[TEMP_PATH];
	sqlite3 *h = temp_export_open(other, "strings-number");
	exec_sql(h, "CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT);"
		    "INSERT INTO StringIds VALUES (1, 'one'), (2, x'3432');");
	sqlite3_close(h);
	struct nst_db *db = NULL;
	struct nst_error err = { 0 };
	if (nst_db_open(other, &db, &err) != NST_OK)
		fail_msg("%s", err.msg);
	assert_string_equal(nst_db_string(db, 1), "one");
	assert_string_equal(nst_db_string(db, 2), "42");
	nst_db_close(db);
	unlink(other);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(slots_are_few_and_distinct),
		cmocka_unit_test(ids_without_a_string_have_no_slot),
		cmocka_unit_test(a_number_reads_as_sqlite_shows_it),
	};
	return cmocka_run_group_tests(tests, make_export, temp_export_remove);
}
