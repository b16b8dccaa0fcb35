/* Private to src/reports: what reports derive once per export and
 * share (struct nst_shared), each part filled on first use by the file
 * that owns it: calls.c, kernel_names.c, common.c (API names),
 * gpu_time.c (GPU operations). */
#ifndef NSTATS_REPORTS_SHARED_H
#define NSTATS_REPORTS_SHARED_H

#include <pthread.h>
#include <stdatomic.h>

#include "core/arena.h"
#include "core/corrindex.h"
#include "reports/calls.h"
#include "reports/gpu_time.h"

struct nst_shared {
	/* Held while a part is filled and handed out: reports on several
	 * threads share one nst_shared.  What a part's getter handed out is
	 * never written again, so it is read without the lock. */
	pthread_mutex_t lock;
	bool calls_loaded;
	struct nst_calls calls;
	bool ids_loaded, index_built;
	struct nst_corrindex call_index;
	/* by nameId's string slot (nst_db_string_slot), each filled on first
	 * use; read without the lock (the traces ask once a row) */
	_Atomic(const char *) *_Atomic api_names;
	size_t napi_names;
	int64_t *kname_ids[3];
	struct nst_col kname_col[3]; /* kname_ids as columns */
	struct nst_arena arena; /* stripped API names, nvtx-name texts */
	bool chain_built;
	uint32_t *call_next; /* nst_calls_chain(); NULL when no key is shared */
	/* nvtx-name: "range/kernel" ids by name mode, and their texts */
	int64_t *kname_nvtx_ids[3];
	struct nst_col kname_nvtx_col[3];
	const char **kname_nvtx_text[3];
	_Atomic size_t nkname_nvtx_text[3]; /* read without the lock */
	/* nst_gt_shared(): by enum nst_gt_cut, [0] alone without a window */
	bool gt_loaded[2];
	struct nst_gt_ops gt[2];
	uint32_t *gt_by_device[2];
	/* nst_gt_shared_by_device(): those measured by device, with gt_dev_gap */
	bool gt_dev_measured[2];
	struct nst_gt_group *gt_dev[2];
	size_t ngt_dev[2];
	int64_t gt_dev_gap[2];
};

#endif
