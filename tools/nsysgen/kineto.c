/* --kineto FILE: the run that the export holds, written again as the PyTorch profiler's trace (Kineto's
 * chrome-trace JSON, as torch.profiler wrote it in 2024: the layout of the traces of
 * HolisticTraceAnalysis/tests/data, whose texts these printf formats copy). Each writer of cuda.c,
 * cuda_rows.c, cuda_graphs.c and nvtx*.c that writes a row of the run calls a kineto_*() function here
 * with the same values, so the two files cannot drift apart; no function here draws a random number,
 * so the export is byte for byte what it is without --kineto. nsysgen.h's top comment says what maps
 * to what. */
#include <errno.h>
#include <stdarg.h>
#include <unistd.h>
#include <zlib.h>

#include "nsysgen.h"

/* ======================================================================================= names */

/* A CUDA API as nsys names it, as Kineto names it, and its CUPTI callback id (cupti_runtime_cbid.h,
 * cupti_driver_cbid.h). Kineto drops the _v<N> suffix of runtime calls; a driver call's name is the
 * function's own. */
struct kineto_api {
    const char *nsys, *kineto;
    int cbid;
};

static const struct kineto_api KINETO_APIS[] = {
    {"cudaLaunchKernel_v7000", "cudaLaunchKernel", 211},
    {"cudaMemcpy_v3020", "cudaMemcpy", 31},
    {"cudaMemcpyAsync_v3020", "cudaMemcpyAsync", 41},
    {"cudaMemcpyToSymbol_v3020", "cudaMemcpyToSymbol", 39},
    {"cudaMemcpyFromSymbol_v3020", "cudaMemcpyFromSymbol", 40},
    {"cudaMemcpy2DToArray_v3020", "cudaMemcpy2DToArray", 34},
    {"cudaMemcpy2DFromArray_v3020", "cudaMemcpy2DFromArray", 36},
    {"cudaMemcpy3D_v3020", "cudaMemcpy3D", 144},
    {"cudaMemcpy2DToArrayAsync_v3020", "cudaMemcpy2DToArrayAsync", 45},
    {"cudaMemcpyPeerAsync_v4000", "cudaMemcpyPeerAsync", 161},
    {"cudaMemcpyToSymbolAsync_v3020", "cudaMemcpyToSymbolAsync", 47},
    {"cudaMemsetAsync_v3020", "cudaMemsetAsync", 51},
    {"cudaMemset_v3020", "cudaMemset", 49},
    {"cudaMalloc_v3020", "cudaMalloc", 20},
    {"cudaFree_v3020", "cudaFree", 22},
    {"cudaStreamSynchronize_v3020", "cudaStreamSynchronize", 131},
    {"cudaDeviceSynchronize_v3020", "cudaDeviceSynchronize", 165},
    {"cudaEventRecord_v3020", "cudaEventRecord", 135},
    {"cudaEventQuery_v3020", "cudaEventQuery", 138},
    {"cudaStreamCreateWithFlags_v5000", "cudaStreamCreateWithFlags", 198},
    /* Kineto's own table of runtime names stops before this id; CUPTI's name is this one */
    {"cudaGetDeviceProperties_v2_v12000", "cudaGetDeviceProperties_v2", 440},
    {"cudaSetDevice_v3020", "cudaSetDevice", 16},
    {"cudaGraphLaunch_v10000", "cudaGraphLaunch", 311},
    {"cuMemAlloc_v2", "cuMemAlloc_v2", 243},
    {"cuMemFree_v2", "cuMemFree_v2", 245},
    {"cuCtxSynchronize", "cuCtxSynchronize", 17},
    {"cuModuleGetLoadingMode", "cuModuleGetLoadingMode", 673},
    {"cuGetProcAddress_v2", "cuGetProcAddress_v2", 677},
};

int kineto_api(const char *nsys_name)
{
    for (size_t i = 0; i < COUNT_OF(KINETO_APIS); i++)
        if (strcmp(KINETO_APIS[i].nsys, nsys_name) == 0)
            return (int)i;
    fail("internal error: no Kineto name for the CUDA API %s", nsys_name);
}

/* Kineto's RuntimeActivity::flowStart() and DriverActivity::flowStart(): the calls whose ac2g flow
 * starts ("s"); every other call gets a flow end ("f") of its own, as in Kineto's traces. */
static bool flow_starts(const struct kineto_api *a, int event_class)
{
    if (event_class == EVENT_CLASS_CUDA_DRIVER)
        return a->cbid == 307; /* cuLaunchKernel */
    return a->cbid == 211 || (a->cbid >= 31 && a->cbid <= 52) || a->cbid == 269 || a->cbid == 272 ||
           a->cbid == 311 || a->cbid == 131 || a->cbid == 165 || a->cbid == 147 || a->cbid == 430;
}

/* Kineto's memcpyKindString() and memoryKindString(), indexed by nsysgen's copy and memory kinds
 * (ENUM_CUDA_MEMCPY_OPER and ENUM_CUDA_MEM_KIND); copy kind 0 is CUPTI's unknown, which Kineto
 * spells "<unknown>". */
static const char *const COPY_KIND_TEXT[] = {"<unknown>", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD",
                                             "DtoA",      "DtoD", "HtoH", "PtoP"};
static const char *const MEMORY_KIND_TEXT[] = {"Pageable", "Pinned",         "Device",        "Array",
                                               "Managed",  "Device Static", "Managed Static", "Unknown"};
_Static_assert(COUNT_OF(COPY_KIND_TEXT) == COPY_PTOP + 1, "a copy kind has no Kineto name");
_Static_assert(COUNT_OF(MEMORY_KIND_TEXT) == MEM_UNKNOWN + 1, "a memory kind has no Kineto name");

/* ======================================================================================= the file */

#define KINETO_MAX_OPEN 16    /* push/pop ranges open at once on a thread */
#define KINETO_BUFFER (1 << 20)

struct kineto_thread {
    int64_t open[KINETO_MAX_OPEN]; /* External ids of its open push/pop ranges, in the order they opened */
    int nopen;
};

struct kineto {
    gzFile out;
    char *buf;
    size_t len;
    int64_t next_external_id, next_ev_idx;
    struct kineto_thread *threads;
    bool *stream_used; /* [device * stream_slots + streamId]: the GPU threads the metadata names */
    int64_t stream_slots;
    int64_t span_start;
    int64_t clock_offset;                  /* --kineto-clock-offset */
    int64_t kernels_seen, kernels_doubled; /* --kineto-dup-kernels */
};

static void flush_buffer(struct kineto *k)
{
    if (k->len && gzwrite(k->out, k->buf, (unsigned)k->len) != (int)k->len) {
        int err;
        const char *msg = gzerror(k->out, &err);
        fail("writing the Kineto trace: %s", err == Z_ERRNO ? strerror(errno) : msg);
    }
    k->len = 0;
}

static void emit(struct kineto *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void emit(struct kineto *k, const char *fmt, ...)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(k->buf + k->len, KINETO_BUFFER - k->len, fmt, ap);
        va_end(ap);
        if (n < 0)
            fail("internal error: formatting the Kineto trace");
        if ((size_t)n < KINETO_BUFFER - k->len) {
            k->len += (size_t)n;
            return;
        }
        flush_buffer(k);
    }
    fail("internal error: a Kineto event longer than %d bytes", KINETO_BUFFER);
}

/* A JSON string, quoted. Kineto writes names as they are; these are escaped so that any name stays
 * valid JSON (nsysgen's names need no escaping). */
static void emit_string(struct kineto *k, const char *s)
{
    emit(k, "\"");
    while (*s) {
        size_t n = 0;
        while (s[n] && s[n] != '"' && s[n] != '\\' && (unsigned char)s[n] >= 0x20)
            n++;
        if (n) {
            emit(k, "%.*s", (int)n, s);
            s += n;
            continue;
        }
        unsigned char c = (unsigned char)*s++;
        if (c == '"' || c == '\\')
            emit(k, "\\%c", c);
        else
            emit(k, "\\u%04x", c);
    }
    emit(k, "\"");
}

/* Kineto's "{}.{:03}" of a nanosecond count: microseconds with exactly three decimals. */
#define US "%" PRId64 ".%03d"
#define US_ARG(ns) (ns) / 1000, (int)((ns) % 1000)
/* A timestamp on the trace's clock (--kineto-clock-offset). */
#define TS_ARG(k, ns) US_ARG((ns) + (k)->clock_offset)

/* A process id and thread id of a globalTid (VM << 48 | PID << 24 | TID). */
static int64_t gtid_pid(uint64_t gtid) { return (int64_t)(gtid >> 24 & 0xffffff); }
static int64_t gtid_tid(uint64_t gtid) { return (int64_t)(gtid & 0xffffff); }

void kineto_open(struct gen *g)
{
    const struct config *c = g->cfg;
    if (!c->kineto_path)
        return;
    size_t n = strlen(c->kineto_path) + 32;
    g_out.trace_tmp_path = xcalloc(n, 1);
    snprintf(g_out.trace_tmp_path, n, "%s.nsysgen-%ld.tmp", c->kineto_path, (long)getpid());
    size_t plen = strlen(c->kineto_path);
    bool gz = plen >= 3 && strcmp(c->kineto_path + plen - 3, ".gz") == 0;
    struct kineto *k = xcalloc(1, sizeof *k);
    /* "T": zlib writes the bytes as they are; gzip's header carries no time, so the bytes repeat */
    k->out = gzopen(g_out.trace_tmp_path, gz ? "wb" : "wT");
    if (!k->out)
        fail("cannot create the Kineto trace %s: %s", c->kineto_path, strerror(errno));
    k->buf = xcalloc(KINETO_BUFFER, 1);
    k->threads = xcalloc((size_t)g->nthreads, sizeof *k->threads);
    k->stream_slots = 7 + c->devices * c->streams; /* streamIds run from 7 (setup.c) */
    k->stream_used = xcalloc((size_t)(c->devices * k->stream_slots), sizeof *k->stream_used);
    k->span_start = INT64_MAX;
    k->clock_offset = c->kineto_clock_offset;
    for (int p = 0; p < c->processes; p++)
        k->span_start = min64(k->span_start, g->procs[p].start_time - 2000000); /* OS runtime's marker */
    g->kin = k;

    emit(k, "\n{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [");
    const struct gpu_model *m = &GPU_MODEL;
    for (int d = 0; d < c->devices; d++) {
        emit(k, "%s\n    {\n      \"id\": %d, \"name\": ", d ? "," : "", d);
        emit_string(k, m->name);
        emit(k,
             ", \"totalGlobalMem\": %" PRId64 ",\n      \"computeMajor\": %" PRId64 ", \"computeMinor\": %" PRId64
             ",\n      \"maxThreadsPerBlock\": %" PRId64 ", \"maxThreadsPerMultiprocessor\": %" PRId64
             ",\n      \"regsPerBlock\": %" PRId64 ", \"warpSize\": %" PRId64 ",\n      \"sharedMemPerBlock\": %" PRId64
             ", \"numSms\": %" PRId64 "\n    , \"regsPerMultiprocessor\": %" PRId64
             ", \"sharedMemPerBlockOptin\": %" PRId64 ", \"sharedMemPerMultiprocessor\": %" PRId64 "\n    }",
             m->total_memory, m->compute_major, m->compute_minor, m->max_threads_per_block,
             m->max_warps_per_sm * m->warp_size, m->max_regs_per_block, m->warp_size, m->max_shmem_per_block,
             m->sm_count, m->max_regs_per_sm, m->max_shmem_per_block_optin, m->max_shmem_per_sm);
    }
    emit(k, "\n  ],\n");
    if (c->processes > 1)
        emit(k, "  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0, \"world_size\": %" PRId64 "},\n",
             c->processes);
    else
        emit(k, "  \"distributedInfo\": {\"rank\": 0},\n");
    emit(k, "  \"traceEvents\": [");
}

/* ======================================================================================= External ids */

/* Kineto links a CUDA call, and the GPU work it started, to the innermost CPU op open around the call
 * (its "External id"); here the ops are the push/pop ranges, numbered as they open. */
int64_t kineto_push(struct gen *g, const struct thread *th)
{
    struct kineto *k = g->kin;
    if (!k)
        return 0;
    struct kineto_thread *kt = &k->threads[th - g->threads];
    if (kt->nopen == KINETO_MAX_OPEN)
        fail("internal error: more than %d push/pop ranges open on a thread", KINETO_MAX_OPEN);
    int64_t id = ++k->next_external_id;
    kt->open[kt->nopen++] = id;
    return id;
}

void kineto_pop(struct gen *g, const struct thread *th, int64_t external_id)
{
    struct kineto *k = g->kin;
    if (!k)
        return;
    struct kineto_thread *kt = &k->threads[th - g->threads];
    for (int i = kt->nopen - 1; i >= 0; i--) {
        if (kt->open[i] != external_id)
            continue;
        memmove(&kt->open[i], &kt->open[i + 1], (size_t)(kt->nopen - 1 - i) * sizeof kt->open[0]);
        kt->nopen--;
        return;
    }
    fail("internal error: closing a push/pop range that is not open");
}

static int64_t current_external_id(const struct gen *g, const struct thread *th)
{
    const struct kineto_thread *kt = &g->kin->threads[th - g->threads];
    return kt->nopen ? kt->open[kt->nopen - 1] : 0;
}

/* ======================================================================================= events */

/* The head of an "X" event up to its args, and the args' opening "External id" (Kineto writes none
 * for a call or GPU operation that no CPU op encloses, and leaves the indentation of what follows). */
static void event_head(struct kineto *k, const char *cat, const char *name, int64_t pid, int64_t tid, int64_t start,
                       int64_t end)
{
    emit(k, "\n  {\n    \"ph\": \"X\", \"cat\": \"%s\", \"name\": ", cat);
    emit_string(k, name);
    emit(k, ", \"pid\": %" PRId64 ", \"tid\": %" PRId64 ",\n    \"ts\": " US ", \"dur\": " US
            ",\n    \"args\": {\n      ",
         pid, tid, TS_ARG(k, start), US_ARG(end - start));
}

static void args_external_id(struct kineto *k, int64_t external_id)
{
    if (external_id)
        emit(k, "\"External id\": %" PRId64 ",", external_id);
}

static void event_tail(struct kineto *k) { emit(k, "\n    }\n  },"); }

static void flow(struct kineto *k, bool start, int64_t id, int64_t pid, int64_t tid, int64_t ts)
{
    emit(k,
         "\n  {\n    \"ph\": \"%c\", \"id\": %" PRId64 ", \"pid\": %" PRId64 ", \"tid\": %" PRId64 ", \"ts\": " US
         ",\n    \"cat\": \"ac2g\", \"name\": \"ac2g\"%s\n  },",
         start ? 's' : 'f', id, pid, tid, TS_ARG(k, ts), start ? "" : ", \"bp\": \"e\"");
}

void kineto_call(struct gen *g, const struct thread *th, const struct api_ids *api, int64_t start, int64_t end,
                 int64_t corr)
{
    struct kineto *k = g->kin;
    if (!k || g->muted)
        return;
    const struct kineto_api *a = &KINETO_APIS[api->kineto];
    bool driver = api->event_class == EVENT_CLASS_CUDA_DRIVER;
    int64_t pid = gtid_pid(th->gtid), tid = gtid_tid(th->gtid);
    event_head(k, driver ? "cuda_driver" : "cuda_runtime", a->kineto, pid, tid, start, end);
    args_external_id(k, current_external_id(g, th));
    emit(k, "      \"cbid\": %d, \"correlation\": %" PRId64, a->cbid, corr);
    event_tail(k);
    flow(k, flow_starts(a, api->event_class), corr, pid, tid, start);
}

/* The GPU side of an operation: pid the device, tid the stream, as Kineto writes them. */
static void gpu_head(struct gen *g, const struct thread *th, const char *cat, const char *name,
                     const struct gpu_span *s, int ctx, int stream)
{
    struct kineto *k = g->kin;
    const struct context *c = &g->contexts[ctx];
    int64_t sid = stream_id(g, ctx, stream);
    k->stream_used[c->device * k->stream_slots + sid] = true;
    event_head(k, cat, name, c->device, sid, s->gpu_start, s->gpu_end);
    args_external_id(k, current_external_id(g, th));
}

static void gpu_flow(struct gen *g, const struct gpu_span *s, int ctx, int stream, int64_t corr)
{
    flow(g->kin, false, corr, g->contexts[ctx].device, stream_id(g, ctx, stream), s->gpu_start);
}

static void emit_zeros(struct kineto *k, int n)
{
    for (; n > 0; n--)
        emit(k, "0");
}

/* Kineto's "{}" of a positive double (fmt's shortest form): the fewest significant digits that read
 * back as the same number, in positional notation from 1e-4 up to 1e16, otherwise as 1.5e-05. */
static void emit_shortest(struct kineto *k, double x)
{
    char text[40];
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(text, sizeof text, "%.*e", digits - 1, x);
        if (strtod(text, NULL) == x)
            break;
    }
    char *e = strchr(text, 'e');
    int exponent = atoi(e + 1);
    *e = '\0';
    char digits[24];
    int n = 0;
    for (const char *p = text; *p; p++)
        if (*p != '.')
            digits[n++] = *p;
    digits[n] = '\0';
    if (exponent < -4 || exponent >= 16) {
        emit(k, "%c%s%se%c%02d", digits[0], n > 1 ? "." : "", digits + 1, exponent < 0 ? '-' : '+',
             exponent < 0 ? -exponent : exponent);
    } else if (exponent < 0) {
        emit(k, "0.");
        emit_zeros(k, -exponent - 1);
        emit(k, "%s", digits);
    } else if (exponent + 1 >= n) {
        emit(k, "%s", digits);
        emit_zeros(k, exponent + 1 - n);
    } else {
        emit(k, "%.*s.%s", exponent + 1, digits, digits + exponent + 1);
    }
}

static void emit_bandwidth(struct kineto *k, int64_t bytes, const struct gpu_span *s)
{
    int64_t dur = s->gpu_end - s->gpu_start;
    if (dur == 0)
        emit(k, "\"N/A\"");
    else
        emit_shortest(k, (double)bytes * 1.0 / (double)dur);
}

/* The occupancy that CUDA's occupancy calculator would give on GPU_MODEL: the fewest blocks per SM
 * that warps, registers (256 per warp at a time), shared memory (1 KiB reserved per block, 128-byte
 * steps) and the block limit allow. */
static int64_t active_blocks_per_sm(const struct kineto_kernel *kk, int64_t threads)
{
    const struct gpu_model *m = &GPU_MODEL;
    int64_t warps = (threads + m->warp_size - 1) / m->warp_size;
    int64_t blocks = min64(m->max_blocks_per_sm, m->max_warps_per_sm / warps);
    if (kk->registers > 0) {
        int64_t regs_per_warp = (kk->registers * m->warp_size + 255) / 256 * 256;
        blocks = min64(blocks, m->max_regs_per_sm / regs_per_warp / warps);
    }
    int64_t smem = (kk->static_smem + kk->dynamic_smem + 1024 + 127) / 128 * 128;
    blocks = min64(blocks, m->max_shmem_per_sm / smem);
    return blocks;
}

/* --kineto-bias: a kernel's duration in the trace. */
static int64_t biased_duration(const struct config *c, int64_t ns)
{
    return (ns * (100 + c->kineto_bias) + 50) / 100;
}

/* --kineto-dup-kernels: whether the next kernel event is written twice: one in every step of
 * --kernels / N events, the middle one, until N are. */
static bool doubled(struct gen *g)
{
    struct kineto *k = g->kin;
    int64_t n = g->cfg->kineto_dup_kernels, i = k->kernels_seen++;
    if (k->kernels_doubled == n)
        return false;
    int64_t step = g->cfg->kernels / n > 1 ? g->cfg->kernels / n : 1;
    if (i % step != step / 2)
        return false;
    k->kernels_doubled++;
    return true;
}

void kineto_kernel(struct gen *g, const struct thread *th, const struct gpu_span *s, int ctx, int stream,
                   int64_t corr, const struct kineto_kernel *kk)
{
    struct kineto *k = g->kin;
    if (!k || g->muted)
        return;
    const struct context *c = &g->contexts[ctx];
    uint32_t blocks = (uint32_t)(kk->grid[0] * kk->grid[1] * kk->grid[2]);
    uint32_t threads = (uint32_t)(kk->block[0] * kk->block[1] * kk->block[2]);
    /* Kineto's blocksPerSm(), warpsPerSm() and kernelOccupancy(), in float as there */
    float blocks_per_sm = (float)blocks / (float)GPU_MODEL.sm_count;
    float warps_per_sm = blocks_per_sm * (float)threads;
    warps_per_sm = warps_per_sm / 32.0f;
    float resident = blocks_per_sm;
    int64_t active = active_blocks_per_sm(kk, threads);
    if ((float)active < resident)
        resident = (float)active;
    float occupancy = resident * (float)threads;
    occupancy = occupancy / (float)(GPU_MODEL.max_warps_per_sm * GPU_MODEL.warp_size);
    struct gpu_span timed = *s;
    timed.gpu_end = s->gpu_start + biased_duration(g->cfg, s->gpu_end - s->gpu_start);
    for (int copy = doubled(g) ? 2 : 1; copy > 0; copy--) {
        gpu_head(g, th, "kernel", kk->name, &timed, ctx, stream);
        emit(k,
             "      \"queued\": 0, \"device\": %d, \"context\": %" PRId64 ",      \"stream\": %" PRId64
             ", \"correlation\": %" PRId64 ",      \"registers per thread\": %" PRId64
             ",      \"shared memory\": %" PRId64 ",      \"blocks per SM\": %f,      \"warps per SM\": %f,"
             "      \"grid\": [%d, %d, %d],      \"block\": [%d, %d, %d],      \"est. achieved occupancy %%\": %d",
             c->device, c->context_id, stream_id(g, ctx, stream), corr, kk->registers,
             kk->static_smem + kk->dynamic_smem, (double)blocks_per_sm, (double)warps_per_sm, kk->grid[0],
             kk->grid[1], kk->grid[2], kk->block[0], kk->block[1], kk->block[2],
             (int)(0.5 + (double)occupancy * 100.0));
        event_tail(k);
        gpu_flow(g, &timed, ctx, stream, corr);
    }
}

void kineto_memcpy(struct gen *g, const struct thread *th, const struct gpu_span *s, int ctx, int stream,
                   int64_t corr, int64_t bytes, int copy_kind, int src_kind, int dst_kind, int dst_device)
{
    struct kineto *k = g->kin;
    if (!k || g->muted)
        return;
    const struct context *c = &g->contexts[ctx];
    char name[96];
    snprintf(name, sizeof name, "Memcpy %s (%s -> %s)", COPY_KIND_TEXT[copy_kind], MEMORY_KIND_TEXT[src_kind],
             MEMORY_KIND_TEXT[dst_kind]);
    gpu_head(g, th, "gpu_memcpy", name, s, ctx, stream);
    if (copy_kind == COPY_PTOP) /* CUPTI's peer-to-peer record (CUpti_ActivityMemcpy2) */
        emit(k,
             "      \"fromDevice\": %d, \"inDevice\": %d, \"toDevice\": %d,      \"fromContext\": %" PRId64
             ", \"inContext\": %" PRId64 ", \"toContext\": %" PRId64 ",",
             c->device, c->device, dst_device, c->context_id, c->context_id, c->context_id);
    else
        emit(k, "      \"device\": %d, \"context\": %" PRId64 ",", c->device, c->context_id);
    emit(k, "      \"stream\": %" PRId64 ", \"correlation\": %" PRId64 ",      \"bytes\": %" PRId64
            ", \"memory bandwidth (GB/s)\": ",
         stream_id(g, ctx, stream), corr, bytes);
    emit_bandwidth(k, bytes, s);
    event_tail(k);
    gpu_flow(g, s, ctx, stream, corr);
}

void kineto_memset(struct gen *g, const struct thread *th, const struct gpu_span *s, int ctx, int stream,
                   int64_t corr, int64_t bytes, int mem_kind)
{
    struct kineto *k = g->kin;
    if (!k || g->muted)
        return;
    const struct context *c = &g->contexts[ctx];
    char name[64];
    snprintf(name, sizeof name, "Memset (%s)", MEMORY_KIND_TEXT[mem_kind]);
    gpu_head(g, th, "gpu_memset", name, s, ctx, stream);
    emit(k,
         "      \"device\": %d, \"context\": %" PRId64 ",      \"stream\": %" PRId64 ", \"correlation\": %" PRId64
         ",      \"bytes\": %" PRId64 ", \"memory bandwidth (GB/s)\": ",
         c->device, c->context_id, stream_id(g, ctx, stream), corr, bytes);
    emit_bandwidth(k, bytes, s);
    event_tail(k);
    gpu_flow(g, s, ctx, stream, corr);
}

/* A push/pop NVTX range with its end, as the user_annotation that torch.profiler.record_function
 * writes; one opened through kineto_push() keeps the External id its calls got. */
void kineto_annotation(struct gen *g, const struct nvtx_row *r)
{
    struct kineto *k = g->kin;
    if (!k || r->event_type != NVTX_PUSH_POP || !r->has_end)
        return;
    int64_t external_id = r->external_id ? r->external_id : ++k->next_external_id;
    event_head(k, "user_annotation", r->name->text, gtid_pid(r->gtid), gtid_tid(r->gtid), r->start, r->end);
    emit(k, "\"External id\": %" PRId64 ",\"Ev Idx\": %" PRId64, external_id, k->next_ev_idx++);
    event_tail(k);
}

/* ======================================================================================= the end */

static void metadata(struct kineto *k, const char *what, int64_t pid, int64_t tid, const char *key, bool text,
                     const char *value, int64_t number)
{
    emit(k, "\n  {\n    \"name\": \"%s\", \"ph\": \"M\", \"ts\": " US ", \"pid\": %" PRId64 ", \"tid\": %" PRId64
            ",\n    \"args\": {\n      \"%s\": ",
         what, TS_ARG(k, k->span_start), pid, tid, key);
    if (text)
        emit_string(k, value);
    else
        emit(k, "%" PRId64, number);
    emit(k, "\n    }\n  },");
}

/* The processes (the CPU's, then one per GPU), the GPU's streams that ran something, the threads; then
 * the profiler's span and the trace's tail. */
void kineto_finish(struct gen *g)
{
    struct kineto *k = g->kin;
    if (!k)
        return;
    const struct config *c = g->cfg;
    for (int p = 0; p < c->processes; p++) {
        int64_t pid = g->procs[p].pid;
        metadata(k, "process_name", pid, 0, "name", true, PROCESS_NAME, 0);
        metadata(k, "process_labels", pid, 0, "labels", true, "CPU", 0);
        metadata(k, "process_sort_index", pid, 0, "sort_index", false, NULL, pid);
    }
    for (int d = 0; d < c->devices; d++) {
        char label[32];
        snprintf(label, sizeof label, "GPU %d", d);
        metadata(k, "process_name", d, 0, "name", true, PROCESS_NAME, 0);
        metadata(k, "process_labels", d, 0, "labels", true, label, 0);
        metadata(k, "process_sort_index", d, 0, "sort_index", false, NULL, 0x1000000 + d);
    }
    for (int d = 0; d < c->devices; d++)
        for (int64_t sid = 0; sid < k->stream_slots; sid++) {
            if (!k->stream_used[d * k->stream_slots + sid])
                continue;
            char name[32];
            snprintf(name, sizeof name, "stream %" PRId64 " ", sid); /* sic: Kineto's stream name is empty */
            metadata(k, "thread_name", d, sid, "name", true, name, 0);
            metadata(k, "thread_sort_index", d, sid, "sort_index", false, NULL, sid);
        }
    for (int t = 0; t < g->nthreads; t++) {
        const struct thread *th = &g->threads[t];
        char name[64];
        if (th->index_in_process)
            snprintf(name, sizeof name, "thread %" PRId64 " (worker %d)", gtid_tid(th->gtid), th->index_in_process);
        else
            snprintf(name, sizeof name, "thread %" PRId64 " (%s)", gtid_tid(th->gtid), PROCESS_NAME);
        metadata(k, "thread_name", gtid_pid(th->gtid), gtid_tid(th->gtid), "name", true, name, 0);
        metadata(k, "thread_sort_index", gtid_pid(th->gtid), gtid_tid(th->gtid), "sort_index", false, NULL,
                 gtid_tid(th->gtid));
    }
    if (k->kernels_doubled < c->kineto_dup_kernels)
        fail("--kineto-dup-kernels %" PRId64 ": the trace has only %" PRId64 " kernels to write twice in steps of %"
             PRId64, c->kineto_dup_kernels, k->kernels_doubled, c->kernels / c->kineto_dup_kernels);
    int64_t end = g->last_time + 5000000; /* the session's end (ANALYSIS_DETAILS) */
    emit(k,
         "\n  {\n    \"ph\": \"X\", \"cat\": \"Trace\", \"ts\": " US ", \"dur\": " US
         ",\n    \"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\",\n    \"name\": \"PyTorch Profiler (0)\",\n"
         "    \"args\": {\n      \"Op count\": 0\n    }\n  },",
         TS_ARG(k, k->span_start), US_ARG(end - k->span_start));
    emit(k,
         "\n  {\n    \"name\": \"process_sort_index\", \"ph\": \"M\", \"ts\": " US
         ",\n    \"pid\": \"Spans\", \"tid\": 0,\n    \"args\": {\n      \"sort_index\": 536870912\n    }\n  },",
         TS_ARG(k, k->span_start));
    emit(k,
         "\n  {\n    \"name\": \"Iteration Start: PyTorch Profiler\", \"ph\": \"i\", \"s\": \"g\",\n"
         "    \"pid\": \"Traces\", \"tid\": \"Trace PyTorch Profiler\", \"ts\": " US "\n  },",
         TS_ARG(k, k->span_start));
    emit(k,
         "\n  {\n    \"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\",\n"
         "    \"pid\": \"\", \"tid\": \"\", \"ts\": " US "\n  }\n  ],",
         TS_ARG(k, end));
    emit(k,
         "\n  \"traceName\": \"nsysgen-seed%" PRIu64 ".pt.trace.json\",\n  \"displayTimeUnit\": \"ms\",\n"
         "  \"baseTimeNanoseconds\": %" PRId64 "\n}\n",
         c->seed, session_start_utc_ns(g));
    flush_buffer(k);
    int rc = gzclose(k->out);
    k->out = NULL;
    if (rc != Z_OK)
        fail("closing the Kineto trace %s: %s", c->kineto_path, rc == Z_ERRNO ? strerror(errno) : "zlib error");
    free(k->buf);
    free(k->threads);
    free(k->stream_used);
    free(k);
    g->kin = NULL;
}
