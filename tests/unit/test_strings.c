/* StringIds lookups and their slots: a real export (GindaChen__nsys-ai's
 * mfu_2gpu_before) has 126 strings with ids up to 3.4 million, and the
 * caches of names derived from strings are arrays by slot, so the slots
 * must be as many as the strings, not as the largest id. */
#include <setjmp.h>
#include <stdarg.h>
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
		    " (-7, 'negative'), (9223372036854775807, 'last');");
	sqlite3_close(h);
	return 0;
}

static struct nst_db *open_export(void)
{
	struct nst_db *db = NULL;
	struct nst_error err = { 0 };
	if (nst_db_open(path, &db, &err) != NST_OK)
		fail_msg("%s", err.msg);
	return db;
}

static void slots_are_few_and_distinct(void **state)
{
	(void)state;
	struct nst_db *db = open_export();
	static const int64_t ids[] = { 0, 1, 5, 3436172, 1366487, -7, INT64_MAX };
	static const char *const text[] = { "zero", "one", "five", "cudaLaunchKernel_v7000",
					    "gemm", "negative", "last" };
	enum { N = sizeof ids / sizeof *ids };
	size_t nslots = nst_db_string_slots(db);
	assert_true(nslots >= N);
	assert_true(nslots < 4096); /* the largest id is 2^63 - 1 */
	int64_t seen[N];
	for (size_t i = 0; i < N; i++) {
		assert_string_equal(nst_db_string(db, ids[i]), text[i]);
		seen[i] = nst_db_string_slot(db, ids[i]);
		assert_true(seen[i] >= 0 && (size_t)seen[i] < nslots);
		for (size_t j = 0; j < i; j++)
			assert_true(seen[i] != seen[j]);
		assert_int_equal(nst_db_string_slot(db, ids[i]), seen[i]); /* stable */
	}
	nst_db_close(db);
}

static void ids_without_a_string_have_no_slot(void **state)
{
	(void)state;
	struct nst_db *db = open_export();
	static const int64_t none[] = { 2, 4, 6, 1000, 3436171, 3436173, -1, INT64_MIN };
	for (size_t i = 0; i < sizeof none / sizeof *none; i++) {
		assert_null(nst_db_string(db, none[i]));
		assert_int_equal(nst_db_string_slot(db, none[i]), -1);
	}
	nst_db_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(slots_are_few_and_distinct),
		cmocka_unit_test(ids_without_a_string_have_no_slot),
	};
	return cmocka_run_group_tests(tests, make_export, temp_export_remove);
}
