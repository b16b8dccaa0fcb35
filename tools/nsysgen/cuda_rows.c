/* The rows of a CUDA API call (CUPTI_ACTIVITY_KIND_RUNTIME, with its backtrace row and CUDA_CALLCHAINS
 * in a process with backtraces) and the columns every GPU operation row starts with. */
#include "nsysgen.h"

void write_runtime_row(struct gen *g, int64_t start, int64_t end, int event_class, uint64_t gtid, int64_t corr,
                       int64_t name_id, int64_t ret, bool has_callchain, int64_t callchain)
{
    note_time(g, end);
    if (g->muted)
        return;
    struct table_writer *w = &g->w_runtime;
    row_begin(g->cfg, w);
    put_int(w, start);
    put_int(w, end);
    put_int(w, event_class);
    put_int(w, (int64_t)gtid);
    put_int(w, corr);
    put_int(w, name_id);
    put_int(w, ret);
    put_int_or_null(w, has_callchain, callchain);
    row_end(w);
}

static void write_cuda_frame(struct gen *g, int64_t id, int64_t symbol, int64_t module, bool unresolved, int64_t ip,
                             int depth)
{
    if (g->muted)
        return;
    struct table_writer *w = &g->w_cuda_callchains;
    row_begin(g->cfg, w);
    put_int(w, id);
    put_int(w, symbol);
    put_int(w, module);
    put_int_or_null(w, unresolved, 1);
    put_int(w, ip);
    put_int(w, depth);
    row_end(w);
}

/* The stack of one backtrace row, innermost first: CUPTI's hook, the driver, the API, the user code. */
static void write_cuda_callchain(struct gen *g, int64_t id, const struct api_ids *api, enum caller caller)
{
    bool runtime = api->event_class == EVENT_CLASS_CUDA_RUNTIME;
    int depth = 0;
    write_cuda_frame(g, id, g->sym_cupti[0], g->mod_cupti, true, INT64_C(0x7f3a2c4e0588), depth++);
    write_cuda_frame(g, id, g->sym_cupti[1], g->mod_cupti, true, INT64_C(0x7f3a2c4e283c), depth++);
    write_cuda_frame(g, id, g->sym_cuda_internal, g->mod_cuda, true, INT64_C(0x7f3a3b8226b6), depth++);
    write_cuda_frame(g, id, api->backtrace_name, runtime ? g->mod_cudart : g->mod_cuda, false,
                     INT64_C(0x7f3a3c1a4000) + 16 * (api->name % 256), depth++);
    write_cuda_frame(g, id, g->sym_caller[caller], g->mod_app, false,
                     INT64_C(0x401a00) + 0x80 * caller + 4 * rng_below(&g->backtrace_rng, 16), depth++);
    write_cuda_frame(g, id, g->sym_main, g->mod_app, false, INT64_C(0x4012f0), depth++);
    write_cuda_frame(g, id, g->sym_libc_main, g->mod_libc, false, INT64_C(0x7f3a3a229d90), depth++);
    write_cuda_frame(g, id, g->sym_start, g->mod_app, false, INT64_C(0x401105), depth);
}

/* One CUDA API call. In a process with backtraces it is preceded by its backtrace row, as in the real
 * export: same thread and correlationId, the unversioned name, callchainId set, a few hundred ns
 * earlier and a little later. CUDA_CALLCHAINS ids are callchainId + 1 there, and here too. A call
 * that --drop-launches mutes writes no row but makes its draws and takes its callchainId. */
void write_api_call(struct gen *g, const struct thread *th, const struct api_ids *api, int64_t start, int64_t end,
                    int64_t corr, int64_t ret, enum caller caller)
{
    if (g->procs[th->process].backtrace) {
        int64_t callchain = g->next_cuda_callchain++;
        int64_t bt_start = start - rng_range(&g->backtrace_rng, 150, 450);
        int64_t bt_end = end + rng_range(&g->backtrace_rng, 80, 300);
        write_runtime_row(g, bt_start, bt_end, EVENT_CLASS_CUDA_BACKTRACE, th->gtid, corr, api->backtrace_name, ret,
                          true, callchain);
        write_cuda_callchain(g, callchain + 1, api, caller);
    }
    write_runtime_row(g, start, end, api->event_class, th->gtid, corr, api->name, ret, false, 0);
    kineto_call(g, th, api, start, end, corr);
}

int64_t stream_id(const struct gen *g, int ctx, int stream)
{
    return g->contexts[ctx].first_stream_id + stream;
}

/* The GPU-side columns that kernel, memcpy and memset rows start with. */
void put_gpu_prefix(struct gen *g, struct table_writer *w, const struct gpu_span *s, int ctx, int stream,
                    int64_t corr)
{
    const struct context *c = &g->contexts[ctx];
    put_int(w, s->gpu_start);
    put_int(w, s->gpu_end);
    put_int(w, c->device);
    put_int(w, c->context_id);
    put_null(w); /* greenContextId: NULL in 2024-era exports */
    put_int(w, stream_id(g, ctx, stream));
    put_int(w, corr);
    put_int(w, (int64_t)g->procs[c->process].gpid);
}

