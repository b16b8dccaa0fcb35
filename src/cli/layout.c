/* Fitting text to a terminal's width (layout.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/layout.h"

/* The least a name column gets before other columns are dropped: a
 * third of the width, for names are what a person reads first. */
#define NAME_MIN(width) ((width) / 3 > 12 ? (width) / 3 : 12)
#define GAP 2       /* spaces between columns, and before the first */

static bool continuation(char c) { return ((unsigned char)c & 0xC0) == 0x80; }

size_t lay_width(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += !continuation(*s);
	return n;
}

/* The byte offset of character k of s (its length when k is past it). */
static size_t offset_of(const char *s, size_t k)
{
	size_t i = 0;
	for (; s[i]; i++)
		if (!continuation(s[i]) && k-- == 0)
			return i;
	return i;
}

/* chars [from, to) of s appended at *p. */
static char *put(char *p, const char *s, size_t from, size_t to)
{
	size_t a = offset_of(s, from), b = offset_of(s, to);
	memcpy(p, s + a, b - a);
	return p + (b - a);
}

char *lay_shorten(const char *s, size_t w, size_t head)
{
	size_t n = lay_width(s);
	char *out = malloc(strlen(s) + sizeof LAY_ELLIPSIS);
	if (!out)
		return NULL;
	if (n <= w) {
		strcpy(out, s);
		return out;
	}
	if (w < 2) {
		*put(out, s, 0, w) = '\0';
		return out;
	}
	head = head > w - 1 ? w - 1 : head;
	char *p = put(out, s, 0, head);
	p = stpcpy(p, LAY_ELLIPSIS);
	*put(p, s, n - (w - 1 - head), n) = '\0';
	return out;
}

/* s with a middle part around character d: head, ellipsis, middle,
 * ellipsis, tail, w characters in all (w >= 8, lay_width(s) > w). */
static char *shorten_around(const char *s, size_t w, size_t d)
{
	size_t n = lay_width(s), a = (w - 2) / 4, b = (w - 2) / 4, m = w - 2 - a - b;
	size_t start = d > m / 4 ? d - m / 4 : 0;
	start = start < a ? a : start > n - b - m ? n - b - m : start;
	char *out = malloc(strlen(s) + 2 * sizeof LAY_ELLIPSIS);
	if (!out)
		return NULL;
	char *p = put(out, s, 0, a);
	p = stpcpy(p, start > a ? LAY_ELLIPSIS : "");
	p = put(p, s, start, start + m);
	p = stpcpy(p, start + m < n - b ? LAY_ELLIPSIS : "");
	*put(p, s, n - b, n) = '\0';
	return out;
}

/* The first character at which a and b differ. */
static size_t first_difference(const char *a, const char *b)
{
	size_t k = 0;
	for (; *a && *a == *b; a++, b++)
		k += !continuation(*a);
	return k;
}

static bool collides(char *const *out, size_t n, size_t i)
{
	for (size_t j = 0; j < n; j++)
		if (j != i && strcmp(out[i], out[j]) == 0)
			return true;
	return false;
}

static void mark_collisions(char *const *out, size_t n, bool *clash, size_t *nclash)
{
	*nclash = 0;
	for (size_t i = 0; i < n; i++)
		*nclash += clash[i] = collides(out, n, i);
}

/* Shortens the clashing names with head h; false when out of memory. */
static bool recut(const char *const *names, size_t n, size_t w, size_t h, const bool *clash,
		  char **out)
{
	for (size_t i = 0; i < n; i++) {
		if (!clash[i])
			continue;
		free(out[i]);
		if (!(out[i] = lay_shorten(names[i], w, h)))
			return false;
	}
	return true;
}

static bool distinct(char *const *out, size_t n, const bool *clash)
{
	for (size_t i = 0; i < n; i++)
		if (clash[i] && collides(out, n, i))
			return false;
	return true;
}

/* Tries every other place for the ellipsis, nearest the middle first. */
static bool try_splits(const char *const *names, size_t n, size_t w, const bool *clash,
		       char **out, bool *found)
{
	size_t mid = w / 2;
	*found = false;
	for (size_t step = 1; !*found && step < w; step++)
		for (int sign = -1; !*found && sign <= 1; sign += 2) {
			long h = (long)mid + sign * (long)step;
			if (h < 1 || h > (long)w - 2)
				continue;
			if (!recut(names, n, w, (size_t)h, clash, out))
				return false;
			*found = distinct(out, n, clash);
		}
	return true;
}

/* A middle part where each clashing name parts from the others. */
static bool try_middles(const char *const *names, size_t n, size_t w, const bool *clash,
			char **out)
{
	for (size_t i = 0; i < n && w >= 8; i++) {
		if (!clash[i])
			continue;
		size_t d = 0;
		for (size_t j = 0; j < n; j++)
			if (j != i && clash[j]) {
				size_t k = first_difference(names[i], names[j]);
				d = k > d ? k : d;
			}
		free(out[i]);
		if (!(out[i] = shorten_around(names[i], w, d)))
			return false;
	}
	return true;
}

static bool shorten_all(const char *const *names, size_t n, size_t w, char **out, int depth);

/* The clashing names less what they all begin with: a few characters of
 * it, an ellipsis, then the rest shortened on its own (where it parts). */
static bool try_common_prefix(const char *const *names, size_t n, size_t w, const bool *clash,
			      char **out, int depth)
{
	const size_t keep = 3;
	size_t first = n, common = SIZE_MAX, k = 0;
	for (size_t i = 0; i < n; i++)
		if (clash[i]) {
			first = first == n ? i : first;
			size_t d = i == first ? SIZE_MAX : first_difference(names[first], names[i]);
			common = d < common ? d : common;
		}
	if (first == n || common == SIZE_MAX || common <= keep || w < 12 || depth > 2)
		return true;
	const char **rest = calloc(n, sizeof *rest);
	char **inner = calloc(n, sizeof *inner);
	bool ok = rest && inner;
	for (size_t i = 0; ok && i < n; i++)
		if (clash[i])
			rest[k++] = names[i] + offset_of(names[i], common);
	ok = ok && shorten_all(rest, k, w - keep - 1, inner, depth + 1);
	for (size_t i = 0, j = 0; ok && i < n; i++)
		if (clash[i]) {
			char *s = malloc(offset_of(names[i], keep) + sizeof LAY_ELLIPSIS + strlen(inner[j]));
			if (!(ok = s != NULL))
				break;
			strcpy(stpcpy(put(s, names[i], 0, keep), LAY_ELLIPSIS), inner[j++]);
			free(out[i]);
			out[i] = s;
		}
	for (size_t j = 0; inner && j < k; j++)
		free(inner[j]);
	free(inner);
	free(rest);
	return ok;
}

static size_t longest_of(const char *const *names, size_t n)
{
	size_t longest = 0;
	for (size_t i = 0; i < n; i++)
		longest = lay_width(names[i]) > longest ? lay_width(names[i]) : longest;
	return longest;
}

static bool shorten_all(const char *const *names, size_t n, size_t w, char **out, int depth)
{
	bool *clash = calloc(n ? n : 1, sizeof *clash);
	bool ok = clash != NULL, found = false;
	for (size_t i = 0; ok && i < n; i++)
		ok = (out[i] = lay_shorten(names[i], w, w / 2)) != NULL;
	size_t nclash = 0;
	if (ok)
		mark_collisions(out, n, clash, &nclash);
	if (ok && nclash)
		ok = try_splits(names, n, w, clash, out, &found);
	if (ok && nclash && !found)
		ok = try_common_prefix(names, n, w, clash, out, depth);
	if (ok && nclash && !found && !distinct(out, n, clash))
		ok = try_middles(names, n, w, clash, out);
	/* the last resort: more characters, until they differ (names that
	 * are the same whole stay the same) */
	size_t longest = longest_of(names, n);
	for (size_t more = w + 1; ok && nclash && more <= longest && !distinct(out, n, clash);
	     more++)
		ok = recut(names, n, more, more / 2, clash, out);
	free(clash);
	return ok;
}

bool lay_shorten_all(const char *const *names, size_t n, size_t w, char **out)
{
	return shorten_all(names, n, w, out, 0);
}

void lay_styled(const struct lay_out *o, const char *s, const char *sgr)
{
	size_t len = strlen(s);
	const char *more = "";
	if (lay_width(s) > o->width) {
		len = offset_of(s, o->width ? o->width - 1 : 0);
		more = o->width ? LAY_ELLIPSIS : "";
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
	size_t w = lay_width(t->cols[c].head);
	for (size_t r = 0; r < t->nrows; r++)
		w = lay_width(cell(t, r, c)) > w ? lay_width(cell(t, r, c)) : w;
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
			int pad = (int)(width[c] - lay_width(text[c]) + strlen(text[c]));
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
	char *head = lay_shorten(t->cols[t->ncols - 1].head, room, room / 2);
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
	ok = ok && lay_shorten_all(full, t->nrows, room, names);
	ok = ok && print_rows(o, t, width, shown, names, room);
	for (size_t r = 0; names && r < t->nrows; r++)
		free(names[r]);
	free(names);
	free(full);
	return ok;
}
