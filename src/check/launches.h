/* The pairing of GPU rows with runtime calls that orphan_gpu_rows and
 * launches_without_gpu share: a GPU row belongs to the call with its
 * (process, correlationId), as every report joins them.  The process is
 * the GPU row's globalPid and the call's globalTid with its thread bits
 * cleared; when a GPU table has no globalPid column (older exports) the
 * pairing is by correlationId alone.  correlationId 0 or NULL pairs with
 * nothing: CUPTI gives 0 to work no call made (unified-memory
 * migrations). */
#ifndef NSTATS_CHECK_LAUNCHES_H
#define NSTATS_CHECK_LAUNCHES_H

#include "check/check.h"
#include "core/hashmap.h"

struct chk_launches {
	struct nst_map calls; /* (process, correlationId) of the calls */
	struct nst_map gpu;   /* (process, correlationId) of GPU and graph rows */
	bool per_process;
};

/* Declares the columns chk_launches_build() and the GPU findings read. */
enum nst_status chk_want_gpu(struct nst_events *ev);
enum nst_status chk_want_calls(struct nst_events *ev);
enum nst_status chk_launches_build(struct chk_ctx *ctx, struct chk_launches *l,
				   struct nst_error *err);
void chk_launches_release(struct chk_launches *l);
/* The key's process part for a row's process column value. */
int64_t chk_launch_proc(const struct chk_launches *l, int64_t process);

#endif
