/* Event tables as columns in memory, loaded once per export and shared by
 * every report of the run.
 *
 * Before the first report runs, the caller declares every column that the
 * run's reports need (nst_ev_want); the first request for a table then
 * reads all of its declared columns in one scan.  A column asked for later
 * costs one more scan of its table, never a wrong answer.
 *
 * Integer columns are int64 arrays with NULL stored as NST_NULL_I64; text
 * columns are arrays of strings (NULL for SQL NULL).  Rows are in rowid
 * order, which is the order nsys's SQL sees them in; the column "rowid"
 * is the rowid itself (tables nsys writes have no column of that name). */
#ifndef NSTATS_EVENTS_H
#define NSTATS_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/db.h"

#define NST_NULL_I64 INT64_MIN

struct nst_events;

struct nst_events *nst_ev_new(struct nst_db *db);
void nst_ev_free(struct nst_events *ev);
struct nst_db *nst_ev_db(struct nst_events *ev);
/* Reading a table of millions of rows says how far it is, on stderr. */
void nst_ev_show_progress(struct nst_events *ev, bool on);

/* Declares that the run will need table.column; text for TEXT columns. */
enum nst_status nst_ev_want(struct nst_events *ev, const char *table,
			    const char *column, bool text);

/* Reads every table with declared columns now, two tables at a time on
 * two threads (each with its own connection); what is read does not
 * depend on the threads' timing.  Optional: tables are read on demand
 * otherwise. */
enum nst_status nst_ev_preload(struct nst_events *ev, struct nst_error *err);

/* Rows of table (0 when it does not exist). */
enum nst_status nst_ev_rows(struct nst_events *ev, const char *table,
			    size_t *n, struct nst_error *err);

/* *out is the column, or NULL when the table or the column does not exist
 * in this export (that is not an error). */
enum nst_status nst_ev_i64(struct nst_events *ev, const char *table,
			   const char *column, const int64_t **out,
			   struct nst_error *err);
enum nst_status nst_ev_text(struct nst_events *ev, const char *table,
			    const char *column, const char *const **out,
			    struct nst_error *err);

#endif
