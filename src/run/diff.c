/* Comparing two exports: a diff job (src/diff) on a baseline and a
 * candidate, into a sink or a formatter as any job. */
#include "diff/diff.h"
#include "run/run.h"

struct diff_call {
	const struct nst_report *r;
	struct nst_diff_ctx *d;
};

/* A side's events under the diff's filter, as a report's context has them. */
static enum nst_status side_events(struct nst_diff_ctx *d, int side, struct nst_ctx *ctx,
				   struct nst_error *err)
{
	struct nst_export *x = d->side[side];
	const struct nst_filter none = { 0 };
	*ctx = (struct nst_ctx){ .db = x->db, .arena = &d->side_arena[side] };
	enum nst_status s = run_views_get(x->views, &none, &ctx->ev_all, &ctx->shared_all, err);
	if (s == NST_OK)
		s = run_views_get(x->views, &d->filter, &ctx->ev, &ctx->shared, err);
	ctx->nvtx = d->filter.nvtx;
	return s;
}

static enum nst_status diff_body(void *arg, const struct nst_sink *out, struct nst_error *err)
{
	struct diff_call *c = arg;
	return c->r->diff(c->d, out, err);
}

enum nst_status nst_diff(struct nst_export *a, struct nst_export *b, const struct nst_run *run,
			 struct nst_diff_result *res, struct nst_error *err)
{
	struct nst_diff_result ignored;
	res = res ? res : &ignored;
	*res = (struct nst_diff_result){ 0 };
	if (!run || !run->job)
		return nst_fail(err, NST_ERR_USAGE, "nst_diff: no job");
	const struct nst_report *r = run->job->report;
	if (!r->diff)
		return nst_fail(err, NST_ERR_USAGE, "nst_diff: %s is not a comparison (nst_run)",
				run->job->name);
	if (!run->sink && (!run->format || (!run->out && !run->open)))
		return nst_fail(err, NST_ERR_USAGE,
				"nst_diff: %s: neither a sink nor a format and a stream",
				run->job->name);
	struct nst_arena arena = { 0 };
	struct nst_diff_ctx d = { .side = { a, b }, .run = run, .events = side_events,
				  .args = run->job->args, .nargs = run->job->nargs, .arena = &arena,
				  .res = res };
	run_filter_of(run->filter, run->job, &d.filter);
	enum nst_status s = run_output(run, diff_body, &(struct diff_call){ r, &d }, NULL, err);
	nst_arena_release(&arena);
	nst_arena_release(&d.side_arena[0]);
	nst_arena_release(&d.side_arena[1]);
	return s;
}
