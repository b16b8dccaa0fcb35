/* The host events of the run, dealt to the threads in turn: CUDA calls (cuda.c) and OS runtime calls
 * (OSRT_API, with OSRT_CALLCHAINS for long ones), with NVTX ranges around them (nvtx.c). */
#include "nsysgen.h"

enum osrt_result { RET_ZERO, RET_BYTES, RET_FD, RET_READY, RET_TIMEOUT };

struct osrt_call {
    const char *name;
    int64_t lo, hi;
    enum osrt_result result;
    int weight;
};

static const struct osrt_call OSRT_CALLS[] = {
    {"pthread_mutex_lock", 1000, 6000, RET_ZERO, 6},
    {"pthread_cond_timedwait", 50000, 2000000, RET_TIMEOUT, 2},
    {"poll", 10000, 1000000, RET_READY, 4},
    {"ioctl", 2000, 60000, RET_ZERO, 6},
    {"read", 2000, 40000, RET_BYTES, 3},
    {"write", 3000, 30000, RET_BYTES, 2},
    {"fopen", 8000, 40000, RET_ZERO, 1},
    {"fclose", 3000, 10000, RET_ZERO, 1},
    {"mmap64", 4000, 20000, RET_ZERO, 1},
    {"munmap", 5000, 30000, RET_ZERO, 1},
    {"open64", 5000, 25000, RET_FD, 1},
    {"sem_timedwait", 100000, 5000000, RET_TIMEOUT, 1},
    {"sched_yield", 1184, 1184, RET_ZERO, 2},
};

/* nsys takes a backtrace of an OS runtime call when it lasts at least this long (its default). */
#define OSRT_BACKTRACE_THRESHOLD_NS 80000

/* struct gen keeps the name of each row (nsysgen.h) */
_Static_assert(COUNT_OF(OSRT_CALLS) == OSRT_CALL_COUNT, "OSRT_CALL_COUNT is not the rows of OSRT_CALLS");

/* ======================================================================================= timing */

/* Between two host events: mostly a few µs, sometimes a stretch of CPU work. */
int64_t host_gap(struct gen *g)
{
    if (rng_one_in(&g->rng, 64))
        return rng_range(&g->rng, 50000, 400000);
    return rng_range(&g->rng, 1000, 15000);
}

/* Draws one of n kinds with probability proportional to what is left of each, so every count is
 * met exactly and the kinds are mixed all along the run. */
static int pick_by_remaining(struct rng *r, int64_t *left, int n)
{
    int64_t total = 0;
    for (int i = 0; i < n; i++)
        total += left[i];
    int64_t x = rng_below(r, total);
    for (int i = 0; i < n; i++) {
        if (x < left[i]) {
            left[i]--;
            return i;
        }
        x -= left[i];
    }
    return -1;
}

/* ======================================================================================= OS runtime calls */

void setup_osrt_names(struct gen *g)
{
    int weights[32];
    for (size_t i = 0; i < COUNT_OF(OSRT_CALLS); i++) {
        g->osrt_name[i] = intern(g, OSRT_CALLS[i].name);
        weights[i] = OSRT_CALLS[i].weight;
    }
    weighted_init(&g->osrt_pick, weights, COUNT_OF(OSRT_CALLS));
}

static void write_osrt_frame(struct gen *g, int64_t id, int64_t symbol, int64_t module, bool unresolved, int64_t ip,
                             int depth)
{
    struct table_writer *w = &g->w_osrt_callchains;
    row_begin(g->cfg, w);
    put_int(w, id);
    put_int(w, symbol);
    put_int(w, module);
    put_null(w); /* kernelMode */
    put_null(w); /* thumbCode */
    put_int_or_null(w, unresolved, 1);
    put_null(w); /* specialEntry */
    put_int(w, ip);
    put_null(w); /* unwindMethod */
    put_int(w, depth);
    row_end(w);
}

static int64_t write_osrt_callchain(struct gen *g, int64_t name_id)
{
    int64_t id = g->next_osrt_callchain++;
    write_osrt_frame(g, id, name_id, g->mod_libc, false, INT64_C(0x7f3a3a31e9a0) + 16 * (name_id % 64), 0);
    write_osrt_frame(g, id, g->sym_cuda_internal, g->mod_cuda, true, INT64_C(0x7f3a3b83c1a4), 1);
    write_osrt_frame(g, id, g->sym_start_thread, g->mod_libc, false, INT64_C(0x7f3a3a294ac3), 2);
    write_osrt_frame(g, id, g->sym_clone, g->mod_libc, false, INT64_C(0x7f3a3a326850), 3);
    return id;
}

static int64_t osrt_result(struct gen *g, enum osrt_result r)
{
    switch (r) {
    case RET_BYTES: return pick_int(g, (const int64_t[]){64, 4096, 4096, 65536}, 4);
    case RET_FD: return rng_range(&g->rng, 5, 40);
    case RET_READY: return rng_below(&g->rng, 2);
    case RET_TIMEOUT: return rng_one_in(&g->rng, 3) ? 110 : 0; /* ETIMEDOUT */
    case RET_ZERO:
    default: return 0;
    }
}

static void emit_osrt(struct gen *g, struct thread *th)
{
    size_t i = weighted_pick(g, &g->osrt_pick);
    const struct osrt_call *c = &OSRT_CALLS[i];
    /* skewed towards short calls: the product of two uniform draws */
    int64_t span = c->hi - c->lo;
    int64_t u = rng_below(&g->rng, span + 1);
    int64_t v = rng_below(&g->rng, span + 1);
    int64_t dur = c->lo + (span ? u * v / span : 0);
    int64_t callchain = dur >= OSRT_BACKTRACE_THRESHOLD_NS ? write_osrt_callchain(g, g->osrt_name[i]) : 0;
    struct table_writer *w = &g->w_osrt;
    row_begin(g->cfg, w);
    put_int(w, th->now);
    put_int(w, th->now + dur);
    put_int(w, EVENT_CLASS_OS_RUNTIME);
    put_int(w, (int64_t)th->gtid);
    put_int(w, g->osrt_name[i]);
    put_int(w, osrt_result(g, c->result));
    put_int(w, 0); /* nestingLevel */
    put_int(w, callchain);
    row_end(w);
    th->now += dur;
    note_time(g, th->now);
}

/* ======================================================================================= run */

static void report_progress(const struct gen *g, int64_t done)
{
    if (g->cfg->quiet || g->events_total < 1000000)
        return;
    int64_t step = g->events_total / 10;
    if (done % step == 0 || done == g->events_total)
        fprintf(stderr, "nsysgen: %s: %3" PRId64 "%% (%" PRId64 " of %" PRId64 " host events)\n", g_out.shown,
                done * 100 / g->events_total, done, g->events_total);
}

void run_host_events(struct gen *g)
{
    const struct config *c = g->cfg;
    int64_t left[EV_KINDS] = {c->kernels, c->memcpys, c->memsets, c->other_api, c->osrt_calls};
    for (int64_t j = 0; j < g->events_total; j++) {
        struct thread *th = &g->threads[j % g->nthreads];
        nvtx_before_event(g, th);
        enum event_kind kind = (enum event_kind)pick_by_remaining(&g->rng, left, EV_KINDS);
        launch_ranges_before(g, th, kind);
        switch (kind) {
        case EV_KERNEL: emit_kernel_launch(g, th); break;
        case EV_MEMCPY: emit_memcpy(g, th); break;
        case EV_MEMSET: emit_memset(g, th); break;
        case EV_OTHER_API: emit_other_api(g, th); break;
        case EV_OSRT: emit_osrt(g, th); break;
        case EV_KINDS:
        default: fail("internal error: no event kind left");
        }
        th->events_left--;
        launch_ranges_after(g, th, kind);
        nvtx_after_event(g, th);
        th->now += host_gap(g);
        report_progress(g, j + 1);
    }
    launch_ranges_finish(g);
    for (int t = 0; t < g->nthreads; t++)
        nvtx_finish_thread(g, &g->threads[t]);
}

