/* Binary search over sorted arrays of records keyed by an int64 field. */
#ifndef NSTATS_CORE_SEARCH_H
#define NSTATS_CORE_SEARCH_H

#include <stddef.h>
#include <stdint.h>

/* The first of the n records at base, stride bytes apart and ascending by
 * the int64_t at offset bytes into each, whose key is >= key; n when none
 * is. For an array of struct r keyed by k:
 * nst_lower_bound(a, n, sizeof *a, offsetof(struct r, k), key). */
size_t nst_lower_bound(const void *base, size_t n, size_t stride, size_t offset, int64_t key);

#endif
