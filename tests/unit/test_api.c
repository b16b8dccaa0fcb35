/* The public API (include/nstats/nstats.h) as a program uses it: open and
 * close, a report through a sink and as text, filters, every error path
 * (status and message naming the export), silence on stdout and stderr,
 * two exports on two threads giving the bytes they give one after the
 * other, and a PyTorch profiler trace opened as an export.  The exports
 * come from nsysgen (the Makefile passes their paths); expected numbers
 * come from SQL over the same files, not from nstats. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "nstats/nstats.h"

#ifndef API_EXPORT_A
#error "API_EXPORT_A and API_EXPORT_B: the exports this test reads (see the Makefile)"
#endif

#define COUNT(a) (sizeof(a) / sizeof *(a))

static struct nst_job *job(enum nst_catalog c, const char *spec)
{
	struct nst_job *j = NULL;
	struct nst_error err = { 0 };
	enum nst_status s = nst_job_parse(c, spec, &j, &err);
	if (s != NST_OK)
		fail_msg("%s: %s", spec, err.msg);
	return j;
}

static struct nst_export *open_export(const char *path)
{
	struct nst_export *x = NULL;
	struct nst_error err = { 0 };
	if (nst_export_open(path, NULL, &x, &err) != NST_OK)
		fail_msg("%s", err.msg);
	return x;
}

/* ---- a sink that keeps what cuda_gpu_kern_sum sends ------------------------ */

struct totals {
	int name_col, total_col;
	size_t n;
	char names[64][512];
	int64_t total[64];
	bool began;
};

static enum nst_status totals_begin(void *ctx, const char *const *cols, size_t n,
				    struct nst_error *err)
{
	struct totals *t = ctx;
	(void)err;
	t->began = true;
	t->name_col = t->total_col = -1;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(cols[i], "Name") == 0)
			t->name_col = (int)i;
		if (strcmp(cols[i], "Total Time:dur_ns") == 0)
			t->total_col = (int)i;
	}
	return NST_OK;
}

static enum nst_status totals_row(void *ctx, const struct nst_cell *cells, struct nst_error *err)
{
	struct totals *t = ctx;
	if (t->n == COUNT(t->names))
		return nst_fail(err, NST_ERR_NOMEM, "test sink full");
	assert_int_equal(cells[t->name_col].kind, NST_TEXT);
	assert_int_equal(cells[t->total_col].kind, NST_INT);
	snprintf(t->names[t->n], sizeof t->names[0], "%s", cells[t->name_col].v.s);
	t->total[t->n++] = cells[t->total_col].v.i;
	return NST_OK;
}

/* The sum of kernel durations by demangled name, by SQL; where given, only
 * kernels that overlap [start, end). */
static int64_t sql_total(const char *path, const char *name, const char *where)
{
	sqlite3 *h;
	assert_int_equal(sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	char sql[1024];
	snprintf(sql, sizeof sql,
		 "SELECT sum(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s"
		 " ON s.id = k.demangledName WHERE s.value = ?1 AND (%s)", where ? where : "1");
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	int64_t v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(h);
	return v;
}

static int64_t sql_count(const char *path, const char *sql)
{
	sqlite3 *h;
	assert_int_equal(sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	int64_t v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(h);
	return v;
}

static void kernel_totals_through_a_sink(void **state)
{
	(void)state;
	struct nst_export *x = open_export(API_EXPORT_A);
	assert_string_equal(nst_export_path(x), API_EXPORT_A);
	struct nst_job *j = job(NST_REPORTS, "cuda_gpu_kern_sum");
	struct totals t = { 0 };
	struct nst_sink sink = { totals_begin, totals_row, NULL, &t };
	struct nst_error err = { 0 };
	struct nst_run_result res;
	assert_int_equal(nst_run(x, &(struct nst_run){ .job = j, .sink = &sink }, &res, &err), NST_OK);
	assert_true(t.began);
	assert_true(t.n > 0);
	assert_int_equal(t.n, sql_count(API_EXPORT_A, "SELECT count(DISTINCT demangledName)"
						     " FROM CUPTI_ACTIVITY_KIND_KERNEL"));
	for (size_t i = 0; i < t.n; i++)
		assert_int_equal(t.total[i], sql_total(API_EXPORT_A, t.names[i], NULL));
	assert_int_equal(res.hidden_graph_launches, 0);
	nst_job_free(j);
	nst_export_close(x);
}

/* nst_rows keeps every row with its columns, text copied: the same totals
 * by SQL, and a NULL cell out of range. */
static void rows_kept_in_memory(void **state)
{
	(void)state;
	struct nst_export *x = open_export(API_EXPORT_A);
	struct nst_job *j = job(NST_REPORTS, "cuda_gpu_kern_sum");
	struct nst_rows rows = { 0 };
	struct nst_sink sink = nst_rows_sink(&rows);
	struct nst_error err = { 0 };
	assert_int_equal(nst_run(x, &(struct nst_run){ .job = j, .sink = &sink }, NULL, &err), NST_OK);
	nst_job_free(j);
	nst_export_close(x); /* the rows outlive the export */
	assert_true(rows.begun);
	int name = nst_rows_col(&rows, "Name"), total = nst_rows_col(&rows, "Total Time");
	assert_true(name >= 0 && total >= 0);
	assert_string_equal(rows.cols[total], "Total Time:dur_ns");
	assert_int_equal(nst_rows_col(&rows, "Total"), -1);
	assert_int_equal(rows.nrows, sql_count(API_EXPORT_A, "SELECT count(DISTINCT demangledName)"
							 " FROM CUPTI_ACTIVITY_KIND_KERNEL"));
	for (size_t r = 0; r < rows.nrows; r++) {
		assert_int_equal(nst_rows_cell(&rows, r, name)->kind, NST_TEXT);
		assert_int_equal(nst_rows_cell(&rows, r, total)->v.i,
				 sql_total(API_EXPORT_A, nst_rows_cell(&rows, r, name)->v.s, NULL));
	}
	assert_int_equal(nst_rows_cell(&rows, rows.nrows, name)->kind, NST_NULL);
	assert_int_equal(nst_rows_cell(&rows, 0, (int)rows.ncols)->kind, NST_NULL);
	assert_int_equal(nst_rows_cell(&rows, 0, -1)->kind, NST_NULL);
	nst_rows_release(&rows);
	assert_null(rows.cells);
	assert_int_equal(rows.nrows, 0);
}

/* The middle third of export A's kernels in time, as --filter-time parses
 * it into f, and as the SQL condition on kernels k that nsys's overlap
 * rule keeps. */
static void middle_third(struct nst_filter *f, char *where, size_t size)
{
	struct nst_error err = { 0 };
	int64_t lo = sql_count(API_EXPORT_A, "SELECT min(start) FROM CUPTI_ACTIVITY_KIND_KERNEL");
	int64_t hi = sql_count(API_EXPORT_A, "SELECT max(end) FROM CUPTI_ACTIVITY_KIND_KERNEL");
	char range[64];
	int64_t s = lo + (hi - lo) / 3, e = lo + 2 * (hi - lo) / 3;
	snprintf(range, sizeof range, "%lld/%lld", (long long)s, (long long)e);
	assert_int_equal(nst_filter_parse_time(range, f, &err), NST_OK);
	snprintf(where, size,
		 "(k.start >= %1$lld AND k.start < %2$lld) OR (k.end >= %1$lld AND k.end < %2$lld)"
		 " OR (k.start < %1$lld AND k.end >= %2$lld)", (long long)s, (long long)e);
}

static void a_time_filter_cuts_kernels(void **state)
{
	(void)state;
	struct nst_export *x = open_export(API_EXPORT_A);
	struct nst_filter f = { 0 };
	struct nst_error err = { 0 };
	/* the middle of the capture, as nsys's overlap rule keeps rows */
	char where[256];
	middle_third(&f, where, sizeof where);
	struct nst_job *j = job(NST_REPORTS, "cuda_gpu_kern_sum");
	struct totals t = { 0 };
	struct nst_sink sink = { totals_begin, totals_row, NULL, &t };
	assert_int_equal(nst_run(x, &(struct nst_run){ .job = j, .filter = &f, .sink = &sink },
				 NULL, &err), NST_OK);
	assert_true(t.n > 0);
	for (size_t i = 0; i < t.n; i++)
		assert_int_equal(t.total[i], sql_total(API_EXPORT_A, t.names[i], where));
	nst_job_free(j);
	nst_export_close(x);
}

/* ---- reports of one's own ------------------------------------------------------ */

/* dir/name.sql holding sql; dir made when needed. */
static void write_report(const char *dir, const char *name, const char *sql)
{
	char path[256];
	mkdir(dir, 0755);
	snprintf(path, sizeof path, "%s/%s.sql", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(sql, f);
	fclose(f);
}

static bool stop_now(void *arg)
{
	int *asked = arg;
	return ++*asked > 3;
}

/* A NAME.sql of a report directory runs through nst_run like a built-in
 * report: its tagged columns, the run's filter cutting what it reads, the
 * caller's interruption stopping a query that never ends; an options
 * struct of version 1 still opens an export. */
static void a_report_of_ones_own(void **state)
{
	(void)state;
	char dir[] = "/tmp/nstats-test-api-dir-XXXXXX";
	assert_non_null(mkdtemp(dir));
	write_report(dir, "kern", "-- Kernel totals\n-- By demangled name.\n"
		     "SELECT s.value AS \"Name\", sum(k.end - k.start) AS \"Total Time:dur_ns\"\n"
		     "FROM CUPTI_ACTIVITY_KIND_KERNEL AS k JOIN StringIds AS s ON s.id = k.demangledName\n"
		     "GROUP BY 1\n");
	write_report(dir, "forever", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)"
		     " SELECT count(*) FROM c\n");
	struct nst_report_dir *d = NULL;
	struct nst_error err = { 0 };
	const char *dirs[] = { dir };
	assert_int_equal(nst_report_dir_open(dirs, 1, &d, &err), NST_OK);
	struct nst_about about;
	const char *path;
	assert_true(nst_report_dir_entry(d, 1, &about, &path));
	assert_string_equal(about.name, "kern");
	assert_string_equal(about.title, "Kernel totals");
	assert_string_equal(about.help, "By demangled name.");
	assert_false(nst_report_dir_entry(d, 2, &about, &path));
	struct nst_job *j = NULL;
	assert_int_equal(nst_report_dir_job(d, "nvtx_sum", &j, &err), NST_OK);
	assert_null(j);
	assert_int_equal(nst_report_dir_job(d, "kern", &j, &err), NST_OK);
	assert_non_null(j);

	/* version 1 of the options: the fields of version 2 are not read */
	struct nst_options v1 = { .version = 1, .read_threads = 1 };
	struct nst_export *x = NULL;
	assert_int_equal(nst_export_open(API_EXPORT_A, &v1, &x, &err), NST_OK);
	struct nst_filter f = { 0 };
	char where[256];
	middle_third(&f, where, sizeof where);
	struct totals t = { 0 };
	struct nst_sink sink = { totals_begin, totals_row, NULL, &t };
	assert_int_equal(nst_run(x, &(struct nst_run){ .job = j, .filter = &f, .sink = &sink },
				 NULL, &err), NST_OK);
	assert_true(t.n > 0);
	for (size_t i = 0; i < t.n; i++)
		assert_int_equal(t.total[i], sql_total(API_EXPORT_A, t.names[i], where));
	nst_export_close(x);
	nst_job_free(j);

	int asked = 0;
	struct nst_options o = { .version = NST_API_VERSION, .interrupted = stop_now, .arg = &asked };
	assert_int_equal(nst_export_open(API_EXPORT_A, &o, &x, &err), NST_OK);
	assert_int_equal(nst_report_dir_job(d, "forever", &j, &err), NST_OK);
	t = (struct totals){ 0 };
	assert_int_equal(nst_run(x, &(struct nst_run){ .job = j, .sink = &sink }, NULL, &err),
			 NST_ERR_INTERRUPTED);
	assert_int_equal(asked, 4);
	assert_false(t.began);
	nst_job_free(j);
	nst_export_close(x);
	nst_report_dir_close(d);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -r %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* ---- text ---------------------------------------------------------------------- */

/* Every report, rule and comparison (the export against itself) and the
 * audit in `fmt`, one after another, into one string. */
static char *all_as_text(const char *path, const char *fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	assert_non_null(out);
	struct nst_export *x = open_export(path);
	struct nst_format *f = NULL;
	struct nst_error err = { 0 };
	assert_int_equal(nst_format_parse(fmt, NULL, &f, &err), NST_OK);
	static const enum nst_catalog cats[] = { NST_REPORTS, NST_RULES };
	for (size_t c = 0; c < COUNT(cats); c++) {
		struct nst_about about;
		for (size_t i = 0; nst_catalog_entry(cats[c], i, &about); i++) {
			struct nst_job *j = job(cats[c], about.name);
			enum nst_status s = nst_run(x, &(struct nst_run){ .job = j, .format = f,
									  .out = out }, NULL, &err);
			if (s != NST_OK && s != NST_ERR_NODATA)
				fail_msg("%s on %s: %s", about.name, path, err.msg);
			fprintf(out, "[%s: %d]\n", about.name, (int)s);
			nst_job_free(j);
		}
	}
	/* every comparison, of the export with itself */
	struct nst_export *y = open_export(path);
	struct nst_about about;
	for (size_t i = 0; nst_catalog_entry(NST_DIFFS, i, &about); i++) {
		struct nst_job *j = job(NST_DIFFS, strcmp(about.name, "verdict") == 0 ? "verdict:gate=5"
											 : about.name);
		enum nst_status s = nst_diff(x, y, &(struct nst_run){ .job = j, .format = f,
								      .out = out }, NULL, &err);
		if (s != NST_OK && s != NST_ERR_NODATA)
			fail_msg("%s on %s: %s", about.name, path, err.msg);
		nst_job_free(j);
	}
	nst_export_close(y);
	struct nst_audit *a = NULL;
	assert_int_equal(nst_audit_run(x, NULL, 0, &a, &err), NST_OK);
	assert_int_equal(nst_audit_write(a, true, out, &err), NST_OK);
	nst_audit_free(a);
	nst_format_free(f);
	nst_export_close(x);
	fclose(out);
	return buf;
}

static void a_report_as_text(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct nst_export *x = open_export(API_EXPORT_A);
	struct nst_format *f = NULL;
	struct nst_error err = { 0 };
	assert_int_equal(nst_format_parse("csv:nohdr", NULL, &f, &err), NST_OK);
	assert_string_equal(nst_format_ext(f), "csv");
	struct nst_job *j = job(NST_REPORTS, "cuda_gpu_kern_sum:base");
	assert_string_equal(nst_job_name(j), "cuda_gpu_kern_sum");
	assert_string_equal(nst_job_spec(j), "cuda_gpu_kern_sum:base");
	assert_int_equal(nst_run(x, &(struct nst_run){ .job = j, .format = f, .out = out },
				 NULL, &err), NST_OK);
	fclose(out);
	/* one line a kernel name, no header */
	size_t lines = 0;
	for (char *p = buf; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, sql_count(API_EXPORT_A, "SELECT count(DISTINCT shortName)"
							" FROM CUPTI_ACTIVITY_KIND_KERNEL"));
	assert_null(strstr(buf, "Total Time"));
	free(buf);
	nst_job_free(j);
	nst_format_free(f);
	nst_export_close(x);
}

/* ---- errors -------------------------------------------------------------------- */

static void expect_error(enum nst_status got, enum nst_status want, const struct nst_error *err,
			 const char *needle)
{
	assert_int_equal(got, want);
	assert_int_equal(err->status, want);
	if (!strstr(err->msg, needle))
		fail_msg("'%s' does not say '%s'", err->msg, needle);
	assert_null(strchr(err->msg, '\n'));
}

static void opening_errors_name_the_file(void **state)
{
	(void)state;
	struct nst_export *x = (struct nst_export *)1;
	struct nst_error err = { 0 };
	expect_error(nst_export_open("/nonexistent/a.sqlite", NULL, &x, &err), NST_ERR_DB, &err,
		     "/nonexistent/a.sqlite: ");
	assert_null(x);
	char path[] = "/tmp/nstats-test-api-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_true(write(fd, "not a database at all", 21) == 21);
	close(fd);
	expect_error(nst_export_open(path, NULL, &x, &err), NST_ERR_DB, &err, path);
	unlink(path);
	struct nst_options bad = { .version = NST_API_VERSION + 1 };
	expect_error(nst_export_open(API_EXPORT_A, &bad, &x, &err), NST_ERR_USAGE, &err, "version");
	bad = (struct nst_options){ .version = NST_API_VERSION, .read_threads = 65 };
	expect_error(nst_export_open(API_EXPORT_A, &bad, &x, &err), NST_ERR_USAGE, &err,
		     "read_threads");
}

/* A PyTorch profiler trace opens as an export does, under its own path:
 * kernel totals in exact nanoseconds (ts and dur are microseconds), and a
 * bad trace's error names the file and the byte. */
static void a_pytorch_trace(void **state)
{
	(void)state;
	static const char trace[] =
		"{\"schemaVersion\": 1, \"traceEvents\": [\n"
		"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 7,"
		" \"tid\": 7, \"ts\": 100.5, \"dur\": 4, \"args\": {\"correlation\": 1}},\n"
		"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k1\", \"pid\": 0, \"tid\": 7,"
		" \"ts\": 110.25, \"dur\": 2.125, \"args\": {\"device\": 0, \"context\": 1, \"stream\": 7,"
		" \"correlation\": 1, \"registers per thread\": 16, \"grid\": [1, 1, 1],"
		" \"block\": [32, 1, 1]}},\n"
		"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k1\", \"pid\": 0, \"tid\": 7,"
		" \"ts\": 1712195495505543.2, \"dur\": 0.001, \"args\": {\"device\": 0, \"context\": 1,"
		" \"stream\": 7, \"registers per thread\": 16, \"grid\": [1, 1, 1], \"block\": [32, 1, 1]}}\n"
		"]}\n";
	char dir[] = "/tmp/nstats-test-api-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[64];
	snprintf(path, sizeof path, "%s/t.pt.trace.json", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(trace, 1, sizeof trace - 1, f), sizeof trace - 1);
	fclose(f);
	struct nst_export *x = open_export(path);
	assert_string_equal(nst_export_path(x), path);
	struct nst_job *j = job(NST_REPORTS, "cuda_gpu_kern_sum");
	struct totals t = { 0 };
	struct nst_sink sink = { totals_begin, totals_row, NULL, &t };
	struct nst_error err = { 0 };
	assert_int_equal(nst_export_load(x, NULL, &j, 1, &err), NST_OK);
	assert_int_equal(nst_run(x, &(struct nst_run){ .job = j, .sink = &sink }, NULL, &err), NST_OK);
	assert_int_equal(t.n, 1);
	assert_string_equal(t.names[0], "k1");
	assert_int_equal(t.total[0], 2125 + 1);
	nst_job_free(j);
	j = job(NST_REPORTS, "osrt_sum");
	expect_error(nst_run(x, &(struct nst_run){ .job = j, .sink = &sink }, NULL, &err),
		     NST_ERR_NODATA, &err, path);
	nst_job_free(j);
	nst_export_close(x);

	/* cut short: refused, naming the file and the byte where the text ends */
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(trace, 1, 60, f), 60);
	fclose(f);
	x = (struct nst_export *)1;
	expect_error(nst_export_open(path, NULL, &x, &err), NST_ERR_DB, &err, path);
	assert_null(x);
	char want[128];
	snprintf(want, sizeof want, "%s: byte 60: invalid JSON", path);
	expect_error(NST_ERR_DB, NST_ERR_DB, &err, want);
	unlink(path);
	rmdir(dir);
}

static void parsing_errors(void **state)
{
	(void)state;
	struct nst_job *j = (struct nst_job *)1;
	struct nst_error err = { 0 };
	expect_error(nst_job_parse(NST_REPORTS, "no_such_report", &j, &err), NST_ERR_UNKNOWN, &err,
		     "report 'no_such_report' could not be found");
	assert_null(j);
	expect_error(nst_job_parse(NST_RULES, "gpu_gaps:bogus=1", &j, &err), NST_ERR_UNKNOWN, &err,
		     "rule 'gpu_gaps': unknown argument 'bogus'");
	expect_error(nst_job_parse(NST_RULES, "gpu_gaps:rows=x", &j, &err), NST_ERR_USAGE, &err,
		     "rows=x");
	expect_error(nst_job_parse(NST_REPORTS, "cuda_api_sum:start=1s", &j, &err), NST_ERR_USAGE,
		     &err, "argument start: invalid int value '1s'");
	/* one integer grammar for every argument: Python's int() */
	assert_int_equal(nst_job_parse(NST_RULES, "gpu_gaps:rows= 1_000 :gap=+5", &j, &err), NST_OK);
	nst_job_free(j);
	assert_int_equal(nst_job_parse(NST_REPORTS, "cuda_api_sum:start=1_000", &j, &err), NST_OK);
	nst_job_free(j);
	struct nst_format *f = (struct nst_format *)1;
	expect_error(nst_format_parse("column:bogus", NULL, &f, &err), NST_ERR_USAGE, &err, "bogus");
	assert_null(f);
	struct nst_format_options o = { .version = NST_API_VERSION, .timeunit = "fortnights" };
	expect_error(nst_format_parse(NULL, &o, &f, &err), NST_ERR_USAGE, &err, "fortnights");
	struct nst_filter flt = { 0 };
	expect_error(nst_filter_parse_time("5x/", &flt, &err), NST_ERR_USAGE, &err, "unknown unit");
	expect_error(nst_filter_parse_time("2s/1s", &flt, &err), NST_ERR_USAGE, &err,
		     "start time must be less");
}

static enum nst_status failing_row(void *ctx, const struct nst_cell *cells, struct nst_error *err)
{
	(void)cells;
	return nst_fail(err, *(enum nst_status *)ctx, "the sink says no");
}

static enum nst_status ok_begin(void *ctx, const char *const *cols, size_t n,
				struct nst_error *err)
{
	(void)ctx, (void)cols, (void)n, (void)err;
	return NST_OK;
}

static FILE *no_stream(void *arg, struct nst_error *err)
{
	(void)arg;
	nst_fail(err, NST_ERR_IO, "cannot open the test's output");
	return NULL;
}

static void running_errors(void **state)
{
	(void)state;
	struct nst_export *x = open_export(API_EXPORT_A);
	struct nst_error err = { 0 };
	struct nst_job *kern = job(NST_REPORTS, "cuda_gpu_kern_sum");
	/* what the sink says failed is what comes back, for every kind */
	static const enum nst_status kinds[] = { NST_ERR_IO, NST_ERR_NOMEM };
	for (size_t i = 0; i < COUNT(kinds); i++) {
		enum nst_status kind = kinds[i];
		struct nst_sink sink = { ok_begin, failing_row, NULL, &kind };
		expect_error(nst_run(x, &(struct nst_run){ .job = kern, .sink = &sink }, NULL, &err),
			     kind, &err, "the sink says no");
	}
	struct nst_format *f = NULL;
	assert_int_equal(nst_format_parse("csv", NULL, &f, &err), NST_OK);
	expect_error(nst_run(x, &(struct nst_run){ .job = kern, .format = f, .open = no_stream },
			     NULL, &err), NST_ERR_IO, &err, "cannot open the test's output");
	expect_error(nst_run(x, &(struct nst_run){ .job = kern }, NULL, &err), NST_ERR_USAGE, &err,
		     "neither a sink nor a format");
	expect_error(nst_run(x, NULL, NULL, &err), NST_ERR_USAGE, &err, "no job");
	/* a range that is not there: skipped, naming the export */
	struct nst_filter nvtx = { .nvtx = "no such range" };
	struct totals t = { 0 };
	struct nst_sink sink = { totals_begin, totals_row, NULL, &t };
	expect_error(nst_run(x, &(struct nst_run){ .job = kern, .filter = &nvtx, .sink = &sink },
			     NULL, &err), NST_ERR_NODATA, &err, "example");
	/* a table the export lacks: skipped, naming the export */
	struct nst_job *dx = job(NST_REPORTS, "dx12_pix_sum");
	expect_error(nst_run(x, &(struct nst_run){ .job = dx, .sink = &sink }, NULL, &err),
		     NST_ERR_NODATA, &err, API_EXPORT_A);
	struct nst_audit *a = (struct nst_audit *)1;
	const char *names[] = { "cuda_api_sum", "nope" };
	expect_error(nst_audit_run(x, names, 2, &a, &err), NST_ERR_UNKNOWN, &err, "'nope'");
	assert_null(a);
	nst_job_free(dx);
	nst_job_free(kern);
	nst_format_free(f);
	nst_export_close(x);
}

/* ---- silence --------------------------------------------------------------------- */

static long size_of(int fd)
{
	struct stat st;
	assert_int_equal(fstat(fd, &st), 0);
	return (long)st.st_size;
}

/* Standard output and error are files while every report, rule and the
 * audit run in every format: neither may grow by a byte. */
static void nothing_on_stdout_or_stderr(void **state)
{
	(void)state;
	static const char *const formats[] = { "column", "table", "csv", "tsv", "json", "hdoc",
					       "htable" };
	fflush(stdout);
	fflush(stderr);
	int saved_out = dup(1), saved_err = dup(2);
	FILE *out = tmpfile(), *errf = tmpfile();
	assert_non_null(out);
	assert_non_null(errf);
	dup2(fileno(out), 1);
	dup2(fileno(errf), 2);
	for (size_t i = 0; i < COUNT(formats); i++)
		free(all_as_text(API_EXPORT_A, formats[i]));
	fflush(stdout);
	fflush(stderr);
	long out_bytes = size_of(1), err_bytes = size_of(2);
	dup2(saved_out, 1);
	dup2(saved_err, 2);
	close(saved_out);
	close(saved_err);
	fclose(out);
	fclose(errf);
	assert_int_equal(out_bytes, 0);
	assert_int_equal(err_bytes, 0);
}

/* ---- threads ----------------------------------------------------------------------- */

struct work {
	const char *path;
	char *text;
};

static void *work(void *arg)
{
	struct work *w = arg;
	w->text = all_as_text(w->path, "column");
	return NULL;
}

static void two_exports_on_two_threads(void **state)
{
	(void)state;
	char *a = all_as_text(API_EXPORT_A, "column"), *b = all_as_text(API_EXPORT_B, "column");
	assert_string_not_equal(a, b);
	for (int round = 0; round < 3; round++) {
		struct work wa = { API_EXPORT_A, NULL }, wb = { API_EXPORT_B, NULL };
		pthread_t ta, tb;
		assert_int_equal(pthread_create(&ta, NULL, work, &wa), 0);
		assert_int_equal(pthread_create(&tb, NULL, work, &wb), 0);
		pthread_join(ta, NULL);
		pthread_join(tb, NULL);
		assert_string_equal(wa.text, a);
		assert_string_equal(wb.text, b);
		free(wa.text);
		free(wb.text);
	}
	free(a);
	free(b);
}

/* ---- the audit as rows, and the timing hook --------------------------------------------- */

struct findings {
	size_t rows, found;
	int64_t counted; /* the counts, summed */
};

static enum nst_status count_finding(void *ctx, const struct nst_cell *cells,
				     struct nst_error *err)
{
	struct findings *f = ctx;
	(void)err;
	assert_int_equal(cells[0].kind, NST_TEXT);
	assert_int_equal(cells[1].kind, NST_TEXT);
	f->rows++;
	f->found += strcmp(cells[1].v.s, "FOUND") == 0;
	f->counted += cells[2].kind == NST_INT ? cells[2].v.i : 0;
	return NST_OK;
}

struct lines {
	size_t reads;
	char table[32][64]; /* what each read read */
};

static void count_timing(void *arg, const char *line)
{
	struct lines *l = arg;
	assert_null(strchr(line, '\n'));
	if (strncmp(line, "read ", 5) != 0)
		return;
	if (l->reads < 32)
		sscanf(line + 5, "%63s", l->table[l->reads]);
	l->reads++;
}

static bool a_table_read_twice(const struct lines *l)
{
	for (size_t i = 0; i < l->reads && i < 32; i++)
		for (size_t k = 0; k < i; k++)
			if (strcmp(l->table[i], l->table[k]) == 0)
				return true;
	return false;
}

static void the_audit_and_the_hooks(void **state)
{
	(void)state;
	struct lines lines = { 0 };
	struct nst_options o = { .version = NST_API_VERSION, .read_threads = 1,
				 .timing = count_timing, .arg = &lines };
	struct nst_export *x = NULL;
	struct nst_error err = { 0 };
	assert_int_equal(nst_export_open(API_EXPORT_B, &o, &x, &err), NST_OK);
	struct nst_audit *a = NULL;
	assert_int_equal(nst_audit_run(x, NULL, 0, &a, &err), NST_OK);
	struct findings f = { 0 };
	struct nst_sink sink = { ok_begin, count_finding, NULL, &f };
	assert_int_equal(nst_audit_rows(a, &sink, &err), NST_OK);
	assert_int_equal(f.rows, nst_catalog_size(NST_FINDINGS));
	assert_int_equal(f.found, nst_audit_found(a));
	assert_true(lines.reads > 0);
	nst_audit_free(a);
	nst_export_close(x);
}

/* A report, then the audit, with or without asking for the audit's columns
 * before the load: whether a table was read twice, and what it found. */
static bool audit_after_a_report(bool want, struct findings *found)
{
	struct lines lines = { 0 };
	struct nst_options o = { .version = NST_API_VERSION, .timing = count_timing, .arg = &lines };
	struct nst_export *x = NULL;
	struct nst_error err = { 0 };
	assert_int_equal(nst_export_open(API_EXPORT_A, &o, &x, &err), NST_OK);
	struct nst_job *j = job(NST_REPORTS, "cuda_gpu_kern_sum");
	if (want)
		assert_int_equal(nst_audit_want(x, &err), NST_OK);
	assert_int_equal(nst_export_load(x, NULL, &j, 1, &err), NST_OK);
	struct totals t = { 0 };
	struct nst_sink sink = { totals_begin, totals_row, NULL, &t };
	assert_int_equal(nst_run(x, &(struct nst_run){ .job = j, .sink = &sink }, NULL, &err), NST_OK);
	assert_true(t.n > 0);
	struct nst_audit *a = NULL;
	const char *const probed[] = { "cuda_gpu_kern_sum" }; /* the reports already run */
	assert_int_equal(nst_audit_run(x, probed, 1, &a, &err), NST_OK);
	struct findings f = { 0 };
	assert_int_equal(nst_audit_rows(a, &(struct nst_sink){ ok_begin, count_finding, NULL, &f }, &err),
			 NST_OK);
	assert_int_equal(f.rows, nst_catalog_size(NST_FINDINGS));
	*found = f;
	nst_audit_free(a);
	nst_job_free(j);
	nst_export_close(x);
	assert_true(lines.reads > 0 && lines.reads <= 32);
	return a_table_read_twice(&lines);
}

/* Asked for before the load, the audit's columns come in the one scan of
 * each table that the reports make (without, the kernel table is read
 * again for them), and it finds the same. */
static void the_audit_read_with_the_reports(void **state)
{
	(void)state;
	struct findings alone, with;
	assert_true(audit_after_a_report(false, &alone));
	assert_false(audit_after_a_report(true, &with));
	assert_int_equal(with.found, alone.found);
	assert_int_equal(with.counted, alone.counted);
	assert_true(with.found > 0); /* the example's backtrace rows */
}

/* ---- comparing two exports ----------------------------------------------------------- */

struct deltas {
	int diff_total, status;
	size_t rows, nonzero;
	bool same;
};

static enum nst_status delta_cols(void *ctx, const char *const *cols, size_t n,
				  struct nst_error *err)
{
	struct deltas *d = ctx;
	(void)err;
	d->diff_total = d->status = -1;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(cols[i], "Diff Total:dur_ns") == 0)
			d->diff_total = (int)i;
		if (strcmp(cols[i], "Status") == 0)
			d->status = (int)i;
	}
	return NST_OK;
}

static enum nst_status delta_row(void *ctx, const struct nst_cell *cells, struct nst_error *err)
{
	struct deltas *d = ctx;
	(void)err;
	d->rows++;
	d->nonzero += cells[d->diff_total].kind != NST_INT || cells[d->diff_total].v.i != 0;
	/* the same instances on both sides: no significant change */
	d->same &= strcmp(cells[d->status].v.s, "~") == 0;
	return NST_OK;
}

static void an_export_against_itself(void **state)
{
	(void)state;
	struct nst_export *a = open_export(API_EXPORT_A), *b = open_export(API_EXPORT_A);
	struct nst_job *j = job(NST_DIFFS, "kern_diff");
	struct deltas d = { .same = true };
	struct nst_sink sink = { delta_cols, delta_row, NULL, &d };
	struct nst_error err = { 0 };
	struct nst_diff_result res;
	assert_int_equal(nst_diff(a, b, &(struct nst_run){ .job = j, .sink = &sink }, &res, &err),
			 NST_OK);
	assert_int_equal(d.rows, sql_count(API_EXPORT_A, "SELECT count(DISTINCT demangledName)"
							 " FROM CUPTI_ACTIVITY_KIND_KERNEL"));
	assert_int_equal(d.nonzero, 0);
	assert_true(d.same);
	assert_false(res.gate_failed);
	/* a comparison is no report of one export, and the other way round */
	expect_error(nst_run(a, &(struct nst_run){ .job = j, .sink = &sink }, NULL, &err),
		     NST_ERR_USAGE, &err, "nst_diff");
	struct nst_job *k = job(NST_REPORTS, "cuda_gpu_kern_sum");
	expect_error(nst_diff(a, b, &(struct nst_run){ .job = k, .sink = &sink }, NULL, &err),
		     NST_ERR_USAGE, &err, "nst_run");
	nst_job_free(k);
	nst_job_free(j);
	nst_export_close(a);
	nst_export_close(b);
}

/* ---- the catalog ------------------------------------------------------------------- */

static void the_catalog(void **state)
{
	(void)state;
	struct nst_about about;
	assert_true(nst_catalog_size(NST_REPORTS) > 40);
	assert_true(nst_catalog_find(NST_REPORTS, "gpu_time_sum", &about));
	assert_true(about.addition);
	assert_true(nst_catalog_find(NST_RULES, "gpu_gaps", &about));
	assert_false(about.addition);
	assert_true(nst_catalog_find(NST_FINDINGS, "schema", &about));
	assert_true(about.informational);
	assert_false(nst_catalog_entry(NST_RULES, nst_catalog_size(NST_RULES), &about));
	size_t n;
	const char *const *def = nst_catalog_defaults(NST_REPORTS, &n);
	assert_true(n > 0);
	assert_string_equal(def[0], "nvtx_sum");
	for (size_t i = 0; i < n; i++)
		assert_true(nst_catalog_find(NST_REPORTS, def[i], &about));
	/* what a front-end may hold in memory: a summary's rows, not a trace's */
	static const struct {
		enum nst_catalog cat;
		const char *spec;
		bool grows;
	} jobs[] = {
		{ NST_REPORTS, "cuda_api_sum", false }, { NST_REPORTS, "cuda_gpu_kern_sum:base", false },
		{ NST_REPORTS, "cuda_gpu_trace", true }, { NST_REPORTS, "nvtx_gpu_proj_trace", true },
		{ NST_RULES, "cuda_api_sync", true },
	};
	for (size_t i = 0; i < sizeof jobs / sizeof *jobs; i++) {
		struct nst_job *job;
		struct nst_error err = { 0 };
		assert_int_equal(nst_job_parse(jobs[i].cat, jobs[i].spec, &job, &err), NST_OK);
		if (nst_job_rows_grow(job) != jobs[i].grows)
			fail_msg("%s: rows grow %d", jobs[i].spec, !jobs[i].grows);
		nst_job_free(job);
	}
}

/* The first start and last end over every table with both columns, read
 * here with sqlite3 as a program would. */
static void brute_span(const char *path, int64_t *lo, int64_t *hi)
{
	sqlite3 *db;
	sqlite3_stmt *tables;
	*lo = INT64_MAX;
	*hi = INT64_MIN;
	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type = 'table'",
					    -1, &tables, NULL), SQLITE_OK);
	while (sqlite3_step(tables) == SQLITE_ROW) {
		char sql[512];
		sqlite3_stmt *st;
		snprintf(sql, sizeof sql, "SELECT min(start), max(coalesce(end, start)) FROM \"%s\"",
			 (const char *)sqlite3_column_text(tables, 0));
		if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
			continue; /* no start or end column */
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
			int64_t a = sqlite3_column_int64(st, 0), b = sqlite3_column_int64(st, 1);
			*lo = a < *lo ? a : *lo;
			*hi = b > *hi ? b : *hi;
		}
		sqlite3_finalize(st);
	}
	sqlite3_finalize(tables);
	sqlite3_close(db);
}

static void the_span_and_close_names(void **state)
{
	(void)state;
	struct nst_export *x = open_export(API_EXPORT_A);
	struct nst_error err = { 0 };
	int64_t start, end, lo, hi;
	assert_int_equal(nst_export_span(x, &start, &end, &err), NST_OK);
	brute_span(API_EXPORT_A, &lo, &hi);
	assert_true(lo < hi);
	assert_int_equal(start, lo);
	assert_int_equal(end, hi);
	nst_export_close(x);
	char buf[128];
	static const char *const names[] = { "stats", "analyze", "check", "diff" };
	assert_string_equal(nst_suggest_names("stat", names, 4, buf, sizeof buf), "did you mean stats?");
	assert_string_equal(nst_suggest_names("zzz", names, 4, buf, sizeof buf), "");
	/* the library's own messages end so */
	struct nst_job *j = NULL;
	expect_error(nst_job_parse(NST_REPORTS, "cuda_gpu_kern_summ", &j, &err), NST_ERR_UNKNOWN,
		     &err, "report 'cuda_gpu_kern_summ' could not be found; did you mean cuda_gpu_kern_sum?");
	struct nst_format *f = NULL;
	expect_error(nst_format_parse("cvs", NULL, &f, &err), NST_ERR_USAGE, &err,
		     "unknown format 'cvs'; did you mean csv?");
	assert_null(f);
}

/* ---- recipes: parts as bytes, split among owners, merged back -------------------- */

/* Every table of every recipe over exports A and B (and A again, as a
 * third rank), as csv text: the parts merged here, or first sent as bytes
 * (as a worker does), or split among `owners` that each reduce their
 * groups and send their rows to one writer (as MPI ranks do). */
enum recipe_path { DIRECT, AS_BYTES, OWNERS };

static struct nst_part *make_part(struct nst_export *x, const struct nst_job *j, uint32_t input)
{
	struct nst_part *p = NULL;
	struct nst_error err = { 0 };
	if (nst_part_make(x, j, input, NST_RANKS_AUTO, NULL, &p, &err) != NST_OK)
		fail_msg("%s: %s", nst_job_spec(j), err.msg);
	return p;
}

static struct nst_part *through_bytes(struct nst_part *p)
{
	void *buf = NULL;
	size_t len = 0;
	struct nst_part *q = NULL;
	struct nst_error err = { 0 };
	assert_int_equal(nst_part_save(p, &buf, &len, &err), NST_OK);
	nst_part_free(p);
	assert_int_equal(nst_part_load(buf, len, &q, &err), NST_OK);
	free(buf);
	return q;
}

static struct nst_merge *new_merge(const struct nst_job *j)
{
	struct nst_merge *m = NULL;
	struct nst_error err = { 0 };
	assert_int_equal(nst_merge_new(j, &m, &err), NST_OK);
	return m;
}

static void add(struct nst_merge *m, struct nst_part *p)
{
	struct nst_error err = { 0 };
	if (nst_merge_add(m, p, &err) != NST_OK)
		fail_msg("%s", err.msg);
}

/* What the owners of the groups do: each reduces its share and sends its
 * rows, as bytes, to the writer. */
static struct nst_merge *by_owners(const struct nst_job *j, struct nst_merge *m, size_t owners)
{
	struct nst_merge *writer = new_merge(j);
	struct nst_error err = { 0 };
	for (size_t o = 0; o < owners; o++) {
		struct nst_part *share = NULL, *rows = NULL;
		assert_int_equal(nst_merge_take(m, o, owners, &share, &err), NST_OK);
		struct nst_merge *owner = new_merge(j);
		add(owner, through_bytes(share));
		assert_int_equal(nst_merge_reduce(owner, &err), NST_OK);
		assert_int_equal(nst_merge_take(owner, 0, 1, &rows, &err), NST_OK);
		add(writer, through_bytes(rows));
		nst_merge_free(owner);
	}
	nst_merge_free(m);
	return writer;
}

static char *recipe_text(const char *spec, enum recipe_path path)
{
	const char *inputs[] = { API_EXPORT_A, API_EXPORT_B, API_EXPORT_A };
	struct nst_job *j = job(NST_RECIPES, spec);
	struct nst_merge *m = new_merge(j);
	for (uint32_t i = 0; i < COUNT(inputs); i++) {
		struct nst_export *x = open_export(inputs[i]);
		struct nst_part *p = make_part(x, j, i);
		nst_export_close(x);
		add(m, path == DIRECT ? p : through_bytes(p));
	}
	if (path == OWNERS)
		m = by_owners(j, m, 3);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct nst_format *f = NULL;
	struct nst_error err = { 0 };
	assert_int_equal(nst_format_parse("csv", NULL, &f, &err), NST_OK);
	for (size_t t = 0; nst_merge_table(m, t); t++)
		if (nst_merge_run(m, t, &(struct nst_run){ .job = j, .format = f, .out = out }, &err))
			fail_msg("%s: %s", spec, err.msg);
	fclose(out);
	nst_format_free(f);
	nst_merge_free(m);
	nst_job_free(j);
	return buf;
}

static void recipes_do_not_depend_on_the_split(void **state)
{
	(void)state;
	struct nst_about about;
	assert_true(nst_catalog_size(NST_RECIPES) > 0);
	for (size_t i = 0; nst_catalog_entry(NST_RECIPES, i, &about); i++) {
		char *direct = recipe_text(about.name, DIRECT);
		char *bytes = recipe_text(about.name, AS_BYTES);
		char *owners = recipe_text(about.name, OWNERS);
		assert_true(strlen(direct) > 0);
		assert_string_equal(direct, bytes);
		assert_string_equal(direct, owners);
		free(direct);
		free(bytes);
		free(owners);
	}
}

/* Bytes cut short anywhere, or changed, are an error, never a crash. */
static void broken_part_bytes(void **state)
{
	(void)state;
	struct nst_job *j = job(NST_RECIPES, "cuda_gpu_kern_sum");
	struct nst_export *x = open_export(API_EXPORT_A);
	struct nst_part *p = make_part(x, j, 0), *q = NULL;
	nst_export_close(x);
	void *buf = NULL;
	size_t len = 0;
	struct nst_error err = { 0 };
	assert_int_equal(nst_part_save(p, &buf, &len, &err), NST_OK);
	for (size_t cut = 0; cut < len; cut += 1 + cut / 64) {
		expect_error(nst_part_load(buf, cut, &q, &err), NST_ERR_DB, &err, "not a recipe part");
		assert_null(q);
	}
	((unsigned char *)buf)[0] ^= 1;
	expect_error(nst_part_load(buf, len, &q, &err), NST_ERR_DB, &err, "not a recipe part");
	free(buf);
	/* a part of another recipe, or of other arguments, does not merge */
	struct nst_job *other = job(NST_RECIPES, "cuda_gpu_kern_sum:base");
	struct nst_merge *m = new_merge(other);
	expect_error(nst_merge_add(m, p, &err), NST_ERR_USAGE, &err, "cannot be merged");
	nst_merge_free(m);
	nst_job_free(other);
	nst_job_free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kernel_totals_through_a_sink),
		cmocka_unit_test(rows_kept_in_memory),
		cmocka_unit_test(a_time_filter_cuts_kernels),
		cmocka_unit_test(a_report_as_text),
		cmocka_unit_test(opening_errors_name_the_file),
		cmocka_unit_test(a_pytorch_trace),
		cmocka_unit_test(parsing_errors),
		cmocka_unit_test(running_errors),
		cmocka_unit_test(nothing_on_stdout_or_stderr),
		cmocka_unit_test(two_exports_on_two_threads),
		cmocka_unit_test(the_audit_and_the_hooks),
		cmocka_unit_test(the_audit_read_with_the_reports),
		cmocka_unit_test(an_export_against_itself),
		cmocka_unit_test(the_catalog),
		cmocka_unit_test(the_span_and_close_names),
		cmocka_unit_test(a_report_of_ones_own),
		cmocka_unit_test(recipes_do_not_depend_on_the_split),
		cmocka_unit_test(broken_part_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
