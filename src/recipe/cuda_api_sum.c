/* cuda_api_sum: every CUDA runtime and driver call's duration on every
 * rank, by API name, over the calls that `stats -r cuda_api_sum` counts
 * (never CUDA backtrace records). */
#include "recipe/shape.h"
#include "reports/common.h"

static void name_key(void *arg, int64_t id, struct nst_cell *key)
{
	const char *s = id == NST_NULL_I64 ? NULL : nst_api_name(arg, id);
	key[0] = s ? nst_text(s) : nst_null();
}

static enum nst_status add_calls(struct nst_ctx *ctx, struct recipe_part *rp,
				 const struct nst_calls *c, const struct nst_col *gtid,
				 struct nst_error *err)
{
	struct shape_groups sg;
	enum nst_status s = shape_groups_init(&sg, rp, err);
	for (size_t k = 0; s == NST_OK && k < c->ncalls; k++) {
		uint32_t i = nst_call_row(c, k);
		if (c->start[i] == NST_NULL_I64 || c->end[i] == NST_NULL_I64)
			continue;
		recipe_uid uid = recipe_rank_of(rp, nst_col_or_null(gtid, i));
		s = shape_add(&sg, nst_col_at(c->name_id, i), uid, c->end[i] - c->start[i],
			      name_key, 1, ctx, err);
	}
	shape_groups_release(&sg);
	return s;
}

static enum nst_status part(struct nst_ctx *ctx, struct recipe_part *rp, const void *args,
			    struct nst_error *err)
{
	(void)args;
	const struct nst_calls *c;
	const struct nst_col *gtid = NULL;
	if (!nst_db_has_table(ctx->db, RUNTIME))
		return NST_OK;
	enum nst_status s = nst_require_strings(ctx, err);
	if (s == NST_OK)
		s = nst_calls_get(ctx, &c, err);
	if (s == NST_OK)
		s = nst_ev_col(ctx->ev, RUNTIME, "globalTid", &gtid, err);
	return s == NST_OK ? add_calls(ctx, rp, c, gtid, err) : s;
}

SHAPE_RECIPE(recipe, part, "Name");

static const struct nst_need needs[] = {
	NST_CALL_NEEDS,
	{ RUNTIME, "globalTid", false },
	{ NULL, NULL, false },
};

const struct nst_report nst_recipe_cuda_api_sum = {
	.name = "cuda_api_sum",
	.title = "CUDA API Summary",
	.help = "Every CUDA runtime and driver API function's calls on every rank,\n"
		"by name (a `_vNNNN` version suffix dropped): instances, total,\n"
		"average, median, minimum, maximum and standard deviation of one\n"
		"call over all ranks, how many ranks called it, and the imbalance\n"
		"(the largest rank's total over the mean rank's); then the same per\n"
		"rank.  CUDA backtrace records are not calls.  A value is one call's\n"
		"duration.",
	.needs = needs,
	.recipe = &recipe,
};
