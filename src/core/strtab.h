/* A string interner: equal strings get one id (0, 1, 2 ... in order of
 * first sight), so rows group by name in O(1) each.  The strings are
 * borrowed and must outlive the table. */
#ifndef NSTATS_CORE_STRTAB_H
#define NSTATS_CORE_STRTAB_H

#include <stddef.h>
#include <stdint.h>

struct nst_strtab {
	const char **text; /* by id */
	size_t n;
	uint64_t *hash;    /* by id */
	size_t cap;
	uint32_t *slot;    /* ids, UINT32_MAX when empty */
	size_t nslot;      /* a power of two, at least twice n */
};

/* FNV-1a over n bytes at p, from h (NST_FNV_START to begin): a hash of
 * a few values chained (the recipe's parts). */
#define NST_FNV_START 0xcbf29ce484222325ull
uint64_t nst_fnv(uint64_t h, const void *p, size_t n);
/* The hash of n bytes of text that the string tables and memos of names
 * use: a word at a time. */
uint64_t nst_hash_text(const char *s, size_t n);

/* The id of s, added when new; -1 when out of memory. */
int64_t nst_strtab_intern(struct nst_strtab *t, const char *s);
/* Frees the index; text stays with the caller, who frees it. */
void nst_strtab_release_index(struct nst_strtab *t);
void nst_strtab_release(struct nst_strtab *t);

#endif
