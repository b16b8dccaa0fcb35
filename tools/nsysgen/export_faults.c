/* --dup-gpu-rows, --orphan-gpu-rows, --stream-overlap, --bad-durations, --open-ranges, --truncated and
 * --graph-rows damage the finished export the way real captures are damaged, for the tests of
 * `nstats check`. They run on the written tables through SQL, after every other row, each from a
 * random stream of its own: without them the export is byte for byte what it was. Rows are picked by
 * rank in rowid order; a row may be picked twice, and faults may meet (the tests count what is there,
 * not what was asked for). */
#include "nsysgen.h"

static const char *const FAULT_GPU_TABLES[] = {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                                               "CUPTI_ACTIVITY_KIND_MEMSET"};

/* Runs sql with up to 4 integer parameters; returns the first column of its first row, or 0. */
static int64_t fault_sql(const char *sql, int n, const int64_t *args)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(g_out.db, sql, -1, &st, NULL) != SQLITE_OK)
        fail_sqlite("preparing a fault");
    for (int i = 0; i < n; i++)
        sqlite3_bind_int64(st, i + 1, args[i]);
    int64_t v = 0;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    else if (rc != SQLITE_DONE)
        fail_sqlite("writing a fault");
    sqlite3_finalize(st);
    return v;
}

static int64_t fault_rows(const char *table)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '%s'", table);
    if (fault_sql(sql, 0, NULL) == 0)
        return 0;
    snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", table);
    return fault_sql(sql, 0, NULL);
}

/* The rowid of a random row of table (which has rows). */
static int64_t fault_pick(struct rng *r, const char *table, int64_t rows)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT rowid FROM %s ORDER BY rowid LIMIT 1 OFFSET ?", table);
    int64_t off = rng_below(r, rows);
    return fault_sql(sql, 1, &off);
}

/* One of `tables` that has rows, at random; NULL when none has. */
static const char *fault_table(struct rng *r, const char *const *tables, size_t n, int64_t *rows)
{
    size_t first = (size_t)rng_below(r, (int64_t)n);
    for (size_t k = 0; k < n; k++) {
        const char *t = tables[(first + k) % n];
        if ((*rows = fault_rows(t)) > 0)
            return t;
    }
    return NULL;
}

static void fault_update(const char *table, const char *set, int64_t a, int64_t rowid)
{
    char sql[512];
    snprintf(sql, sizeof sql, "UPDATE %s SET %s WHERE rowid = ?2", table, set);
    int64_t args[2] = {a, rowid};
    fault_sql(sql, 2, args);
}

/* A memset row moved onto a kernel's span: the same work in two tables. */
static void fault_dup_across(struct rng *r)
{
    int64_t nk = fault_rows(FAULT_GPU_TABLES[0]), ns = fault_rows(FAULT_GPU_TABLES[2]);
    if (nk == 0 || ns == 0)
        return;
    int64_t memset_row = fault_pick(r, FAULT_GPU_TABLES[2], ns);
    int64_t kernel_row = fault_pick(r, FAULT_GPU_TABLES[0], nk);
    int64_t args[2] = {memset_row, kernel_row};
    fault_sql("INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET SELECT * FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE rowid = ?1", 1,
              args);
    int64_t moved[2] = {sqlite3_last_insert_rowid(g_out.db), args[1]};
    fault_sql("UPDATE CUPTI_ACTIVITY_KIND_MEMSET SET (deviceId, streamId, start, end) = (SELECT deviceId, streamId, "
              "start, end FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid = ?2) WHERE rowid = ?1",
              2, moved);
}

static void fault_dup_gpu(struct rng *r, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        if (i % 3 == 2) {
            fault_dup_across(r);
            continue;
        }
        int64_t rows;
        const char *t = fault_table(r, FAULT_GPU_TABLES, 3, &rows);
        if (!t)
            return;
        char sql[256];
        snprintf(sql, sizeof sql, "INSERT INTO %s SELECT * FROM %s WHERE rowid = ?", t, t);
        int64_t rowid = fault_pick(r, t, rows);
        fault_sql(sql, 1, &rowid);
    }
}

static void fault_orphan_gpu(struct rng *r, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        int64_t rows;
        const char *t = fault_table(r, FAULT_GPU_TABLES, 3, &rows);
        if (!t)
            return;
        fault_update(t, "correlationId = ?1", INT64_C(900000000) + i, fault_pick(r, t, rows));
    }
}

static void fault_stream_overlap(struct rng *r, int64_t n)
{
    int64_t rows = fault_rows(FAULT_GPU_TABLES[0]);
    for (int64_t i = 0; rows > 0 && i < n; i++) {
        int64_t rowid = fault_pick(r, FAULT_GPU_TABLES[0], rows);
        fault_update(FAULT_GPU_TABLES[0], "end = end + ?1", rng_range(r, 1000, 200000), rowid);
    }
}

static void fault_bad_durations(struct rng *r, int64_t n)
{
    static const char *const tables[] = {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                                         "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_RUNTIME"};
    for (int64_t i = 0; i < n; i++) {
        int64_t rows;
        const char *t = fault_table(r, tables, COUNT_OF(tables), &rows);
        if (!t)
            return;
        int64_t rowid = fault_pick(r, t, rows);
        fault_update(t, "end = start - ?1", rng_range(r, 0, 2), rowid);
    }
}

static void fault_open_ranges(struct rng *r, int64_t n)
{
    int64_t ranges = fault_sql("SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (59, 60)", 0, NULL);
    for (int64_t i = 0; ranges > 0 && i < n; i++) {
        int64_t off = rng_below(r, ranges);
        int64_t rowid = fault_sql("SELECT rowid FROM NVTX_EVENTS WHERE eventType IN (59, 60) ORDER BY rowid "
                                  "LIMIT 1 OFFSET ?",
                                  1, &off);
        fault_sql("UPDATE NVTX_EVENTS SET end = NULL WHERE rowid = ?", 1, &rowid);
    }
}

static void fault_truncated(struct rng *r, int64_t n)
{
    static const char *const tables[] = {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                                         "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS"};
    int64_t session_end = fault_sql("SELECT max(duration) FROM ANALYSIS_DETAILS", 0, NULL);
    for (int64_t i = 0; i < n; i++) {
        int64_t rows;
        const char *t = fault_table(r, tables, COUNT_OF(tables), &rows);
        if (!t)
            return;
        int64_t shift = session_end + rng_range(r, 1, 1000000);
        fault_update(t, "end = end - start + ?1, start = ?1", shift, fault_pick(r, t, rows));
    }
}

static void fault_graph_rows(struct rng *r, int64_t n)
{
    int64_t kernels = fault_rows(FAULT_GPU_TABLES[0]);
    if (n == 0 || kernels == 0)
        return;
    /* --graphs may have made the table already */
    if (fault_sql("SELECT count(*) FROM sqlite_master WHERE name = 'CUPTI_ACTIVITY_KIND_GRAPH_TRACE'", 0, NULL) == 0) {
        char *create = schema_create_table("CUPTI_ACTIVITY_KIND_GRAPH_TRACE");
        exec_sql(create, "creating CUPTI_ACTIVITY_KIND_GRAPH_TRACE");
        sqlite3_free(create);
    }
    exec_sql("INSERT INTO META_DATA_CAPTURE (name, value) VALUES ('CUDA_GRAPH_TRACE_OPTIONS:MODE', 'Graph')",
             "writing META_DATA_CAPTURE");
    for (int64_t i = 0; i < n; i++) {
        int64_t kernel_row = fault_pick(r, FAULT_GPU_TABLES[0], kernels);
        int64_t duration = rng_range(r, 2000, 50000);
        int64_t args[3] = {kernel_row, duration, i};
        /* columns by name, less greenContextId (NULL where the table has it): the table that --graphs
         * made under --no-green-context has no such column */
        fault_sql("INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE (start, end, deviceId, contextId, streamId, "
                  "correlationId, globalPid, graphId, graphExecId) SELECT end + 1, end + 1 + ?2, deviceId, "
                  "contextId, streamId, 800000000 + ?3, globalPid, 1 + ?3 % 3, ?3 FROM CUPTI_ACTIVITY_KIND_KERNEL "
                  "WHERE rowid = ?1",
                  3, args);
    }
}

void apply_faults(const struct config *c)
{
    static const uint64_t salt[] = {0x6475706c69636174, 0x6f727068616e6775, 0x6f7665726c617073, 0x6261646475726174,
                                    0x6f70656e72616e67, 0x7472756e63617465, 0x6772617068726f77};
    void (*const fault[])(struct rng *, int64_t) = {fault_dup_gpu,       fault_orphan_gpu, fault_stream_overlap,
                                                    fault_bad_durations, fault_open_ranges, fault_truncated,
                                                    fault_graph_rows};
    const int64_t counts[] = {c->fault_dup_gpu,       c->fault_orphan_gpu,  c->fault_stream_overlap,
                              c->fault_bad_durations, c->fault_open_ranges, c->fault_truncated,
                              c->fault_graph_rows};
    for (size_t i = 0; i < COUNT_OF(fault); i++) {
        if (counts[i] == 0)
            continue;
        struct rng r;
        rng_seed(&r, c->seed ^ salt[i]);
        fault[i](&r, counts[i]);
    }
}
