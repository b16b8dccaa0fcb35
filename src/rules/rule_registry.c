/* Every rule, by name.  Adding one: see rule.h. */
#include <string.h>

#include "rules/rule.h"

extern const struct nst_report nst_rule_cuda_api_sync;
extern const struct nst_report nst_rule_cuda_memcpy_async;
extern const struct nst_report nst_rule_cuda_memcpy_sync;
extern const struct nst_report nst_rule_cuda_memset_sync;
extern const struct nst_report nst_rule_dx12_mem_ops;
extern const struct nst_report nst_rule_gpu_gaps;
extern const struct nst_report nst_rule_gpu_time_util;

/* In name order, as --help-rules lists them. */
static const struct nst_report *const rules[] = {
	&nst_rule_cuda_api_sync,
	&nst_rule_cuda_memcpy_async,
	&nst_rule_cuda_memcpy_sync,
	&nst_rule_cuda_memset_sync,
	&nst_rule_dx12_mem_ops,
	&nst_rule_gpu_gaps,
	&nst_rule_gpu_time_util,
};

/* nsys 2024.2.3's default rule set, in its order. */
static const char *const default_set[] = {
	"cuda_memcpy_async", "cuda_memcpy_sync", "cuda_memset_sync", "cuda_api_sync",
	"gpu_gaps", "gpu_time_util", "dx12_mem_ops",
};

#define COUNT(a) (sizeof(a) / sizeof *(a))

const struct nst_report *nst_rule_find(const char *name)
{
	for (size_t i = 0; i < COUNT(rules); i++)
		if (strcmp(rules[i]->name, name) == 0)
			return rules[i];
	return NULL;
}

const struct nst_report *const *nst_rule_all(size_t *n)
{
	*n = COUNT(rules);
	return rules;
}

const char *const *nst_rule_default_set(size_t *n)
{
	*n = COUNT(default_set);
	return default_set;
}
