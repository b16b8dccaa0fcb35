/* Devices paired by the kernels they ran (diff_devices_pair): a capture
 * with its devices renumbered pairs back device by device; the pair that
 * shares the most launches wins, ties go to the same id and then to the
 * lower ids; devices that share nothing (memory copies only) pair by id
 * when both are free, else stay alone; and on thousands of random sides
 * the pairing is the one a plain search finds, taking the best free pair
 * again and again. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "diff/diff.h"

#define MAX_DEV 8
#define MAX_NAMES 6

/* A side: for each device its id and launches of each name key 0..MAX_NAMES. */
struct side {
	size_t n;
	int64_t id[MAX_DEV];
	int64_t launches[MAX_DEV][MAX_NAMES];
};

/* The side as diff_devices_pair takes it: names ascending, zero counts left out. */
struct work {
	struct diff_device_work dev[MAX_DEV];
	uint32_t name[MAX_DEV][MAX_NAMES];
	int64_t count[MAX_DEV][MAX_NAMES];
};

static void work_of(const struct side *s, struct work *w)
{
	for (size_t d = 0; d < s->n; d++) {
		size_t k = 0;
		for (uint32_t nm = 0; nm < MAX_NAMES; nm++)
			if (s->launches[d][nm]) {
				w->name[d][k] = nm;
				w->count[d][k++] = s->launches[d][nm];
			}
		w->dev[d] = (struct diff_device_work){ s->id[d], w->name[d], w->count[d], k };
	}
}

static void pair(const struct side *a, const struct side *b, int64_t *pa, int64_t *pb)
{
	struct work wa, wb;
	work_of(a, &wa);
	work_of(b, &wb);
	const struct diff_device_work *dev[2] = { wa.dev, wb.dev };
	size_t n[2] = { a->n, b->n };
	struct nst_error err = { 0 };
	assert_int_equal(diff_devices_pair(dev, n, (int64_t *const[2]){ pa, pb }, &err), NST_OK);
	for (size_t i = 0; i < a->n; i++)
		if (pa[i] >= 0)
			assert_int_equal(pb[pa[i]], (int64_t)i);
	for (size_t j = 0; j < b->n; j++)
		if (pb[j] >= 0)
			assert_int_equal(pa[pb[j]], (int64_t)j);
}

/* partner of each device of a: the index in b, or -1 */
static void expect(const struct side *a, const struct side *b, const int64_t *want)
{
	int64_t pa[MAX_DEV], pb[MAX_DEV];
	pair(a, b, pa, pb);
	for (size_t i = 0; i < a->n; i++)
		assert_int_equal(pa[i], want[i]);
}

static void renumbered_devices_pair_back(void **state)
{
	(void)state;
	struct side a = { 2, { 0, 1 }, { { 5, 3, 0 }, { 2, 0, 4 } } };
	struct side b = { 2, { 2, 3 }, { { 2, 0, 4 }, { 5, 3, 0 } } };
	expect(&a, &b, (int64_t[]){ 1, 0 });
}

static void the_most_shared_first(void **state)
{
	(void)state;
	/* A0-B7 share 10, A1-B0 8, A0-B0 and A1-B7 4 each */
	struct side a = { 2, { 0, 1 }, { { 10 }, { 4, 4 } } };
	struct side b = { 2, { 0, 7 }, { { 4, 4 }, { 10 } } };
	expect(&a, &b, (int64_t[]){ 1, 0 });
}

static void ties_go_to_the_same_id_then_lower_ids(void **state)
{
	(void)state;
	struct side same_a = { 2, { 0, 1 }, { { 3, 1 }, { 3, 1 } } };
	struct side same_b = { 2, { 0, 1 }, { { 3, 1 }, { 3, 1 } } };
	expect(&same_a, &same_b, (int64_t[]){ 0, 1 });
	struct side a = { 2, { 5, 2 }, { { 1 }, { 1 } } };
	struct side b = { 2, { 9, 7 }, { { 1 }, { 1 } } };
	/* (2, 7) first, then (5, 9) */
	expect(&a, &b, (int64_t[]){ 0, 1 });
	/* the same id wins over lower ids among equal shares */
	struct side c = { 2, { 1, 4 }, { { 1 }, { 1 } } };
	struct side d = { 2, { 0, 4 }, { { 1 }, { 1 } } };
	expect(&c, &d, (int64_t[]){ 0, 1 });
}

static void devices_without_kernels_pair_by_id(void **state)
{
	(void)state;
	struct side a = { 2, { 0, 5 }, { { 2, 2 }, { 0 } } };
	struct side b = { 2, { 5, 1 }, { { 0 }, { 2, 2 } } };
	expect(&a, &b, (int64_t[]){ 1, 0 });
	/* one side's copy-only device 3 has no partner with id 3: alone */
	struct side c = { 2, { 0, 3 }, { { 2 }, { 0 } } };
	struct side d = { 1, { 6 }, { { 2 } } };
	expect(&c, &d, (int64_t[]){ 0, -1 });
}

static void nothing_shared_and_ids_differ(void **state)
{
	(void)state;
	/* A0 takes B1 by work; A1 and B0 share nothing and differ in id */
	struct side a = { 2, { 0, 1 }, { { 1 }, { 0, 1 } } };
	struct side b = { 2, { 0, 1 }, { { 0, 0, 1 }, { 1 } } };
	expect(&a, &b, (int64_t[]){ 1, -1 });
	/* a free device whose id is taken stays alone */
	struct side c = { 2, { 0, 1 }, { { 1 }, { 0, 1 } } };
	struct side d = { 1, { 1 }, { { 1 } } };
	expect(&c, &d, (int64_t[]){ 0, -1 });
}

static void empty_sides(void **state)
{
	(void)state;
	struct side a = { 2, { 0, 1 }, { { 1 }, { 1 } } };
	struct side none = { 0, { 0 }, { { 0 } } };
	expect(&a, &none, (int64_t[]){ -1, -1 });
	int64_t pa[1], pb[MAX_DEV];
	pair(&none, &a, pa, pb);
	assert_int_equal(pb[0], -1);
	assert_int_equal(pb[1], -1);
}

/* ---- against a plain search ----------------------------------------------------------- */

static int64_t shared(const struct side *a, size_t i, const struct side *b, size_t j)
{
	int64_t n = 0;
	for (int k = 0; k < MAX_NAMES; k++)
		n += a->launches[i][k] < b->launches[j][k] ? a->launches[i][k] : b->launches[j][k];
	return n;
}

/* Whether (i, j) comes before (x, y) by the rule. */
static bool before(const struct side *a, const struct side *b, size_t i, size_t j, size_t x,
		   size_t y)
{
	int64_t p = shared(a, i, b, j), q = shared(a, x, b, y);
	bool ps = a->id[i] == b->id[j], qs = a->id[x] == b->id[y];
	if (p != q)
		return p > q;
	if (ps != qs)
		return ps;
	if (a->id[i] != a->id[x])
		return a->id[i] < a->id[x];
	return b->id[j] < b->id[y];
}

static void reference(const struct side *a, const struct side *b, int64_t *pa, int64_t *pb)
{
	for (size_t i = 0; i < MAX_DEV; i++)
		pa[i] = pb[i] = -1;
	for (;;) {
		size_t bi = SIZE_MAX, bj = 0;
		for (size_t i = 0; i < a->n; i++)
			for (size_t j = 0; j < b->n; j++)
				if (pa[i] < 0 && pb[j] < 0 && shared(a, i, b, j) > 0 &&
				    (bi == SIZE_MAX || before(a, b, i, j, bi, bj)))
					bi = i, bj = j;
		if (bi == SIZE_MAX)
			break;
		pa[bi] = (int64_t)bj;
		pb[bj] = (int64_t)bi;
	}
	for (size_t i = 0; i < a->n; i++)
		for (size_t j = 0; pa[i] < 0 && j < b->n; j++)
			if (pb[j] < 0 && a->id[i] == b->id[j]) {
				pa[i] = (int64_t)j;
				pb[j] = (int64_t)i;
			}
}

/* Distinct ids from 0..9, and few launches of few names: many ties. */
static void random_side(struct side *s)
{
	s->n = (size_t)(rand() % (MAX_DEV + 1));
	bool used[10] = { false };
	for (size_t d = 0; d < s->n; d++) {
		int id;
		do
			id = rand() % 10;
		while (used[id]);
		used[id] = true;
		s->id[d] = id;
		bool copies_only = rand() % 5 == 0;
		for (int k = 0; k < MAX_NAMES; k++)
			s->launches[d][k] = copies_only || rand() % 2 ? 0 : rand() % 4;
	}
}

static void as_a_plain_search_finds(void **state)
{
	(void)state;
	srand(20261208);
	for (int t = 0; t < 5000; t++) {
		struct side a, b;
		random_side(&a);
		random_side(&b);
		int64_t pa[MAX_DEV], pb[MAX_DEV], ra[MAX_DEV], rb[MAX_DEV];
		pair(&a, &b, pa, pb);
		reference(&a, &b, ra, rb);
		for (size_t i = 0; i < a.n; i++)
			assert_int_equal(pa[i], ra[i]);
		for (size_t j = 0; j < b.n; j++)
			assert_int_equal(pb[j], rb[j]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(renumbered_devices_pair_back),
		cmocka_unit_test(the_most_shared_first),
		cmocka_unit_test(ties_go_to_the_same_id_then_lower_ids),
		cmocka_unit_test(devices_without_kernels_pair_by_id),
		cmocka_unit_test(nothing_shared_and_ids_differ),
		cmocka_unit_test(empty_sides),
		cmocka_unit_test(as_a_plain_search_finds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
