/* Private to src/reports: what reports derive once per export and
 * share (struct nst_shared), each part filled on first use by the file
 * that owns it: calls.c, kernel_names.c, common.c (API names),
 * gpu_time.c (GPU operations). */
#ifndef NSTATS_REPORTS_SHARED_H
#define NSTATS_REPORTS_SHARED_H

#include "core/arena.h"
#include "core/corrindex.h"
#include "reports/calls.h"
#include "reports/gpu_time.h"

struct nst_shared {
	bool calls_loaded;
	struct nst_calls calls;
	bool ids_loaded, index_built;
	struct nst_corrindex call_index;
	const char **api_names; /* by nameId's string slot (nst_db_string_slot) */
	size_t napi_names;
	int64_t *kname_ids[3];
	struct nst_col kname_col[3]; /* kname_ids as columns */
	struct nst_arena arena; /* stripped API names, nvtx-name texts */
	uint32_t *call_next; /* nst_calls_chain() */
	/* nvtx-name: "range/kernel" ids by name mode, and their texts */
	int64_t *kname_nvtx_ids[3];
	struct nst_col kname_nvtx_col[3];
	const char **kname_nvtx_text[3];
	size_t nkname_nvtx_text[3];
	/* nst_gt_shared(): by enum nst_gt_cut, [0] alone without a window */
	bool gt_loaded[2];
	struct nst_gt_ops gt[2];
	uint32_t *gt_by_device[2];
};

#endif
