/* core/corrindex.h: (process, correlationId) to rows, and the chains of
 * rows that share a key. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/corrindex.h"

#define P1 ((int64_t)7 << 24)
#define P2 ((int64_t)9 << 24)

/* Rows 0..7: process (a thread of it: the mask keeps the process), id. */
static const int64_t gtid[] = { P1 | 1, P1 | 2, P2 | 1, P1 | 3, P1 | 1, NST_NULL_I64, P1 | 2, P2 | 5 };
static const int64_t corr[] = { 10, 11, 10, 10, 12, 10, 11, 10 };
#define NROWS (sizeof corr / sizeof *corr)
static const uint64_t mask = 0xFFFFFFFFFF000000ull;

static struct nst_col col(const int64_t *v) { return nst_col_of(v); }

static int64_t next_of(const uint32_t *next, int64_t r)
{
	return !next || next[r] == UINT32_MAX ? -1 : (int64_t)next[r];
}

/* Every row indexed, listed or as rows NULL: the first of a key wins,
 * the others chain after it in row order; a NULL process is in no key. */
static void check_every_row(const uint32_t *rows)
{
	struct nst_col p = col(gtid), id = col(corr);
	struct nst_corrindex x;
	assert_int_equal(nst_corrindex_build(&x, &p, mask, &id, rows, NROWS), 0);
	uint32_t *next;
	assert_int_equal(nst_corrindex_chain(&x, NROWS, &next), 0);
	assert_non_null(next);
	assert_int_equal(nst_corrindex_find(&x, P1, 10), 0);
	assert_int_equal(next_of(next, 0), 3);
	assert_int_equal(next_of(next, 3), -1);
	assert_int_equal(nst_corrindex_find(&x, P1, 11), 1);
	assert_int_equal(next_of(next, 1), 6);
	assert_int_equal(nst_corrindex_find(&x, P2, 10), 2);
	assert_int_equal(next_of(next, 2), 7);
	assert_int_equal(nst_corrindex_find(&x, P1, 12), 4);
	assert_int_equal(next_of(next, 4), -1);
	assert_int_equal(nst_corrindex_find(&x, P2, 11), -1);
	free(next);
	nst_corrindex_release(&x);
}

static void shared_keys_chain_in_row_order(void **state)
{
	(void)state;
	uint32_t rows[NROWS];
	for (uint32_t i = 0; i < NROWS; i++)
		rows[i] = i;
	check_every_row(rows);
	check_every_row(NULL);
}

/* Some rows indexed (the calls inside NVTX ranges): the others are not
 * found, and without a shared key there is no chain at all. */
static void a_subset_finds_only_its_rows(void **state)
{
	(void)state;
	struct nst_col p = col(gtid), id = col(corr);
	const uint32_t rows[] = { 1, 3, 7 };
	struct nst_corrindex x;
	assert_int_equal(nst_corrindex_build(&x, &p, mask, &id, rows, 3), 0);
	uint32_t *next = (uint32_t *)&x; /* must be reset */
	assert_int_equal(nst_corrindex_chain(&x, NROWS, &next), 0);
	assert_null(next);
	assert_int_equal(nst_corrindex_find(&x, P1, 10), 3);
	assert_int_equal(nst_corrindex_find(&x, P1, 11), 1);
	assert_int_equal(nst_corrindex_find(&x, P2, 10), 7);
	assert_int_equal(nst_corrindex_find(&x, P1, 12), -1);
	nst_corrindex_release(&x);
}

/* Ids far apart for their count go to the hash map: found the same. */
static void sparse_ids_are_found(void **state)
{
	(void)state;
	int64_t g[] = { P1, P1, P1, P1 };
	int64_t c[] = { 5, (int64_t)1 << 40, 5, -3 };
	struct nst_col p = col(g), id = col(c);
	const uint32_t rows[] = { 0, 1, 2, 3 };
	struct nst_corrindex x;
	assert_int_equal(nst_corrindex_build(&x, &p, mask, &id, rows, 4), 0);
	uint32_t *next;
	assert_int_equal(nst_corrindex_chain(&x, 4, &next), 0);
	assert_int_equal(nst_corrindex_find(&x, P1, 5), 0);
	assert_int_equal(next_of(next, 0), 2);
	assert_int_equal(nst_corrindex_find(&x, P1, (int64_t)1 << 40), 1);
	assert_int_equal(nst_corrindex_find(&x, P1, -3), 3);
	assert_int_equal(nst_corrindex_find(&x, P1, 6), -1);
	free(next);
	nst_corrindex_release(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shared_keys_chain_in_row_order),
		cmocka_unit_test(a_subset_finds_only_its_rows),
		cmocka_unit_test(sparse_ids_are_found),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
