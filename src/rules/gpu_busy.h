/* What gpu_gaps and gpu_time_util look at: every GPU operation (kernel,
 * memcpy, memset) grouped by process and device, each group in start
 * order. */
#ifndef NSTATS_RULES_GPU_BUSY_H
#define NSTATS_RULES_GPU_BUSY_H

#include "rules/rule.h"

struct nst_busy {
	size_t n;                 /* operations */
	int64_t *start, *end, *pid, *device, *context;
	struct nst_groups g;      /* by (pid, device); rows in start order */
};

/* Loads and groups the operations.  NST_ERR_NODATA with nsys's message
 * when the export has no GPU operation table. */
enum nst_status nst_busy_load(struct nst_ctx *ctx, struct nst_busy *b,
			      struct nst_error *err);
void nst_busy_release(struct nst_busy *b);

/* The columns nst_busy_load reads, for the rules' `needs`. */
#define NST_BUSY_TABLE_NEEDS(table)                                        \
	{ table, "start", false }, { table, "end", false },                \
	{ table, "globalPid", false }, { table, "deviceId", false },       \
	{ table, "contextId", false }
#define NST_BUSY_NEEDS                                                     \
	NST_BUSY_TABLE_NEEDS(KERNEL), NST_BUSY_TABLE_NEEDS(MEMCPY),        \
	NST_BUSY_TABLE_NEEDS(MEMSET), { RUNTIME, "globalTid", false }

#endif
