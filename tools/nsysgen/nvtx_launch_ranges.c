/* --launch-ranges: ranges that hold GPU launches on the launching thread, so that nvtx_kern_sum,
 * nvtx_gpu_proj_* and nvtx-name have work inside ranges at any scale (1M launches, 1M ranges).
 * A "group" push/pop range holds 1 to 8 launches of its thread; around each launch a chain of up
 * to 3 nested ranges opens just before the call and closes just after it, its outermost one a
 * start/end range 1 time in 4. Every choice draws from a stream of its own, so without the option
 * nothing changes; with it, --backtrace still only adds rows (a push outlasts a backtrace row's
 * lead, so the backtrace row stays inside the ranges of its call). */
#include "nsysgen.h"

#define LR_CHAIN_MAX 3
#define LR_GROUP_MAX_LAUNCHES 8

struct lr_thread {
    struct open_range group;
    bool group_open;
    int64_t group_left; /* launches still to come inside the group */
    struct open_range chain[LR_CHAIN_MAX];
    bool chain_start_end[LR_CHAIN_MAX];
    int nchain;
};

struct launch_ranges {
    struct rng rng;
    int64_t left;          /* ranges still to open */
    int64_t launches_left; /* GPU launch events still to come */
    struct lr_thread *threads;
};

static bool is_launch(enum event_kind kind)
{
    return kind == EV_KERNEL || kind == EV_MEMCPY || kind == EV_MEMSET;
}

void launch_ranges_setup(struct gen *g)
{
    const struct config *c = g->cfg;
    if (c->launch_ranges == 0)
        return;
    g->lr = xcalloc(1, sizeof *g->lr);
    rng_seed(&g->lr->rng, c->seed ^ UINT64_C(0x6c61756e63686e76));
    g->lr->left = c->launch_ranges;
    g->lr->launches_left = c->kernels + c->memcpys + c->memsets;
    g->lr->threads = xcalloc((size_t)g->nthreads, sizeof *g->lr->threads);
}

/* How many ranges this launch gets: the remaining ones spread evenly over the remaining launches. */
static int64_t lr_quota(struct launch_ranges *lr)
{
    int64_t want = lr->left / lr->launches_left;
    if (rng_below(&lr->rng, lr->launches_left) < lr->left % lr->launches_left)
        want++;
    return min64(want, 1 + LR_CHAIN_MAX);
}

/* The push (or start) itself takes time, as in close_push_pop's counterpart. */
static struct open_range lr_open(struct gen *g, struct thread *th, const struct nvtx_name *name)
{
    struct open_range r = {.start = th->now, .name = name};
    g->lr->left--;
    th->now += rng_range(&g->lr->rng, 500, 900);
    return r;
}

static void lr_open_chain(struct gen *g, struct thread *th, struct lr_thread *lt, int64_t n)
{
    struct launch_ranges *lr = g->lr;
    for (int i = 0; i < n; i++) {
        bool start_end = i == 0 && rng_one_in(&lr->rng, 4);
        const struct nvtx_level *level = &NVTX_LEVELS[1 + i];
        const struct nvtx_name *name =
            start_end ? &NVTX_START_END[rng_below(&lr->rng, COUNT_OF(NVTX_START_END))]
                      : &level->names[rng_below(&lr->rng, (int64_t)level->count)];
        struct open_range r = lr_open(g, th, name);
        if (start_end) {
            r.range_id = g->procs[th->process].next_range_id++;
            r.cross_thread = g->cfg->threads > 1 && rng_one_in(&lr->rng, 8);
        } else {
            r.external_id = kineto_push(g, th);
        }
        lt->chain_start_end[i] = start_end;
        lt->chain[lt->nchain++] = r;
    }
}

void launch_ranges_before(struct gen *g, struct thread *th, enum event_kind kind)
{
    struct launch_ranges *lr = g->lr;
    if (!lr || !is_launch(kind))
        return;
    struct lr_thread *lt = &lr->threads[th - g->threads];
    int64_t want = lr_quota(lr);
    lr->launches_left--;
    if (want > 0 && !lt->group_open && (want > LR_CHAIN_MAX || rng_one_in(&lr->rng, 2))) {
        lt->group = lr_open(g, th, &NVTX_LEVEL0[rng_below(&lr->rng, COUNT_OF(NVTX_LEVEL0))]);
        lt->group.external_id = kineto_push(g, th);
        lt->group_open = true;
        lt->group_left = 1 + rng_below(&lr->rng, LR_GROUP_MAX_LAUNCHES);
        want--;
    }
    lr_open_chain(g, th, lt, min64(want, LR_CHAIN_MAX));
}

static void lr_close(struct gen *g, struct thread *th, const struct open_range *r, bool start_end)
{
    const struct process *p = &g->procs[th->process];
    uint64_t other = g->threads[p->first_thread + (th->index_in_process + 1) % g->cfg->threads].gtid;
    th->now += rng_range(&g->lr->rng, 300, 600);
    if (!start_end)
        kineto_pop(g, th, r->external_id);
    write_nvtx_row(g, &(struct nvtx_row){.event_type = start_end ? NVTX_START_END_RANGE : NVTX_PUSH_POP,
                                         .start = r->start, .has_end = true, .end = th->now, .name = r->name,
                                         .gtid = th->gtid, .has_end_gtid = start_end && r->cross_thread,
                                         .end_gtid = other, .has_range_id = start_end, .range_id = r->range_id,
                                         .external_id = r->external_id});
}

static void lr_close_group(struct gen *g, struct thread *th, struct lr_thread *lt)
{
    lr_close(g, th, &lt->group, false);
    lt->group_open = false;
}

void launch_ranges_after(struct gen *g, struct thread *th, enum event_kind kind)
{
    if (!g->lr || !is_launch(kind))
        return;
    struct lr_thread *lt = &g->lr->threads[th - g->threads];
    while (lt->nchain > 0) {
        lt->nchain--;
        lr_close(g, th, &lt->chain[lt->nchain], lt->chain_start_end[lt->nchain]);
    }
    if (lt->group_open && --lt->group_left == 0)
        lr_close_group(g, th, lt);
}

void launch_ranges_finish(struct gen *g)
{
    if (!g->lr)
        return;
    for (int t = 0; t < g->nthreads; t++)
        if (g->lr->threads[t].group_open)
            lr_close_group(g, &g->threads[t], &g->lr->threads[t]);
    free(g->lr->threads);
    free(g->lr);
    g->lr = NULL;
}
