/* cuda_gpu_kern_sum: every kernel's durations on every rank, by name. */
#include "recipe/shape.h"
#include "reports/common.h"
#include "reports/kernel_names.h"

static void name_key(void *arg, int64_t id, struct nst_cell *key)
{
	const char *s = nst_kernel_name_text(arg, id);
	key[0] = s ? nst_text(s) : nst_null();
}

static enum nst_status part(struct nst_ctx *ctx, struct recipe_part *rp, const void *args,
			    struct nst_error *err)
{
	(void)args;
	size_t n = 0;
	const int64_t *start = NULL, *end = NULL, *gpid = NULL;
	const struct nst_col *name = NULL;
	struct shape_groups sg;
	enum nst_status s = nst_ev_rows(ctx->ev, KERNEL, &n, err);
	if (s != NST_OK || n == 0)
		return s;
	if ((s = nst_require_strings(ctx, err)) == NST_OK &&
	    (s = nst_ev_i64(ctx->ev, KERNEL, "start", &start, err)) == NST_OK &&
	    (s = nst_ev_i64(ctx->ev, KERNEL, "end", &end, err)) == NST_OK &&
	    (s = nst_ev_i64(ctx->ev, KERNEL, "globalPid", &gpid, err)) == NST_OK)
		s = nst_kernel_name_ids(ctx, nst_kname_mode(ctx), &name, err);
	if (s != NST_OK || !start || !end || !name)
		return s;
	if ((s = shape_groups_init(&sg, rp, err)) != NST_OK)
		return s;
	for (size_t i = 0; s == NST_OK && i < n; i++) {
		if (start[i] == NST_NULL_I64 || end[i] == NST_NULL_I64)
			continue;
		recipe_uid uid = recipe_rank_of(rp, gpid ? gpid[i] : NST_NULL_I64);
		s = shape_add(&sg, nst_col_at(name, i), uid, end[i] - start[i], name_key, 1, ctx,
			      err);
	}
	shape_groups_release(&sg);
	return s;
}

SHAPE_RECIPE(recipe, part, "Name");

static const struct nst_need needs[] = {
	{ KERNEL, "start", false }, { KERNEL, "end", false }, { KERNEL, "globalPid", false },
	{ KERNEL, "demangledName", false },
	{ NULL, NULL, false },
};

const struct nst_report nst_recipe_cuda_gpu_kern_sum = {
	.name = "cuda_gpu_kern_sum",
	.title = "CUDA GPU Kernel Summary",
	.help = "Every kernel's executions on every rank, by kernel name: instances,\n"
		"total, average, median, minimum, maximum and standard deviation of\n"
		"one execution over all ranks, how many ranks ran it, and the\n"
		"imbalance (the largest rank's total over the mean rank's); then the\n"
		"same per rank.  base names kernels by their short name, mangled by\n"
		"their mangled name where the export has one.",
	.args = (const char *const[]){ "base", "mangled", NULL },
	.needs = needs,
	.recipe = &recipe,
};
