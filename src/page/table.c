/* A report's rows as an HTML table: every cell shown for a person, with
 * its exact value in data-v (and its column in data-col) for a script,
 * a test, or the sorting on the page. */
#include <string.h>

#include "page/page.h"

/* The label of a column: its name up to the ':' of its tag. */
static void put_label(FILE *out, const char *col)
{
	const char *colon = strchr(col, ':');
	page_esc(out, col, colon ? (size_t)(colon - col) : strlen(col));
}

static size_t pick_columns(const struct page_rows *t, const char *const *cols, int *pick)
{
	size_t n = 0;
	if (!cols) {
		for (size_t i = 0; i < t->rows.ncols; i++)
			if (t->rows.cols[i][0] != '_')
				pick[n++] = (int)i;
		return n;
	}
	for (size_t i = 0; cols[i]; i++) {
		int c = page_col(t, cols[i]);
		if (c >= 0)
			pick[n++] = c;
	}
	return n;
}

static void put_cell(FILE *out, const struct page_rows *t, size_t row, int col)
{
	const struct nst_cell *c = page_cell(t, row, col);
	char shown[160], exact[48];
	page_show(t->rows.cols[col], c, shown, sizeof shown);
	page_raw(out, "<td%s data-col=\"", c->kind == NST_TEXT ? " class=\"name\"" : "");
	put_label(out, t->rows.cols[col]);
	page_raw(out, "\" data-v=\"");
	page_esc_short(out, c->kind == NST_TEXT ? c->v.s : page_exact(c, exact, sizeof exact),
		       PAGE_TEXT_MAX);
	page_raw(out, "\">");
	if (c->kind == NST_TEXT)
		page_esc_short(out, c->v.s, PAGE_TEXT_MAX);
	else
		page_escz(out, shown);
	page_raw(out, "</td>");
}

void page_table(struct page *p, const struct page_rows *t, const char *const *cols, size_t max)
{
	int pick[64];
	if (t->rows.ncols > sizeof pick / sizeof *pick)
		return;
	size_t n = pick_columns(t, cols, pick), rows = t->rows.nrows < max ? t->rows.nrows : max;
	FILE *out = p->out;
	page_raw(out, "<div class=\"scroll\"><table class=\"rows\" data-report=\"");
	page_escz(out, t->spec);
	if (t->table[0]) {
		page_raw(out, "\" data-table=\"");
		page_escz(out, t->table);
	}
	page_raw(out, "\" data-input=\"%zu", t->input);
	page_raw(out, "\">\n<thead><tr>");
	for (size_t k = 0; k < n; k++) {
		page_raw(out, "<th>");
		put_label(out, t->rows.cols[pick[k]]);
		page_raw(out, "</th>");
	}
	page_raw(out, "</tr></thead>\n<tbody>\n");
	for (size_t r = 0; r < rows; r++) {
		page_raw(out, "<tr>");
		for (size_t k = 0; k < n; k++)
			put_cell(out, t, r, pick[k]);
		page_raw(out, "</tr>\n");
	}
	page_raw(out, "</tbody>\n</table></div>\n");
	if (t->rows.nrows > rows) {
		page_raw(out, "<p class=\"more\">%zu more rows not shown (", t->rows.nrows - rows);
		page_escz(out, t->spec);
		page_raw(out, " has them all).</p>\n");
	}
}
