/* Names shortened together (core/shorten.c): distinct names stay
 * distinct, each within its width, and what is left of a name is its own
 * characters in order, with ellipses where some were left out.  The
 * names are PyTorch's kernels of a real capture, which differ only in
 * their middles, and families made here to share a long head and tail. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/shorten.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* From ../shared/data/real/GindaChen__nsys-ai mfu_2gpu_before.sqlite:
 * four of them once read "void at::native::elemen… (instance 1)]>(int,
 * T3)" alike. */
static const char *const torch[] = {
	"void at::native::elementwise_kernel<(int)128, (int)2, void at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase &)::[lambda() (instance 3)]::operator ()() const::[lambda() (instance 7)]::operator ()() const::[lambda(float) (instance 1)]>(at::TensorIteratorBase &, const T1 &)::[lambda(int) (instance 1)]>(int, T3)",
	"void at::native::elementwise_kernel<(int)128, (int)2, void at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float>>>(at::TensorIteratorBase &, const T1 &)::[lambda(int) (instance 1)]>(int, T3)",
	"void at::native::elementwise_kernel<(int)128, (int)4, void at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase &)::[lambda() (instance 3)]::operator ()() const::[lambda() (instance 12)]::operator ()() const::[lambda(c10::BFloat16) (instance 1)]>(at::TensorIteratorBase &, const T1 &)::[lambda(int) (instance 1)]>(int, T3)",
	"void at::native::elementwise_kernel<(int)128, (int)4, void at::native::gpu_kernel_impl<at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float>>>(at::TensorIteratorBase &, const T1 &)::[lambda(int) (instance 1)]>(int, T3)",
	"void at::native::vectorized_elementwise_kernel<(int)4, at::native::CUDAFunctor_add<float>, std::array<char *, (unsigned long)3>>(int, T2, T3)",
	"void at::native::vectorized_elementwise_kernel<(int)8, at::native::bfloat16_copy_kernel_cuda(at::TensorIteratorBase &)::[lambda(float) (instance 1)], std::array<char *, (unsigned long)2>>(int, T2, T3)",
	"ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<(unsigned long)4096>)",
	"short",
};

/* Whether shown is name with some runs of characters left out, each
 * marked by an ellipsis: its first piece begins name, its last ends it,
 * and the pieces are in name in order. */
static bool is_cut_of(const char *shown, const char *name)
{
	const char *ell = strstr(shown, NST_ELLIPSIS), *at = name;
	size_t n = strlen(name);
	if (!ell)
		return strcmp(shown, name) == 0;
	if (strncmp(name, shown, (size_t)(ell - shown)) != 0)
		return false;
	at += ell - shown;
	for (shown = ell + strlen(NST_ELLIPSIS); (ell = strstr(shown, NST_ELLIPSIS));
	     shown = ell + strlen(NST_ELLIPSIS)) {
		char piece[1024];
		size_t len = (size_t)(ell - shown);
		assert_true(len < sizeof piece);
		memcpy(piece, shown, len);
		piece[len] = '\0';
		const char *found = strstr(at, piece);
		if (!found)
			return false;
		at = found + len;
	}
	size_t tail = strlen(shown);
	return tail <= n && (size_t)(at - name) <= n - tail && strcmp(name + n - tail, shown) == 0;
}

/* Shortens names to w; checks widths (every name within w when w can
 * hold them apart), distinctness, and that each is a cut of its name. */
static void check_all(const char *const *names, size_t n, size_t w)
{
	char **out = calloc(n, sizeof *out);
	assert_non_null(out);
	assert_true(nst_shorten_all(names, n, w, out));
	for (size_t i = 0; i < n; i++) {
		assert_non_null(out[i]);
		if (nst_text_width(names[i]) <= w)
			assert_string_equal(out[i], names[i]);
		else
			assert_true(nst_text_width(out[i]) <= w);
		if (!is_cut_of(out[i], names[i]))
			fail_msg("'%s' is not a cut of '%s'", out[i], names[i]);
		for (size_t j = 0; j < i; j++)
			if (strcmp(names[i], names[j]) != 0 && strcmp(out[i], out[j]) == 0)
				fail_msg("'%s' and '%s' both read '%s' at width %zu", names[i],
					 names[j], out[i], w);
	}
	for (size_t i = 0; i < n; i++)
		free(out[i]);
	free(out);
}

static void test_torch_kernels_stay_apart(void **state)
{
	(void)state;
	static const size_t widths[] = { 20, 30, 48, 60, 100 };
	for (size_t k = 0; k < COUNT(widths); k++)
		check_all(torch, COUNT(torch), widths[k]);
}

/* One shortened alone is head…tail; with its siblings, the part where
 * they differ is kept, so it reads otherwise. */
static void test_the_middle_where_they_differ(void **state)
{
	(void)state;
	char *alone = nst_shorten(torch[1], 48, 24);
	char *out[4] = { 0 };
	assert_non_null(alone);
	assert_int_equal(nst_text_width(alone), 48);
	assert_true(strncmp(alone, torch[1], 24) == 0);
	assert_true(nst_shorten_all(torch, 4, 48, out));
	for (size_t i = 0; i < 4; i++)
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(out[i], out[j]);
	for (size_t i = 0; i < 4; i++)
		free(out[i]);
	free(alone);
}

/* Families of names sharing a 200-character head and tail, differing in
 * one digit or one word in the middle, in ASCII and in multibyte UTF-8. */
static void test_families_of_long_names(void **state)
{
	enum { N = 24 };
	static const char *const heads[] = { "void", "\xce\xbb\xce\xbb" };
	char *names[N];
	(void)state;
	for (size_t h = 0; h < COUNT(heads); h++) {
		for (size_t i = 0; i < N; i++) {
			names[i] = malloc(1024);
			assert_non_null(names[i]);
			int len = snprintf(names[i], 1024, "%s ", heads[h]);
			for (int k = 0; k < 40; k++)
				len += snprintf(names[i] + len, (size_t)(1024 - len), "ab%d", k % 10);
			len += snprintf(names[i] + len, (size_t)(1024 - len), "<variant %zu%s>", i,
					i % 3 ? "x" : "");
			for (int k = 0; k < 40; k++)
				len += snprintf(names[i] + len, (size_t)(1024 - len), "%d", k % 7);
		}
		for (size_t w = 12; w <= 80; w += 17)
			check_all((const char *const *)names, N, w);
		for (size_t i = 0; i < N; i++)
			free(names[i]);
	}
}

/* The same name twice reads the same; a name that fits is whole. */
static void test_same_names_and_short_ones(void **state)
{
	static const char *const names[] = { "kernel_a", "kernel_a", "b" };
	char *out[3] = { 0 };
	(void)state;
	assert_true(nst_shorten_all(names, 3, 8, out));
	assert_string_equal(out[0], "kernel_a");
	assert_string_equal(out[1], "kernel_a");
	assert_string_equal(out[2], "b");
	for (size_t i = 0; i < 3; i++)
		free(out[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_torch_kernels_stay_apart),
		cmocka_unit_test(test_the_middle_where_they_differ),
		cmocka_unit_test(test_families_of_long_names),
		cmocka_unit_test(test_same_names_and_short_ones),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
