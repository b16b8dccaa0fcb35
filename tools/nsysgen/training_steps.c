/* --ranks N --rank R: the export is rank R of an N-rank job; --iterations I adds the job's training
 * steps, whose timing is a model simple enough that what a multi-rank analysis should find follows
 * from the options.
 *
 * Every rank runs the same program: the same seed gives every rank the same rows outside the steps
 * (only the pid, hence the thread ids, and MPI_RANKS differ), and the same steps, kernels and calls
 * in the same order. Each export simulates the whole job (the plan of each step is drawn from a
 * stream of its own, from the seed alone) and writes the rows of its own rank.
 *
 * A step (an NVTX push/pop range `step` on the main thread, starting at S, the same on every rank):
 *   - 5 phases k, each compute kernels on the null stream (1 to 3 kernels of 30 to 120 us, back to
 *     back; the first phase starts at S + 20 us), then an NCCL collective on the last stream of the
 *     rank's device (AllReduce, AllGather, AllReduce, AllGather, SendRecv) of base duration B_k (40
 *     to 160 us);
 *   - rank r arrives at collective k when its compute of phase k ends: a(r, k). Its NCCL kernel runs
 *     from a(r, k) to E_k = max over ranks of a(r, k) + B_k: every rank's kernel of a collective ends
 *     at the same instant, so a rank's kernel lasts B_k plus its wait for the last rank;
 *   - with --nccl-overlap PCT, one compute kernel runs on the null stream from a(r, k) for
 *     floor((E_k - a(r, k)) * PCT / 100) ns: the hidden part of that NCCL kernel, the rest exposed;
 *   - phase k + 1 starts at E_k + 2 us on every rank; after the last collective a tail phase of compute
 *     kernels, then cudaDeviceSynchronize until 2 us after the tail's end (or its launches' end, if
 *     later), and the range ends 600 ns after the call returns;
 *   - the next step starts 50 us after the latest rank's range ends.
 * --slow-rank R:FACTOR makes each compute kernel of rank R (phases and tail, not the overlap kernels)
 * last floor(d * FACTOR) ns in the slow iterations (--slow-iterations, default all). So in a slow
 * iteration R arrives last at every collective, by W'(k) - W(k) (its slowed phase minus the normal
 * one, which every other rank takes): that is the lag and the skew of the collective (the lag is half
 * of it with 2 ranks, where the median is the mean of the two starts); the others' NCCL kernels last
 * B_k + W'(k) - W(k), R's B_k; and R's step lasts longer than the others' by its slowed tail. In the
 * other iterations every rank arrives at the same instant (all tie) and every step lasts the same.
 * The CPU launches each kernel (cudaLaunchKernel, 3 to 7 us, 1 to 2 us apart) well before it runs.
 * --slow-kernel lengthens a compute kernel of the run's name as it is drawn into the plan, so the
 * step's later kernels, collectives and end move with it on every rank. --step-name names the
 * ranges: `ProfilerStep#` numbers them as torch.profiler does. --same-steps gives every step the first
 * one's plan, each compute and collective duration times 0.98 to 1.02 (from a stream of its own, so
 * that a run with --slow-kernel has the same factors).
 */
#include "nsysgen.h"

static const enum nccl_collective STEP_COLLECTIVES[] = {NCCL_ALL_REDUCE, NCCL_ALL_GATHER, NCCL_ALL_REDUCE,
                                                        NCCL_ALL_GATHER, NCCL_SEND_RECV};
#define COLLECTIVES ((int)COUNT_OF(STEP_COLLECTIVES))
#define MAX_PHASE_KERNELS 3
#define MAX_LAUNCHES ((COLLECTIVES + 1) * MAX_PHASE_KERNELS + 2 * COLLECTIVES)

#define FIRST_STEP_AFTER INT64_C(1000000) /* after the rest of the run */
#define GPU_LEAD 20000                    /* from the push to the first kernel */
#define PUSH_NS 700                       /* from the push to the first launch */
#define PHASE_GAP 2000
#define SYNC_RETURN 2000
#define POP_NS 600
#define BARRIER_NS 50000

#define STEP_NAME "step"

/* Compute kernels, back to back: the phase before a collective, or the tail. */
struct phase {
    int nkernels;
    int64_t dur[MAX_PHASE_KERNELS];
    const struct kernel_name *kn[MAX_PHASE_KERNELS];
};

/* One step as every rank runs it, drawn from the plan's stream. */
struct step_plan {
    struct phase phase[COLLECTIVES + 1]; /* the last is the tail */
    int64_t nccl_base[COLLECTIVES];
    const struct kernel_name *overlap_kn[COLLECTIVES];
    int64_t launch_dur[MAX_LAUNCHES], launch_gap[MAX_LAUNCHES];
};

struct steps {
    struct gen *g;
    struct rng plan_rng; /* the steps: the seed alone, the same on every rank */
    struct rng row_rng;  /* the launch configurations of the kernel rows */
    struct rng jitter_rng; /* --same-steps: each step's factors */
    struct kernel_name nccl[NCCL_COLLECTIVE_COUNT];
    struct api_ids sync_api;
    struct thread *th;
    int ctx, compute_stream, nccl_stream;
    char range_text[224]; /* this step's range name (--step-name's 200 bytes and a number) */
    struct nvtx_name range;
};

/* Any kernel of the run that is not NCCL's: the run's first kernel name (family 0) is not. */
static const struct kernel_name *pick_compute_kernel(struct steps *x)
{
    struct gen *g = x->g;
    int64_t i = rng_below(&x->plan_rng, g->nkernel_names);
    while (kernel_is_nccl(&g->kernel_names[i]))
        i = (i + 1) % g->nkernel_names;
    return &g->kernel_names[i];
}

static void draw_plan(struct steps *x, struct step_plan *p)
{
    int launches = 0;
    for (int k = 0; k <= COLLECTIVES; k++) {
        struct phase *ph = &p->phase[k];
        ph->nkernels = (int)rng_range(&x->plan_rng, 1, MAX_PHASE_KERNELS);
        for (int j = 0; j < ph->nkernels; j++) {
            ph->dur[j] = rng_range(&x->plan_rng, 30000, 120000);
            ph->kn[j] = pick_compute_kernel(x);
            if (ph->kn[j]->slow)
                ph->dur[j] = slowed_duration(x->g->cfg, ph->dur[j]);
        }
        launches += ph->nkernels;
        if (k < COLLECTIVES) {
            p->nccl_base[k] = rng_range(&x->plan_rng, 40000, 160000);
            p->overlap_kn[k] = pick_compute_kernel(x);
            launches += 2;
        }
    }
    for (int i = 0; i < launches; i++) {
        p->launch_dur[i] = rng_range(&x->plan_rng, 3000, 7000);
        p->launch_gap[i] = rng_range(&x->plan_rng, 1000, 2000);
    }
}

/* --same-steps: the first step's plan with each compute and collective duration jittered. */
static void jitter_plan(struct steps *x, const struct step_plan *first, struct step_plan *p)
{
    *p = *first;
    for (int k = 0; k <= COLLECTIVES; k++) {
        for (int j = 0; j < p->phase[k].nkernels; j++)
            p->phase[k].dur[j] = p->phase[k].dur[j] * rng_range(&x->jitter_rng, 980, 1020) / 1000;
        if (k < COLLECTIVES)
            p->nccl_base[k] = p->nccl_base[k] * rng_range(&x->jitter_rng, 980, 1020) / 1000;
    }
}

static int64_t slowed(int64_t ns, int64_t permille) { return ns * permille / 1000; }

static int64_t phase_time(const struct phase *ph, int64_t permille)
{
    int64_t t = 0;
    for (int j = 0; j < ph->nkernels; j++)
        t += slowed(ph->dur[j], permille);
    return t;
}

static bool slow_iteration(const struct config *c, int64_t i)
{
    if (!c->slow_rank.permille)
        return false;
    for (size_t j = 0; j < c->slow_iterations.n; j++)
        if (c->slow_iterations.v[j] == i)
            return true;
    return c->slow_iterations.n == 0;
}

/* The job's instants of one step, the same on every rank: when each collective ends, when the CPU
 * has launched everything, and when the next step starts. A rank's compute is its own. */
struct step_times {
    int64_t start;
    int64_t nccl_end[COLLECTIVES];
    int64_t launches_end;
    int64_t next_start;
};

/* Rank r's instants: its arrivals and its tail's end, for its factor. */
struct rank_times {
    int64_t arrival[COLLECTIVES];
    int64_t tail_end, step_end;
};

static int64_t count_launches(const struct step_plan *p, bool overlap)
{
    int64_t n = 0;
    for (int k = 0; k <= COLLECTIVES; k++)
        n += p->phase[k].nkernels + (k < COLLECTIVES ? 1 + overlap : 0);
    return n;
}

static void rank_times(const struct step_plan *p, const struct step_times *s, int64_t permille, struct rank_times *r)
{
    int64_t t = s->start + GPU_LEAD;
    for (int k = 0; k < COLLECTIVES; k++) {
        r->arrival[k] = t + phase_time(&p->phase[k], permille);
        t = s->nccl_end[k] + PHASE_GAP;
    }
    r->tail_end = t + phase_time(&p->phase[COLLECTIVES], permille);
    r->step_end = max64(r->tail_end, s->launches_end) + SYNC_RETURN + POP_NS;
}

/* Every rank but the slow one takes the plan's times; the slow one, in a slow iteration, its own. */
static void job_times(const struct config *c, const struct step_plan *p, int64_t iteration, struct step_times *s)
{
    int64_t slow = slow_iteration(c, iteration) ? c->slow_rank.permille : 1000;
    int64_t h = s->start + PUSH_NS;
    for (int64_t i = 0; i < count_launches(p, c->nccl_overlap > 0); i++)
        h += p->launch_dur[i] + p->launch_gap[i];
    s->launches_end = h;
    int64_t t = s->start + GPU_LEAD;
    for (int k = 0; k < COLLECTIVES; k++) {
        int64_t last = t + max64(phase_time(&p->phase[k], 1000), phase_time(&p->phase[k], slow));
        s->nccl_end[k] = last + p->nccl_base[k];
        t = s->nccl_end[k] + PHASE_GAP;
    }
    struct rank_times fast, slowest;
    rank_times(p, s, 1000, &fast);
    rank_times(p, s, slow, &slowest);
    s->next_start = max64(fast.step_end, slowest.step_end) + BARRIER_NS;
}

/* One launch of this rank: its cudaLaunchKernel at host time *h, its kernel at [start, end). */
static void launch(struct steps *x, const struct step_plan *p, int *li, int64_t *h, int stream,
                   const struct kernel_name *kn, int64_t start, int64_t end)
{
    struct gen *g = x->g;
    struct process *proc = &g->procs[x->th->process];
    struct gpu_span s = {*h, *h + p->launch_dur[*li], start, end};
    *h = s.api_end + p->launch_gap[*li];
    ++*li;
    int64_t corr = proc->next_corr;
    proc->next_corr += g->cfg->corr_stride;
    write_api_call(g, x->th, &g->launch_api, s.api_start, s.api_end, corr, 0, CALLER_LAUNCH);
    write_kernel_row(g, &x->row_rng, x->th, &s, x->ctx, stream, corr, kn);
    note_time(g, end);
}

/* The launches of a phase's compute kernels from `t`, slowed by `permille`; returns its end. */
static int64_t launch_phase(struct steps *x, const struct step_plan *p, int *li, int64_t *h, const struct phase *ph,
                            int64_t t, int64_t permille)
{
    for (int j = 0; j < ph->nkernels; j++) {
        int64_t d = slowed(ph->dur[j], permille);
        launch(x, p, li, h, x->compute_stream, ph->kn[j], t, t + d);
        t += d;
    }
    return t;
}

/* Step i's range name: --step-name, numbered when it ends in '#'. */
static void name_step(struct steps *x, int64_t i)
{
    const char *name = x->g->cfg->step_name ? x->g->cfg->step_name : STEP_NAME;
    size_t len = strlen(name);
    if (len && name[len - 1] == '#')
        snprintf(x->range_text, sizeof x->range_text, "%s%" PRId64, name, i);
    else
        snprintf(x->range_text, sizeof x->range_text, "%s", name);
    x->range = (struct nvtx_name){x->range_text, 0, false};
}

/* The rows of this rank's step. */
static void write_step(struct steps *x, const struct step_plan *p, const struct step_times *s, int64_t permille)
{
    struct gen *g = x->g;
    const struct config *c = g->cfg;
    struct rank_times r;
    rank_times(p, s, permille, &r);
    int64_t external_id = kineto_push(g, x->th);
    int64_t h = s->start + PUSH_NS, t = s->start + GPU_LEAD;
    int li = 0;
    for (int k = 0; k < COLLECTIVES; k++) {
        t = launch_phase(x, p, &li, &h, &p->phase[k], t, permille);
        launch(x, p, &li, &h, x->nccl_stream, &x->nccl[STEP_COLLECTIVES[k]], t, s->nccl_end[k]);
        if (c->nccl_overlap > 0) {
            int64_t hidden = (s->nccl_end[k] - t) * c->nccl_overlap / 100;
            launch(x, p, &li, &h, x->compute_stream, p->overlap_kn[k], t, t + hidden);
        }
        t = s->nccl_end[k] + PHASE_GAP;
    }
    launch_phase(x, p, &li, &h, &p->phase[COLLECTIVES], t, permille);
    struct process *proc = &g->procs[x->th->process];
    int64_t corr = proc->next_corr;
    proc->next_corr += c->corr_stride;
    int64_t sync_end = r.step_end - POP_NS;
    write_api_call(g, x->th, &x->sync_api, h, sync_end, corr, 0, CALLER_SETUP);
    kineto_pop(g, x->th, external_id);
    write_nvtx_row(g, &(struct nvtx_row){.event_type = NVTX_PUSH_POP, .start = s->start, .has_end = true,
                                         .end = r.step_end, .name = &x->range, .gtid = x->th->gtid,
                                         .colored = true, .external_id = external_id});
    x->th->now = r.step_end;
}

void write_training_steps(struct gen *g)
{
    const struct config *c = g->cfg;
    if (c->iterations == 0)
        return;
    struct steps x = {.g = g};
    rng_seed(&x.plan_rng, c->seed ^ UINT64_C(0x7374657073706c61));
    rng_seed(&x.row_rng, c->seed ^ UINT64_C(0x7374657073726f77));
    setup_nccl_kernel_names(g, x.nccl);
    x.sync_api = intern_api(g, "cudaDeviceSynchronize_v3020", EVENT_CLASS_CUDA_RUNTIME);
    const struct process *proc = &g->procs[0];
    x.th = &g->threads[proc->first_thread];
    x.ctx = proc->first_context + (int)(c->rank % proc->ncontexts); /* rank r on GPU r, as a local rank */
    x.compute_stream = 0;
    x.nccl_stream = (int)c->streams - 1;
    rng_seed(&x.jitter_rng, c->seed ^ UINT64_C(0x7374657073616d65));
    struct step_times s = {.start = g->last_time + FIRST_STEP_AFTER};
    struct step_plan first;
    draw_plan(&x, &first);
    for (int64_t i = 0; i < c->iterations; i++) {
        struct step_plan p = first;
        if (i > 0 && c->same_steps)
            jitter_plan(&x, &first, &p);
        else if (i > 0)
            draw_plan(&x, &p);
        job_times(c, &p, i, &s);
        bool slow = slow_iteration(c, i) && c->slow_rank.rank == c->rank;
        name_step(&x, i);
        write_step(&x, &p, &s, slow ? c->slow_rank.permille : 1000);
        s.start = s.next_start;
    }
}
