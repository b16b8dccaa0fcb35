/* Growing the parallel arrays that hold rows column by column. */
#ifndef NSTATS_CORE_RESIZE_H
#define NSTATS_CORE_RESIZE_H

#include <stdlib.h>
#include <string.h>

#include "core/big.h"

/* Resizes the array whose pointer is at *array (any object pointer) to n
 * elements of size bytes (at least one, so that an empty array is not
 * NULL).  On failure the array is left as it was and -1 returned: of
 * several arrays grown together, those that grew keep their new size, and
 * the caller's count of rows stays valid for all of them.  A big array
 * gets huge pages, as core/big.h allocates. */
static inline int nst_resize(void *array, size_t n, size_t size)
{
	void *old, *p;
	memcpy(&old, array, sizeof old);
	if (!(p = realloc(old, (n ? n : 1) * size)))
		return -1;
	nst_big_hint(p, (n ? n : 1) * size);
	memcpy(array, &p, sizeof p);
	return 0;
}

/* nst_resize for an array variable or field. */
#define NST_RESIZE(array, n) nst_resize(&(array), (n), sizeof *(array))

#endif
