/* What gpu_gaps and gpu_time_util look at: every GPU operation (kernel,
 * memcpy, memset, with the profiler's flush/stop overhead that falls
 * inside them) grouped by process and device, and the Vulkan, D3D12 and
 * OpenGL workloads in groups of their own, each group in start order. */
#ifndef NSTATS_RULES_GPU_BUSY_H
#define NSTATS_RULES_GPU_BUSY_H

#include "rules/rule.h"

/* Where a run of operations comes from: a table's rows (their ids read
 * from its columns as stored, never copied) or, past the tables, the
 * profiler overhead rows placed in a group (ids in `extra`). */
#define NST_BUSY_SOURCES 6
struct nst_busy_source {
	size_t first, n;                 /* operations first .. first + n - 1 */
	const struct nst_col *gpid, *device, *context;
	int64_t lone_gpid;               /* the process where gpid is absent */
	int64_t kind;                    /* 0: CUDA; otherwise a graphics API */
};

struct nst_busy {
	size_t n;                 /* operations */
	int64_t *start, *end;
	struct nst_groups g;      /* by (kind, pid, device); rows in start order */
	struct nst_busy_source src[NST_BUSY_SOURCES];
	size_t nsrc;              /* operations from the tables; the rest are overhead */
	int64_t *extra;           /* per overhead row: pid, device, context */
};

/* An operation's process (the pid part of its globalPid or globalTid),
 * device, context and kind; NST_NULL_I64 where unknown. */
int64_t nst_busy_pid(const struct nst_busy *b, uint32_t op);
int64_t nst_busy_device(const struct nst_busy *b, uint32_t op);
int64_t nst_busy_context(const struct nst_busy *b, uint32_t op);
int64_t nst_busy_kind(const struct nst_busy *b, uint32_t op);

/* Loads and groups the operations.  NST_ERR_NODATA with nsys's message
 * when the export has no GPU operation table. */
enum nst_status nst_busy_load(struct nst_ctx *ctx, struct nst_busy *b,
			      struct nst_error *err);
void nst_busy_release(struct nst_busy *b);
/* The row of group k's operation that ends last (the first such one). */
uint32_t nst_busy_last_ending(const struct nst_busy *b, size_t k);

/* The notes of gpu_gaps and gpu_time_util: each paragraph re-flowed as
 * nsys wraps it (NULL paragraphs, for want of memory, leave no note), the
 * advice followed by their common suggestions. */
void nst_busy_notes(struct nst_ctx *ctx, const char *advice, const char *noresult,
		    struct nst_rule_notes *notes);

#define NST_BUSY_OVERHEAD "PROFILER_OVERHEAD"
#define NST_BUSY_VULKAN "VULKAN_WORKLOAD"
#define NST_BUSY_DX12 "DX12_WORKLOAD"
#define NST_BUSY_OPENGL "OPENGL_WORKLOAD"

/* The columns nst_busy_load reads, for the rules' `needs`. */
#define NST_BUSY_TABLE_NEEDS(table)                                        \
	{ table, "start", false }, { table, "end", false },                \
	{ table, "globalPid", false }, { table, "deviceId", false },       \
	{ table, "contextId", false }
#define NST_BUSY_NEEDS                                                     \
	NST_BUSY_TABLE_NEEDS(KERNEL), NST_BUSY_TABLE_NEEDS(MEMCPY),        \
	NST_BUSY_TABLE_NEEDS(MEMSET), { RUNTIME, "globalTid", false },    \
	{ NST_BUSY_OVERHEAD, "start", false },                             \
	{ NST_BUSY_OVERHEAD, "end", false },                               \
	{ NST_BUSY_OVERHEAD, "globalTid", false },                         \
	{ NST_BUSY_OVERHEAD, "nameId", false },                            \
	{ NST_BUSY_VULKAN, "start", false }, { NST_BUSY_VULKAN, "end", false }, \
	{ NST_BUSY_VULKAN, "globalTid", false },                           \
	{ NST_BUSY_VULKAN, "gpu", false },                                 \
	{ NST_BUSY_VULKAN, "contextId", false },                           \
	{ NST_BUSY_DX12, "start", false }, { NST_BUSY_DX12, "end", false },  \
	{ NST_BUSY_DX12, "globalTid", false },                             \
	{ NST_BUSY_DX12, "gpu", false },                                   \
	{ NST_BUSY_DX12, "shortContextId", false },                        \
	{ NST_BUSY_OPENGL, "start", false }, { NST_BUSY_OPENGL, "end", false }, \
	{ NST_BUSY_OPENGL, "globalTid", false },                           \
	{ NST_BUSY_OPENGL, "gpu", false },                                 \
	{ NST_BUSY_OPENGL, "contextId", false }

#endif
