/* --graphs N: CUDA graph launches as graph-level tracing (--cuda-graph-trace=graph, nsys's default)
 * exports them: the host's cudaGraphLaunch_v10000 runtime row, and one CUPTI_ACTIVITY_KIND_GRAPH_TRACE
 * row with its correlationId for the whole execution of the graph on the GPU; the graph's kernels are
 * in no KERNEL row, which is what makes GPU time from kernel rows alone come up short. Launches go
 * round-robin over the processes, onto a random stream of a random device of the process, at random
 * times over the run, so some overlap kernels, copies and other graphs and some fall in idle time.
 * Each process has 3 graphs (graphId 1..3), each instantiated once (graphExecId 101..103). Written
 * after everything else from a random stream of their own: the other rows are those of the same run
 * without --graphs, and correlationIds continue past the ones the process used. */
#include "nsysgen.h"

static void write_graph_trace_row(struct gen *g, struct table_writer *w, const struct gpu_span *s, int ctx,
                                  int stream, int64_t corr, int64_t graph)
{
    row_begin(g->cfg, w);
    put_gpu_prefix(g, w, s, ctx, stream, corr);
    put_int(w, graph);
    put_int(w, 100 + graph); /* graphExecId */
    row_end(w);
    note_time(g, s->gpu_end);
}

/* One launch by process p somewhere in [p's start, until): the call returns before the graph starts. */
static void emit_graph_launch(struct gen *g, struct rng *r, struct table_writer *w, const struct api_ids *api,
                              struct process *p, int64_t until)
{
    int ctx = p->first_context + (int)rng_below(r, p->ncontexts);
    int stream = (int)rng_below(r, g->cfg->streams);
    const struct thread *th = &g->threads[p->first_thread + (int)rng_below(r, g->cfg->threads)];
    struct gpu_span s;
    s.gpu_start = p->start_time + 1000000 + rng_below(r, max64(until - p->start_time - 1000000, 1));
    s.gpu_end = s.gpu_start + rng_range(r, 10000, 120000);
    s.api_start = s.gpu_start - rng_range(r, 3000, 12000);
    s.api_end = s.api_start + rng_range(r, 1500, 2900);
    int64_t corr = p->next_corr++;
    write_runtime_row(g, s.api_start, s.api_end, EVENT_CLASS_CUDA_RUNTIME, th->gtid, corr, api->name, 0, false, 0);
    kineto_call(g, th, api, s.api_start, s.api_end, corr);
    write_graph_trace_row(g, w, &s, ctx, stream, corr, 1 + rng_below(r, 3));
}

void write_cuda_graphs(struct gen *g)
{
    const struct config *c = g->cfg;
    if (c->graph_launches == 0)
        return;
    struct table_writer w = WRITER("CUPTI_ACTIVITY_KIND_GRAPH_TRACE");
    struct rng r;
    rng_seed(&r, c->seed ^ UINT64_C(0x6772617068736e73));
    /* not intern_api(): these calls have no backtrace row, whose unversioned name would be a new string */
    struct api_ids api = {.name = intern(g, "cudaGraphLaunch_v10000"), .event_class = EVENT_CLASS_CUDA_RUNTIME,
                          .kineto = kineto_api("cudaGraphLaunch_v10000")};
    int64_t until = g->last_time;
    for (int64_t i = 0; i < c->graph_launches; i++)
        emit_graph_launch(g, &r, &w, &api, &g->procs[i % c->processes], until);
    writer_close(&w);
}
