/* What gpu_gaps and gpu_time_util look at: every GPU operation (kernel,
 * memcpy, memset, with the profiler's flush/stop overhead that falls
 * inside them) grouped by process and device, and the Vulkan, D3D12 and
 * OpenGL workloads in groups of their own, each group in start order. */
#ifndef NSTATS_RULES_GPU_BUSY_H
#define NSTATS_RULES_GPU_BUSY_H

#include "rules/rule.h"

struct nst_busy {
	size_t n;                 /* operations */
	int64_t *start, *end, *pid, *device, *context;
	int64_t *kind;            /* 0: CUDA; otherwise a graphics API */
	struct nst_groups g;      /* by (kind, pid, device); rows in start order */
};

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
