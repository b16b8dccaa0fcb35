/* The summary of named events kept in several tables (MPI, NvVideo):
 * one row per (table, name id) with the usual duration columns, a column
 * saying which table the row comes from, and the name. */
#ifndef NSTATS_REPORTS_EVENT_SUM_H
#define NSTATS_REPORTS_EVENT_SUM_H

#include "reports/common.h"

/* A table of events: start, end and a StringIds id in name_col. */
struct nst_event_source {
	const char *table;
	const char *name_col;
	const char *label; /* what the source column says */
};

/* The columns a report over these sources needs, for its `needs`. */
#define NST_EVENT_SOURCE_NEEDS(table, name_col)                           \
	{ table, "start", false }, { table, "end", false },               \
	{ table, name_col, false }

/* Emits the summary of the sources that exist in the export.  Rows are
 * ordered by total time descending; equal totals keep the order of the
 * sources as given, then name id order, which is how nsys's grouped
 * query leaves them.  A row whose end is NULL counts as an instance but
 * adds no time, as SQL aggregates skip NULLs; a group of such rows only
 * has NULL times. */
enum nst_status nst_event_summary(struct nst_ctx *ctx, const struct nst_sink *out,
				  const struct nst_event_source *src, size_t nsrc,
				  const char *count_label, const char *source_col,
				  struct nst_error *err);

#endif
