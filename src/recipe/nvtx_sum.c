/* nvtx_sum: every NVTX push/pop and start/end range's duration on every
 * rank, by style and name, the ranges and names of `stats -r nvtx_sum`
 * ("domain:name"; a range that never ended runs to the last NVTX
 * timestamp). */
#include "recipe/shape.h"
#include "reports/nvtx.h"

static void range_key(void *arg, int64_t id, struct nst_cell *key)
{
	const struct nst_nvtx_named *r = arg;
	int64_t name = nst_nvtx_key_name(id);
	key[0] = nst_text(nst_nvtx_style_name(nst_nvtx_key_style(id)));
	key[1] = name == NST_NULL_I64 ? nst_null() : nst_text(r->text[name]);
}

static enum nst_status add_ranges(struct recipe_part *rp, const struct nst_nvtx *nv,
				  struct nst_nvtx_named *r, struct nst_error *err)
{
	struct shape_groups sg;
	enum nst_status s = shape_groups_init(&sg, rp, err);
	for (size_t k = 0; s == NST_OK && k < r->n; k++) {
		uint32_t row = r->row[k];
		recipe_uid uid = recipe_rank_of(rp, nst_col_or_null(nv->gtid, row));
		s = shape_add(&sg, nst_nvtx_range_key(nst_nvtx_name_of(r, k), r->style[k]), uid,
			      nst_nvtx_end(nv, row) - nv->start[row], range_key, 2, r, err);
	}
	shape_groups_release(&sg);
	return s;
}

static enum nst_status part(struct nst_ctx *ctx, struct recipe_part *rp, const void *args,
			    struct nst_error *err)
{
	(void)args;
	struct nst_nvtx nv;
	struct nst_nvtx_named named;
	enum nst_status s = nst_nvtx_check(ctx, err);
	if (!s) s = nst_nvtx_load(ctx, &nv, err);
	if (!s) s = nst_nvtx_name_ranges(ctx, &nv, NST_NVTX_ALL_STYLES, &named, err);
	if (s != NST_OK)
		return s;
	s = add_ranges(rp, &nv, &named, err);
	nst_nvtx_named_release(&named);
	return s;
}

SHAPE_RECIPE(recipe, part, "Style", "Range");

const struct nst_report nst_recipe_nvtx_sum = {
	.name = "nvtx_sum",
	.title = "NVTX Range Summary",
	.help = "Every NVTX range on every rank, by style (PushPop or StartEnd) and\n"
		"name (\"domain:name\" for ranges of a named domain): instances,\n"
		"total, average, median, minimum, maximum and standard deviation of\n"
		"one range over all ranks, how many ranks have it, and the imbalance\n"
		"(the largest rank's total over the mean rank's); then the same per\n"
		"rank.  A value is one range's duration; a range that never ended\n"
		"runs to the last NVTX timestamp of its export.",
	.needs = nst_nvtx_needs,
	.recipe = &recipe,
};
