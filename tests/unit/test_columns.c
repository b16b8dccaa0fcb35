/* Compact columns and the row orderings over them (src/reports/common.c)
 * against brute force: nst_sort_by_key (and its descending twin) must be
 * a stable sort whichever path it takes (already in order, few distinct
 * keys, packed key and row, separate arrays),
 * and grouping over 32-bit columns must group as over int64 ones; one
 * key of a small range (grouped through a direct table) as by hashing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "reports/common.h"

#define ROWS 3000

/* Insertion sort of idx by key, ascending or descending: stable,
 * obviously right, slow. */
static void brute_sort(uint32_t *idx, size_t n, const int64_t *key, bool desc)
{
	for (size_t i = 1; i < n; i++) {
		uint32_t v = idx[i];
		size_t j = i;
		for (; j > 0 && (desc ? key[idx[j - 1]] < key[v] : key[idx[j - 1]] > key[v]); j--)
			idx[j] = idx[j - 1];
		idx[j] = v;
	}
}

/* Keys of one of several shapes: small, wide, with NULLs, sorted, few
 * (64 and 65 distinct values: the counting sort's limit and one past it;
 * far apart, so that they share hash slots). */
static void fill_keys(int64_t *key, size_t n, int shape)
{
	for (size_t i = 0; i < n; i++) {
		switch (shape) {
		case 0: key[i] = rand() % 50; break;
		case 1: key[i] = (int64_t)rand() * 1000003 - 4000000000LL; break;
		case 2: key[i] = rand() % 7 == 0 ? NST_NULL_I64 : rand() % 1000; break;
		case 3: key[i] = (int64_t)i / 3; break;
		case 4: key[i] = rand() % 64; break;
		case 5: key[i] = rand() % 65; break;
		case 6: key[i] = (rand() % 60 - 30) * (INT64_C(1) << 58); break;
		default: key[i] = rand() % 2 ? INT64_MAX - rand() % 5 : INT64_MIN + rand() % 5; break;
		}
	}
}

/* nst_sort_by_key, and nst_sort_by_key_desc in every other run of eight
 * rounds (each key shape both ways). */
static void sort_matches_stable_brute_force(void **state)
{
	(void)state;
	static int64_t key[ROWS];
	static uint32_t idx[ROWS], want[ROWS];
	srand(11);
	for (int round = 0; round < 800; round++) {
		bool desc = round / 8 % 2;
		size_t n = (size_t)(rand() % ROWS);
		fill_keys(key, ROWS, round % 8);
		bool ascending = round % 3 != 0;
		for (size_t i = 0; i < n; i++)
			idx[i] = ascending ? (uint32_t)(i * 2 + (size_t)round % 2)
					   : (uint32_t)(rand() % (ROWS / 2)) * 2;
		for (size_t i = 0; i < n; i++)
			idx[i] %= ROWS;
		memcpy(want, idx, n * sizeof *idx);
		brute_sort(want, n, key, desc);
		struct nst_error err = { 0 };
		assert_int_equal((desc ? nst_sort_by_key_desc : nst_sort_by_key)(idx, n, key, &err),
				 NST_OK);
		assert_memory_equal(idx, want, n * sizeof *idx);
	}
}

/* Two groupings of the same nrows rows are the same: groups, each
 * group's rows in order, and each group's first row. */
static void assert_same_groups(const struct nst_groups *a, const struct nst_groups *b,
			       size_t nrows)
{
	assert_int_equal(a->n, b->n);
	assert_memory_equal(a->start, b->start, (a->n + 1) * sizeof *a->start);
	assert_memory_equal(a->order, b->order, nrows * sizeof *a->order);
	assert_memory_equal(a->first, b->first, a->n * sizeof *a->first);
}

static void groups_over_narrow_columns_match_wide_ones(void **state)
{
	(void)state;
	static int64_t wide[2][ROWS];
	static int32_t narrow[2][ROWS];
	static uint32_t rows[ROWS];
	srand(5);
	for (int round = 0; round < 50; round++) {
		int64_t base = (int64_t)rand() * 1000;
		for (size_t i = 0; i < ROWS; i++) {
			for (int k = 0; k < 2; k++) {
				bool null = rand() % 11 == 0;
				int32_t off = rand() % (round % 2 ? 40 : 4000);
				narrow[k][i] = null ? NST_NULL_I32 : off;
				wide[k][i] = null ? NST_NULL_I64 : base + off;
			}
			rows[i] = (uint32_t)i;
		}
		struct nst_col nc[2], wc[2];
		const struct nst_col *np[2], *wp[2];
		for (int k = 0; k < 2; k++) {
			nc[k] = (struct nst_col){ .i32 = narrow[k], .base = base };
			wc[k] = nst_col_of(wide[k]);
			np[k] = &nc[k];
			wp[k] = &wc[k];
		}
		size_t nkeys = 1 + (size_t)round % 2;
		struct nst_groups a, b;
		struct nst_error err = { 0 };
		assert_int_equal(nst_group_cols(np, nkeys, rows, ROWS, &a, &err), NST_OK);
		assert_int_equal(nst_group_cols(wp, nkeys, rows, ROWS, &b, &err), NST_OK);
		assert_same_groups(&a, &b, ROWS);
		/* every row of a group has its group's keys, and groups differ */
		for (size_t g = 0; g < a.n; g++)
			for (size_t i = a.start[g]; i < a.start[g + 1]; i++)
				for (size_t k = 0; k < nkeys; k++)
					assert_true(wide[k][a.order[i]] == wide[k][a.first[g]]);
		nst_groups_release(&a);
		nst_groups_release(&b);
	}
}

/* One key of a small range groups through a direct table, two keys by
 * hashing: with a second key that never differs, the groups, their rows
 * and their first rows must be the same, over every row or a subset. */
static void one_small_range_key_groups_as_hashing(void **state)
{
	(void)state;
	static int64_t key[ROWS], zero[ROWS];
	static uint32_t subset[ROWS];
	srand(9);
	for (int round = 0; round < 40; round++) {
		int64_t base = (int64_t)rand() * 1000 - 500000;
		for (size_t i = 0; i < ROWS; i++)
			key[i] = base + rand() % (round % 2 ? 7 : 2 * ROWS);
		size_t n = 0;
		for (size_t i = 0; i < ROWS; i++)
			if (rand() % 3)
				subset[n++] = (uint32_t)i;
		const uint32_t *rows = round % 4 < 2 ? NULL : subset;
		size_t nrows = rows ? n : ROWS;
		struct nst_col k = nst_col_of(key), z = nst_col_of(zero);
		const struct nst_col *one[1] = { &k }, *two[2] = { &k, &z };
		struct nst_groups a, b;
		struct nst_error err = { 0 };
		assert_int_equal(nst_group_cols(one, 1, rows, nrows, &a, &err), NST_OK);
		assert_int_equal(nst_group_cols(two, 2, rows, nrows, &b, &err), NST_OK);
		assert_same_groups(&a, &b, nrows);
		for (size_t g = 0; g < a.n; g++)
			for (size_t i = a.start[g]; i < a.start[g + 1]; i++)
				assert_true(key[a.order[i]] == key[a.first[g]]);
		nst_groups_release(&a);
		nst_groups_release(&b);
	}
}

/* Each group's distribution, however found (copied, or read in place
 * for a group that is most of its rows), is nst_dist_of's of a copy of
 * its values: one key dense (three rows of four, 60,000 of them), the
 * others sparse, as durations and as an array. */
static void group_distributions_as_copies(void **state)
{
	(void)state;
	enum { N = 80000 };
	int64_t *key = malloc(N * sizeof *key), *start = malloc(N * sizeof *start);
	int64_t *end = malloc(N * sizeof *end), *dur = malloc(N * sizeof *dur);
	int64_t *copy = malloc(N * sizeof *copy);
	assert_true(key && start && end && dur && copy);
	srand(31);
	for (size_t i = 0; i < N; i++) {
		key[i] = i % 4 ? 7 : 100 + rand() % 5;
		start[i] = 5000000 + 3 * (int64_t)i;
		dur[i] = rand() % 100000;
		end[i] = start[i] + dur[i];
	}
	struct nst_col k = nst_col_of(key);
	const struct nst_col *keys[1] = { &k };
	struct nst_groups g;
	struct nst_dist *by_span, *by_val;
	struct nst_error err = { 0 };
	const struct nst_span span = { NULL, start, end };
	assert_int_equal(nst_group_cols(keys, 1, NULL, N, &g, &err), NST_OK);
	assert_int_equal(nst_group_durations(&g, &span, true, &by_span, &err), NST_OK);
	assert_int_equal(nst_group_dists(&g, dur, &by_val, &err), NST_OK);
	assert_int_equal(g.n, 6);
	for (size_t grp = 0; grp < g.n; grp++) {
		size_t n = 0;
		for (size_t i = g.start[grp]; i < g.start[grp + 1]; i++)
			copy[n++] = dur[g.order[i]];
		struct nst_dist want;
		assert_true(nst_dist_of(copy, n, &want));
		for (int way = 0; way < 2; way++) {
			const struct nst_dist *got = way ? &by_val[grp] : &by_span[grp];
			assert_true(got->n == want.n && got->sum == want.sum && got->min == want.min &&
				    got->max == want.max && got->avg == want.avg &&
				    got->stdev == want.stdev);
			assert_true(got->med.is_int == want.med.is_int && got->med.i == want.med.i &&
				    got->med.r == want.med.r);
		}
	}
	free(by_span);
	free(by_val);
	nst_groups_release(&g);
	free(key);
	free(start);
	free(end);
	free(dur);
	free(copy);
}

static void narrow_values_read_back(void **state)
{
	(void)state;
	const int32_t off[] = { 0, -5, NST_NULL_I32, INT32_MAX, INT32_MIN + 1 };
	const struct nst_col c = { .i32 = off, .base = 1000000000000LL };
	assert_int_equal(nst_col_at(&c, 0), 1000000000000LL);
	assert_int_equal(nst_col_at(&c, 1), 999999999995LL);
	assert_true(nst_col_at(&c, 2) == NST_NULL_I64);
	assert_int_equal(nst_col_at(&c, 3), 1000000000000LL + INT32_MAX);
	assert_int_equal(nst_col_at(&c, 4), 1000000000000LL + INT32_MIN + 1);
	assert_true(nst_col_or_null(NULL, 0) == NST_NULL_I64);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sort_matches_stable_brute_force),
		cmocka_unit_test(groups_over_narrow_columns_match_wide_ones),
		cmocka_unit_test(one_small_range_key_groups_as_hashing),
		cmocka_unit_test(group_distributions_as_copies),
		cmocka_unit_test(narrow_values_read_back),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
