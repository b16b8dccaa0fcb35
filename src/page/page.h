/* The HTML page (nst_page_write): one self-contained file for a person,
 * drawn from the rows of the reports the page names.  page.c writes the
 * document and runs the sections of sections.c in order; rows.c keeps a
 * report's rows; html.c escapes; table.c, bars.c, boxes.c and heat.c draw
 * one kind of thing each; each section (sec_*.c) is one file. */
#ifndef NSTATS_PAGE_PAGE_H
#define NSTATS_PAGE_PAGE_H

#include <stdbool.h>
#include <stdio.h>

#include "nstats/nstats.h"

/* ---- a report's rows, kept (rows.c) ------------------------------------------- */

struct page_rows {
	struct nst_rows rows;   /* begun false: the export lacks the report's data */
	char spec[128];         /* the job, as `nstats stats -r` takes it */
	char table[32];         /* a recipe's table; "" for a report's rows */
	size_t input;           /* the input a report ran on */
	struct nst_run_result res; /* what the run found beside its rows */
};

/* The column whose label (the name up to any ':') is label; -1 when none. */
int page_col(const struct page_rows *t, const char *label);
const struct nst_cell *page_cell(const struct page_rows *t, size_t row, int col);
double page_real(const struct nst_cell *c); /* NULL and text: 0 */
void page_rows_release(struct page_rows *t);

/* ---- the page being written ---------------------------------------------------- */

struct page {
	FILE *out;
	struct nst_export *const *xs;
	size_t n;
	const char *const *names;  /* how the page names each input */
	size_t top;
	const struct nst_filter *filter;
	const char *section;       /* the section being written (its id) */
	unsigned ids;              /* charts so far in it: their ids */
};

/* Runs the report or rule spec (of catalog c) on input i into t; one the
 * export cannot run leaves t->ran false and is no error. */
enum nst_status page_run(struct page *p, size_t i, enum nst_catalog c, const char *spec,
			 struct page_rows *t, struct nst_error *err);
/* The same for a comparison of inputs 0 and 1 (nst_diff). */
enum nst_status page_run_diff(struct page *p, const char *spec, struct page_rows *t,
			      struct nst_error *err);
/* The tables named tables[] (NULL-terminated) of recipe spec over every
 * input, one rank an input, into ts[]. */
enum nst_status page_run_recipe(struct page *p, const char *spec, const char *const *tables,
				struct page_rows *ts, struct nst_error *err);

/* ---- writing HTML (html.c) ------------------------------------------------------ */

/* s[0..len) as HTML text or attribute value: & < > " ' escaped, control
 * bytes and bytes that are not UTF-8 as U+FFFD, so that the page is valid
 * UTF-8 and markup whatever the export holds. */
void page_esc(FILE *out, const char *s, size_t len);
void page_escz(FILE *out, const char *s);
/* At most about max bytes of s, an ellipsis in the middle when longer
 * (never inside a character). */
void page_esc_short(FILE *out, const char *s, size_t max);
/* The labels of one chart: the text cells of column col in rows [0, n),
 * each in at most w characters and distinct where the names are
 * (nst_shorten_all: the part where they differ is kept), so that a
 * chart's kernels never read alike; the whole name is in the tooltip.
 * NULL when out of memory; page_labels_free frees them. */
char **page_labels(const struct page_rows *t, int col, size_t n, size_t w);
void page_labels_free(char **labels, size_t n);
/* Names from an export, wherever the page shows them whole (tables,
 * tooltips): cut to this many bytes, so that a 1 MB kernel name cannot
 * make the page big. */
#define PAGE_TEXT_MAX 1000
/* printf with every %s escaped is too easy to get wrong: the page's own
 * markup goes through page_raw, text from exports through page_esc. */
void page_raw(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A value for a person in the unit its column's tag names ("_ns": the
 * largest unit of at least 1, "_%": a percent); into buf. */
const char *page_show(const char *col, const struct nst_cell *c, char *buf, size_t size);
/* ns as "12.345 ms". */
const char *page_show_ns(double ns, char *buf, size_t size);
/* A cell's exact value, as the report's csv gives it before rounding
 * ("" for NULL): the data-v attribute. */
const char *page_exact(const struct nst_cell *c, char *buf, size_t size);

/* <section> with its heading and the reports its numbers come from. */
void page_section_open(struct page *p, const char *id, const char *title, const char *from);
void page_section_close(struct page *p);
/* One line saying what is not there: "No NVTX ranges in this capture." */
void page_absent(struct page *p, const char *text);

/* ---- tables (table.c) ------------------------------------------------------------ */

/* A name inside its table cell: at most three lines of it (the style
 * clamps it), the whole name in its title, for the pointer. */
void page_name_text(FILE *out, const char *name);

/* Rows [0, max) of t, columns labelled in cols (NULL-terminated; all the
 * visible ones when NULL), each number cell with data-col and data-v;
 * "N more rows not shown" under it when t has more. */
void page_table(struct page *p, const struct page_rows *t, const char *const *cols, size_t max);

/* ---- charts: Okabe-Ito colours, titles, axes with units, <title> tooltips ---------- */

#define PAGE_BLUE "#0072B2"
#define PAGE_ORANGE "#E69F00"
#define PAGE_SKY "#56B4E9"
#define PAGE_GREEN "#009E73"
#define PAGE_VERMILION "#D55E00"
#define PAGE_PURPLE "#CC79A7"
#define PAGE_GREY "#999999"

/* A value axis (axis.c): lo..hi in the column's unit, shown in `unit`
 * after dividing by div (ns shown as ms...), ticks every step. */
struct page_scale {
	double lo, hi, div, step;
	const char *unit;
};
void page_scale_of(struct page_scale *s, double lo, double hi, const char *unit);
double page_scale_x(const struct page_scale *s, double v, double width);
/* <figure><svg> with the chart's title (as <title> and as text on top). */
void page_svg_open(struct page *p, const char *title, double width, double height);
void page_svg_close(struct page *p);
/* The axis line at y from x0, its ticks and the label "label (unit)". */
void page_axis(struct page *p, const struct page_scale *s, double x0, double y, double width,
	       const char *label);

/* One horizontal bar a row: label column, value column (a number, ns when
 * unit is "ns"), the first max rows; negative values go left of the axis
 * (diffs), in the second colour. */
struct page_bars {
	const char *title, *axis;  /* axis: "total time", units added */
	const struct page_rows *t;
	const char *label, *value;
	const char *unit;          /* "ns", "MB", "%" */
	size_t max;
	const char *device;        /* a device column: "rank R, GPU D" labels */
	const char *prefix;        /* before a label that is a number: "GPU " */
};
void page_bars(struct page *p, const struct page_bars *b);

/* Durations of the first max rows of a cuda_gpu_kern_dist-like table: a
 * line from Min to Max, a box from P50 to P90, a tick at P99, a dot at the
 * Mean, on a log time axis. */
void page_boxes(struct page *p, const char *title, const struct page_rows *t, size_t max);

/* A heat map: one row a (rank and) device, one cell a bucket of a
 * gpu_time_util recipe's util table; shade by busy percent. */
void page_heat(struct page *p, const char *title, const struct page_rows *util, bool ranks);
/* One bucket a pixel of the heat map's plot, for one input's strips (a
 * string: it is part of the recipe's spec). */
#define PAGE_STRIP_BUCKETS "800"

/* ---- the sections (sections.c) -------------------------------------------------- */

enum page_inputs { PAGE_ONE = 1, PAGE_TWO = 2, PAGE_MANY = 4, PAGE_ANY = 7 };

struct page_section {
	const char *id;
	enum page_inputs when;
	/* What it takes on a big capture, roughly (tenths of a second at ten
	 * million launches): sections start in that order, the longest first,
	 * so that threads writing them at once end together. */
	unsigned cost;
	/* Whether it sorts and groups a whole table beside the columns (a
	 * few hundred MB at ten million launches): two such sections never
	 * run at once, for the page's peak is theirs together. */
	bool big;
	/* Reports whose columns the page loads before the first section runs
	 * (each input), so that every table is read once. */
	const char *const *loads;
	enum nst_status (*write)(struct page *p, struct nst_error *err);
};
extern const struct page_section page_sections[];
extern const size_t page_nsections;

enum nst_status page_overview(struct page *p, struct nst_error *err);
enum nst_status page_gpu(struct page *p, struct nst_error *err);
enum nst_status page_kernels(struct page *p, struct nst_error *err);
enum nst_status page_memory(struct page *p, struct nst_error *err);
enum nst_status page_api(struct page *p, struct nst_error *err);
enum nst_status page_nvtx(struct page *p, struct nst_error *err);
enum nst_status page_gaps(struct page *p, struct nst_error *err);
enum nst_status page_diff(struct page *p, struct nst_error *err);
enum nst_status page_ranks(struct page *p, struct nst_error *err);

#endif
