/* PROFILER_OVERHEAD: the profiler's own work, on the CPU threads that did it (globalTid), named by
 * what it was. nsys counts the flush/stop overhead rows as GPU busy time when they fall strictly
 * inside a process's span of GPU operations on a device, so each (process, device) span gets rows
 * inside it, on its edges (sharing its first start or its last end), straddling them and outside
 * it, under those names and others, on the main thread, on no thread (NULL) and on a thread of a
 * process with no GPU work. Written after everything else, from a random stream of its own. */
#include "nsysgen.h"

static const char *const OVERHEAD_NAMES[] = {
    "CUDA profiling data flush overhead", "CUDA profiling stop overhead", "CUDA profiling overhead",
    "CUDA profiling data flush on process exit", "CUPTI Buffer flush", "TLS allocation",
};

struct overhead_span {
    int64_t gpid, first, last;
};

/* The (process, device) spans of the CUDA GPU operations written so far. */
static struct overhead_span *overhead_spans(size_t *n)
{
    static const char sql[] =
        "SELECT globalPid, min(start), max(end) FROM (SELECT globalPid, deviceId, start, end FROM "
        "CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT globalPid, deviceId, start, end FROM "
        "CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT globalPid, deviceId, start, end FROM "
        "CUPTI_ACTIVITY_KIND_MEMSET) GROUP BY globalPid, deviceId ORDER BY globalPid, deviceId";
    sqlite3_stmt *st = NULL;
    size_t cap = 8;
    struct overhead_span *sp = xcalloc(cap, sizeof *sp);
    *n = 0;
    /* without all three tables (--kernels 0 ...) there is no span to write around */
    if (sqlite3_prepare_v2(g_out.db, sql, -1, &st, NULL) != SQLITE_OK)
        return sp;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (*n == cap) {
            struct overhead_span *more = xcalloc(2 * cap, sizeof *more);
            memcpy(more, sp, cap * sizeof *sp);
            free(sp);
            sp = more;
            cap *= 2;
        }
        sp[(*n)++] = (struct overhead_span){sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
                                            sqlite3_column_int64(st, 2)};
    }
    sqlite3_finalize(st);
    return sp;
}

static void write_overhead_row(struct gen *g, struct table_writer *w, int64_t start, int64_t end, bool thread,
                               uint64_t gtid, const char *name)
{
    row_begin(g->cfg, w);
    put_int(w, start);
    put_int(w, end);
    put_int_or_null(w, thread, (int64_t)gtid);
    put_int(w, intern(g, name));
    put_int(w, 0);
    row_end(w);
    note_time(g, end);
}

/* One span's rows: the fixed edge cases first, then count rows anywhere from a tenth of the span
 * before it to a tenth after it. */
static void write_span_overhead(struct gen *g, struct rng *r, struct table_writer *w, const struct overhead_span *sp,
                                int64_t count)
{
    uint64_t main_tid = (uint64_t)sp->gpid | (((uint64_t)sp->gpid >> 24) & 0xffffff);
    uint64_t stranger = ((uint64_t)sp->gpid & ~UINT64_C(0xffffffffffff)) | (UINT64_C(4242) << 24) | 4242;
    int64_t len = sp->last - sp->first, pad = len / 10 + 1;
    const char *flush = OVERHEAD_NAMES[0];
    write_overhead_row(g, w, sp->first, sp->first + len / 4 + 1, true, main_tid, flush);
    write_overhead_row(g, w, sp->last - len / 4 - 1, sp->last, true, main_tid, flush);
    write_overhead_row(g, w, sp->first - pad, sp->first + pad, true, main_tid, OVERHEAD_NAMES[1]);
    write_overhead_row(g, w, sp->last - pad, sp->last + pad, true, main_tid, OVERHEAD_NAMES[2]);
    write_overhead_row(g, w, sp->first + len / 3, sp->first + len / 3 + pad, false, 0, flush);
    write_overhead_row(g, w, sp->first + len / 2, sp->first + len / 2 + pad, true, stranger, flush);
    for (int64_t i = 0; i < count; i++) {
        int64_t start = sp->first - pad + rng_below(r, len + 2 * pad);
        int64_t dur = rng_range(r, 1000, pad / 4 + 1000);
        const char *name = OVERHEAD_NAMES[rng_below(r, (int64_t)COUNT_OF(OVERHEAD_NAMES))];
        write_overhead_row(g, w, start, start + dur, true, main_tid, name);
    }
}

void write_profiler_overhead(struct gen *g)
{
    const struct config *c = g->cfg;
    if (c->overhead_rows == 0)
        return;
    struct table_writer w = WRITER("PROFILER_OVERHEAD");
    struct rng r;
    rng_seed(&r, c->seed ^ UINT64_C(0x6f76657268656164));
    size_t n = 0;
    struct overhead_span *sp = overhead_spans(&n);
    for (size_t i = 0; i < n; i++)
        write_span_overhead(g, &r, &w, &sp[i], c->overhead_rows);
    free(sp);
    writer_close(&w);
}
