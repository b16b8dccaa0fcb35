/* A report's rows as an HTML table: every cell shown for a person, with
 * its exact value in data-v (and its column in data-col) for a script,
 * a test, or the sorting on the page. */
#include <stdbool.h>
#include <string.h>

#include "page/page.h"

/* The label of a column: its name up to the ':' of its tag. */
static size_t label_len(const char *col)
{
	const char *colon = strchr(col, ':');
	return colon ? (size_t)(colon - col) : strlen(col);
}

static void put_label(FILE *out, const char *col)
{
	page_esc(out, col, label_len(col));
}

/* Two medians of one kernel can differ many times over, and both are
 * called a median: a column holding either says which it is, in its
 * header's title and in a legend under the table. */
static const struct column_note {
	const char *label;  /* the label, or its last word ("A P50") */
	const char *note;
} notes[] = {
	{ "Med", "Med: nsys's median, the mean of the two middle values" },
	{ "P50", "P50: nearest-rank median, a duration that occurred" },
};

static const struct column_note *note_of(const char *col)
{
	size_t len = label_len(col);
	for (size_t i = 0; i < sizeof notes / sizeof *notes; i++) {
		size_t n = strlen(notes[i].label);
		if (len >= n && memcmp(col + len - n, notes[i].label, n) == 0 &&
		    (len == n || col[len - n - 1] == ' '))
			return &notes[i];
	}
	return NULL;
}

static void put_header(FILE *out, const char *col)
{
	const struct column_note *n = note_of(col);
	page_raw(out, "<th");
	if (n) {
		page_raw(out, " title=\"");
		page_escz(out, n->note);
		page_raw(out, "\"");
	}
	page_raw(out, ">");
	put_label(out, col);
	page_raw(out, "</th>");
}

/* The notes of the columns shown, each once, in table order. */
static void put_legend(FILE *out, const struct page_rows *t, const int *pick, size_t n)
{
	bool said[sizeof notes / sizeof *notes] = { false }, any = false;
	for (size_t k = 0; k < n; k++) {
		const struct column_note *c = note_of(t->rows.cols[pick[k]]);
		if (!c || said[c - notes])
			continue;
		page_raw(out, any ? "; " : "<p class=\"legend\">");
		page_escz(out, c->note);
		said[c - notes] = any = true;
	}
	if (any)
		page_raw(out, ".</p>\n");
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
		page_name_text(out, c->v.s);
	else
		page_escz(out, shown);
	page_raw(out, "</td>");
}

void page_name_text(FILE *out, const char *name)
{
	page_raw(out, "<div class=\"nm\" title=\"");
	page_esc_short(out, name, PAGE_TEXT_MAX);
	page_raw(out, "\">");
	page_esc_short(out, name, PAGE_TEXT_MAX);
	page_raw(out, "</div>");
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
	for (size_t k = 0; k < n; k++)
		put_header(out, t->rows.cols[pick[k]]);
	page_raw(out, "</tr></thead>\n<tbody>\n");
	for (size_t r = 0; r < rows; r++) {
		page_raw(out, "<tr>");
		for (size_t k = 0; k < n; k++)
			put_cell(out, t, r, pick[k]);
		page_raw(out, "</tr>\n");
	}
	page_raw(out, "</tbody>\n</table></div>\n");
	put_legend(out, t, pick, n);
	if (t->rows.nrows > rows) {
		page_raw(out, "<p class=\"more\">%zu more rows not shown (", t->rows.nrows - rows);
		page_escz(out, t->spec);
		page_raw(out, " has them all).</p>\n");
	}
}
