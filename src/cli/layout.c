/* Fitting text to a terminal's width (layout.h). */
#include <stdlib.h>
#include <string.h>

#include "cli/layout.h"

/* The least a name column gets before other columns are dropped: a
 * third of the width, for names are what a person reads first. */
#define NAME_MIN(width) ((width) / 3 > 12 ? (width) / 3 : 12)
#define GAP 2       /* spaces between columns, and before the first */

void lay_styled(const struct lay_out *o, const char *s, const char *sgr)
{
	size_t len = strlen(s);
	const char *more = "";
	if (nst_text_width(s) > o->width) {
		len = nst_text_offset(s, o->width ? o->width - 1 : 0);
		more = o->width ? NST_ELLIPSIS : "";
	}
	if (sgr && o->color)
		fprintf(o->fp, "\033[%sm%.*s%s\033[0m\n", sgr, (int)len, s, more);
	else
		fprintf(o->fp, "%.*s%s\n", (int)len, s, more);
}

void lay_line(const struct lay_out *o, const char *s) { lay_styled(o, s, NULL); }
void lay_title(const struct lay_out *o, const char *s) { lay_styled(o, s, LAY_BOLD); }

/* ---- tables ---------------------------------------------------------------- */

static const char *cell(const struct lay_table *t, size_t r, size_t c)
{
	const char *s = t->cells[r * t->ncols + c];
	return s ? s : "";
}

static size_t column_width(const struct lay_table *t, size_t c)
{
	size_t w = nst_text_width(t->cols[c].head);
	for (size_t r = 0; r < t->nrows; r++)
		w = nst_text_width(cell(t, r, c)) > w ? nst_text_width(cell(t, r, c)) : w;
	return w;
}

/* Leaves out columns (shown[c] false), highest drop first, while the
 * name would get less than a third of the width; returns the room left
 * for the name. */
static size_t fit_columns(const struct lay_out *o, const struct lay_table *t,
			  const size_t *width, bool *shown)
{
	size_t last = t->ncols - 1;
	for (;;) {
		size_t used = 0;
		int worst = 0;
		size_t drop = last;
		for (size_t c = 0; c < last; c++) {
			if (!shown[c])
				continue;
			used += GAP + width[c];
			if (t->cols[c].drop > worst)
				worst = t->cols[drop = c].drop;
		}
		used += GAP;
		size_t room = o->width > used ? o->width - used : 0;
		if (room >= NAME_MIN(o->width) || drop == last)
			return room ? room : 1;
		shown[drop] = false;
	}
}

static bool print_row(const struct lay_out *o, const struct lay_table *t, const size_t *width,
		      const bool *shown, const char *const *text, const char *name, bool head)
{
	size_t size = strlen(name) + GAP + 1, len = 0;
	for (size_t c = 0; c + 1 < t->ncols; c++)
		size += GAP + width[c] + strlen(text[c]);
	char *line = malloc(size);
	if (!line)
		return false;
	for (size_t c = 0; c + 1 < t->ncols; c++)
		if (shown[c]) {
			int pad = (int)(width[c] - nst_text_width(text[c]) + strlen(text[c]));
			len += (size_t)snprintf(line + len, size - len, "%*s%*s", GAP, "", pad, text[c]);
		}
	snprintf(line + len, size - len, "%*s%s", GAP, "", name);
	lay_styled(o, line, head ? LAY_FAINT : NULL);
	free(line);
	return true;
}

static bool print_rows(const struct lay_out *o, const struct lay_table *t, const size_t *width,
		       const bool *shown, char **names, size_t room)
{
	const char *text[64];
	for (size_t c = 0; c < t->ncols; c++)
		text[c] = t->cols[c].head;
	char *head = nst_shorten(t->cols[t->ncols - 1].head, room, room / 2);
	bool ok = head && print_row(o, t, width, shown, text, head, true);
	free(head);
	for (size_t r = 0; ok && r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++)
			text[c] = cell(t, r, c);
		ok = print_row(o, t, width, shown, text, names[r], false);
	}
	return ok;
}

bool lay_table(const struct lay_out *o, const struct lay_table *t)
{
	size_t width[64];
	bool shown[64];
	if (t->ncols == 0 || t->ncols > 64)
		return true;
	for (size_t c = 0; c < t->ncols; c++) {
		width[c] = column_width(t, c);
		shown[c] = true;
	}
	size_t room = fit_columns(o, t, width, shown);
	const char **full = calloc(t->nrows + 1, sizeof *full);
	char **names = calloc(t->nrows + 1, sizeof *names);
	bool ok = full && names;
	for (size_t r = 0; ok && r < t->nrows; r++)
		full[r] = cell(t, r, t->ncols - 1);
	ok = ok && nst_shorten_all(full, t->nrows, room, names);
	ok = ok && print_rows(o, t, width, shown, names, room);
	for (size_t r = 0; names && r < t->nrows; r++)
		free(names[r]);
	free(names);
	free(full);
	return ok;
}
