/* A report's rows kept for the page, and the runs that fill them: a
 * report or rule on one input, a comparison of two, a recipe over all. */
#include <stdlib.h>
#include <string.h>

#include "page/page.h"

void page_rows_release(struct page_rows *t)
{
	nst_rows_release(&t->rows);
	*t = (struct page_rows){ 0 };
}

int page_col(const struct page_rows *t, const char *label)
{
	return nst_rows_col(&t->rows, label);
}

const struct nst_cell *page_cell(const struct page_rows *t, size_t row, int col)
{
	return nst_rows_cell(&t->rows, row, col);
}

double page_real(const struct nst_cell *c)
{
	return c->kind == NST_INT ? (double)c->v.i : c->kind == NST_REAL ? c->v.r : 0;
}

/* ---- runs ------------------------------------------------------------------------- */

static void remember(struct page_rows *t, const char *spec)
{
	page_rows_release(t);
	snprintf(t->spec, sizeof t->spec, "%s", spec);
}

/* A report the export cannot run is a section that says so, not an error;
 * its partial rows go. */
static enum nst_status settle(struct page_rows *t, enum nst_status s)
{
	if (s != NST_ERR_NODATA)
		return s;
	struct page_rows keep = *t;
	page_rows_release(t);
	memcpy(t->spec, keep.spec, sizeof t->spec);
	memcpy(t->table, keep.table, sizeof t->table);
	return NST_OK;
}

enum nst_status page_run(struct page *p, size_t i, enum nst_catalog c, const char *spec,
			 struct page_rows *t, struct nst_error *err)
{
	struct nst_job *job = NULL;
	struct nst_sink sink = nst_rows_sink(&t->rows);
	remember(t, spec);
	t->input = i;
	enum nst_status s = nst_job_parse(c, spec, &job, err);
	if (s == NST_OK)
		s = nst_run(p->xs[i], &(struct nst_run){ .job = job, .filter = p->filter, .sink = &sink },
			    &t->res, err);
	nst_job_free(job);
	return settle(t, s);
}

enum nst_status page_run_diff(struct page *p, const char *spec, struct page_rows *t,
			      struct nst_error *err)
{
	struct nst_job *job = NULL;
	struct nst_sink sink = nst_rows_sink(&t->rows);
	remember(t, spec);
	enum nst_status s = nst_job_parse(NST_DIFFS, spec, &job, err);
	if (s == NST_OK)
		s = nst_diff(p->xs[0], p->xs[1],
			     &(struct nst_run){ .job = job, .filter = p->filter, .sink = &sink }, NULL, err);
	nst_job_free(job);
	return settle(t, s);
}

static enum nst_status merge_all(struct page *p, const struct nst_job *job, struct nst_merge *m,
				 struct nst_error *err)
{
	enum nst_status s = NST_OK;
	for (size_t i = 0; s == NST_OK && i < p->n; i++) {
		struct nst_part *part = NULL;
		s = nst_part_make(p->xs[i], job, (uint32_t)i, NST_RANKS_INPUT, p->filter, &part, err);
		if (s == NST_OK)
			s = nst_merge_add(m, part, err);
	}
	return s;
}

static enum nst_status run_table(struct nst_merge *m, const struct nst_job *job,
				 const char *table, struct page_rows *t, struct nst_error *err)
{
	struct nst_sink sink = nst_rows_sink(&t->rows);
	for (size_t k = 0; nst_merge_table(m, k); k++)
		if (strcmp(nst_merge_table(m, k), table) == 0)
			return nst_merge_run(m, k, &(struct nst_run){ .job = job, .sink = &sink }, err);
	return nst_fail(err, NST_ERR_INTERNAL, "recipe %s has no table %s", nst_job_name(job), table);
}

enum nst_status page_run_recipe(struct page *p, const char *spec, const char *const *tables,
				struct page_rows *ts, struct nst_error *err)
{
	struct nst_job *job = NULL;
	struct nst_merge *m = NULL;
	size_t n = 0;
	for (; tables[n]; n++)
		remember(&ts[n], spec);
	enum nst_status s = nst_job_parse(NST_RECIPES, spec, &job, err);
	if (s == NST_OK)
		s = nst_merge_new(job, &m, err);
	if (s == NST_OK)
		s = merge_all(p, job, m, err);
	for (size_t k = 0; s == NST_OK && k < n; k++) {
		snprintf(ts[k].table, sizeof ts[k].table, "%s", tables[k]);
		s = run_table(m, job, tables[k], &ts[k], err);
	}
	nst_merge_free(m);
	nst_job_free(job);
	enum nst_status got = s;
	for (size_t k = 0; k < n; k++)
		s = settle(&ts[k], got);
	return n ? s : got;
}
