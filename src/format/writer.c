/* The report writer: columns and values for every style, and the
 * streaming styles (csv, tsv, json, hdoc, htable).  column and table
 * live in columnar.c. */
#include <stdlib.h>
#include <string.h>

#include "format/format_int.h"

static bool is_columnar(enum nst_style s)
{
	return s == NST_STYLE_COLUMN || s == NST_STYLE_TABLE;
}

static bool is_html(enum nst_style s)
{
	return s == NST_STYLE_HDOC || s == NST_STYLE_HTABLE;
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static void fmt_free(struct nst_fmt *f)
{
	if (f->cloc)
		freelocale(f->cloc);
	nst_columnar_free(f);
	for (size_t k = 0; k < f->ncols; k++)
		free(f->cols[k].header);
	free(f->cols);
	free(f->title);
	free(f->report);
	free(f->advice);
	free(f->noresult);
	free(f->footer);
	free(f->line.p);
	free(f);
}

struct nst_fmt *nst_fmt_open(const struct nst_fmt_spec *spec, FILE *out,
			     const char *title, const char *report)
{
	struct nst_fmt *f = calloc(1, sizeof *f);

	if (!f)
		return NULL;
	f->spec = *spec;
	f->out = out;
	f->title = dup_or_null(title);
	f->report = dup_or_null(report);
	/* Each writer its own: a locale_t shared by threads would be global state. */
	f->cloc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	if ((title && !f->title) || (report && !f->report) || !f->cloc) {
		fmt_free(f);
		return NULL;
	}
	return f;
}

/* ---- values ---- */

static void source_text(const struct nst_cell *cell, char *buf,
			struct nst_val *val)
{
	switch (cell->kind) {
	case NST_INT:
		val->len = nst_num_itoa(cell->v.i, buf);
		val->s = buf;
		val->kind = NST_NUM_INT;
		return;
	case NST_REAL:
		val->len = nst_num_repr(cell->v.r, buf);
		val->s = buf;
		break;
	case NST_TEXT:
		val->s = cell->v.s;
		val->len = cell->v.s ? strlen(cell->v.s) : 0;
		break;
	case NST_NULL:
		val->s = NULL;
		val->len = 0;
		break;
	}
	val->kind = val->len ? nst_num_kind(val->s, val->len) : NST_NUM_NONE;
}

void nst_fmt_value(const struct nst_fmt *f, const struct nst_fcol *c,
		   const struct nst_cell *cell, char *scratch,
		   struct nst_val *val)
{
	const char *conv;

	(void)f;
	source_text(cell, scratch, val);
	if (!val->len) {
		val->s = NULL;
		return;
	}
	if (c->from == c->to)
		return;
	/* hex addresses are not numbers to the grammar, yet convert */
	if (val->kind == NST_NUM_NONE && c->cat != NST_CAT_ADDR)
		return;
	conv = nst_unit_convert(c->cat, c->from, c->to, val->s, &val->len,
				scratch + NST_NUMBUF);
	if (conv != val->s) {
		val->s = conv;
		val->kind = nst_num_kind(conv, val->len);
	}
}

/* ---- columns ---- */

static bool column_shown(const struct nst_fmt *f, const char *name,
			 size_t i)
{
	if (name[0] == '_')
		return false;
	return !is_columnar(f->spec.style) || i >= f->spec.nwidths ||
	       f->spec.widths[i] != 0;
}

static int add_column(struct nst_fmt *f, const char *name, size_t i)
{
	struct nst_fcol *c = &f->cols[f->ncols];
	struct nst_tag tag;
	enum nst_unit shown;

	nst_tag_parse(name, &tag);
	shown = f->spec.noconv ? tag.src : nst_unit_display(&f->spec, tag.cat);
	memset(c, 0, sizeof *c);
	c->src = i;
	c->cat = tag.cat;
	c->from = tag.src;
	c->to = f->spec.noconv ? tag.src : shown;
	c->header = nst_tag_header(&tag, shown, !f->spec.nohdrunit);
	if (!c->header)
		return -1;
	c->header_len = strlen(c->header);
	c->fixed_width = i < f->spec.nwidths ? f->spec.widths[i]
					     : NST_FMT_WIDTH_AUTO;
	f->ncols++;
	return 0;
}

static int build_columns(struct nst_fmt *f, const char *const *cols,
			 size_t ncols)
{
	f->cols = calloc(ncols ? ncols : 1, sizeof *f->cols);
	if (!f->cols)
		return -1;
	f->nsrc = ncols;
	for (size_t i = 0; i < ncols; i++)
		if (column_shown(f, cols[i], i) && add_column(f, cols[i], i))
			return -1;
	return 0;
}

/* ---- html ---- */

static void put_html_str(FILE *out, const char *s)
{
	nst_put_html(out, s, strlen(s), false);
}

static void html_preamble(const struct nst_fmt *f)
{
	FILE *out = f->out;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "  <meta charset=\"UTF-8\">\n  <title>", out);
	put_html_str(out, f->spec.doc_title);
	fputs("</title>\n", out);
	if (f->spec.css_url[0]) {
		fputs("  <link rel=\"stylesheet\" href=\"", out);
		nst_put_html(out, f->spec.css_url, strlen(f->spec.css_url),
			     true);
		fputs("\">\n", out);
	}
	fputs("</head>\n<body>\n<h1>", out);
	if (f->title)
		put_html_str(out, f->title);
	if (f->title && f->report)
		fputs(" (", out);
	if (f->report)
		put_html_str(out, f->report);
	if (f->title && f->report)
		putc(')', out);
	fputs("</h1>\n", out);
}

static void html_begin(const struct nst_fmt *f)
{
	if (f->spec.style == NST_STYLE_HDOC)
		html_preamble(f);
	/* nsys writes a result without columns (a rule that found nothing)
	 * without its head and without opening its body. */
	fputs("<table>\n", f->out);
	if (!f->ncols)
		return;
	fputs("  <thead>\n    <tr>\n", f->out);
	for (size_t k = 0; k < f->ncols; k++) {
		fputs("      <th>", f->out);
		put_html_str(f->out, f->cols[k].header);
		fputs("</th>\n", f->out);
	}
	fputs("    </tr>\n  </thead>\n  <tbody>\n", f->out);
}

static void html_row(struct nst_fmt *f, const struct nst_cell *cells)
{
	char scratch[2 * NST_NUMBUF];
	struct nst_val v;

	fputs("    <tr>\n", f->out);
	for (size_t k = 0; k < f->ncols; k++) {
		nst_fmt_value(f, &f->cols[k], &cells[f->cols[k].src], scratch,
			      &v);
		fputs("      <td>", f->out);
		if (v.s)
			nst_put_html(f->out, v.s, v.len, false);
		fputs("</td>\n", f->out);
	}
	fputs("    </tr>\n", f->out);
}

static void html_end(const struct nst_fmt *f)
{
	fputs("  </tbody>\n</table>\n", f->out);
	if (f->spec.style == NST_STYLE_HDOC)
		fputs("</body>\n</html>\n", f->out);
}

/* ---- csv and tsv ---- */

static int put_delimited(struct nst_fmt *f, const char *s, size_t len)
{
	if (f->spec.style == NST_STYLE_TSV)
		return nst_put_tsv(&f->line, s, len, f->spec.esc);
	return nst_put_csv(&f->line, s, len, ',');
}

/* Writes the line made so far; -1 when it could not be made. */
static int put_line(struct nst_fmt *f, int rc)
{
	if (!rc)
		rc = nst_line_put(&f->line, "\n", 1);
	if (!rc)
		fwrite(f->line.p, 1, f->line.n, f->out);
	f->line.n = 0;
	return rc;
}

static int delimited_header(struct nst_fmt *f)
{
	char sep = f->spec.style == NST_STYLE_TSV ? '\t' : ',';
	int rc = 0;

	for (size_t k = 0; !rc && k < f->ncols; k++) {
		if (k)
			rc = nst_line_put(&f->line, &sep, 1);
		if (!rc)
			rc = put_delimited(f, f->cols[k].header, f->cols[k].header_len);
	}
	return put_line(f, rc);
}

static int delimited_row(struct nst_fmt *f, const struct nst_cell *cells)
{
	char sep = f->spec.style == NST_STYLE_TSV ? '\t' : ',';
	char scratch[2 * NST_NUMBUF];
	struct nst_val v;
	int rc = 0;

	/* nsys prints nothing, not even the header, for a report without
	 * rows, so the header waits for the first row */
	if (f->rows == 0 && !f->spec.nohdr)
		rc = delimited_header(f);
	for (size_t k = 0; !rc && k < f->ncols; k++) {
		if (k)
			rc = nst_line_put(&f->line, &sep, 1);
		nst_fmt_value(f, &f->cols[k], &cells[f->cols[k].src], scratch,
			      &v);
		/* a number has no separator, quote or line break to escape */
		if (!rc && v.s)
			rc = v.kind != NST_NUM_NONE ? nst_line_put(&f->line, v.s, v.len)
						    : put_delimited(f, v.s, v.len);
	}
	return put_line(f, rc);
}

/* ---- json ---- */

static bool json_keyword(const char *s, size_t len)
{
	return (len == 4 && (!memcmp(s, "true", 4) || !memcmp(s, "null", 4))) ||
	       (len == 5 && !memcmp(s, "false", 5));
}

static void json_value(FILE *out, const struct nst_val *v)
{
	if (!v->s)
		fputs("\"\"", out);
	else if (nst_num_is_json(v->s, v->len, v->kind) ||
		 json_keyword(v->s, v->len))
		fwrite(v->s, 1, v->len, out);
	else
		nst_put_json_string(out, v->s, v->len);
}

static void json_row(struct nst_fmt *f, const struct nst_cell *cells)
{
	char scratch[2 * NST_NUMBUF];
	struct nst_val v;

	fputs(f->rows == 0 ? "[\n  {\n" : ",\n  {\n", f->out);
	for (size_t k = 0; k < f->ncols; k++) {
		nst_fmt_value(f, &f->cols[k], &cells[f->cols[k].src], scratch,
			      &v);
		fputs("    ", f->out);
		nst_put_json_string(f->out, f->cols[k].header,
				    f->cols[k].header_len);
		fputs(": ", f->out);
		json_value(f->out, &v);
		fputs(k + 1 < f->ncols ? ",\n" : "\n", f->out);
	}
	fputs("  }", f->out);
}

static void json_end(const struct nst_fmt *f)
{
	fputs(f->rows == 0 ? "[\n]\n" : "\n]\n", f->out);
}

/* ---- the sink ---- */

static const char *report_name(const struct nst_fmt *f)
{
	return f->report ? f->report : "the report";
}

static enum nst_status spill_failure(const struct nst_fmt *f, struct nst_error *err)
{
	return nst_fail(err, NST_ERR_IO, "cannot hold the rows of %s in a temporary file",
			report_name(f));
}

/* What went wrong in a callback: memory (the formatter's own), or the
 * stream; once failed, the writer refuses every later call. */
static enum nst_status failure(struct nst_fmt *f, bool nomem, struct nst_error *err)
{
	f->failed = true;
	f->nomem = nomem && !f->spill_failed;
	if (f->spill_failed)
		return spill_failure(f, err);
	if (nomem)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory formatting %s", report_name(f));
	return nst_fail(err, NST_ERR_IO, "cannot write %s", report_name(f));
}

static enum nst_status fmt_begin(void *ctx, const char *const *cols, size_t ncols,
				 struct nst_error *err)
{
	struct nst_fmt *f = ctx;
	locale_t saved;
	int rc = 0;

	if (f->begun || f->failed)
		return nst_fail(err, NST_ERR_INTERNAL, "%s: columns given twice", report_name(f));
	saved = uselocale(f->cloc);
	f->begun = true;
	if (build_columns(f, cols, ncols))
		rc = -1;
	else if (is_columnar(f->spec.style))
		rc = nst_columnar_begin(f);
	else if (is_html(f->spec.style))
		html_begin(f);
	uselocale(saved);
	if (rc)
		return failure(f, true, err);
	return ferror(f->out) ? failure(f, false, err) : NST_OK;
}

static enum nst_status fmt_row(void *ctx, const struct nst_cell *cells, struct nst_error *err)
{
	struct nst_fmt *f = ctx;
	locale_t saved;
	int rc = 0;

	if (!f->begun || f->failed)
		return nst_fail(err, NST_ERR_INTERNAL, "%s: a row before its columns", report_name(f));
	saved = uselocale(f->cloc);
	/* Once the process has had a second thread, every stdio call locks;
	 * holding the lock for the row makes the calls inside it cheap. */
	flockfile(f->out);
	switch (f->spec.style) {
	case NST_STYLE_COLUMN:
	case NST_STYLE_TABLE:
		rc = nst_columnar_row(f, cells);
		break;
	case NST_STYLE_CSV:
	case NST_STYLE_TSV:
		rc = delimited_row(f, cells);
		break;
	case NST_STYLE_JSON:
		if (f->spec.typed)
			nst_typed_row(f, cells);
		else
			json_row(f, cells);
		break;
	case NST_STYLE_HDOC:
	case NST_STYLE_HTABLE:
		html_row(f, cells);
		break;
	}
	funlockfile(f->out);
	uselocale(saved);
	f->rows++;
	if (rc)
		return failure(f, true, err);
	return ferror(f->out) ? failure(f, false, err) : NST_OK;
}

static char **note_slot(struct nst_fmt *f, enum nst_note kind)
{
	switch (kind) {
	case NST_NOTE_ADVICE: return &f->advice;
	case NST_NOTE_NORESULT: return &f->noresult;
	case NST_NOTE_FOOTER: return &f->footer;
	}
	return NULL;
}

/* Kept until the rows are laid out or the report ends: the column and
 * table formats place each note (columnar.c); the others have no room
 * for prose. */
static enum nst_status fmt_note(void *ctx, enum nst_note kind, const char *text,
				struct nst_error *err)
{
	struct nst_fmt *f = ctx;
	char **slot = note_slot(f, kind);
	if (!slot)
		return nst_fail(err, NST_ERR_INTERNAL, "unknown note kind %d", (int)kind);
	free(*slot);
	*slot = text ? strdup(text) : NULL;
	return text && !*slot ? failure(f, true, err) : NST_OK;
}

struct nst_sink nst_fmt_sink(struct nst_fmt *f)
{
	return (struct nst_sink){ fmt_begin, fmt_row, fmt_note, f };
}

static void finish(struct nst_fmt *f)
{
	if (is_columnar(f->spec.style))
		nst_columnar_end(f);
	else if (f->spec.style == NST_STYLE_JSON && f->spec.typed)
		nst_typed_end(f);
	else if (f->spec.style == NST_STYLE_JSON)
		json_end(f);
	else if (is_html(f->spec.style))
		html_end(f);
	/* a typed object is a value inside the caller's document */
	if (f->spec.console && f->rows && !f->spec.typed)
		putc('\n', f->out);
}

enum nst_status nst_fmt_end(struct nst_fmt *f, struct nst_error *err)
{
	enum nst_status s = NST_OK;
	locale_t saved;

	if (!f)
		return NST_OK;
	saved = uselocale(f->cloc);
	if (f->begun && !f->failed)
		finish(f);
	uselocale(saved);
	if (f->spill_failed)
		s = spill_failure(f, err);
	else if (f->failed && f->nomem)
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory formatting %s", report_name(f));
	else if (f->failed || fflush(f->out) != 0 || ferror(f->out))
		s = nst_fail(err, NST_ERR_IO, "cannot write %s", report_name(f));
	fmt_free(f);
	return s;
}
