/* What every chart shares: the scale of a value axis in a unit a person
 * reads (ns become ms or s), its ticks at round numbers, and the SVG
 * around a chart, with its title. */
#include <math.h>
#include <string.h>

#include "page/page.h"

void page_scale_of(struct page_scale *s, double lo, double hi, const char *unit)
{
	s->lo = lo < 0 ? lo : 0;
	s->hi = hi > s->lo ? hi : s->lo + 1;
	s->div = 1;
	s->unit = unit;
	if (strcmp(unit, "ns") == 0) {
		double m = fmax(fabs(s->lo), fabs(s->hi));
		s->div = m >= 1e9 ? 1e9 : m >= 1e6 ? 1e6 : m >= 1e3 ? 1e3 : 1;
		s->unit = m >= 1e9 ? "s" : m >= 1e6 ? "ms" : m >= 1e3 ? "\xC2\xB5s" : "ns";
	}
	double range = (s->hi - s->lo) / s->div, step = pow(10, floor(log10(range / 5)));
	if (range / step > 25)
		step *= 5;
	else if (range / step > 10)
		step *= 2;
	s->step = step * s->div;
}

double page_scale_x(const struct page_scale *s, double v, double width)
{
	return (v - s->lo) / (s->hi - s->lo) * width;
}

void page_svg_open(struct page *p, const char *title, double width, double height)
{
	p->ids++;
	page_raw(p->out, "<figure><svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" "
		 "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" aria-labelledby=\"%s-%u\">"
		 "<title id=\"%s-%u\">", width, height, width, height, p->section, p->ids, p->section,
		 p->ids);
	page_escz(p->out, title);
	page_raw(p->out, "</title>\n<text class=\"ct\" x=\"0\" y=\"16\">");
	page_escz(p->out, title);
	page_raw(p->out, "</text>\n");
}

void page_svg_close(struct page *p)
{
	page_raw(p->out, "</svg></figure>\n");
}

void page_axis(struct page *p, const struct page_scale *s, double x0, double y, double width,
	       const char *label)
{
	FILE *out = p->out;
	page_raw(out, "<g class=\"axis\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		 x0, y, x0 + width, y);
	double first = ceil(s->lo / s->step) * s->step;
	for (double v = first; v <= s->hi + s->step * 1e-9; v += s->step) {
		double x = x0 + page_scale_x(s, v, width);
		double shown = fabs(v / s->div) < 1e-12 ? 0 : v / s->div;
		page_raw(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			 "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n",
			 x, y, x, y + 4, x, y + 16, shown);
	}
	page_raw(out, "<text class=\"al\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
		 x0 + width / 2, y + 32);
	page_escz(out, label);
	page_raw(out, " (");
	page_escz(out, s->unit);
	page_raw(out, ")</text></g>\n");
}
