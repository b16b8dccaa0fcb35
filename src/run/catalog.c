/* Reports, rules and findings by name, and jobs: a report or rule with
 * the arguments -r gives it. */
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "diff/diff.h"
#include "run/run.h"
#include "rules/rule.h"

/* What each catalog is called in messages. */
static const char *noun_of(enum nst_catalog c)
{
	return c == NST_RULES ? "rule" : c == NST_FINDINGS ? "finding" : "report";
}

static const struct nst_report *const *reports_of(enum nst_catalog c, size_t *n)
{
	if (c == NST_REPORTS)
		return nst_report_all(n);
	if (c == NST_RULES)
		return nst_rule_all(n);
	if (c == NST_DIFFS)
		return nst_diff_all(n);
	*n = 0;
	return NULL;
}

size_t nst_catalog_size(enum nst_catalog c)
{
	size_t n;
	if (c == NST_FINDINGS)
		chk_findings(&n);
	else
		reports_of(c, &n);
	return n;
}

bool nst_catalog_entry(enum nst_catalog c, size_t i, struct nst_about *out)
{
	size_t n;
	if (c == NST_FINDINGS) {
		const struct chk_finding *const *f = chk_findings(&n);
		if (i >= n)
			return false;
		*out = (struct nst_about){ .name = f[i]->name, .title = f[i]->title,
					   .help = f[i]->help,
					   .informational = f[i]->informational };
		return true;
	}
	const struct nst_report *const *r = reports_of(c, &n);
	if (i >= n)
		return false;
	*out = (struct nst_about){ .name = r[i]->name, .title = r[i]->title, .help = r[i]->help,
				   .args = r[i]->args,
				   .addition = (r[i]->flags & NST_REPORT_ADDITION) != 0 };
	return true;
}

bool nst_catalog_find(enum nst_catalog c, const char *name, struct nst_about *out)
{
	for (size_t i = 0; nst_catalog_entry(c, i, out); i++)
		if (strcmp(out->name, name) == 0)
			return true;
	return false;
}

const char *const *nst_catalog_defaults(enum nst_catalog c, size_t *n)
{
	if (c == NST_REPORTS)
		return nst_report_default_set(n);
	if (c == NST_RULES)
		return nst_rule_default_set(n);
	if (c == NST_DIFFS)
		return nst_diff_default_set(n);
	*n = 0;
	return NULL;
}

const struct nst_report *run_report_find(enum nst_catalog c, const char *name)
{
	return c == NST_REPORTS ? nst_report_find(name)
	     : c == NST_RULES   ? nst_rule_find(name)
	     : c == NST_DIFFS   ? nst_diff_find(name) : NULL;
}

/* ---- jobs: "name:arg:key=value" ------------------------------------------- */

static bool accepts(const struct nst_report *r, const char *key)
{
	for (const char *const *a = r->args; a && *a; a++)
		if (strcmp(*a, key) == 0)
			return true;
	return false;
}

static enum nst_status check_arg(const struct nst_job *job, const struct nst_arg *a,
				 struct nst_error *err)
{
	if (run_filter_is_arg(a->key))
		return run_filter_check_arg(job->name, a, err);
	if (!accepts(job->report, a->key))
		return nst_fail(err, NST_ERR_UNKNOWN, "%s '%s': unknown argument '%s'",
				noun_of(job->cat), job->name, a->key);
	return NST_OK;
}

/* Splits buf into the name and its arguments, checking each as it comes
 * (nsys stops at the first bad one). */
static enum nst_status split_spec(struct nst_job *job, struct nst_error *err)
{
	char *save, *tok = strtok_r(job->buf, ":", &save);
	job->name = tok ? tok : job->buf;
	if (!job->report)
		job->report = run_report_find(job->cat, job->name);
	while ((tok = strtok_r(NULL, ":", &save))) {
		char *eq = strchr(tok, '=');
		if (eq)
			*eq = '\0';
		struct nst_arg *a = &job->args[job->nargs++];
		*a = (struct nst_arg){ tok, eq ? eq + 1 : NULL };
		enum nst_status s = job->report ? check_arg(job, a, err) : NST_OK;
		if (s != NST_OK)
			return s;
	}
	if (!job->report)
		return nst_fail(err, NST_ERR_UNKNOWN, "%s '%s' could not be found",
				noun_of(job->cat), job->name);
	if (job->report->check &&
	    job->report->check(job->args, job->nargs, err) != NST_OK) {
		char why[sizeof err->msg];
		snprintf(why, sizeof why, "%s", err->msg);
		return nst_fail(err, NST_ERR_USAGE, "%s '%s': %s", noun_of(job->cat), job->name, why);
	}
	return NST_OK;
}

enum nst_status nst_job_parse(enum nst_catalog c, const char *spec, struct nst_job **out,
			      struct nst_error *err)
{
	return run_job_new(c, NULL, spec, out, err);
}

enum nst_status run_job_new(enum nst_catalog c, const struct nst_report *r, const char *spec,
			    struct nst_job **out, struct nst_error *err)
{
	*out = NULL;
	if (c == NST_FINDINGS)
		return nst_fail(err, NST_ERR_USAGE, "findings run together, through nst_audit_run");
	struct nst_job *job = calloc(1, sizeof *job);
	if (!job)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	job->cat = c;
	job->report = r;
	job->spec = strdup(spec);
	job->buf = strdup(spec);
	job->args = calloc(strlen(spec) + 1, sizeof *job->args);
	enum nst_status s = job->spec && job->buf && job->args
				    ? split_spec(job, err)
				    : nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (s != NST_OK) {
		nst_job_free(job);
		return s;
	}
	*out = job;
	return NST_OK;
}

void nst_job_free(struct nst_job *job)
{
	if (!job)
		return;
	free(job->spec);
	free(job->buf);
	free(job->args);
	free(job);
}

const char *nst_job_spec(const struct nst_job *job) { return job->spec; }
const char *nst_job_name(const struct nst_job *job) { return job->name; }
