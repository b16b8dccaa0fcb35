/* NVTX_EVENTS: push/pop and start/end ranges around the host events, marks, domains, and the edge
 * cases of --nvtx-edges and --nvtx-domain-threads. */
#include "nsysgen.h"

/* NVTX domains created with nvtxDomainCreate (eventType 75); domain 0 is the default domain. */
const char *const NVTX_DOMAINS[] = {NULL, "MPI", "NCCL"};

/* Push/pop names per nesting level; commas make csv quoting matter. */
const struct nvtx_name NVTX_LEVEL0[] = {
    {"train_step", 0, false}, {"validate", 0, true}, {"checkpoint, save", 0, false}};
static const struct nvtx_name NVTX_LEVEL1[] = {
    {"forward", 0, true}, {"backward", 0, true}, {"MPI_Allreduce", 1, true}, {"optimizer.step", 0, false}};
static const struct nvtx_name NVTX_LEVEL2[] = {
    {"layer 3, attention", 0, false}, {"ncclAllReduce", 2, true}, {"halo exchange", 0, false},
    {"MPI_Waitall", 1, true}};
static const struct nvtx_name NVTX_LEVEL3[] = {{"matmul", 0, true}, {"softmax", 0, false}};
const struct nvtx_name NVTX_START_END[] = {
    {"data loader: next batch", 0, false}, {"async prefetch", 0, true}, {"MPI_Irecv", 1, true}};
static const struct nvtx_name NVTX_MARKS[] = {{"checkpoint reached", 0, false}, {"lr decay", 0, true}};

const struct nvtx_level NVTX_LEVELS[NVTX_MAX_DEPTH] = {
    {NVTX_LEVEL0, COUNT_OF(NVTX_LEVEL0), 64},
    {NVTX_LEVEL1, COUNT_OF(NVTX_LEVEL1), 16},
    {NVTX_LEVEL2, COUNT_OF(NVTX_LEVEL2), 6},
    {NVTX_LEVEL3, COUNT_OF(NVTX_LEVEL3), 2},
};

/* Registered NVTX strings go into StringIds up front, like nvtxDomainRegisterString at start-up. */
void setup_nvtx_strings(struct gen *g)
{
    const struct {
        const struct nvtx_name *names;
        size_t count;
    } lists[] = {{NVTX_LEVEL0, COUNT_OF(NVTX_LEVEL0)}, {NVTX_LEVEL1, COUNT_OF(NVTX_LEVEL1)},
                 {NVTX_LEVEL2, COUNT_OF(NVTX_LEVEL2)}, {NVTX_LEVEL3, COUNT_OF(NVTX_LEVEL3)},
                 {NVTX_START_END, COUNT_OF(NVTX_START_END)}, {NVTX_MARKS, COUNT_OF(NVTX_MARKS)}};
    for (size_t l = 0; l < COUNT_OF(lists); l++)
        for (size_t i = 0; i < lists[l].count; i++)
            if (lists[l].names[i].registered)
                intern(g, lists[l].names[i].text);
}

/* ======================================================================================= ranges around the host events */

void write_nvtx_row(struct gen *g, const struct nvtx_row *r)
{
    const struct nvtx_name *name = r->name;
    struct table_writer *w = &g->w_nvtx;
    row_begin(g->cfg, w);
    put_int(w, r->start);
    put_int_or_null(w, r->has_end, r->end);
    put_int(w, r->event_type);
    put_int_or_null(w, r->has_range_id, r->range_id);
    put_int_or_null(w, r->event_type == NVTX_START_END_RANGE, 1); /* category */
    put_int_or_null(w, r->colored, NVTX_GREEN);
    put_text(w, name->registered ? NULL : name->text);
    put_int(w, (int64_t)r->gtid);
    put_int_or_null(w, r->has_end_gtid, (int64_t)r->end_gtid);
    put_int_or_null(w, name->registered, name->registered ? intern(g, name->text) : 0);
    put_int(w, name->domain);
    for (int i = 0; i < 8; i++)
        put_null(w); /* payload union and JSON */
    row_end(w);
    note_time(g, r->has_end ? r->end : r->start);
    kineto_annotation(g, r);
}

static void close_push_pop(struct gen *g, struct thread *th)
{
    const struct open_range *r = &th->stack[--th->depth];
    th->now += rng_range(&g->rng, 300, 600); /* nvtxRangePop */
    kineto_pop(g, th, r->external_id);
    write_nvtx_row(g, &(struct nvtx_row){.event_type = NVTX_PUSH_POP, .start = r->start, .has_end = true,
                                         .end = th->now, .name = r->name, .gtid = th->gtid,
                                         .colored = th->depth == 0, .external_id = r->external_id});
}

static void close_start_end(struct gen *g, struct thread *th, int i)
{
    const struct open_range *r = &th->open[i];
    const struct process *p = &g->procs[th->process];
    uint64_t end_gtid = g->threads[p->first_thread + (th->index_in_process + 1) % g->cfg->threads].gtid;
    th->now += rng_range(&g->rng, 300, 600); /* nvtxRangeEnd */
    write_nvtx_row(g, &(struct nvtx_row){.event_type = NVTX_START_END_RANGE, .start = r->start, .has_end = true,
                                         .end = th->now, .name = r->name, .gtid = th->gtid,
                                         .has_end_gtid = r->cross_thread, .end_gtid = end_gtid, .has_range_id = true,
                                         .range_id = r->range_id});
    th->open[i] = th->open[--th->nopen];
}

static const struct nvtx_name *pick_nvtx_name(struct gen *g, const struct nvtx_name *names, size_t count)
{
    return &names[rng_below(&g->rng, (int64_t)count)];
}

/* Opens one range before the current event: start/end 1 time in 4, otherwise push/pop one level
 * deeper. A push/pop range covers no more events than its parent has left, so ranges close LIFO. */
static bool open_range(struct gen *g, struct thread *th)
{
    bool start_end = th->nopen < NVTX_MAX_OPEN && (th->depth == NVTX_MAX_DEPTH || rng_one_in(&g->rng, 4));
    if (!start_end && th->depth == NVTX_MAX_DEPTH)
        return false;
    if (rng_one_in(&g->rng, 8)) {
        write_nvtx_row(g, &(struct nvtx_row){.event_type = NVTX_MARK, .start = th->now, .gtid = th->gtid,
                                             .name = pick_nvtx_name(g, NVTX_MARKS, COUNT_OF(NVTX_MARKS))});
        th->now += rng_range(&g->rng, 300, 600);
    }
    struct open_range r = {.start = th->now};
    if (start_end) {
        r.cover_left = 1 + rng_below(&g->rng, min64(th->events_left, 32));
        r.name = pick_nvtx_name(g, NVTX_START_END, COUNT_OF(NVTX_START_END));
        r.range_id = g->procs[th->process].next_range_id++;
        r.cross_thread = g->cfg->threads > 1 && rng_one_in(&g->rng, 4);
        th->open[th->nopen++] = r;
    } else {
        const struct nvtx_level *level = &NVTX_LEVELS[th->depth];
        int64_t room = th->depth ? th->stack[th->depth - 1].cover_left : th->events_left;
        r.cover_left = 1 + rng_below(&g->rng, min64(room, level->max_cover));
        r.name = pick_nvtx_name(g, level->names, level->count);
        r.external_id = kineto_push(g, th);
        th->stack[th->depth++] = r;
    }
    th->ranges_left--;
    /* the push itself; longer than a backtrace row's lead, so that row stays inside the range */
    th->now += rng_range(&g->rng, 500, 900);
    return true;
}

/* Spreads the thread's ranges over its events: ranges_left / events_left of them here, on average. */
void nvtx_before_event(struct gen *g, struct thread *th)
{
    if (th->ranges_left == 0)
        return;
    int64_t want = th->ranges_left / th->events_left;
    if (rng_below(&g->rng, th->events_left) < th->ranges_left % th->events_left)
        want++;
    for (; want > 0; want--)
        if (!open_range(g, th))
            break;
}

void nvtx_after_event(struct gen *g, struct thread *th)
{
    for (int i = 0; i < th->depth; i++)
        th->stack[i].cover_left--;
    for (int i = 0; i < th->nopen; i++)
        th->open[i].cover_left--;
    while (th->depth > 0 && th->stack[th->depth - 1].cover_left <= 0)
        close_push_pop(g, th);
    for (int i = th->nopen - 1; i >= 0; i--)
        if (th->open[i].cover_left <= 0)
            close_start_end(g, th, i);
}

/* Ranges the events could not hold: nested push/pop chains around CPU work, after the last event. */
void nvtx_finish_thread(struct gen *g, struct thread *th)
{
    while (th->depth > 0)
        close_push_pop(g, th);
    while (th->nopen > 0)
        close_start_end(g, th, th->nopen - 1);
    while (th->ranges_left > 0) {
        int chain = (int)min64(th->ranges_left, 3);
        int64_t starts[3];
        const struct nvtx_name *names[3];
        for (int level = 0; level < chain; level++) {
            starts[level] = th->now;
            names[level] = pick_nvtx_name(g, NVTX_LEVELS[level].names, NVTX_LEVELS[level].count);
            th->now += rng_range(&g->rng, 500, 900);
        }
        th->now += rng_range(&g->rng, 2000, 20000);
        for (int level = chain - 1; level >= 0; level--) {
            th->now += rng_range(&g->rng, 300, 600);
            write_nvtx_row(g, &(struct nvtx_row){.event_type = NVTX_PUSH_POP, .start = starts[level], .has_end = true,
                                                 .end = th->now, .name = names[level], .gtid = th->gtid,
                                                 .colored = level == 0});
        }
        th->ranges_left -= chain;
        th->now += host_gap(g);
    }
}

/* ======================================================================================= NVTX range edge cases */

/* What nvtx_pushpop_trace must get right beyond well-nested ranges. Offsets from a common base; every
 * thread of the first process writes them at the same instants, so ranges tie across threads too. Entries
 * go thread by thread, forwards for even entries and backwards for odd ones, so that rowids do not follow
 * the order in which parents come. No random numbers are drawn: the rest of the export stays the same. */
struct nvtx_edge {
    int64_t start, end;
    struct nvtx_name name;
};

static const struct nvtx_edge NVTX_EDGES[] = {
    {0, 10000, {"deep 0", 0, false}},       {100, 9900, {"deep 1", 0, true}},  {200, 9800, {"deep 2", 1, false}},
    {300, 9700, {"deep 3", 0, false}},      {400, 9600, {"deep 4", 0, false}}, {500, 9500, {"deep 5", 0, false}},
    {600, 9400, {"deep 6", 0, false}},      {700, 9300, {"deep 7", 0, false}}, {20000, 30000, {"tie outer", 0, false}},
    {20000, 25000, {"same start", 0, false}}, {26000, 30000, {"same end", 0, false}},
    {40000, 50000, {"twin", 0, false}},     {40000, 50000, {"twin", 0, false}}, {41000, 42000, {"inside twins", 0, false}},
    {60000, 61000, {"touch left", 0, false}}, {61000, 62000, {"touch right", 0, false}},
    {61000, 61000, {"zero at the seam", 0, false}}, {70000, 72000, {"cross a", 2, false}},
    {71000, 73000, {"cross b", 0, false}},  {71500, 71600, {"inside both", 0, false}}, {80000, 80000, {"zero", 0, false}},
};
static const struct nvtx_name NVTX_EDGE_OPEN = {"never popped", 0, false};
static const struct nvtx_name NVTX_EDGE_IN_OPEN = {"inside the open one", 0, true};
#define NVTX_EDGE_OPEN_AT 90000

static void nvtx_edge_row(struct gen *g, const struct thread *th, int64_t start, bool has_end, int64_t end,
                          const struct nvtx_name *name)
{
    write_nvtx_row(g, &(struct nvtx_row){.event_type = NVTX_PUSH_POP, .start = start, .has_end = has_end,
                                         .end = end, .name = name, .gtid = th->gtid});
}

static void nvtx_edge_cases(struct gen *g)
{
    int64_t base = 0;
    for (int t = 0; t < g->nthreads; t++)
        base = max64(base, g->threads[t].now);
    base += 1000000;
    int n = (int)g->cfg->threads;
    const struct process *p = &g->procs[0];
    for (size_t i = 0; i < COUNT_OF(NVTX_EDGES); i++) {
        const struct nvtx_edge *e = &NVTX_EDGES[i];
        for (int k = 0; k < n; k++) {
            const struct thread *th = &g->threads[p->first_thread + (i % 2 ? n - 1 - k : k)];
            nvtx_edge_row(g, th, base + e->start, true, base + e->end, &e->name);
        }
    }
    const struct thread *first = &g->threads[p->first_thread];
    nvtx_edge_row(g, first, base + NVTX_EDGE_OPEN_AT + 500, true, base + NVTX_EDGE_OPEN_AT + 1000,
                  &NVTX_EDGE_IN_OPEN);
    nvtx_edge_row(g, first, base + NVTX_EDGE_OPEN_AT, false, 0, &NVTX_EDGE_OPEN);
}

/* --nvtx-domain-threads: the named domains again on the other threads of each process, as when several
 * threads call nvtxDomainCreate with one name; at process start, after every other NVTX row. */
static void nvtx_domains_on_threads(struct gen *g)
{
    for (int pi = 0; pi < (int)g->cfg->processes; pi++) {
        const struct process *p = &g->procs[pi];
        for (int t = 1; t < (int)g->cfg->threads; t++)
            for (size_t d = 1; d < COUNT_OF(NVTX_DOMAINS); d++) {
                struct nvtx_name domain = {NVTX_DOMAINS[d], (int)d, false};
                write_nvtx_row(g, &(struct nvtx_row){.event_type = NVTX_DOMAIN_CREATE, .start = p->start_time,
                                                     .name = &domain, .gtid = g->threads[p->first_thread + t].gtid});
            }
    }
}

void nvtx_extras(struct gen *g)
{
    if (g->cfg->nvtx_edges)
        nvtx_edge_cases(g);
    if (g->cfg->nvtx_domain_threads && g->cfg->nvtx_ranges > 0)
        nvtx_domains_on_threads(g);
}
