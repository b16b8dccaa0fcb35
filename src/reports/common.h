/* What nearly every report includes: cells, API names, nsys's messages,
 * and (in headers of their own) grouping and sorting (group.h), the
 * runtime calls and their join to GPU rows (calls.h) and the duration
 * summary (summary.h).  Kernel names: kernel_names.h. */
#ifndef NSTATS_REPORTS_COMMON_H
#define NSTATS_REPORTS_COMMON_H

#include <stdint.h>

#include "core/sqlstat.h"
#include "reports/calls.h"
#include "reports/group.h"
#include "reports/report.h"
#include "reports/summary.h"
#include "reports/tables.h"

/* ---- cells --------------------------------------------------------------- */

static inline struct nst_cell nst_int(int64_t v)
{
	return (struct nst_cell){ .kind = NST_INT, .v.i = v };
}
static inline struct nst_cell nst_real(double v)
{
	return (struct nst_cell){ .kind = NST_REAL, .v.r = v };
}
static inline struct nst_cell nst_text(const char *s)
{
	return (struct nst_cell){ .kind = s ? NST_TEXT : NST_NULL, .v.s = s };
}
static inline struct nst_cell nst_null(void)
{
	return (struct nst_cell){ .kind = NST_NULL };
}
/* An integer column's value, NULL where the export has NULL. */
static inline struct nst_cell nst_int_or_null(int64_t v)
{
	return v == NST_NULL_I64 ? nst_null() : nst_int(v);
}
/* round(x, 1) as a REAL cell, the way the summaries print averages. */
static inline struct nst_cell nst_round1(double v)
{
	return nst_real(nst_sql_round(v, 1));
}
/* A middle value unrounded: INTEGER or REAL as SQLite returns it. */
struct nst_cell nst_mid_cell(struct nst_mid m);

/* ---- names --------------------------------------------------------------- */

/* The API name as the CUDA reports print it: a "_vNNNN" suffix dropped
 * (cudaLaunchKernel_v7000 -> cudaLaunchKernel; cuMemAlloc_v2 stays). */
const char *nst_api_name(struct nst_ctx *ctx, int64_t name_id);
/* The StringIds value as it is (nst_api_name strips versions). */
const char *nst_raw_name(struct nst_ctx *ctx, int64_t name_id);

/* ---- nsys's messages ------------------------------------------------------- */

/* nsys's "<file> file does not contain <table> table." */
enum nst_status nst_no_table(struct nst_ctx *ctx, struct nst_error *err,
			     const char *table);
/* Every report that names things needs StringIds first. */
enum nst_status nst_require_strings(struct nst_ctx *ctx, struct nst_error *err);

/* The "does not contain" messages: "<file> does not contain <what>". */
enum nst_status nst_nodata(struct nst_ctx *ctx, struct nst_error *err,
			   const char *what);

#endif
