#include "core/strtab.h"

#include <stdlib.h>
#include <string.h>

uint64_t nst_fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

/* Eight bytes a step, each step a multiply and a shift: a name of 40
 * bytes in five steps where FNV takes forty. */
uint64_t nst_hash_text(const char *s, size_t n)
{
	const uint64_t k = 0x9E3779B97F4A7C15ull;
	uint64_t h = n * k, w;
	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * k;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, s, n);
	h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
	return h ^ (h >> 31);
}

static uint64_t hash_text(const char *s)
{
	return nst_hash_text(s, strlen(s));
}

static int rehash(struct nst_strtab *t, size_t nslot)
{
	uint32_t *slot = malloc(nslot * sizeof *slot);
	if (!slot)
		return -1;
	memset(slot, 0xff, nslot * sizeof *slot);
	for (size_t id = 0; id < t->n; id++) {
		size_t j = t->hash[id] & (nslot - 1);
		while (slot[j] != UINT32_MAX)
			j = (j + 1) & (nslot - 1);
		slot[j] = (uint32_t)id;
	}
	free(t->slot);
	t->slot = slot;
	t->nslot = nslot;
	return 0;
}

static int append(struct nst_strtab *t, const char *s, uint64_t h)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		const char **text = realloc(t->text, cap * sizeof *text);
		if (text)
			t->text = text;
		uint64_t *hash = realloc(t->hash, cap * sizeof *hash);
		if (hash)
			t->hash = hash;
		if (!text || !hash)
			return -1;
		t->cap = cap;
	}
	t->text[t->n] = s;
	t->hash[t->n++] = h;
	return 0;
}

int64_t nst_strtab_intern(struct nst_strtab *t, const char *s)
{
	if (t->nslot < 2 * (t->n + 1) && rehash(t, t->nslot ? t->nslot * 2 : 128))
		return -1;
	uint64_t h = hash_text(s);
	size_t j = h & (t->nslot - 1);
	for (; t->slot[j] != UINT32_MAX; j = (j + 1) & (t->nslot - 1)) {
		uint32_t c = t->slot[j];
		if (t->hash[c] == h && strcmp(t->text[c], s) == 0)
			return c;
	}
	if (append(t, s, h))
		return -1;
	t->slot[j] = (uint32_t)(t->n - 1);
	return (int64_t)(t->n - 1);
}

void nst_strtab_release_index(struct nst_strtab *t)
{
	free(t->hash);
	free(t->slot);
	t->hash = NULL;
	t->slot = NULL;
	t->nslot = t->cap = 0;
}

void nst_strtab_release(struct nst_strtab *t)
{
	nst_strtab_release_index(t);
	free(t->text);
	t->text = NULL;
	t->n = 0;
}
