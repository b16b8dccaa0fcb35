/* Every recipe of `nstats recipe`, by name.  Adding one: see recipe.h. */
#include <string.h>

#include "recipe/recipe.h"

extern const struct nst_report nst_recipe_cuda_api_sum;
extern const struct nst_report nst_recipe_cuda_gpu_kern_sum;
extern const struct nst_report nst_recipe_cuda_gpu_mem_time_sum;
extern const struct nst_report nst_recipe_gpu_time_util;
extern const struct nst_report nst_recipe_mpi_sum;
extern const struct nst_report nst_recipe_nccl_overlap;
extern const struct nst_report nst_recipe_nccl_sum;
extern const struct nst_report nst_recipe_nvtx_gpu_proj_sum;
extern const struct nst_report nst_recipe_nvtx_sum;
extern const struct nst_report nst_recipe_stragglers;

/* In name order, as --help-recipes lists them. */
static const struct nst_report *const recipes[] = {
	&nst_recipe_cuda_api_sum,
	&nst_recipe_cuda_gpu_kern_sum,
	&nst_recipe_cuda_gpu_mem_time_sum,
	&nst_recipe_gpu_time_util,
	&nst_recipe_mpi_sum,
	&nst_recipe_nccl_overlap,
	&nst_recipe_nccl_sum,
	&nst_recipe_nvtx_gpu_proj_sum,
	&nst_recipe_nvtx_sum,
	&nst_recipe_stragglers,
};

#define COUNT(a) (sizeof(a) / sizeof *(a))

const struct nst_report *nst_recipe_find(const char *name)
{
	for (size_t i = 0; i < COUNT(recipes); i++)
		if (strcmp(recipes[i]->name, name) == 0)
			return recipes[i];
	return NULL;
}

const struct nst_report *const *nst_recipe_all(size_t *n)
{
	*n = COUNT(recipes);
	return recipes;
}
