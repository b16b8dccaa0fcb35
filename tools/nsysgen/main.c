/* nsysgen's run: parse the options, set up, write every kind of row in a fixed order, finish the file.
 * nsysgen.h says what the export imitates and where each part is written. */
#include "nsysgen.h"

static void gen_init(struct gen *g, const struct config *c)
{
    *g = (struct gen){
        .cfg = c,
        .w_strings = WRITER("StringIds"),
        .w_thread_names = WRITER("ThreadNames"),
        .w_processes = WRITER("PROCESSES"),
        .w_meta_export = WRITER("META_DATA_EXPORT"),
        .w_meta_capture = WRITER("META_DATA_CAPTURE"),
        .w_session = WRITER("TARGET_INFO_SESSION_START_TIME"),
        .w_gpu_info = WRITER("TARGET_INFO_GPU"),
        .w_context_info = WRITER("TARGET_INFO_CUDA_CONTEXT_INFO"),
        .w_stream_info = WRITER("TARGET_INFO_CUDA_STREAM"),
        .w_analysis = WRITER("ANALYSIS_DETAILS"),
        .w_runtime = WRITER("CUPTI_ACTIVITY_KIND_RUNTIME"),
        .w_cuda_callchains = WRITER("CUDA_CALLCHAINS"),
        .w_kernel = WRITER("CUPTI_ACTIVITY_KIND_KERNEL"),
        .w_memcpy = WRITER("CUPTI_ACTIVITY_KIND_MEMCPY"),
        .w_memset = WRITER("CUPTI_ACTIVITY_KIND_MEMSET"),
        .w_nvtx = WRITER("NVTX_EVENTS"),
        .w_osrt = WRITER("OSRT_API"),
        .w_osrt_callchains = WRITER("OSRT_CALLCHAINS"),
    };
    rng_seed(&g->rng, c->seed);
    rng_seed(&g->backtrace_rng, c->seed ^ UINT64_C(0x6261636b74726163));
    rng_seed(&g->zero_rng, c->seed ^ UINT64_C(0x7a65726f64757273));
    g->strings.cap = 1024;
    g->strings.keys = xcalloc(g->strings.cap, sizeof(char *));
    g->strings.ids = xcalloc(g->strings.cap, sizeof(int64_t));
}

static void gen_free(struct gen *g)
{
    pool_free(&g->strings);
    free(g->procs);
    free(g->contexts);
    free(g->threads);
    free(g->lane_free);
    free(g->device_busy_until);
    free(g->kernel_names);
    free(g->body);
}

/* --start-order: each table rewritten in start order (ties in the order
 * the rows were made), as nsys writes them. */
static void order_by_start(void)
{
    static const char *const tables[] = {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                                         "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_RUNTIME"};
    for (size_t i = 0; i < COUNT_OF(tables); i++) {
        char sql[512];
        snprintf(sql, sizeof sql,
                 "CREATE TEMP TABLE made AS SELECT * FROM %s ORDER BY start, rowid; DELETE FROM %s; "
                 "INSERT INTO %s SELECT * FROM made; DROP TABLE made",
                 tables[i], tables[i], tables[i]);
        exec_sql(sql, "ordering rows by start");
    }
}

/* Finishes the tables, damages them as the fault options ask, orders them
 * when asked, and commits the one transaction. */
static void close_output(struct gen *g)
{
    struct table_writer *writers[] = {
        &g->w_strings, &g->w_thread_names, &g->w_processes, &g->w_meta_export, &g->w_meta_capture, &g->w_session,
        &g->w_gpu_info, &g->w_context_info, &g->w_stream_info, &g->w_analysis, &g->w_runtime, &g->w_cuda_callchains,
        &g->w_kernel, &g->w_memcpy, &g->w_memset, &g->w_nvtx, &g->w_osrt, &g->w_osrt_callchains};
    for (size_t i = 0; i < COUNT_OF(writers); i++)
        writer_close(writers[i]);
    apply_faults(g->cfg);
    if (g->cfg->start_order)
        order_by_start();
    exec_sql("COMMIT", "committing");
    if (sqlite3_close(g_out.db) != SQLITE_OK)
        fail_sqlite("closing the database");
    g_out.db = NULL;
}

static void print_summary(const struct gen *g)
{
    if (g->cfg->quiet || g->events_total < 1000000)
        return;
    fprintf(stderr,
            "nsysgen: %s: %" PRId64 " runtime, %" PRId64 " kernel, %" PRId64 " memcpy, %" PRId64 " memset, %" PRId64
            " NVTX, %" PRId64 " OSRT rows\n",
            g_out.shown, g->w_runtime.rows, g->w_kernel.rows, g->w_memcpy.rows, g->w_memset.rows, g->w_nvtx.rows,
            g->w_osrt.rows);
}

int main(int argc, char **argv)
{
    struct config cfg = parse_args(argc, argv);
    if (cfg.help) {
        print_help(stdout);
        free_config(&cfg);
        return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
    }
    /* Every step after setup draws from random streams of its own and adds its own rows, in this
     * order, which is part of the output: an option only adds rows, and the same options give the
     * same bytes. The Kineto trace follows the rows as they are written. */
    struct gen g;
    gen_init(&g, &cfg);
    open_output(&cfg);
    setup(&g);
    perturb_setup(&g);
    kineto_open(&g);
    run_host_events(&g);
    write_graphics(&g);
    write_um_openmp_openacc_wddm(&g);
    nvtx_extras(&g);
    write_mpi_net_nvvideo(&g);
    write_dx12_memory_ops(&g);
    write_profiler_overhead(&g);
    write_cuda_graphs(&g);
    write_training_steps(&g);
    emit_inserted_launches(&g);
    write_analysis_details(&g);
    close_output(&g);
    kineto_finish(&g);
    publish_output(&cfg);
    publish_trace(&cfg);
    print_summary(&g);
    gen_free(&g);
    free_config(&cfg);
    return 0;
}

