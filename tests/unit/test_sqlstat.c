/* The SQLite-exact statistics: round() against the SQLite library this
 * test links (same printf algorithm as nsys's embedded 3.42 up to 3.42),
 * quantiles against values observed from nsys, stdev against a two-pass
 * formula, sorting against qsort. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "core/col.h"
#include "core/sqlstat.h"

static double sqlite_round(sqlite3 *db, double x, int digits)
{
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT round(?, ?)", -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_double(st, 1, x);
	sqlite3_bind_int(st, 2, digits);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	double r = sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	return r;
}

/* SQLite 3.43 replaced the printf digit generator; the library then no
 * longer is the reference for 3.42's rounding. */
static int linked_sqlite_rounds_like_342(void)
{
	return sqlite3_libversion_number() < 3043000;
}

/* An in-memory SQLite to compare round() with; the test is skipped
 * where the linked library is no longer the reference. */
static sqlite3 *reference_sqlite(void)
{
	if (!linked_sqlite_rounds_like_342())
		skip();
	sqlite3 *db;
	assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
	return db;
}

static void round_matches_sqlite(void **state)
{
	(void)state;
	sqlite3 *db = reference_sqlite();
	/* Ties and near-ties: averages of integers over 2, 4, 8, 20 values. */
	static const double fixed[] = {
		0.25, 0.35, 0.45, 1234.25, 1234.75, 2.675, 1.05, 1.15, 8.325,
		24956259.65, 24956259.75, 1e15 + 0.25, 4503599627370495.5,
		-0.25, -1234.75, 0.0, 0.05, 9.95, 99.95, 1e-7, 123456789.45,
	};
	for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
		for (int d = 0; d <= 4; d++)
			assert_true(nst_sql_round(fixed[i], d) == sqlite_round(db, fixed[i], d));
	srand(42);
	for (int i = 0; i < 200000; i++) {
		int64_t sum = (int64_t)(((uint64_t)rand() << 20) ^ (uint64_t)rand());
		int n = 1 + rand() % 40;
		double x = (double)sum / n;
		assert_true(nst_sql_round(x, 1) == sqlite_round(db, x, 1));
	}
	sqlite3_close(db);
}

/* Whole numbers below 1e14 take a shortcut past the digit generator for
 * up to 4 digits; past those bounds SQLite gives other numbers (round(x,
 * 6) of a whole x from 2^44 is not x), which the generator must keep. */
static void round_whole_numbers_matches_sqlite(void **state)
{
	(void)state;
	sqlite3 *db = reference_sqlite();
	static const double edge[] = {
		0.0, 1.0, -1.0, 99999999999999.0, -99999999999999.0, 1e14, -1e14,
		17592186044415.0, 17592186044416.0, 140737488355328.0, 4503599627370496.0,
		999999999999999.0, 123456789012345.0,
	};
	for (size_t i = 0; i < sizeof edge / sizeof *edge; i++)
		for (int d = 1; d <= 30; d++)
			assert_true(nst_sql_round(edge[i], d) == sqlite_round(db, edge[i], d));
	srand(7);
	for (int i = 0; i < 200000; i++) {
		int64_t whole = (int64_t)(((uint64_t)rand() << 31) ^ (uint64_t)rand());
		double x = (double)(whole % (i % 2 ? 100000000000000LL : 1000000000000000LL));
		int d = 1 + rand() % (i % 4 ? 4 : 30);
		assert_true(nst_sql_round(x, d) == sqlite_round(db, x, d));
		assert_true(nst_sql_round(-x, d) == sqlite_round(db, -x, d));
	}
	sqlite3_close(db);
	/* SQLite prints -0.0 as 0.0 */
	assert_false(signbit(nst_sql_round(-0.0, 1)));
}

/* Below 1e10 with up to 4 digits the digits are read off x directly when
 * none is in doubt; the digit generator keeps the rest.  Either way the
 * result must be SQLite's, at every magnitude, on ties and on whole units
 * of the last digit. */
static void round_of_every_magnitude_matches_sqlite(void **state)
{
	(void)state;
	sqlite3 *db = reference_sqlite();
	srand(11);
	for (int i = 0; i < 400000; i++) {
		int d = 1 + i % 4;
		double mag = pow(10.0, -6 + rand() % 18);
		double x = mag * ((double)rand() / RAND_MAX);
		if (i % 3 == 0) { /* a tie or a whole unit of the last digit */
			double unit = pow(10.0, -d), k = floor(x / unit);
			x = (k + (i % 2 ? 0.5 : 1.0)) * unit;
		}
		if (i % 5 == 0)
			x = -x;
		assert_true(nst_sql_round(x, d) == sqlite_round(db, x, d));
	}
	sqlite3_close(db);
}

static void round_ties_go_away_from_zero(void **state)
{
	(void)state;
	/* Observed in nsys: an Avg of 1234.25 prints as 1234.3. */
	assert_true(nst_sql_round(1234.25, 1) == 1234.3);
	assert_true(nst_sql_round(0.25, 1) == 0.3);
	assert_true(nst_sql_round(-0.25, 1) == -0.3);
}

static void quantiles_follow_the_extension_functions(void **state)
{
	(void)state;
	/* Values nsys's median/lower_quartile/upper_quartile return. */
	int64_t one_to_eight[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	assert_true(nst_mid_value(nst_quantile(one_to_eight, 8, 1, 4)) == 2.5);
	assert_true(nst_mid_value(nst_quantile(one_to_eight, 8, 3, 4)) == 6.5);
	assert_true(nst_mid_value(nst_quantile(one_to_eight, 8, 1, 2)) == 4.5);
	int64_t one_to_five[] = { 1, 2, 3, 4, 5 };
	struct nst_mid q1 = nst_quantile(one_to_five, 5, 1, 4);
	assert_true(q1.is_int && q1.i == 2);
	assert_true(nst_quantile(one_to_five, 5, 3, 4).i == 4);
	assert_true(nst_quantile(one_to_five, 5, 1, 2).i == 3);
	int64_t sevens[] = { 1, 7, 7, 7 };
	struct nst_mid lo = nst_quantile(sevens, 4, 1, 4);
	assert_false(lo.is_int);
	assert_true(lo.r == 4.0);
	struct nst_mid hi = nst_quantile(sevens, 4, 3, 4);
	assert_true(hi.is_int && hi.i == 7);
	int64_t single[] = { 42 };
	assert_true(nst_quantile(single, 1, 1, 2).i == 42);
}

static void dist_matches_two_pass_formulas(void **state)
{
	(void)state;
	enum { N = 1001 };
	int64_t v[N], copy[N];
	srand(7);
	double sum = 0;
	for (int i = 0; i < N; i++) {
		v[i] = copy[i] = 1000 + rand() % 100000;
		sum += (double)v[i];
	}
	double mean = sum / N, ss = 0;
	for (int i = 0; i < N; i++)
		ss += ((double)copy[i] - mean) * ((double)copy[i] - mean);
	struct nst_dist d;
	nst_dist_of(v, N, &d);
	assert_int_equal(d.n, N);
	assert_true(fabs(d.avg - mean) < 1e-9);
	assert_true(fabs(d.stdev - sqrt(ss / (N - 1))) < 1e-6);
	for (int i = 1; i < N; i++)
		assert_true(v[i - 1] <= v[i]);
	assert_true(d.min == v[0] && d.max == v[N - 1]);
	assert_true(d.med.is_int && d.med.i == v[N / 2]);
}

static void stdev_of_one_value_is_zero(void **state)
{
	(void)state;
	int64_t v[] = { 5 };
	struct nst_dist d;
	nst_dist_of(v, 1, &d);
	assert_true(d.stdev == 0.0);
}

static bool same_mid(struct nst_mid a, struct nst_mid b)
{
	return a.is_int == b.is_int && (a.is_int ? a.i == b.i : a.r == b.r);
}

/* v[0..n) of one shape: 0 random, 1 ascending, 2 descending, 3 all equal,
 * 4 few values, 5 organ pipe, 6 alternating extremes. */
static void shaped(int64_t *v, size_t n, int shape)
{
	for (size_t i = 0; i < n; i++) {
		int64_t x = (int64_t)i;
		v[i] = shape == 0 ? (int64_t)(rand() % 1000) - 500
		     : shape == 1 ? x
		     : shape == 2 ? (int64_t)n - x
		     : shape == 3 ? 7
		     : shape == 4 ? (int64_t)(rand() % 3)
		     : shape == 5 ? (i < n / 2 ? x : (int64_t)n - x)
		     : (i % 2 ? INT64_MAX / 4 - x : x - INT64_MAX / 4);
	}
}

/* The selection in place gives the numbers of the sort, whatever the
 * shape and size of the values (sizes across the insertion-sort cut). */
static void unordered_dist_equals_sorted(void **state)
{
	(void)state;
	static int64_t a[5000], b[5000];
	static const size_t sizes[] = { 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 64, 100, 1001, 4096, 5000 };
	srand(11);
	for (int shape = 0; shape < 7; shape++)
		for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
			size_t n = sizes[k];
			shaped(a, n, shape);
			memcpy(b, a, n * sizeof *a);
			struct nst_dist x, y;
			assert_true(nst_dist_of(a, n, &x));
			assert_true(nst_dist_of_unordered(b, n, &y));
			assert_true(x.n == y.n && x.sum == y.sum && x.min == y.min && x.max == y.max);
			assert_true(x.avg == y.avg && x.stdev == y.stdev);
			assert_true(same_mid(x.med, y.med));
		}
}

/* Ranks selected in place hold what the sorted values hold there, for
 * the ranks in any order and repeated; kern_dist's P50, P90, P99. */
static void selected_ranks_equal_sorted(void **state)
{
	(void)state;
	static int64_t a[5000], b[5000];
	static const size_t sizes[] = { 1, 2, 3, 17, 100, 1001, 5000 };
	srand(5);
	for (int shape = 0; shape < 7; shape++)
		for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
			size_t n = sizes[k];
			shaped(a, n, shape);
			memcpy(b, a, n * sizeof *a);
			nst_sort_i64(a, n);
			size_t at[4] = { (99 * n + 99) / 100 - 1, (50 * n + 99) / 100 - 1,
					 (90 * n + 99) / 100 - 1, (50 * n + 99) / 100 - 1 };
			nst_select_ranks(b, n, at, 4);
			for (size_t r = 0; r < 4; r++)
				assert_true(b[at[r]] == a[at[r]]);
		}
}

/* Above the histogram's cut: values spread evenly, clustered far apart,
 * a narrow bulk with outliers at both ends, and int64's extremes; the
 * ranks at the ends, in the middle, repeated and in any order. */
static void large_selections_equal_sorted(void **state)
{
	(void)state;
	static const size_t sizes[] = { 16383, 16384, 20000, 100001, 300000 };
	enum { MAXN = 300000 };
	int64_t *a = malloc(MAXN * sizeof *a), *b = malloc(MAXN * sizeof *b);
	assert_non_null(a);
	assert_non_null(b);
	srand(17);
	for (int shape = 0; shape < 10; shape++)
		for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
			size_t n = sizes[k];
			if (shape < 7)
				shaped(a, n, shape);
			for (size_t i = 0; shape >= 7 && i < n; i++) {
				int64_t r = rand() % 100;
				a[i] = shape == 7 ? (i % 1000 == 0 ? 1000000000000 - r : 1000 + r)
				     : shape == 8 ? (i % 3 == 0 ? INT64_MIN + r : i % 3 == 1 ? INT64_MAX - r : r)
				     : (int64_t)(((uint64_t)rand() << 40) ^ ((uint64_t)rand() << 20) ^
						 (uint64_t)rand());
			}
			memcpy(b, a, n * sizeof *a);
			nst_sort_i64(a, n);
			size_t at[7] = { n - 1, (99 * n + 99) / 100 - 1, 0, (50 * n + 99) / 100 - 1,
					 (90 * n + 99) / 100 - 1, (50 * n + 99) / 100 - 1, n / 4 };
			size_t want[7];
			memcpy(want, at, sizeof at);
			nst_select_ranks(b, n, at, 7);
			for (size_t r = 0; r < 7; r++)
				assert_true(b[want[r]] == a[want[r]]);
		}
	free(a);
	free(b);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static void radix_sort_agrees_with_qsort(void **state)
{
	(void)state;
	enum { N = 50000 };
	int64_t *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
	assert_non_null(a);
	assert_non_null(b);
	srand(3);
	for (int i = 0; i < N; i++) {
		int64_t r = (int64_t)(((uint64_t)rand() << 33) ^ ((uint64_t)rand() << 2) ^ (uint64_t)rand());
		a[i] = b[i] = (i % 3 == 0) ? -r : r;
	}
	a[0] = b[0] = INT64_MIN;
	a[1] = b[1] = INT64_MAX;
	nst_sort_i64(a, N);
	qsort(b, N, sizeof *b, cmp_i64);
	assert_memory_equal(a, b, N * sizeof *a);
	free(a);
	free(b);
}

static void assert_same_dist(const struct nst_dist *x, const struct nst_dist *y)
{
	assert_true(x->n == y->n && x->sum == y->sum && x->min == y->min && x->max == y->max);
	assert_true(x->avg == y->avg && x->stdev == y->stdev);
	assert_true(same_mid(x->med, y->med));
}

/* Values read where they are (nst_dist_in_place) give the numbers of
 * the sorted copy: read as they lie, through a list of rows (every third
 * row, in order, as a group's rows come), and as the durations of those
 * rows in a 32-bit column and in start and end arrays; from the size
 * where it starts to pay. */
static void dist_in_place_equals_sorted(void **state)
{
	(void)state;
	static const size_t sizes[] = { 1023, 1024, 1025, 16384, 50001 };
	enum { MAXN = 50001, ROWS = 3 * MAXN };
	int64_t *a = malloc(MAXN * sizeof *a), *copy = malloc(MAXN * sizeof *copy);
	int64_t *wide = malloc(ROWS * sizeof *wide), *start = malloc(ROWS * sizeof *start);
	int64_t *end = malloc(ROWS * sizeof *end);
	int32_t *narrow = malloc(ROWS * sizeof *narrow);
	uint32_t *rows = malloc(MAXN * sizeof *rows);
	assert_true(a && copy && wide && start && end && narrow && rows);
	assert_false(nst_dist_in_place_pays(1023));
	assert_true(nst_dist_in_place_pays(1024));
	srand(23);
	for (int shape = 0; shape < 6; shape++) /* 6, int64's extremes, has no 32-bit form */
		for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
			size_t n = sizes[k];
			shaped(a, n, shape);
			for (size_t i = 0; i < ROWS; i++) { /* rows off the list hold noise */
				wide[i] = rand() % 7;
				narrow[i] = (int32_t)(wide[i] - 100);
				start[i] = 1000000 + 10 * (int64_t)i;
				end[i] = start[i] + wide[i];
			}
			for (size_t i = 0; i < n; i++) {
				rows[i] = (uint32_t)(3 * i + 1);
				wide[rows[i]] = a[i];
				narrow[rows[i]] = (int32_t)(a[i] - 100);
				end[rows[i]] = start[rows[i]] + a[i];
			}
			const struct nst_col col = { .i32 = narrow, .base = 100 };
			const struct nst_span by_col = { &col, NULL, NULL };
			const struct nst_span by_times = { NULL, start, end };
			struct nst_dist want, got;
			memcpy(copy, a, n * sizeof *a);
			assert_true(nst_dist_of(copy, n, &want));
			if (n < 1024)
				continue;
			assert_int_equal(nst_dist_in_place(a, NULL, NULL, n, &got), NST_DIST_OK);
			assert_same_dist(&want, &got);
			assert_int_equal(nst_dist_in_place(wide, rows, NULL, n, &got), NST_DIST_OK);
			assert_same_dist(&want, &got);
			assert_int_equal(nst_dist_in_place(NULL, rows, &by_col, n, &got), NST_DIST_OK);
			assert_same_dist(&want, &got);
			assert_int_equal(nst_dist_in_place(NULL, rows, &by_times, n, &got), NST_DIST_OK);
			assert_same_dist(&want, &got);
		}
	for (size_t i = 0; i < 20000; i++)
		a[i] = i % 2 ? INT64_MAX / 2 : 1;
	struct nst_dist d;
	assert_int_equal(nst_dist_in_place(a, NULL, NULL, 20000, &d), NST_DIST_OVERFLOW);
	free(a);
	free(copy);
	free(wide);
	free(start);
	free(end);
	free(narrow);
	free(rows);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_matches_sqlite),
		cmocka_unit_test(round_whole_numbers_matches_sqlite),
		cmocka_unit_test(round_of_every_magnitude_matches_sqlite),
		cmocka_unit_test(round_ties_go_away_from_zero),
		cmocka_unit_test(quantiles_follow_the_extension_functions),
		cmocka_unit_test(dist_matches_two_pass_formulas),
		cmocka_unit_test(stdev_of_one_value_is_zero),
		cmocka_unit_test(unordered_dist_equals_sorted),
		cmocka_unit_test(selected_ranks_equal_sorted),
		cmocka_unit_test(large_selections_equal_sorted),
		cmocka_unit_test(dist_in_place_equals_sorted),
		cmocka_unit_test(radix_sort_agrees_with_qsort),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
