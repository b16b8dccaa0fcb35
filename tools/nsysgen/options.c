/* nsysgen's command line: every option is a row of OPTIONS[], which the parser reads and --help prints. */
#include <errno.h>
#include <stdarg.h>

#include "nsysgen.h"

enum option_kind {
    OPT_COUNT, /* --name N: an integer in [min, max] */
    OPT_SEED,  /* --name N: any unsigned 64-bit integer */
    OPT_PATH,  /* --name FILE */
    OPT_TEXT,  /* --name NAME: kept as given */
    OPT_SET,   /* a flag that sets a bool */
    OPT_CLEAR, /* a flag that clears a bool */
    OPT_NAME_PCT,  /* --name NAME:PCT: a struct name_pct */
    OPT_NAME_PAIR, /* --name OLD:NEW: a struct name_pair */
    OPT_RANK_FACTOR, /* --name R:FACTOR: a struct rank_factor */
    OPT_INDEX_LIST,  /* --name A,B,...: a struct index_list */
};

struct option_spec {
    const char *name;
    const char *alias; /* a one-letter form, or NULL */
    enum option_kind kind;
    size_t field;      /* offsetof(struct config, ...) */
    int64_t min, max;  /* OPT_COUNT only */
    bool content;      /* chooses content, so it cannot be combined with --example */
    const char *help;
};

#define FIELD(f) offsetof(struct config, f)
#define MAX_OPS INT64_C(1000000000)

static const struct option_spec OPTIONS[] = {
    {"--output", "-o", OPT_PATH, FIELD(out_path), 0, 0, false,
     "write the export to FILE (required; an existing FILE is refused)"},
    {"--force", NULL, OPT_SET, FIELD(force), 0, 0, false, "overwrite FILE if it exists"},
    {"--quiet", "-q", OPT_SET, FIELD(quiet), 0, 0, false, "no progress report on stderr for big runs"},
    {"--example", NULL, OPT_SET, FIELD(example), 0, 0, false,
     "the bundled example: 2 processes on 2 devices, every kind of row, backtraces on the first process, "
     "a few hundred rows, fixed content"},
    {"--seed", NULL, OPT_SEED, FIELD(seed), 0, 0, true, "seed of the pseudo-random content"},
    {"--kernels", NULL, OPT_COUNT, FIELD(kernels), 0, MAX_OPS, true,
     "kernel launches: one cudaLaunchKernel_v7000 runtime row and one kernel row each"},
    {"--memcpy", NULL, OPT_COUNT, FIELD(memcpys), 0, MAX_OPS, true,
     "memory copies, each with its cudaMemcpy* call; unified-memory migrations have none. "
     "From 20 on, every copyKind and every source and destination memory kind appears"},
    {"--memset", NULL, OPT_COUNT, FIELD(memsets), 0, MAX_OPS, true, "memsets, each with its cudaMemset* call"},
    {"--other-api", NULL, OPT_COUNT, FIELD(other_api), 0, MAX_OPS, true,
     "CUDA runtime and driver calls with no GPU work (cudaMalloc, cudaStreamSynchronize, cuMemAlloc_v2, ...)"},
    {"--processes", NULL, OPT_COUNT, FIELD(processes), 1, 1000, true, "processes"},
    {"--threads", NULL, OPT_COUNT, FIELD(threads), 1, 1000, true, "threads per process that make calls"},
    {"--devices", NULL, OPT_COUNT, FIELD(devices), 1, 64, true,
     "GPUs; with at least as many processes as GPUs each process uses one, otherwise they are shared out"},
    {"--streams", NULL, OPT_COUNT, FIELD(streams), 1, 64, true,
     "streams per device and process; the first one is the null stream"},
    {"--kernel-names", NULL, OPT_COUNT, FIELD(kernel_names), 1, 1000000, true,
     "distinct kernels (templated C++ names with commas and spaces, extern \"C\" names)"},
    {"--nvtx", NULL, OPT_COUNT, FIELD(nvtx_ranges), 0, MAX_OPS, true,
     "NVTX ranges: push/pop nested up to 4 deep and start/end, in the default domain and 2 named ones; "
     "also about one mark per 8 ranges"},
    {"--osrt", NULL, OPT_COUNT, FIELD(osrt_calls), 0, MAX_OPS, true, "OS runtime calls (OSRT_API)"},
    {"--zero-durations", NULL, OPT_COUNT, FIELD(zero_durations), 0, MAX_OPS, true,
     "GPU operations (kernel, memcpy, memset) that get a zero duration"},
    {"--vulkan", NULL, OPT_COUNT, FIELD(vulkan), 0, MAX_OPS, true,
     "Vulkan debug-utils label ranges (begin and end calls, and their GPU workloads) in frames of passes, "
     "with the Vulkan API calls of each frame"},
    {"--opengl", NULL, OPT_COUNT, FIELD(opengl), 0, MAX_OPS, true,
     "OpenGL KHR_debug groups on the CPU and the GPU, in frames of passes; one more is left open"},
    {"--dx11", NULL, OPT_COUNT, FIELD(dx11), 0, MAX_OPS, true, "D3D11 PIX event ranges (begin and end calls)"},
    {"--dx12", NULL, OPT_COUNT, FIELD(dx12), 0, MAX_OPS, true,
     "D3D12 PIX event ranges on a command list (begin and end calls, and their GPU workloads)"},
    {"--launch-ranges", NULL, OPT_COUNT, FIELD(launch_ranges), 0, MAX_OPS, true,
     "about N more NVTX ranges, around GPU launches on the launching thread: push/pop ranges that hold "
     "1 to 8 launches, inside them up to 3 nested push/pop ranges around one launch, and 1 in 4 "
     "chains inside a start/end range (1 in 8 of them ended by another thread); the other ranges "
     "of --nvtx do not nest with these, so use --nvtx 0 with it"},
    {"--backtrace", NULL, OPT_SET, FIELD(backtrace), 0, 0, true,
     "every CUDA API call also gets a CUDA backtrace row (eventClass 67) and a callchain"},
    {"--overlap", NULL, OPT_SET, FIELD(overlap), 0, 0, true,
     "kernels on different streams of a device overlap in time (default: a device runs one operation at a time)"},
    {"--start-order", NULL, OPT_SET, FIELD(start_order), 0, 0, true,
     "write the kernel, memcpy, memset and CUDA runtime tables each in start order, as nsys writes them "
     "(default: in the order rows are made, a thread or stream at a time; the test fixtures keep that)"},
    {"--collide", NULL, OPT_SET, FIELD(collide), 0, 0, true,
     "correlationIds start at the same value in every process, as in real captures (the default)"},
    {"--no-collide", NULL, OPT_CLEAR, FIELD(collide), 0, 0, true, "give each process its own correlationId range"},
    {"--no-enums", NULL, OPT_CLEAR, FIELD(enums), 0, 0, true, "omit the ENUM_* tables, like exports before schema 3.0"},
    {"--no-green-context", NULL, OPT_CLEAR, FIELD(green_context), 0, 0, true,
     "omit the greenContextId columns, like exports before 2024.2"},
    {"--um", NULL, OPT_COUNT, FIELD(um_events), 0, MAX_OPS, true,
     "unified memory events: migrations each way (CUPTI_ACTIVITY_KIND_MEMCPY with a virtualAddress) and CPU and GPU "
     "page faults, over a few pages per process so that addresses repeat"},
    {"--openmp", NULL, OPT_COUNT, FIELD(openmp_events), 0, MAX_OPS, true,
     "OpenMP events in five OPENMP_EVENT_KIND_* tables (parallel, sync region, sync region wait, workshare, task)"},
    {"--openacc", NULL, OPT_COUNT, FIELD(openacc_events), 0, MAX_OPS, true,
     "OpenACC events in CUPTI_ACTIVITY_KIND_OPENACC_DATA, _LAUNCH and _OTHER"},
    {"--wddm", NULL, OPT_COUNT, FIELD(wddm_packets), 0, MAX_OPS, true,
     "WDDM packets: queue and DMA packet start and stop events on three contexts per process "
     "(TARGET_INFO_WDDM_CONTEXTS); the last ones may still be in flight"},
    {"--nvtx-edges", NULL, OPT_SET, FIELD(nvtx_edges), 0, 0, true,
     "after everything else, every thread of the first process pushes the same odd ranges at the same "
     "instants: a chain 8 deep, equal starts and ends, identical twins, a zero-length range where two "
     "ranges touch, ranges that cross, and (first thread) a range never popped"},
    {"--nvtx-domain-threads", NULL, OPT_SET, FIELD(nvtx_domain_threads), 0, 0, true,
     "the named NVTX domains are created again on every other thread of each process (rows added at the "
     "end of NVTX_EVENTS)"},
    /* MPI, network, NvVideo */
    {"--mpi", NULL, OPT_COUNT, FIELD(mpi_events), 0, MAX_OPS, true,
     "MPI events (point-to-point, collectives, start/wait, other), every rank (process) calling in lockstep, "
     "with MPI_RANKS; rank 0's MPI_Finalize has no end"},
    {"--mpi-no-ranks", NULL, OPT_SET, FIELD(mpi_no_ranks), 0, 0, true, "leave MPI_RANKS out"},
    {"--mpi-empty-ranks", NULL, OPT_SET, FIELD(mpi_empty_ranks), 0, 0, true, "write MPI_RANKS with no rows"},
    {"--net", NULL, OPT_COUNT, FIELD(net_samples), 0, MAX_OPS, true,
     "1 ms samples of 4 NICs and 2 InfiniBand switches (bytes, packets, send waits)"},
    {"--net-no-nic-map", NULL, OPT_SET, FIELD(net_no_nic_map), 0, 0, true, "leave NIC_ID_MAP out"},
    {"--nvvideo", NULL, OPT_COUNT, FIELD(nvvideo_calls), 0, MAX_OPS, true,
     "NvVideo encoder, decoder and nvJPEG API calls"},
    /* DX12 memory operations */
    {"--dx12-mem", NULL, OPT_COUNT, FIELD(dx12_mem_calls), 0, MAX_OPS, true,
     "D3D12 calls in DX12_API with their DX12_MEMORY_OPERATION rows: heaps and committed resources "
     "created with and without zeroing, maps, unmaps, subresource reads and writes on every heap type "
     "and CPU page; some calls touch two subresources, some touch no memory"},
    {"--overhead", NULL, OPT_COUNT, FIELD(overhead_rows), 0, MAX_OPS, true,
     "PROFILER_OVERHEAD rows per process and device: CUDA profiling flush/stop overhead and other profiler "
     "work, inside, across the ends of and outside the span of its GPU operations"},
    /* export faults for `nstats check`: applied to the finished export, each from a random stream of
     * its own, so that without them every row is what it was */
    {"--dup-gpu-rows", NULL, OPT_COUNT, FIELD(fault_dup_gpu), 0, MAX_OPS, true,
     "exact copies of N random kernel, memcpy or memset rows; every third one is instead a memset row "
     "moved onto a kernel's device, stream, start and end (a duplicate across tables)"},
    {"--orphan-gpu-rows", NULL, OPT_COUNT, FIELD(fault_orphan_gpu), 0, MAX_OPS, true,
     "N random kernel, memcpy or memset rows get a correlationId no call has (their calls are left "
     "without GPU work)"},
    {"--stream-overlap", NULL, OPT_COUNT, FIELD(fault_stream_overlap), 0, MAX_OPS, true,
     "N random kernels end 1 to 200 us later (most then overlap the next kernel of their stream)"},
    {"--bad-durations", NULL, OPT_COUNT, FIELD(fault_bad_durations), 0, MAX_OPS, true,
     "N random kernel, memcpy, memset or runtime rows end 0 to 2 ns before they start"},
    {"--open-ranges", NULL, OPT_COUNT, FIELD(fault_open_ranges), 0, MAX_OPS, true,
     "N random NVTX push/pop or start/end ranges lose their end"},
    {"--truncated", NULL, OPT_COUNT, FIELD(fault_truncated), 0, MAX_OPS, true,
     "N random kernel, memcpy, runtime or NVTX rows move after the session's end (ANALYSIS_DETAILS.duration)"},
    {"--graph-rows", NULL, OPT_COUNT, FIELD(fault_graph_rows), 0, MAX_OPS, true,
     "N CUPTI_ACTIVITY_KIND_GRAPH_TRACE rows (graph-level tracing) after random kernels on their stream, "
     "and CUDA_GRAPH_TRACE_OPTIONS:MODE=Graph in META_DATA_CAPTURE"},
    /* GPU time: CUDA graphs */
    {"--graphs", NULL, OPT_COUNT, FIELD(graph_launches), 0, MAX_OPS, true,
     "CUDA graph launches traced at graph level: a cudaGraphLaunch_v10000 call and one "
     "CUPTI_ACTIVITY_KIND_GRAPH_TRACE row each (its kernels in no KERNEL row), on the streams of every process, "
     "spread over the run so that they overlap kernels, copies and each other now and then"},
    /* scale: sizes that switch nstats's algorithms */
    {"--corr-stride", NULL, OPT_COUNT, FIELD(corr_stride), 1, 1000000, true,
     "consecutive CUDA calls of a process take correlationIds N apart (default 1: nearly dense, as in "
     "real captures); from about 5 on, a process's ids are too sparse for a direct-address index"},
    /* the same run as a PyTorch profiler trace */
    {"--kineto", NULL, OPT_PATH, FIELD(kineto_path), 0, 0, false,
     "also write the run as torch.profiler (Kineto) writes its trace: JSON, gzip-compressed when FILE ends in "
     ".gz. Every kernel, memcpy and memset with its cudaLaunchKernel/cudaMemcpy*/cudaMemset* call, every other "
     "CUDA call (cuda_runtime, driver calls cuda_driver) and every ended push/pop NVTX range (user_annotation) "
     "of the export; ts and dur are the export's nanoseconds divided by 1000 with exactly three decimals "
     "(ts 1234.567 = 1234567 ns), baseTimeNanoseconds its session start. GPU events have pid the device, tid "
     "the streamId, and the call's correlation; ac2g flows pair them with their calls. Processes share the "
     "one FILE, each under its own pid (processes that share a device share its GPU pid and tids); "
     "unified-memory migrations, graph executions (--graphs: the calls are there) and the rows of the other "
     "options have no Kineto form, and the export faults apply to the export alone. The export is the same "
     "with or without it"},
    /* the trace alone differs from the export, as another profiler's capture of the run can */
    {"--kineto-dup-kernels", NULL, OPT_COUNT, FIELD(kineto_dup_kernels), 0, MAX_OPS, true,
     "with --kineto: N kernel events of the trace are written twice (the same event: name, pid, tid, ts, "
     "dur and correlation), spread over the run: every (--kernels / N)th kernel event, from the middle of "
     "the first such step on; the export is the same"},
    {"--kineto-bias", NULL, OPT_COUNT, FIELD(kineto_bias), -99, 1000, true,
     "with --kineto: every kernel event's dur in the trace is N% longer than the export's duration "
     "(rounded to the ns, halves up; a negative N makes it shorter); its ts, the other events and the "
     "export are the same"},
    {"--kineto-clock-offset", NULL, OPT_COUNT, FIELD(kineto_clock_offset), 0, INT64_C(1000000000000000), true,
     "with --kineto: every ts of the trace is N ns later, as on a clock of its own (durations and "
     "baseTimeNanoseconds stay); the export is the same"},
    /* perturbations, for a diff's regression gate: the run with a known change, export and trace alike */
    {"--slow-kernel", NULL, OPT_NAME_PCT, FIELD(slow_kernel), -99, 100000, true,
     "every launch of the kernels whose base name (shortName) is NAME lasts PCT% longer (rounded to the ns; "
     "a negative PCT makes it faster); work queued behind it on its device (its stream with --overlap) "
     "starts later, as on a GPU; in the steps of --iterations, each of its compute kernels and what follows it "
     "in the step. NAME is the name before any --rename-kernel"},
    {"--drop-launches", NULL, OPT_COUNT, FIELD(drop_launches), 0, MAX_OPS, true,
     "N kernel launches, chosen from the seed, are left out: their kernel rows, calls and backtraces (their "
     "correlationIds and time stay taken, so everything else is what it was)"},
    {"--insert-launches", NULL, OPT_COUNT, FIELD(insert_launches), 0, MAX_OPS, true,
     "N more kernel launches, after everything else: kernels, threads, contexts and streams chosen from the "
     "seed, new correlationIds"},
    {"--rename-kernel", NULL, OPT_NAME_PAIR, FIELD(rename_kernel), 0, 0, true,
     "the kernels whose base name is OLD are named NEW (an identifier) in every spelling: shortName, "
     "demangledName, mangledName and the trace's name"},
    /* one rank of a multi-rank job (training_steps.c) */
    {"--ranks", NULL, OPT_COUNT, FIELD(ranks), 1, 100000, true,
     "the export is one rank of a job of N ranks (0: not a job): one process, whose threads MPI_RANKS maps "
     "to --rank, with the pid of that rank. Run it once per rank with the same other options: every rank "
     "then has the same program (the same calls and kernels in the same order, at the same times outside "
     "the steps of --iterations)"},
    {"--rank", NULL, OPT_COUNT, FIELD(rank), 0, 99999, true, "which rank of --ranks the export is"},
    {"--iterations", NULL, OPT_COUNT, FIELD(iterations), 0, 1000000, true,
     "with --ranks: after the rest of the run, N training steps, each an NVTX push/pop range `step` (--step-name) "
     "on the main thread. A step is 5 phases of compute kernels on the null stream (1 to 3 kernels of 30 to 120 us "
     "each), each followed by an NCCL collective on the last stream of the rank's device (AllReduce, "
     "AllGather, AllReduce, AllGather, SendRecv; 40 to 160 us), then a tail of compute kernels and a "
     "cudaDeviceSynchronize; the range ends 600 ns after that call. Every launch has its cudaLaunchKernel "
     "call. Timing: a step starts at the same instant on every rank; rank r's kernel of a collective "
     "starts when r's compute before it ends (r arrives), and every rank's kernel of it ends at the "
     "latest arrival plus the collective's base duration; the next phase starts 2 us later on every rank. "
     "The next step starts 50 us after the latest rank's range ends. Durations come from the seed alone, "
     "so a rank differs only by --slow-rank. Known answers: the last rank of a collective is the slow "
     "rank in its slow iterations (lag and skew: its slowed compute minus the normal one; with 2 ranks "
     "the lag is half of it), otherwise all ranks tie; a rank's NCCL kernel lasts the base duration "
     "plus the time it waits for the last rank; the slow rank's step lasts longer by its slowed tail"},
    {"--nccl-overlap", NULL, OPT_COUNT, FIELD(nccl_overlap), 0, 100, true,
     "PCT: during each NCCL kernel of the steps, one compute kernel on the null stream runs from the NCCL "
     "kernel's start for N% of its duration (rounded down to the ns), so hidden communication is "
     "floor(duration * N / 100) and the rest is exposed; 0: none"},
    {"--slow-rank", NULL, OPT_RANK_FACTOR, FIELD(slow_rank), 0, 0, true,
     "rank R's compute kernels in the slow iterations last FACTOR (1 to 1000, up to 3 decimals) times as "
     "long, each rounded down to the ns: R arrives last at those collectives and the other ranks wait"},
    {"--same-steps", NULL, OPT_SET, FIELD(same_steps), 0, 0, true,
     "every step of --iterations runs the plan of the first, as a training loop does: the same kernels in the "
     "same order, each compute kernel and collective lasting its first duration times 0.98 to 1.02, drawn "
     "again for each step"},
    {"--step-name", NULL, OPT_TEXT, FIELD(step_name), 0, 0, true,
     "the name of each step's NVTX range (default step); a NAME that ends in '#' is followed by the step's "
     "number, from 0: ProfilerStep# names them as torch.profiler does (ProfilerStep#0, ProfilerStep#1, ...)"},
    {"--slow-iterations", NULL, OPT_INDEX_LIST, FIELD(slow_iterations), 0, 0, true,
     "the iterations (from 0) in which --slow-rank is slow (default: all)"},
    {"--help", "-h", OPT_SET, FIELD(help), 0, 0, false, "print this help and exit"},
};

static struct config default_config(void)
{
    return (struct config){
        .seed = 1,
        .kernels = 1000,
        .memcpys = 40,
        .memsets = 10,
        .other_api = 40,
        .processes = 2,
        .threads = 2,
        .devices = 2,
        .streams = 2,
        .kernel_names = 12,
        .nvtx_ranges = 60,
        .osrt_calls = 40,
        .collide = true,
        .enums = true,
        .green_context = true,
        .corr_stride = 1,
    };
}

/* The bundled example (`make run` prints its reports): small enough to read, every kind of row present. */
static void apply_example(struct config *c)
{
    c->seed = 20240611;
    c->kernels = 32;
    c->memcpys = 20;
    c->memsets = 4;
    c->other_api = 12;
    c->processes = 2;
    c->threads = 2;
    c->devices = 2;
    c->streams = 2;
    c->kernel_names = 8;
    c->nvtx_ranges = 24;
    c->osrt_calls = 20;
    c->backtrace_processes = 1;
}

/* Prints `text` from column `indent` on, breaking lines at spaces before column `width`. */
static void print_wrapped(FILE *out, const char *text, int indent, int width)
{
    int col = indent;
    while (*text) {
        int word = (int)strcspn(text, " ");
        if (col > indent && col + 1 + word > width) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
        }
        fprintf(out, " %.*s", word, text);
        col += 1 + word;
        text += word;
        text += strspn(text, " ");
    }
    fputc('\n', out);
}

void print_help(FILE *out)
{
    const struct config defaults = default_config();
    fputs("usage: nsysgen [options] -o FILE\n"
          "Writes a synthetic Nsight Systems 2024.2.3 SQLite export (schema 3.11) with chosen content,\n"
          "and with --kineto the same run as a PyTorch profiler trace. The same options always give the\n"
          "same bytes. A perturbation (--slow-kernel, --drop-launches, --insert-launches, --rename-kernel)\n"
          "changes what it says and nothing else: the rest of the run is that of the same options without it.\n"
          "\noptions:\n",
          out);
    for (size_t i = 0; i < COUNT_OF(OPTIONS); i++) {
        const struct option_spec *o = &OPTIONS[i];
        char left[64];
        const char *arg = o->kind == OPT_PATH                            ? " FILE"
                          : o->kind == OPT_TEXT                         ? " NAME"
                          : o->kind == OPT_COUNT || o->kind == OPT_SEED ? " N"
                          : o->kind == OPT_NAME_PCT                     ? " NAME:PCT"
                          : o->kind == OPT_NAME_PAIR                    ? " OLD:NEW"
                          : o->kind == OPT_RANK_FACTOR                  ? " R:FACTOR"
                          : o->kind == OPT_INDEX_LIST                   ? " A,B,..."
                                                                        : "";
        snprintf(left, sizeof left, "%s%s%s%s", o->alias ? o->alias : "", o->alias ? ", " : "    ", o->name, arg);
        char help[2048];
        const char *field = (const char *)&defaults + o->field;
        if (o->kind == OPT_COUNT)
            snprintf(help, sizeof help, "%s (default %" PRId64 ")", o->help, *(const int64_t *)(const void *)field);
        else if (o->kind == OPT_SEED)
            snprintf(help, sizeof help, "%s (default %" PRIu64 ")", o->help, *(const uint64_t *)(const void *)field);
        else
            snprintf(help, sizeof help, "%s", o->help);
        if (strlen(left) > 24)
            fprintf(out, "  %s\n%26s", left, "");
        else
            fprintf(out, "  %-24s", left);
        print_wrapped(out, help, 26, 100);
    }
}

static _Noreturn void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("nsysgen: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\nTry 'nsysgen --help'.\n", stderr);
    exit(2);
}

static const struct option_spec *find_option(const char *arg, size_t len)
{
    for (size_t i = 0; i < COUNT_OF(OPTIONS); i++) {
        const struct option_spec *o = &OPTIONS[i];
        if ((strlen(o->name) == len && strncmp(o->name, arg, len) == 0) ||
            (o->alias && strlen(o->alias) == len && strncmp(o->alias, arg, len) == 0))
            return o;
    }
    return NULL;
}

static int64_t parse_count(const struct option_spec *o, const char *text)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || end == text || *end || v < o->min || v > o->max)
        usage_error("%s: expected a whole number from %" PRId64 " to %" PRId64 ", got '%s'", o->name, o->min,
                    o->max, text);
    return v;
}

static uint64_t parse_seed(const struct option_spec *o, const char *text)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-')
        usage_error("%s: expected a whole number from 0 to %" PRIu64 ", got '%s'", o->name, UINT64_MAX, text);
    return v;
}

/* "A:B" split at its last ':' into two non-empty parts, both in one allocation that *a owns
 * (free_config frees it). */
static void split_pair(const struct option_spec *o, const char *text, const char *form, char **a, char **b)
{
    const char *colon = strrchr(text, ':');
    if (!colon || colon == text || !colon[1])
        usage_error("%s: expected %s, got '%s'", o->name, form, text);
    *a = xstrdup(text);
    (*a)[colon - text] = '\0';
    *b = *a + (colon - text) + 1;
}

static bool is_identifier(const char *s)
{
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return false;
    return true;
}

static void parse_name_pct(const struct option_spec *o, const char *text, struct name_pct *v)
{
    char *name, *pct;
    split_pair(o, text, "NAME:PCT", &name, &pct);
    char *end;
    errno = 0;
    long long p = strtoll(pct, &end, 10);
    if (errno || *end || p < o->min || p > o->max)
        usage_error("%s: expected a whole percentage from %" PRId64 " to %" PRId64 " after the ':', got '%s'",
                    o->name, o->min, o->max, pct);
    free((char *)v->name);
    v->name = name;
    v->pct = p;
}

static void parse_name_pair(const struct option_spec *o, const char *text, struct name_pair *v)
{
    char *from, *to;
    split_pair(o, text, "OLD:NEW", &from, &to);
    if (!is_identifier(to) || strlen(to) > 200)
        usage_error("%s: NEW must be an identifier (letters, digits, '_') of at most 200 characters, got '%s'",
                    o->name, to);
    free((char *)v->from);
    v->from = from;
    v->to = to;
}

/* "R:FACTOR": a rank and a factor from 1 to 1000 with up to 3 decimals, kept in thousandths. */
static void parse_rank_factor(const struct option_spec *o, const char *text, struct rank_factor *v)
{
    const char *colon = strchr(text, ':');
    char *end;
    errno = 0;
    long long r = strtoll(text, &end, 10);
    if (!colon || end != colon || end == text || errno || r < 0 || r > 99999)
        usage_error("%s: expected R:FACTOR with R a rank, got '%s'", o->name, text);
    const char *f = colon + 1;
    int64_t whole = 0, frac = 0, scale = 1000;
    size_t digits = strspn(f, "0123456789");
    bool ok = digits > 0 && digits <= 4;
    for (size_t i = 0; ok && i < digits; i++)
        whole = whole * 10 + (f[i] - '0');
    f += digits;
    if (ok && *f == '.') {
        size_t decimals = strspn(++f, "0123456789");
        ok = decimals > 0 && decimals <= 3;
        for (size_t i = 0; ok && i < decimals; i++)
            frac += (f[i] - '0') * (scale /= 10);
        f += decimals;
    }
    int64_t permille = whole * 1000 + frac;
    if (!ok || *f || permille < 1000 || permille > 1000000)
        usage_error("%s: expected a FACTOR from 1 to 1000 with at most 3 decimals after the ':', got '%s'",
                    o->name, colon + 1);
    v->rank = r;
    v->permille = permille;
}

/* "A,B,...": whole numbers from 0, at least one. */
static void parse_index_list(const struct option_spec *o, const char *text, struct index_list *v)
{
    free(v->v);
    *v = (struct index_list){xcalloc(strlen(text) / 2 + 1, sizeof *v->v), 0};
    const char *p = text;
    for (;;) {
        char *end;
        errno = 0;
        long long x = strtoll(p, &end, 10);
        if (errno || end == p || *p == '-' || *p == '+' || x > 1000000 || (*end && *end != ','))
            usage_error("%s: expected whole numbers separated by commas, got '%s'", o->name, text);
        v->v[v->n++] = x;
        if (!*end)
            return;
        p = end + 1;
    }
}

/* Stores one option's value into the config. */
static void apply_option(struct config *c, const struct option_spec *o, const char *value)
{
    void *field = (char *)c + o->field;
    switch (o->kind) {
    case OPT_COUNT: *(int64_t *)field = parse_count(o, value); break;
    case OPT_SEED: *(uint64_t *)field = parse_seed(o, value); break;
    case OPT_PATH:
    case OPT_TEXT: *(const char **)field = value; break;
    case OPT_SET: *(bool *)field = true; break;
    case OPT_CLEAR: *(bool *)field = false; break;
    case OPT_NAME_PCT: parse_name_pct(o, value, field); break;
    case OPT_NAME_PAIR: parse_name_pair(o, value, field); break;
    case OPT_RANK_FACTOR: parse_rank_factor(o, value, field); break;
    case OPT_INDEX_LIST: parse_index_list(o, value, field); break;
    }
}

void free_config(struct config *c)
{
    free((char *)c->slow_kernel.name);
    free((char *)c->rename_kernel.from);
    free(c->slow_iterations.v);
}

/* --ranks and the options of its steps: each needs the ones it refines. */
static void check_job(struct config *c, bool processes_given, bool rank_given)
{
    if (!c->ranks) {
        const char *needs_ranks = rank_given               ? "--rank"
                                  : c->iterations         ? "--iterations"
                                  : c->nccl_overlap       ? "--nccl-overlap"
                                  : c->slow_rank.permille ? "--slow-rank"
                                  : c->slow_iterations.n  ? "--slow-iterations"
                                  : c->step_name          ? "--step-name"
                                  : c->same_steps         ? "--same-steps"
                                                          : NULL;
        if (needs_ranks)
            usage_error("%s needs --ranks", needs_ranks);
        return;
    }
    if (processes_given && c->processes != 1)
        usage_error("--ranks: an export is one rank's one process; --processes must be 1");
    c->processes = 1;
    if (c->rank >= c->ranks)
        usage_error("--rank %" PRId64 " is not a rank of --ranks %" PRId64 " (0 to %" PRId64 ")", c->rank, c->ranks,
                    c->ranks - 1);
    if (c->slow_rank.permille && c->slow_rank.rank >= c->ranks)
        usage_error("--slow-rank: %" PRId64 " is not a rank of --ranks %" PRId64, c->slow_rank.rank, c->ranks);
    if ((c->nccl_overlap || c->slow_rank.permille || c->slow_iterations.n || c->step_name || c->same_steps) &&
        !c->iterations)
        usage_error("--nccl-overlap, --slow-rank, --slow-iterations, --step-name and --same-steps need --iterations");
    if (c->step_name && (!*c->step_name || strlen(c->step_name) > 200))
        usage_error("--step-name: a name of 1 to 200 bytes");
    if (c->slow_iterations.n && !c->slow_rank.permille)
        usage_error("--slow-iterations needs --slow-rank");
    for (size_t i = 0; i < c->slow_iterations.n; i++)
        if (c->slow_iterations.v[i] >= c->iterations)
            usage_error("--slow-iterations: %" PRId64 " is not an iteration of --iterations %" PRId64 " (from 0)",
                        c->slow_iterations.v[i], c->iterations);
    if (c->iterations && c->streams < 2)
        usage_error("--iterations needs --streams 2 or more: compute and NCCL run on different streams");
}

struct config parse_args(int argc, char **argv)
{
    struct config c = default_config();
    const char *content_option = NULL;
    bool processes_given = false, rank_given = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        const struct option_spec *o = find_option(arg, len);
        if (!o)
            usage_error("unknown option '%s'", arg);
        bool takes_value = o->kind != OPT_SET && o->kind != OPT_CLEAR;
        const char *value = NULL;
        if (takes_value) {
            if (eq)
                value = eq + 1;
            else if (i + 1 < argc)
                value = argv[++i];
            else
                usage_error("%s needs a value", o->name);
        } else if (eq) {
            usage_error("%s takes no value", o->name);
        }
        if (o->content)
            content_option = o->name;
        apply_option(&c, o, value);
        processes_given = processes_given || o->field == FIELD(processes);
        rank_given = rank_given || o->field == FIELD(rank);
    }
    if (c.help)
        return c;
    if (c.example) {
        if (content_option)
            usage_error("--example has fixed content; it cannot be combined with %s", content_option);
        apply_example(&c);
    } else {
        c.backtrace_processes = c.backtrace ? c.processes : 0;
    }
    if (!c.out_path)
        usage_error("no output file: give -o FILE");
    check_job(&c, processes_given, rank_given);
    if (c.processes * c.threads > 100000)
        usage_error("--processes times --threads must be at most 100000");
    if (c.kineto_path && strcmp(c.kineto_path, c.out_path) == 0)
        usage_error("--kineto and --output name the same file");
    if (!c.kineto_path && (c.kineto_dup_kernels || c.kineto_bias || c.kineto_clock_offset))
        usage_error("--kineto-dup-kernels, --kineto-bias and --kineto-clock-offset need --kineto");
    if (c.kineto_dup_kernels > c.kernels - c.drop_launches)
        usage_error("--kineto-dup-kernels %" PRId64 " is more than the run's launches", c.kineto_dup_kernels);
    if (c.drop_launches > c.kernels)
        usage_error("--drop-launches %" PRId64 " is more than the %" PRId64 " launches of --kernels", c.drop_launches,
                    c.kernels);
    if (c.slow_kernel.name && !kernel_base_name_in_run(c.slow_kernel.name, c.kernel_names))
        usage_error("--slow-kernel: no kernel of the run has the base name '%s'", c.slow_kernel.name);
    if (c.rename_kernel.from && !kernel_base_name_in_run(c.rename_kernel.from, c.kernel_names))
        usage_error("--rename-kernel: no kernel of the run has the base name '%s'", c.rename_kernel.from);
    return c;
}
