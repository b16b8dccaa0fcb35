/* Declaring and reading what jobs need, and running one job: the context
 * a report sees, its filter, the sink or the formatter its rows go to. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "format/format.h"
#include "reports/calls.h"
#include "reports/graph_note.h"
#include "reports/nvtx_gpu.h"
#include "run/run.h"
#include "sqlreport/sqlreport.h"

/* ---- declaring columns ---------------------------------------------------- */

static enum nst_status declare(struct nst_events *ev, const struct nst_need *need,
			       bool filtered)
{
	enum nst_status s = NST_OK;
	for (; s == NST_OK && need && need->table; need++) {
		s = nst_ev_want(ev, need->table, need->column, need->text);
		if (s == NST_OK && filtered)
			s = nst_ev_want_filter(ev, need->table);
	}
	return s;
}

/* What one job reads: its report's columns, filtered where its filter
 * cuts, and what the run adds around it (the CUDA graph measure of a
 * kernel report, the NVTX names of nvtx-name). */
static enum nst_status declare_report(struct nst_events *ev, const struct nst_filter *filter,
				      const struct nst_report *r, const struct nst_job *job);

/* A diff report reads through the reports it names. */
static enum nst_status declare_sources(struct nst_events *ev, const struct nst_filter *filter,
				       const struct nst_job *job)
{
	enum nst_status s = NST_OK;
	for (const char *const *src = job->report->sources; s == NST_OK && *src; src++) {
		const struct nst_report *r = run_report_find(NST_REPORTS, *src);
		s = r ? declare_report(ev, filter, r, job) : NST_ERR_INTERNAL;
	}
	return s;
}

static enum nst_status declare_job(struct nst_events *ev, const struct nst_filter *filter,
				   const struct nst_job *job)
{
	if (job->report->sources)
		return declare_sources(ev, filter, job);
	return declare_report(ev, filter, job->report, job);
}

/* Whether the export has every table the report requires. */
static bool has_required(struct nst_events *ev, const struct nst_report *r)
{
	for (const char *const *t = r->requires; t && *t; t++)
		if (!nst_db_has_table(nst_ev_db(ev), *t))
			return false;
	return true;
}

static enum nst_status declare_report(struct nst_events *ev, const struct nst_filter *filter,
				      const struct nst_report *r, const struct nst_job *job)
{
	if (!has_required(ev, r))
		return NST_OK;
	struct nst_filter f;
	run_filter_of(filter, job, &f);
	bool filtered = !run_filter_is_none(&f);
	enum nst_status s = declare(ev, r->needs, filtered);
	if (s == NST_OK)
		s = declare(ev, r->needs_unfiltered, false);
	if (s == NST_OK && r->flags & NST_REPORT_KERNELS)
		s = declare(ev, nst_graph_note_needs, filtered);
	if (s == NST_OK && nst_args_flag(job->args, job->nargs, "nvtx-name"))
		s = declare(ev, nst_nvtx_name_needs, filtered);
	return s;
}

enum nst_status nst_export_load(struct nst_export *x, const struct nst_filter *filter,
				struct nst_job *const *jobs, size_t n, struct nst_error *err)
{
	/* job by job, so that each table's last reader is known */
	for (size_t j = 0; j < n; j++) {
		nst_ev_plan(x->ev, j);
		if (declare_job(x->ev, filter, jobs[j]) != NST_OK)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	nst_ev_plan(x->ev, NST_EV_NO_JOB);
	return nst_ev_preload(x->ev, err);
}

size_t nst_export_done(struct nst_export *x, size_t j)
{
	if (run_views_any(x->views))
		return 0;
	size_t freed = nst_ev_drop_after(x->ev, j);
	if (freed) {
		char line[128];
		nst_shared_reset(x->shared);
		snprintf(line, sizeof line, "freed %.1f MiB of tables no later job reads",
			 (double)freed / (1 << 20));
		nst_ev_timing(x->ev, line);
	}
	return freed;
}

/* ---- text output, opened with the first line ------------------------------- */

/* Starts the formatter (and asks for the stream) only when the report
 * has rows to give, so that a skipped report leaves no empty file behind;
 * notes that come before are kept until then (they live in the run's
 * arena). */
struct text_out {
	const struct nst_run *run;
	const char *title, *name;
	FILE *fp;
	const char *notes[NST_NOTE_FOOTER + 1];
	struct nst_fmt *fmt;
	struct nst_sink sink;
};

static enum nst_status text_begin(void *ctx, const char *const *cols, size_t n,
				  struct nst_error *err)
{
	struct text_out *t = ctx;
	const struct nst_run *run = t->run;
	struct nst_error why = { 0 };
	t->fp = run->out ? run->out : run->open(run->open_arg, &why);
	if (!t->fp) {
		if (why.status == NST_OK)
			nst_fail(&why, NST_ERR_IO, "%s: no stream to write to", run->job->name);
		*err = why;
		return why.status;
	}
	struct nst_fmt_spec spec = *nst_format_spec(run->format);
	/* nsys sizes its columns by the first rows and so must its reports;
	 * a comparison's later rows (removed launches after a hundred
	 * matched ones) would be cut and ragged, so every row sizes it
	 * (the formatter holds them in a file past a few MB). */
	if (run->job->report->diff && !spec.autolines_given)
		spec.autolines = 0;
	/* kernels that differ only in their middles must not read alike */
	spec.distinct_names = run->job->report->diff != NULL;
	t->fmt = nst_fmt_open(&spec, t->fp, t->title, t->name);
	if (!t->fmt)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	t->sink = nst_fmt_sink(t->fmt);
	enum nst_status s = NST_OK;
	for (int k = 0; s == NST_OK && k <= NST_NOTE_FOOTER; k++)
		if (t->notes[k])
			s = t->sink.note(t->sink.ctx, (enum nst_note)k, t->notes[k], err);
	return s == NST_OK ? t->sink.begin(t->sink.ctx, cols, n, err) : s;
}

static enum nst_status text_row(void *ctx, const struct nst_cell *cells, struct nst_error *err)
{
	struct text_out *t = ctx;
	return t->sink.row(t->sink.ctx, cells, err);
}

static enum nst_status text_note(void *ctx, enum nst_note kind, const char *text,
				 struct nst_error *err)
{
	struct text_out *t = ctx;
	if (t->fmt)
		return t->sink.note(t->sink.ctx, kind, text, err);
	if ((unsigned)kind > NST_NOTE_FOOTER)
		return nst_fail(err, NST_ERR_INTERNAL, "unknown note kind %d", (int)kind);
	t->notes[kind] = text;
	return NST_OK;
}

/* The report's own failure wins; failing to finish the output fails a
 * report that went well. */
static enum nst_status text_end(struct text_out *t, enum nst_status s, struct nst_error *err)
{
	struct nst_error end_err = { 0 };
	if (t->fmt && nst_fmt_end(t->fmt, &end_err) != NST_OK && s == NST_OK) {
		*err = end_err;
		return err->status;
	}
	return s;
}

enum nst_status run_output(const struct nst_run *run, run_body_fn body, void *arg,
			   const struct nst_run_result *res, struct nst_error *err)
{
	return run_output_as(run, run->job->report->title, run->job->name, body, arg, res, err);
}

enum nst_status run_output_as(const struct nst_run *run, const char *title, const char *name,
			      run_body_fn body, void *arg, const struct nst_run_result *res,
			      struct nst_error *err)
{
	struct text_out t = { .run = run, .title = title, .name = name };
	struct nst_sink text = { text_begin, text_row, text_note, &t };
	const struct nst_sink *out = run->sink ? run->sink : &text;
	struct run_top_rows top;
	struct nst_sink cut;
	size_t limit = run_top_rows_of(run->job);
	if (limit != SIZE_MAX) {
		cut = run_top_rows_sink(&top, out, limit);
		out = &cut;
	}
	enum nst_status s = body(arg, out, err);
	if (t.fmt && res)
		nst_fmt_hidden_graphs(t.fmt, res->hidden_graph_launches, res->hidden_graph_ns);
	return text_end(&t, s, err);
}

/* ---- running one job ---------------------------------------------------------- */

struct report_call {
	const struct nst_report *r;
	struct nst_ctx *ctx;
	struct nst_run_result *res;
};

static void measure_graphs(const struct nst_report *r, struct nst_ctx *ctx,
			   enum nst_status s, struct nst_run_result *res);
static void measure_exclusions(const struct nst_report *r, struct nst_ctx *ctx,
			       enum nst_status s, struct nst_run_result *res);

/* The graphs are measured before the output ends, so that json:typed
 * can say what the rows leave out. */
static enum nst_status report_body(void *arg, const struct nst_sink *out, struct nst_error *err)
{
	struct report_call *c = arg;
	enum nst_status s = c->r->run(c->ctx, out, err);
	measure_graphs(c->r, c->ctx, s, c->res);
	measure_exclusions(c->r, c->ctx, s, c->res);
	return s;
}

static enum nst_status discard_begin(void *ctx, const char *const *cols, size_t n,
				     struct nst_error *err)
{
	(void)ctx, (void)cols, (void)n, (void)err;
	return NST_OK;
}

static enum nst_status discard_row(void *ctx, const struct nst_cell *cells, struct nst_error *err)
{
	(void)ctx, (void)cells, (void)err;
	return NST_OK;
}

const struct nst_sink run_discard = { discard_begin, discard_row, NULL, NULL };

/* The NVTX range of the filter is not there: nsys says so, unless the
 * export lacks what the report needs, which it says first.  The report
 * runs on no rows to tell, unless nsys checks its tables after the
 * filter. */
static enum nst_status skipped_by_filter(const struct nst_report *r, struct nst_ctx *ctx,
					 struct nst_error *err)
{
	struct nst_error own = { 0 };
		if (r->flags & NST_REPORT_CHECKS_AFTER_FILTER)
		return NST_ERR_NODATA;
	if (r->run(ctx, &run_discard, &own) == NST_ERR_NODATA)
		*err = own;
	return NST_ERR_NODATA;
}

/* What a kernel report could not see of CUDA graphs, measured on the rows
 * its filter shows.  A skipped report gets it too (an export whose kernels
 * all ran in graphs has no kernel table); failing to measure leaves the
 * report's own result alone. */
static void measure_graphs(const struct nst_report *r, struct nst_ctx *ctx,
			   enum nst_status s, struct nst_run_result *res)
{
	struct nst_graph_time g = { 0 };
	struct nst_error ignored = { 0 };
	if (!(r->flags & NST_REPORT_KERNELS) || (s != NST_OK && s != NST_ERR_NODATA))
		return;
	if (nst_graph_time_of(ctx->ev, &g, &ignored) == NST_OK) {
		res->hidden_graph_launches = g.launches;
		res->hidden_graph_ns = g.ns;
	}
}

/* Rows the report left out on purpose, counted among those its filter
 * keeps, by reason.  Only a report that ran has left anything out; a
 * failed count leaves the report's own result alone. */
static void measure_exclusions(const struct nst_report *r, struct nst_ctx *ctx,
			       enum nst_status s, struct nst_run_result *res)
{
	_Static_assert(NST_EXCLUSIONS <= NST_EXCLUSION_ROOM, "nst_run_result.excluded has room");
	const struct nst_calls *c;
	struct nst_error ignored = { 0 };
	if (s != NST_OK)
		return;
	if ((r->flags & NST_REPORT_CALLS) && nst_calls_rows(ctx, &c, &ignored) == NST_OK)
		res->excluded[NST_EXCLUDED_BACKTRACE] = c->n - c->ncalls;
}

/* Errors of the export that are raised where its name is not known (a
 * sum that does not fit 64 bits) get it here: every input error names
 * its file. */
enum nst_status run_name_export(const struct nst_export *x, enum nst_status s,
				struct nst_error *err)
{
	size_t len = strlen(x->path);
	if (s != NST_ERR_DB || (strncmp(err->msg, x->path, len) == 0 && err->msg[len] == ':'))
		return s;
	char msg[sizeof err->msg];
	snprintf(msg, sizeof msg, "%s", err->msg);
	return nst_fail(err, s, "%s: %s", x->path, msg);
}

static enum nst_status check_run(const struct nst_run *run, struct nst_error *err)
{
	if (!run || !run->job)
		return nst_fail(err, NST_ERR_USAGE, "nst_run: no job");
	if (!run->job->report->run && !run->job->sql)
		return nst_fail(err, NST_ERR_USAGE, "nst_run: %s compares two exports (nst_diff)",
				run->job->name);
	if (!run->sink && (!run->format || (!run->out && !run->open)))
		return nst_fail(err, NST_ERR_USAGE,
				"nst_run: %s: neither a sink nor a format and a stream",
				run->job->name);
	return NST_OK;
}

static enum nst_status run_job(struct nst_export *x, const struct nst_run *run,
			       struct nst_ctx *ctx, struct nst_run_result *res,
			       struct nst_error *err)
{
	const struct nst_report *r = run->job->report;
	struct nst_filter filter;
	run_filter_of(run->filter, run->job, &filter);
	const struct nst_filter none = { 0 };
	enum nst_status s = run_views_get(x->views, &none, &ctx->ev_all, &ctx->shared_all, err);
	if (s == NST_OK)
		s = run_views_get(x->views, &filter, &ctx->ev, &ctx->shared, err);
	if (s != NST_OK)
		return s == NST_ERR_NODATA ? skipped_by_filter(r, ctx, err) : s;
	ctx->nvtx = filter.nvtx;
	return run_output(run, report_body, &(struct report_call){ r, ctx, res }, res, err);
}

enum nst_status nst_run(struct nst_export *x, const struct nst_run *run,
			struct nst_run_result *res, struct nst_error *err)
{
	struct nst_run_result ignored;
	res = res ? res : &ignored;
	*res = (struct nst_run_result){ 0 };
	enum nst_status s = check_run(run, err);
	if (s != NST_OK)
		return s;
	if (run->job->sql)
		return sqlreport_run(x, run, err);
	struct nst_arena arena = { 0 };
	struct nst_ctx ctx = {
		.db = x->db, .args = run->job->args, .nargs = run->job->nargs, .arena = &arena,
		.rows_kept = run_top_rows_of(run->job),
	};
	double t0 = x->opts.timing ? nst_seconds() : 0;
	s = run_name_export(x, run_job(x, run, &ctx, res, err), err);
	nst_arena_release(&arena);
	if (x->opts.timing) {
		char line[160];
		snprintf(line, sizeof line, "ran %s in %.6f s", run->job->spec,
			 nst_seconds() - t0);
		nst_ev_timing(x->ev, line);
	}
	return s;
}
