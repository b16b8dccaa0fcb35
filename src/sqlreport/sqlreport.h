/* Reports of one's own: the NAME.sql files of `nstats stats --report-dir`
 * (docs/custom-reports.md), behind the nst_report_dir functions of
 * nstats.h.
 *
 *   dir.c    finding the reports of the directories, reading each file's
 *            title and help from its leading comment, making jobs of them
 *   query.c  running one on an export: a read-only connection of its own,
 *            the filter as TEMP views that shadow the tables, the guard
 *            that refuses anything but reading, the time limit and the
 *            caller's interruption, the rows streamed to the run's sink
 */
#ifndef NSTATS_SQLREPORT_H
#define NSTATS_SQLREPORT_H

#include "nstats/nstats.h"
#include "reports/report.h"

struct sqlreport {
	char *name;
	char *path;  /* DIR/NAME.sql, as messages name it */
	char *title, *help;
	char *sql;   /* the whole file: error offsets are its own */
	/* What the catalog code sees of it: name, title, help, arguments
	 * (start=, end=, nvtx=, which every job takes anyway). */
	struct nst_report report;
};

/* The line of byte `offset` of r's file, from 1. */
int sqlreport_line(const struct sqlreport *r, size_t offset);
/* The offset of the first byte of sql at or after `from` that is not
 * blank or inside a comment; strlen(sql) when none. */
size_t sqlreport_skip_blank(const char *sql, size_t from);

/* src as one line in dst: a line break as \n, other control characters
 * as \xNN (SQLite quotes the token it stopped at, which may hold one;
 * a file name may too). */
void sqlreport_one_line(char *dst, size_t size, const char *src);

struct nst_export;
/* Runs job's report on x: its rows through run's sink or format.  Errors
 * name the file and line ("DIR/NAME.sql:3: no such table: X"):
 * NST_ERR_USAGE when the query cannot be prepared or is refused,
 * NST_ERR_QUERY when it fails while it runs or runs past the time limit,
 * NST_ERR_INTERRUPTED when the caller's callback says stop, and
 * NST_ERR_NODATA with nsys's message when the filter's NVTX range is not
 * there. */
enum nst_status sqlreport_run(struct nst_export *x, const struct nst_run *run,
			      struct nst_error *err);

#endif
