/* json:typed: one report as one JSON object, {"rows": [...]}, with values
 * by type, for programs rather than for nsys's scripts.  The caller puts
 * the object in its document (docs/json.md); nothing here knows of
 * exports or of other reports. */
#include <inttypes.h>
#include <string.h>

#include "format/format_int.h"

/* A number stays a number whatever unit it was converted to; text in a
 * column of a unit (a report that wrote a number as text) is a number
 * too.  Hex addresses and ids are not numbers to JSON. */
static bool is_number(const struct nst_fcol *c, const struct nst_cell *cell,
		      const struct nst_val *v)
{
	bool numeric = cell->kind == NST_INT || cell->kind == NST_REAL ||
		       (c->cat != NST_CAT_NONE && c->cat != NST_CAT_ADDR && c->cat != NST_CAT_GID);
	return numeric && nst_num_is_json(v->s, v->len, v->kind);
}

static void typed_value(FILE *out, const struct nst_fcol *c, const struct nst_cell *cell,
			const struct nst_val *v)
{
	if (!v->s)
		fputs("null", out);
	else if (is_number(c, cell, v))
		fwrite(v->s, 1, v->len, out);
	else if (cell->kind == NST_REAL)
		/* nan and inf: JSON has no word for them, and a string would
		 * make a column of numbers a column of text */
		fputs("null", out);
	else
		nst_put_json_string(out, v->s, v->len);
}

void nst_typed_row(struct nst_fmt *f, const struct nst_cell *cells)
{
	char scratch[2 * NST_NUMBUF];
	struct nst_val v;

	fputs(f->rows == 0 ? "{\"rows\": [\n{" : ",\n{", f->out);
	for (size_t k = 0; k < f->ncols; k++) {
		const struct nst_fcol *c = &f->cols[k];
		nst_fmt_value(f, c, &cells[c->src], scratch, &v);
		if (k)
			fputs(", ", f->out);
		nst_put_json_string(f->out, c->header, c->header_len);
		fputs(": ", f->out);
		typed_value(f->out, c, &cells[c->src], &v);
	}
	putc('}', f->out);
}

/* A rule's text around its rows, which the column format prints and
 * plain json drops. */
static void typed_notes(const struct nst_fmt *f)
{
	const struct {
		const char *key, *text;
	} notes[] = {
		{ "advice", f->advice }, { "noresult", f->noresult }, { "footer", f->footer },
	};
	bool any = false;

	for (size_t i = 0; i < sizeof notes / sizeof *notes; i++) {
		if (!notes[i].text)
			continue;
		fputs(any ? ", " : ", \"notes\": {", f->out);
		any = true;
		fprintf(f->out, "\"%s\": ", notes[i].key);
		nst_put_json_string(f->out, notes[i].text, strlen(notes[i].text));
	}
	if (any)
		putc('}', f->out);
}

void nst_fmt_hidden_graphs(struct nst_fmt *f, uint64_t launches, int64_t ns)
{
	f->hidden_graph_launches = launches;
	f->hidden_graph_ns = ns;
}

void nst_typed_end(const struct nst_fmt *f)
{
	fputs(f->rows == 0 ? "{\"rows\": [" : "\n", f->out);
	putc(']', f->out);
	typed_notes(f);
	/* numbers rather than nstats's sentence on stderr: a tool adds them */
	if (f->hidden_graph_launches)
		fprintf(f->out, ", \"hidden_graphs\": {\"launches\": %" PRIu64 ", \"ns\": %" PRId64 "}",
			f->hidden_graph_launches, f->hidden_graph_ns);
	putc('}', f->out);
}
