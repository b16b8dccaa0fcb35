/* The rank test against references computed another way: the exact
 * p-value by enumerating every split of the pooled sample, the normal
 * p-value from U counted over all pairs and the tie correction from tie
 * counts, the Hodges-Lehmann shift and interval from every difference
 * formed and sorted (near the limits of int64 too), a large case checked
 * by counting, Holm by hand, and a textbook example. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/normal.h"
#include "core/ranktest.h"

typedef __int128 wide;

static int cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
	return (a > b) - (a < b);
}

static int cmp_wide(const void *x, const void *y)
{
	wide a = *(const wide *)x, b = *(const wide *)y;
	return (a > b) - (a < b);
}

static uint64_t next(uint64_t *seed)
{
	*seed = *seed * 6364136223846793005u + 1442695040888963407u;
	return *seed >> 16;
}

/* Values with ties (a small span), negative ones, or near the limits. */
static void random_sample(int64_t *x, size_t n, int kind, uint64_t *seed)
{
	for (size_t i = 0; i < n; i++) {
		int64_t r = (int64_t)(next(seed) % 1000);
		switch (kind) {
		case 0: x[i] = r % 7 - 3; break;
		case 1: x[i] = r * 1000 + (int64_t)(next(seed) % 1000) - 400000; break;
		case 2: x[i] = next(seed) % 2 ? INT64_MAX - r % 5 : INT64_MIN + r % 5; break;
		default: x[i] = next(seed) % 3 == 0 ? INT64_MIN + r : next(seed) % 2 ? INT64_MAX - r : r;
		}
	}
	qsort(x, n, sizeof *x, cmp_i64);
}

/* ---- references ---------------------------------------------------------- */

/* Twice U of B, pair by pair. */
static uint64_t pair_u2(const int64_t *a, size_t n, const int64_t *b, size_t m)
{
	uint64_t u2 = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < m; j++)
			u2 += b[j] > a[i] ? 2 : b[j] == a[i];
	return u2;
}

/* Doubled midrank of v in pool[0..N): 2 * (#smaller) + #equal + 1. */
static int64_t midrank2(const int64_t *pool, size_t N, int64_t v)
{
	int64_t less = 0, equal = 0;
	for (size_t i = 0; i < N; i++)
		less += pool[i] < v, equal += pool[i] == v;
	return 2 * less + equal + 1;
}

/* Every choice of m of the N pooled items as B, B's doubled rank sum
 * compared with the one observed. */
static double brute_p(const int64_t *a, size_t n, const int64_t *b, size_t m)
{
	size_t N = n + m;
	int64_t pool[16], r2[16], obs = 0;
	memcpy(pool, a, n * sizeof *a);
	memcpy(pool + n, b, m * sizeof *b);
	for (size_t i = 0; i < N; i++)
		r2[i] = midrank2(pool, N, pool[i]);
	for (size_t j = 0; j < m; j++)
		obs += r2[n + j];
	int64_t mean2 = (int64_t)(m * (N + 1)), dev = llabs(obs - mean2);
	double extreme = 0, all = 0;
	for (uint32_t mask = 0; mask < (1u << N); mask++) {
		if ((size_t)__builtin_popcount(mask) != m)
			continue;
		int64_t s = 0;
		for (size_t i = 0; i < N; i++)
			if (mask >> i & 1)
				s += r2[i];
		all++;
		extreme += llabs(s - mean2) >= dev;
	}
	return extreme / all;
}

/* sigma of U with the tie correction, the ties counted in the pool sorted */
static double tie_sigma(const int64_t *a, size_t n, const int64_t *b, size_t m)
{
	size_t N = n + m;
	int64_t *pool = malloc(N * sizeof *pool);
	memcpy(pool, a, n * sizeof *a);
	memcpy(pool + n, b, m * sizeof *b);
	qsort(pool, N, sizeof *pool, cmp_i64);
	double ties = 0;
	for (size_t i = 0, j; i < N; i = j) {
		for (j = i; j < N && pool[j] == pool[i]; j++)
			;
		double t = (double)(j - i);
		ties += t * t * t - t;
	}
	free(pool);
	double nm = (double)n * (double)m, nt = (double)N;
	return sqrt(nm / 12 * ((nt + 1) - ties / (nt * (nt - 1))));
}

static double reference_normal_p(const int64_t *a, size_t n, const int64_t *b, size_t m)
{
	double sigma = tie_sigma(a, n, b, m);
	if (sigma == 0)
		return 1;
	double u = (double)pair_u2(a, n, b, m) / 2;
	double z = fabs(u - (double)n * (double)m / 2) - 0.5;
	return erfc((z > 0 ? z : 0) / sigma / sqrt(2));
}

/* The number of orderings of n A's and m B's with U = u, u in 0..n*m:
 * the last item is B (beating all n A's) or A. */
static double *u_counts(size_t n, size_t m)
{
	size_t w = n * m + 1;
	double *f = calloc((n + 1) * (m + 1) * w, sizeof *f);
#define F(i, j, u) f[((i) * (m + 1) + (j)) * w + (u)]
	for (size_t i = 0; i <= n; i++)
		for (size_t j = 0; j <= m; j++)
			for (size_t u = 0; u <= i * j; u++) {
				if (!i || !j) {
					F(i, j, u) = u == 0;
					continue;
				}
				F(i, j, u) = (u >= i ? F(i, j - 1, u - i) : 0) + F(i - 1, j, u);
			}
	double *out = malloc(w * sizeof *out);
	memcpy(out, &F(n, m, 0), w * sizeof *out);
#undef F
	free(f);
	return out;
}

/* k - 1 of the interval's rank k, as the header defines it. */
static int64_t reference_c(const int64_t *a, size_t n, const int64_t *b, size_t m, double conf)
{
	double tail = (1 - conf) / 2, nm = (double)n * (double)m;
	if (n + m > NST_RANK_EXACT_MAX)
		return (int64_t)floor(nm / 2 - nst_normal_quantile((1 + conf) / 2) * tie_sigma(a, n, b, m));
	double *f = u_counts(n, m), all = 0, below = 0;
	for (size_t u = 0; u <= n * m; u++)
		all += f[u];
	int64_t c = -1;
	for (size_t u = 0; u <= n * m; u++) {
		below += f[u];
		if (below / all > tail * (1 + 1e-12))
			break;
		c = (int64_t)u;
	}
	free(f);
	return c;
}

static wide *sorted_differences(const int64_t *a, size_t n, const int64_t *b, size_t m)
{
	wide *d = malloc(n * m * sizeof *d);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < m; j++)
			d[i * m + j] = (wide)b[j] - a[i];
	qsort(d, n * m, sizeof *d, cmp_wide);
	return d;
}

/* ---- the tests ------------------------------------------------------------ */

static void quantiles(void **state)
{
	(void)state;
	assert_true(fabs(nst_normal_quantile(0.975) - 1.959963984540054) < 1e-12);
	assert_true(fabs(nst_normal_quantile(0.025) + 1.959963984540054) < 1e-12);
	assert_true(fabs(nst_normal_quantile(0.995) - 2.5758293035489004) < 1e-12);
	assert_true(fabs(nst_normal_quantile(0.5)) < 1e-15);
	/* beyond 0.075 and beyond exp(-25) from the ends: the other two ranges */
	assert_true(fabs(nst_normal_quantile(1e-3) + 3.090232306167813) < 1e-12);
	assert_true(fabs(nst_normal_quantile(1e-12) + 7.034483825301131) < 1e-9);
	assert_true(isnan(nst_normal_quantile(1.5)));
}

static void exact_p_by_enumeration(void **state)
{
	(void)state;
	uint64_t seed = 1;
	int64_t a[16], b[16];
	for (int round = 0; round < 400; round++) {
		size_t n = 1 + next(&seed) % 10, m = 1 + next(&seed) % (16 - n);
		random_sample(a, n, round % 2 ? 0 : 1, &seed);
		random_sample(b, m, round % 2 ? 0 : 1, &seed);
		struct nst_rank_test r;
		assert_int_equal(nst_rank_test(a, n, b, m, 0.95, &r), 0);
		assert_true(r.exact);
		assert_true(r.u == (double)pair_u2(a, n, b, m) / 2);
		double want = brute_p(a, n, b, m);
		if (fabs(r.p - want) > 1e-12)
			fail_msg("n %zu m %zu: p %.17g, enumerated %.17g", n, m, r.p, want);
	}
}

static void normal_p_from_pairs(void **state)
{
	(void)state;
	uint64_t seed = 2;
	static int64_t a[400], b[400];
	for (int round = 0; round < 200; round++) {
		size_t n = 1 + next(&seed) % 300, m = 61 - (n < 61 ? n : 60) + next(&seed) % 300;
		random_sample(a, n, round % 3 == 0 ? 0 : 1, &seed);
		random_sample(b, m, round % 3 == 0 ? 0 : 1, &seed);
		if (round % 4 == 1)
			for (size_t j = 0; j < m; j++)
				b[j] += 30000; /* a real shift */
		struct nst_rank_test r;
		assert_int_equal(nst_rank_test(a, n, b, m, 0.9, &r), 0);
		assert_false(r.exact);
		double want = reference_normal_p(a, n, b, m);
		if (fabs(r.p - want) > 1e-9 * want + 1e-300)
			fail_msg("n %zu m %zu: p %.17g, reference %.17g", n, m, r.p, want);
	}
}

static void check_interval(const int64_t *a, size_t n, const int64_t *b, size_t m, double conf)
{
	struct nst_rank_test r;
	assert_int_equal(nst_rank_test(a, n, b, m, conf, &r), 0);
	wide *d = sorted_differences(a, n, b, m);
	size_t nm = n * m;
	double shift = (double)(((long double)d[(nm - 1) / 2] + (long double)d[nm / 2]) / 2);
	if (r.shift != shift)
		fail_msg("n %zu m %zu: shift %.17g, sorted %.17g", n, m, r.shift, shift);
	int64_t c = reference_c(a, n, b, m, conf);
	if (c < 0) {
		assert_true(isnan(r.lo) && isnan(r.hi));
	} else {
		double lo = (double)(long double)d[c], hi = (double)(long double)d[nm - 1 - (size_t)c];
		if (r.lo != lo || r.hi != hi)
			fail_msg("n %zu m %zu c %lld: [%.17g, %.17g], sorted [%.17g, %.17g]", n, m,
				 (long long)c, r.lo, r.hi, lo, hi);
	}
	free(d);
}

static void shift_and_interval_by_sorting(void **state)
{
	(void)state;
	uint64_t seed = 3;
	static int64_t a[300], b[300];
	for (int round = 0; round < 600; round++) {
		size_t n = 1 + next(&seed) % (round < 300 ? 30 : 300);
		size_t m = 1 + next(&seed) % (round < 300 ? 30 : 300);
		random_sample(a, n, round % 4, &seed);
		random_sample(b, m, (round / 4) % 4, &seed);
		check_interval(a, n, b, m, round % 2 ? 0.95 : 0.8);
	}
}

static void extremes(void **state)
{
	(void)state;
	const int64_t lo[] = { INT64_MIN, INT64_MIN }, hi[] = { INT64_MAX, INT64_MAX };
	check_interval(lo, 2, hi, 2, 0.5);
	check_interval(hi, 2, lo, 2, 0.5);
	check_interval(lo, 1, hi, 1, 0.5);
	struct nst_rank_test r;
	assert_int_equal(nst_rank_test(hi, 2, lo, 2, 0.5, &r), 0);
	assert_true(r.shift == -18446744073709551615.0);
	assert_int_equal(nst_rank_test(lo, 0, hi, 2, 0.95, &r), 0);
	assert_true(r.p == 1 && isnan(r.shift) && isnan(r.lo) && isnan(r.hi));
	assert_int_equal(nst_rank_test(lo, 2, hi, 0, 0.95, &r), 0);
	assert_true(r.p == 1 && isnan(r.shift));
	/* all equal: no evidence of a difference, and a shift of 0 */
	static int64_t same[100];
	assert_int_equal(nst_rank_test(same, 40, same, 60, 0.95, &r), 0);
	assert_true(r.p == 1 && r.shift == 0 && r.lo == 0 && r.hi == 0);
}

/* The differences below x and at or below it, by binary search per a_i. */
static void count_around(const int64_t *a, size_t n, const int64_t *b, size_t m, double x,
			 uint64_t *below, uint64_t *at_or_below)
{
	*below = *at_or_below = 0;
	for (size_t i = 0; i < n; i++) {
		size_t l = 0, h = m; /* first b_j with b_j - a_i >= x */
		while (l < h) {
			size_t mid = (l + h) / 2;
			if ((double)(b[mid] - a[i]) < x)
				l = mid + 1;
			else
				h = mid;
		}
		*below += l;
		for (h = m; l < h;) { /* first with b_j - a_i > x */
			size_t mid = (l + h) / 2;
			if ((double)(b[mid] - a[i]) <= x)
				l = mid + 1;
			else
				h = mid;
		}
		*at_or_below += l;
	}
}

static void check_rank(const int64_t *a, size_t n, const int64_t *b, size_t m, double x,
		       uint64_t k)
{
	uint64_t below, at_or_below;
	count_around(a, n, b, m, x, &below, &at_or_below);
	if (!(below < k && k <= at_or_below))
		fail_msg("%.17g: %llu below, %llu at or below, rank %llu", x,
			 (unsigned long long)below, (unsigned long long)at_or_below,
			 (unsigned long long)k);
}

static void large_by_counting(void **state)
{
	(void)state;
	uint64_t seed = 4;
	size_t n = 200001, m = 200001;
	int64_t *a = malloc(n * sizeof *a), *b = malloc(m * sizeof *b);
	for (int round = 0; round < 2; round++) {
		for (size_t i = 0; i < n; i++) /* durations: a body and a long tail */
			a[i] = 10000 + (int64_t)(next(&seed) % 2000) + (next(&seed) % 50 ? 0 : (int64_t)(next(&seed) % 1000000));
		for (size_t j = 0; j < m; j++)
			b[j] = 10000 + (int64_t)(next(&seed) % (round ? 2000 : 2100)) + (next(&seed) % 40 ? 0 : (int64_t)(next(&seed) % 1000000));
		qsort(a, n, sizeof *a, cmp_i64);
		qsort(b, m, sizeof *b, cmp_i64);
		struct nst_rank_test r;
		assert_int_equal(nst_rank_test(a, n, b, m, 0.95, &r), 0);
		uint64_t nm = (uint64_t)n * m;
		check_rank(a, n, b, m, r.shift, (nm + 1) / 2);
		int64_t c = (int64_t)floor((double)nm / 2 - 1.959963984540054 * tie_sigma(a, n, b, m));
		check_rank(a, n, b, m, r.lo, (uint64_t)c + 1);
		check_rank(a, n, b, m, r.hi, nm - (uint64_t)c);
	}
	free(a);
	free(b);
}

static void holm(void **state)
{
	(void)state;
	const double p[] = { 0.01, 0.04, 0.03, 0.005 }, want[] = { 0.03, 0.06, 0.06, 0.02 };
	double adj[4];
	assert_int_equal(nst_holm(p, 4, adj), 0);
	for (int i = 0; i < 4; i++)
		assert_true(fabs(adj[i] - want[i]) < 1e-15);
	/* NaN is no test: it stays NaN and the others count three */
	const double q[] = { 0.01, NAN, 0.04, 0.5 };
	assert_int_equal(nst_holm(q, 4, adj), 0);
	assert_true(fabs(adj[0] - 0.03) < 1e-15 && isnan(adj[1]));
	assert_true(fabs(adj[2] - 0.08) < 1e-15 && fabs(adj[3] - 0.5) < 1e-15);
	const double big[] = { 0.4, 0.6 };
	assert_int_equal(nst_holm(big, 2, adj), 0);
	assert_true(adj[0] == 0.8 && adj[1] == 0.8);
	assert_int_equal(nst_holm(big, 0, adj), 0);
}

/* Hollander and Wolfe, "Nonparametric Statistical Methods" (1973), p. 69:
 * permeability constants of the human chorioamnion at term (x) and at 12
 * to 26 weeks (y), the example of R's wilcox.test, which gives W = 35 and
 * a one-sided exact p of 0.1272; with no ties the distribution is
 * symmetric and the two-sided p is twice that. */
static void textbook(void **state)
{
	(void)state;
	int64_t x[] = { 80, 83, 189, 104, 145, 138, 191, 164, 73, 146 };
	int64_t y[] = { 115, 88, 90, 74, 121 };
	qsort(x, 10, sizeof *x, cmp_i64);
	qsort(y, 5, sizeof *y, cmp_i64);
	struct nst_rank_test r;
	assert_int_equal(nst_rank_test(y, 5, x, 10, 0.95, &r), 0);
	assert_true(r.exact);
	assert_true(r.u == 35);
	assert_true(fabs(r.p - 2 * 0.1272) < 1e-4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(quantiles),
		cmocka_unit_test(exact_p_by_enumeration),
		cmocka_unit_test(normal_p_from_pairs),
		cmocka_unit_test(shift_and_interval_by_sorting),
		cmocka_unit_test(extremes),
		cmocka_unit_test(large_by_counting),
		cmocka_unit_test(holm),
		cmocka_unit_test(textbook),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
