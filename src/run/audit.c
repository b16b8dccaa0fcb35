/* The audit of an export (src/check) as the API hands it out. */
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "run/run.h"

struct nst_audit {
	struct chk_report rep;
};

/* A name of -r is a report or a rule; its arguments do not matter here. */
static enum nst_status check_names(const char *const *reports, size_t n, struct nst_error *err)
{
	for (size_t i = 0; i < n; i++) {
		char name[128];
		snprintf(name, sizeof name, "%.*s", (int)strcspn(reports[i], ":"), reports[i]);
		if (!run_report_find(NST_REPORTS, name) && !run_report_find(NST_RULES, name))
			return nst_fail(err, NST_ERR_UNKNOWN, "report or rule '%s' could not be found",
					name);
	}
	return NST_OK;
}

/* ---- running the requested reports, for the skipped_reports finding ---- */

struct probe {
	struct nst_export *x;
	struct nst_job **jobs; /* one per requested report or rule */
	size_t n;
};

static enum nst_status probe_run(void *arg, size_t i, struct nst_error *err)
{
	struct probe *p = arg;
	return nst_run(p->x, &(struct nst_run){ .job = p->jobs[i], .sink = &run_discard }, NULL, err);
}

/* The audit's index of the calls serves the reports that run after it
 * (the page's NVTX projection): the same index, built once. */
static void probe_adopt_calls(void *arg, struct nst_corrindex *calls)
{
	struct probe *p = arg;
	nst_shared_adopt_call_index(p->x->shared, calls);
}

static void probe_release(struct probe *p)
{
	for (size_t i = 0; i < p->n; i++)
		nst_job_free(p->jobs[i]);
	free(p->jobs);
}

/* A job for each requested name (its arguments do not matter here), and
 * the tables they read, read once for all of them. */
static enum nst_status probe_init(struct probe *p, struct nst_export *x,
				  const char *const *reports, size_t n, struct nst_error *err)
{
	*p = (struct probe){ .x = x, .jobs = calloc(n ? n : 1, sizeof *p->jobs) };
	if (!p->jobs)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	enum nst_status s = NST_OK;
	for (; s == NST_OK && p->n < n; p->n++) {
		char name[128];
		snprintf(name, sizeof name, "%.*s", (int)strcspn(reports[p->n], ":"), reports[p->n]);
		enum nst_catalog c = run_report_find(NST_REPORTS, name) ? NST_REPORTS : NST_RULES;
		s = nst_job_parse(c, name, &p->jobs[p->n], err);
	}
	return s == NST_OK ? nst_export_load(x, NULL, p->jobs, p->n, err) : s;
}

enum nst_status nst_audit_run(struct nst_export *x, const char *const *reports, size_t n,
			      struct nst_audit **out, struct nst_error *err)
{
	*out = NULL;
	if (!reports)
		reports = nst_catalog_defaults(NST_REPORTS, &n);
	enum nst_status s = check_names(reports, n, err);
	if (s != NST_OK)
		return s;
	struct nst_audit *a = calloc(1, sizeof *a);
	if (!a)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	struct probe p;
	s = probe_init(&p, x, reports, n, err);
	if (s == NST_OK)
		s = chk_run(x->db, x->ev, &x->opts, reports, n,
			    &(struct chk_probe){ probe_run, &p, probe_adopt_calls }, &a->rep, err);
	probe_release(&p);
	if (s != NST_OK) {
		nst_audit_free(a);
		return s;
	}
	*out = a;
	return NST_OK;
}

enum nst_status nst_audit_want(struct nst_export *x, struct nst_error *err)
{
	if (chk_declare(x->ev) != NST_OK)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	return NST_OK;
}

void nst_audit_free(struct nst_audit *a)
{
	if (!a)
		return;
	chk_report_release(&a->rep);
	free(a);
}

size_t nst_audit_found(const struct nst_audit *a) { return chk_found(&a->rep); }

enum nst_status nst_audit_rows(const struct nst_audit *a, const struct nst_sink *sink,
			       struct nst_error *err)
{
	static const char *const cols[] = { "Finding", "Status", "Count", "Note" };
	enum nst_status s = sink->begin(sink->ctx, cols, 4, err);
	for (size_t i = 0; s == NST_OK && i < a->rep.n; i++) {
		const struct chk_result *r = &a->rep.results[i];
		struct nst_cell row[4] = {
			{ .kind = NST_TEXT, .v.s = a->rep.findings[i]->name },
			{ .kind = NST_TEXT, .v.s = chk_status_word(a->rep.findings[i], r) },
			r->count == CHK_NOT_CHECKED ? (struct nst_cell){ .kind = NST_NULL }
						    : (struct nst_cell){ .kind = NST_INT, .v.i = r->count },
			{ .kind = r->note ? NST_TEXT : NST_NULL, .v.s = r->note },
		};
		s = sink->row(sink->ctx, row, err);
	}
	return s;
}

enum nst_status nst_audit_write(const struct nst_audit *a, bool json, FILE *out,
				struct nst_error *err)
{
	(json ? chk_print_json : chk_print_text)(out, &a->rep);
	if (ferror(out))
		return nst_fail(err, NST_ERR_IO, "cannot write the check of %s", a->rep.path);
	return NST_OK;
}
