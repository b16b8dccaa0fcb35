/* Names shortened so that distinct names stay distinct (shorten.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/shorten.h"

static bool continuation(char c) { return ((unsigned char)c & 0xC0) == 0x80; }

size_t nst_text_width(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += !continuation(*s);
	return n;
}

size_t nst_text_offset(const char *s, size_t k)
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
	size_t a = nst_text_offset(s, from), b = nst_text_offset(s, to);
	memcpy(p, s + a, b - a);
	return p + (b - a);
}

char *nst_shorten(const char *s, size_t w, size_t head)
{
	size_t n = nst_text_width(s);
	char *out = malloc(strlen(s) + sizeof NST_ELLIPSIS);
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
	p = stpcpy(p, NST_ELLIPSIS);
	*put(p, s, n - (w - 1 - head), n) = '\0';
	return out;
}

/* The parts of a name shortened with a middle part: a head of a
 * characters, a middle of m, a tail of b, and two ellipses. */
#define HEAD_OF(w) (((w) - 2) / 4)
#define MIDDLE_OF(w) ((w) - 2 - 2 * HEAD_OF(w))

/* s with a middle part from character start: head, ellipsis, middle,
 * ellipsis, tail, w characters in all (w >= 8, nst_text_width(s) > w). */
static char *shorten_window(const char *s, size_t w, size_t start)
{
	size_t n = nst_text_width(s), a = HEAD_OF(w), b = HEAD_OF(w), m = MIDDLE_OF(w);
	start = start < a ? a : start > n - b - m ? n - b - m : start;
	char *out = malloc(strlen(s) + 2 * sizeof NST_ELLIPSIS);
	if (!out)
		return NULL;
	char *p = put(out, s, 0, a);
	p = stpcpy(p, start > a ? NST_ELLIPSIS : "");
	p = put(p, s, start, start + m);
	p = stpcpy(p, start + m < n - b ? NST_ELLIPSIS : "");
	*put(p, s, n - b, n) = '\0';
	return out;
}

/* s with a middle part around character d, where it parts from others. */
static char *shorten_around(const char *s, size_t w, size_t d)
{
	size_t m = MIDDLE_OF(w);
	return shorten_window(s, w, d > m / 4 ? d - m / 4 : 0);
}

/* The first character at which a and b differ. */
static size_t first_difference(const char *a, const char *b)
{
	size_t k = 0;
	for (; *a && *a == *b; a++, b++)
		k += !continuation(*a);
	return k;
}

/* Whether out[i] reads as another name's shortening: the same name
 * twice reads the same and is no clash. */
static bool collides(const char *const *names, char *const *out, size_t n, size_t i)
{
	for (size_t j = 0; j < n; j++)
		if (j != i && strcmp(out[i], out[j]) == 0 && strcmp(names[i], names[j]) != 0)
			return true;
	return false;
}

static void mark_collisions(const char *const *names, char *const *out, size_t n, bool *clash,
			    size_t *nclash)
{
	*nclash = 0;
	for (size_t i = 0; i < n; i++)
		*nclash += clash[i] = collides(names, out, n, i);
}

/* Shortens the clashing names with head h; false when out of memory. */
static bool recut(const char *const *names, size_t n, size_t w, size_t h, const bool *clash,
		  char **out)
{
	for (size_t i = 0; i < n; i++) {
		if (!clash[i])
			continue;
		free(out[i]);
		if (!(out[i] = nst_shorten(names[i], w, h)))
			return false;
	}
	return true;
}

static bool distinct(const char *const *names, char *const *out, size_t n, const bool *clash)
{
	for (size_t i = 0; i < n; i++)
		if (clash[i] && collides(names, out, n, i))
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
			*found = distinct(names, out, n, clash);
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
			rest[k++] = names[i] + nst_text_offset(names[i], common);
	ok = ok && shorten_all(rest, k, w - keep - 1, inner, depth + 1);
	for (size_t i = 0, j = 0; ok && i < n; i++)
		if (clash[i]) {
			char *s = malloc(nst_text_offset(names[i], keep) + sizeof NST_ELLIPSIS + strlen(inner[j]));
			if (!(ok = s != NULL))
				break;
			strcpy(stpcpy(put(s, names[i], 0, keep), NST_ELLIPSIS), inner[j++]);
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
		longest = nst_text_width(names[i]) > longest ? nst_text_width(names[i]) : longest;
	return longest;
}

/* One clashing name at a time, its middle part moved along it until it
 * reads unlike every other name as now shortened: each name that finds
 * such a place keeps it while the later ones avoid it, so that all
 * differ.  (Names that part in two places far apart, as C++ template
 * instances do, need this: one window around one place may not do.) */
static bool try_windows(const char *const *names, size_t n, size_t w, const bool *clash,
			char **out)
{
	size_t a = HEAD_OF(w), m = MIDDLE_OF(w);
	for (size_t i = 0; i < n && w >= 8; i++) {
		size_t len = nst_text_width(names[i]);
		if (!clash[i] || len <= w || !collides(names, out, n, i))
			continue;
		for (size_t start = a; start + m + a <= len; start++) {
			char *s = shorten_window(names[i], w, start);
			if (!s)
				return false;
			free(out[i]);
			out[i] = s;
			if (!collides(names, out, n, i))
				break;
		}
	}
	return true;
}

static bool shorten_all(const char *const *names, size_t n, size_t w, char **out, int depth)
{
	bool *clash = calloc(n ? n : 1, sizeof *clash);
	bool ok = clash != NULL, found = false;
	for (size_t i = 0; ok && i < n; i++)
		ok = (out[i] = nst_shorten(names[i], w, w / 2)) != NULL;
	size_t nclash = 0;
	if (ok)
		mark_collisions(names, out, n, clash, &nclash);
	if (ok && nclash)
		ok = try_splits(names, n, w, clash, out, &found);
	if (ok && nclash && !found)
		ok = try_common_prefix(names, n, w, clash, out, depth);
	if (ok && nclash && !found && !distinct(names, out, n, clash))
		ok = try_middles(names, n, w, clash, out);
	if (ok && nclash && !found && !distinct(names, out, n, clash))
		ok = try_windows(names, n, w, clash, out);
	/* the last resort: more characters, until they differ (names that
	 * are the same whole stay the same) */
	size_t longest = longest_of(names, n);
	for (size_t more = w + 1; ok && nclash && more <= longest && !distinct(names, out, n, clash);
	     more++)
		ok = recut(names, n, more, more / 2, clash, out);
	free(clash);
	return ok;
}

bool nst_shorten_all(const char *const *names, size_t n, size_t w, char **out)
{
	return shorten_all(names, n, w, out, 0);
}
