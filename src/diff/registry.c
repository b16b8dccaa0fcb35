/* Every report of `nstats diff`, by name.  Adding one: see diff.h. */
#include <string.h>

#include "diff/diff.h"

extern const struct nst_report nst_diff_agree;
extern const struct nst_report nst_diff_api_diff;
extern const struct nst_report nst_diff_gpu_brief;
extern const struct nst_report nst_diff_gpu_time_diff;
extern const struct nst_report nst_diff_iter_diff;
extern const struct nst_report nst_diff_kern_brief;
extern const struct nst_report nst_diff_kern_diff;
extern const struct nst_report nst_diff_launch_diff;
extern const struct nst_report nst_diff_mem_diff;
extern const struct nst_report nst_diff_nvtx_diff;
extern const struct nst_report nst_diff_verdict;

/* In name order, as --help-reports lists them. */
static const struct nst_report *const diffs[] = {
	&nst_diff_agree,
	&nst_diff_api_diff,
	&nst_diff_gpu_brief,
	&nst_diff_gpu_time_diff,
	&nst_diff_iter_diff,
	&nst_diff_kern_brief,
	&nst_diff_kern_diff,
	&nst_diff_launch_diff,
	&nst_diff_mem_diff,
	&nst_diff_nvtx_diff,
	&nst_diff_verdict,
};

/* What `nstats diff` runs without -r: each pair of GPUs in a line, then a
 * kernel a line.  The wide tables (gpu_time_diff, kern_diff) are for -r,
 * and so is iter_diff: finding iterations reads the NVTX ranges and every
 * CUDA call, which took a 10M-launch default diff from 2.5 to 4.1 s and
 * 1.5 to 2.4 GB. */
static const char *const default_set[] = { "gpu_brief", "kern_brief" };

#define COUNT(a) (sizeof(a) / sizeof *(a))

const struct nst_report *nst_diff_find(const char *name)
{
	for (size_t i = 0; i < COUNT(diffs); i++)
		if (strcmp(diffs[i]->name, name) == 0)
			return diffs[i];
	return NULL;
}

const struct nst_report *const *nst_diff_all(size_t *n)
{
	*n = COUNT(diffs);
	return diffs;
}

const char *const *nst_diff_default_set(size_t *n)
{
	*n = COUNT(default_set);
	return default_set;
}
