/* What an export holds before its first event: the reserved strings, the ENUM_* tables, the metadata,
 * the processes, threads, contexts and GPUs, every name the events will use, and each process's
 * first rows. Also the session's end (ANALYSIS_DETAILS), written last. */
#include <time.h>

#include "nsysgen.h"

/* The fixed strings that real exports put first into StringIds. */
static const char *const RESERVED_STRINGS[] = {"[Unknown]", "[kernel.kallsyms]", "[Max depth]", "[Broken backtraces]",
                                               "[Called from Java]"};

static const char *const GPU_BUS_IDS[] = {"0000:18:00.0", "0000:2A:00.0", "0000:3A:00.0", "0000:5D:00.0",
                                          "0000:9A:00.0", "0000:AB:00.0", "0000:BA:00.0", "0000:DB:00.0"};

/* Threads that nsys and CUDA add to a traced process; named in ThreadNames, no events. */
static const struct {
    const char *name;
    int priority;
} HELPER_THREADS[] = {{"[NSys]", 10}, {"[NSys Comms]", 10}, {"cuda-EvtHandlr", 20}, {"CUPTI worker thread", 10}};

static void write_name_value(struct gen *g, struct table_writer *w, const char *name, const char *value)
{
    row_begin(g->cfg, w);
    put_text(w, name);
    put_text(w, value);
    row_end(w);
}

static void format_utc(char *buf, size_t size, int64_t epoch_s)
{
    time_t t = (time_t)epoch_s;
    struct tm tm;
    if (!gmtime_r(&t, &tm) || !strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm))
        fail("internal error: cannot format a date");
}

/* The session starts on a fixed date, moved by the seed; never the clock, so output is reproducible. */
static int64_t session_epoch_s(const struct gen *g) { return INT64_C(1718181065) + (int64_t)(g->cfg->seed % 86400); }

/* TARGET_INFO_SESSION_START_TIME.utcEpochNs: the wall clock at the run's time 0. */
int64_t session_start_utc_ns(const struct gen *g)
{
    return session_epoch_s(g) * INT64_C(1000000000) + (int64_t)(g->cfg->seed % 1000000000);
}

static void write_metadata(struct gen *g)
{
    char seed_file[64], utc[32], export_utc[32];
    snprintf(seed_file, sizeof seed_file, "nsysgen-seed%" PRIu64 ".nsys-rep", g->cfg->seed);
    format_utc(utc, sizeof utc, session_epoch_s(g));
    format_utc(export_utc, sizeof export_utc, session_epoch_s(g) + 120);
    static const char *const FIXED[][2] = {
        {"EXPORT_PRODUCT_NAME", "NVIDIA Nsight Systems"},
        {"EXPORT_PRODUCT_VERSION", "2024.2.3.38"},
        {"EXPORT_PRODUCT_DATE", "2024.2"},
        {"EXPORT_SCHEMA_VERSION", "3.11.0"},
        {"EXPORT_SCHEMA_VERSION_MAJOR", "3"},
        {"EXPORT_SCHEMA_VERSION_MINOR", "11"},
        {"EXPORT_SCHEMA_VERSION_MICRO", "0"},
        {"EXPORT_PLATFORM", "linux-desktop"},
        {"EXPORT_ARCH", "x64"},
    };
    for (size_t i = 0; i < COUNT_OF(FIXED); i++)
        write_name_value(g, &g->w_meta_export, FIXED[i][0], FIXED[i][1]);
    write_name_value(g, &g->w_meta_export, "EXPORT_TIME_UTC", export_utc);
    write_name_value(g, &g->w_meta_export, "EXPORT_TIME_LOCAL", export_utc);
    write_name_value(g, &g->w_meta_export, "EXPORT_HOST", "nsysgen");
    write_name_value(g, &g->w_meta_export, "EXPORT_PARAM_INPUT_FILE", seed_file);
    write_name_value(g, &g->w_meta_export, "EXPORT_PARAM_OUTUPT_FILE", "report1.sqlite"); /* sic, as nsys spells it */
    write_name_value(g, &g->w_meta_export, "EXPORT_PARAM_LAZY", "true");
    write_name_value(g, &g->w_meta_export, "EXPORT_PARAM_TIME_NORMALIZE", "false");

    write_name_value(g, &g->w_meta_capture, "DEVICE_ID", "Local (CLI)");
    write_name_value(g, &g->w_meta_capture, "CAPTURE_EVENT_TYPE", "Cuda");
    write_name_value(g, &g->w_meta_capture, "CAPTURE_EVENT_TYPE", "NvtxEvents");
    write_name_value(g, &g->w_meta_capture, "CAPTURE_EVENT_TYPE", "OSRuntime");
    write_name_value(g, &g->w_meta_capture, "PROCESS_0:COMMAND", "./" PROCESS_NAME);

    struct table_writer *w = &g->w_session;
    row_begin(g->cfg, w);
    put_int(w, session_start_utc_ns(g));
    put_text(w, utc);
    put_text(w, utc);
    row_end(w);
}

/* An H100 SXM, as nsys and cudaGetDeviceProperties describe it. */
const struct gpu_model GPU_MODEL = {
    .name = "NVIDIA H100 80GB HBM3",
    .total_memory = INT64_C(85029158912),
    .sm_count = 132,
    .compute_major = 9,
    .compute_minor = 0,
    .max_threads_per_block = 1024,
    .max_warps_per_sm = 64,
    .max_blocks_per_sm = 32,
    .max_regs_per_block = 65536,
    .max_regs_per_sm = 65536,
    .warp_size = 32,
    .max_shmem_per_block = 49152,
    .max_shmem_per_block_optin = 232448,
    .max_shmem_per_sm = 233472,
};

static void write_gpu_info(struct gen *g, int device)
{
    char uuid[40], bus[16];
    struct rng r;
    rng_seed(&r, g->cfg->seed * 131 + (uint64_t)device); /* its own stream: GPUs do not shift the content */
    uint64_t a = rng_next(&r), b = rng_next(&r);
    snprintf(uuid, sizeof uuid, "%08x-%04x-%04x-%04x-%012" PRIx64, (unsigned)(a >> 32), (unsigned)(a >> 16) & 0xffff,
             (unsigned)a & 0xffff, (unsigned)(b >> 48), b & UINT64_C(0xffffffffffff));
    if (device < (int)COUNT_OF(GPU_BUS_IDS))
        snprintf(bus, sizeof bus, "%s", GPU_BUS_IDS[device]);
    else
        snprintf(bus, sizeof bus, "0000:%02X:00.0", (unsigned)(device & 0xff));
    const struct gpu_model *m = &GPU_MODEL;
    const int64_t FIGURES[] = {
        /* revision .. smMinor, in schema order */
        161, 0, 65536, 4, m->max_regs_per_block, m->max_shmem_per_block, m->max_shmem_per_block_optin,
        m->max_shmem_per_sm, m->max_regs_per_sm, m->warp_size, 3, m->max_warps_per_sm, m->max_blocks_per_sm,
        m->max_threads_per_block, 1024, 1024, 64, 2147483647, 65535, 65535, m->compute_major, m->compute_minor,
        m->compute_major, m->compute_minor};
    struct table_writer *w = &g->w_gpu_info;
    row_begin(g->cfg, w);
    put_int(w, (int64_t)GLOBAL_VM_BITS); /* vmId */
    put_int(w, device);
    put_text(w, m->name);
    put_text(w, bus);
    put_int(w, 1);                        /* isDiscrete */
    put_int(w, 52428800);                 /* l2CacheSize */
    put_int(w, m->total_memory);          /* totalMemory */
    put_int(w, INT64_C(3352320000000));   /* memoryBandwidth */
    put_int(w, 1980000000);               /* clockRate */
    put_int(w, m->sm_count);              /* smCount */
    put_int(w, device);                   /* pwGpuId */
    put_text(w, uuid);
    put_int(w, 0);                        /* luid */
    put_text(w, "GH100");
    put_int(w, device);                   /* cuDevice */
    put_null(w);                          /* ctxswDevPath */
    put_null(w);                          /* ctrlDevPath */
    for (size_t i = 0; i < COUNT_OF(FIGURES); i++)
        put_int(w, FIGURES[i]);
    row_end(w);
}

static void write_context_info(struct gen *g, int ctx)
{
    const struct context *c = &g->contexts[ctx];
    const struct process *p = &g->procs[c->process];
    struct table_writer *w = &g->w_context_info;
    row_begin(g->cfg, w);
    put_int(w, c->first_stream_id); /* nullStreamId */
    put_int(w, 0);                  /* hwId */
    put_int(w, VM_ID);
    put_int(w, p->pid);
    put_int(w, c->device);
    put_int(w, c->context_id);
    put_null(w); /* parentContextId */
    put_null(w); /* isGreenContext */
    row_end(w);
    for (int s = 0; s < g->cfg->streams; s++) {
        struct table_writer *ws = &g->w_stream_info;
        row_begin(g->cfg, ws);
        put_int(ws, stream_id(g, ctx, s));
        put_int(ws, 0); /* hwId */
        put_int(ws, VM_ID);
        put_int(ws, p->pid);
        put_int(ws, c->context_id);
        put_int(ws, 0);          /* priority */
        put_int(ws, s ? 2 : 3); /* ENUM_CUPTI_STREAM_TYPE: non-blocking, null stream */
        row_end(ws);
    }
}

static void write_thread_name(struct gen *g, uint64_t gtid, const char *name, int priority)
{
    struct table_writer *w = &g->w_thread_names;
    row_begin(g->cfg, w);
    put_int(w, intern(g, name));
    put_int(w, priority);
    put_int(w, (int64_t)gtid);
    row_end(w);
}

static uint64_t global_tid(int64_t pid, int64_t tid) { return GLOBAL_VM_BITS | (uint64_t)pid << 24 | (uint64_t)tid; }

/* With at least as many processes as devices each process uses one device (MPI style); otherwise the
 * devices are shared out so that every one is used. */
static bool process_uses_device(const struct config *c, int p, int d)
{
    return c->processes >= c->devices ? d == p % c->devices : d % c->processes == p;
}

static void setup_processes(struct gen *g)
{
    const struct config *c = g->cfg;
    g->procs = xcalloc((size_t)c->processes, sizeof *g->procs);
    g->contexts = xcalloc((size_t)(c->processes * c->devices), sizeof *g->contexts);
    g->nthreads = (int)(c->processes * c->threads);
    g->threads = xcalloc((size_t)g->nthreads, sizeof *g->threads);
    int64_t corr_span = (2 * (c->kernels + c->memcpys + c->memsets + c->other_api) + 1000) * c->corr_stride;
    for (int pi = 0; pi < c->processes; pi++) {
        struct process *p = &g->procs[pi];
        /* MPI ranks start close together; the one process of --ranks has its rank's pid */
        p->pid = FIRST_PID + (int64_t)(c->seed % 1000) * 41 + (c->ranks ? c->rank : pi) * 17;
        p->gpid = global_tid(p->pid, 0);
        p->next_corr = 1 + (c->collide ? 0 : pi * corr_span);
        p->next_grid_id = 1;
        p->next_range_id = 1;
        p->start_time = 100000000 + rng_below(&g->rng, 20000000);
        p->backtrace = pi < c->backtrace_processes;
        p->first_context = g->ncontexts;
        for (int d = 0; d < c->devices; d++) {
            if (!process_uses_device(c, pi, d))
                continue;
            struct context *ctx = &g->contexts[g->ncontexts];
            ctx->process = pi;
            ctx->device = d;
            ctx->context_id = 1 + p->ncontexts;
            ctx->first_stream_id = 7 + p->ncontexts * c->streams;
            p->ncontexts++;
            g->ncontexts++;
        }
        p->first_thread = pi * (int)c->threads;
        for (int t = 0; t < c->threads; t++) {
            struct thread *th = &g->threads[p->first_thread + t];
            th->process = pi;
            th->index_in_process = t;
            th->gtid = global_tid(p->pid, t ? p->pid + 8 + t : p->pid);
            th->now = p->start_time + (t ? rng_range(&g->rng, 2000000, 5000000) : 0);
        }
    }
}

static void write_processes(struct gen *g)
{
    const struct config *c = g->cfg;
    for (int pi = 0; pi < c->processes; pi++) {
        const struct process *p = &g->procs[pi];
        struct table_writer *w = &g->w_processes;
        row_begin(c, w);
        put_int(w, (int64_t)p->gpid);
        put_int(w, p->pid);
        put_text(w, "./" PROCESS_NAME);
        row_end(w);
        for (int t = 0; t < c->threads; t++) {
            char name[32];
            snprintf(name, sizeof name, "worker %d", t);
            write_thread_name(g, g->threads[p->first_thread + t].gtid, t ? name : PROCESS_NAME, 20);
        }
        for (size_t h = 0; h < COUNT_OF(HELPER_THREADS); h++)
            write_thread_name(g, global_tid(p->pid, p->pid + 1 + (int64_t)h), HELPER_THREADS[h].name,
                              HELPER_THREADS[h].priority);
    }
    for (int ctx = 0; ctx < g->ncontexts; ctx++)
        write_context_info(g, ctx);
    for (int d = 0; d < c->devices; d++)
        write_gpu_info(g, d);
}

/* Per process, at its start: the NVTX domains and the OS runtime "profiling started" marker (a
 * zero-length eventClass 31 row, as nsys writes it; osrt_sum ignores it). */
static void write_process_prologue(struct gen *g, int pi)
{
    const struct process *p = &g->procs[pi];
    struct thread *main_thread = &g->threads[p->first_thread];
    if (g->cfg->osrt_calls > 0) {
        struct table_writer *w = &g->w_osrt;
        row_begin(g->cfg, w);
        put_int(w, p->start_time - 2000000);
        put_int(w, p->start_time - 2000000);
        put_int(w, EVENT_CLASS_OSRT_START);
        put_int(w, (int64_t)p->gpid);
        put_int(w, intern(g, "OS runtime libraries profiling started"));
        put_int(w, 0);
        put_null(w); /* nestingLevel */
        put_int(w, 0);
        row_end(w);
    }
    if (g->cfg->nvtx_ranges > 0 || g->cfg->launch_ranges > 0) {
        for (size_t d = 1; d < COUNT_OF(NVTX_DOMAINS); d++) {
            struct nvtx_name domain = {NVTX_DOMAINS[d], (int)d, false};
            write_nvtx_row(g, &(struct nvtx_row){.event_type = NVTX_DOMAIN_CREATE, .start = main_thread->now,
                                                 .name = &domain, .gtid = main_thread->gtid});
            main_thread->now += rng_range(&g->rng, 1000, 3000);
        }
    }
}

/* Host events are dealt to threads in turn; each thread's quota decides how its NVTX ranges spread. */
static void setup_quotas(struct gen *g)
{
    const struct config *c = g->cfg;
    g->events_total = c->kernels + c->memcpys + c->memsets + c->other_api + c->osrt_calls;
    g->gpu_ops_left = c->kernels + c->memcpys + c->memsets;
    g->zero_durations_left = min64(c->zero_durations, g->gpu_ops_left);
    for (int t = 0; t < g->nthreads; t++) {
        struct thread *th = &g->threads[t];
        th->events_left = g->events_total / g->nthreads + (t < g->events_total % g->nthreads);
        th->ranges_left = c->nvtx_ranges / g->nthreads + (t < c->nvtx_ranges % g->nthreads);
    }
}

/* The order of these steps is part of the output: StringIds ids follow first use, and the pages of the
 * file go to tables in the order their rows are written. */
void setup(struct gen *g)
{
    const struct config *c = g->cfg;
    for (size_t i = 0; i < COUNT_OF(RESERVED_STRINGS); i++)
        intern(g, RESERVED_STRINGS[i]);
    if (c->enums)
        write_enum_tables();
    write_metadata(g);
    setup_processes(g);
    g->lane_free = xcalloc((size_t)(c->overlap ? g->ncontexts * c->streams : c->devices), sizeof(int64_t));
    g->device_busy_until = xcalloc((size_t)c->devices, sizeof(int64_t));
    g->next_osrt_callchain = 1;
    g->next_migration_address = INT64_C(0x7f5a40000000);
    write_processes(g);
    setup_cuda_api_names(g);
    setup_osrt_names(g);
    setup_kernel_names(g);
    setup_kernel_body(g);
    setup_frame_strings(g);
    setup_nvtx_strings(g);
    setup_quotas(g);
    launch_ranges_setup(g);
    for (int pi = 0; pi < c->processes; pi++)
        write_process_prologue(g, pi);
}

/* The session ends 5 ms after the last event: written once every other row has noted its time. */
void write_analysis_details(struct gen *g)
{
    int64_t duration = g->last_time + 5000000;
    struct table_writer *w = &g->w_analysis;
    row_begin(g->cfg, w);
    put_int(w, (int64_t)GLOBAL_VM_BITS);
    put_int(w, duration);
    put_int(w, 0);
    put_int(w, duration);
    row_end(w);
}

