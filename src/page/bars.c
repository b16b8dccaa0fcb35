/* A bar chart: one horizontal bar a row of a report, its label on the left
 * and its value at the end; a tooltip (<title>) with the whole name and
 * the exact value.  Values below zero (a diff's faster rows) go left of
 * the axis in another colour. */
#include <math.h>

#include "page/page.h"

#define WIDTH 960
#define LABEL_W 330
#define BAR_W 520
#define ROW_H 20
#define TOP 30
#define LABEL_CHARS 48

/* text: the row's label as the chart shows it (page_labels), or NULL. */
static void bar(struct page *p, const struct page_bars *b, const struct page_scale *s, size_t r,
		int label, int value, const char *text)
{
	const struct nst_cell *name = page_cell(b->t, r, label), *v = page_cell(b->t, r, value);
	double val = page_real(v), x0 = LABEL_W + page_scale_x(s, 0, BAR_W);
	double x1 = LABEL_W + page_scale_x(s, val, BAR_W), y = TOP + (double)r * ROW_H;
	char shown[96], exact[48];
	page_show(b->t->rows.cols[value], v, shown, sizeof shown);
	page_raw(p->out, "<g><title>");
	page_esc_short(p->out, name->kind == NST_TEXT ? name->v.s : page_exact(name, exact, sizeof exact),
		       PAGE_TEXT_MAX);
	page_raw(p->out, ": ");
	page_escz(p->out, shown);
	page_raw(p->out, "</title><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", LABEL_W - 6,
		 y + 14);
	if (b->device)
		page_raw(p->out, "rank %lld, GPU %lld", (long long)page_real(name),
			 (long long)page_real(page_cell(b->t, r, page_col(b->t, b->device))));
	else if (name->kind == NST_TEXT && text)
		page_escz(p->out, text);
	else if (name->kind == NST_TEXT)
		page_esc_short(p->out, name->v.s, LABEL_CHARS);
	else {
		page_raw(p->out, "%s", b->prefix ? b->prefix : "");
		page_escz(p->out, page_show(b->t->rows.cols[label], name, exact, sizeof exact));
	}
	page_raw(p->out, "</text><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
		 "fill=\"%s\"/><text x=\"%.1f\" y=\"%.1f\">", fmin(x0, x1), y + 3, fabs(x1 - x0),
		 ROW_H - 6, val < 0 ? PAGE_BLUE : PAGE_ORANGE, fmax(x0, x1) + 4, y + 14);
	page_escz(p->out, shown);
	page_raw(p->out, "</text></g>\n");
}

void page_bars(struct page *p, const struct page_bars *b)
{
	int label = page_col(b->t, b->label), value = page_col(b->t, b->value);
	size_t n = b->t->rows.nrows < b->max ? b->t->rows.nrows : b->max;
	if (label < 0 || value < 0 || n == 0)
		return;
	double lo = 0, hi = 0;
	for (size_t r = 0; r < n; r++) {
		double v = page_real(page_cell(b->t, r, value));
		lo = fmin(lo, v);
		hi = fmax(hi, v);
	}
	struct page_scale s;
	page_scale_of(&s, lo, hi, b->unit);
	double axis_y = TOP + (double)n * ROW_H + 4;
	char **labels = page_labels(b->t, label, n, LABEL_CHARS);
	page_svg_open(p, b->title, WIDTH, axis_y + 40);
	for (size_t r = 0; r < n; r++)
		bar(p, b, &s, r, label, value, labels ? labels[r] : NULL);
	page_axis(p, &s, LABEL_W, axis_y, BAR_W, b->axis);
	page_svg_close(p);
	page_labels_free(labels, n);
}
