/* --um, --openmp, --openacc and --wddm add the rows of the unified memory, OpenMP, OpenACC and WDDM
 * reports after the host events, from a random stream of their own: an export made without them is
 * byte for byte what it was before these options existed. */
#include "nsysgen.h"

/* weighted_pick() from this file's own random stream. */
static size_t weighted_pick_rng(struct rng *r, struct weighted_table *t)
{
    if (t->seq < (int64_t)t->count)
        return (size_t)t->seq++;
    t->seq++;
    int64_t v = rng_below(r, t->cumulative[t->count - 1]);
    size_t i = 0;
    while (t->cumulative[i] <= v)
        i++;
    return i;
}

struct extra_gen {
    struct gen *g;
    struct rng rng;
    int64_t now; /* these rows' clock */
    struct table_writer w_cpu_faults, w_gpu_faults, w_omp[5], w_acc[3], w_wddm_contexts, w_queue_start,
        w_queue_stop, w_dma_start, w_dma_stop;
};

/* A thread of the run, in turn; its process. */
static const struct thread *extra_thread(const struct extra_gen *x, int64_t i)
{
    return &x->g->threads[i % x->g->nthreads];
}

static const struct process *extra_process(const struct extra_gen *x, int64_t i)
{
    return &x->g->procs[extra_thread(x, i)->process];
}

static int64_t extra_tick(struct extra_gen *x, int64_t lo, int64_t hi)
{
    x->now += rng_range(&x->rng, lo, hi);
    note_time(x->g, x->now);
    return x->now;
}

/* ---- unified memory: migrations and page faults over a few pages per process ---- */

enum um_event { UM_HTOD, UM_DTOH, UM_CPU_FAULT, UM_GPU_FAULT, UM_EVENTS };
static const int UM_WEIGHTS[UM_EVENTS] = {35, 20, 25, 20};
#define UM_PAGE INT64_C(0x10000)
static const int64_t UM_CPU_PCS[] = {INT64_C(0x55d4c3a1b2c0), INT64_C(0x55d4c3a1b31c), INT64_C(0x55d4c3a1c004),
                                     INT64_C(0x7f1e22a4f8d0)};

/* A page of the process: few enough that addresses repeat across migrations and faults. */
static int64_t um_page(struct extra_gen *x, const struct process *p, int64_t pages)
{
    int64_t base = INT64_C(0x7f3a00000000) + (int64_t)(p - x->g->procs) * INT64_C(0x40000000);
    return base + rng_below(&x->rng, pages) * UM_PAGE;
}

static void um_migration(struct extra_gen *x, const struct process *p, int64_t addr, bool to_device)
{
    struct gen *g = x->g;
    int64_t bytes = MIGRATION_BYTES[rng_below(&x->rng, COUNT_OF(MIGRATION_BYTES))];
    int64_t start = extra_tick(x, 500, 20000);
    int64_t end = start + bytes / 12 + rng_range(&x->rng, 300, 3000);
    note_time(g, end);
    struct table_writer *w = &g->w_memcpy;
    row_begin(g->cfg, w);
    put_int(w, start);
    put_int(w, end);
    put_int(w, g->contexts[p->first_context].device);
    put_int(w, 0); /* contextId */
    put_null(w);   /* greenContextId */
    put_int(w, 0); /* streamId */
    put_int(w, 0); /* correlationId */
    put_int(w, (int64_t)p->gpid);
    put_int(w, bytes);
    put_int(w, to_device ? COPY_UVM_HTOD : COPY_UVM_DTOH);
    put_null(w); /* deprecatedSrcId */
    put_int(w, MEM_UNKNOWN);
    put_int(w, MEM_UNKNOWN);
    for (int i = 0; i < 4; i++)
        put_null(w); /* src/dst device and context */
    put_int(w, to_device ? 2 : 4); /* migrationCause: page fault, eviction */
    put_null(w);                   /* graphNodeId */
    put_int(w, addr);
    row_end(w);
}

static void um_cpu_fault(struct extra_gen *x, const struct process *p, int64_t addr)
{
    struct gen *g = x->g;
    int64_t pc = UM_CPU_PCS[rng_below(&x->rng, COUNT_OF(UM_CPU_PCS))];
    char text[32];
    snprintf(text, sizeof text, "0x%" PRIx64, pc);
    int64_t instruction = intern(g, text);
    int64_t module = intern(g, MODULE_APP);
    struct table_writer *w = &x->w_cpu_faults;
    row_begin(g->cfg, w);
    put_int(w, extra_tick(x, 500, 20000));
    put_int(w, (int64_t)p->gpid);
    put_int(w, addr);
    put_int(w, pc);
    put_int(w, instruction);
    put_int(w, module);
    put_int(w, 0); /* unresolvedFaultPc */
    row_end(w);
}

static void um_gpu_fault(struct extra_gen *x, const struct process *p, int64_t addr)
{
    struct gen *g = x->g;
    int64_t start = extra_tick(x, 500, 20000);
    int64_t end = start + rng_range(&x->rng, 1000, 30000);
    int64_t faults = rng_range(&x->rng, 1, 16);
    int64_t access = rng_range(&x->rng, 1, 3);
    note_time(g, end);
    struct table_writer *w = &x->w_gpu_faults;
    row_begin(g->cfg, w);
    put_int(w, start);
    put_int(w, end);
    put_int(w, (int64_t)p->gpid);
    put_int(w, g->contexts[p->first_context].device);
    put_int(w, addr);
    put_int(w, faults);
    put_int(w, access);
    row_end(w);
}

static void write_um(struct extra_gen *x)
{
    int64_t n = x->g->cfg->um_events;
    int64_t pages = max64(3, n / 6);
    struct weighted_table pick = {0};
    weighted_init(&pick, UM_WEIGHTS, UM_EVENTS);
    for (int64_t i = 0; i < n; i++) {
        const struct process *p = extra_process(x, i);
        int64_t addr = um_page(x, p, pages);
        switch ((enum um_event)weighted_pick_rng(&x->rng, &pick)) {
        case UM_HTOD: um_migration(x, p, addr, true); break;
        case UM_DTOH: um_migration(x, p, addr, false); break;
        case UM_CPU_FAULT: um_cpu_fault(x, p, addr); break;
        case UM_GPU_FAULT: um_gpu_fault(x, p, addr); break;
        case UM_EVENTS:
        default: fail("internal error: no unified memory event");
        }
    }
}

/* ---- OpenMP: regions of five kinds, each in its own table ---- */

#define OPENMP_CLASS 78 /* TRACE_PROCESS_EVENT_OPENMP */

struct omp_event {
    int table;       /* index into w_omp */
    const char *name;
    int64_t kind;    /* the table's `kind` column (an ENUM_OPENMP_* id), 0 for none */
    int64_t min_ns, max_ns;
};

/* The same names appear in two tables (a barrier and the wait in it), as they do in captures. */
static const struct omp_event OMP_EVENTS[] = {
    {0, "parallel", 0, 50000, 900000},
    {1, "barrier_implicit", 2, 2000, 90000},
    {1, "taskwait", 5, 1000, 40000},
    {2, "barrier_implicit", 2, 1000, 80000},
    {2, "taskwait", 5, 500, 30000},
    {3, "loop", 1, 5000, 300000},
    {3, "single_executor", 3, 1000, 20000},
    {4, "task", 4, 3000, 150000},
};
static const int OMP_WEIGHTS[COUNT_OF(OMP_EVENTS)] = {3, 5, 1, 4, 1, 5, 1, 2};
/* ENUM_OPENMP_EVENT_KIND of each table's rows: Parallel, Sync region, Sync region wait, Workshare, Task */
static const int64_t OMP_TABLE_KIND[5] = {28, 30, 29, 36, 31};

static void omp_row(struct extra_gen *x, const struct thread *th, const struct omp_event *e, int64_t region)
{
    struct gen *g = x->g;
    int64_t start = extra_tick(x, 1000, 40000);
    int64_t end = start + rng_range(&x->rng, e->min_ns, e->max_ns);
    int64_t task = rng_range(&x->rng, 1, 64);
    int64_t count = rng_range(&x->rng, 1, 4096);
    int64_t name = intern(g, e->name);
    note_time(g, end);
    struct table_writer *w = &x->w_omp[e->table];
    row_begin(g->cfg, w);
    put_int(w, start);
    put_int(w, end);
    put_int(w, OPENMP_CLASS);
    put_int(w, (int64_t)th->gtid);
    put_null(w); /* correlationId: unused */
    put_int(w, name);
    put_int(w, OMP_TABLE_KIND[e->table]);
    switch (e->table) {
    case 0: put_int(w, region); put_int(w, task); break;                              /* parallelId, parentTaskId */
    case 1: case 2: case 4: put_int(w, region); put_int(w, task); put_int(w, e->kind); break; /* ..., kind */
    case 3: put_int(w, e->kind); put_int(w, region); put_int(w, task); put_int(w, count); break;
    default: fail("internal error: no OpenMP table %d", e->table);
    }
    row_end(w);
}

static void write_openmp(struct extra_gen *x)
{
    struct weighted_table pick = {0};
    weighted_init(&pick, OMP_WEIGHTS, COUNT_OF(OMP_EVENTS));
    for (int64_t i = 0; i < x->g->cfg->openmp_events; i++)
        omp_row(x, extra_thread(x, i), &OMP_EVENTS[weighted_pick_rng(&x->rng, &pick)], 1 + i / 8);
}

/* ---- OpenACC: data, launch and other events ---- */

struct acc_event {
    int table; /* 0 data, 1 launch, 2 other */
    const char *name;
    int64_t kind; /* ENUM_OPENACC_EVENT_KIND */
    int64_t min_ns, max_ns;
    int64_t line; /* of its directive; the event of the next loop nest is 40 lines down */
};

/* acc_implicit_wait comes from two tables: openacc_sum adds them up by name (with its source line). */
static const struct acc_event ACC_EVENTS[] = {
    {0, "acc_enqueue_upload", 5, 2000, 120000, 31},
    {0, "acc_enqueue_download", 6, 2000, 150000, 88},
    {0, "acc_create", 13, 500, 20000, 30},
    {0, "acc_delete", 14, 500, 10000, 95},
    {1, "acc_enqueue_launch", 4, 3000, 60000, 52},
    {1, "acc_implicit_wait", 8, 1000, 90000, 52},
    {2, "acc_compute_construct", 9, 20000, 900000, 52},
    {2, "acc_enter_data", 11, 5000, 200000, 30},
    {2, "acc_exit_data", 12, 5000, 250000, 95},
    {2, "acc_implicit_wait", 8, 1000, 70000, 52},
    {2, "acc_wait", 7, 1000, 50000, 77},
};
static const int ACC_WEIGHTS[COUNT_OF(ACC_EVENTS)] = {4, 3, 1, 1, 5, 2, 3, 1, 1, 2, 1};
static const char *const ACC_VARS[] = {"a[0:n]", "b[0:n]", "c[0:n]", "grid[0:nx*ny]"};
static const char *const ACC_FUNCS[] = {"main", "jacobi_step", "swap_grids"};

static void acc_row(struct extra_gen *x, const struct thread *th, const struct acc_event *e)
{
    struct gen *g = x->g;
    int64_t start = extra_tick(x, 1000, 40000);
    int64_t end = start + rng_range(&x->rng, e->min_ns, e->max_ns);
    int64_t line = e->line + 40 * rng_below(&x->rng, 2);
    bool no_source = rng_one_in(&x->rng, 6); /* code built without line information */
    int64_t func = intern(g, ACC_FUNCS[rng_below(&x->rng, COUNT_OF(ACC_FUNCS))]);
    int64_t bytes = COPY_BYTES[rng_below(&x->rng, 6)];
    int64_t var = intern(g, ACC_VARS[rng_below(&x->rng, COUNT_OF(ACC_VARS))]);
    int64_t gangs = rng_range(&x->rng, 1, 1024);
    int64_t name = intern(g, e->name);
    int64_t src = intern(g, "/home/user/jacobi/jacobi.c");
    const struct context *c = &g->contexts[g->procs[th->process].first_context];
    note_time(g, end);
    struct table_writer *w = &x->w_acc[e->table];
    row_begin(g->cfg, w);
    put_int(w, start);
    put_int(w, end);
    put_int(w, name);
    put_int(w, (int64_t)th->gtid);
    put_int(w, e->kind);
    put_int(w, 4); /* DeviceType: acc_device_nvidia */
    put_int(w, line);
    put_int(w, c->device);
    put_int(w, c->context_id);
    put_int(w, c->first_stream_id + 1);
    put_int_or_null(w, !no_source, src);
    put_int(w, func);
    if (e->table == 0) {
        put_int(w, bytes);
        put_int(w, var);
    } else if (e->table == 1) {
        put_int(w, gangs);
        put_int(w, 1);   /* numWorkers */
        put_int(w, 128); /* vectorLength */
        put_int(w, intern(g, "jacobi_step_42_gpu"));
    }
    row_end(w);
}

static void write_openacc(struct extra_gen *x)
{
    struct weighted_table pick = {0};
    weighted_init(&pick, ACC_WEIGHTS, COUNT_OF(ACC_EVENTS));
    for (int64_t i = 0; i < x->g->cfg->openacc_events; i++)
        acc_row(x, extra_thread(x, i), &ACC_EVENTS[weighted_pick_rng(&x->rng, &pick)]);
}

/* ---- WDDM: queue packets and the DMA packets that run them, on three contexts per process ---- */

struct wddm_queue {
    int64_t engine, node;
    const char *name;
};
static const struct wddm_queue WDDM_QUEUES[] = {{1, 0, "3D"}, {6, 2, "Copy"}, {2, 4, "Video Decode"}};
#define WDDM_NQUEUES ((int)COUNT_OF(WDDM_QUEUES))
static const int WDDM_WEIGHTS[WDDM_NQUEUES] = {6, 3, 1};

static int64_t wddm_context(const struct gen *g, const struct process *p, int q)
{
    return INT64_C(0x1F2A3B4C000) + (int64_t)(p - g->procs) * INT64_C(0x100000) + q * INT64_C(0x1000);
}

static void write_wddm_contexts(struct extra_gen *x)
{
    struct gen *g = x->g;
    for (int pi = 0; pi < g->cfg->processes; pi++)
        for (int q = 0; q < WDDM_NQUEUES; q++) {
            struct table_writer *w = &x->w_wddm_contexts;
            row_begin(g->cfg, w);
            put_int(w, wddm_context(g, &g->procs[pi], q));
            put_int(w, WDDM_QUEUES[q].engine);
            put_int(w, WDDM_QUEUES[q].node);
            put_text(w, WDDM_QUEUES[q].name);
            row_end(w);
        }
}

/* One packet: queued at submit, run as a DMA packet from dma_start to dma_stop, done at done. */
struct wddm_packet {
    const struct thread *th;
    int64_t context, engine, seq, gpu;
    int64_t submit, dma_start, dma_stop, done;
    bool finished; /* still in flight at the end of the capture otherwise */
};

static void wddm_queue_rows(struct extra_gen *x, const struct wddm_packet *k)
{
    const struct config *cfg = x->g->cfg;
    struct table_writer *w = &x->w_queue_start;
    row_begin(cfg, w);
    put_int(w, k->submit);
    put_int(w, k->submit);
    put_int(w, (int64_t)k->th->gtid);
    put_int(w, k->gpu);
    put_int(w, k->context);
    put_int(w, 4096 * (1 + k->seq % 4)); /* dmaBufferSize */
    put_int(w, INT64_C(0x2A0000000) + k->seq * 0x10000); /* dmaBuffer */
    put_int(w, INT64_C(0x3B0000000) + k->seq * 0x100);   /* queuePacket */
    put_int(w, k->seq);                                  /* progressFenceValue */
    put_int(w, 0);                                       /* packetType: render */
    put_int(w, k->seq);
    put_int(w, 1 + k->seq % 7); /* allocationListSize */
    put_int(w, k->seq % 3);     /* patchLocationListSize */
    put_int(w, 0);              /* present */
    put_int(w, k->engine);
    put_null(w); /* syncObject */
    row_end(w);
    if (!k->finished)
        return;
    w = &x->w_queue_stop;
    row_begin(cfg, w);
    put_int(w, k->done);
    put_int(w, k->done);
    put_int(w, (int64_t)k->th->gtid);
    put_int(w, k->gpu);
    put_int(w, k->context);
    put_int(w, INT64_C(0x3B0000000) + k->seq * 0x100);
    put_int(w, 0);
    put_int(w, k->seq);
    put_int(w, 0); /* preempted */
    put_int(w, 0); /* timeouted */
    put_int(w, k->engine);
    row_end(w);
}

static void wddm_dma_rows(struct extra_gen *x, const struct wddm_packet *k)
{
    const struct config *cfg = x->g->cfg;
    struct table_writer *w = &x->w_dma_start;
    row_begin(cfg, w);
    put_int(w, k->dma_start);
    put_int(w, k->dma_start);
    put_int(w, (int64_t)k->th->gtid);
    put_int(w, k->gpu);
    put_int(w, k->context);
    put_int(w, k->context + 0x10); /* queuePacketContext */
    put_int(w, k->seq);            /* uliSubmissionId */
    put_int(w, INT64_C(0x2A0000000) + k->seq * 0x10000);
    put_int(w, 0);
    put_int(w, k->seq);
    put_int(w, 0); /* quantumStatus */
    put_int(w, k->engine);
    row_end(w);
    if (!k->finished)
        return;
    w = &x->w_dma_stop;
    row_begin(cfg, w);
    put_int(w, k->dma_stop);
    put_int(w, k->dma_stop);
    put_int(w, (int64_t)k->th->gtid);
    put_int(w, k->gpu);
    put_int(w, k->context);
    put_int(w, k->seq); /* uliCompletionId */
    put_int(w, 0);
    put_int(w, k->seq);
    put_int(w, 0); /* preempted */
    put_int(w, k->engine);
    row_end(w);
}

static void write_wddm(struct extra_gen *x)
{
    struct gen *g = x->g;
    int64_t n = g->cfg->wddm_packets;
    int64_t *seq = xcalloc((size_t)(g->cfg->processes * WDDM_NQUEUES), sizeof *seq);
    int64_t *busy = xcalloc((size_t)(g->cfg->processes * WDDM_NQUEUES), sizeof *busy);
    struct weighted_table pick = {0};
    weighted_init(&pick, WDDM_WEIGHTS, WDDM_NQUEUES);
    write_wddm_contexts(x);
    for (int64_t i = 0; i < n; i++) {
        const struct thread *th = extra_thread(x, i);
        const struct process *p = &g->procs[th->process];
        int q = (int)weighted_pick_rng(&x->rng, &pick);
        size_t lane = (size_t)(th->process * WDDM_NQUEUES + q);
        struct wddm_packet k = {th, wddm_context(g, p, q), WDDM_QUEUES[q].engine, ++seq[lane],
                                g->contexts[p->first_context].device, 0, 0, 0, 0, true};
        k.submit = extra_tick(x, 2000, 300000);
        /* the GPU runs a queue's packets one at a time, so packets wait in the queue */
        k.dma_start = max64(k.submit + rng_range(&x->rng, 1000, 20000), busy[lane]);
        k.dma_stop = k.dma_start + rng_range(&x->rng, 5000, 400000);
        k.done = k.dma_stop + rng_range(&x->rng, 500, 8000);
        k.finished = i < n - 2 || !rng_one_in(&x->rng, 2);
        busy[lane] = k.dma_stop;
        note_time(g, k.done);
        wddm_queue_rows(x, &k);
        wddm_dma_rows(x, &k);
    }
    free(seq);
    free(busy);
}

void write_um_openmp_openacc_wddm(struct gen *g)
{
    const struct config *c = g->cfg;
    if (!c->um_events && !c->openmp_events && !c->openacc_events && !c->wddm_packets)
        return;
    struct extra_gen x = {
        .g = g,
        .now = g->procs[0].start_time + 1000000,
        .w_cpu_faults = WRITER("CUDA_UM_CPU_PAGE_FAULT_EVENTS"),
        .w_gpu_faults = WRITER("CUDA_UM_GPU_PAGE_FAULT_EVENTS"),
        .w_omp = {WRITER("OPENMP_EVENT_KIND_PARALLEL"),
                  WRITER("OPENMP_EVENT_KIND_SYNC_REGION"),
                  WRITER("OPENMP_EVENT_KIND_SYNC_REGION_WAIT"),
                  WRITER("OPENMP_EVENT_KIND_WORKSHARE"),
                  WRITER("OPENMP_EVENT_KIND_TASK")},
        .w_acc = {WRITER("CUPTI_ACTIVITY_KIND_OPENACC_DATA"),
                  WRITER("CUPTI_ACTIVITY_KIND_OPENACC_LAUNCH"),
                  WRITER("CUPTI_ACTIVITY_KIND_OPENACC_OTHER")},
        .w_wddm_contexts = WRITER("TARGET_INFO_WDDM_CONTEXTS"),
        .w_queue_start = WRITER("WDDM_QUEUE_PACKET_START_EVENTS"),
        .w_queue_stop = WRITER("WDDM_QUEUE_PACKET_STOP_EVENTS"),
        .w_dma_start = WRITER("WDDM_DMA_PACKET_START_EVENTS"),
        .w_dma_stop = WRITER("WDDM_DMA_PACKET_STOP_EVENTS"),
    };
    rng_seed(&x.rng, c->seed ^ UINT64_C(0x756d6f6d70616363));
    write_um(&x);
    write_openmp(&x);
    write_openacc(&x);
    write_wddm(&x);
    struct table_writer *writers[] = {&x.w_cpu_faults, &x.w_gpu_faults, &x.w_omp[0], &x.w_omp[1], &x.w_omp[2],
                                      &x.w_omp[3], &x.w_omp[4], &x.w_acc[0], &x.w_acc[1], &x.w_acc[2],
                                      &x.w_wddm_contexts, &x.w_queue_start, &x.w_queue_stop, &x.w_dma_start,
                                      &x.w_dma_stop};
    for (size_t i = 0; i < COUNT_OF(writers); i++)
        writer_close(writers[i]);
}
