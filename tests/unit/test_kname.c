/* The base name of a kernel: nsys's shortName for the demangled names of
 * real exports (all 351 distinct pairs of ../shared/data agree; a few are
 * here), and the same rule on Kineto's spelling of the same kernels. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/kname.h"

static void expect_base(const char *name, const char *want)
{
	size_t len, off = nst_kname_base(name, &len);
	if (len != strlen(want) || strncmp(name + off, want, len) != 0)
		fail_msg("base of '%s' is '%.*s', not '%s'", name, (int)len, name + off, want);
}

/* demangledName -> shortName, as nsys 2024.2.3 wrote them in exports of ../shared/data */
static void as_nsys_names_them(void **state)
{
	(void)state;
	expect_base("void gemm_tile<(int)128, (int)64>(const float *, const float *, float *, int, int, int)",
		    "gemm_tile");
	expect_base("saxpy(int, float, const float *, float *)", "saxpy");
	expect_base("rms_norm_f16_kernel", "rms_norm_f16_kernel");
	expect_base("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<(unsigned long)4096>)",
		    "ncclDevKernel_SendRecv");
	expect_base("void at::native::reduce_kernel<(int)512, (int)1, at::native::ReduceOp<float, "
		    "at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::"
		    "operator ()(at::TensorIterator &)::[lambda(float, float) (instance 1)]>, unsigned "
		    "int, float, (int)4>>(T3)", "reduce_kernel");
	expect_base("void at::native::<unnamed>::vectorized_layer_norm_kernel<float, float, (bool)0>"
		    "(int, T2, const T1 *, const T1 *, const T1 *, T2 *, T2 *, T1 *)",
		    "vectorized_layer_norm_kernel");
	expect_base("<unnamed>::nvfuser_none_f0_c0_r0_g0(<unnamed>::Tensor<<unnamed>::__half, (int)3, "
		    "(int)3>, <unnamed>::TensorMap)", "nvfuser_none_f0_c0_r0_g0");
	expect_base("nvjet_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN",
		    "nvjet_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN");
}

/* Kineto spells templates and anonymous namespaces its own way */
static void as_kineto_spells_them(void **state)
{
	(void)state;
	expect_base("void at::native::(anonymous namespace)::distribution_elementwise_grid_stride_kernel"
		    "<float, 4, at::native::templates::cuda::uniform_and_transform<float, float, 4ul, "
		    "at::CUDAGeneratorImpl*>(at::TensorIteratorBase&, double)::{lambda()#1}>(at::"
		    "TensorIteratorBase&, at::CUDAGeneratorImpl*)",
		    "distribution_elementwise_grid_stride_kernel");
	expect_base("void cutlass::Kernel<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>(cutlass_80_simt_"
		    "sgemm_128x32_8x5_nn_align1::Params)", "Kernel");
	expect_base("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
		    "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array"
		    "<char*, 1>)", "vectorized_elementwise_kernel");
}

static void operators_and_plain_text(void **state)
{
	(void)state;
	expect_base("void ns::Foo<int>::operator()(int)", "operator()");
	expect_base("bool operator<(A const&, A const&)", "operator<");
	expect_base("Memset (Device)", "Memset (Device)");
	expect_base("", "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(as_nsys_names_them),
		cmocka_unit_test(as_kineto_spells_them),
		cmocka_unit_test(operators_and_plain_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
