/* NCCL kernels told apart by name (nccl.h). */
#include <string.h>

#include "recipe/nccl.h"
#include "reports/kernel_names.h"

static const char *const prefixes[] = { "ncclKernel_", "ncclDevKernel_" };

static size_t prefix_of(const char *name)
{
	for (size_t i = 0; name && i < sizeof prefixes / sizeof *prefixes; i++)
		if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
			return strlen(prefixes[i]);
	return 0;
}

bool nccl_is_kernel(const char *name)
{
	return prefix_of(name) > 0;
}

size_t nccl_collective(const char *name, const char **word)
{
	size_t p = prefix_of(name);
	*word = p ? name + p : "";
	return p ? strcspn(*word, "_(<") : 0;
}

enum nst_status nccl_kernel_names(struct nst_ctx *ctx, const struct nst_col **ids,
				  struct nst_error *err)
{
	enum nst_status s = nst_require_strings(ctx, err);
	return s == NST_OK ? nst_kernel_name_ids(ctx, NST_KNAME_SHORT, ids, err) : s;
}
