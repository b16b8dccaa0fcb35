/* Interval coverage (src/core/intervals.c) against a brute force that
 * looks at every nanosecond of small random timelines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/intervals.h"

#define SPAN 400

/* Counts covered nanoseconds [t, t+1) one by one, and the holes between
 * the first and the last covered one; the span runs from the earliest
 * start to the latest end, empty intervals included. */
static struct nst_coverage brute(const struct nst_interval *iv, size_t n,
				 int64_t threshold)
{
	static unsigned char on[SPAN];
	struct nst_coverage c = { .n = n };
	memset(on, 0, sizeof on);
	int64_t lo = SPAN, hi = -1;
	for (size_t i = 0; i < n; i++) {
		if (iv[i].start < lo) lo = iv[i].start;
		int64_t e = iv[i].end < iv[i].start ? iv[i].start : iv[i].end;
		if (e > hi) hi = e;
		c.sum += e - iv[i].start;
		for (int64_t t = iv[i].start; t < e; t++)
			on[t] = 1;
	}
	if (n == 0)
		return c;
	c.first = lo;
	c.last = hi;
	int64_t hole = 0;
	bool seen = false;
	for (int64_t t = lo; t < hi; t++) {
		c.covered += on[t];
		if (!on[t]) {
			hole += seen;
		} else if (hole) {
			if (hole > threshold) { c.gaps++; c.gap_time += hole; }
			hole = 0;
		}
		seen |= on[t];
	}
	return c;
}

static void expect_same(struct nst_coverage a, struct nst_coverage b)
{
	assert_int_equal(a.n, b.n);
	assert_int_equal(a.first, b.first);
	assert_int_equal(a.last, b.last);
	assert_int_equal(a.sum, b.sum);
	assert_int_equal(a.covered, b.covered);
	assert_int_equal(a.gaps, b.gaps);
	assert_int_equal(a.gap_time, b.gap_time);
}

static void random_timelines_match_brute_force(void **state)
{
	(void)state;
	struct nst_interval iv[40];
	srand(7);
	for (int round = 0; round < 5000; round++) {
		size_t n = (size_t)(rand() % 40);
		int64_t maxlen = 1 + rand() % 60;
		for (size_t i = 0; i < n; i++) {
			iv[i].start = rand() % (SPAN - 100);
			/* some empty and some reversed intervals too */
			iv[i].end = iv[i].start + rand() % (maxlen + 2) - 1;
		}
		nst_intervals_sort(iv, n);
		int64_t threshold = rand() % 8;
		expect_same(nst_coverage_of(iv, n, threshold), brute(iv, n, threshold));
	}
}

static void touching_intervals_leave_no_gap(void **state)
{
	(void)state;
	struct nst_interval iv[] = { { 10, 20 }, { 20, 30 }, { 35, 40 } };
	struct nst_coverage c = nst_coverage_of(iv, 3, 0);
	assert_int_equal(c.covered, 25);
	assert_int_equal(c.gaps, 1);
	assert_int_equal(c.gap_time, 5);
	assert_int_equal(nst_coverage_of(iv, 3, 5).gaps, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(random_timelines_match_brute_force),
		cmocka_unit_test(touching_intervals_leave_no_gap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
