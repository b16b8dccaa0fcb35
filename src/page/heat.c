/* Utilisation over time: one strip a (rank and) device, one cell a bucket
 * of the gpu_time_util recipe's util table (the share of the bucket
 * during which some GPU operation ran), darker for busier.  The buckets
 * divide each device's own GPU span, so the axis is the share of that
 * span.  Neighbouring buckets of the same share are one rectangle, whose
 * tooltip gives its time and percent: a strip of a bucket a pixel stays
 * small where the GPU was steadily busy or idle.  The strips carry the
 * table's numbers (data-*) for the page's tests. */
#include <math.h>
#include <string.h>

#include "page/page.h"

#define WIDTH 960
#define LABEL_W 130
#define PLOT_W 800
#define ROW_H 18
#define TOP 30

struct strip {
	int rank, device, bucket_time, first; /* columns; first: bucket "0" */
	size_t buckets;
};

static bool same_share(const struct nst_cell *a, const struct nst_cell *b)
{
	if (a->kind == NST_NULL || b->kind == NST_NULL)
		return a->kind == b->kind;
	return page_real(a) == page_real(b);
}

/* Buckets [k, k + n) of row r, all of c's share. */
static void cells(struct page *p, const struct page_rows *u, const struct strip *st, size_t r,
		  size_t k, size_t n, double y)
{
	const struct nst_cell *c = page_cell(u, r, st->first + (int)k);
	double w = (double)PLOT_W / (double)st->buckets, x = LABEL_W + (double)k * w;
	double len = page_real(page_cell(u, r, st->bucket_time)), pct = page_real(c);
	char a[48], b[48], v[48];
	page_raw(p->out, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" data-k=\"%zu\" "
		 "data-n=\"%zu\" data-v=\"%s\" ", x, y, w * (double)n + 0.05, ROW_H - 2, k, n,
		 page_exact(c, v, sizeof v));
	if (c->kind == NST_NULL)
		page_raw(p->out, "fill=\"%s\" fill-opacity=\"0.2\"><title>no time", PAGE_GREY);
	else
		page_raw(p->out, "fill=\"%s\" fill-opacity=\"%.3f\"><title>%.1f%% busy", PAGE_BLUE,
			 0.04 + 0.96 * fmin(fmax(pct, 0), 100) / 100, pct);
	page_raw(p->out, ", %s to %s after the first GPU operation</title></rect>",
		 page_show_ns(len * (double)k, a, sizeof a),
		 page_show_ns(len * (double)(k + n), b, sizeof b));
}

static void strip(struct page *p, const struct page_rows *u, const struct strip *st, size_t r,
		  bool ranks)
{
	double y = TOP + (double)r * ROW_H;
	long long rank = (long long)page_cell(u, r, st->rank)->v.i;
	const struct nst_cell *device = page_cell(u, r, st->device);
	char span[48], v[48];
	page_show_ns(page_real(page_cell(u, r, st->bucket_time)) * (double)st->buckets, span,
		     sizeof span);
	page_raw(p->out, "<g data-rank=\"%lld\" data-device=\"%s\"", rank,
		 page_exact(device, v, sizeof v));
	page_raw(p->out, " data-bucket-time=\"%s\"><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">",
		 page_exact(page_cell(u, r, st->bucket_time), v, sizeof v), LABEL_W - 6, y + 12);
	if (ranks)
		page_raw(p->out, "rank %lld, ", rank);
	page_raw(p->out, "GPU %lld", (long long)device->v.i);
	page_raw(p->out, "<title>GPU span about %s</title></text>\n", span);
	for (size_t k = 0, n; k < st->buckets; k += n) {
		const struct nst_cell *c = page_cell(u, r, st->first + (int)k);
		for (n = 1; k + n < st->buckets &&
			    same_share(c, page_cell(u, r, st->first + (int)(k + n))); n++)
			;
		cells(p, u, st, r, k, n, y);
	}
	page_raw(p->out, "</g>\n");
}

void page_heat(struct page *p, const char *title, const struct page_rows *util, bool ranks)
{
	struct strip st = { page_col(util, "Rank"), page_col(util, "Device"),
			    page_col(util, "Bucket Time"), page_col(util, "0"), 0 };
	if (st.rank < 0 || st.device < 0 || st.bucket_time < 0 || st.first < 0 || !util->rows.nrows)
		return;
	st.buckets = util->rows.ncols - (size_t)st.first;
	double axis_y = TOP + (double)util->rows.nrows * ROW_H + 4;
	struct page_scale s;
	page_scale_of(&s, 0, 100, "% of each GPU's span, first to last operation");
	page_svg_open(p, title, WIDTH, axis_y + 40);
	page_raw(p->out, "<g class=\"strips\" data-report=\"");
	page_escz(p->out, util->spec);
	page_raw(p->out, "\" data-table=\"");
	page_escz(p->out, util->table);
	page_raw(p->out, "\" data-buckets=\"%zu\">\n", st.buckets);
	for (size_t r = 0; r < util->rows.nrows; r++)
		strip(p, util, &st, r, ranks);
	page_raw(p->out, "</g>\n");
	page_axis(p, &s, LABEL_W, axis_y, PLOT_W, "time");
	page_svg_close(p);
}
