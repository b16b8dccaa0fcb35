/* Runtime API calls: the rows of CUPTI_ACTIVITY_KIND_RUNTIME that are
 * calls (never CUDA backtrace records), and the launch that GPU work came
 * from, found by (process, correlationId). */
#ifndef NSTATS_REPORTS_CALLS_H
#define NSTATS_REPORTS_CALLS_H

#include <stdint.h>

#include "reports/report.h"
#include "reports/tables.h"

/* ---- runtime rows ---------------------------------------------------------- */

/* A runtime row that is a CUDA backtrace record (callchainId set, or
 * eventClass 67) is not an API call: nsys counts it as one, nstats never
 * does (docs/deviations.md).  class67 is the column NST_BACKTRACE_CLASS. */
#define NST_BACKTRACE_CLASS NST_EV_FLAG("eventClass", 67)
static inline bool nst_is_backtrace(const struct nst_col *class67,
				    const struct nst_col *callchain, size_t row)
{
	return (callchain && nst_col_at(callchain, row) != NST_NULL_I64) ||
	       (class67 && nst_col_at(class67, row));
}

/* The runtime rows that are calls, and the index from (globalPid,
 * correlationId) to them.  Loaded once per run and shared. */
struct nst_calls {
	size_t n;       /* rows in the runtime table */
	/* the call rows in row order, NULL when every row is a call (no
	 * backtrace rows: 4 bytes a row saved); read with nst_call_row() */
	uint32_t *rows;
	size_t ncalls;
	const int64_t *start, *end; /* NULL but after nst_calls_get() */
	/* Ids as stored (32 bits where they fit): read with nst_col_at(). */
	const struct nst_col *name_id;
	const struct nst_col *gtid, *corr; /* NULL until nst_calls_ids() */
	const struct nst_col *ret;         /* NULL until nst_calls_results() */
};
/* Call k's row in the runtime table. */
static inline uint32_t nst_call_row(const struct nst_calls *c, size_t k)
{
	return nst_row_at(c->rows, k);
}
/* The columns nst_calls_get() reads (nst_calls_durations(): the
 * NST_CALL_SPAN_NEEDS), and those nst_calls_ids() adds, for the `needs`
 * of the reports that use them. */
#define NST_CALL_ROW_NEEDS                                               \
	{ RUNTIME, "nameId", false }, { RUNTIME, NST_BACKTRACE_CLASS, false }, \
	{ RUNTIME, "callchainId", false }
#define NST_CALL_NEEDS                                                   \
	{ RUNTIME, "start", false }, { RUNTIME, "end", false }, NST_CALL_ROW_NEEDS
#define NST_CALL_SPAN_NEEDS { RUNTIME, NST_EV_DURATION, false }, NST_CALL_ROW_NEEDS
#define NST_CALL_ID_NEEDS                                                \
	{ RUNTIME, "globalTid", false }, { RUNTIME, "correlationId", false }
#define NST_CALL_RESULT_NEEDS { RUNTIME, "returnValue", false }

/* The calls with their times and names. */
enum nst_status nst_calls_get(struct nst_ctx *ctx, const struct nst_calls **out,
			      struct nst_error *err);
/* The calls with their names alone (start and end as they were). */
enum nst_status nst_calls_rows(struct nst_ctx *ctx, const struct nst_calls **out,
			       struct nst_error *err);
/* The calls with their names, and the runtime rows' durations (by row,
 * not by call): the summaries need no more, and no start or end. */
enum nst_status nst_calls_durations(struct nst_ctx *ctx, const struct nst_calls **out,
				    struct nst_span *dur, struct nst_error *err);
/* The same with globalTid and correlationId loaded too. */
enum nst_status nst_calls_ids(struct nst_ctx *ctx, const struct nst_calls **out,
			      struct nst_error *err);
/* The same with returnValue too: the traces print it, nothing else reads
 * it (a column read for nothing costs a tenth of a table's scan). */
enum nst_status nst_calls_results(struct nst_ctx *ctx, const struct nst_calls **out,
				  struct nst_error *err);
/* Builds the (globalPid, correlationId) index of the calls, once. */
enum nst_status nst_calls_index(struct nst_ctx *ctx, struct nst_error *err);
/* The call that launched GPU work (globalPid, correlationId), or -1;
 * nst_calls_index() must have run. */
int64_t nst_calls_find(struct nst_ctx *ctx, int64_t gpid, int64_t corr);
/* Indexes c's calls rows[0..n) (rows NULL: rows 0..n) as
 * nst_calls_index() indexes them all: by (globalPid of their globalTid,
 * correlationId).  -1 when out of memory. */
struct nst_corrindex;
int nst_calls_index_rows(const struct nst_calls *c, const uint32_t *rows, size_t n,
			 struct nst_corrindex *x);

/* The globalPid part of a globalTid (or of a globalPid). */
#define NST_PROCESS_BITS 0xFFFFFFFFFF000000ull

static inline int64_t nst_pid(int64_t gtid) { return (gtid >> 24) & 0xFFFFFF; }
static inline int64_t nst_tid(int64_t gtid) { return gtid & 0xFFFFFF; }
static inline int64_t nst_gpid(int64_t gtid)
{
	return (int64_t)((uint64_t)gtid & NST_PROCESS_BITS);
}

/* ---- runtime rows sharing a launch key -------------------------------------- */

/* next[row] is the next call row (in row order) with the same (globalPid,
 * correlationId) as runtime row `row`, or UINT32_MAX: nst_calls_find()
 * gives the first, so a GPU row that several calls match (a driver call
 * nested in a runtime call shares its correlationId) joins each of them,
 * as an SQL join does.  *next is NULL when no two calls share a key (the
 * usual export: no array of a row per call for nothing).  Built on first
 * use; borrowed. */
enum nst_status nst_calls_chain(struct nst_ctx *ctx, const uint32_t **next,
				struct nst_error *err);
/* The call after r in its chain, or -1. */
static inline int64_t nst_calls_next(const uint32_t *next, int64_t r)
{
	return !next || next[r] == UINT32_MAX ? -1 : (int64_t)next[r];
}

#endif
