/* core/big.h: arrays as long as an export's tables, freed with free(). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/big.h"
#include "core/resize.h"

/* Room for n * size bytes that do not fit a size_t is refused, not
 * wrapped into a small array that the caller would overrun. */
static void overflowing_sizes_are_refused(void **state)
{
	(void)state;
	assert_null(nst_big_alloc(SIZE_MAX / 8 + 2, 8));
	assert_null(nst_big_zalloc(SIZE_MAX / 8 + 2, 8));
}

/* An empty array is still an array: a NULL would read as out of memory. */
static void empty_arrays_are_not_null(void **state)
{
	(void)state;
	void *a = nst_big_alloc(0, 8), *b = nst_big_zalloc(0, 8);
	assert_non_null(a);
	assert_non_null(b);
	free(a);
	free(b);
}

/* Arrays past a huge page, fresh and grown: zeroed where asked, every
 * byte writable and kept across a resize, whatever the hint did. */
static void big_arrays_hold_their_bytes(void **state)
{
	(void)state;
	size_t n = (size_t)5 << 20;
	uint8_t *z = nst_big_zalloc(n, 1);
	assert_non_null(z);
	for (size_t i = 0; i < n; i += 4093)
		assert_int_equal(z[i], 0);
	int64_t *a = nst_big_alloc(n / 8, sizeof *a);
	assert_non_null(a);
	for (size_t i = 0; i < n / 8; i++)
		a[i] = (int64_t)i;
	assert_int_equal(NST_RESIZE(a, n / 4), 0);
	for (size_t i = 0; i < n / 8; i++)
		assert_true(a[i] == (int64_t)i);
	a[n / 4 - 1] = 7;
	nst_big_hint(a + 3, n); /* written bytes, not page aligned: kept */
	assert_true(a[n / 4 - 1] == 7);
	free(z);
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(overflowing_sizes_are_refused),
		cmocka_unit_test(empty_arrays_are_not_null),
		cmocka_unit_test(big_arrays_hold_their_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
