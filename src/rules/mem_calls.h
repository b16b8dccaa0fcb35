/* The rules about memory operations a CUDA call waits for
 * (cuda_memcpy_async, cuda_memcpy_sync, cuda_memset_sync): each GPU
 * memcpy or memset row joined to the call that issued it, within its own
 * process (nsys joins on correlationId alone, so two processes with the
 * same correlationIds get each other's calls), never to a CUDA backtrace
 * record. */
#ifndef NSTATS_RULES_MEM_CALLS_H
#define NSTATS_RULES_MEM_CALLS_H

#include "reports/gpu_ops.h"
#include "rules/rule.h"

/* One memcpy or memset table with what the rules read of it. */
struct nst_mem_ops {
	struct nst_gpu_table t;
	const int64_t *gpid;
	const int64_t *kind[2];  /* srcKind, dstKind; memset: memKind, NULL */
	const int64_t *copy_kind, *src_dev, *dst_dev; /* memcpy only */
};

struct nst_mem_rule {
	const char *table;       /* MEMCPY or MEMSET */
	const char *what;        /* "memcpy": "Does the application use CUDA memcpy APIs?" */
	bool (*call)(const char *name);                       /* the API's name */
	bool (*op)(const struct nst_mem_ops *m, size_t row);  /* the operation */
	const char *advice, *noresult;
};

enum nst_status nst_mem_rule_run(struct nst_ctx *ctx, const struct nst_sink *out,
				 const struct nst_mem_rule *rule, struct nst_error *err);

/* What the rules read, for their `needs`. */
#define NST_MEM_RULE_NEEDS(table)                                          \
	NST_CALL_NEEDS, NST_CALL_ID_NEEDS, NST_GPU_ALL_NEEDS(table),       \
	{ table, "globalPid", false }
#define NST_MEMCPY_RULE_NEEDS                                              \
	NST_MEM_RULE_NEEDS(MEMCPY), { MEMCPY, "srcKind", false },          \
	{ MEMCPY, "dstKind", false }, { MEMCPY, "copyKind", false },       \
	{ MEMCPY, "srcDeviceId", false }, { MEMCPY, "dstDeviceId", false }
#define NST_MEMSET_RULE_NEEDS                                              \
	NST_MEM_RULE_NEEDS(MEMSET), { MEMSET, "memKind", false }

#endif
