/* nvtx_gpu_proj_sum: every NVTX range's GPU projection on every rank, by
 * range name, the projections of `stats -r nvtx_gpu_proj_sum` (the span
 * from the first GPU operation launched inside the range on its thread to
 * the last one's end). */
#include "recipe/shape.h"
#include "reports/nvtx_gpu_proj.h"

static void range_key(void *arg, int64_t id, struct nst_cell *key)
{
	const struct nst_nvtx_named *r = arg;
	key[0] = id < 0 ? nst_null() : nst_text(r->text[id]);
}

static enum nst_status add_projections(struct recipe_part *rp, const struct nst_proj *p,
				       struct nst_error *err)
{
	struct shape_groups sg;
	enum nst_status s = shape_groups_init(&sg, rp, err);
	for (size_t i = 0; s == NST_OK && i < p->n; i++) {
		uint32_t e = p->entry[i];
		int64_t name = nst_nvtx_name_of(&p->named, e);
		recipe_uid uid = recipe_rank_of(rp, nst_col_or_null(p->nv.gtid, p->named.row[e]));
		s = shape_add(&sg, name == NST_NULL_I64 ? -1 : name, uid, p->pend[i] - p->pstart[i],
			      range_key, 1, (void *)&p->named, err);
	}
	shape_groups_release(&sg);
	return s;
}

static enum nst_status part(struct nst_ctx *ctx, struct recipe_part *rp, const void *args,
			    struct nst_error *err)
{
	(void)args;
	struct nst_proj p;
	enum nst_status s = nst_proj_check(ctx, err);
	if (s == NST_OK)
		s = nst_proj_build(ctx, false, &p, err);
	if (s != NST_OK)
		return s;
	s = add_projections(rp, &p, err);
	nst_proj_release(&p);
	return s;
}

SHAPE_RECIPE(recipe, part, "Range");

const struct nst_report nst_recipe_nvtx_gpu_proj_sum = {
	.name = "nvtx_gpu_proj_sum",
	.title = "NVTX GPU Projection Summary",
	.help = "Every NVTX range projected onto the GPU on every rank, by range\n"
		"name (both styles together): instances, total, average, median,\n"
		"minimum, maximum and standard deviation of one projection over all\n"
		"ranks, how many ranks have it, and the imbalance (the largest\n"
		"rank's total over the mean rank's); then the same per rank.  A\n"
		"value is one range's projected duration, as nvtx_gpu_proj_sum\n"
		"computes it: from the first start to the last end of the GPU\n"
		"operations launched inside the range on its thread.",
	.needs = nst_proj_needs,
	.recipe = &recipe,
};
