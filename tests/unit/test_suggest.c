/* "Did you mean" (src/core/suggest.c): the distance against hand-counted
 * edits, and which names a typo gets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/suggest.h"

static size_t dist(const char *a, const char *b)
{
	return nst_edit_distance(a, strlen(a), b, strlen(b), 100);
}

static void test_distance(void **state)
{
	(void)state;
	assert_int_equal(dist("", ""), 0);
	assert_int_equal(dist("abc", ""), 3);
	assert_int_equal(dist("", "abc"), 3);
	assert_int_equal(dist("kitten", "sitting"), 3);
	assert_int_equal(dist("cvs", "csv"), 1);      /* one transposition */
	assert_int_equal(dist("bsae", "base"), 1);
	assert_int_equal(dist("ca", "abc"), 3);       /* OSA: no edit of a moved pair */
	assert_int_equal(dist("CSV", "csv"), 0);      /* case aside */
	assert_int_equal(dist("cuda_gpu_kern_summ", "cuda_gpu_kern_sum"), 1);
	/* beyond the limit, limit + 1 whatever the distance */
	assert_int_equal(nst_edit_distance("abcdef", 6, "uvwxyz", 6, 2), 3);
	assert_int_equal(nst_edit_distance("a", 1, "abcdefgh", 8, 2), 3);
}

static const char *suggest(const char *typo, const char *const *names)
{
	static char buf[256];
	struct nst_suggest s;
	nst_suggest_init(&s, typo, strlen(typo));
	for (; *names; names++)
		nst_suggest_offer(&s, *names);
	return nst_suggest_text(&s, buf, sizeof buf);
}

static const char *const reports[] = {
	"cuda_api_sum", "cuda_api_trace", "cuda_gpu_kern_gb_sum", "cuda_gpu_kern_sum",
	"cuda_gpu_mem_size_sum", "cuda_gpu_mem_time_sum", "cuda_gpu_sum", "cuda_gpu_trace",
	"nvtx_sum", "osrt_sum", NULL,
};
static const char *const formats[] = { "column", "table", "csv", "tsv", "json", "hdoc", "htable", NULL };

static void test_close_names(void **state)
{
	(void)state;
	assert_string_equal(suggest("cuda_gpu_kern_summ", reports), "did you mean cuda_gpu_kern_sum?");
	assert_string_equal(suggest("cvs", formats), "did you mean csv?");
	assert_string_equal(suggest("JSON", formats), "did you mean json?");
	assert_string_equal(suggest("tabel", formats), "did you mean table?");
	/* the closest only: tsv and csv are one edit from "xsv", column is not */
	assert_string_equal(suggest("xsv", formats), "did you mean csv or tsv?");
	/* a prefix counts as one edit; never more than 3 names */
	assert_string_equal(suggest("cuda_gpu", reports),
			    "did you mean cuda_gpu_kern_gb_sum, cuda_gpu_kern_sum or cuda_gpu_mem_size_sum?");
	/* nothing close, a name itself, a one-letter word: nothing */
	assert_string_equal(suggest("frobnicate", reports), "");
	assert_string_equal(suggest("nvtx_sum", (const char *const[]){ "nvtx_sum", NULL }), "");
	assert_string_equal(suggest("x", formats), "");
	assert_string_equal(suggest("", formats), "");
}

/* A closer name offered later replaces the farther ones. */
static void test_closer_replaces(void **state)
{
	(void)state;
	static const char *const names[] = { "abcdxxxx", "abcdefgx", "abcdefgh", "abcdefgz", NULL };
	assert_string_equal(suggest("abcdefgh_", names), "did you mean abcdefgh?");
	static const char *const dup[] = { "nvtx_sum", "nvtx_sum", NULL };
	assert_string_equal(suggest("nvtx_sun", dup), "did you mean nvtx_sum?");
}

/* The text is cut, never overrun, in a small buffer. */
static void test_small_buffer(void **state)
{
	(void)state;
	char buf[8];
	struct nst_suggest s;
	nst_suggest_init(&s, "cvs", 3);
	nst_suggest_offer(&s, "csv");
	assert_string_equal(nst_suggest_text(&s, buf, sizeof buf), "did you");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_close_names),
		cmocka_unit_test(test_closer_replaces),
		cmocka_unit_test(test_small_buffer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
