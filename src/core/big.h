/* Arrays as long as an export's tables.  A fresh page costs a fault when
 * it is first written, and where transparent huge pages are left to
 * madvise (Debian's default) those pages are 4 KiB: at 10M launches the
 * faults were a third of `nstats report`.  These allocate as malloc does
 * (free() frees) and ask the kernel for 2 MiB pages where the array spans
 * them, as glibc's malloc does for a whole process run with the
 * glibc.malloc.hugetlb=1 tunable. */
#ifndef NSTATS_CORE_BIG_H
#define NSTATS_CORE_BIG_H

#include <stddef.h>

/* n elements of size bytes (at least one element), NULL when out of
 * memory or when n * size overflows; zalloc's are zero. */
void *nst_big_alloc(size_t n, size_t size);
void *nst_big_zalloc(size_t n, size_t size);
/* Asks for huge pages for the bytes at p (from malloc) not yet written;
 * nothing where they cannot span a huge page or the system has none. */
void nst_big_hint(void *p, size_t bytes);

#endif
