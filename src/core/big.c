#define _DEFAULT_SOURCE

#include "core/big.h"

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

void *nst_big_alloc(size_t n, size_t size)
{
	if (n == 0)
		n = 1;
	if (size && n > SIZE_MAX / size)
		return NULL;
	void *p = malloc(n * size);
	nst_big_hint(p, n * size);
	return p;
}

/* calloc does not write a fresh mapping (it is zero already): the hint
 * still comes before the first fault. */
void *nst_big_zalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	nst_big_hint(p, (n ? n : 1) * size);
	return p;
}
