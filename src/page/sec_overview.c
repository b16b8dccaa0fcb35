/* The overview: for each input, what capture it is (capture_info) and
 * what `nstats check` found that changes the numbers, in its own words
 * (the finding's title and note), at the top of the page. */
#include <string.h>

#include "page/page.h"

/* The audit runs with no reports named: the page says itself which of
 * its sections have no data, and running them again for the
 * skipped_reports finding would double the page's time. */
static const char *const no_reports[] = { "" };

static void finding(struct page *p, const struct page_rows *a, size_t r)
{
	const struct nst_cell *name = page_cell(a, r, page_col(a, "Finding"));
	const struct nst_cell *count = page_cell(a, r, page_col(a, "Count"));
	const struct nst_cell *note = page_cell(a, r, page_col(a, "Note"));
	struct nst_about about = { 0 };
	const char *n = name->kind == NST_TEXT ? name->v.s : "";
	nst_catalog_find(NST_FINDINGS, n, &about);
	page_raw(p->out, "<li data-finding=\"");
	page_escz(p->out, n);
	page_raw(p->out, "\" data-v=\"%lld\"><b>%lld</b> ",
		 (long long)(count->kind == NST_INT ? count->v.i : 0),
		 (long long)(count->kind == NST_INT ? count->v.i : 0));
	page_escz(p->out, about.title ? about.title : n);
	page_raw(p->out, " (<code>");
	page_escz(p->out, n);
	page_raw(p->out, "</code>)");
	if (note->kind == NST_TEXT) {
		page_raw(p->out, ": ");
		page_esc_short(p->out, note->v.s, PAGE_TEXT_MAX);
	}
	page_raw(p->out, "</li>\n");
}

static enum nst_status audit(struct page *p, size_t i, struct nst_error *err)
{
	struct nst_audit *a = NULL;
	struct page_rows found_rows = { 0 };
	struct nst_sink sink = nst_rows_sink(&found_rows.rows);
	enum nst_status s = nst_audit_run(p->xs[i], no_reports, 0, &a, err);
	if (s == NST_OK)
		s = nst_audit_rows(a, &sink, err);
	int status = page_col(&found_rows, "Status");
	size_t found = 0;
	for (size_t r = 0; s == NST_OK && r < found_rows.rows.nrows; r++) {
		const struct nst_cell *c = page_cell(&found_rows, r, status);
		if (c->kind != NST_TEXT || strcmp(c->v.s, "FOUND") != 0)
			continue;
		if (found++ == 0)
			page_raw(p->out, "<p>What <code>nstats check</code> found in this export "
				 "(it changes what the numbers below count):</p>\n<ul class=\"found\">\n");
		finding(p, &found_rows, r);
	}
	if (s == NST_OK)
		page_raw(p->out, found ? "</ul>\n" : "<p><code>nstats check</code> found nothing "
			 "that hides or doubles work in this export.</p>\n");
	page_rows_release(&found_rows);
	nst_audit_free(a);
	return s;
}

static enum nst_status one_input(struct page *p, size_t i, struct nst_error *err)
{
	struct page_rows info = { 0 };
	if (p->n > 1) {
		page_raw(p->out, "<h3>%s ", p->n == 2 ? (i ? "B, the candidate:" : "A, the baseline:")
			 : "");
		if (p->n > 2)
			page_raw(p->out, "Rank %zu: ", i);
		page_escz(p->out, p->names[i]);
		page_raw(p->out, "</h3>\n");
	}
	enum nst_status s = page_run(p, i, NST_REPORTS, "capture_info", &info, err);
	if (s == NST_OK)
		s = audit(p, i, err);
	if (s == NST_OK && info.rows.nrows)
		page_table(p, &info, NULL, 64);
	else if (s == NST_OK)
		page_absent(p, "No capture information in this export.");
	page_rows_release(&info);
	return s;
}

enum nst_status page_overview(struct page *p, struct nst_error *err)
{
	enum nst_status s = NST_OK;
	page_section_open(p, "overview", "Overview", "capture_info and nstats check");
	for (size_t i = 0; s == NST_OK && i < p->n; i++)
		s = one_input(p, i, err);
	page_section_close(p);
	return s;
}
