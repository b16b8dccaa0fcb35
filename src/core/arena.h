/* A bump allocator for strings and small objects that live as long as a
 * run: one free releases them all, so reports never free text one by one. */
#ifndef NSTATS_CORE_ARENA_H
#define NSTATS_CORE_ARENA_H

#include <stddef.h>

struct nst_arena {
	struct nst_arena_block *head;
};

void *nst_arena_alloc(struct nst_arena *a, size_t size);
/* Copies n bytes of s and a terminating NUL; NULL when out of memory. */
char *nst_arena_strndup(struct nst_arena *a, const char *s, size_t n);
char *nst_arena_printf(struct nst_arena *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void nst_arena_release(struct nst_arena *a);
/* Moves every block of `from` into `into` (from is left empty). */
void nst_arena_adopt(struct nst_arena *into, struct nst_arena *from);

#endif
