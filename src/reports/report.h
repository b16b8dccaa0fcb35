/* Reports: one file per report, one row in registry.c.
 *
 * To add a report:
 *   1. write src/reports/<name>.c defining `const struct nst_report
 *      nst_report_<name>` (name, title, help, args, needs, run);
 *   2. add `&nst_report_<name>` to the table in src/reports/registry.c;
 *   3. add a golden test (tests/golden/) and, where nsys differs on
 *      purpose, a line in docs/deviations.md with its test.
 *
 * A report reads columns through ctx->ev, writes rows to the sink, and
 * returns NST_ERR_NODATA with nsys's message when the export lacks what it
 * needs.  It never prints. */
#ifndef NSTATS_REPORT_H
#define NSTATS_REPORT_H

#include <stdbool.h>

#include "core/arena.h"
#include "events/events.h"
#include "nstats/nstats.h"

/* A report argument as given: "base" or "rows=5". */
struct nst_arg {
	const char *key;
	const char *value; /* NULL for a flag */
};

/* A column the report reads; the run loads each table once for all. */
struct nst_need {
	const char *table;
	const char *column;
	bool text;
};

struct nst_shared; /* what reports derive once per export (common.c) */
struct nst_corrindex; /* core/corrindex.h */
struct nst_diff_ctx; /* two exports compared (src/diff/diff.h) */
struct nst_recipe;   /* many exports at once (src/recipe/recipe.h) */

struct nst_ctx {
	/* The events as the report's start=/end=/nvtx= filter shows them (all
	 * of them when it has none), and all of them whatever the filter:
	 * nsys's filter shadows `X`, not `main.X`. */
	struct nst_events *ev;
	struct nst_events *ev_all;
	/* The NVTX range that ev is cut to, NULL when none: the run sets it
	 * only once the range is found. */
	const char *nvtx;
	struct nst_db *db;
	struct nst_shared *shared;
	struct nst_shared *shared_all; /* what is derived from ev_all */
	const struct nst_arg *args;
	size_t nargs;
	struct nst_arena *arena; /* text of this report's rows */
	/* rows=N: the sink keeps the first N rows, so a report may skip the
	 * work of the others (SIZE_MAX, or 0 from a caller that never set it:
	 * every row). */
	size_t rows_kept;
};

struct nst_shared *nst_shared_new(void);
void nst_shared_free(struct nst_shared *sh);
/* Forgets everything derived so far (the tables under it are about to be
 * freed); not while a report runs. */
void nst_shared_reset(struct nst_shared *sh);
/* Gives sh an index of the runtime calls by (process, correlationId)
 * built elsewhere exactly as calls.c builds its own: over the runtime
 * rows that are not backtrace records, keyed on globalTid &
 * NST_PROCESS_BITS and correlationId.  sh takes it, zeroing *x, unless
 * it has one already (then *x is the caller's still). */
void nst_shared_adopt_call_index(struct nst_shared *sh, struct nst_corrindex *x);

enum nst_report_flags {
	NST_REPORT_ADDITION = 1 << 0, /* nstats's own, not in nsys */
	/* nsys finds the report's tables missing only in its query, after
	 * the filter: a filter that finds nothing wins over their message. */
	NST_REPORT_CHECKS_AFTER_FILTER = 1 << 1,
	/* The report shows kernels: after it runs, the driver notes the CUDA
	 * graph launches whose kernels it cannot see (reports/graph_note.h). */
	NST_REPORT_KERNELS = 1 << 2,
	/* The report counts or joins CUDA runtime calls, where nsys counts
	 * CUDA backtrace records as calls too (D1, D20): after it runs, the
	 * driver counts the records it left out (nst_run_result.excluded). */
	NST_REPORT_CALLS = 1 << 3,
	/* The report takes rows=N, its first N rows (src/run/top_rows.c);
	 * "rows" is in its args and NST_TOP_ROWS_HELP ends its help. */
	NST_REPORT_TOP_ROWS = 1 << 4,
	/* A row per event (a trace): the output grows with the capture, where
	 * a summary's rows are its groups (nst_job_rows_grow). */
	NST_REPORT_EVENT_ROWS = 1 << 5,
};

#define NST_TOP_ROWS_HELP \
	"rows=N keeps the first N rows, in the report's order (nstats addition)."


struct nst_report {
	const char *name;
	const char *title;   /* nsys's display name */
	const char *help;    /* --help-reports text */
	const char *const *args; /* accepted arguments, NULL-terminated */
	const struct nst_need *needs; /* read through ctx->ev; {NULL} terminated */
	/* Read through ctx->ev_all, unfiltered (may be NULL); a table may be
	 * in both lists: the run then holds it filtered and unfiltered. */
	const struct nst_need *needs_unfiltered;
	/* Optional, NULL-terminated: the tables without which the report reads
	 * nothing and says SKIPPED.  Where the export lacks one, the run reads
	 * none of its needs (a table it shares with reports that do run is read
	 * for theirs alone). */
	const char *const *requires;
	enum nst_status (*run)(struct nst_ctx *ctx, const struct nst_sink *out,
			       struct nst_error *err);
	unsigned flags;
	/* Optional: rejects bad argument values (rows=x) before any work,
	 * with NST_ERR_USAGE and a message. */
	enum nst_status (*check)(const struct nst_arg *args, size_t nargs,
				 struct nst_error *err);
	/* A report of `nstats diff` (src/diff) compares two exports: it has
	 * this instead of run, and reads each side through the reports it
	 * names (needs are theirs). */
	enum nst_status (*diff)(struct nst_diff_ctx *d, const struct nst_sink *out,
				struct nst_error *err);
	/* The reports of `nstats stats` a diff report reads on each side:
	 * their needs are its own.  NULL-terminated. */
	const char *const *sources;
	/* A recipe of `nstats recipe` (src/recipe) runs over many exports:
	 * it has this instead of run. */
	const struct nst_recipe *recipe;
};

/* The registry. */
const struct nst_report *nst_report_find(const char *name);
const struct nst_report *const *nst_report_all(size_t *n);
/* nsys's default report set, in order; names not implemented yet are
 * listed too, and nst_report_find() returns NULL for them. */
const char *const *nst_report_default_set(size_t *n);

/* ctx as nsys's `main.X` tables show the events: unfiltered. */
struct nst_ctx nst_ctx_unfiltered(const struct nst_ctx *ctx);

/* Whether the report was given the flag argument `key`. */
bool nst_ctx_flag(const struct nst_ctx *ctx, const char *key);
bool nst_args_flag(const struct nst_arg *args, size_t nargs, const char *key);
/* The value of `key=value`, or NULL. */
const char *nst_ctx_value(const struct nst_ctx *ctx, const char *key);

#endif
