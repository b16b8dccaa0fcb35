/* "Did you mean": the names closest to one that was not found.  One
 * measure for every message that names a report, rule, argument, format,
 * unit, option, command or NVTX range, so that they all suggest alike. */
#ifndef NSTATS_CORE_SUGGEST_H
#define NSTATS_CORE_SUGGEST_H

#include <stddef.h>

#define NST_SUGGEST_MAX 3

/* Collects, from the names offered in turn, those closest to `typo`:
 * at most NST_SUGGEST_MAX, all equally close, in the order offered.
 * The names are borrowed: they must outlive the text made of them. */
struct nst_suggest {
	const char *typo;
	size_t typo_len;
	const char *name[NST_SUGGEST_MAX];
	size_t n;
	size_t best;  /* the score the names have; 0 while there is none */
};

void nst_suggest_init(struct nst_suggest *s, const char *typo, size_t len);
void nst_suggest_offer(struct nst_suggest *s, const char *name);
/* "did you mean a, b or c?" into buf (always terminated), or "" when no
 * name was close; returns buf. */
const char *nst_suggest_text(const struct nst_suggest *s, char *buf, size_t size);

/* The optimal-string-alignment distance (Damerau-Levenshtein with adjacent
 * transpositions, no substring edited twice), ignoring ASCII case; a
 * value above `limit` stands for any distance above it (and is cheap). */
size_t nst_edit_distance(const char *a, size_t alen, const char *b, size_t blen,
			 size_t limit);

#endif
