/* ThreadNames rows by globalTid, for the traces that name each row's
 * thread.  nsys LEFT JOINs the table, so a thread named twice gives each
 * of its rows twice, in ThreadNames order: the rows of one thread are
 * chained in that order. */
#ifndef NSTATS_REPORTS_THREADS_H
#define NSTATS_REPORTS_THREADS_H

#include "core/hashmap.h"
#include "reports/report.h"

#define THREADS "ThreadNames"

/* The columns nst_threads_load() reads, for a report's `needs`. */
#define NST_THREAD_NEEDS                                                  \
	{ THREADS, "globalTid", false }, { THREADS, "nameId", false },    \
	{ THREADS, "priority", false }

struct nst_threads {
	size_t n;
	const int64_t *gtid, *name_id, *priority;
	struct nst_map first; /* (globalTid, 0) -> first row */
	uint32_t *next;       /* next row of the same thread, or UINT32_MAX */
};

enum nst_status nst_threads_load(struct nst_ctx *ctx, struct nst_threads *t,
				 struct nst_error *err);
void nst_threads_release(struct nst_threads *t);

/* The first ThreadNames row of the thread, or -1 when it has none.  As
 * in the LEFT JOIN, a row of a thread without a name is still given once,
 * with -1: `row = first; do emit(row); while ((row = next(row)) >= 0);` */
int64_t nst_threads_first(const struct nst_threads *t, int64_t gtid);
/* The thread's next row after `row`, or -1 (also after -1). */
int64_t nst_threads_next(const struct nst_threads *t, int64_t row);
/* The row's priority and name; NULL cells for row -1. */
struct nst_cell nst_threads_priority(const struct nst_threads *t, int64_t row);
struct nst_cell nst_threads_name(struct nst_ctx *ctx, const struct nst_threads *t,
				 int64_t row);

#endif
