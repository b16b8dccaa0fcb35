/* The run engine behind include/nstats/nstats.h: an export opened once,
 * the columns of every job declared and read in one scan per table, the
 * tables cut to each distinct filter once, and each job run into a sink
 * or a formatter.  Every front-end (stats, analyze, check and those to
 * come) goes through it and needs nothing of another.
 *
 *   catalog.c  reports, rules and findings by name; jobs ("name:args")
 *   filter.c   --filter-time, each job's filter, the filtered events
 *   export.c   opening an export (.sqlite, the one beside a .nsys-rep, or a
 *              PyTorch profiler trace read into one in memory)
 *   run.c      declaring and reading columns, running one job
 *   audit.c    the audit of an export (src/check) through the API
 *   recipe.c   one export's part of a recipe (src/recipe)
 */
#ifndef NSTATS_RUN_H
#define NSTATS_RUN_H

#include "events/events.h"
#include "nstats/nstats.h"
#include "reports/report.h"

struct nst_job {
	enum nst_catalog cat;
	const struct nst_report *report;
	char *spec;              /* as given */
	char *name;              /* points into buf */
	struct nst_arg *args;    /* keys and values point into buf */
	size_t nargs;
	char *buf;
	/* A report of a --report-dir (src/sqlreport), borrowed from its
	 * struct nst_report_dir; NULL for the catalogs' own. */
	const struct sqlreport *sql;
};

struct run_views;

struct nst_export {
	struct nst_options opts;  /* the caller's, or the defaults */
	char *path;               /* the file read: an SQLite export or a trace */
	struct nst_db *db;
	struct nst_events *ev;    /* every row: nsys's main.X */
	struct nst_shared *shared; /* what reports derive from ev */
	struct run_views *views;  /* ev cut to each filter met so far */
};

/* ---- catalog.c ---- */

const struct nst_report *run_report_find(enum nst_catalog c, const char *name);
/* A job of spec ("name:args") of report r, or of the catalog's report of
 * that name when r is NULL, its arguments checked against r's. */
enum nst_status run_job_new(enum nst_catalog c, const struct nst_report *r, const char *spec,
			    struct nst_job **out, struct nst_error *err);

/* ---- filter.c ---- */

/* A job's filter: the run's, then the job's start=, end=, nvtx=, the last
 * of each winning (nsys puts the run's before the report's); an NVTX
 * range drops the run's times. */
void run_filter_of(const struct nst_filter *run, const struct nst_job *job,
		   struct nst_filter *out);
bool run_filter_is_none(const struct nst_filter *f);
/* The window of a filter: the NVTX range's (NST_ERR_NODATA with nsys's
 * message when it is not there), with start=/end= replacing its ends;
 * without a range, 0 and INT64_MAX stand for what is not given. */
enum nst_status run_filter_window(struct nst_db *db, const struct nst_filter *f,
				  struct nst_ev_window *w, struct nst_error *err);
/* The argument keys every job takes, and the check of their values:
 * NST_ERR_USAGE with nsys's message. */
bool run_filter_is_arg(const char *key);
/* Those argument names, NULL-terminated: start, end, nvtx. */
const char *const *run_filter_args(void);
enum nst_status run_filter_check_arg(const char *job, const struct nst_arg *a,
				     struct nst_error *err);

/* The events that each filter of a run over one export sees, made once
 * per distinct filter. */
struct run_views *run_views_new(struct nst_db *db, struct nst_events *all,
				struct nst_shared *all_shared);
/* NST_ERR_NODATA with nsys's message when the NVTX range is not there;
 * *ev is then a view without rows, for the report's own checks of its
 * tables, which nsys makes first. */
enum nst_status run_views_get(struct run_views *v, const struct nst_filter *f,
			      struct nst_events **ev, struct nst_shared **shared,
			      struct nst_error *err);
void run_views_free(struct run_views *v);
/* Whether a filtered view has been made. */
bool run_views_any(struct run_views *v);

/* ---- top_rows.c ---- */

/* rows=N of a report flagged NST_REPORT_TOP_ROWS: a positive integer,
 * checked when the job is parsed (NST_ERR_USAGE otherwise). */
enum nst_status run_top_rows_check(const struct nst_job *job, struct nst_error *err);
/* N, or SIZE_MAX when the job keeps every row. */
size_t run_top_rows_of(const struct nst_job *job);
/* A sink that hands `to` the first `limit` rows and drops the rest. */
struct run_top_rows {
	const struct nst_sink *to;
	size_t left;
};
struct nst_sink run_top_rows_sink(struct run_top_rows *t, const struct nst_sink *to,
				  size_t limit);

/* ---- run.c ---- */

/* Runs body(arg, sink) with the run's sink, or with the formatter of its
 * format opened on the run's stream when the first line comes, finished
 * after: every job's way to its output. */
typedef enum nst_status (*run_body_fn)(void *arg, const struct nst_sink *out,
				       struct nst_error *err);
/* res: what the body measured beside its rows (NULL for none), for the
 * formats that carry it (json:typed). */
enum nst_status run_output(const struct nst_run *run, run_body_fn body, void *arg,
			   const struct nst_run_result *res, struct nst_error *err);
/* The same under another title and name (a recipe's tables). */
enum nst_status run_output_as(const struct nst_run *run, const char *title, const char *name,
			      run_body_fn body, void *arg, const struct nst_run_result *res,
			      struct nst_error *err);
/* An error of the export raised where its name is not known gets it:
 * every input error names its file. */
enum nst_status run_name_export(const struct nst_export *x, enum nst_status s,
				struct nst_error *err);
/* A sink that keeps nothing: a report run only for whether it can run. */
extern const struct nst_sink run_discard;

/* ---- export.c ---- */

/* An .sqlite path as it is; for a .nsys-rep (or .qdrep), the .sqlite
 * beside it (or o->sqlite), made with `nsys export` when it is missing or
 * older, or when o->force_export.  *path is malloc'd. */
enum nst_status run_resolve_input(const char *input, const struct nst_options *o, char **path,
				  struct nst_error *err);

#endif
