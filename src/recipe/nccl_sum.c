/* nccl_sum: every NCCL kernel's duration on every rank, by collective:
 * the word after the ncclKernel_ or ncclDevKernel_ prefix of the
 * demangled name (ncclDevKernel_AllReduce_Sum_f32_RING_LL(...) is an
 * AllReduce). */
#include <string.h>

#include "recipe/shape.h"
#include "reports/common.h"
#include "reports/kernel_names.h"

/* The collective's word in name, or NULL when name is no NCCL kernel's;
 * *len is its length. */
static const char *collective_of(const char *name, size_t *len)
{
	static const char *const prefix[] = { "ncclKernel_", "ncclDevKernel_" };
	for (size_t i = 0; name && i < sizeof prefix / sizeof *prefix; i++) {
		size_t n = strlen(prefix[i]);
		if (strncmp(name, prefix[i], n) == 0) {
			*len = strcspn(name + n, "_(");
			return name + n;
		}
	}
	return NULL;
}

static void collective_key(void *arg, int64_t id, struct nst_cell *key)
{
	struct nst_ctx *ctx = arg;
	size_t len = 0;
	const char *word = collective_of(nst_kernel_name_text(ctx, id), &len);
	const char *s = word ? nst_arena_strndup(ctx->arena, word, len) : NULL;
	key[0] = s ? nst_text(s) : nst_null(); /* NULL only when out of memory */
}

struct kernels {
	size_t n;
	const int64_t *start, *end, *gpid;
	const struct nst_col *name;
};

static enum nst_status add_kernels(struct nst_ctx *ctx, struct recipe_part *rp,
				   const struct kernels *k, struct nst_error *err)
{
	struct shape_groups sg;
	enum nst_status s = shape_groups_init(&sg, rp, err);
	for (size_t i = 0; s == NST_OK && i < k->n; i++) {
		int64_t id = nst_col_at(k->name, i);
		size_t len;
		if (k->start[i] == NST_NULL_I64 || k->end[i] == NST_NULL_I64 ||
		    !collective_of(nst_kernel_name_text(ctx, id), &len))
			continue;
		recipe_uid uid = recipe_rank_of(rp, k->gpid ? k->gpid[i] : NST_NULL_I64);
		s = shape_add(&sg, id, uid, k->end[i] - k->start[i], collective_key, 1, ctx, err);
	}
	shape_groups_release(&sg);
	return s;
}

static enum nst_status part(struct nst_ctx *ctx, struct recipe_part *rp, const void *args,
			    struct nst_error *err)
{
	(void)args;
	struct kernels k = { 0 };
	enum nst_status s = nst_ev_rows(ctx->ev, KERNEL, &k.n, err);
	if (s != NST_OK || k.n == 0)
		return s;
	if ((s = nst_require_strings(ctx, err)) == NST_OK &&
	    (s = nst_ev_i64(ctx->ev, KERNEL, "start", &k.start, err)) == NST_OK &&
	    (s = nst_ev_i64(ctx->ev, KERNEL, "end", &k.end, err)) == NST_OK &&
	    (s = nst_ev_i64(ctx->ev, KERNEL, "globalPid", &k.gpid, err)) == NST_OK)
		s = nst_kernel_name_ids(ctx, NST_KNAME_DEMANGLED, &k.name, err);
	if (s != NST_OK || !k.start || !k.end || !k.name)
		return s;
	return add_kernels(ctx, rp, &k, err);
}

SHAPE_RECIPE(recipe, part, "Collective");

static const struct nst_need needs[] = {
	{ KERNEL, "start", false }, { KERNEL, "end", false }, { KERNEL, "globalPid", false },
	{ KERNEL, "demangledName", false },
	{ NULL, NULL, false },
};

const struct nst_report nst_recipe_nccl_sum = {
	.name = "nccl_sum",
	.title = "NCCL Kernel Summary",
	.help = "Every NCCL kernel (ncclKernel_* or ncclDevKernel_*) on every rank,\n"
		"by collective, the word after the prefix (AllReduce, SendRecv):\n"
		"instances, total, average, median, minimum, maximum and standard\n"
		"deviation of one kernel over all ranks, how many ranks ran it, and\n"
		"the imbalance (the largest rank's total over the mean rank's); then\n"
		"the same per rank.  A value is one NCCL kernel's duration; exports\n"
		"carry no message sizes.",
	.needs = needs,
	.recipe = &recipe,
};
