#define _DEFAULT_SOURCE

#include "core/big.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#define PAGE ((uintptr_t)4096)
#define HUGE_PAGE ((size_t)2 << 20)

void nst_big_hint(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
	if (!p || bytes < HUGE_PAGE)
		return;
	uintptr_t lo = ((uintptr_t)p + PAGE - 1) & ~(PAGE - 1);
	uintptr_t hi = ((uintptr_t)p + bytes) & ~(PAGE - 1);
	if (hi > lo && hi - lo >= HUGE_PAGE)
		(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE); /* a hint: refusal changes nothing */
#else
	(void)p;
	(void)bytes;
#endif
}

/* n * size bytes, n at least 1; false when that does not fit a size_t
 * (checked here: a sanitizer's calloc aborts where glibc's fails). */
static bool bytes_of(size_t *n, size_t size, size_t *bytes)
{
	if (*n == 0)
		*n = 1;
	if (size && *n > SIZE_MAX / size)
		return false;
	*bytes = *n * size;
	return true;
}

void *nst_big_alloc(size_t n, size_t size)
{
	size_t bytes;
	if (!bytes_of(&n, size, &bytes))
		return NULL;
	void *p = malloc(bytes);
	nst_big_hint(p, bytes);
	return p;
}

/* calloc does not write a fresh mapping (it is zero already): the hint
 * still comes before the first fault. */
void *nst_big_zalloc(size_t n, size_t size)
{
	size_t bytes;
	if (!bytes_of(&n, size, &bytes))
		return NULL;
	void *p = calloc(n, size);
	nst_big_hint(p, bytes);
	return p;
}
