/* What the unit tests that write an export of their own share: a new
 * temporary file, and SQL run on it that fails the test with SQLite's
 * message.  Functions in the header: each unit test is one program of one
 * .c file.  Include it after cmocka.h and sqlite3.h. */
#ifndef NSTATS_TESTS_TEMP_EXPORT_H
#define NSTATS_TESTS_TEMP_EXPORT_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* path (room for TEMP_PATH bytes) names a new empty file,
 * /tmp/nstats-test-NAME-XXXXXX. */
#define TEMP_PATH 64
static inline void temp_export_path(char *path, const char *name)
{
	snprintf(path, TEMP_PATH, "/tmp/nstats-test-%s-XXXXXX", name);
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
}

/* temp_export_path's file, opened. */
static inline sqlite3 *temp_export_open(char *path, const char *name)
{
	sqlite3 *h;
	temp_export_path(path, name);
	assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
	return h;
}

/* A group teardown for cmocka: removes the file whose name the group's
 * setup left in *state. */
static inline int temp_export_remove(void **state)
{
	unlink(*state);
	return 0;
}

static inline void exec_sql(sqlite3 *h, const char *sql)
{
	char *msg = NULL;
	if (sqlite3_exec(h, sql, NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("%s: %s", sql, msg);
}

#endif
