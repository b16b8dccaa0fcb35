/* The usual duration summary (Time (%), Total Time, count, Avg, Med,
 * Min, Max, StdDev, then the report's own columns), and calls summarised
 * by function in that shape. */
#ifndef NSTATS_REPORTS_SUMMARY_H
#define NSTATS_REPORTS_SUMMARY_H

#include <stdint.h>

#include "core/sqlstat.h"
#include "reports/report.h"

/* Emits "Time (%), Total Time, <count_label>, Avg, Med, Min, Max, StdDev"
 * followed by the caller's trailing cells, for groups in the given order.
 * The percentage is of the sum of all totals. */
struct nst_summary_row {
	const struct nst_dist *d;
	struct nst_cell tail[4];
};
enum nst_status nst_emit_summary(const struct nst_sink *out,
				 const char *count_label,
				 const char *const *tail_cols, size_t ntail,
				 const struct nst_summary_row *rows, size_t n,
				 struct nst_error *err);
/* The same with the percentage taken of `total`, for reports whose
 * percentages count groups they do not show. */
enum nst_status nst_emit_summary_of(const struct nst_sink *out,
				    const char *count_label,
				    const char *const *tail_cols, size_t ntail,
				    const struct nst_summary_row *rows, size_t n,
				    double total, struct nst_error *err);

/* Names a call's group from its name id. */
typedef const char *(*nst_name_fn)(struct nst_ctx *ctx, int64_t name_id);
/* The summary of calls by function (cuda_api_sum, osrt_sum): rows[] of a
 * table (NULL: every row) grouped by name id, measured by their
 * durations, ordered by total time descending, with "Num Calls" and a
 * "Name" column. */
enum nst_status nst_summarise_calls(struct nst_ctx *ctx, const struct nst_sink *out,
				    const struct nst_span *dur,
				    const struct nst_col *name_id, const uint32_t *rows, size_t nrows,
				    nst_name_fn name_of, struct nst_error *err);

/* The calls of one table by function, as nst_summarise_calls shows them:
 * its rows of event class `cls` (every row when the table has no
 * eventClass and every_without_class), measured by their durations. */
struct nst_class_calls {
	const char *table;
	int64_t cls;
	bool every_without_class;
	const char *nodata; /* what nsys says is missing without the table */
	nst_name_fn name_of;
};
enum nst_status nst_summarise_class_calls(struct nst_ctx *ctx, const struct nst_sink *out,
					  const struct nst_class_calls *c,
					  struct nst_error *err);
/* The columns it reads, for a report's `needs`. */
#define NST_CLASS_CALL_NEEDS(table)                                           \
	{ table, NST_EV_DURATION, false }, { table, "eventClass", false },    \
	{ table, "nameId", false }

#endif
