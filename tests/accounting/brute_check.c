/* brute_check EXPORT: what `nstats check` should count on an export, computed
 * the plain way: one SQL query per number (NOT EXISTS over every pair,
 * count(*) minus count(DISTINCT ...)) or a loop over rows, with nothing of
 * nstats.  Prints "finding count" and "finding/part count" lines, the shape
 * tests/accounting/case_check.sh makes of nstats's JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#define K "CUPTI_ACTIVITY_KIND_KERNEL"
#define MC "CUPTI_ACTIVITY_KIND_MEMCPY"
#define MS "CUPTI_ACTIVITY_KIND_MEMSET"
#define GR "CUPTI_ACTIVITY_KIND_GRAPH_TRACE"
#define RT "CUPTI_ACTIVITY_KIND_RUNTIME"
/* A call: not a backtrace record. */
#define CALL "(r.callchainId IS NULL AND (r.eventClass IS NULL OR r.eventClass != 67))"
/* Same process: globalTid / globalPid with the thread bits cleared. */
#define PROC(x) "((" x ") & ~16777215)"

static sqlite3 *db;
/* Pairing by process needs globalPid in every GPU table there is; without
 * it calls and GPU rows pair by correlationId alone, and kernels of one
 * stream are those of one (deviceId, streamId). */
static int per_process = 1;

static void die(const char *what)
{
	fprintf(stderr, "brute_check: %s: %s\n", what, sqlite3_errmsg(db));
	exit(2);
}

static int has_table(const char *t)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", -1, &st, NULL))
		die("sqlite_master");
	sqlite3_bind_text(st, 1, t, -1, SQLITE_STATIC);
	int yes = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return yes;
}

static int has_column(const char *table, const char *col);

static long long one(const char *sql)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL))
		die(sql);
	long long v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return v;
}

/* Prints "label count" for each row (text, count) of sql with a count > 0. */
static void parts(const char *finding, const char *sql)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL))
		die(sql);
	while (sqlite3_step(st) == SQLITE_ROW)
		if (sqlite3_column_int64(st, 1) > 0)
			printf("%s/%s %lld\n", finding, (const char *)sqlite3_column_text(st, 0),
			       (long long)sqlite3_column_int64(st, 1));
	sqlite3_finalize(st);
}

static void backtrace_rows(void)
{
	long long n = one("SELECT count(*) FROM " RT " r WHERE NOT " CALL);
	printf("backtrace_rows %lld\n", n);
	if (n)
		printf("backtrace_rows/" RT " %lld\n", n);
}

/* GPU rows of the three tables with a non-zero correlationId that no call
 * of their process has. */
static void orphan_gpu_rows(void)
{
	static const char *const t[] = { K, MC, MS };
	long long total = 0;
	for (int i = 0; i < 3; i++) {
		char sql[1024];
		snprintf(sql, sizeof sql,
			 "SELECT count(*) FROM %s g WHERE g.correlationId IS NOT NULL AND g.correlationId != 0 "
			 "AND NOT EXISTS (SELECT 1 FROM " RT " r WHERE " CALL " AND r.correlationId = "
			 "g.correlationId AND %s)", t[i],
			 per_process ? PROC("r.globalTid") " = " PROC("g.globalPid") : "1");
		long long n = one(sql);
		total += n;
		if (n)
			printf("orphan_gpu_rows/%s %lld\n", t[i], n);
	}
	printf("orphan_gpu_rows %lld\n", total);
}

static void launches_without_gpu(void)
{
	char gpu[512] = "", sql[4096];
	const char *const t[] = { K, MC, MS, GR };
	for (int i = 0; i < 4; i++) {
		if (!has_table(t[i]))
			continue;
		char one_table[160];
		snprintf(one_table, sizeof one_table, "%sSELECT %s AS globalPid, correlationId FROM %s",
			 gpu[0] ? " UNION ALL " : "", per_process ? "globalPid" : "0", t[i]);
		strcat(gpu, one_table);
	}
	snprintf(sql, sizeof sql,
		 "SELECT s.value, count(*) FROM " RT " r JOIN StringIds s ON s.id = r.nameId "
		 "WHERE " CALL " AND r.correlationId IS NOT NULL AND r.correlationId != 0 AND ("
		 "s.value GLOB 'cudaLaunchKernel*' OR s.value GLOB 'cudaLaunchCooperativeKernel*' OR "
		 "s.value GLOB 'cuLaunchKernel*' OR s.value GLOB 'cuLaunchCooperativeKernel*' OR "
		 "s.value GLOB 'cudaMemcpy*' OR s.value GLOB 'cudaMemset*' OR s.value GLOB 'cuMemcpy*' OR "
		 "s.value GLOB 'cuMemset*' OR s.value GLOB 'cudaGraphLaunch*' OR s.value GLOB 'cuGraphLaunch*') "
		 "AND NOT EXISTS (SELECT 1 FROM (%s) g WHERE g.correlationId = r.correlationId AND %s) "
		 "GROUP BY s.value", gpu, per_process ? PROC("g.globalPid") " = " PROC("r.globalTid") : "1");
	parts("launches_without_gpu", sql);
	char total[4200];
	snprintf(total, sizeof total, "SELECT sum(n) FROM (SELECT s.value, count(*) n %s)",
		 strstr(sql, "FROM " RT));
	printf("launches_without_gpu %lld\n", one(total));
}

/* Extras: rows beyond the first of each (deviceId, streamId, start, end), in
 * all three tables together and in each alone; the rest are across tables. */
static void duplicate_gpu_rows(void)
{
	static const char *const t[] = { K, MC, MS };
	long long within = 0;
	for (int i = 0; i < 3; i++) {
		char sql[512];
		snprintf(sql, sizeof sql, "SELECT count(*) - (SELECT count(*) FROM (SELECT DISTINCT deviceId, "
			 "streamId, start, end FROM %s)) FROM %s", t[i], t[i]);
		long long n = one(sql);
		within += n;
		if (n)
			printf("duplicate_gpu_rows/%s %lld\n", t[i], n);
	}
	long long total = one("WITH a AS (SELECT deviceId, streamId, start, end FROM " K " UNION ALL "
			      "SELECT deviceId, streamId, start, end FROM " MC " UNION ALL "
			      "SELECT deviceId, streamId, start, end FROM " MS ") "
			      "SELECT count(*) - (SELECT count(*) FROM (SELECT DISTINCT * FROM a)) FROM a");
	if (total - within)
		printf("duplicate_gpu_rows/across tables %lld\n", total - within);
	printf("duplicate_gpu_rows %lld\n", total);
}

static void correlation_collisions(void)
{
	const char *ids = "SELECT r.correlationId, count(*) n FROM " RT " r WHERE " CALL
			  " AND r.correlationId IS NOT NULL AND r.correlationId != 0 GROUP BY "
			  "r.correlationId HAVING count(DISTINCT " PROC("r.globalTid") ") > 1";
	char sql[1024];
	snprintf(sql, sizeof sql, "SELECT count(*) FROM (%s)", ids);
	long long n = one(sql);
	printf("correlation_collisions %lld\n", n);
	snprintf(sql, sizeof sql, "SELECT sum(n) FROM (%s)", ids);
	if (n)
		printf("correlation_collisions/calls sharing those ids %lld\n", one(sql));
}

static void bad_durations(void)
{
	static const char *const t[] = { K, MC, MS, RT };
	long long total = 0;
	for (int i = 0; i < 4; i++) {
		char sql[512];
		snprintf(sql, sizeof sql, "SELECT '%s negative', count(*) FROM %s WHERE end < start "
			 "UNION ALL SELECT '%s zero', count(*) FROM %s WHERE end = start", t[i], t[i], t[i], t[i]);
		parts("bad_durations", sql);
		snprintf(sql, sizeof sql, "SELECT count(*) FROM %s WHERE end <= start", t[i]);
		total += one(sql);
	}
	printf("bad_durations %lld\n", total);
}

/* A kernel overlaps when some kernel of its stream that comes before it (by
 * start, then rowid) ends after it starts: every pair, no sweep. */
static void stream_overlap(void)
{
	char sql[1024];
	snprintf(sql, sizeof sql,
		 "SELECT count(*) FROM " K " k WHERE EXISTS (SELECT 1 FROM " K " j WHERE %s AND "
		 "j.deviceId = k.deviceId AND j.streamId = k.streamId AND (j.start < k.start OR "
		 "(j.start = k.start AND j.rowid < k.rowid)) AND j.end > k.start)",
		 has_column(K, "globalPid") ? "coalesce(" PROC("j.globalPid") ", 0) = coalesce("
					      PROC("k.globalPid") ", 0)" : "1");
	printf("stream_overlap %lld\n", one(sql));
}

static void open_ranges(void)
{
	parts("open_ranges", "SELECT CASE eventType WHEN 59 THEN 'NvtxPushPopRange' WHEN 60 THEN "
			     "'NvtxStartEndRange' WHEN 70 THEN 'NvtxtPushPopRange' ELSE "
			     "'NvtxtStartEndRange' END, count(*) FROM NVTX_EVENTS WHERE end IS NULL AND "
			     "eventType IN (59, 60, 70, 71) GROUP BY eventType");
	printf("open_ranges %lld\n", one("SELECT count(*) FROM NVTX_EVENTS WHERE end IS NULL AND "
					 "eventType IN (59, 60, 70, 71)"));
}

static int has_column(const char *table, const char *col)
{
	char sql[640];
	snprintf(sql, sizeof sql, "SELECT count(*) FROM pragma_table_info('%s') WHERE name = '%s'", table, col);
	return one(sql) > 0;
}

/* Every row of every table with start and end, compared in C. */
static long long rows_after(const char *table, long long session_end)
{
	char sql[320];
	sqlite3_stmt *st;
	snprintf(sql, sizeof sql, "SELECT start, end FROM \"%s\"", table);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL))
		die(sql);
	long long n = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int late = 0;
		for (int c = 0; c < 2; c++)
			late |= sqlite3_column_type(st, c) != SQLITE_NULL &&
				sqlite3_column_int64(st, c) > session_end;
		n += late;
	}
	sqlite3_finalize(st);
	return n;
}

static void truncated_capture(void)
{
	long long end = one("SELECT max(duration) FROM ANALYSIS_DETAILS"), total = 0;
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type = 'table'", -1, &st, NULL))
		die("sqlite_master");
	while (sqlite3_step(st) == SQLITE_ROW) {
		char t[256];
		snprintf(t, sizeof t, "%s", (const char *)sqlite3_column_text(st, 0));
		if (!has_column(t, "start") || !has_column(t, "end"))
			continue;
		long long n = rows_after(t, end);
		total += n;
		if (n)
			printf("truncated_capture/%s %lld\n", t, n);
	}
	sqlite3_finalize(st);
	printf("truncated_capture %lld\n", total);
}

static void graph_trace_rows(void)
{
	long long n = has_table(GR) ? one("SELECT count(*) FROM " GR) : 0;
	printf("graph_trace_rows %lld\n", n);
	if (n)
		printf("graph_trace_rows/" GR " %lld\n", n);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fputs("usage: brute_check EXPORT\n", stderr);
		return 2;
	}
	if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		die(argv[1]);
	const char *const gpu[] = { K, MC, MS, GR };
	for (int i = 0; i < 4; i++)
		if (has_table(gpu[i]) && !has_column(gpu[i], "globalPid"))
			per_process = 0;
	backtrace_rows();
	orphan_gpu_rows();
	launches_without_gpu();
	duplicate_gpu_rows();
	correlation_collisions();
	bad_durations();
	stream_overlap();
	open_ranges();
	truncated_capture();
	graph_trace_rows();
	sqlite3_close(db);
	return 0;
}
