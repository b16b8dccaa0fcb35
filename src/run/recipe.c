/* One export's part of a recipe: its columns read as a report's are, the
 * filter applied, and the recipe's first step run on the events. */
#include "recipe/part.h"
#include "run/run.h"

static enum nst_status load(struct nst_export *x, const struct nst_job *job,
			    const struct nst_filter *filter, struct nst_error *err)
{
	for (const struct nst_need *n = recipe_part_needs; n->table; n++)
		if (nst_ev_want(x->ev, n->table, n->column, n->text) != NST_OK)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	struct nst_job *jobs[] = { (struct nst_job *)job };
	return nst_export_load(x, filter, jobs, 1, err);
}

/* The events under the job's filter, and the part made from them. */
static enum nst_status make(struct nst_export *x, const struct nst_job *job,
			    const struct nst_filter *run_filter, struct recipe_part *rp,
			    struct nst_error *err)
{
	struct nst_filter filter;
	run_filter_of(run_filter, job, &filter);
	struct nst_arena arena = { 0 };
	struct nst_ctx ctx = { .db = x->db, .args = job->args, .nargs = job->nargs,
			       .arena = &arena };
	const struct nst_filter none = { 0 };
	enum nst_status s = run_views_get(x->views, &none, &ctx.ev_all, &ctx.shared_all, err);
	if (s == NST_OK)
		s = recipe_part_read_ranks(rp, ctx.ev_all, err);
	if (s == NST_OK)
		s = run_views_get(x->views, &filter, &ctx.ev, &ctx.shared, err);
	if (s == NST_OK) {
		ctx.nvtx = filter.nvtx;
		s = job->report->recipe->part(&ctx, rp, recipe_part_args(rp), err);
	}
	nst_arena_release(&arena);
	return s;
}

enum nst_status nst_part_make(struct nst_export *x, const struct nst_job *job, uint32_t input,
			      enum nst_ranks ranks, const struct nst_filter *filter,
			      struct nst_part **out, struct nst_error *err)
{
	*out = NULL;
	if (!job || job->cat != NST_RECIPES || !job->report->recipe)
		return nst_fail(err, NST_ERR_USAGE, "nst_part_make: %s is no recipe",
				job ? job->name : "(no job)");
	struct recipe_part *rp = recipe_part_begin(job, input, ranks, err);
	if (!rp)
		return err->status;
	enum nst_status s = load(x, job, filter, err);
	if (s == NST_OK)
		s = make(x, job, filter, rp, err);
	/* what the export lacks, or a range it does not have, is no rows */
	if (s == NST_ERR_NODATA)
		s = NST_OK;
	if (s == NST_OK)
		s = recipe_part_finish_ranks(rp, err);
	if (s != NST_OK) {
		recipe_part_abort(rp);
		return run_name_export(x, s, err);
	}
	*out = recipe_part_end(rp);
	return NST_OK;
}
