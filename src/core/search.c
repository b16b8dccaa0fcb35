#include "core/search.h"

#include <string.h>

static int64_t key_at(const unsigned char *base, size_t i, size_t stride, size_t offset)
{
	int64_t k;
	memcpy(&k, base + i * stride + offset, sizeof k);
	return k;
}

size_t nst_lower_bound(const void *base, size_t n, size_t stride, size_t offset, int64_t key)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (key_at(base, mid, stride, offset) < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
