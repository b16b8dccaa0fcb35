/* Pieces that many reports share: grouping, distributions, the summary
 * row shape, API and kernel names, and the runtime-to-GPU join. */
#ifndef NSTATS_REPORTS_COMMON_H
#define NSTATS_REPORTS_COMMON_H

#include <stdint.h>

#include "core/sqlstat.h"
#include "reports/report.h"

#define RUNTIME "CUPTI_ACTIVITY_KIND_RUNTIME"
#define KERNEL "CUPTI_ACTIVITY_KIND_KERNEL"
#define MEMCPY "CUPTI_ACTIVITY_KIND_MEMCPY"
#define MEMSET "CUPTI_ACTIVITY_KIND_MEMSET"

/* ---- grouping ---------------------------------------------------------- */

/* Rows grouped by equal key tuples: group g holds rows
 * order[start[g] .. start[g+1]), in row order.  Groups are numbered in
 * order of first appearance; first[g] is the group's first row. */
struct nst_groups {
	size_t n;
	size_t *start;
	uint32_t *order;
	uint32_t *first;
};

/* Groups rows[0..nrows) by the values of keys[0..nkeys) at each row
 * (at most NST_GROUP_MAX_KEYS keys). */
#define NST_GROUP_MAX_KEYS 16
enum nst_status nst_group(const int64_t *const *keys, size_t nkeys,
			  const uint32_t *rows, size_t nrows,
			  struct nst_groups *g, struct nst_error *err);
/* The same over columns as the events layer stores them. */
enum nst_status nst_group_cols(const struct nst_col *const *keys, size_t nkeys,
			       const uint32_t *rows, size_t nrows,
			       struct nst_groups *g, struct nst_error *err);
void nst_groups_release(struct nst_groups *g);

/* The error of a sum that does not fit int64 (nst_dist_of, nst_add_i64),
 * raised where the export is not known: the driver names it. */
enum nst_status nst_fail_sum(struct nst_error *err);

/* The distribution of val over each group; out has g->n entries. */
enum nst_status nst_group_dists(const struct nst_groups *g, const int64_t *val,
				struct nst_dist **out, struct nst_error *err);

/* Sorts idx[0..n) stably with cmp(a, b, arg). */
void nst_stable_sort(uint32_t *idx, size_t n,
		     int (*cmp)(uint32_t a, uint32_t b, void *arg), void *arg);

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

/* Which kernel name column the report's arguments ask for. */
enum nst_kname { NST_KNAME_DEMANGLED, NST_KNAME_SHORT, NST_KNAME_MANGLED };
enum nst_kname nst_kname_mode(const struct nst_ctx *ctx);
/* StringIds id of each kernel's name under the mode (mangledName falls
 * back to demangledName when NULL or absent).  *ids is borrowed. */
enum nst_status nst_kernel_name_ids(struct nst_ctx *ctx, enum nst_kname mode,
				    const struct nst_col **ids, struct nst_error *err);

/* The kernel name ids the report's arguments ask for: the mode's, and
 * with nvtx-name each prefixed by its innermost NVTX range (nvtx_gpu.h).
 * Read their text with nst_kernel_name_text(). */
enum nst_status nst_report_kernel_name_ids(struct nst_ctx *ctx, const struct nst_col **ids,
					   struct nst_error *err);
/* The text of a kernel name id: a StringIds value, or an nvtx-name name. */
const char *nst_kernel_name_text(struct nst_ctx *ctx, int64_t id);

/* ---- runtime rows ---------------------------------------------------------- */

/* A runtime row that is a CUDA backtrace record (callchainId set, or
 * eventClass 67) is not an API call: nsys counts it as one, nstats never
 * does (docs/deviations.md). */
static inline bool nst_is_backtrace(const struct nst_col *event_class,
				    const struct nst_col *callchain, size_t row)
{
	return (callchain && nst_col_at(callchain, row) != NST_NULL_I64) ||
	       (event_class && nst_col_at(event_class, row) == 67);
}

/* The runtime rows that are calls, and the index from (globalPid,
 * correlationId) to them.  Loaded once per run and shared. */
struct nst_calls {
	size_t n;       /* rows in the runtime table */
	uint32_t *rows; /* the call rows, in row order */
	size_t ncalls;
	const int64_t *start, *end;
	/* Ids as stored (32 bits where they fit): read with nst_col_at(). */
	const struct nst_col *name_id;
	const struct nst_col *gtid, *corr, *ret; /* NULL until nst_calls_ids() */
};
/* The columns nst_calls_get() reads, and those nst_calls_ids() adds,
 * for the `needs` of the reports that use them. */
#define NST_CALL_NEEDS                                                   \
	{ RUNTIME, "start", false }, { RUNTIME, "end", false },          \
	{ RUNTIME, "nameId", false }, { RUNTIME, "eventClass", false },  \
	{ RUNTIME, "callchainId", false }
#define NST_CALL_ID_NEEDS                                                \
	{ RUNTIME, "globalTid", false }, { RUNTIME, "correlationId", false }, \
	{ RUNTIME, "returnValue", false }

/* The calls with their times and names; the summaries need no more. */
enum nst_status nst_calls_get(struct nst_ctx *ctx, const struct nst_calls **out,
			      struct nst_error *err);
/* The same with globalTid, correlationId and returnValue loaded too. */
enum nst_status nst_calls_ids(struct nst_ctx *ctx, const struct nst_calls **out,
			      struct nst_error *err);
/* Builds the (globalPid, correlationId) index of the calls, once. */
enum nst_status nst_calls_index(struct nst_ctx *ctx, struct nst_error *err);
/* The call that launched GPU work (globalPid, correlationId), or -1;
 * nst_calls_index() must have run. */
int64_t nst_calls_find(struct nst_ctx *ctx, int64_t gpid, int64_t corr);

static inline int64_t nst_pid(int64_t gtid) { return (gtid >> 24) & 0xFFFFFF; }
static inline int64_t nst_tid(int64_t gtid) { return gtid & 0xFFFFFF; }
static inline int64_t nst_gpid(int64_t gtid)
{
	return (int64_t)((uint64_t)gtid & 0xFFFFFFFFFF000000ull);
}

/* ---- the usual duration summary ------------------------------------------ */

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
/* The StringIds value as it is (nst_api_name strips versions). */
const char *nst_raw_name(struct nst_ctx *ctx, int64_t name_id);

/* The summary of calls by function (cuda_api_sum, osrt_sum): rows[] of a
 * table of n rows grouped by name id, ordered by total time descending,
 * with "Num Calls" and a "Name" column. */
enum nst_status nst_summarise_calls(struct nst_ctx *ctx, const struct nst_sink *out,
				    const int64_t *start, const int64_t *end,
				    const struct nst_col *name_id, size_t n,
				    const uint32_t *rows, size_t nrows,
				    nst_name_fn name_of, struct nst_error *err);

/* nsys's "<file> file does not contain <table> table." */
enum nst_status nst_no_table(struct nst_ctx *ctx, struct nst_error *err,
			     const char *table);
/* Every report that names things needs StringIds first. */
enum nst_status nst_require_strings(struct nst_ctx *ctx, struct nst_error *err);

/* The "does not contain" messages: "<file> does not contain <what>". */
enum nst_status nst_nodata(struct nst_ctx *ctx, struct nst_error *err,
			   const char *what);

/* ---- ordering rows by a key ------------------------------------------------ */

/* Sorts idx[0..n) by key[idx[i]] ascending; equal keys keep their order
 * in idx (an LSD radix sort: traces of millions of rows sort in O(n)). */
enum nst_status nst_sort_by_key(uint32_t *idx, size_t n, const int64_t *key,
				struct nst_error *err);

/* ---- runtime rows sharing a launch key -------------------------------------- */

/* next[row] is the next call row (in row order) with the same (globalPid,
 * correlationId) as runtime row `row`, or UINT32_MAX: nst_calls_find()
 * gives the first, so a GPU row that several calls match (a driver call
 * nested in a runtime call shares its correlationId) joins each of them,
 * as an SQL join does.  Built on first use; borrowed. */
enum nst_status nst_calls_chain(struct nst_ctx *ctx, const uint32_t **next,
				struct nst_error *err);

#endif
