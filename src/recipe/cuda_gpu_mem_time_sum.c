/* cuda_gpu_mem_time_sum: every memcpy's and memset's duration on every
 * rank, by operation, named as `stats -r cuda_gpu_mem_time_sum` names
 * them ("[CUDA memcpy Host-to-Device]", "[CUDA memset]"). */
#include "recipe/shape.h"
#include "reports/gpu_ops.h"

static void op_key(void *arg, int64_t id, struct nst_cell *key)
{
	key[0] = nst_text(nst_op_name(arg, id));
}

/* The rows of one table; name(i) is row i's operation number, 0 for a
 * memcpy whose kind has no label (the report joins the ENUM table). */
struct mem_rows {
	const struct nst_gpu_table *t;
	const int64_t *gpid;
	const int64_t *kind; /* NULL for memsets */
};

static int64_t op_of(struct nst_ctx *ctx, struct nst_op_names *nm, const struct mem_rows *m,
		     size_t i)
{
	return m->kind ? nst_op_name_memcpy(ctx, nm, m->kind[i]) : nst_op_name_memset(nm);
}

static enum nst_status add_rows(struct nst_ctx *ctx, struct shape_groups *sg,
				struct nst_op_names *nm, const struct mem_rows *m,
				struct nst_error *err)
{
	enum nst_status s = NST_OK;
	for (size_t i = 0; s == NST_OK && i < m->t->n; i++) {
		int64_t op = op_of(ctx, nm, m, i);
		if (op < 0)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		if (op == 0 || m->t->start[i] == NST_NULL_I64 || m->t->end[i] == NST_NULL_I64)
			continue;
		recipe_uid uid = recipe_rank_of(sg->rp, m->gpid ? m->gpid[i] : NST_NULL_I64);
		s = shape_add(sg, op, uid, m->t->end[i] - m->t->start[i], op_key, 1, nm, err);
	}
	return s;
}

static enum nst_status add_table(struct nst_ctx *ctx, struct shape_groups *sg,
				 struct nst_op_names *nm, bool copies, struct nst_error *err)
{
	const char *table = copies ? MEMCPY : MEMSET;
	struct nst_gpu_table t;
	struct mem_rows m = { &t, NULL, NULL };
	enum nst_status s = nst_gpu_table_load(ctx, table, NST_GPU_TIMES, &t, err);
	if (s == NST_OK && t.n)
		s = nst_ev_i64(ctx->ev, table, "globalPid", &m.gpid, err);
	if (s == NST_OK && t.n && copies) {
		s = nst_ev_i64(ctx->ev, table, "copyKind", &m.kind, err);
		if (!m.kind)
			return s; /* no kind, no name: the report has no row either */
	}
	return s == NST_OK && t.n ? add_rows(ctx, sg, nm, &m, err) : s;
}

static enum nst_status part(struct nst_ctx *ctx, struct recipe_part *rp, const void *args,
			    struct nst_error *err)
{
	(void)args;
	struct shape_groups sg;
	struct nst_op_names nm;
	enum nst_status s = nst_op_names_init(&nm, err);
	if (s != NST_OK)
		return s;
	if ((s = shape_groups_init(&sg, rp, err)) == NST_OK) {
		s = add_table(ctx, &sg, &nm, true, err);
		if (s == NST_OK)
			s = add_table(ctx, &sg, &nm, false, err);
		shape_groups_release(&sg);
	}
	nst_op_names_release(&nm);
	return s;
}

SHAPE_RECIPE(recipe, part, "Operation");

static const struct nst_need needs[] = {
	NST_GPU_TIMES_NEEDS(MEMCPY), NST_MEMCPY_KIND_NEEDS, { MEMCPY, "globalPid", false },
	NST_GPU_TIMES_NEEDS(MEMSET), { MEMSET, "globalPid", false },
	{ NULL, NULL, false },
};

const struct nst_report nst_recipe_cuda_gpu_mem_time_sum = {
	.name = "cuda_gpu_mem_time_sum",
	.title = "CUDA GPU MemOps Summary (by Time)",
	.help = "Every GPU memory operation on every rank, by kind of copy and\n"
		"memset: instances, total, average, median, minimum, maximum and\n"
		"standard deviation of one operation over all ranks, how many ranks\n"
		"ran it, and the imbalance (the largest rank's total over the mean\n"
		"rank's); then the same per rank.  A value is one memcpy's or\n"
		"memset's duration.",
	.needs = needs,
	.recipe = &recipe,
};
