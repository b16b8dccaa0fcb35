/* NCCL kernels as the recipes know them: by the prefix of their names
 * (docs/recipes.md), for exports carry no other mark of a collective. */
#ifndef NSTATS_RECIPE_NCCL_H
#define NSTATS_RECIPE_NCCL_H

#include <stdbool.h>
#include <stddef.h>

#include "reports/common.h"

/* Whether a kernel name is an NCCL kernel's: ncclKernel_* or
 * ncclDevKernel_*. */
bool nccl_is_kernel(const char *name);
/* Its collective: the word after the prefix ("AllReduce" of
 * ncclKernel_AllReduce_RING_LL_Sum_float), as *word and its length; 0 for
 * no NCCL kernel. */
size_t nccl_collective(const char *name, const char **word);

/* The kernels' names to tell NCCL kernels by: their short names (the
 * demangled ones where an export has none), StringIds ids. */
enum nst_status nccl_kernel_names(struct nst_ctx *ctx, const struct nst_col **ids,
				  struct nst_error *err);
#define NCCL_NEEDS { KERNEL, "shortName", false }, { KERNEL, "demangledName", false }

#endif
