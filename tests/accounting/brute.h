/* What the brute-force programs share: reading an export with SQLite and
 * the time filter's rule, written here once and plainly, apart from
 * nstats's own code so that they check it rather than repeat it. */
#ifndef NSTATS_TESTS_BRUTE_H
#define NSTATS_TESTS_BRUTE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

/* The program's name, for its messages: each defines it. */
extern const char *const brute_name;

static inline void die(const char *what)
{
	fprintf(stderr, "%s: %s\n", brute_name, what);
	exit(2);
}

static inline bool has_column(sqlite3 *db, const char *table, const char *col)
{
	char sql[256];
	snprintf(sql, sizeof sql, "SELECT 1 FROM pragma_table_info('%s') WHERE name = '%s'", table, col);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return false;
	bool yes = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return yes;
}

/* The column of a csv header named `name`, or -1. */
static inline int find(char **hdr, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(hdr[i], name) == 0)
			return i;
	return -1;
}

/* The time filter's rule: a row stays when it overlaps [ws, we). */
static inline bool kept(int64_t s, int64_t e, bool window, int64_t ws, int64_t we)
{
	if (!window)
		return true;
	return (s >= ws && s < we) || (e >= ws && e < we) || (s < ws && e >= we);
}

#endif
