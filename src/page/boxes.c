/* The duration distribution of the top kernels: per kernel a line from
 * Min to Max, a box from P50 to P90, a tick at P99 and a dot at the Mean
 * (cuda_gpu_kern_dist's columns), on a log time axis, since kernels of
 * one run differ by orders of magnitude. */
#include <math.h>

#include "page/page.h"

#define WIDTH 960
#define LABEL_W 330
#define PLOT_W 560
#define ROW_H 22
#define TOP 30
#define LABEL_CHARS 48

enum { MIN, P50, P90, P99, MAX, MEAN, NSTATS };
static const char *const stat_col[NSTATS] = { "Min", "P50", "P90", "P99", "Max", "Mean" };

struct logscale {
	double lo, hi; /* log10 of ns */
};

static double lx(const struct logscale *s, double ns)
{
	double v = log10(ns < 1 ? 1 : ns);
	return LABEL_W + (v - s->lo) / (s->hi - s->lo) * PLOT_W;
}

static void log_axis(struct page *p, const struct logscale *s, double y)
{
	char buf[48];
	page_raw(p->out, "<g class=\"axis\"><line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n",
		 LABEL_W, y, LABEL_W + PLOT_W, y);
	for (double e = ceil(s->lo); e <= s->hi + 1e-9; e++) {
		double x = lx(s, pow(10, e));
		page_raw(p->out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			 "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x, y, x, y + 4, x, y + 16);
		page_escz(p->out, page_show_ns(pow(10, e), buf, sizeof buf));
		page_raw(p->out, "</text>\n");
	}
	page_raw(p->out, "<text class=\"al\" x=\"%d\" y=\"%.1f\" text-anchor=\"middle\">"
		 "kernel duration (log scale, ns to s)</text></g>\n", LABEL_W + PLOT_W / 2, y + 32);
}

static void tooltip(struct page *p, const struct page_rows *t, size_t r, const int *col,
		    const char *name)
{
	char buf[48];
	page_raw(p->out, "<title>");
	page_esc_short(p->out, name, PAGE_TEXT_MAX);
	for (int k = 0; k < NSTATS; k++) {
		page_raw(p->out, "\n%s ", stat_col[k]);
		page_escz(p->out, page_show_ns(page_real(page_cell(t, r, col[k])), buf, sizeof buf));
	}
	page_raw(p->out, "</title>");
}

/* label: the kernel's name as the chart shows it (page_labels), or NULL. */
static void box(struct page *p, const struct page_rows *t, const struct logscale *s, size_t r,
		const int *col, int name, const char *label)
{
	double v[NSTATS], y = TOP + (double)r * ROW_H, mid = y + ROW_H / 2.0;
	for (int k = 0; k < NSTATS; k++)
		v[k] = page_real(page_cell(t, r, col[k]));
	const struct nst_cell *nm = page_cell(t, r, name);
	const char *text = nm->kind == NST_TEXT ? nm->v.s : "";
	page_raw(p->out, "<g>");
	tooltip(p, t, r, col, text);
	page_raw(p->out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", LABEL_W - 6, mid + 4);
	if (label)
		page_escz(p->out, label);
	else
		page_esc_short(p->out, text, LABEL_CHARS);
	page_raw(p->out, "</text><line class=\"whisker\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		 "y2=\"%.1f\"/><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>"
		 "<line class=\"p99\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
		 "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/></g>\n",
		 lx(s, v[MIN]), mid, lx(s, v[MAX]), mid, lx(s, v[P50]), y + 4,
		 fmax(lx(s, v[P90]) - lx(s, v[P50]), 1), ROW_H - 8, PAGE_SKY, lx(s, v[P99]), y + 2,
		 lx(s, v[P99]), y + ROW_H - 2, lx(s, v[MEAN]), mid, PAGE_VERMILION);
}

void page_boxes(struct page *p, const char *title, const struct page_rows *t, size_t max)
{
	int col[NSTATS], name = page_col(t, "Name");
	size_t n = t->rows.nrows < max ? t->rows.nrows : max;
	for (int k = 0; k < NSTATS; k++)
		if ((col[k] = page_col(t, stat_col[k])) < 0)
			return;
	if (n == 0 || name < 0)
		return;
	double lo = INFINITY, hi = 0;
	for (size_t r = 0; r < n; r++) {
		lo = fmin(lo, page_real(page_cell(t, r, col[MIN])));
		hi = fmax(hi, page_real(page_cell(t, r, col[MAX])));
	}
	struct logscale s = { floor(log10(lo < 1 ? 1 : lo)), ceil(log10(hi < 1 ? 1 : hi)) };
	if (s.hi <= s.lo)
		s.hi = s.lo + 1;
	double axis_y = TOP + (double)n * ROW_H + 4;
	char **labels = page_labels(t, name, n, LABEL_CHARS);
	page_svg_open(p, title, WIDTH, axis_y + 56);
	for (size_t r = 0; r < n; r++)
		box(p, t, &s, r, col, name, labels ? labels[r] : NULL);
	page_labels_free(labels, n);
	log_axis(p, &s, axis_y);
	page_raw(p->out, "<text class=\"legend\" x=\"%d\" y=\"%.1f\">line: min to max; box: P50 to "
		 "P90; bar: P99; dot: mean</text>\n", LABEL_W, axis_y + 50);
	page_svg_close(p);
}
