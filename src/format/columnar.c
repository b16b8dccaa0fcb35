/* The column and table styles.
 *
 * The first `autolines` rows are held back: they decide each column's
 * width and alignment, then they are printed and later rows stream
 * through with the same layout.  With autolines=0 every row is held, so
 * that a report of millions of rows is not held in memory: past
 * SPILL_BYTES of text the held rows go to a temporary file, read back
 * once the widths are known (what stays in memory is a few numbers a
 * column).  As in nsys:
 *   - a column is right-aligned when its sized cells hold more numbers
 *     than texts (NULLs do not vote), and numbers line up on the decimal
 *     point: integers get blanks as wide as the widest fraction plus one;
 *   - a cell wider than its column is cut and ends in U+2026, counting
 *     characters, not bytes;
 *   - headers are centred, the left side getting the smaller half.
 * With distinct_names (nstats's own reports) and every row sizing the
 * columns, a text too wide for its column is shortened in its middle
 * instead, together with the other texts of its column that are too
 * wide, so that distinct texts stay distinct (core/shorten.h); past
 * MAX_WIDE_TEXTS of them in a column it is cut as nsys cuts it.
 * With fit, the widest text columns then narrow until a line fits, no
 * column below FIT_FLOOR; their texts are shortened the same way, which
 * is why every text wider than FIT_FLOOR is kept in `wide`.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/shorten.h"
#include "core/strtab.h"
#include "format/format_int.h"

#define ELLIPSIS "\xE2\x80\xA6"
#define FRAC_NONE (-1)   /* a number without a decimal point */
#define FRAC_FLUSH (-2)  /* text or exponent form: never padded */
#define SPILL_BYTES ((size_t)8 << 20)
/* Shortening texts together costs the square of their number. */
#define MAX_WIDE_TEXTS 512
/* The narrowest fit= makes a column of text. */
#define FIT_FLOOR 16

struct bcell {
	size_t off;          /* in nst_colbuf.text */
	size_t len;          /* bytes; 0 with null */
	int frac;
	bool null;
};

/* The distinct texts of a column too wide for it, and how each is shown. */
struct wide_texts {
	struct nst_strtab texts; /* owned copies */
	char **shown;            /* by id, once laid out; NULL: cut as nsys does */
	size_t nshown;
	bool too_many;
};

struct nst_colbuf {
	char *text;
	size_t len, cap;
	struct bcell *cells;
	size_t ncells, cells_cap;
	size_t rows;         /* held in memory, after those spilled */
	FILE *spill;         /* rows held in a temporary file, or NULL */
	size_t spilled;      /* rows in it */
	struct wide_texts *wide; /* by column, with distinct_names; else NULL */
	bool laid_out;
};

/* A cell as printed: text after re-printing, and its fraction width. */
struct shown {
	const char *s;
	size_t len;
	int frac;
	bool null;
	bool number;
};

int nst_columnar_begin(struct nst_fmt *f)
{
	f->ints_as_printed = nst_num_marks_plain(&f->spec.numeric) && !f->spec.nofmt;
	f->buf = calloc(1, sizeof *f->buf);
	if (!f->buf)
		return -1;
	if (f->spec.distinct_names && f->spec.autolines == 0 &&
	    !(f->buf->wide = calloc(f->ncols ? f->ncols : 1, sizeof *f->buf->wide)))
		return -1;
	return 0;
}

static void wide_release(struct nst_fmt *f)
{
	struct wide_texts *w = f->buf->wide;

	for (size_t k = 0; w && k < f->ncols; k++) {
		for (size_t i = 0; i < w[k].texts.n; i++)
			free((char *)w[k].texts.text[i]);
		for (size_t i = 0; i < w[k].nshown; i++)
			free(w[k].shown[i]);
		free(w[k].shown);
		nst_strtab_release(&w[k].texts);
	}
	free(w);
	f->buf->wide = NULL;
}

void nst_columnar_free(struct nst_fmt *f)
{
	if (!f->buf)
		return;
	wide_release(f);
	free(f->buf->text);
	free(f->buf->cells);
	if (f->buf->spill)
		fclose(f->buf->spill);
	free(f->buf);
	f->buf = NULL;
}

/* ---- one cell ---- */

/* Whether the cell is shown as the integer nst_num_itoa printed: not
 * converted, and re-printed under marks that change nothing. */
static bool shown_as_printed(const struct nst_fmt *f, const struct nst_fcol *c,
			     const struct nst_cell *cell)
{
	return cell->kind == NST_INT && c->from == c->to && f->ints_as_printed;
}

/* as_printed: an integer shown as it was printed (shown_as_printed), with
 * no fraction; re-printing half the cells of a summary cost a scan and a
 * copy each. */
static void show_value(const struct nst_fmt *f, const struct nst_val *v, bool as_printed,
		       char *out, struct shown *sh)
{
	bool reprint = v->kind != NST_NUM_NONE && !f->spec.nofmt;

	sh->null = !v->s;
	sh->number = v->s && v->kind != NST_NUM_NONE;
	sh->s = v->s;
	sh->len = v->len;
	if (as_printed) {
		sh->frac = FRAC_NONE;
		return;
	}
	if (reprint) {
		sh->len = nst_num_reformat(v->s, v->len, v->kind, &f->spec.numeric, true, out);
		sh->s = out;
	}
	/* nofmt leaves numbers as they are: no decimal-point alignment */
	if (!reprint || v->kind == NST_NUM_EXP)
		sh->frac = FRAC_FLUSH;
	else
		sh->frac = nst_num_frac(sh->s, sh->len, &f->spec.numeric);
}

static size_t pad_of(const struct nst_fcol *c, int frac)
{
	/* numbers are padded in text columns too: it shows in the width */
	if (frac == FRAC_FLUSH)
		return 0;
	if (frac == FRAC_NONE)
		return c->maxfrac > 0 ? (size_t)c->maxfrac + 1 : 0;
	return c->maxfrac > frac ? (size_t)(c->maxfrac - frac) : 0;
}

/* ---- lines ---- */

/* Each line is made in f->line and written in one call (end_line): a
 * call into stdio for every cell, pad and separator cost more than
 * formatting them.  Out of memory is kept in f->nomem. */
static void add(struct nst_fmt *f, const char *s, size_t len)
{
	if (!f->nomem && nst_line_put(&f->line, s, len))
		f->nomem = true;
}

static void add_str(struct nst_fmt *f, const char *s)
{
	add(f, s, strlen(s));
}

static void add_repeat(struct nst_fmt *f, char c, size_t n)
{
	struct nst_line *l = &f->line;
	if (f->nomem || (l->n + n > l->cap && nst_line_grow(l, n))) {
		f->nomem = true;
		return;
	}
	memset(l->p + l->n, c, n);
	l->n += n;
}

static void end_line(struct nst_fmt *f, const char *end)
{
	add_str(f, end);
	if (!f->nomem)
		fwrite(f->line.p, 1, f->line.n, f->out);
	f->line.n = 0;
}

static void add_clipped(struct nst_fmt *f, const char *s, size_t len, size_t chars, size_t width)
{
	if (width == 0)
		return;
	if (chars >= width - 1) {
		add(f, s, nst_utf8_prefix(s, len, width - 1));
	} else {
		add(f, s, len);
		add_repeat(f, ' ', width - 1 - chars);
	}
	add_str(f, ELLIPSIS);
}

/* ---- texts too wide for their column (distinct_names) ---- */

/* The id of s[0..len) among w's texts, -1 when it is none of them (or
 * memory ran out: the text is then cut as nsys cuts it). */
static int64_t wide_id(struct wide_texts *w, const char *s, size_t len)
{
	char *copy = malloc(len + 1);
	size_t before = w->texts.n;
	int64_t id;

	if (!copy)
		return -1;
	memcpy(copy, s, len);
	copy[len] = '\0';
	id = nst_strtab_intern(&w->texts, copy);
	if (id < 0 || (size_t)id < before)
		free(copy);
	return id;
}

/* Keeps a text cell wider than any column may be, once per text. */
static int note_wide(struct nst_fmt *f, size_t k, const struct shown *sh)
{
	struct wide_texts *w = f->buf->wide ? &f->buf->wide[k] : NULL;
	const struct nst_fcol *c = &f->cols[k];
	size_t most = c->fixed_width > 0 ? (size_t)c->fixed_width
		      : f->spec.colmax > 0 ? (size_t)f->spec.colmax : SIZE_MAX;
	if (f->spec.fit > 0 && c->fixed_width <= 0 && most > FIT_FLOOR)
		most = FIT_FLOOR;

	if (!w || w->too_many || sh->null || sh->frac != FRAC_FLUSH ||
	    nst_utf8_chars(sh->s, sh->len) <= most)
		return 0;
	if (wide_id(w, sh->s, sh->len) < 0)
		return -1;
	if (w->texts.n > MAX_WIDE_TEXTS)
		w->too_many = true;
	return 0;
}

/* Each column's wide texts shortened to its width, together. */
static int shorten_wide(struct nst_fmt *f)
{
	struct wide_texts *w = f->buf->wide;

	for (size_t k = 0; w && k < f->ncols; k++) {
		if (w[k].too_many || !w[k].texts.n)
			continue;
		if (!(w[k].shown = calloc(w[k].texts.n, sizeof *w[k].shown)))
			return -1;
		w[k].nshown = w[k].texts.n;
		if (!nst_shorten_all(w[k].texts.text, w[k].texts.n, f->cols[k].width, w[k].shown))
			return -1;
	}
	return 0;
}

/* How column k shows s[0..len), too wide for it: shortened with the
 * column's other wide texts, or NULL to cut it as nsys does. */
static const char *wide_shown(struct nst_fmt *f, size_t k, const char *s, size_t len)
{
	struct wide_texts *w = f->buf->wide ? &f->buf->wide[k] : NULL;
	int64_t id;

	if (!w || !w->shown)
		return NULL;
	id = wide_id(w, s, len);
	if (id < 0 || (size_t)id >= w->nshown ||
	    nst_text_width(w->shown[id]) > f->cols[k].width)
		return NULL;
	return w->shown[id];
}

static void add_cell(struct nst_fmt *f, const struct nst_fcol *c, const char *s, size_t len,
		     int frac)
{
	size_t chars = nst_utf8_chars(s, len), pad = pad_of(c, frac);
	const char *shorter;

	if (chars + pad > c->width && frac == FRAC_FLUSH &&
	    (shorter = wide_shown(f, (size_t)(c - f->cols), s, len))) {
		add_str(f, shorter);
		add_repeat(f, ' ', c->width - nst_text_width(shorter));
		return;
	}
	if (chars + pad > c->width) {
		add_clipped(f, s, len, chars, c->width);
		return;
	}
	if (c->right)
		add_repeat(f, ' ', c->width - chars - pad);
	add(f, s, len);
	add_repeat(f, ' ', c->right ? pad : c->width - chars);
}

static void add_header_cell(struct nst_fmt *f, const struct nst_fcol *c)
{
	size_t chars = nst_utf8_chars(c->header, c->header_len), left;

	if (chars > c->width) {
		add_clipped(f, c->header, c->header_len, chars, c->width);
		return;
	}
	left = (c->width - chars) / 2;
	add_repeat(f, ' ', left);
	add(f, c->header, c->header_len);
	add_repeat(f, ' ', c->width - chars - left);
}

static bool is_table(const struct nst_fmt *f)
{
	return f->spec.style == NST_STYLE_TABLE;
}

static void line_start(struct nst_fmt *f)
{
	add_str(f, is_table(f) ? "| " : " ");
}

static void cell_gap(struct nst_fmt *f, size_t k)
{
	if (k)
		add_str(f, is_table(f) ? " | " : "  ");
}

static void line_end(struct nst_fmt *f)
{
	end_line(f, is_table(f) ? " |\n" : "\n");
}

static void table_rule(struct nst_fmt *f)
{
	add(f, "+", 1);
	for (size_t k = 0; k < f->ncols; k++) {
		add_repeat(f, '-', f->cols[k].width + 2);
		add(f, "+", 1);
	}
	end_line(f, "\n");
}

static void dash_rule(struct nst_fmt *f)
{
	add(f, " ", 1);
	for (size_t k = 0; k < f->ncols; k++) {
		cell_gap(f, k);
		add_repeat(f, '-', f->cols[k].width);
	}
	end_line(f, "\n");
}

/* A rule's advice comes with its rows; without rows it has its noresult. */
static void title_block(const struct nst_fmt *f, bool rows)
{
	fputs("\n ** ", f->out);
	if (f->title)
		fputs(f->title, f->out);
	if (f->title && f->report)
		putc(' ', f->out);
	if (f->report)
		fprintf(f->out, "(%s)", f->report);
	fputs(":\n\n", f->out);
	if (f->advice && rows)
		fprintf(f->out, "%s\n", f->advice);
}

static void header_lines(struct nst_fmt *f)
{
	title_block(f, true);
	if (is_table(f))
		table_rule(f);
	if (f->spec.nohdr)
		return;
	line_start(f);
	for (size_t k = 0; k < f->ncols; k++) {
		cell_gap(f, k);
		add_header_cell(f, &f->cols[k]);
	}
	line_end(f);
	if (is_table(f))
		table_rule(f);
	else
		dash_rule(f);
}

/* ---- sizing ---- */

static int keep(struct nst_colbuf *b, const struct shown *sh)
{
	struct bcell *c;

	if (b->ncells == b->cells_cap) {
		size_t cap = b->cells_cap ? 2 * b->cells_cap : 256;
		struct bcell *n = realloc(b->cells, cap * sizeof *n);
		if (!n)
			return -1;
		b->cells = n;
		b->cells_cap = cap;
	}
	if (b->len + sh->len > b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 4096;
		while (cap < b->len + sh->len)
			cap *= 2;
		char *n = realloc(b->text, cap);
		if (!n)
			return -1;
		b->text = n;
		b->cap = cap;
	}
	c = &b->cells[b->ncells++];
	/* padding too: a spilled cell is written whole */
	memset(c, 0, sizeof *c);
	c->off = b->len;
	c->len = sh->null ? 0 : sh->len;
	c->frac = sh->frac;
	c->null = sh->null;
	if (!sh->null)
		memcpy(b->text + b->len, sh->s, sh->len);
	b->len += c->len;
	return 0;
}

static void vote(struct nst_fcol *c, const struct shown *sh)
{
	if (sh->null)
		return;
	if (!sh->number) {
		c->texts++;
		return;
	}
	c->nums++;
	if (sh->frac > c->maxfrac)
		c->maxfrac = sh->frac;
}

/* The widest cell of each kind so far: its width once padded depends on
 * the widest fraction of all the sized rows (pad_of), known only when
 * the last is held. */
static void measure(struct nst_fcol *c, const struct shown *sh)
{
	size_t chars, *widest;

	if (sh->null)
		return;
	chars = nst_utf8_chars(sh->s, sh->len);
	if (sh->frac == FRAC_FLUSH) {
		widest = &c->widest_flush;
	} else if (sh->frac == FRAC_NONE) {
		widest = &c->widest_int;
	} else {
		widest = &c->widest_whole;
		chars -= (size_t)sh->frac;
	}
	if (chars > *widest)
		*widest = chars;
}

static size_t max_size(size_t a, size_t b)
{
	return a > b ? a : b;
}

/* The widest sized cell, padded: a fraction's whole part (with its point)
 * plus the widest fraction, an integer plus its blanks (pad_of). */
static size_t sized_width(const struct nst_fmt *f, const struct nst_fcol *c)
{
	size_t w = f->spec.nohdr ? 0 : nst_utf8_chars(c->header, c->header_len);

	if (c->fixed_width > 0)
		return (size_t)c->fixed_width;
	w = max_size(w, c->widest_flush);
	if (c->widest_int)
		w = max_size(w, c->widest_int + pad_of(c, FRAC_NONE));
	if (c->widest_whole)
		w = max_size(w, c->widest_whole + (size_t)c->maxfrac);
	if (f->spec.colmax > 0 && w > (size_t)f->spec.colmax)
		w = (size_t)f->spec.colmax;
	return w;
}

static void put_row_cells(struct nst_fmt *f, const struct bcell *row, const char *text)
{
	line_start(f);
	for (size_t k = 0; k < f->ncols; k++) {
		cell_gap(f, k);
		if (row[k].null)
			add_repeat(f, ' ', f->cols[k].width);
		else
			add_cell(f, &f->cols[k], text + row[k].off, row[k].len, row[k].frac);
	}
	line_end(f);
}

/* ---- rows held in a temporary file ---- */

/* The rows in memory appended to the spill file (a cell: its struct
 * bcell, then its bytes), and memory emptied for the next. */
static int spill_rows(struct nst_fmt *f)
{
	struct nst_colbuf *b = f->buf;

	if (!b->spill && !(b->spill = tmpfile()))
		return -1;
	for (size_t i = 0; i < b->ncells; i++) {
		const struct bcell *c = &b->cells[i];
		if (fwrite(c, sizeof *c, 1, b->spill) != 1 ||
		    fwrite(b->text + c->off, 1, c->len, b->spill) != c->len)
			return -1;
	}
	b->spilled += b->rows;
	b->rows = b->ncells = b->len = 0;
	return 0;
}

/* Reads one spilled row into cells[ncols], its text into *text (grown). */
static int unspill_row(struct nst_fmt *f, struct bcell *cells, char **text, size_t *cap)
{
	FILE *in = f->buf->spill;
	size_t len = 0;

	for (size_t k = 0; k < f->ncols; k++) {
		struct bcell *c = &cells[k];
		if (fread(c, sizeof *c, 1, in) != 1)
			return -1;
		if (len + c->len > *cap) {
			size_t want = max_size(2 * *cap, len + c->len);
			char *n = realloc(*text, want);
			if (!n)
				return -1;
			*text = n;
			*cap = want;
		}
		if (fread(*text + len, 1, c->len, in) != c->len)
			return -1;
		c->off = len;
		len += c->len;
	}
	return 0;
}

static void put_spilled_rows(struct nst_fmt *f)
{
	struct nst_colbuf *b = f->buf;
	struct bcell *cells = calloc(f->ncols ? f->ncols : 1, sizeof *cells);
	char *text = NULL;
	size_t cap = 0;

	if (!cells || fflush(b->spill) != 0 || fseek(b->spill, 0, SEEK_SET) != 0)
		f->spill_failed = true;
	for (size_t r = 0; r < b->spilled && !f->spill_failed; r++) {
		if (unspill_row(f, cells, &text, &cap))
			f->spill_failed = true;
		else
			put_row_cells(f, cells, text);
	}
	free(cells);
	free(text);
	fclose(b->spill);
	b->spill = NULL;
}

/* Fixes the layout from the held rows, prints them and lets later rows
 * stream. */
/* The width of a line: the columns, the gaps between them and the ends. */
static size_t line_width(const struct nst_fmt *f)
{
	size_t w = is_table(f) ? 4 : 1;

	for (size_t k = 0; k < f->ncols; k++)
		w += f->cols[k].width;
	return w + (f->ncols ? f->ncols - 1 : 0) * (is_table(f) ? 3 : 2);
}

/* fit=: the widest sized text column narrows, then the next, until a
 * line fits or none is wider than FIT_FLOOR. */
static void fit_width(struct nst_fmt *f)
{
	size_t want = (size_t)f->spec.fit, have = line_width(f);

	while (have > want) {
		struct nst_fcol *widest = NULL;
		for (size_t k = 0; k < f->ncols; k++) {
			struct nst_fcol *c = &f->cols[k];
			if (!c->right && c->fixed_width <= 0 &&
			    c->width > FIT_FLOOR && (!widest || c->width > widest->width))
				widest = c;
		}
		if (!widest)
			return;
		size_t cut = have - want < widest->width - FIT_FLOOR ? have - want
								     : widest->width - FIT_FLOOR;
		widest->width -= cut;
		have -= cut;
	}
}

static void lay_out(struct nst_fmt *f)
{
	struct nst_colbuf *b = f->buf;

	for (size_t k = 0; k < f->ncols; k++) {
		struct nst_fcol *c = &f->cols[k];
		c->right = c->nums > c->texts;
		c->width = sized_width(f, c);
	}
	if (f->spec.fit > 0)
		fit_width(f);
	if (shorten_wide(f))
		f->nomem = true;
	header_lines(f);
	if (b->spill)
		put_spilled_rows(f);
	for (size_t r = 0; r < b->rows; r++)
		put_row_cells(f, &b->cells[r * f->ncols], b->text);
	free(b->text);
	free(b->cells);
	wide_release(f);
	memset(b, 0, sizeof *b);
	b->laid_out = true;
}

static int hold_row(struct nst_fmt *f, const struct nst_cell *cells)
{
	char scratch[2 * NST_NUMBUF], shown_buf[NST_NUMBUF];
	struct nst_val v;
	struct shown sh;

	for (size_t k = 0; k < f->ncols; k++) {
		struct nst_fcol *c = &f->cols[k];
		nst_fmt_value(f, c, &cells[c->src], scratch, &v);
		show_value(f, &v, shown_as_printed(f, c, &cells[c->src]), shown_buf, &sh);
		vote(c, &sh);
		measure(c, &sh);
		if (note_wide(f, k, &sh) || keep(f->buf, &sh))
			return -1;
	}
	f->buf->rows++;
	if (f->spec.autolines == 0 && f->buf->len >= SPILL_BYTES && spill_rows(f)) {
		f->spill_failed = true;
		return -1;
	}
	return 0;
}

static void stream_row(struct nst_fmt *f, const struct nst_cell *cells)
{
	char scratch[2 * NST_NUMBUF], shown_buf[NST_NUMBUF];
	struct nst_val v;
	struct shown sh;

	line_start(f);
	for (size_t k = 0; k < f->ncols; k++) {
		struct nst_fcol *c = &f->cols[k];
		cell_gap(f, k);
		nst_fmt_value(f, c, &cells[c->src], scratch, &v);
		show_value(f, &v, shown_as_printed(f, c, &cells[c->src]), shown_buf, &sh);
		if (sh.null)
			add_repeat(f, ' ', c->width);
		else
			add_cell(f, c, sh.s, sh.len, sh.frac);
	}
	line_end(f);
}

int nst_columnar_row(struct nst_fmt *f, const struct nst_cell *cells)
{
	struct nst_colbuf *b = f->buf;

	if (b->laid_out) {
		stream_row(f, cells);
		return f->nomem ? -1 : 0;
	}
	if (hold_row(f, cells))
		return -1;
	if (f->spec.autolines > 0 && b->rows >= (size_t)f->spec.autolines)
		lay_out(f);
	return f->nomem ? -1 : 0;
}

void nst_columnar_end(struct nst_fmt *f)
{
	if (f->rows == 0) {
		/* nsys draws a result without columns as an empty table first. */
		if (is_table(f) && !f->ncols)
			fputs("+--+\n", f->out);
		title_block(f, false);
		fprintf(f->out, "%s\n", f->noresult ? f->noresult
			: "Report was successfully run, but no data was returned.\n");
		return;
	}
	if (!f->buf->laid_out)
		lay_out(f);
	if (is_table(f))
		table_rule(f);
	if (f->footer)
		fprintf(f->out, "\n%s\n", f->footer);
	f->failed |= f->nomem || f->spill_failed;
}
