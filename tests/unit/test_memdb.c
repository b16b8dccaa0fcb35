/* The export a trace reader builds in memory (src/input/memdb.c): rows
 * given in the order Kineto writes them (GPU rows before the calls that
 * launched them) come out with their times from the session's start and
 * each GPU row's process as the calls say: the caller's, none when calls
 * of several processes share its correlation id, the only caller's when
 * no call has it; rows past one batch, and texts, come out as given; a
 * column a trace may not fill is NULL there. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "input/memdb.h"

#define ORIGIN 1000000
#define P1 ((int64_t)1 << 24)
#define P2 ((int64_t)2 << 24)

static void kernel(struct memdb *m, int64_t start, int64_t corr, int64_t name)
{
	md_begin(m, MD_KERNEL);
	md_int(m, start);
	md_int(m, start + 10);
	md_int(m, 0);     /* device */
	md_int(m, 1);     /* context */
	md_null(m);       /* greenContextId */
	md_int(m, 7);     /* stream */
	if (corr < 0)
		md_null(m);
	else
		md_int(m, corr);
	md_int(m, name);  /* demangledName */
	md_int(m, name);  /* shortName */
	md_int(m, 32);    /* registers */
	for (int i = 0; i < 6; i++)
		md_int(m, 1); /* grid, block */
	md_int(m, 48);    /* staticSharedMemory */
	md_null(m);       /* dynamicSharedMemory: a Kineto trace has none */
	assert_int_equal(md_end(m, NULL), NST_OK);
}

static void call(struct memdb *m, int64_t start, int64_t gtid, int64_t corr, int64_t name)
{
	assert_int_equal(md_call(m, true, corr, gtid & -((int64_t)1 << 24), NULL), NST_OK);
	md_begin(m, MD_RUNTIME);
	md_int(m, start);
	md_int(m, start + 5);
	md_int(m, 0);
	md_int(m, gtid);
	md_int(m, corr);
	md_int(m, name);
	assert_int_equal(md_end(m, NULL), NST_OK);
}

static sqlite3 *finish(struct memdb *m, int64_t end)
{
	struct md_session s = { .has_span = true, .origin = ORIGIN, .end = end, .format = "test" };
	assert_int_equal(memdb_finish(m, &s, NULL), NST_OK);
	return memdb_take(m);
}

static int64_t one_int(sqlite3 *h, const char *sql)
{
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	int64_t v = sqlite3_column_type(st, 0) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static int64_t pid_of_kernel(sqlite3 *h, int64_t start)
{
	char sql[160];
	snprintf(sql, sizeof sql, "SELECT globalPid FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE start = %lld",
		 (long long)start);
	return one_int(h, sql);
}

/* Two processes: each kernel before its call, one correlation id shared. */
static void processes_of_gpu_rows(void **state)
{
	(void)state;
	struct memdb *m;
	assert_int_equal(memdb_new("two.json", &m, NULL), NST_OK);
	enum nst_status st;
	int64_t name = md_string(m, "k", 1, &st, NULL);
	kernel(m, ORIGIN + 100, 11, name);  /* launched by process 1 */
	kernel(m, ORIGIN + 200, 12, name);  /* by process 2 */
	kernel(m, ORIGIN + 300, 13, name);  /* by both: a merged trace */
	kernel(m, ORIGIN + 400, 99, name);  /* by none */
	kernel(m, ORIGIN + 500, -1, name);  /* no correlation id */
	call(m, ORIGIN + 50, P1 | 5, 11, name);
	call(m, ORIGIN + 150, P2 | 6, 12, name);
	call(m, ORIGIN + 250, P1 | 5, 13, name);
	call(m, ORIGIN + 260, P2 | 6, 13, name);
	sqlite3 *h = finish(m, ORIGIN + 1000);
	memdb_free(m);
	assert_int_equal(pid_of_kernel(h, 100), P1);
	assert_int_equal(pid_of_kernel(h, 200), P2);
	assert_int_equal(pid_of_kernel(h, 300), -1);
	assert_int_equal(pid_of_kernel(h, 400), -1);
	assert_int_equal(pid_of_kernel(h, 500), -1);
	/* a NOT NULL column of nsys's schema that a trace may leave empty */
	assert_int_equal(one_int(h, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE "
				    "staticSharedMemory = 48 AND dynamicSharedMemory IS NULL"), 5);
	assert_int_equal(one_int(h, "SELECT min(start) FROM CUPTI_ACTIVITY_KIND_RUNTIME"), 50);
	assert_int_equal(one_int(h, "SELECT duration FROM ANALYSIS_DETAILS"), 1000);
	sqlite3_close(h);
}

/* One process made calls: every GPU row is its, with a call or without. */
static void only_caller(void **state)
{
	(void)state;
	struct memdb *m;
	assert_int_equal(memdb_new("one.json", &m, NULL), NST_OK);
	enum nst_status st;
	int64_t name = md_string(m, "k", 1, &st, NULL);
	kernel(m, ORIGIN + 100, 11, name);
	kernel(m, ORIGIN + 400, 99, name);
	kernel(m, ORIGIN + 500, -1, name);
	call(m, ORIGIN + 50, P2 | 3, 11, name);
	sqlite3 *h = finish(m, ORIGIN + 1000);
	memdb_free(m);
	assert_int_equal(pid_of_kernel(h, 100), P2);
	assert_int_equal(pid_of_kernel(h, 400), P2);
	assert_int_equal(pid_of_kernel(h, 500), P2);
	sqlite3_close(h);
}

/* Many batches of rows and texts of every length up to 5000 bytes: every
 * row once, every text whole, in order. */
static void many_rows(void **state)
{
	(void)state;
	enum { ROWS = 20000 };
	struct memdb *m;
	assert_int_equal(memdb_new("many.json", &m, NULL), NST_OK);
	char *text = malloc(5001);
	assert_non_null(text);
	for (int i = 0; i < 5000; i++)
		text[i] = (char)('a' + i % 26);
	for (int i = 0; i < ROWS; i++) {
		md_begin(m, MD_NVTX);
		md_int(m, ORIGIN + i);
		md_int(m, ORIGIN + i + 1);
		md_int(m, 59);
		md_text(m, text, (size_t)(i % 5001));
		md_int(m, P1 | 1);
		md_null(m);
		assert_int_equal(md_end(m, NULL), NST_OK);
	}
	free(text);
	sqlite3 *h = finish(m, ORIGIN + ROWS + 1);
	memdb_free(m);
	assert_int_equal(one_int(h, "SELECT count(*) FROM NVTX_EVENTS"), ROWS);
	assert_int_equal(one_int(h, "SELECT sum(length(text)) FROM NVTX_EVENTS"),
			 (int64_t)(ROWS / 5001) * (5000 * 5001 / 2) +
				 (int64_t)(ROWS % 5001) * (ROWS % 5001 - 1) / 2);
	assert_int_equal(one_int(h, "SELECT count(*) FROM NVTX_EVENTS WHERE length(text) != start % 5001"),
			 0);
	assert_int_equal(one_int(h, "SELECT count(*) FROM NVTX_EVENTS WHERE substr(text, 27, 1) != 'a' "
				    "AND length(text) >= 27"),
			 0);
	sqlite3_close(h);
}

/* A row with a value too few is refused, and the export can still be
 * freed without a leak or a hang (the writer is stopped). */
static void bad_row(void **state)
{
	(void)state;
	struct memdb *m;
	struct nst_error err = { 0 };
	assert_int_equal(memdb_new("bad.json", &m, NULL), NST_OK);
	md_begin(m, MD_RUNTIME);
	md_int(m, 1);
	assert_int_equal(md_end(m, &err), NST_ERR_INTERNAL);
	assert_non_null(strstr(err.msg, "bad.json"));
	memdb_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(processes_of_gpu_rows),
		cmocka_unit_test(only_caller),
		cmocka_unit_test(many_rows),
		cmocka_unit_test(bad_row),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
