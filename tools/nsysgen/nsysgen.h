/*
 * nsysgen: writes synthetic Nsight Systems SQLite exports for nstats' tests and benchmarks.
 *
 *   nsysgen --example -o example.sqlite             small, readable, fixed content
 *   nsysgen --kernels 1000000 --backtrace -o big.sqlite
 *   nsysgen --help                                   every option, from OPTIONS[] (options.c)
 *
 * What comes out imitates `nsys export --type=sqlite` of nsys 2024.2.3 (schema 3.11):
 *  - every CREATE TABLE is the exact text of shared/docs/schema-2024.2.3-full.sql (schema.sql holds the
 *    tables nsysgen writes), so sqlite_master looks like a real export's; the ENUM_* tables hold the real
 *    contents (shared/docs/enums-2024.2.3.txt);
 *  - a table is created only when its first row is written, like a lazy export (the default of nsys);
 *  - ids follow the real layout: globalTid = VM<<48 | PID<<24 | TID with VM 1 (real exports carry VM 1,
 *    e.g. TARGET_INFO_GPU.vmId = 281474976710656), globalPid = the same with TID 0;
 *  - the CUDA backtrace pattern is the one of saxpy-mpi-cuda_nsys_perlmutter0.sqlite: an extra runtime row
 *    (eventClass 67, unversioned name, callchainId from 0) just around the real call, and CUDA_CALLCHAINS
 *    ids that are callchainId + 1 (the real export has that off-by-one);
 *  - unified-memory migrations are memcpy rows with no API call: correlationId 0, context 0, stream 0,
 *    kinds Unknown, a migrationCause and a virtualAddress, as in real exports.
 *
 * Output is a pure function of the options: the same options give a byte-identical file (integer
 * arithmetic only, no clock, no addresses). Big runs are one transaction with journal and sync off,
 * one prepared INSERT per table, and no allocation per row.
 *
 * --kineto FILE also writes the same run as torch.profiler writes its trace (Kineto's chrome-trace JSON
 * in the layout of 2024, gzip when FILE ends in .gz); it changes no byte of the export, and is a pure
 * function of the options too. What maps to what (kineto.c):
 *  - time: "ts" and "dur" are the export's integer nanoseconds / 1000 with exactly three decimals, as
 *    Kineto prints them ("{}.{:03}"): ts 104084.101 is start 104084101, so ts * 1000, rounded, gives
 *    the export's ns back exactly; baseTimeNanoseconds is TARGET_INFO_SESSION_START_TIME.utcEpochNs;
 *  - "kernel", "gpu_memcpy", "gpu_memset": a KERNEL, MEMCPY, MEMSET row with a call (not the unified-
 *    memory migrations), pid deviceId, tid streamId, args device, context, stream, correlation and bytes
 *    the row's; a kernel's name is Kineto's spelling (__cxa_demangle of mangledName: `4ul`, `float
 *    const*`), whose base name (src/core/kname.c) is the row's shortName; a copy is "Memcpy HtoD
 *    (Pageable -> Device)", a memset "Memset (Device)";
 *  - "cuda_runtime", "cuda_driver": the RUNTIME rows of eventClass 0 and 1 (not the backtrace rows),
 *    pid and tid from globalTid, the name less its _v<N> suffix, args cbid (CUPTI's) and correlation;
 *  - "ac2g" flows with id the correlationId: "s" at the calls that Kineto starts a flow at (launches,
 *    most copies and memsets, syncs), "f" at every GPU event and, as Kineto does, at every other call;
 *  - "user_annotation": every push/pop NVTX range that ends, numbered (External id) as ranges open; a
 *    call and its GPU work carry the External id of the innermost one open around the call;
 *  - "M" events name each process and GPU, each thread, each stream that ran something; the profiler's
 *    span runs from 2 ms before the first process starts to the session's end.
 * Three options make the trace differ from the export as another profiler's capture of the run can
 * (the export stays byte for byte the same): --kineto-dup-kernels N writes N kernel events twice (the
 * same event, pid, tid, ts and dur), --kineto-bias N makes every kernel's dur N% longer (rounded
 * to the ns, halves up; ts stays), --kineto-clock-offset N puts every ts N ns later
 * (baseTimeNanoseconds stays).
 * Every process goes into the one FILE under its own pid; processes that share a device (more
 * processes than devices) share its GPU pid and stream tids there. Graph executions, migrations, OS
 * runtime calls, NVTX marks and start/end ranges, the graphics, MPI and other tables have no Kineto
 * form, and the export faults (--dup-gpu-rows ...) damage the export alone.
 *
 * Perturbations, for the tests of a diff's regression gate (perturb.c), apply to the run, so export and
 * trace show them alike: --slow-kernel NAME:PCT, --drop-launches N, --insert-launches N, --rename-kernel
 * OLD:NEW. Each draws from a random stream of its own and changes only what it says: a dropped launch
 * still makes its draws and takes its time and ids, inserted launches come after the run's last instant.
 *
 * Adding an option: add a field to struct config (below), its default in default_config(), and a row in
 * OPTIONS[] (options.c); --help is printed from OPTIONS[], so it cannot drift from what the parser accepts.
 *
 * Where things are: main.c runs these steps in a fixed order, which is part of the output; each optional
 * family draws from random streams of its own, so that its option only adds rows and leaves the rest
 * byte for byte the same.
 *   setup.c                   metadata, processes, threads, GPUs, and every name the events use
 *   host_events.c             the host events, dealt to the threads; OS runtime calls (OSRT_API)
 *   cuda.c, cuda_rows.c       kernels, copies, memsets, other CUDA calls, their backtraces
 *   nvtx.c                    NVTX ranges around the host events, and their edge cases
 *   nvtx_launch_ranges.c      --launch-ranges: NVTX ranges around GPU launches
 *   graphics.c                --vulkan, --opengl, --dx11, --dx12
 *   um_openmp_openacc_wddm.c  --um, --openmp, --openacc, --wddm
 *   mpi_net_nvvideo.c         --mpi, --net, --nvvideo
 *   dx12_memory.c             --dx12-mem
 *   profiler_overhead.c       --overhead
 *   cuda_graphs.c             --graphs
 *   training_steps.c          --ranks, --iterations: one rank of a job, its steps and NCCL collectives
 *   export_faults.c           --dup-gpu-rows and the other faults for `nstats check`, applied last
 *   perturb.c                 --slow-kernel, --drop-launches, --insert-launches, --rename-kernel
 *   kineto.c                  --kineto: the trace, written as the rows are
 * Under them: options.c (the command line), output.c (the file and failing cleanly), model.c (random
 * streams, StringIds, weighted picks), table_writer.c (tables from schema.sql), enums*.c (ENUM_*).
 */
#ifndef NSYSGEN_H
#define NSYSGEN_H

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ======================================================================================= options.c */

/* --slow-kernel NAME:PCT and --rename-kernel OLD:NEW; a NULL name: not asked for. name and from
 * are owned (free_config); to points into from's allocation. */
struct name_pct {
    const char *name;
    int64_t pct;
};

struct name_pair {
    const char *from, *to;
};

/* --slow-rank R:FACTOR: FACTOR in thousandths; permille 0: not asked for. */
struct rank_factor {
    int64_t rank;
    int64_t permille;
};

/* --slow-iterations A,B,...: owned (free_config); n 0: every iteration. */
struct index_list {
    int64_t *v;
    size_t n;
};

struct config {
    const char *out_path;
    uint64_t seed;
    int64_t kernels;
    int64_t memcpys;
    int64_t memsets;
    int64_t other_api;
    int64_t processes;
    int64_t threads;
    int64_t devices;
    int64_t streams;
    int64_t kernel_names;
    int64_t nvtx_ranges;
    int64_t osrt_calls;
    int64_t zero_durations;
    int64_t vulkan, opengl, dx11, dx12; /* graphics debug ranges */
    int64_t launch_ranges; /* NVTX ranges around GPU launches (nvtx_launch_ranges.c) */
    bool backtrace;
    bool overlap;
    bool start_order;
    bool collide;
    bool enums;
    bool green_context;
    /* NVTX range edge cases (nvtx.c) */
    bool nvtx_edges;
    bool nvtx_domain_threads;
    bool example;
    bool force;
    bool quiet;
    bool help;
    /* unified memory, OpenMP, OpenACC, WDDM */
    int64_t um_events;
    int64_t openmp_events;
    int64_t openacc_events;
    int64_t wddm_packets;
    int64_t backtrace_processes; /* derived: the first this many processes get backtrace rows */
    /* MPI, network, NvVideo */
    int64_t mpi_events;
    int64_t net_samples;
    int64_t nvvideo_calls;
    bool mpi_no_ranks;
    bool mpi_empty_ranks;
    bool net_no_nic_map;
    /* DX12 memory operations */
    int64_t dx12_mem_calls;
    /* profiler overhead */
    int64_t overhead_rows;
    /* export faults for `nstats check` */
    int64_t fault_dup_gpu, fault_orphan_gpu, fault_stream_overlap, fault_bad_durations;
    int64_t fault_open_ranges, fault_truncated, fault_graph_rows;
    /* GPU time: CUDA graphs */
    int64_t graph_launches;
    /* scale: sizes that switch nstats's algorithms */
    int64_t corr_stride;
    /* the same run as a PyTorch profiler (Kineto) trace (kineto.c); NULL: none */
    const char *kineto_path;
    /* the trace alone differs from the export, as another profiler's capture of the run can */
    int64_t kineto_dup_kernels, kineto_bias, kineto_clock_offset;
    /* perturbations of the run, for the tests of a diff's regression gate (perturb.c) */
    struct name_pct slow_kernel;
    int64_t drop_launches, insert_launches;
    struct name_pair rename_kernel;
    /* one rank of a multi-rank job, and its training steps (training_steps.c); ranks 0: not a job */
    int64_t ranks, rank;
    int64_t iterations;
    int64_t nccl_overlap; /* percent */
    struct rank_factor slow_rank;
    struct index_list slow_iterations;
    const char *step_name; /* NULL: "step"; ending in '#': numbered */
    bool same_steps;       /* every step the first's plan, durations jittered */
};

/* The options of the command line, checked; exits with status 2 on a usage error. */
struct config parse_args(int argc, char **argv);
void free_config(struct config *c);
void print_help(FILE *out);

/* ======================================================================================= output.c */

/* What fail() reports about and cleans up: the file being written. */
struct output_file {
    const char *shown; /* the output path as given: the <file> of every message */
    char *tmp_path;    /* the half-written temporary file, removed on failure */
    sqlite3 *db;
    char *trace_tmp_path; /* the same for the --kineto trace */
};
extern struct output_file g_out;

/* Prints `nsysgen: <file>: <what>`, removes the temporary file and exits with status 1. */
_Noreturn void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void fail_sqlite(const char *what);
void exec_sql(const char *sql, const char *what);
void *xcalloc(size_t n, size_t size);
char *xstrdup(const char *s);

/* The export is written to a temporary file beside the output, moved into place once complete. */
void open_output(const struct config *c);
void publish_output(const struct config *c);
void publish_trace(const struct config *c);

/* ======================================================================================= random numbers */

/* xoshiro256** seeded through splitmix64: fast, and the same sequence on every platform. */
struct rng {
    uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);

/* Drawing is inline: it runs for nearly every column of every row. */
static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(struct rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* A number in [0, n); the modulo bias is irrelevant for test data.
 * No two draws (these functions, or any that call them) may be unsequenced: not two arguments of one
 * call, two operands of one operator other than ?:, && and ||, or two values of one braced initializer;
 * each takes a statement of its own, into a local variable. C leaves their order unspecified, and gcc
 * (arguments right to left) and clang (left to right) really do differ, which would make the output
 * depend on the compiler. Where a call once drew twice, the statements keep gcc's order, so that the
 * exports the golden tests were made from stayed byte for byte the same. */
static inline int64_t rng_below(struct rng *r, int64_t n) { return n <= 1 ? 0 : (int64_t)(rng_next(r) % (uint64_t)n); }

static inline int64_t rng_range(struct rng *r, int64_t lo, int64_t hi) { return lo + rng_below(r, hi - lo + 1); }

static inline bool rng_one_in(struct rng *r, int64_t n) { return rng_below(r, n) == 0; }

static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* ======================================================================================= table_writer.c */

/* One table of the export: created on its first row, like a lazy export, then filled through one
 * prepared INSERT. A row is built with row_begin(), one put_*() per column in the table's column order,
 * and row_end(), which checks that the count matches the CREATE TABLE text. */
struct table_writer {
    const char *table;
    sqlite3_stmt *insert; /* NULL until the first row */
    int ncols;            /* columns of the full 2024.2.3 table = parameters ?1..?ncols */
    int next;             /* the parameter the next put_*() binds */
    int bind_rc;          /* the first bind error of the row being built */
    int64_t rows;
};

#define WRITER(table) {table, NULL, 0, 0, SQLITE_OK, 0}

/* src/db/schema.sql, which the Makefile turns into a C string at build time. */
extern const char SCHEMA_SQL[];

/* The CREATE TABLE text of `table`, for sqlite3_free(); writer_open() uses it, less any column left out. */
char *schema_create_table(const char *table);
void writer_open(const struct config *cfg, struct table_writer *w);
void row_begin(const struct config *cfg, struct table_writer *w);
void put_int(struct table_writer *w, int64_t v);
void put_null(struct table_writer *w);
void put_text(struct table_writer *w, const char *s);
void put_int_or_null(struct table_writer *w, bool present, int64_t v);
void row_end(struct table_writer *w);
void writer_close(struct table_writer *w);

/* ======================================================================================= enums.c */

struct enum_row {
    int64_t id;
    const char *name;
    const char *label;
};

struct enum_table {
    const char *table;
    const char *comment;
    const struct enum_row *rows;
    size_t nrows;
};

/* The ENUM_* tables in the order they are created (alphabetical, as in nsys's schema), in two lists
 * only to keep files short. */
extern const struct enum_table ENUM_TABLES_CUDA_TO_NET[];
extern const size_t ENUM_TABLES_CUDA_TO_NET_COUNT;
extern const struct enum_table ENUM_TABLES_NSYS_TO_WDDM[];
extern const size_t ENUM_TABLES_NSYS_TO_WDDM_COUNT;

void write_enum_tables(void);

/* ======================================================================================= model */
/* The run's processes, threads, contexts and clocks, which every writer reads (struct gen). */

/* Memory kinds (ENUM_CUDA_MEM_KIND) and copy kinds (ENUM_CUDA_MEMCPY_OPER). */
enum {
    MEM_PAGEABLE, MEM_PINNED, MEM_DEVICE, MEM_ARRAY, MEM_MANAGED, MEM_DEVICE_STATIC, MEM_MANAGED_STATIC, MEM_UNKNOWN
};
enum {
    COPY_UNKNOWN, COPY_HTOD, COPY_DTOH, COPY_HTOA, COPY_ATOH, COPY_ATOA, COPY_ATOD, COPY_DTOA, COPY_DTOD, COPY_HTOH,
    COPY_PTOP, COPY_UVM_HTOD, COPY_UVM_DTOH, COPY_UVM_DTOD
};

enum { EVENT_CLASS_CUDA_RUNTIME = 0, EVENT_CLASS_CUDA_DRIVER = 1, EVENT_CLASS_OS_RUNTIME = 27,
       EVENT_CLASS_OSRT_START = 31, EVENT_CLASS_CUDA_BACKTRACE = 67 };

struct nvtx_name {
    const char *text;
    int domain;
    bool registered; /* a registered string (textId into StringIds) rather than plain text */
};

struct nvtx_level {
    const struct nvtx_name *names;
    size_t count;
    int64_t max_cover; /* at most this many host events inside a range of the level */
};

#define NVTX_MAX_DEPTH 4
#define NVTX_MAX_OPEN 3 /* start/end ranges open at once on a thread */

enum { NVTX_MARK = 34, NVTX_PUSH_POP = 59, NVTX_START_END_RANGE = 60, NVTX_DOMAIN_CREATE = 75 };
#define NVTX_GREEN INT64_C(0xFF76B900)

/* Where a CUDA call came from: the user frame of its backtrace. */
enum caller { CALLER_LAUNCH, CALLER_COPY, CALLER_SETUP, CALLER_COUNT };

#define PROCESS_NAME "stencil_mpi"
#define MODULE_APP "/home/user/stencil/build/" PROCESS_NAME
#define MODULE_CUPTI "/opt/nvidia/nsight-systems/2024.2.3/target-linux-x64/libcupti.so.12.4"
#define MODULE_CUDA "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15"
#define MODULE_CUDART "/usr/local/cuda-12.4/lib64/libcudart.so.12.4.127"
#define MODULE_LIBC "/usr/lib/x86_64-linux-gnu/libc.so.6"

/* Real exports carry VM id 1 in bits 48..55 of every globalTid/globalPid and in TARGET_INFO_GPU.vmId. */
#define VM_ID 1
#define GLOBAL_VM_BITS ((uint64_t)VM_ID << 48)
#define FIRST_PID 1230493

/* StringIds: each distinct string once, with ids in first-use order. All interning happens while
 * setting up, so the per-row code only copies ids. */
struct string_pool {
    char **keys;
    int64_t *ids;
    size_t cap; /* a power of two */
    size_t count;
};

struct process {
    int64_t pid;
    uint64_t gpid;
    int64_t next_corr;
    int64_t next_grid_id;
    int64_t next_range_id; /* the id nvtxRangeStart returns */
    int64_t start_time;
    int first_context, ncontexts;
    int first_thread;
    bool backtrace;
};

/* A CUDA context: one per process and device it uses. */
struct context {
    int process;
    int device;
    int64_t context_id;
    int64_t first_stream_id; /* the null stream; the process's other streams on the device follow */
};

struct open_range {
    int64_t start;
    int64_t external_id; /* its External id in the Kineto trace (push/pop ranges with --kineto) */
    int64_t cover_left; /* host events still to come inside the range */
    const struct nvtx_name *name;
    int64_t range_id;  /* start/end ranges only */
    bool cross_thread; /* a start/end range that another thread of the process ends */
};

struct thread {
    uint64_t gtid;
    int process;
    int index_in_process;
    int64_t now;         /* the thread's clock: where its next event can start */
    int64_t events_left; /* host events still to come on this thread */
    int64_t ranges_left; /* NVTX ranges still to open on this thread */
    int64_t body_pos;    /* position in the kernel sequence (struct gen.body) */
    struct open_range stack[NVTX_MAX_DEPTH];
    int depth;
    struct open_range open[NVTX_MAX_OPEN];
    int nopen;
};

struct kernel_name {
    int family;
    int param; /* the template parameter of this instance of a templated family */
    int64_t demangled_id, short_id, mangled_id;
    int64_t launches; /* so far, for DUR_STEPPED */
    bool slow;        /* --slow-kernel names it */
    bool nccl;        /* family indexes the NCCL kernels of the training steps, not the run's families */
};

/* The collectives of the training steps, in the order of cuda.c's NCCL_FAMILIES. */
enum nccl_collective { NCCL_ALL_REDUCE, NCCL_ALL_GATHER, NCCL_SEND_RECV, NCCL_COLLECTIVE_COUNT };

/* Ids of one CUDA API: the versioned name of the call and the unversioned one of its backtrace row;
 * `kineto` is its row in kineto.c's table of names and callback ids. */
struct api_ids {
    int64_t name, backtrace_name;
    int event_class;
    int kineto;
};

/* Picks from a table: the first pass takes each row in order, so a run with at least as many
 * operations as rows shows every row; then the weights decide. */
struct weighted_table {
    size_t count;
    int64_t cumulative[32];
    int64_t seq; /* picks so far */
};

enum event_kind { EV_KERNEL, EV_MEMCPY, EV_MEMSET, EV_OTHER_API, EV_OSRT, EV_KINDS };

/* The rows of MEMCPY_KINDS, MEMSET_KINDS, OTHER_APIS (cuda.c) and OSRT_CALLS (host_events.c), which
 * check them: struct gen keeps the ids of each one's name. */
enum { MEMCPY_KIND_COUNT = 20, MEMSET_KIND_COUNT = 5, OTHER_API_COUNT = 14, OSRT_CALL_COUNT = 13 };

struct gen {
    const struct config *cfg;
    struct rng rng;
    /* Backtrace rows and zero durations draw from streams of their own, so that --backtrace only adds
     * rows: without its rows, a --backtrace export holds exactly the rows of the same run without it. */
    struct rng backtrace_rng, zero_rng;
    struct string_pool strings;

    struct table_writer w_strings, w_thread_names, w_processes, w_meta_export, w_meta_capture, w_session,
        w_gpu_info, w_context_info, w_stream_info, w_analysis, w_runtime, w_cuda_callchains, w_kernel, w_memcpy,
        w_memset, w_nvtx, w_osrt, w_osrt_callchains;

    struct process *procs;
    struct context *contexts;
    int ncontexts;
    struct thread *threads;
    int nthreads;
    int64_t *lane_free; /* when each GPU lane is next free: one per device, or per stream with --overlap */
    int64_t *device_busy_until;

    struct kernel_name *kernel_names;
    int64_t nkernel_names;
    int64_t *body; /* the loop body every thread walks: each kernel once, then the hot ones again */
    int64_t body_len;

    struct api_ids launch_api, memcpy_api[MEMCPY_KIND_COUNT], memset_api[MEMSET_KIND_COUNT],
        other_api[OTHER_API_COUNT];
    int64_t osrt_name[OSRT_CALL_COUNT];
    struct weighted_table memcpy_pick, memset_pick, other_pick, osrt_pick;

    /* callchain frame strings */
    int64_t sym_cupti[2], sym_cuda_internal, sym_caller[CALLER_COUNT], sym_main, sym_libc_main, sym_start,
        sym_start_thread, sym_clone, mod_app, mod_cupti, mod_cuda, mod_cudart, mod_libc;

    int64_t next_cuda_callchain; /* callchainId of the next backtrace row: from 0, as in real exports */
    int64_t next_osrt_callchain; /* from 1: callchainId 0 means none */
    int64_t next_migration_address;
    int64_t gpu_ops_left, zero_durations_left;
    int64_t last_time;
    int64_t events_total;
    struct launch_ranges *lr; /* --launch-ranges; NULL without it */
    struct kineto *kin;       /* --kineto; NULL without it */
    /* --drop-launches: a dropped launch makes its draws and takes its time, but writes no row
     * (`muted`), so that the rest of the run stays what it was */
    bool muted;
    struct rng drop_rng;
    int64_t launches_left, drops_left;
};

/* The one GPU model of the run: TARGET_INFO_GPU (setup.c) and the trace's deviceProperties (kineto.c). */
struct gpu_model {
    const char *name;
    int64_t total_memory, sm_count, compute_major, compute_minor, max_threads_per_block, max_warps_per_sm,
        max_blocks_per_sm, max_regs_per_block, max_regs_per_sm, warp_size, max_shmem_per_block,
        max_shmem_per_block_optin, max_shmem_per_sm;
};
extern const struct gpu_model GPU_MODEL;

/* A CUDA call on the host and the GPU work it started. */
struct gpu_span {
    int64_t api_start, api_end, gpu_start, gpu_end;
};

/* One NVTX_EVENTS row; the has_* flags say which nullable columns have a value. */
struct nvtx_row {
    int event_type;
    int64_t start;
    bool has_end;
    int64_t end;
    const struct nvtx_name *name; /* text or registered string, and domain */
    uint64_t gtid;
    bool has_end_gtid; /* a start/end range ended by another thread */
    uint64_t end_gtid;
    bool has_range_id; /* start/end ranges */
    int64_t range_id;
    bool colored;
    int64_t external_id; /* of a push/pop range opened through kineto_push(); 0: the row's own */
};

/* ---- model.c: the StringIds pool, the run's end, weighted picks */
int64_t intern(struct gen *g, const char *s);
struct api_ids intern_api(struct gen *g, const char *name, int event_class);
void pool_free(struct string_pool *p);
void note_time(struct gen *g, int64_t t);
void weighted_init(struct weighted_table *t, const int *weights, size_t count);
size_t weighted_pick(struct gen *g, struct weighted_table *t);
int64_t pick_int(struct gen *g, const int64_t *values, size_t count);

/* ---- setup.c */
void setup(struct gen *g);
void write_analysis_details(struct gen *g);
int64_t session_start_utc_ns(const struct gen *g);

/* ---- cuda.c (the sizes are here because other files take COUNT_OF of these tables) */
extern const int64_t COPY_BYTES[8];
extern const int64_t MIGRATION_BYTES[6];
void setup_cuda_api_names(struct gen *g);
void setup_kernel_names(struct gen *g);
void setup_kernel_body(struct gen *g);
void setup_frame_strings(struct gen *g);
void emit_kernel_launch(struct gen *g, struct thread *th);
void emit_memcpy(struct gen *g, struct thread *th);
void emit_memset(struct gen *g, struct thread *th);
void emit_other_api(struct gen *g, struct thread *th);
void emit_inserted_launches(struct gen *g);
bool kernel_base_name_in_run(const char *name, int64_t kernel_names);
void write_kernel_row(struct gen *g, struct rng *r, const struct thread *th, const struct gpu_span *s, int ctx,
                      int stream, int64_t corr, const struct kernel_name *kn);
void setup_nccl_kernel_names(struct gen *g, struct kernel_name out[NCCL_COLLECTIVE_COUNT]);
bool kernel_is_nccl(const struct kernel_name *kn);

/* ---- perturb.c */
void perturb_setup(struct gen *g);
bool drop_this_launch(struct gen *g);
int64_t slowed_duration(const struct config *c, int64_t ns);
void rename_in_name(const char *text, const char *from, const char *to, char *out, size_t size);
void rename_in_mangled(const char *text, const char *from, const char *to, char *out, size_t size);

/* ---- cuda_rows.c */
void write_runtime_row(struct gen *g, int64_t start, int64_t end, int event_class, uint64_t gtid, int64_t corr,
                       int64_t name_id, int64_t ret, bool has_callchain, int64_t callchain);
void write_api_call(struct gen *g, const struct thread *th, const struct api_ids *api, int64_t start, int64_t end,
                    int64_t corr, int64_t ret, enum caller caller);
int64_t stream_id(const struct gen *g, int ctx, int stream);
void put_gpu_prefix(struct gen *g, struct table_writer *w, const struct gpu_span *s, int ctx, int stream,
                    int64_t corr);

/* ---- host_events.c */
int64_t host_gap(struct gen *g);
void setup_osrt_names(struct gen *g);
void run_host_events(struct gen *g);

/* ---- nvtx.c (sized for the same reason) */
extern const char *const NVTX_DOMAINS[3];
extern const struct nvtx_name NVTX_LEVEL0[3];
extern const struct nvtx_name NVTX_START_END[3];
extern const struct nvtx_level NVTX_LEVELS[NVTX_MAX_DEPTH];
void setup_nvtx_strings(struct gen *g);
void write_nvtx_row(struct gen *g, const struct nvtx_row *r);
void nvtx_before_event(struct gen *g, struct thread *th);
void nvtx_after_event(struct gen *g, struct thread *th);
void nvtx_finish_thread(struct gen *g, struct thread *th);
void nvtx_extras(struct gen *g);

/* ---- nvtx_launch_ranges.c */
void launch_ranges_setup(struct gen *g);
void launch_ranges_before(struct gen *g, struct thread *th, enum event_kind kind);
void launch_ranges_after(struct gen *g, struct thread *th, enum event_kind kind);
void launch_ranges_finish(struct gen *g);

/* ---- the optional tables, one family per file, each written after the host events */
void write_graphics(struct gen *g);
void write_um_openmp_openacc_wddm(struct gen *g);
void write_mpi_net_nvvideo(struct gen *g);
void write_dx12_memory_ops(struct gen *g);
void write_profiler_overhead(struct gen *g);
void write_cuda_graphs(struct gen *g);
void write_training_steps(struct gen *g);
void apply_faults(const struct config *c);

/* ---- kineto.c: --kineto, the same run as a PyTorch profiler trace. Each function does nothing
 * without --kineto, or for a launch that --drop-launches mutes. */
struct kineto_kernel {
    const char *name; /* as Kineto spells it */
    int64_t registers, static_smem, dynamic_smem;
    const int *grid, *block;
};
int kineto_api(const char *nsys_name);
void kineto_open(struct gen *g);
int64_t kineto_push(struct gen *g, const struct thread *th);
void kineto_pop(struct gen *g, const struct thread *th, int64_t external_id);
void kineto_call(struct gen *g, const struct thread *th, const struct api_ids *api, int64_t start, int64_t end,
                 int64_t corr);
void kineto_kernel(struct gen *g, const struct thread *th, const struct gpu_span *s, int ctx, int stream,
                   int64_t corr, const struct kineto_kernel *kk);
void kineto_memcpy(struct gen *g, const struct thread *th, const struct gpu_span *s, int ctx, int stream,
                   int64_t corr, int64_t bytes, int copy_kind, int src_kind, int dst_kind, int dst_device);
void kineto_memset(struct gen *g, const struct thread *th, const struct gpu_span *s, int ctx, int stream,
                   int64_t corr, int64_t bytes, int mem_kind);
void kineto_annotation(struct gen *g, const struct nvtx_row *r);
void kineto_finish(struct gen *g);

#endif
