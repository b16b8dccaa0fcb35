/* The alignment of launch sequences: on thousands of random pairs, the
 * script pairs only equal ids, in order, covers both sequences once, and
 * is as short as can be (its matches are a longest common subsequence,
 * checked against the textbook dynamic program); with a limit on the
 * script's length (nst_seq_diff) or on the work (nst_seq_align) it stays
 * valid, and nst_seq_align says shortest only where it is. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/seqdiff.h"

struct script {
	const uint32_t *a, *b;
	size_t n, m, i, j, same;
	bool bad;
};

static int check_op(void *arg, enum nst_seq_op op, size_t i, size_t j)
{
	struct script *s = arg;
	/* every element once, in order */
	if ((op != NST_SEQ_ADD && i != s->i) || (op != NST_SEQ_DEL && j != s->j))
		s->bad = true;
	if (op == NST_SEQ_SAME && (i >= s->n || j >= s->m || s->a[i] != s->b[j]))
		s->bad = true;
	s->i += op != NST_SEQ_ADD;
	s->j += op != NST_SEQ_DEL;
	s->same += op == NST_SEQ_SAME;
	return 0;
}

static size_t lcs(const uint32_t *a, size_t n, const uint32_t *b, size_t m)
{
	size_t *row = calloc(m + 1, sizeof *row), *prev = calloc(m + 1, sizeof *prev);
	for (size_t i = 1; i <= n; i++) {
		for (size_t j = 1; j <= m; j++)
			row[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1
			       : row[j - 1] > prev[j] ? row[j - 1] : prev[j];
		size_t *t = prev;
		prev = row;
		row = t;
	}
	size_t r = prev[m];
	free(row);
	free(prev);
	return r;
}

static void random_seq(uint32_t *x, size_t n, uint32_t alphabet, unsigned *seed)
{
	for (size_t i = 0; i < n; i++)
		x[i] = (uint32_t)rand_r(seed) % alphabet;
}

/* b as a with a few launches dropped, inserted and changed, as two runs differ */
static size_t perturbed(const uint32_t *a, size_t n, uint32_t *b, unsigned *seed)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		int r = rand_r(seed) % 20;
		if (r == 0)
			continue;
		if (r == 1)
			b[m++] = 1000 + (uint32_t)(rand_r(seed) % 3);
		b[m++] = r == 2 ? 2000 : a[i];
	}
	return m;
}

static void run_case(const uint32_t *a, size_t n, const uint32_t *b, size_t m, size_t max_d)
{
	struct script s = { a, b, n, m, 0, 0, 0, false };
	bool approx;
	assert_int_equal(nst_seq_diff(a, n, b, m, max_d, check_op, &s, &approx), 0);
	assert_false(s.bad);
	assert_int_equal(s.i, n);
	assert_int_equal(s.j, m);
	if (!approx)
		assert_int_equal(s.same, lcs(a, n, b, m));
}

static void shortest_on_random_pairs(void **state)
{
	(void)state;
	unsigned seed = 7;
	uint32_t a[300], b[700];
	for (int round = 0; round < 3000; round++) {
		size_t n = (size_t)rand_r(&seed) % 120, m = (size_t)rand_r(&seed) % 120;
		uint32_t alphabet = 1 + (uint32_t)rand_r(&seed) % 6;
		random_seq(a, n, alphabet, &seed);
		random_seq(b, m, alphabet, &seed);
		run_case(a, n, b, m, 0);
		m = perturbed(a, n, b, &seed);
		run_case(a, n, b, m, 0);
	}
}

static void valid_under_a_limit(void **state)
{
	(void)state;
	unsigned seed = 11;
	uint32_t a[300], b[700];
	for (int round = 0; round < 1000; round++) {
		size_t n = (size_t)rand_r(&seed) % 300, m = (size_t)rand_r(&seed) % 300;
		random_seq(a, n, 4, &seed);
		random_seq(b, m, 4, &seed);
		run_case(a, n, b, m, 1 + (size_t)rand_r(&seed) % 20);
	}
}

/* nst_seq_align on a and b with that much work: valid, and as short as
 * the dynamic program says wherever it claims to be shortest; returns
 * the claim. */
static bool align_case(const uint32_t *a, size_t n, const uint32_t *b, size_t m, uint64_t work)
{
	struct script s = { a, b, n, m, 0, 0, 0, false };
	bool shortest = false;
	assert_int_equal(nst_seq_align(a, n, b, m, work, check_op, &s, &shortest), 0);
	assert_false(s.bad);
	assert_int_equal(s.i, n);
	assert_int_equal(s.j, m);
	if (shortest)
		assert_int_equal(s.same, lcs(a, n, b, m));
	return shortest;
}

/* Ids over the whole range of uint32_t, a few of them often. */
static void wide_seq(uint32_t *x, size_t n, unsigned *seed)
{
	for (size_t i = 0; i < n; i++)
		x[i] = rand_r(seed) % 4 ? (uint32_t)rand_r(seed) * 2654435761u : (uint32_t)(rand_r(seed) % 8);
}

static uint32_t *seq_of(size_t n)
{
	uint32_t *x = malloc((n ? n : 1) * 2 * sizeof *x);
	assert_non_null(x);
	return x;
}

/* Small pairs, every kind: tiny and large alphabets, related and not. */
static void align_shortest_on_small_pairs(void **state)
{
	(void)state;
	unsigned seed = 5;
	uint32_t *a = seq_of(400), *b = seq_of(400);
	for (int round = 0; round < 4000; round++) {
		size_t n = (size_t)rand_r(&seed) % 200, m = (size_t)rand_r(&seed) % 200;
		uint32_t alphabet = rand_r(&seed) % 2 ? 1 + (uint32_t)rand_r(&seed) % 6
						      : 1 + (uint32_t)rand_r(&seed) % 5000;
		random_seq(a, n, alphabet, &seed);
		random_seq(b, m, alphabet, &seed);
		assert_true(align_case(a, n, b, m, 0));
		m = perturbed(a, n, b, &seed);
		assert_true(align_case(a, n, b, m, 0));
		wide_seq(a, n, &seed);
		m = perturbed(a, n, b, &seed);
		assert_true(align_case(a, n, b, m, 0));
	}
	free(a);
	free(b);
}

/* Thousands of ids a side, differing in far more than 2000 places: the
 * bit-parallel rows, across their blocks of 8192 positions too. */
static void align_shortest_on_large_pairs(void **state)
{
	(void)state;
	unsigned seed = 9;
	uint32_t *a = seq_of(20000), *b = seq_of(20000);
	for (int round = 0; round < 60; round++) {
		size_t n = 1000 + (size_t)rand_r(&seed) % 3000, m = 1000 + (size_t)rand_r(&seed) % 3000;
		uint32_t alphabet = round % 3 == 0 ? 4 : round % 3 == 1 ? 64 : 3000;
		random_seq(a, n, alphabet, &seed);
		random_seq(b, m, alphabet, &seed);
		assert_true(align_case(a, n, b, m, 0));
		m = perturbed(a, n, b, &seed);
		assert_true(align_case(a, n, b, m, 0));
	}
	for (int round = 0; round < 4; round++) {
		size_t n = 9000 + (size_t)rand_r(&seed) % 9000, m = 300 + (size_t)rand_r(&seed) % 400;
		random_seq(a, n, round % 2 ? 3 : 50, &seed);
		random_seq(b, m, round % 2 ? 3 : 50, &seed);
		assert_true(align_case(a, n, b, m, 0));
		assert_true(align_case(b, m, a, n, 0));
	}
	free(a);
	free(b);
}

/* Within the work: shortest; when Myers's search ends in it, shortest
 * whatever n m / 64 is. */
static void align_shortest_within_the_work(void **state)
{
	(void)state;
	unsigned seed = 13;
	uint32_t *a = seq_of(3000), *b = seq_of(3000);
	for (int round = 0; round < 200; round++) {
		size_t n = 500 + (size_t)rand_r(&seed) % 2500, m;
		random_seq(a, n, 1 + (uint32_t)rand_r(&seed) % 100, &seed);
		random_seq(b, n, 1 + (uint32_t)rand_r(&seed) % 100, &seed);
		assert_true(align_case(a, n, b, n, (uint64_t)n * n / 64));
		m = perturbed(a, n, b, &seed);
		align_case(a, n, b, m, 40 * (n + m));
		memcpy(b, a, n * sizeof *a);
		b[n / 2] = 1u << 31;
		assert_true(align_case(a, n, b, n, 4 * n));
	}
	free(a);
	free(b);
}

/* Past the work: on anchors, valid, and not said to be shortest. */
static void align_anchored_past_the_work(void **state)
{
	(void)state;
	unsigned seed = 17;
	uint32_t *a = seq_of(3000), *b = seq_of(3000);
	for (int round = 0; round < 300; round++) {
		size_t n = 200 + (size_t)rand_r(&seed) % 2800, m = 200 + (size_t)rand_r(&seed) % 2800;
		uint32_t alphabet = round % 2 ? 8 : 20000;
		random_seq(a, n, alphabet, &seed);
		random_seq(b, m, alphabet, &seed);
		assert_false(align_case(a, n, b, m, 1 + (size_t)rand_r(&seed) % 64));
		wide_seq(a, n, &seed);
		m = perturbed(a, n, b, &seed);
		for (size_t i = 0; i < m; i += 1 + (size_t)rand_r(&seed) % 8)
			b[i] = (uint32_t)rand_r(&seed) % 16;
		assert_false(align_case(a, n, b, m, 1 + (size_t)rand_r(&seed) % 64));
		/* whatever the work, valid; shortest where it says so */
		align_case(a, n, b, m, (uint64_t)rand_r(&seed) % (n * m / 32 + 1));
	}
	free(a);
	free(b);
}

static void edges(void **state)
{
	(void)state;
	static const uint32_t x[] = { 1, 2, 3 };
	run_case(x, 0, x, 0, 0);
	run_case(x, 3, x, 0, 0);
	run_case(x, 0, x, 3, 0);
	run_case(x, 3, x, 3, 0);
	run_case(x, 3, x + 1, 2, 0);
	for (uint64_t work = 0; work < 3; work++) {
		assert_true(align_case(x, 0, x, 0, work));
		assert_true(align_case(x, 3, x, 0, work));
		assert_true(align_case(x, 0, x, 3, work));
		assert_true(align_case(x, 3, x, 3, work));
		assert_true(align_case(x, 3, x + 1, 2, work));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shortest_on_random_pairs),
		cmocka_unit_test(valid_under_a_limit),
		cmocka_unit_test(align_shortest_on_small_pairs),
		cmocka_unit_test(align_shortest_on_large_pairs),
		cmocka_unit_test(align_shortest_within_the_work),
		cmocka_unit_test(align_anchored_past_the_work),
		cmocka_unit_test(edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
