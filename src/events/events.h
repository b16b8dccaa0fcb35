/* Event tables as columns in memory, loaded once per export and shared by
 * every report of the run.
 *
 * Before the first report runs, the caller declares every column that the
 * run's reports need (nst_ev_want); the first request for a table then
 * reads all of its declared columns in one scan.  A column asked for later
 * costs one more scan of its table, never a wrong answer.
 *
 * Integer columns are stored as 32-bit offsets from the column's first
 * value while every value fits, else as int64 (struct nst_col): half the
 * memory for ids, classes and dimensions.  nst_ev_col() lends a column at
 * the width it has; nst_ev_i64() makes it int64 for good, for readers not
 * moved to nst_col yet.  A NULL value reads as NST_NULL_I64.  Text
 * columns are arrays of strings (NULL for SQL NULL).  Rows are in rowid
 * order, which is the order nsys's SQL sees them in; the column "rowid"
 * is the rowid itself (tables nsys writes have no column of that name). */
#ifndef NSTATS_EVENTS_H
#define NSTATS_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/col.h"
#include "db/db.h"

struct nst_events;

/* o (may be NULL; borrowed, must outlive ev) says how many threads read
 * and where progress and timing go (nstats.h). */
struct nst_events *nst_ev_new(struct nst_db *db, const struct nst_options *o);
void nst_ev_free(struct nst_events *ev);
struct nst_db *nst_ev_db(struct nst_events *ev);
/* A line to o's timing hook (when it has one), never two at once: reader
 * threads and reports on other threads send theirs too. */
void nst_ev_timing(struct nst_events *ev, const char *line);

/* Declares that the run will need table.column; text for TEXT columns. */
enum nst_status nst_ev_want(struct nst_events *ev, const char *table,
			    const char *column, bool text);

/* Reads every table with declared columns now, two tables at a time on
 * two threads (each with its own connection) unless the options say one;
 * what is read does not depend on the threads' timing.  Optional: tables
 * are read on demand otherwise. */
enum nst_status nst_ev_preload(struct nst_events *ev, struct nst_error *err);

/* Freeing tables after their last reader, for runs of jobs one after
 * another.  Columns declared after nst_ev_plan(ev, j) are job j's (jobs
 * in increasing order); NST_EV_NO_JOB ends that.  Then, between jobs
 * (never while one reads), nst_ev_drop_after() frees the tables that no
 * job after j declared, and returns the bytes that gave back.  Whatever
 * was lent from a freed table is gone; a table asked for again is read
 * again; a table no job declared is kept.  A view keeps its tables (0). */
#define NST_EV_NO_JOB SIZE_MAX
void nst_ev_plan(struct nst_events *ev, size_t j);
size_t nst_ev_drop_after(struct nst_events *ev, size_t j);

/* Rows of table (0 when it does not exist). */
enum nst_status nst_ev_rows(struct nst_events *ev, const char *table,
			    size_t *n, struct nst_error *err);

/* *out is the column, or NULL when the table or the column does not exist
 * in this export (that is not an error). */
enum nst_status nst_ev_i64(struct nst_events *ev, const char *table,
			   const char *column, const int64_t **out,
			   struct nst_error *err);
/* The same without widening: the column at the width it is stored in. */
enum nst_status nst_ev_col(struct nst_events *ev, const char *table,
			   const char *column, const struct nst_col **out,
			   struct nst_error *err);
enum nst_status nst_ev_text(struct nst_events *ev, const char *table,
			    const char *column, const char *const **out,
			    struct nst_error *err);

/* ---- durations ------------------------------------------------------- */

/* A table's durations, end - start, as one column: declared (nst_ev_want)
 * by reports that read no start or end of their own, the summaries, so
 * that a run of them holds 4 bytes a row where start and end take 16.
 * The name is no column's: no identifier of an export has a '-'. */
#define NST_EV_DURATION "end-start"

/* A column named "COLUMN=N" is 1 in the rows where COLUMN holds N, else
 * 0 (NULL too): a class tested in every row (a CUDA backtrace record's
 * eventClass 67) takes no memory where no row has it (a constant), where
 * the class itself takes 4 bytes a row.  NST_EV_FLAG("eventClass", 67). */
#define NST_EV_FLAG(column, n) column "=" #n

/* The durations of a table's rows (struct nst_span, core/col.h): the
 * column of NST_EV_DURATION, or end - start when the run reads start and
 * end anyway (a trace, a filter).  nst_span_none(out) when the table or
 * its start or end does not exist in this export. */
enum nst_status nst_ev_durations(struct nst_events *ev, const char *table,
				 struct nst_span *out, struct nst_error *err);

/* ---- time/NVTX filters ------------------------------------------------- */

/* A filtered view (nst_ev_filter) reads like the events it filters, with
 * the rows of every table that has both start and end columns cut to a
 * time window (and a thread or process): the shadowing views nsys puts
 * over such tables for --filter-time/--filter-nvtx.  Other tables read
 * through unchanged; "rowid" keeps each row's rowid. */

enum nst_ev_scope {
	NST_EV_ALL_THREADS,
	NST_EV_THREAD,  /* globalTid == gtid (globalPid: gtid's process) */
	NST_EV_PROCESS, /* the process of globalTid (or globalPid) is gtid's */
};

/* A row stays when it overlaps [start, end) the way nsys's filter says:
 * (start >= S AND start < E) OR (end >= S AND end < E) OR
 * (start < S AND end >= E), with SQL's NULLs (a NULL end overlaps only
 * through its start).  Tables without globalTid or globalPid ignore the
 * scope. */
struct nst_ev_window {
	int64_t start, end;
	enum nst_ev_scope scope;
	int64_t gtid;
};

/* The view of `all` through w; `all` must outlive it.  nst_ev_free()
 * frees the view only.  Columns are declared and preloaded on `all`. */
struct nst_events *nst_ev_filter(struct nst_events *all,
				 const struct nst_ev_window *w);
/* Declares on the unfiltered events the columns that filtering table
 * reads, so that a filtered run scans it once too. */
enum nst_status nst_ev_want_filter(struct nst_events *ev, const char *table);
/* The unfiltered events under ev (ev itself when it is not a view). */
struct nst_events *nst_ev_all(struct nst_events *ev);
/* The window ev is cut to, NULL when ev is not a filtered view: reports
 * that measure time within the window (gpu_time_sum) cut rows to it. */
const struct nst_ev_window *nst_ev_window_of(const struct nst_events *ev);

/* The window of an NVTX range as nsys's `nvtx=NAME[@DOMAIN][/INDEX]` finds
 * it: ranges (event types 59, 60, 70, 71) named NAME (text, else the
 * registered string) with "@DOMAIN" when their domain (created in the same
 * process) has a name, ordered by start; INDEX (0 when absent or when
 * what follows the last '/' is not a number) picks one.  Its scope is
 * its thread when the thread is not the process's main thread, else its
 * process.  "DOMAIN:RANGE", as nvtx_sum prints it, is "RANGE@DOMAIN" when
 * no range is named as given.  NST_ERR_NODATA with nsys's message when
 * there is none (or no NVTX_EVENTS table); *open says the range never
 * ended (w->end is then INT64_MAX). */
enum nst_status nst_ev_nvtx_window(struct nst_db *db, const char *spec,
				   struct nst_ev_window *w, bool *open,
				   struct nst_error *err);
/* When spec finds no range (and the export has NVTX data): what is there
 * instead, "there are 5 ranges backward, /0 to /4" when the index is past
 * the last, or "did you mean backward@app?"; else (and when nothing is
 * close) "". */
enum nst_status nst_ev_nvtx_hint(struct nst_db *db, const char *spec, char *hint, size_t size,
				 struct nst_error *err);

#endif
