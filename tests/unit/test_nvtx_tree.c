/* Range nesting (src/reports/nvtx_tree.c).  Each case's expected rows are
 * what nsys 2024.2.3's nvtx_pushpop_trace printed for an export holding
 * exactly those push/pop ranges (ids = rowids, in the order listed), as
 * "RangeId RangeStack NumChild DurChild" per row, in its row order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "events/events.h"
#include "reports/nvtx_tree.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define MAXR 16

struct range {
	int64_t start, end, thread;
};

/* The rows nvtx_tree gives for ranges r[0..n) with ids 1..n. */
static char *rows_of(const struct range *r, size_t n)
{
	int64_t start[MAXR], end[MAXR], thread[MAXR], id[MAXR];
	for (size_t i = 0; i < n; i++) {
		start[i] = r[i].start;
		end[i] = r[i].end;
		thread[i] = r[i].thread;
		id[i] = (int64_t)i + 1;
	}
	struct nst_nvtx_tree_in in = { n, start, end, thread, id };
	struct nst_nvtx_tree t;
	struct nst_error err = { 0 };
	uint32_t *order, stack[MAXR];
	size_t nrows;
	assert_int_equal(nst_nvtx_tree_build(&in, &t, &err), NST_OK);
	assert_int_equal(nst_nvtx_tree_order(&in, &t, &order, &nrows, &err), NST_OK);
	char *buf = calloc(1, 4096), *p = buf;
	for (size_t k = 0; k < nrows; k++) {
		uint32_t x = order[k];
		p += sprintf(p, "%s%lld ", k ? " | " : "", (long long)id[x]);
		size_t depth = nst_nvtx_tree_stack(&t, x, stack);
		for (size_t d = 0; d < depth; d++)
			p += sprintf(p, ":%lld", (long long)id[stack[d]]);
		p += sprintf(p, " %u %lld", t.nchild[x], (long long)t.child_dur[x]);
	}
	free(order);
	nst_nvtx_tree_release(&t);
	return buf;
}

#define CHECK(expected, ...)                                              \
	do {                                                              \
		static const struct range r_[] = { __VA_ARGS__ };        \
		char *got_ = rows_of(r_, COUNT(r_));                      \
		assert_string_equal(got_, expected);                      \
		free(got_);                                               \
	} while (0)

/* A range starting with its parent comes first: rows go by start, then end. */
static void equal_start_nests(void **state)
{
	(void)state;
	CHECK("2 :1:2 1 10 | 1 :1 1 100 | 3 :1:2:3 0 0",
	      { 100, 300, 1 }, { 100, 200, 1 }, { 150, 160, 1 });
	CHECK("1 :2:1 1 10 | 2 :2 1 100 | 3 :2:1:3 0 0",
	      { 100, 200, 1 }, { 100, 300, 1 }, { 150, 160, 1 });
	CHECK("1 :1 1 90 | 2 :1:2 0 0", { 100, 200, 1 }, { 110, 200, 1 });
}

/* Identical ranges drop out, with all they hold; their container does not
 * count them. */
static void identical_ranges_drop(void **state)
{
	(void)state;
	CHECK("", { 100, 200, 1 }, { 100, 200, 1 });
	CHECK("1 :1 1 50 | 5 :1:5 0 0",
	      { 100, 400, 1 }, { 150, 200, 1 }, { 150, 200, 1 }, { 160, 170, 1 },
	      { 300, 350, 1 });
	CHECK("8 :8 0 0 | 6 :6 1 10 | 7 :6:7 0 0 | 9 :9 0 0",
	      { 100, 200, 1 }, { 100, 200, 1 }, { 100, 150, 1 }, { 150, 200, 1 },
	      { 150, 180, 1 }, { 300, 500, 1 }, { 310, 320, 1 }, { 50, 400, 2 },
	      { 400, 500, 2 });
}

/* Crossing ranges: the shortest container wins, then the smallest id. */
static void crossing_ranges_pick_the_shortest(void **state)
{
	(void)state;
	CHECK("1 :1 1 10 | 2 :2 0 0 | 3 :1:3 0 0",
	      { 100, 200, 1 }, { 150, 300, 1 }, { 160, 170, 1 });
	CHECK("1 :1 0 0 | 2 :2 1 10 | 3 :2:3 0 0",
	      { 50, 250, 1 }, { 140, 300, 1 }, { 150, 160, 1 });
	CHECK("1 :1 1 10 | 2 :2 0 0 | 3 :1:3 0 0",
	      { 100, 200, 1 }, { 150, 250, 1 }, { 160, 170, 1 });
	CHECK("2 :2 0 0 | 1 :1 1 10 | 3 :1:3 0 0",
	      { 150, 250, 1 }, { 100, 200, 1 }, { 160, 170, 1 });
}

/* Equal start and end on several threads: breadth first from the roots. */
static void ties_go_breadth_first(void **state)
{
	(void)state;
	CHECK("2 :2 1 50 | 1 :1 0 0 | 4 :4 0 0 | 3 :2:3 0 0",
	      { 150, 200, 3 }, { 100, 300, 1 }, { 150, 200, 1 }, { 150, 200, 2 });
	CHECK("1 :1 1 800 | 2 :2 1 800 | 4 :1:4 1 100 | 3 :2:3 1 100 | "
	      "5 :1:4:5 0 0 | 6 :2:3:6 0 0",
	      { 0, 1000, 1 }, { 0, 1000, 2 }, { 100, 900, 2 }, { 100, 900, 1 },
	      { 200, 300, 1 }, { 200, 300, 2 });
}

/* A range without a thread stands alone. */
static void no_thread_nests_nothing(void **state)
{
	(void)state;
	CHECK("1 :1 0 0 | 2 :2 0 0 | 3 :3 0 0",
	      { 100, 200, NST_NULL_I64 }, { 100, 200, NST_NULL_I64 },
	      { 120, 130, NST_NULL_I64 });
}

/* A million ranges nested 3 deep on 8 threads: the stack path. */
static void many_ranges(void **state)
{
	(void)state;
	size_t n = 1 << 20;
	int64_t *start = malloc(n * sizeof *start), *end = malloc(n * sizeof *end);
	int64_t *thread = malloc(n * sizeof *thread), *id = malloc(n * sizeof *id);
	for (size_t i = 0; i < n; i++) {
		size_t blk = i / 3, lvl = i % 3;
		start[i] = (int64_t)blk * 100 + (int64_t)lvl * 10;
		end[i] = (int64_t)blk * 100 + 90 - (int64_t)lvl * 10;
		thread[i] = (int64_t)(blk % 8);
		id[i] = (int64_t)i + 1;
	}
	struct nst_nvtx_tree_in in = { n, start, end, thread, id };
	struct nst_nvtx_tree t;
	struct nst_error err = { 0 };
	assert_int_equal(nst_nvtx_tree_build(&in, &t, &err), NST_OK);
	assert_int_equal(t.max_level, 2);
	assert_int_equal(t.parent[4], 3);
	assert_int_equal(t.level[5], 2);
	assert_int_equal(t.nchild[3], 1);
	nst_nvtx_tree_release(&t);
	free(start);
	free(end);
	free(thread);
	free(id);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(equal_start_nests),
		cmocka_unit_test(identical_ranges_drop),
		cmocka_unit_test(crossing_ranges_pick_the_shortest),
		cmocka_unit_test(ties_go_breadth_first),
		cmocka_unit_test(no_thread_nests_nothing),
		cmocka_unit_test(many_ranges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
