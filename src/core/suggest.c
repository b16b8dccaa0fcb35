/* Closest names by edit distance, with prefixes (a name cut short)
 * counting as one edit. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/suggest.h"
#include "nstats/nstats.h"

static int lower(char c) { return tolower((unsigned char)c); }

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;
	return m < c ? m : c;
}

/* Three rows of the table suffice: a transposition looks two back. */
static size_t osa(const char *a, size_t alen, const char *b, size_t blen, size_t *rows)
{
	size_t *prev2 = rows, *prev = rows + blen + 1, *cur = rows + 2 * (blen + 1);
	for (size_t j = 0; j <= blen; j++)
		prev[j] = j;
	for (size_t i = 1; i <= alen; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= blen; j++) {
			size_t cost = lower(a[i - 1]) != lower(b[j - 1]);
			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
			if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
			    lower(a[i - 2]) == lower(b[j - 1]) && prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
		size_t *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[blen];
}

size_t nst_edit_distance(const char *a, size_t alen, const char *b, size_t blen,
			 size_t limit)
{
	size_t gap = alen > blen ? alen - blen : blen - alen;
	if (gap > limit)
		return limit + 1;
	size_t *rows = malloc(3 * (blen + 1) * sizeof *rows);
	if (!rows)
		return limit + 1;
	size_t d = osa(a, alen, b, blen, rows);
	free(rows);
	return d > limit ? limit + 1 : d;
}

void nst_suggest_init(struct nst_suggest *s, const char *typo, size_t len)
{
	*s = (struct nst_suggest){ .typo = typo, .typo_len = len };
}

/* Edits allowed: about one in four characters, at least one and never
 * as many as the typo has (a one-letter word is close to every other). */
static size_t limit_of(size_t len)
{
	size_t l = len / 4;
	return l < 1 ? 1 : l > 3 ? 3 : l;
}

static bool starts_with(const char *name, const char *typo, size_t len)
{
	if (len < 3 || strlen(name) <= len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (lower(name[i]) != lower(typo[i]))
			return false;
	return true;
}

/* 0 when the name is not close (or is the typo itself); else 1 + its
 * edits, case aside ("CSV" is close to csv), a prefix counting as 1. */
static size_t score_of(const struct nst_suggest *s, const char *name)
{
	size_t len = strlen(name);
	if (s->typo_len == 0 || (len == s->typo_len && memcmp(name, s->typo, len) == 0))
		return 0;
	if (starts_with(name, s->typo, s->typo_len))
		return 2;
	size_t limit = limit_of(s->typo_len);
	size_t d = nst_edit_distance(s->typo, s->typo_len, name, len, limit);
	return d <= limit && d < s->typo_len ? d + 1 : 0;
}

void nst_suggest_offer(struct nst_suggest *s, const char *name)
{
	size_t score = score_of(s, name);
	if (score == 0 || (s->best && score > s->best))
		return;
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->name[i], name) == 0)
			return;
	if (score < s->best)
		s->n = 0;
	s->best = score;
	if (s->n < NST_SUGGEST_MAX)
		s->name[s->n++] = name;
}

const char *nst_suggest_text(const struct nst_suggest *s, char *buf, size_t size)
{
	size_t used = 0;
	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < s->n && used < size; i++) {
		const char *sep = i == 0 ? "did you mean " : i + 1 == s->n ? " or " : ", ";
		int w = snprintf(buf + used, size - used, "%s%s", sep, s->name[i]);
		used += w > 0 ? (size_t)w : 0;
	}
	if (s->n && used < size)
		snprintf(buf + used, size - used, "?");
	return buf;
}

const char *nst_suggest_names(const char *name, const char *const *names, size_t n, char *buf,
			      size_t size)
{
	struct nst_suggest s;
	nst_suggest_init(&s, name, strlen(name));
	for (size_t i = 0; i < n; i++)
		nst_suggest_offer(&s, names[i]);
	return nst_suggest_text(&s, buf, size);
}
