/* `nstats check`: an audit of an export itself.  Is something in the
 * capture hiding or doubling work?  One file per finding, one row each in
 * registry.c; a finding fills a chk_result (a count, a breakdown, a few
 * example rows, a note) and the printers (print.c) render it as text or
 * JSON.  Findings only read the export: through the events layer for the
 * big tables (read once, on two threads), plain SQL through the read-only
 * handle for small lookups and counts; never a write, a temp table or an
 * index in it. */
#ifndef NSTATS_CHECK_H
#define NSTATS_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/arena.h"
#include "db/db.h"
#include "events/events.h"
#include "nstats/nstats.h"

#define CHK_NOT_CHECKED INT64_MIN
#define CHK_MAX_FIELDS 6
#define CHK_MAX_EXAMPLES 3
#define CHK_MAX_PARTS 64

/* An identifying field of an example row: a number, or text when text is
 * not NULL. */
struct chk_field {
	const char *name;
	int64_t num;
	const char *text;
};

struct chk_example {
	const char *table;
	int64_t rowid; /* CHK_NOT_CHECKED when the example is not one row */
	struct chk_field f[CHK_MAX_FIELDS];
	size_t nf;
};

/* One line of a finding's breakdown: "CUPTI_ACTIVITY_KIND_KERNEL: 3", or
 * with a reason instead of the count: "osrt_sum: SKIPPED: ...". */
struct chk_part {
	const char *name;
	int64_t count;
	const char *reason; /* NULL for a count alone */
};

struct chk_result {
	int64_t count; /* CHK_NOT_CHECKED: the export lacks what it needs */
	struct chk_part parts[CHK_MAX_PARTS];
	size_t nparts;
	struct chk_example ex[CHK_MAX_EXAMPLES];
	size_t nex;
	const char *note; /* why it was not checked, or what the count means */
	/* Findings that depend on the capture's settings name them here. */
	const char *explained_by;
};

struct chk_finding;
struct nst_corrindex;

/* Runs reports[i] of the check on the export, its rows thrown away:
 * NST_ERR_NODATA, with the SKIPPED message in err, when it would skip. */
struct chk_probe {
	enum nst_status (*run)(void *arg, size_t i, struct nst_error *err);
	void *arg;
	/* Offered, when the findings are done, the index of the runtime
	 * calls by (globalTid & CHK_PROCESS_BITS, correlationId) that they
	 * built (launches.h), for whatever runs next on the export to read
	 * instead of building its own: the callee takes it (zeroing *calls)
	 * or leaves it to be released.  May be NULL. */
	void (*adopt_calls)(void *arg, struct nst_corrindex *calls);
};

/* What the findings of one export share. */
struct chk_ctx {
	struct nst_db *db;
	struct nst_events *ev;
	struct nst_arena *arena; /* text of this export's results */
	/* The reports and rules whose needs the schema finding checks. */
	const char *const *reports;
	size_t nreports;
	const struct chk_probe *probe; /* NULL: the reports cannot be run */
	/* Every finding's result, in registry order: capture_options reads
	 * the others' (it runs last). */
	struct chk_result *results;
	const struct chk_finding *const *findings;
	size_t nfindings;
	struct chk_launches *launches; /* NULL until a finding asks (launches.h) */
};

struct chk_finding {
	const char *name;
	const char *title;   /* what the count counts, one line */
	const char *help;    /* --help: the exact rule it applies */
	const char *affects; /* the reports a positive count affects */
	/* Counted by --strict?  Informational findings never are. */
	bool informational;
	/* Declares the event columns it reads (may be NULL). */
	enum nst_status (*want)(struct nst_events *ev);
	enum nst_status (*run)(struct chk_ctx *ctx, struct chk_result *r,
			       struct nst_error *err);
};

/* The findings, in the order they run and print. */
const struct chk_finding *const *chk_findings(size_t *n);

/* ---- helpers for the findings (util.c) ---------------------------------- */

/* Adds an example when there is room; fields are (name, num) pairs given
 * through chk_num/chk_text.  Returns the example or NULL when full. */
struct chk_example *chk_example(struct chk_result *r, const char *table,
				int64_t rowid);
void chk_num(struct chk_example *e, const char *name, int64_t v);
void chk_text(struct chk_example *e, const char *name, const char *v);
/* Adds (or adds to) the part named `name` (a static or arena string). */
void chk_part_add(struct chk_result *r, const char *name, int64_t n);
/* Adds a part that gives a reason (a static or arena string) beside its
 * count of 1; the same name again adds 1 to it. */
void chk_part_reason(struct chk_result *r, const char *name, const char *reason);
/* The value of a column at row, or NST_NULL_I64 when the column is absent. */
static inline int64_t chk_at(const struct nst_col *col, size_t row)
{
	return nst_col_or_null(col, row);
}
/* One column as stored (nst_col_at reads it); *out is NULL when the table
 * or column is absent. */
enum nst_status chk_col(struct chk_ctx *ctx, const char *table, const char *col,
			const struct nst_col **out, struct nst_error *err);
/* Rows of a table (0 when absent). */
enum nst_status chk_rows(struct chk_ctx *ctx, const char *table, size_t *n,
			 struct nst_error *err);
/* One integer from an SQL query over the export; `dflt` when it gives no
 * row or NULL. */
enum nst_status chk_sql_i64(struct chk_ctx *ctx, const char *sql, int64_t dflt,
			    int64_t *out, struct nst_error *err);
/* A StringIds value, "" when the id points nowhere. */
const char *chk_string(struct chk_ctx *ctx, int64_t id);
/* Marks r not checked, saying so, when the export has none of tables[0..n);
 * returns whether it did. */
bool chk_lacks_all(struct chk_ctx *ctx, struct chk_result *r, const char *const *tables,
		   size_t n);
/* chk_lacks_all for one table. */
bool chk_lacks(struct chk_ctx *ctx, struct chk_result *r, const char *table);
/* The result of the named finding, or NULL. */
const struct chk_result *chk_result_of(const struct chk_ctx *ctx, const char *name);

/* The GPU activity tables whose rows the findings pair with launches. */
#define CHK_KERNEL "CUPTI_ACTIVITY_KIND_KERNEL"
#define CHK_MEMCPY "CUPTI_ACTIVITY_KIND_MEMCPY"
#define CHK_MEMSET "CUPTI_ACTIVITY_KIND_MEMSET"
#define CHK_GRAPH "CUPTI_ACTIVITY_KIND_GRAPH_TRACE"
#define CHK_RUNTIME "CUPTI_ACTIVITY_KIND_RUNTIME"
extern const char *const chk_gpu_tables[3]; /* kernel, memcpy, memset */

/* A runtime row that is a CUDA backtrace record: callchainId set or
 * eventClass 67 (the rule every report applies). */
static inline bool chk_is_backtrace(const struct nst_col *event_class,
				    const struct nst_col *callchain, size_t row)
{
	return chk_at(callchain, row) != NST_NULL_I64 || chk_at(event_class, row) == 67;
}
/* The process part of a globalTid or globalPid. */
#define CHK_PROCESS_BITS 0xFFFFFFFFFF000000ull
static inline int64_t chk_gpid(int64_t g)
{
	return g == NST_NULL_I64 ? 0 : (int64_t)((uint64_t)g & CHK_PROCESS_BITS);
}

/* ---- running and printing (run.c, print.c) -------------------------------- */

struct chk_report {
	const char *path;
	const char *schema_version, *product_version; /* NULL when absent */
	struct chk_result *results; /* one per finding */
	size_t n;
	const struct chk_finding *const *findings;
	struct nst_arena arena;
};

/* Declares the columns every finding reads, so that a load before chk_run
 * reads them in the scan of its own. */
enum nst_status chk_declare(struct nst_events *ev);
/* Runs every finding on an open export whose rows ev holds (borrowed: the
 * export's own store, so that columns its reports read already are not
 * read again).  reports: the names whose needs the schema finding checks
 * and that the probe (NULL: none) runs; o: the hooks of the export's
 * options. */
enum nst_status chk_run(struct nst_db *db, struct nst_events *ev, const struct nst_options *o,
			const char *const *reports, size_t nreports, const struct chk_probe *probe,
			struct chk_report *out, struct nst_error *err);
void chk_report_release(struct chk_report *rep);
/* Findings with a positive count that are not informational. */
size_t chk_found(const struct chk_report *rep);

/* FOUND, info, ok, or n/a, as the text shows a finding's status. */
const char *chk_status_word(const struct chk_finding *f, const struct chk_result *r);

void chk_print_text(FILE *out, const struct chk_report *rep);
void chk_print_json(FILE *out, const struct chk_report *rep);

#endif
