/* GPU operations as nsys's CUDA GPU reports see them: kernels, memory
 * copies and memsets (plus the API calls, for cuda_api_gpu_sum), their
 * names, and the summaries grouped by name.
 *
 * nsys builds these reports from one UNION ALL of the source tables, in the
 * order API calls, kernels, memcpy, memset, each in rowid order.  The rows
 * collected here keep that order, because it decides which category a
 * shared name gets and how floating-point sums accumulate. */
#ifndef NSTATS_REPORTS_GPU_OPS_H
#define NSTATS_REPORTS_GPU_OPS_H

#include <stdint.h>

#include "core/hashmap.h"
#include "reports/common.h"

/* ---- the columns every GPU activity table shares ------------------------- */

/* One of KERNEL, MEMCPY, MEMSET as columns; a column the export lacks is
 * NULL (greenContextId before 2024, bytes for kernels).  Summaries read
 * durations and bytes (NST_GPU_SPANS) or bytes alone (NST_GPU_BYTES), the
 * NVTX projections start, end and bytes (NST_GPU_TIMES), the trace all
 * (NST_GPU_ALL); dur is there from NST_GPU_SPANS on. */
struct nst_gpu_table {
	size_t n;
	const int64_t *start, *end;
	const struct nst_col *bytes; /* as stored */
	struct nst_span dur;
	const struct nst_col *corr, *device, *context, *green, *stream; /* as stored */
};
enum nst_gpu_columns { NST_GPU_BYTES, NST_GPU_SPANS, NST_GPU_TIMES, NST_GPU_ALL };
enum nst_status nst_gpu_table_load(struct nst_ctx *ctx, const char *table,
				   enum nst_gpu_columns which,
				   struct nst_gpu_table *t, struct nst_error *err);

/* The columns of a report's `needs`, by what it reads. */
#define NST_GPU_BYTES_NEEDS(table) { table, "bytes", false }
#define NST_GPU_SPAN_NEEDS(table)                                             \
	{ table, NST_EV_DURATION, false }, NST_GPU_BYTES_NEEDS(table)
#define NST_GPU_TIMES_NEEDS(table)                                            \
	{ table, "start", false }, { table, "end", false },                   \
	{ table, "bytes", false }
#define NST_GPU_ALL_NEEDS(table)                                              \
	NST_GPU_TIMES_NEEDS(table),                                           \
	{ table, "correlationId", false }, { table, "deviceId", false },     \
	{ table, "contextId", false }, { table, "greenContextId", false },   \
	{ table, "streamId", false }
/* shortName and mangledName are read only when base or mangled asks. */
#define NST_KERNEL_NAME_NEEDS { KERNEL, "demangledName", false }
#define NST_MEMCPY_KIND_NEEDS { MEMCPY, "copyKind", false }
/* ---- names ----------------------------------------------------------------- */

/* Distinct operation names, numbered from 1 (0 is SQL NULL).  Equal strings
 * share a number whatever they come from, as nsys's GROUP BY name does. */
struct nst_op_names {
	struct nst_map by_text; /* (hash, probe) -> number */
	struct nst_map by_id;   /* (source, id) -> number + 1, a cache */
	/* The same cache as arrays for the small ids, which StringIds ids
	 * usually are: a trace or summary asks once per row. */
	uint32_t *dense[4];
	size_t ndense[4];
	/* In front of both, the ids met last, by id modulo NST_OP_MEMO: a
	 * capture's millions of kernels and calls have a few names, and the
	 * array's slot is a lookup in StringIds away (~100 instructions). */
#define NST_OP_MEMO 64
	struct nst_op_memo { int64_t id, num; } memo[4][NST_OP_MEMO]; /* num -1: empty */
	const char **text;      /* by number; text[0] is NULL */
	size_t n, cap;
};
enum nst_status nst_op_names_init(struct nst_op_names *nm, struct nst_error *err);
void nst_op_names_release(struct nst_op_names *nm);
static inline const char *nst_op_name(const struct nst_op_names *nm, int64_t num)
{
	return nm->text[num];
}
/* The number of a kernel's name (StringIds id), of an API call's name
 * (nameId, `_vNNNN` stripped), of a memcpy's "[CUDA memcpy <kind>]" and of
 * "[CUDA memset]".  0 when the name is NULL, -1 when out of memory. */
int64_t nst_op_name_kernel(struct nst_ctx *ctx, struct nst_op_names *nm, int64_t sid);
int64_t nst_op_name_api(struct nst_ctx *ctx, struct nst_op_names *nm, int64_t sid);
int64_t nst_op_name_memcpy(struct nst_ctx *ctx, struct nst_op_names *nm, int64_t kind);
int64_t nst_op_name_memset(struct nst_op_names *nm);

/* ENUM labels by id with the small ids looked up once: a trace asks for
 * one per row.  Set .table and zero the rest before use. */
struct nst_label_cache {
	const char *table;
	const char *label[32];
	bool known[32];
};
const char *nst_label_cached(struct nst_db *db, struct nst_label_cache *c, int64_t id);

/* ---- rows to summarize --------------------------------------------------- */

enum nst_op_cat { NST_OP_API, NST_OP_KERNEL, NST_OP_MEMORY };
const char *nst_op_cat_label(enum nst_op_cat cat);

/* What a summary measures: the duration (end - start) or the bytes. */
enum nst_op_measure { NST_OP_DURATION, NST_OP_BYTES };

struct nst_op_rows {
	size_t n, cap;
	int32_t *name;  /* nst_op_names number (fewer names than rows) */
	int64_t *value; /* the measure; NULL in a set of kernels alone, */
	struct nst_span span; /* whose row i is the table's, measured by span */
	uint8_t *cat;   /* enum nst_op_cat; NULL while value is (all kernels) */
};
void nst_op_rows_release(struct nst_op_rows *r);
static inline int64_t nst_op_value(const struct nst_op_rows *r, size_t i)
{
	return r->value ? r->value[i] : nst_span_at(&r->span, i);
}

/* Appends the API calls (never CUDA backtrace records), every kernel, the
 * memcpys whose copyKind has a label (nsys joins the ENUM table), and every
 * memset.  A missing table adds nothing. */
enum nst_status nst_op_rows_add_api(struct nst_ctx *ctx, struct nst_op_rows *r,
				    struct nst_op_names *nm, struct nst_error *err);
enum nst_status nst_op_rows_add_kernels(struct nst_ctx *ctx, struct nst_op_rows *r,
					struct nst_op_names *nm, struct nst_error *err);
enum nst_status nst_op_rows_add_memcpy(struct nst_ctx *ctx, struct nst_op_rows *r,
				       struct nst_op_names *nm,
				       enum nst_op_measure m, struct nst_error *err);
enum nst_status nst_op_rows_add_memset(struct nst_ctx *ctx, struct nst_op_rows *r,
				       struct nst_op_names *nm,
				       enum nst_op_measure m, struct nst_error *err);

/* ---- summaries by name ----------------------------------------------------- */

/* How nsys orders the groups: by total descending, then (kernel
 * summaries) by count ascending, then by name and the extra keys
 * ascending. */
enum nst_op_order { NST_ORDER_TOTAL_NAME, NST_ORDER_TOTAL_COUNT_NAME };

/* Groups by name (and by extra[k][row] when given), in output order:
 * group k of the output is g.first[order[k]] etc. */
struct nst_op_summary {
	struct nst_groups g;
	struct nst_dist *d;  /* by group */
	uint8_t *cat;        /* by group: the category of its first longest row */
	uint32_t *order;     /* output position -> group */
	size_t n;
};
enum nst_status nst_op_summarize(const struct nst_op_rows *r,
				 const struct nst_op_names *nm,
				 const int64_t *const *extra, size_t nextra,
				 enum nst_op_order how, bool median,
				 struct nst_op_summary *s, struct nst_error *err);
void nst_op_summary_release(struct nst_op_summary *s);

/* ---- one summary from collection to output ------------------------------ */

enum nst_op_source {
	NST_SRC_API = 1 << 0,
	NST_SRC_KERNEL = 1 << 1,
	NST_SRC_MEMCPY = 1 << 2,
	NST_SRC_MEMSET = 1 << 3,
};

struct nst_op_set {
	struct nst_op_names names;
	struct nst_op_rows rows;
	struct nst_op_summary sum;
	const void *user; /* the report's own, for its tail function */
};

/* Collects the sources' rows (in nsys's UNION ALL order) and summarizes
 * them.  extra[k] is indexed by collected row, so only a single-source set
 * can use it (cuda_gpu_kern_gb_sum groups kernels by grid and block). */
enum nst_status nst_op_set_build(struct nst_ctx *ctx, unsigned sources,
				 enum nst_op_measure m, const int64_t *const *extra,
				 size_t nextra, enum nst_op_order how,
				 struct nst_op_set *set, struct nst_error *err);
void nst_op_set_release(struct nst_op_set *set);
/* The kernels by name as cuda_gpu_kern_sum groups and orders them, or
 * nsys's SKIPPED message when the export has no kernel table; without
 * median, each group's med is left zero. */
enum nst_status nst_kernels_by_name(struct nst_ctx *ctx, bool median,
				    struct nst_op_set *set, struct nst_error *err);

/* The name of group grp (NULL for SQL NULL). */
const char *nst_op_group_name(const struct nst_op_set *set, uint32_t grp);

/* Emits the usual Time (%) ... StdDev (ns) summary; tail() fills the cells
 * after StdDev for group grp. */
typedef void (*nst_op_tail_fn)(struct nst_ctx *ctx, const struct nst_op_set *set,
			       uint32_t grp, struct nst_cell *tail);
enum nst_status nst_op_emit_summary(struct nst_ctx *ctx, const struct nst_sink *out,
				    const char *count_label,
				    const char *const *tail_cols, size_t ntail,
				    nst_op_tail_fn tail, const struct nst_op_set *set,
				    struct nst_error *err);

/* The "Category" and "Operation" cells of cuda_gpu_sum and cuda_api_gpu_sum. */
void nst_op_category_tail(struct nst_ctx *ctx, const struct nst_op_set *set,
			  uint32_t grp, struct nst_cell *tail);

#endif
