/* Reports, rules and findings by name, and jobs: a report or rule with
 * the arguments -r gives it. */
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "core/suggest.h"
#include "diff/diff.h"
#include "recipe/recipe.h"
#include "run/run.h"
#include "rules/rule.h"

/* What each catalog is called in messages. */
static const char *noun_of(enum nst_catalog c)
{
	return c == NST_RULES ? "rule" : c == NST_FINDINGS ? "finding"
	     : c == NST_RECIPES ? "recipe" : "report";
}

static const struct nst_report *const *reports_of(enum nst_catalog c, size_t *n)
{
	if (c == NST_REPORTS)
		return nst_report_all(n);
	if (c == NST_RULES)
		return nst_rule_all(n);
	if (c == NST_DIFFS)
		return nst_diff_all(n);
	if (c == NST_RECIPES)
		return nst_recipe_all(n);
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
	     : c == NST_DIFFS   ? nst_diff_find(name)
	     : c == NST_RECIPES ? nst_recipe_find(name) : NULL;
}

/* ---- jobs: "name:arg:key=value" ------------------------------------------- */

static bool accepts(const struct nst_report *r, const char *key)
{
	for (const char *const *a = r->args; a && *a; a++)
		if (strcmp(*a, key) == 0)
			return true;
	return false;
}

/* The catalog's names, or the arguments a report takes, closest to a
 * name that is not one of them: "; did you mean ...?" or "". */
static const char *closest_report(enum nst_catalog c, const char *name, char *buf, size_t size)
{
	struct nst_suggest sg;
	struct nst_about about;
	nst_suggest_init(&sg, name, strlen(name));
	for (size_t i = 0; nst_catalog_entry(c, i, &about); i++)
		nst_suggest_offer(&sg, about.name);
	return nst_suggest_text(&sg, buf, size);
}

static const char *closest_arg(const struct nst_report *r, const char *key, char *buf, size_t size)
{
	struct nst_suggest sg;
	nst_suggest_init(&sg, key, strlen(key));
	for (const char *const *a = r->args; a && *a; a++)
		nst_suggest_offer(&sg, *a);
	for (const char *const *a = run_filter_args(); *a; a++)
		nst_suggest_offer(&sg, *a);
	return nst_suggest_text(&sg, buf, size);
}

static enum nst_status check_arg(const struct nst_job *job, const struct nst_arg *a,
				 struct nst_error *err)
{
	char hint[256];
	if (run_filter_is_arg(a->key))
		return run_filter_check_arg(job->name, a, err);
	if (!accepts(job->report, a->key)) {
		closest_arg(job->report, a->key, hint, sizeof hint);
		return nst_fail(err, NST_ERR_UNKNOWN, "%s '%s': unknown argument '%s'%s%s",
				noun_of(job->cat), job->name, a->key, *hint ? "; " : "", hint);
	}
	return NST_OK;
}

/* The argument that starts at *cursor, cut off in place; *cursor moves
 * past it (NULL after the last).  A ':' ends it, except in "::" (C++ and
 * PyTorch names such as flash_attn::_flash_attn_forward) and inside a
 * value in double quotes (nvtx="a:b"); false when such a quote never
 * closes. */
static bool next_arg(char **cursor, char **arg)
{
	char *p = *arg = *cursor;
	bool quoted = false;
	for (; *p; p++) {
		if (*p == '"' && (quoted || (p > *arg && p[-1] == '=')))
			quoted = !quoted;
		else if (!quoted && *p == ':' && p[1] == ':')
			p++;
		else if (!quoted && *p == ':')
			break;
	}
	*cursor = *p ? p + 1 : NULL;
	*p = '\0';
	return !quoted;
}

/* key=value, the value's quotes dropped. */
static void split_arg(char *tok, struct nst_arg *a)
{
	char *eq = strchr(tok, '=');
	if (eq)
		*eq = '\0';
	*a = (struct nst_arg){ tok, eq ? eq + 1 : NULL };
	size_t len = eq ? strlen(eq + 1) : 0;
	if (len >= 2 && eq[1] == '"' && eq[len] == '"') {
		eq[len] = '\0';
		a->value = eq + 2;
	}
}

static enum nst_status not_found(const struct nst_job *job, struct nst_error *err)
{
	char hint[256];
	closest_report(job->cat, job->name, hint, sizeof hint);
	return nst_fail(err, NST_ERR_UNKNOWN, "%s '%s' could not be found%s%s",
			noun_of(job->cat), job->name, *hint ? "; " : "", hint);
}

/* Splits buf into the name and its arguments, checking each as it comes
 * (nsys stops at the first bad one); empty arguments ("a:" or "a::b" of
 * old) are skipped. */
static enum nst_status split_spec(struct nst_job *job, struct nst_error *err)
{
	char *cursor = job->buf, *tok;
	next_arg(&cursor, &job->name);
	if (!job->report)
		job->report = run_report_find(job->cat, job->name);
	while (cursor) {
		if (!next_arg(&cursor, &tok))
			return nst_fail(err, NST_ERR_USAGE, "%s '%s': argument '%s': the quote"
					" never closes", noun_of(job->cat), job->name, tok);
		if (!*tok)
			continue;
		struct nst_arg *a = &job->args[job->nargs++];
		split_arg(tok, a);
		enum nst_status s = job->report ? check_arg(job, a, err) : NST_OK;
		if (s != NST_OK)
			return s;
	}
	if (!job->report)
		return not_found(job, err);
	if (run_top_rows_check(job, err) != NST_OK)
		return NST_ERR_USAGE;
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

bool nst_job_rows_grow(const struct nst_job *job)
{
	return job->cat != NST_REPORTS || job->sql || !job->report || !job->report->run ||
	       (job->report->flags & NST_REPORT_EVENT_ROWS);
}
