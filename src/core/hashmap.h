/* Open-addressing hash map from a pair of int64 (e.g. globalPid and
 * correlationId, or a group key and 0) to a uint32 value. */
#ifndef NSTATS_CORE_HASHMAP_H
#define NSTATS_CORE_HASHMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nst_map {
	struct nst_map_slot *slots;
	size_t cap, n; /* cap is a power of two */
};

/* Sized for n entries up front; returns -1 when out of memory. */
int nst_map_init(struct nst_map *m, size_t n);
void nst_map_release(struct nst_map *m);

/* The value stored for (a, b), inserting `value` when absent.  *inserted
 * says which.  Returns -1 when out of memory. */
int nst_map_get_or_put(struct nst_map *m, int64_t a, int64_t b,
		       uint32_t value, uint32_t *out, bool *inserted);
bool nst_map_get(const struct nst_map *m, int64_t a, int64_t b, uint32_t *out);

#endif
