/* The alignment of launch sequences: on thousands of random pairs, the
 * script pairs only equal ids, in order, covers both sequences once, and
 * is as short as can be (its matches are a longest common subsequence,
 * checked against the textbook dynamic program); with a limit on the
 * script's length it stays valid. */
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

static void edges(void **state)
{
	(void)state;
	static const uint32_t x[] = { 1, 2, 3 };
	run_case(x, 0, x, 0, 0);
	run_case(x, 3, x, 0, 0);
	run_case(x, 0, x, 3, 0);
	run_case(x, 3, x, 3, 0);
	run_case(x, 3, x + 1, 2, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shortest_on_random_pairs),
		cmocka_unit_test(valid_under_a_limit),
		cmocka_unit_test(edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
