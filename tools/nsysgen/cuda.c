/* CUDA: kernel launches, memory copies and memsets with their runtime calls, other CUDA calls, and
 * unified-memory migrations; the kernels, copy kinds and calls they are made of; their timing, and
 * the GPU lanes that serialize them. */
#include "nsysgen.h"

/* ======================================================================================= content */

enum duration_model {
    DUR_CONSTANT,  /* always the base duration: exact ties */
    DUR_QUANTIZED, /* base + 32 ns * (0..7): many ties, even-sized groups */
    DUR_JITTER,    /* base -12.5% .. +12.5% at 1 ns */
    DUR_STEPPED,   /* base, and base + 1 every 4th launch of the name: averages end in .25 and .75,
                      which round(x, 1) rounds half up, and medians of even groups end in .5 */
};

/* A family of kernels. Templated families vary their template parameter to make more names; the
 * demangled and mangled forms follow the real pairs of the shared corpus (nsys prints `(int)4`), and
 * the Kineto form is what Kineto's demangle() (__cxa_demangle) makes of the mangled one: `4`, `4ul`,
 * `false`, `T const*`, `> >`; its base name is the same (src/core/kname.c). */
struct kernel_family {
    const char *demangled; /* printf format with one %d for the template parameter, if `param` != 0 */
    const char *short_name;
    const char *mangled; /* the same parameter; extern "C" kernels have the plain name here */
    const char *kineto;  /* the parameter as often as it appears: snprintf gets it twice */
    int param, param_step;
    enum duration_model model;
    int64_t base_ns;
    int regs, static_smem, dynamic_smem, launch_type;
    int grid[3], block[3];
    int alt_grid[3], alt_block[3]; /* a second launch configuration, used 1 time in 4; zeros: none */
};

static const struct kernel_family KERNEL_FAMILIES[] = {
    {"void at::native::vectorized_elementwise_kernel<(int)%d, at::native::FillFunctor<float>, "
     "std::array<char *, (unsigned long)1>>(int, T2, T3)",
     "vectorized_elementwise_kernel",
     "_ZN2at6native29vectorized_elementwise_kernelILi%dENS0_11FillFunctorIfEESt5arrayIPcLm1EEEEviT0_T1_",
     "void at::native::vectorized_elementwise_kernel<%d, at::native::FillFunctor<float>, std::array<char*, 1ul> >"
     "(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)",
     4, 4,
     DUR_CONSTANT, 2144, 16, 0, 0, 1, {1088, 1, 1}, {128, 1, 1}, {0, 0, 0}, {0, 0, 0}},
    {"void gemm_tile<(int)%d, (int)64>(const float *, const float *, float *, int, int, int)", "gemm_tile",
     "_Z9gemm_tileILi%dELi64EEvPKfS1_Pfiii",
     "void gemm_tile<%d, 64>(float const*, float const*, float*, int, int, int)", 128, 64, DUR_JITTER, 84000, 128,
     32768, 0, 1, {64, 32, 1}, {256, 1, 1}, {128, 16, 1}, {256, 1, 1}},
    {"saxpy(int, float, const float *, float *)", "saxpy", "_Z5saxpyifPKfPf", "saxpy(int, float, float const*, float*)",
     0, 0, DUR_QUANTIZED, 5120, 16, 0, 0, 1, {4096, 1, 1}, {256, 1, 1}, {8192, 1, 1}, {128, 1, 1}},
    {"void reduce_sum<(int)%d>(const double *, double *, unsigned long)", "reduce_sum", "_Z10reduce_sumILi%dEEvPKdPdm",
     "void reduce_sum<%d>(double const*, double*, unsigned long)", 256, 256, DUR_QUANTIZED, 12032, 32, 2048, 0, 2,
     {264, 1, 1}, {256, 1, 1}, {0, 0, 0}, {0, 0, 0}},
    {"ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<(unsigned long)%d>)", "ncclDevKernel_SendRecv",
     "_Z22ncclDevKernel_SendRecv24ncclDevKernelArgsStorageILm%dEE",
     "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<%dul>)", 4096, 4096, DUR_JITTER, 41000, 96, 0, 0, 1,
     {4, 1, 1}, {640, 1, 1}, {8, 1, 1}, {640, 1, 1}},
    {"rms_norm_f16_kernel", "rms_norm_f16_kernel", "rms_norm_f16_kernel", "rms_norm_f16_kernel", 0, 0, DUR_STEPPED,
     3200, 24, 0, 0, 1, {2048, 1, 1}, {256, 1, 1}, {0, 0, 0}, {0, 0, 0}},
    {"void at::native::reduce_kernel<(int)%d, (int)1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
     "at::native::sum_functor<float, float, float>::operator ()(at::TensorIterator &)::[lambda(float, float) "
     "(instance 1)]>, unsigned int, float, (int)4>>(T3)",
     "reduce_kernel",
     "_ZN2at6native13reduce_kernelILi%dELi1ENS0_8ReduceOpIfNS0_14func_wrapper_tIfZNS0_11sum_functorIfffEclERNS_"
     "14TensorIteratorEEUlffE_EEjfLi4EEEEEvT1_",
     "void at::native::reduce_kernel<%d, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
     "at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
     "unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
     "at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
     "unsigned int, float, 4>)",
     512, 128, DUR_JITTER, 19500, 40, 0, 16, 1, {108, 1, 1}, {512, 1, 1}, {0, 0, 0}, {0, 0, 0}},
    {"kernel_assign_clusters(const GPU::VecArray<int, (int)%d> *, const GPU::VecArray<int, (int)32> *, PointsPtr, "
     "int)",
     "kernel_assign_clusters", "_Z22kernel_assign_clustersPKN3GPU8VecArrayIiLi%dEEEPKNS0_IiLi32EEE9PointsPtri",
     "kernel_assign_clusters(GPU::VecArray<int, %d> const*, GPU::VecArray<int, 32> const*, PointsPtr, int)", 100000,
     1000, DUR_QUANTIZED, 7040, 30, 0, 0, 1, {391, 1, 1}, {256, 1, 1}, {0, 0, 0}, {0, 0, 0}},
    {"void FusedBiasAddCUDAKernelHalf<MaskScaleAndElementwiseAddFunctor<__half>>(T1, int, int, const __half *, "
     "const __half *, __half *)",
     "FusedBiasAddCUDAKernelHalf",
     "_Z26FusedBiasAddCUDAKernelHalfI33MaskScaleAndElementwiseAddFunctorI6__halfEEvT_iiPKS1_S5_PS1_",
     "void FusedBiasAddCUDAKernelHalf<MaskScaleAndElementwiseAddFunctor<__half> >"
     "(MaskScaleAndElementwiseAddFunctor<__half>, int, int, __half const*, __half const*, __half*)",
     0, 0,
     DUR_QUANTIZED, 2880, 20, 0, 0, 1, {1024, 1, 1}, {256, 1, 1}, {0, 0, 0}, {0, 0, 0}},
    {"nvjet_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN", "nvjet_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN",
     "nvjet_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN", "nvjet_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN", 0, 0,
     DUR_JITTER, 152000, 168, 0, 213504, 1, {132, 1, 1}, {384, 1, 1}, {0, 0, 0}, {0, 0, 0}},
    {"void clover::par_ranged1d_kernel<build_field(global_variables &)::[lambda(int) (instance 1)]>"
     "(clover::Range1d, T1)",
     "par_ranged1d_kernel", "_ZN6clover19par_ranged1d_kernelIZ11build_fieldR16global_variablesEUliE_EEvNS_7Range1dET_",
     "void clover::par_ranged1d_kernel<build_field(global_variables&)::{lambda(int)#1}>(clover::Range1d, "
     "build_field(global_variables&)::{lambda(int)#1})",
     0, 0, DUR_QUANTIZED, 9600, 22, 0, 0, 1, {1954, 1, 1}, {256, 1, 1}, {0, 0, 0}, {0, 0, 0}},
    {"void at::native::unrolled_elementwise_kernel<at::native::BinaryFunctor<float, float, float, "
     "at::native::AddFunctor<float>>, at::detail::Array<char *, (int)%d>, OffsetCalculator<(int)2, unsigned int, "
     "(bool)0>, OffsetCalculator<(int)1, unsigned int, (bool)0>, at::native::memory::LoadWithoutCast, "
     "at::native::memory::StoreWithoutCast>(int, T1, T2, T3, T4, T5, T6)",
     "unrolled_elementwise_kernel",
     "_ZN2at6native27unrolled_elementwise_kernelINS0_13BinaryFunctorIfffNS0_10AddFunctorIfEEEENS_6detail5ArrayIPcLi%"
     "dEEE16OffsetCalculatorILi2EjLb0EESA_ILi1EjLb0EENS0_6memory15LoadWithoutCastENSD_16StoreWithoutCastEEEviT_T0_"
     "T1_T2_T3_T4_",
     "void at::native::unrolled_elementwise_kernel<at::native::BinaryFunctor<float, float, float, "
     "at::native::AddFunctor<float> >, at::detail::Array<char*, %d>, OffsetCalculator<2, unsigned int, false>, "
     "OffsetCalculator<1, unsigned int, false>, at::native::memory::LoadWithoutCast, "
     "at::native::memory::StoreWithoutCast>(int, at::native::BinaryFunctor<float, float, float, "
     "at::native::AddFunctor<float> >, at::detail::Array<char*, %d>, OffsetCalculator<2, unsigned int, false>, "
     "OffsetCalculator<1, unsigned int, false>, at::native::memory::LoadWithoutCast, "
     "at::native::memory::StoreWithoutCast)",
     3, 1, DUR_JITTER, 4700, 26, 0, 0, 1, {2048, 1, 1}, {128, 1, 1}, {0, 0, 0}, {0, 0, 0}},
};

/* The NCCL kernels of the training steps (--iterations, training_steps.c), in the order of
 * enum nccl_collective: a kernel_name with `nccl` set indexes this table, not KERNEL_FAMILIES, so the
 * run's own kernel names stay what they were. The names are those of NCCL 2.18 and 2.19. */
static const struct kernel_family NCCL_FAMILIES[] = {
    {"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm *, unsigned long, ncclWork *)",
     "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "_Z39ncclDevKernel_AllReduce_Sum_f32_RING_LLP11ncclDevCommmP8ncclWork",
     "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)", 0, 0, DUR_CONSTANT, 0, 96, 0,
     0, 1, {2, 1, 1}, {640, 1, 1}, {0, 0, 0}, {0, 0, 0}},
    {"ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclDevComm *, unsigned long, ncclWork *)",
     "ncclKernel_AllGather_RING_LL_Sum_int8_t", "_Z39ncclKernel_AllGather_RING_LL_Sum_int8_tP11ncclDevCommmP8ncclWork",
     "ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)", 0, 0, DUR_CONSTANT, 0, 96, 0,
     0, 1, {2, 1, 1}, {640, 1, 1}, {0, 0, 0}, {0, 0, 0}},
    {"ncclDevKernel_SendRecv(ncclDevComm *, unsigned long, ncclWork *)", "ncclDevKernel_SendRecv",
     "_Z22ncclDevKernel_SendRecvP11ncclDevCommmP8ncclWork",
     "ncclDevKernel_SendRecv(ncclDevComm*, unsigned long, ncclWork*)", 0, 0, DUR_CONSTANT, 0, 96, 0, 0, 1,
     {4, 1, 1}, {640, 1, 1}, {0, 0, 0}, {0, 0, 0}},
};

_Static_assert(COUNT_OF(NCCL_FAMILIES) == NCCL_COLLECTIVE_COUNT, "NCCL_FAMILIES is not enum nccl_collective");

static const struct kernel_family *family_of(const struct kernel_name *kn)
{
    return kn->nccl ? &NCCL_FAMILIES[kn->family] : &KERNEL_FAMILIES[kn->family];
}

struct memcpy_kind {
    int copy_kind, src_kind, dst_kind;
    const char *api;      /* NULL: a unified-memory migration, which no API call starts */
    bool async;           /* the call returns before the copy; otherwise it waits for it */
    int64_t bytes_per_us; /* bandwidth */
    int weight;           /* share once every kind has appeared */
    int migration_cause;  /* ENUM_CUDA_UNIF_MEM_MIGRATION, migrations only */
};

/* The first 20 copies walk this table in order, so together they show every copyKind and every memory
 * kind on both sides; then the weights take over (mostly HtoD, DtoH, DtoD as in real captures). */
static const struct memcpy_kind MEMCPY_KINDS[] = {
    {COPY_HTOD, MEM_PAGEABLE, MEM_DEVICE, "cudaMemcpy_v3020", false, 12000, 20, 0},
    {COPY_DTOH, MEM_DEVICE, MEM_PAGEABLE, "cudaMemcpy_v3020", false, 12000, 15, 0},
    {COPY_HTOD, MEM_PINNED, MEM_DEVICE, "cudaMemcpyAsync_v3020", true, 25000, 20, 0},
    {COPY_DTOH, MEM_DEVICE, MEM_PINNED, "cudaMemcpyAsync_v3020", true, 25000, 15, 0},
    {COPY_DTOD, MEM_DEVICE, MEM_DEVICE, "cudaMemcpyAsync_v3020", true, 1500000, 10, 0},
    {COPY_UVM_HTOD, MEM_UNKNOWN, MEM_UNKNOWN, NULL, false, 10000, 3, 2},
    {COPY_HTOD, MEM_MANAGED, MEM_DEVICE, "cudaMemcpy_v3020", false, 20000, 2, 0},
    {COPY_HTOD, MEM_PAGEABLE, MEM_DEVICE_STATIC, "cudaMemcpyToSymbol_v3020", false, 12000, 2, 0},
    {COPY_DTOH, MEM_DEVICE_STATIC, MEM_PAGEABLE, "cudaMemcpyFromSymbol_v3020", false, 12000, 2, 0},
    {COPY_HTOA, MEM_PINNED, MEM_ARRAY, "cudaMemcpy2DToArray_v3020", false, 20000, 1, 0},
    {COPY_ATOH, MEM_ARRAY, MEM_PAGEABLE, "cudaMemcpy2DFromArray_v3020", false, 10000, 1, 0},
    {COPY_ATOA, MEM_ARRAY, MEM_ARRAY, "cudaMemcpy3D_v3020", false, 400000, 1, 0},
    {COPY_ATOD, MEM_ARRAY, MEM_DEVICE, "cudaMemcpy3D_v3020", false, 400000, 1, 0},
    {COPY_DTOA, MEM_DEVICE, MEM_ARRAY, "cudaMemcpy2DToArrayAsync_v3020", true, 400000, 1, 0},
    {COPY_HTOH, MEM_PINNED, MEM_PAGEABLE, "cudaMemcpy_v3020", false, 8000, 1, 0},
    {COPY_PTOP, MEM_DEVICE, MEM_DEVICE, "cudaMemcpyPeerAsync_v4000", true, 150000, 2, 0},
    {COPY_DTOD, MEM_DEVICE, MEM_MANAGED_STATIC, "cudaMemcpyToSymbolAsync_v3020", true, 1500000, 1, 0},
    {COPY_UNKNOWN, MEM_MANAGED_STATIC, MEM_MANAGED, "cudaMemcpyAsync_v3020", true, 20000, 1, 0},
    {COPY_UVM_DTOH, MEM_UNKNOWN, MEM_UNKNOWN, NULL, false, 10000, 2, 4},
    {COPY_UVM_DTOD, MEM_UNKNOWN, MEM_UNKNOWN, NULL, false, 10000, 1, 5},
};

/* Sizes repeat so that size summaries get ties and even-sized groups. */
const int64_t COPY_BYTES[] = {4, 8, 4096, 65536, 1048576, 4194304, 16777216, 100000000};
const int64_t MIGRATION_BYTES[] = {4096, 8192, 12288, 61440, 65536, 2097152};
static const int64_t MEMSET_BYTES[] = {4, 256, 4096, 1048576, 4194304, 67108864};

struct memset_kind {
    int mem_kind;
    const char *api;
    bool async;
    int64_t bytes_per_us;
    int weight;
};

static const struct memset_kind MEMSET_KINDS[] = {
    {MEM_DEVICE, "cudaMemsetAsync_v3020", true, 1600000, 6},
    {MEM_DEVICE, "cudaMemset_v3020", false, 1600000, 3},
    {MEM_MANAGED, "cudaMemset_v3020", false, 30000, 1},
    {MEM_PINNED, "cudaMemset_v3020", false, 25000, 1},
    {MEM_DEVICE_STATIC, "cudaMemsetAsync_v3020", true, 1600000, 1},
};

enum api_behaviour {
    API_PLAIN,       /* takes lo..hi ns */
    API_SYNC_DEVICE, /* returns when the device is idle */
    API_SYNC_STREAM, /* returns when one stream is idle */
    API_QUERY,       /* lo..hi ns; returns 600 (not ready) half the time */
};

struct other_api {
    const char *name;
    int event_class;
    enum api_behaviour behaviour;
    int64_t lo, hi;
    int weight;
};

static const struct other_api OTHER_APIS[] = {
    {"cudaMalloc_v3020", EVENT_CLASS_CUDA_RUNTIME, API_PLAIN, 5000, 45000, 4},
    {"cudaFree_v3020", EVENT_CLASS_CUDA_RUNTIME, API_PLAIN, 3000, 30000, 4},
    {"cudaStreamSynchronize_v3020", EVENT_CLASS_CUDA_RUNTIME, API_SYNC_STREAM, 0, 0, 6},
    {"cudaDeviceSynchronize_v3020", EVENT_CLASS_CUDA_RUNTIME, API_SYNC_DEVICE, 0, 0, 3},
    {"cudaEventRecord_v3020", EVENT_CLASS_CUDA_RUNTIME, API_PLAIN, 2000, 6000, 4},
    {"cudaEventQuery_v3020", EVENT_CLASS_CUDA_RUNTIME, API_QUERY, 2000, 4000, 2},
    {"cudaStreamCreateWithFlags_v5000", EVENT_CLASS_CUDA_RUNTIME, API_PLAIN, 4000, 20000, 1},
    /* two version suffixes: report name cleanup strips only the last one */
    {"cudaGetDeviceProperties_v2_v12000", EVENT_CLASS_CUDA_RUNTIME, API_PLAIN, 10000, 50000, 1},
    {"cudaSetDevice_v3020", EVENT_CLASS_CUDA_RUNTIME, API_PLAIN, 2048, 2048, 1},
    {"cuMemAlloc_v2", EVENT_CLASS_CUDA_DRIVER, API_PLAIN, 5000, 40000, 2},
    {"cuMemFree_v2", EVENT_CLASS_CUDA_DRIVER, API_PLAIN, 3000, 25000, 2},
    {"cuCtxSynchronize", EVENT_CLASS_CUDA_DRIVER, API_SYNC_DEVICE, 0, 0, 1},
    {"cuModuleGetLoadingMode", EVENT_CLASS_CUDA_DRIVER, API_PLAIN, 2000, 3000, 1},
    /* constant: identical durations, so its statistics tie */
    {"cuGetProcAddress_v2", EVENT_CLASS_CUDA_DRIVER, API_PLAIN, 2112, 2112, 2},
};

/* struct gen keeps one api_ids per row of these tables (nsysgen.h) */
_Static_assert(COUNT_OF(MEMCPY_KINDS) == MEMCPY_KIND_COUNT, "MEMCPY_KIND_COUNT is not the rows of MEMCPY_KINDS");
_Static_assert(COUNT_OF(MEMSET_KINDS) == MEMSET_KIND_COUNT, "MEMSET_KIND_COUNT is not the rows of MEMSET_KINDS");
_Static_assert(COUNT_OF(OTHER_APIS) == OTHER_API_COUNT, "OTHER_API_COUNT is not the rows of OTHER_APIS");

/* The user frame of each enum caller in a backtrace, under the CUDA API's own frames. */
static const char *const CALLER_SYMBOLS[CALLER_COUNT] = {"run_iteration(int)", "exchange_halos(Domain &)",
                                                          "init_device(int)"};

/* ======================================================================================= timing */

static int64_t launch_call_duration(struct gen *g)
{
    if (rng_one_in(&g->rng, 40))
        return rng_range(&g->rng, 10000, 50000);
    return rng_range(&g->rng, 2500, 8000);
}

/* The duration of the family's `launch`-th launch, drawn from r. */
static int64_t family_duration(struct rng *r, const struct kernel_family *f, int64_t launch, bool cold)
{
    int64_t d = f->base_ns;
    switch (f->model) {
    case DUR_CONSTANT: return d;
    case DUR_STEPPED: return d + (launch % 4 == 3);
    case DUR_QUANTIZED: d += 32 * rng_below(r, 8); break;
    case DUR_JITTER:
    default: d += rng_below(r, d / 4 + 1) - d / 8; break;
    }
    return cold ? 3 * d + 10000 : d; /* an outlier: the first big launch pays for module loading */
}

static int64_t kernel_duration(struct gen *g, struct kernel_name *kn, bool cold)
{
    return family_duration(&g->rng, &KERNEL_FAMILIES[kn->family], kn->launches++, cold);
}

static int64_t transfer_duration(int64_t bytes, int64_t bytes_per_us)
{
    return 1400 + bytes * 1000 / bytes_per_us;
}

/* Every GPU operation passes its natural duration through here; --zero-durations turns that many
 * of them, spread over the run, into zero-length ones. */
static int64_t gpu_op_duration(struct gen *g, int64_t natural)
{
    bool zero = g->zero_durations_left > 0 && rng_below(&g->zero_rng, g->gpu_ops_left) < g->zero_durations_left;
    g->gpu_ops_left--;
    if (zero) {
        g->zero_durations_left--;
        return 0;
    }
    return natural;
}

/* ======================================================================================= GPU lanes */

/* A lane runs one GPU operation at a time: the device by default, a stream with --overlap. */
static int64_t *lane_of(struct gen *g, int ctx, int stream)
{
    if (g->cfg->overlap)
        return &g->lane_free[(int64_t)ctx * g->cfg->streams + stream];
    return &g->lane_free[g->contexts[ctx].device];
}

static void occupy_lane(struct gen *g, int ctx, int stream, int64_t end)
{
    int64_t *lane = lane_of(g, ctx, stream);
    *lane = max64(*lane, end);
    int64_t *busy = &g->device_busy_until[g->contexts[ctx].device];
    *busy = max64(*busy, end);
    note_time(g, end);
}

/* The host never runs more than a bounded backlog ahead of its GPU lane (a real launch queue fills
 * up, and the CPU has work of its own); without this the queue would grow without end. */
static int64_t throttled_start(struct gen *g, int64_t now, int64_t lane_free)
{
    int64_t backlog = rng_range(&g->rng, 20000, 200000);
    return max64(now, lane_free - backlog);
}

/* An asynchronous call: the API returns, the GPU runs the work when the lane is free. With
 * `may_start_early`, 1 launch in 16 starts on the GPU before its API call returns (a negative queue
 * time, which cuda_kern_exec_* show as NULL). */
static struct gpu_span schedule_async(struct gen *g, struct thread *th, int ctx, int stream, int64_t api_dur,
                                      int64_t gpu_dur, bool may_start_early)
{
    int64_t lane = *lane_of(g, ctx, stream);
    struct gpu_span s;
    s.api_start = throttled_start(g, th->now, lane);
    if (may_start_early && rng_one_in(&g->rng, 16)) {
        int64_t early = rng_range(&g->rng, 300, api_dur / 2);
        s.api_start = max64(s.api_start, lane + early - api_dur); /* the host waits until the lane is free */
        s.api_end = s.api_start + api_dur;
        s.gpu_start = s.api_end - early;
    } else {
        s.api_end = s.api_start + api_dur;
        int64_t queued = s.api_end + rng_range(&g->rng, 1500, 6000);
        s.gpu_start = max64(queued, lane + rng_range(&g->rng, 800, 2000));
    }
    s.gpu_end = s.gpu_start + gpu_dur;
    occupy_lane(g, ctx, stream, s.gpu_end);
    return s;
}

/* A synchronous call on the null stream: the GPU work waits for everything queued on the device and
 * the call returns only after it. */
static struct gpu_span schedule_sync(struct gen *g, struct thread *th, int ctx, int64_t gpu_dur)
{
    struct gpu_span s;
    s.api_start = th->now;
    int64_t submitted = s.api_start + rng_range(&g->rng, 1500, 3000);
    s.gpu_start = max64(submitted, g->device_busy_until[g->contexts[ctx].device] + rng_range(&g->rng, 500, 1500));
    s.gpu_end = s.gpu_start + gpu_dur;
    s.api_end = s.gpu_end + rng_range(&g->rng, 800, 2500);
    occupy_lane(g, ctx, 0, s.gpu_end);
    return s;
}

/* ======================================================================================= rows */

static int64_t shared_memory_executed(int64_t smem)
{
    static const int64_t CARVEOUTS[] = {16384, 32768, 65536, 102400, 167936, 233472};
    for (size_t i = 0; i < COUNT_OF(CARVEOUTS); i++)
        if (smem <= CARVEOUTS[i])
            return CARVEOUTS[i];
    return CARVEOUTS[COUNT_OF(CARVEOUTS) - 1];
}

/* The kernel's name as Kineto spells it, renamed as --rename-kernel asks. */
static void kineto_kernel_name(const struct gen *g, const struct kernel_name *kn, char *out, size_t size)
{
    const struct kernel_family *f = family_of(kn);
    char text[2048];
    snprintf(text, sizeof text, f->kineto, kn->param, kn->param);
    const struct name_pair *r = &g->cfg->rename_kernel;
    if (r->from && strcmp(f->short_name, r->from) == 0)
        rename_in_name(text, r->from, r->to, out, size);
    else
        snprintf(out, size, "%s", text);
}

/* The kernel row of a launch, its alternative launch configuration drawn from r; a launch that
 * --drop-launches mutes writes nothing but takes its draw and its gridId. */
void write_kernel_row(struct gen *g, struct rng *r, const struct thread *th, const struct gpu_span *s, int ctx,
                      int stream, int64_t corr, const struct kernel_name *kn)
{
    const struct kernel_family *f = family_of(kn);
    bool alt = f->alt_grid[0] && rng_one_in(r, 4);
    const int *grid = alt ? f->alt_grid : f->grid, *block = alt ? f->alt_block : f->block;
    struct process *p = &g->procs[g->contexts[ctx].process];
    int64_t grid_id = p->next_grid_id++;
    if (g->muted)
        return;
    if (g->kin) {
        char name[2048];
        kineto_kernel_name(g, kn, name, sizeof name);
        kineto_kernel(g, th, s, ctx, stream, corr,
                      &(struct kineto_kernel){name, f->regs, f->static_smem, f->dynamic_smem, grid, block});
    }
    struct table_writer *w = &g->w_kernel;
    row_begin(g->cfg, w);
    put_gpu_prefix(g, w, s, ctx, stream, corr);
    put_int(w, kn->demangled_id);
    put_int(w, kn->short_id);
    put_int(w, kn->mangled_id);
    put_int(w, f->launch_type);
    put_int(w, 1); /* cacheConfig: prefer shared, as most real rows */
    put_int(w, f->regs);
    for (int i = 0; i < 3; i++)
        put_int(w, grid[i]);
    for (int i = 0; i < 3; i++)
        put_int(w, block[i]);
    put_int(w, f->static_smem);
    put_int(w, f->dynamic_smem);
    put_int(w, 0);          /* localMemoryPerThread */
    put_int(w, 136314880);  /* localMemoryTotal */
    put_int(w, grid_id);
    put_int(w, shared_memory_executed(f->static_smem + f->dynamic_smem));
    put_null(w); /* graphNodeId */
    put_int(w, 0); /* sharedMemoryLimitConfig */
    row_end(w);
}

/* ======================================================================================= host events */

static int pick_context(struct gen *g, const struct process *p)
{
    return p->first_context + (int)rng_below(&g->rng, p->ncontexts);
}

static int64_t next_correlation_id(struct gen *g, struct process *p)
{
    int64_t id = p->next_corr;
    /* untraced driver calls also take ids */
    p->next_corr += (rng_one_in(&g->rng, 8) ? 2 : 1) * g->cfg->corr_stride;
    return id;
}

void emit_kernel_launch(struct gen *g, struct thread *th)
{
    struct process *p = &g->procs[th->process];
    int ctx = pick_context(g, p);
    int stream = (int)rng_below(&g->rng, g->cfg->streams);
    bool cold = th->body_pos == 1 && th->index_in_process == 0; /* main thread, its second launch */
    struct kernel_name *kn = &g->kernel_names[g->body[th->body_pos++ % g->body_len]];
    int64_t api_dur = launch_call_duration(g);
    int64_t gpu_dur = gpu_op_duration(g, kernel_duration(g, kn, cold));
    if (kn->slow)
        gpu_dur = slowed_duration(g->cfg, gpu_dur);
    struct gpu_span s = schedule_async(g, th, ctx, stream, api_dur, gpu_dur, true);
    int64_t corr = next_correlation_id(g, p);
    g->muted = drop_this_launch(g);
    write_api_call(g, th, &g->launch_api, s.api_start, s.api_end, corr, 0, CALLER_LAUNCH);
    write_kernel_row(g, &g->rng, th, &s, ctx, stream, corr, kn);
    g->muted = false;
    th->now = s.api_end;
}

/* --insert-launches: launches after everything else of the run (its last instant), so that nothing
 * else moves; every choice draws from a stream of its own, and correlationIds continue past the
 * process's (after --graphs's). */
void emit_inserted_launches(struct gen *g)
{
    const struct config *c = g->cfg;
    if (c->insert_launches == 0)
        return;
    struct rng r;
    rng_seed(&r, c->seed ^ UINT64_C(0x696e736572746c61));
    int64_t base = g->last_time + 1000000;
    for (int t = 0; t < g->nthreads; t++)
        g->threads[t].now = max64(g->threads[t].now, base);
    for (int64_t i = 0; i < c->insert_launches; i++) {
        struct thread *th = &g->threads[rng_below(&r, g->nthreads)];
        struct process *p = &g->procs[th->process];
        int ctx = p->first_context + (int)rng_below(&r, p->ncontexts);
        int stream = (int)rng_below(&r, c->streams);
        struct kernel_name *kn = &g->kernel_names[rng_below(&r, g->nkernel_names)];
        int64_t gpu_dur = family_duration(&r, &KERNEL_FAMILIES[kn->family], kn->launches, false);
        if (kn->slow)
            gpu_dur = slowed_duration(c, gpu_dur);
        struct gpu_span s;
        s.api_start = th->now + rng_range(&r, 1000, 15000);
        s.api_end = s.api_start + rng_range(&r, 2500, 8000);
        int64_t queued = s.api_end + rng_range(&r, 1500, 6000);
        int64_t lane = *lane_of(g, ctx, stream);
        s.gpu_start = max64(queued, lane + rng_range(&r, 800, 2000));
        s.gpu_end = s.gpu_start + gpu_dur;
        occupy_lane(g, ctx, stream, s.gpu_end);
        int64_t corr = p->next_corr;
        p->next_corr += c->corr_stride;
        write_api_call(g, th, &g->launch_api, s.api_start, s.api_end, corr, 0, CALLER_LAUNCH);
        write_kernel_row(g, &r, th, &s, ctx, stream, corr, kn);
        th->now = s.api_end;
    }
}

/* A unified-memory migration: page faults move data while kernels run; no API call, no lane. */
static void emit_migration(struct gen *g, struct thread *th, const struct memcpy_kind *k)
{
    struct process *p = &g->procs[th->process];
    const struct context *c = &g->contexts[pick_context(g, p)];
    int64_t bytes = pick_int(g, MIGRATION_BYTES, COUNT_OF(MIGRATION_BYTES));
    int64_t start = th->now + rng_range(&g->rng, 500, 5000);
    int64_t end = start + gpu_op_duration(g, transfer_duration(bytes, k->bytes_per_us));
    struct table_writer *w = &g->w_memcpy;
    row_begin(g->cfg, w);
    put_int(w, start);
    put_int(w, end);
    put_int(w, c->device);
    put_int(w, 0); /* contextId */
    put_null(w);   /* greenContextId */
    put_int(w, 0); /* streamId */
    put_int(w, 0); /* correlationId */
    put_int(w, (int64_t)p->gpid);
    put_int(w, bytes);
    put_int(w, k->copy_kind);
    put_null(w); /* deprecatedSrcId */
    put_int(w, k->src_kind);
    put_int(w, k->dst_kind);
    for (int i = 0; i < 4; i++)
        put_null(w); /* src/dst device and context */
    put_int(w, k->migration_cause);
    put_null(w); /* graphNodeId */
    put_int(w, g->next_migration_address);
    row_end(w);
    g->next_migration_address += (bytes + 4095) / 4096 * 4096;
    note_time(g, end);
}

static void write_memcpy_row(struct gen *g, const struct gpu_span *s, int ctx, int stream, int64_t corr,
                             int64_t bytes, const struct memcpy_kind *k)
{
    const struct context *c = &g->contexts[ctx];
    bool peer = k->copy_kind == COPY_PTOP;
    struct table_writer *w = &g->w_memcpy;
    row_begin(g->cfg, w);
    put_gpu_prefix(g, w, s, ctx, stream, corr);
    put_int(w, bytes);
    put_int(w, k->copy_kind);
    put_null(w); /* deprecatedSrcId */
    put_int(w, k->src_kind);
    put_int(w, k->dst_kind);
    put_int_or_null(w, peer, c->device);                                  /* srcDeviceId */
    put_int_or_null(w, peer, c->context_id);                              /* srcContextId */
    put_int_or_null(w, peer, (c->device + 1) % g->cfg->devices);          /* dstDeviceId */
    put_int_or_null(w, peer, c->context_id);                              /* dstContextId */
    put_null(w); /* migrationCause */
    put_null(w); /* graphNodeId */
    put_null(w); /* virtualAddress */
    row_end(w);
}

void emit_memcpy(struct gen *g, struct thread *th)
{
    size_t i = weighted_pick(g, &g->memcpy_pick);
    const struct memcpy_kind *k = &MEMCPY_KINDS[i];
    if (!k->api) {
        emit_migration(g, th, k);
        return;
    }
    struct process *p = &g->procs[th->process];
    int ctx = pick_context(g, p);
    int stream = k->async ? (int)rng_below(&g->rng, g->cfg->streams) : 0;
    int64_t bytes = pick_int(g, COPY_BYTES, COUNT_OF(COPY_BYTES));
    int64_t gpu_dur = gpu_op_duration(g, transfer_duration(bytes, k->bytes_per_us));
    struct gpu_span s = k->async ? schedule_async(g, th, ctx, stream, rng_range(&g->rng, 3000, 10000), gpu_dur, false)
                                 : schedule_sync(g, th, ctx, gpu_dur);
    int64_t corr = next_correlation_id(g, p);
    write_api_call(g, th, &g->memcpy_api[i], s.api_start, s.api_end, corr, 0, CALLER_COPY);
    write_memcpy_row(g, &s, ctx, stream, corr, bytes, k);
    kineto_memcpy(g, th, &s, ctx, stream, corr, bytes, k->copy_kind, k->src_kind, k->dst_kind,
                  (g->contexts[ctx].device + 1) % (int)g->cfg->devices);
    th->now = s.api_end;
}

void emit_memset(struct gen *g, struct thread *th)
{
    size_t i = weighted_pick(g, &g->memset_pick);
    const struct memset_kind *k = &MEMSET_KINDS[i];
    struct process *p = &g->procs[th->process];
    int ctx = pick_context(g, p);
    int stream = k->async ? (int)rng_below(&g->rng, g->cfg->streams) : 0;
    int64_t bytes = pick_int(g, MEMSET_BYTES, COUNT_OF(MEMSET_BYTES));
    int64_t gpu_dur = gpu_op_duration(g, transfer_duration(bytes, k->bytes_per_us));
    struct gpu_span s = k->async ? schedule_async(g, th, ctx, stream, rng_range(&g->rng, 2500, 7000), gpu_dur, false)
                                 : schedule_sync(g, th, ctx, gpu_dur);
    int64_t corr = next_correlation_id(g, p);
    write_api_call(g, th, &g->memset_api[i], s.api_start, s.api_end, corr, 0, CALLER_COPY);
    struct table_writer *w = &g->w_memset;
    row_begin(g->cfg, w);
    put_gpu_prefix(g, w, &s, ctx, stream, corr);
    put_int(w, rng_one_in(&g->rng, 4) ? 255 : 0); /* value */
    put_int(w, bytes);
    put_null(w); /* graphNodeId */
    put_int(w, k->mem_kind);
    row_end(w);
    kineto_memset(g, th, &s, ctx, stream, corr, bytes, k->mem_kind);
    th->now = s.api_end;
}

void emit_other_api(struct gen *g, struct thread *th)
{
    size_t i = weighted_pick(g, &g->other_pick);
    const struct other_api *a = &OTHER_APIS[i];
    struct process *p = &g->procs[th->process];
    int ctx = pick_context(g, p);
    int64_t start = th->now, end, ret = 0, shortest, idle;
    switch (a->behaviour) {
    case API_SYNC_DEVICE:
        shortest = start + rng_range(&g->rng, 2000, 4000);
        idle = g->device_busy_until[g->contexts[ctx].device];
        end = max64(shortest, idle + rng_range(&g->rng, 1000, 3000));
        break;
    case API_SYNC_STREAM:
        shortest = start + rng_range(&g->rng, 2000, 4000);
        idle = *lane_of(g, ctx, (int)rng_below(&g->rng, g->cfg->streams));
        end = max64(shortest, idle + rng_range(&g->rng, 1000, 3000));
        break;
    case API_QUERY:
        end = start + rng_range(&g->rng, a->lo, a->hi);
        ret = rng_one_in(&g->rng, 2) ? 600 : 0; /* cudaErrorNotReady */
        break;
    case API_PLAIN:
    default: end = start + rng_range(&g->rng, a->lo, a->hi); break;
    }
    write_api_call(g, th, &g->other_api[i], start, end, next_correlation_id(g, p), ret, CALLER_SETUP);
    th->now = end;
}

/* ======================================================================================= setup */

/* Kernel names: the families first, then more instances of the templated ones. */
void setup_kernel_names(struct gen *g)
{
    int64_t n = g->cfg->kernel_names;
    int templated[COUNT_OF(KERNEL_FAMILIES)], ntemplated = 0;
    for (size_t f = 0; f < COUNT_OF(KERNEL_FAMILIES); f++)
        if (KERNEL_FAMILIES[f].param)
            templated[ntemplated++] = (int)f;
    g->kernel_names = xcalloc((size_t)n, sizeof *g->kernel_names);
    g->nkernel_names = n;
    for (int64_t i = 0; i < n; i++) {
        int family, variant = 0;
        if (i < (int64_t)COUNT_OF(KERNEL_FAMILIES)) {
            family = (int)i;
        } else {
            int64_t k = i - (int64_t)COUNT_OF(KERNEL_FAMILIES);
            family = templated[k % ntemplated];
            variant = (int)(1 + k / ntemplated);
        }
        const struct kernel_family *f = &KERNEL_FAMILIES[family];
        int param = f->param + variant * f->param_step;
        char demangled[1024], mangled[1024];
        snprintf(demangled, sizeof demangled, f->demangled, param);
        snprintf(mangled, sizeof mangled, f->mangled, param);
        struct kernel_name *kn = &g->kernel_names[i];
        kn->family = family;
        kn->param = param;
        kn->slow = g->cfg->slow_kernel.name && strcmp(f->short_name, g->cfg->slow_kernel.name) == 0;
        const struct name_pair *r = &g->cfg->rename_kernel;
        if (r->from && strcmp(f->short_name, r->from) == 0) {
            char renamed[2048];
            rename_in_name(demangled, r->from, r->to, renamed, sizeof renamed);
            kn->demangled_id = intern(g, renamed);
            kn->short_id = intern(g, r->to);
            rename_in_mangled(mangled, r->from, r->to, renamed, sizeof renamed);
            kn->mangled_id = intern(g, renamed);
            continue;
        }
        kn->demangled_id = intern(g, demangled);
        kn->short_id = intern(g, f->short_name);
        kn->mangled_id = intern(g, mangled);
    }
}

/* The NCCL kernels of the training steps, one per enum nccl_collective, into StringIds. */
void setup_nccl_kernel_names(struct gen *g, struct kernel_name out[NCCL_COLLECTIVE_COUNT])
{
    for (int i = 0; i < NCCL_COLLECTIVE_COUNT; i++) {
        const struct kernel_family *f = &NCCL_FAMILIES[i];
        out[i] = (struct kernel_name){.family = i, .nccl = true};
        out[i].demangled_id = intern(g, f->demangled);
        out[i].short_id = intern(g, f->short_name);
        out[i].mangled_id = intern(g, f->mangled);
    }
}

/* Whether a kernel is one of NCCL's (ncclKernel_*, ncclDevKernel_*), by its base name. */
bool kernel_is_nccl(const struct kernel_name *kn)
{
    return strncmp(family_of(kn)->short_name, "nccl", 4) == 0;
}

/* Whether a kernel of a run with this many --kernel-names has this base name (shortName): the first
 * names are one of each family, the rest more instances of the templated ones. */
bool kernel_base_name_in_run(const char *name, int64_t kernel_names)
{
    for (int64_t f = 0; f < min64(kernel_names, (int64_t)COUNT_OF(KERNEL_FAMILIES)); f++)
        if (strcmp(KERNEL_FAMILIES[f].short_name, name) == 0)
            return true;
    return false;
}

/* The sequence every thread launches in a loop, like an application's iteration: each kernel once
 * (so every name shows up once the run has as many launches per thread), then the first four again
 * twice. Equal counts per name give ties and even-sized groups. */
void setup_kernel_body(struct gen *g)
{
    int64_t n = g->nkernel_names, hot = min64(n, 4);
    g->body_len = n + 2 * hot;
    g->body = xcalloc((size_t)g->body_len, sizeof *g->body);
    for (int64_t i = 0; i < n; i++)
        g->body[i] = i;
    for (int64_t i = 0; i < 2 * hot; i++)
        g->body[n + i] = i % hot;
}

/* The names of every CUDA call the run makes, and the weights that pick copies, memsets and other calls. */
void setup_cuda_api_names(struct gen *g)
{
    int weights[32];
    g->launch_api = intern_api(g, "cudaLaunchKernel_v7000", EVENT_CLASS_CUDA_RUNTIME);
    for (size_t i = 0; i < COUNT_OF(MEMCPY_KINDS); i++) {
        if (MEMCPY_KINDS[i].api)
            g->memcpy_api[i] = intern_api(g, MEMCPY_KINDS[i].api, EVENT_CLASS_CUDA_RUNTIME);
        weights[i] = MEMCPY_KINDS[i].weight;
    }
    weighted_init(&g->memcpy_pick, weights, COUNT_OF(MEMCPY_KINDS));
    for (size_t i = 0; i < COUNT_OF(MEMSET_KINDS); i++) {
        g->memset_api[i] = intern_api(g, MEMSET_KINDS[i].api, EVENT_CLASS_CUDA_RUNTIME);
        weights[i] = MEMSET_KINDS[i].weight;
    }
    weighted_init(&g->memset_pick, weights, COUNT_OF(MEMSET_KINDS));
    for (size_t i = 0; i < COUNT_OF(OTHER_APIS); i++) {
        g->other_api[i] = intern_api(g, OTHER_APIS[i].name, OTHER_APIS[i].event_class);
        weights[i] = OTHER_APIS[i].weight;
    }
    weighted_init(&g->other_pick, weights, COUNT_OF(OTHER_APIS));
}

void setup_frame_strings(struct gen *g)
{
    g->sym_cupti[0] = intern(g, "0x7f3a2c4e0588");
    g->sym_cupti[1] = intern(g, "0x7f3a2c4e283c");
    g->sym_cuda_internal = intern(g, "0x7f3a3b8226b6");
    for (int c = 0; c < CALLER_COUNT; c++)
        g->sym_caller[c] = intern(g, CALLER_SYMBOLS[c]);
    g->sym_main = intern(g, "main");
    g->sym_libc_main = intern(g, "__libc_start_call_main");
    g->sym_start = intern(g, "_start");
    g->sym_start_thread = intern(g, "start_thread");
    g->sym_clone = intern(g, "clone3");
    g->mod_app = intern(g, MODULE_APP);
    g->mod_cupti = intern(g, MODULE_CUPTI);
    g->mod_cuda = intern(g, MODULE_CUDA);
    g->mod_cudart = intern(g, MODULE_CUDART);
    g->mod_libc = intern(g, MODULE_LIBC);
}

