#include "core/hashmap.h"

#include <stdlib.h>

struct nst_map_slot {
	int64_t a, b;
	uint32_t value;
	uint32_t used;
};

static uint64_t mix(int64_t a, int64_t b)
{
	uint64_t h = (uint64_t)a * 0x9E3779B97F4A7C15ull ^ (uint64_t)b;
	h ^= h >> 31;
	h *= 0xBF58476D1CE4E5B9ull;
	h ^= h >> 29;
	return h;
}

int nst_map_init(struct nst_map *m, size_t n)
{
	size_t cap = 16;
	while (cap < n * 2)
		cap <<= 1;
	m->slots = calloc(cap, sizeof *m->slots);
	m->cap = cap;
	m->n = 0;
	return m->slots ? 0 : -1;
}

void nst_map_release(struct nst_map *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->n = 0;
}

static int grow(struct nst_map *m)
{
	struct nst_map old = *m;
	if (nst_map_init(m, old.cap) != 0) {
		*m = old;
		return -1;
	}
	for (size_t i = 0; i < old.cap; i++) {
		struct nst_map_slot *s = &old.slots[i];
		if (!s->used)
			continue;
		size_t j = mix(s->a, s->b) & (m->cap - 1);
		while (m->slots[j].used)
			j = (j + 1) & (m->cap - 1);
		m->slots[j] = *s;
		m->n++;
	}
	free(old.slots);
	return 0;
}

int nst_map_get_or_put(struct nst_map *m, int64_t a, int64_t b,
		       uint32_t value, uint32_t *out, bool *inserted)
{
	if ((m->n + 1) * 2 > m->cap && grow(m) != 0)
		return -1;
	size_t j = mix(a, b) & (m->cap - 1);
	while (m->slots[j].used) {
		if (m->slots[j].a == a && m->slots[j].b == b) {
			*out = m->slots[j].value;
			*inserted = false;
			return 0;
		}
		j = (j + 1) & (m->cap - 1);
	}
	m->slots[j] = (struct nst_map_slot){ a, b, value, 1 };
	m->n++;
	*out = value;
	*inserted = true;
	return 0;
}

bool nst_map_get(const struct nst_map *m, int64_t a, int64_t b, uint32_t *out)
{
	if (!m->cap)
		return false;
	size_t j = mix(a, b) & (m->cap - 1);
	while (m->slots[j].used) {
		if (m->slots[j].a == a && m->slots[j].b == b) {
			*out = m->slots[j].value;
			return true;
		}
		j = (j + 1) & (m->cap - 1);
	}
	return false;
}
