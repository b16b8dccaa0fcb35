#include "core/arena.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct nst_arena_block {
	struct nst_arena_block *next;
	size_t used, cap;
	_Alignas(max_align_t) unsigned char data[];
};

enum { BLOCK_MIN = 64 * 1024 };

static size_t align_up(size_t n)
{
	size_t a = _Alignof(max_align_t);
	return (n + a - 1) & ~(a - 1);
}

void *nst_arena_alloc(struct nst_arena *a, size_t size)
{
	size = align_up(size ? size : 1);
	struct nst_arena_block *b = a->head;
	if (!b || b->cap - b->used < size) {
		size_t cap = size > BLOCK_MIN ? size : BLOCK_MIN;
		b = malloc(sizeof *b + cap);
		if (!b)
			return NULL;
		b->used = 0;
		b->cap = cap;
		b->next = a->head;
		a->head = b;
	}
	void *p = b->data + b->used;
	b->used += size;
	return p;
}

char *nst_arena_strndup(struct nst_arena *a, const char *s, size_t n)
{
	char *p = nst_arena_alloc(a, n + 1);
	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

char *nst_arena_printf(struct nst_arena *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	char *p = nst_arena_alloc(a, (size_t)n + 1);
	if (p) {
		va_start(ap, fmt);
		vsnprintf(p, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	return p;
}

void nst_arena_release(struct nst_arena *a)
{
	struct nst_arena_block *b = a->head;
	while (b) {
		struct nst_arena_block *next = b->next;
		free(b);
		b = next;
	}
	a->head = NULL;
}

void nst_arena_adopt(struct nst_arena *into, struct nst_arena *from)
{
	struct nst_arena_block *b = from->head;
	while (b) {
		struct nst_arena_block *next = b->next;
		b->next = into->head;
		into->head = b;
		b = next;
	}
	from->head = NULL;
}
