/* libFuzzer harness, differential: the input is a SQLite image, read as an
 * export twice, once from its b-tree pages (src/db/pages.c, the default)
 * and once through SQLite alone (nst_options.sqlite_reader).  Each report
 * of a set that reads every column kind the page reader handles (integers
 * of every width, reals, text, NULLs, rowids) must give the same bytes and
 * the same status and message either way: the page reader reads a table as
 * SQLite does, or declines it and SQLite reads it.  A difference aborts.
 *
 * Only on a file that passes PRAGMA quick_check: on one that does not,
 * SQLite's own answer can depend on the order it meets the pages in (a
 * page that two tables' trees both claim reads as rows when one table is
 * read first and as "malformed" after the other), so there both ways are
 * run for the sanitizers and not compared.
 *
 * Then the cut of a table into parts for several readers (src/db/pages.c,
 * nst_db_plan_pages): for a few tables, the rows of every part, one after
 * the other, must be the rows of the whole table whenever both reads
 * succeed. */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "db/db.h"
#include "fuzz.h"
#include "nstats/nstats.h"

static const char *const REPORTS[] = {
	"cuda_gpu_trace", "cuda_api_trace", "nvtx_pushpop_trace", "osrt_sum",
	"cuda_gpu_mem_size_sum", "nvtx_sum", "cuda_kern_exec_trace",
};

struct outcome {
	char *text;
	size_t len;
	enum nst_status status;
	char msg[sizeof((struct nst_error *)0)->msg];
};

static void run_report(struct nst_export *x, const char *spec, const struct nst_format *fmt,
		       FILE *out, struct outcome *o)
{
	struct nst_job *job = NULL;
	struct nst_error err = { 0 };
	o->status = nst_job_parse(NST_REPORTS, spec, &job, &err);
	if (o->status == NST_OK)
		o->status = nst_run(x, &(struct nst_run){ .job = job, .format = fmt, .out = out },
				    NULL, &err);
	snprintf(o->msg, sizeof o->msg, "%s", o->status == NST_OK ? "" : err.msg);
	nst_job_free(job);
}

/* Every report on path, read one way, its text and its last failure. */
static void read_all(const char *path, bool sqlite, const struct nst_format *fmt,
		     struct outcome *o)
{
	memset(o, 0, sizeof *o);
	FILE *out = open_memstream(&o->text, &o->len);
	if (!out)
		abort();
	struct nst_options opt = { .version = NST_API_VERSION, .read_threads = 1,
				   .sqlite_reader = sqlite };
	struct nst_export *x = NULL;
	struct nst_error err = { 0 };
	o->status = nst_export_open(path, &opt, &x, &err);
	if (o->status != NST_OK)
		snprintf(o->msg, sizeof o->msg, "%s", err.msg);
	for (size_t i = 0; x && i < sizeof REPORTS / sizeof *REPORTS; i++) {
		struct outcome one;
		run_report(x, REPORTS[i], fmt, out, &one);
		fprintf(out, "\n[%s: status %d: %s]\n", REPORTS[i], (int)one.status, one.msg);
	}
	nst_export_close(x);
	fclose(out);
}

/* The cells of a table's rows, one read after another, as bytes. */
struct rows {
	FILE *out;
	char *buf;
	size_t len;
};

static int keep_row(void *arg, const struct nst_page_cell *cells)
{
	struct rows *r = arg;
	for (size_t k = 0; k < 3; k++) {
		const struct nst_page_cell *c = &cells[k];
		/* a cell's other fields are left as they were: only its kind's count */
		if (c->kind == NST_CELL_INT)
			fprintf(r->out, "i%lld|", (long long)c->i);
		else if (c->kind == NST_CELL_REAL)
			fprintf(r->out, "r%a|", c->r);
		else if (c->kind == NST_CELL_TEXT)
			fprintf(r->out, "t%.*s|", (int)c->n, c->s);
		else
			fprintf(r->out, "k%d|", (int)c->kind);
	}
	fputc('\n', r->out);
	return 0;
}

/* Each table's rows whole and in 1 to 4 parts: the same rows when both
 * reads succeed. */
static void compare_parts(const char *path)
{
	static const char *const tables[] = { "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME",
					      "NVTX_EVENTS", "OSRT_API" };
	static const char *const cols[] = { "rowid", "start", "end" };
	struct nst_db *db = NULL;
	struct nst_error err = { 0 };
	if (nst_db_open(path, &db, &err) != NST_OK)
		return;
	for (size_t i = 0; i < sizeof tables / sizeof *tables; i++) {
		struct rows whole = { 0 }, cut = { 0 };
		whole.out = open_memstream(&whole.buf, &whole.len);
		cut.out = open_memstream(&cut.buf, &cut.len);
		if (!whole.out || !cut.out)
			abort();
		int rw = nst_db_scan_pages(db, tables[i], cols, 3, keep_row, &whole);
		struct nst_page_plan plan;
		int rc = nst_db_plan_pages(db, tables[i], 1 + i, &plan);
		for (size_t k = 0; rc == NST_PAGES_OK && k < plan.nparts; k++)
			rc = nst_db_scan_part(db, tables[i], cols, 3, &plan, k, keep_row, &cut);
		nst_page_plan_free(&plan);
		fclose(whole.out);
		fclose(cut.out);
		if (rw == NST_PAGES_OK && rc == NST_PAGES_OK &&
		    (whole.len != cut.len || memcmp(whole.buf, cut.buf, whole.len) != 0)) {
			fprintf(stderr, "fuzz_pages: %s read whole and in parts differ\n--- whole\n%.*s\n"
				"--- parts\n%.*s\n", tables[i], (int)(whole.len < 2000 ? whole.len : 2000),
				whole.buf, (int)(cut.len < 2000 ? cut.len : 2000), cut.buf);
			abort();
		}
		free(whole.buf);
		free(cut.buf);
	}
	nst_db_close(db);
}

/* Whether SQLite finds path's b-trees well formed. */
static bool well_formed(const char *path)
{
	sqlite3 *h = NULL;
	sqlite3_stmt *st = NULL;
	bool ok = sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
		  sqlite3_prepare_v2(h, "PRAGMA quick_check", -1, &st, NULL) == SQLITE_OK &&
		  sqlite3_step(st) == SQLITE_ROW &&
		  strcmp((const char *)sqlite3_column_text(st, 0), "ok") == 0;
	sqlite3_finalize(st);
	sqlite3_close(h);
	return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_setup();
	const char *path = "pages.sqlite";
	if (fuzz_write(path, data, size) != 0)
		return 0;
	struct nst_format *fmt = NULL;
	struct nst_error err;
	if (nst_format_parse("csv", NULL, &fmt, &err) != NST_OK)
		abort();
	struct outcome pages, sqlite;
	read_all(path, false, fmt, &pages);
	read_all(path, true, fmt, &sqlite);
	bool differ = pages.status != sqlite.status || strcmp(pages.msg, sqlite.msg) != 0 ||
		      pages.len != sqlite.len || memcmp(pages.text, sqlite.text, pages.len) != 0;
	if (differ && well_formed(path)) {
		fprintf(stderr, "fuzz_pages: the page reader and SQLite disagree\n"
				"--- pages (status %d: %s)\n%.*s\n--- sqlite (status %d: %s)\n%.*s\n",
			(int)pages.status, pages.msg, (int)(pages.len < 4000 ? pages.len : 4000),
			pages.text, (int)sqlite.status, sqlite.msg,
			(int)(sqlite.len < 4000 ? sqlite.len : 4000), sqlite.text);
		abort();
	}
	compare_parts(path);
	free(pages.text);
	free(sqlite.text);
	nst_format_free(fmt);
	return 0;
}
