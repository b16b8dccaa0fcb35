/* The pairing of GPU rows with runtime calls that orphan_gpu_rows and
 * launches_without_gpu share: a GPU row belongs to the call with its
 * (process, correlationId), as every report joins them.  The process is
 * the GPU row's globalPid and the call's globalTid with its thread bits
 * cleared; when a GPU table has no globalPid column (older exports) the
 * pairing is by correlationId alone.  A row whose process or id is NULL
 * pairs with nothing; callers skip correlationId 0, which CUPTI gives to
 * work no call made (unified-memory migrations). */
#ifndef NSTATS_CHECK_LAUNCHES_H
#define NSTATS_CHECK_LAUNCHES_H

#include "check/check.h"
#include "core/corrindex.h"

#define CHK_PAIRED_TABLES 4 /* kernel, memcpy, memset, graph */

struct chk_launches {
	struct nst_corrindex calls; /* runtime rows that are calls */
	/* By runtime row: whether a GPU row has that call's key (0 for a row
	 * that is no call or has a NULL key).  Marked from the GPU rows on the
	 * first call of each key, then on its duplicates, so that asking of a
	 * call is one load, not a lookup in calls or in an index per GPU table. */
	unsigned char *has_gpu;
	/* By row of each paired table: whether a call has the row's key. */
	unsigned char *has_call[CHK_PAIRED_TABLES];
	bool per_process;
	bool calls_by_process; /* calls is keyed (process, id): per_process, both columns there */
};

/* Declares the columns chk_launches_of() and the GPU findings read. */
enum nst_status chk_want_gpu(struct nst_events *ev);
enum nst_status chk_want_calls(struct nst_events *ev);
/* The pairing, built by the first finding that asks and kept for the
 * others until chk_launches_release() (chk_run, after the last). */
enum nst_status chk_launches_of(struct chk_ctx *ctx, struct chk_launches **out,
				struct nst_error *err);
void chk_launches_release(struct chk_ctx *ctx);
/* Whether a GPU row has the key of runtime row `row`, a call (no
 * backtrace record). */
bool chk_call_has_gpu(const struct chk_launches *l, size_t row);
/* Whether a call has the key of row i of paired table t (kernel, memcpy,
 * memset, graph: chk_gpu_tables' order first). */
bool chk_row_has_call(const struct chk_launches *l, size_t t, size_t i);

#endif
