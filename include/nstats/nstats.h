/* nstats: statistics and trace reports from Nsight Systems SQLite exports.
 *
 * The library reads an export, runs reports and hands their rows to a row
 * sink (usually a formatter).  It never prints to stderr and never exits:
 * every failure comes back as a status plus a message in a struct nst_error,
 * and the caller prints it once.
 *
 * Ownership: a function named ..._open or ..._new returns an object the caller
 * releases with the matching ..._close or ..._free; "borrowed" pointers stay valid
 * until the object they came from is closed.
 */
#ifndef NSTATS_NSTATS_H
#define NSTATS_NSTATS_H

#include <stddef.h>
#include <stdint.h>

#define NSTATS_VERSION "0.1.0"

/* Status of every library call.  The CLI maps these to exit codes. */
enum nst_status {
	NST_OK = 0,
	NST_ERR_USAGE,     /* bad option or report argument */
	NST_ERR_DB,        /* the export cannot be opened or read */
	NST_ERR_NODATA,    /* the report cannot run: a table or column is missing */
	NST_ERR_IO,        /* writing output failed */
	NST_ERR_NOMEM,
	NST_ERR_INTERNAL,
};

/* One message, built where the failure is known; printed by the caller. */
struct nst_error {
	enum nst_status status;
	char msg[1024];
};

/* Sets err (when not NULL) and returns status: `return nst_fail(err, ...)`. */
enum nst_status nst_fail(struct nst_error *err, enum nst_status status,
			 const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A value in a report's row.  Text is borrowed from the export's string
 * table or from the report run, and lives until the run is freed. */
enum nst_kind { NST_NULL, NST_INT, NST_REAL, NST_TEXT };
struct nst_cell {
	enum nst_kind kind;
	union {
		int64_t i;
		double r;
		const char *s;
	} v;
};

/* Where a report sends its rows.  Column names use nsys's tags,
 * "Label:category_unit" (e.g. "Total Time:dur_ns", "Bytes:mem_B");
 * a name that starts with '_' is a hidden column. */
struct nst_sink {
	int (*begin)(void *ctx, const char *const *cols, size_t ncols);
	int (*row)(void *ctx, const struct nst_cell *cells);
	void *ctx;
};

#endif
