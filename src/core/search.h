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

/* Keys a[0..n) against b[0..n), the first that differs deciding, as
 * qsort's comparators answer: negative, zero or positive. */
static inline int nst_cmp_keys(const int64_t *a, const int64_t *b, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (a[k] != b[k])
			return a[k] < b[k] ? -1 : 1;
	return 0;
}

#endif
