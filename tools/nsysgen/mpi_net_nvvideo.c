/* --mpi, --net and --nvvideo add the tables of MPI tracing (--trace=mpi), of NIC and InfiniBand switch
 * metrics (--nic-metrics, --ib-switch-metrics) and of NvVideo tracing. Their rows come from a random
 * stream of their own and are written after the host events, so these options only add tables and
 * StringIds rows: every other row of the export is the same with or without them. */
#include "nsysgen.h"

#define MPI_COMM_WORLD_HANDLE INT64_C(0x44000000) /* as MPICH numbers it */
#define MPI_FIRST_REQUEST INT64_C(0x98000000)
#define NET_SAMPLE_NS INT64_C(1000000) /* --nic-metrics samples every millisecond */
#define NET_METRIC_GLOBAL_ID (GLOBAL_VM_BITS | (UINT64_C(0x4E) << 40))

/* One MPI call pattern: its name, the table it lands in, and its duration model. */
enum mpi_table { MPI_T_P2P, MPI_T_COLL, MPI_T_START_WAIT, MPI_T_OTHER };
enum mpi_shape {
    MPI_SHAPE_PLAIN,    /* no peer, no size */
    MPI_SHAPE_SEND,     /* to the next rank */
    MPI_SHAPE_RECV,     /* from the previous rank */
    MPI_SHAPE_SENDRECV, /* both halves: one row when they agree, two when they differ */
    MPI_SHAPE_ROOTED,   /* a collective from root 0: send size only */
    MPI_SHAPE_REDUCE,   /* a collective with send and receive sizes */
    MPI_SHAPE_REQUEST,  /* a start/wait on a request handle */
};

struct mpi_call {
    const char *name;
    enum mpi_table table;
    enum mpi_shape shape;
    bool nonblocking;
    int64_t base_ns;
    int weight;
};

static const struct mpi_call MPI_CALLS[] = {
    {"MPI_Isend", MPI_T_P2P, MPI_SHAPE_SEND, true, 2048, 8},
    {"MPI_Irecv", MPI_T_P2P, MPI_SHAPE_RECV, true, 1536, 8},
    {"MPI_Waitall", MPI_T_START_WAIT, MPI_SHAPE_PLAIN, false, 48000, 6},
    {"MPI_Wait", MPI_T_START_WAIT, MPI_SHAPE_REQUEST, false, 24000, 3},
    {"MPI_Test", MPI_T_START_WAIT, MPI_SHAPE_REQUEST, false, 512, 2},
    {"MPI_Allreduce", MPI_T_COLL, MPI_SHAPE_REDUCE, false, 36000, 5},
    {"MPI_Bcast", MPI_T_COLL, MPI_SHAPE_ROOTED, false, 18000, 3},
    {"MPI_Reduce", MPI_T_COLL, MPI_SHAPE_REDUCE, false, 30000, 2},
    {"MPI_Barrier", MPI_T_COLL, MPI_SHAPE_PLAIN, false, 12000, 2},
    {"MPI_Sendrecv", MPI_T_P2P, MPI_SHAPE_SENDRECV, false, 42000, 3},
    {"MPI_Send", MPI_T_P2P, MPI_SHAPE_SEND, false, 16000, 2},
    {"MPI_Recv", MPI_T_P2P, MPI_SHAPE_RECV, false, 20000, 2},
    {"MPI_Comm_rank", MPI_T_OTHER, MPI_SHAPE_PLAIN, false, 256, 1},
};

/* Message sizes: tiny ones show as 0.000 MB, 1500 and 2500000 sit on rounding ties of the MB column. */
static const int64_t MPI_BYTES[] = {0, 8, 1500, 4096, 65536, 1048576, 2500000, 8388608};

struct nic_desc {
    int64_t guid, device_id, link_layer;
    const char *name;
};

/* Device 4133 is newer than the labels of nsys 2024.2.3, which leaves its rows out. */
static const struct nic_desc NICS[] = {
    {INT64_C(0x1070fd0300a1b2c4), 4123, 2, "mlx5_0"},
    {INT64_C(0x1070fd0300a1b2c5), 4129, 2, "mlx5_1"},
    {INT64_C(0x0c42a10300f0e1d2), 4125, 1, "mlx5_2"},
    {INT64_C(0x0c42a10300f0e1d3), 4133, 2, "mlx5_3"},
};

/* Switch GUIDs: the first has the top bit set, so it is negative as an SQLite integer. */
static const uint64_t IB_SWITCHES[] = {UINT64_C(0xb8cef60300e8f2a0), UINT64_C(0x0002c90300a0b0c0)};

struct net_metric {
    const char *name, *description, *unit;
};

static const struct net_metric NIC_METRICS[] = {
    {"IB: Bytes sent", "Number of bytes sent through all NIC ports", "bytes/ms"},
    {"IB: Bytes received", "Number of bytes received by all NIC ports", "bytes/ms"},
    {"IB: Packets sent", "Number of packets sent through all NIC ports", "packets/ms"},
    {"IB: Send waits", "Number of ticks during which data was ready but not sent", "ticks/ms"},
};

static const struct net_metric SWITCH_METRICS[] = {
    {"IB: Bytes sent", "Number of bytes sent through all switch ports", "bytes/ms"},
    {"IB: Bytes received", "Number of bytes received by all switch ports", "bytes/ms"},
    {"IB: Send waits", "Number of ticks during which data was ready but not sent", "ticks/ms"},
};

/* Send-wait rates: mostly quiet, with bursts around and on the default threshold of 10000. */
static const int64_t SEND_WAIT_RATES[] = {0, 0, 0, 12, 480, 3100, 9999, 10000, 10001, 15000, 42000, 125000};

struct nvvideo_call {
    const char *name;
    int api; /* 0 encoder, 1 decoder, 2 JPEG */
    int64_t base_ns;
    int weight;
};

static const struct nvvideo_call NVVIDEO_CALLS[] = {
    {"nvEncEncodePicture", 0, 96000, 8},   {"nvEncLockBitstream", 0, 24000, 6},
    {"nvEncUnlockBitstream", 0, 4096, 6},  {"nvEncInitializeEncoder", 0, 2400000, 1},
    {"cuvidDecodePicture", 1, 64000, 8},   {"cuvidMapVideoFrame64", 1, 32000, 6},
    {"cuvidUnmapVideoFrame64", 1, 3072, 6}, {"cuvidCreateDecoder", 1, 1800000, 1},
    {"nvjpegDecode", 2, 128000, 4},        {"nvjpegJpegStateCreate", 2, 8192, 1},
};

static const int NVVIDEO_EVENT_CLASS[] = {83, 86, 89}; /* NVENC, NVDEC, nvJPEG */

struct mpi_gen {
    struct gen *g;
    struct rng rng;
    struct table_writer p2p, coll, start_wait, other, ranks;
    struct table_writer nic_metric, ib_metric, nic_map, net_metrics, nic_info;
    struct table_writer nvvideo[3];
    int64_t next_request;
};

static int64_t pick_weighted_index(struct rng *r, const int *weights, size_t n)
{
    int total = 0;
    for (size_t i = 0; i < n; i++)
        total += weights[i];
    int64_t x = rng_below(r, total);
    for (size_t i = 0; i < n; i++) {
        if (x < weights[i])
            return (int64_t)i;
        x -= weights[i];
    }
    return (int64_t)n - 1;
}

/* A duration of few distinct values (ties in the summaries), never zero. */
static int64_t extra_duration(struct rng *r, int64_t base)
{
    return base + 64 * rng_below(r, 8);
}

static void write_mpi_common(struct mpi_gen *x, struct table_writer *w, int64_t start, int64_t end,
                             bool has_end, uint64_t gtid, int64_t text_id)
{
    row_begin(x->g->cfg, w);
    put_int(w, start);
    put_int_or_null(w, has_end, end);
    put_int(w, (int64_t)gtid);
    put_int(w, text_id);
}

struct mpi_event {
    const struct mpi_call *call;
    int64_t start, end;
    bool has_end;
    uint64_t gtid;
    int rank, nranks;
    int64_t tag, bytes, other_bytes;
};

static void write_p2p_row(struct mpi_gen *x, const struct mpi_event *e, int64_t peer, int64_t tag, int64_t bytes)
{
    struct table_writer *w = &x->p2p;
    write_mpi_common(x, w, e->start, e->end, e->has_end, e->gtid, intern(x->g, e->call->name));
    put_int(w, MPI_COMM_WORLD_HANDLE);
    put_int(w, tag);
    put_int(w, peer);
    put_int(w, bytes);
    put_int_or_null(w, e->call->nonblocking, x->next_request);
    row_end(w);
    if (e->call->nonblocking)
        x->next_request++;
}

/* Writes one call's row(s); returns how many rows. */
static int write_mpi_event(struct mpi_gen *x, const struct mpi_event *e)
{
    int next = (e->rank + 1) % e->nranks, prev = (e->rank + e->nranks - 1) % e->nranks;
    int64_t id = intern(x->g, e->call->name);
    struct table_writer *w;
    switch (e->call->shape) {
    case MPI_SHAPE_SEND: write_p2p_row(x, e, next, e->tag, e->bytes); return 1;
    case MPI_SHAPE_RECV: write_p2p_row(x, e, prev, e->tag, e->bytes); return 1;
    case MPI_SHAPE_SENDRECV:
        write_p2p_row(x, e, next, e->tag, e->bytes);
        if (next == prev && e->bytes == e->other_bytes)
            return 1;
        write_p2p_row(x, e, prev, e->tag + 1, e->other_bytes);
        return 2;
    case MPI_SHAPE_ROOTED:
    case MPI_SHAPE_REDUCE:
        w = &x->coll;
        write_mpi_common(x, w, e->start, e->end, e->has_end, e->gtid, id);
        put_int(w, MPI_COMM_WORLD_HANDLE);
        put_int(w, 0);
        put_int(w, e->bytes);
        put_int_or_null(w, e->call->shape == MPI_SHAPE_REDUCE, e->bytes);
        put_null(w);
        row_end(w);
        return 1;
    case MPI_SHAPE_REQUEST:
    case MPI_SHAPE_PLAIN:
    default: break;
    }
    if (e->call->table == MPI_T_COLL) { /* a barrier: no root, no sizes */
        w = &x->coll;
        write_mpi_common(x, w, e->start, e->end, e->has_end, e->gtid, id);
        put_int(w, MPI_COMM_WORLD_HANDLE);
        put_null(w);
        put_null(w);
        put_null(w);
        put_null(w);
    } else if (e->call->table == MPI_T_START_WAIT) {
        w = &x->start_wait;
        write_mpi_common(x, w, e->start, e->end, e->has_end, e->gtid, id);
        put_int_or_null(w, e->call->shape == MPI_SHAPE_REQUEST && x->next_request > MPI_FIRST_REQUEST,
                        x->next_request - 1);
    } else {
        w = &x->other;
        write_mpi_common(x, w, e->start, e->end, e->has_end, e->gtid, id);
    }
    row_end(w);
    return 1;
}

/* Every thread of a rank's process maps to the rank: process i is rank i, or the one process of
 * --ranks is rank --rank. */
static void write_mpi_ranks(struct mpi_gen *x)
{
    const struct config *c = x->g->cfg;
    if (c->mpi_no_ranks)
        return;
    if (c->mpi_empty_ranks) {
        writer_open(c, &x->ranks); /* the table exists, with no rows */
        return;
    }
    for (int pi = 0; pi < c->processes; pi++)
        for (int t = 0; t < c->threads; t++) {
            row_begin(c, &x->ranks);
            put_int(&x->ranks, (int64_t)x->g->threads[x->g->procs[pi].first_thread + t].gtid);
            put_int(&x->ranks, c->ranks ? c->rank + pi : pi);
            row_end(&x->ranks);
        }
}

/* The rank's thread for a call: mostly the main thread, sometimes a worker (MPI_Init and
 * MPI_Finalize, of weight 0, always run on the main thread). */
static uint64_t mpi_thread(struct mpi_gen *x, int rank)
{
    const struct process *p = &x->g->procs[rank];
    int t = x->g->cfg->threads > 1 && rng_one_in(&x->rng, 6) ? 1 : 0;
    return x->g->threads[p->first_thread + t].gtid;
}

/* One call on every rank at about the same time: ranks run in lockstep, so starts often tie. */
static int64_t mpi_step(struct mpi_gen *x, const struct mpi_call *call, int64_t t, int64_t *rows, int64_t limit)
{
    int n = (int)x->g->cfg->processes;
    int64_t step_end = t;
    struct mpi_event e = {.call = call, .nranks = n, .has_end = true};
    e.tag = rng_below(&x->rng, 8);
    e.bytes = MPI_BYTES[rng_below(&x->rng, (int64_t)COUNT_OF(MPI_BYTES))];
    e.other_bytes = rng_one_in(&x->rng, 3) ? e.bytes : MPI_BYTES[rng_below(&x->rng, (int64_t)COUNT_OF(MPI_BYTES))];
    for (int r = 0; r < n && *rows < limit; r++) {
        e.rank = r;
        e.gtid = call->weight ? mpi_thread(x, r) : x->g->threads[x->g->procs[r].first_thread].gtid;
        e.start = t + 250 * rng_below(&x->rng, 3);
        e.end = e.start + extra_duration(&x->rng, call->base_ns);
        *rows += write_mpi_event(x, &e);
        step_end = max64(step_end, e.end);
    }
    return step_end;
}

static const struct mpi_call MPI_INIT = {"MPI_Init", MPI_T_OTHER, MPI_SHAPE_PLAIN, false, 850000, 0};
static const struct mpi_call MPI_FINALIZE = {"MPI_Finalize", MPI_T_OTHER, MPI_SHAPE_PLAIN, false, 420000, 0};

/* MPI_Init, the calls, MPI_Finalize; rank 0's MPI_Finalize is cut by the end of the capture (no end). */
static void gen_mpi(struct mpi_gen *x)
{
    const struct config *c = x->g->cfg;
    int weights[COUNT_OF(MPI_CALLS)];
    for (size_t i = 0; i < COUNT_OF(MPI_CALLS); i++)
        weights[i] = MPI_CALLS[i].weight;
    x->next_request = MPI_FIRST_REQUEST;
    write_mpi_ranks(x);
    int64_t rows = 0, limit = c->mpi_events - min64(c->mpi_events, 2 * c->processes);
    int64_t t = mpi_step(x, &MPI_INIT, x->g->procs[0].start_time - 2000000, &rows, c->mpi_events);
    while (rows < limit) {
        const struct mpi_call *call = &MPI_CALLS[pick_weighted_index(&x->rng, weights, COUNT_OF(weights))];
        t = mpi_step(x, call, t + 1000 * rng_range(&x->rng, 1, 40), &rows, limit);
    }
    t += 5000;
    for (int r = 0; r < c->processes && rows < c->mpi_events; r++, rows++) {
        struct mpi_event e = {.call = &MPI_FINALIZE, .start = t, .gtid = x->g->threads[x->g->procs[r].first_thread].gtid,
                              .rank = r, .nranks = (int)c->processes};
        e.end = t + extra_duration(&x->rng, MPI_FINALIZE.base_ns);
        e.has_end = r != 0;
        write_mpi_event(x, &e);
    }
    note_time(x->g, t + 1000000);
}

static void write_net_metric_list(struct mpi_gen *x, int64_t list, const struct net_metric *m, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct table_writer *w = &x->net_metrics;
        row_begin(x->g->cfg, w);
        put_int(w, list);
        put_int(w, (int64_t)i);
        put_text(w, m[i].name);
        put_text(w, m[i].description);
        put_text(w, m[i].unit);
        row_end(w);
    }
}

static void write_nics(struct mpi_gen *x)
{
    const struct config *c = x->g->cfg;
    for (size_t k = 0; k < COUNT_OF(NICS); k++) {
        struct table_writer *w = &x->nic_info;
        row_begin(c, w);
        put_int(w, NICS[k].guid);
        put_text(w, "Active");
        put_int(w, (int64_t)k);
        put_text(w, NICS[k].name);
        put_int(w, NICS[k].device_id);
        put_int(w, 5555); /* NVIDIA / Mellanox */
        put_int(w, NICS[k].link_layer);
        row_end(w);
        if (c->net_no_nic_map)
            continue;
        row_begin(c, &x->nic_map);
        put_int(&x->nic_map, (int64_t)k);
        put_int(&x->nic_map, (int64_t)(NET_METRIC_GLOBAL_ID | k));
        row_end(&x->nic_map);
    }
}

static int64_t metric_value(struct mpi_gen *x, const struct net_metric *m)
{
    if (strcmp(m->unit, "ticks/ms") == 0)
        return SEND_WAIT_RATES[rng_below(&x->rng, (int64_t)COUNT_OF(SEND_WAIT_RATES))];
    if (strcmp(m->unit, "packets/ms") == 0)
        return rng_range(&x->rng, 0, 4000);
    return rng_range(&x->rng, 0, 12000000);
}

static void write_metric_row(struct mpi_gen *x, struct table_writer *w, int64_t start, int64_t end, int64_t gid,
                             int64_t list, int64_t idx, int64_t value)
{
    row_begin(x->g->cfg, w);
    put_int(w, start);
    put_int(w, end);
    put_int(w, gid);
    put_int(w, list);
    put_int(w, idx);
    put_int(w, value);
    row_end(w);
}

/* Every NIC and switch samples every metric each millisecond on a shared clock (starts tie across
 * devices); a sample's end varies by a few ns, and the switches sample a little late now and then. */
static void gen_net(struct mpi_gen *x)
{
    const struct config *c = x->g->cfg;
    write_net_metric_list(x, 0, NIC_METRICS, COUNT_OF(NIC_METRICS));
    write_net_metric_list(x, 1, SWITCH_METRICS, COUNT_OF(SWITCH_METRICS));
    write_nics(x);
    int64_t t0 = x->g->procs[0].start_time - 3 * NET_SAMPLE_NS;
    for (int64_t k = 0; k < c->net_samples; k++) {
        int64_t start = t0 + k * NET_SAMPLE_NS;
        for (size_t n = 0; n < COUNT_OF(NICS); n++) {
            int64_t end = start + NET_SAMPLE_NS + rng_below(&x->rng, 3) * 8;
            for (size_t m = 0; m < COUNT_OF(NIC_METRICS); m++)
                write_metric_row(x, &x->nic_metric, start, end, (int64_t)(NET_METRIC_GLOBAL_ID | n), 0, (int64_t)m,
                                 metric_value(x, &NIC_METRICS[m]));
        }
        for (size_t s = 0; s < COUNT_OF(IB_SWITCHES); s++) {
            int64_t sw_start = start + (rng_one_in(&x->rng, 4) ? 4000 : 0);
            for (size_t m = 0; m < COUNT_OF(SWITCH_METRICS); m++)
                write_metric_row(x, &x->ib_metric, sw_start, sw_start + NET_SAMPLE_NS, (int64_t)IB_SWITCHES[s], 1,
                                 (int64_t)m, metric_value(x, &SWITCH_METRICS[m]));
        }
    }
    note_time(x->g, t0 + (c->net_samples + 1) * NET_SAMPLE_NS);
}

/* Calls dealt to the threads in turn, each on its own clock. */
static void gen_nvvideo(struct mpi_gen *x)
{
    const struct config *c = x->g->cfg;
    int weights[COUNT_OF(NVVIDEO_CALLS)];
    for (size_t i = 0; i < COUNT_OF(NVVIDEO_CALLS); i++)
        weights[i] = NVVIDEO_CALLS[i].weight;
    int64_t *now = xcalloc((size_t)x->g->nthreads, sizeof *now);
    for (int t = 0; t < x->g->nthreads; t++)
        now[t] = x->g->procs[x->g->threads[t].process].start_time + 500000;
    for (int64_t j = 0; j < c->nvvideo_calls; j++) {
        int t = (int)(j % x->g->nthreads);
        const struct nvvideo_call *call = &NVVIDEO_CALLS[pick_weighted_index(&x->rng, weights, COUNT_OF(weights))];
        struct table_writer *w = &x->nvvideo[call->api];
        int64_t end = now[t] + extra_duration(&x->rng, call->base_ns);
        row_begin(c, w);
        put_int(w, now[t]);
        put_int(w, end);
        put_int(w, NVVIDEO_EVENT_CLASS[call->api]);
        put_int(w, (int64_t)x->g->threads[t].gtid);
        put_int(w, intern(x->g, call->name));
        row_end(w);
        now[t] = end + 1000 * rng_range(&x->rng, 1, 20);
        note_time(x->g, now[t]);
    }
    free(now);
}

void write_mpi_net_nvvideo(struct gen *g)
{
    const struct config *c = g->cfg;
    if (c->mpi_events == 0 && c->net_samples == 0 && c->nvvideo_calls == 0 && c->ranks == 0)
        return;
    struct mpi_gen x = {
        .g = g,
        .p2p = WRITER("MPI_P2P_EVENTS"),
        .coll = WRITER("MPI_COLLECTIVES_EVENTS"),
        .start_wait = WRITER("MPI_START_WAIT_EVENTS"),
        .other = WRITER("MPI_OTHER_EVENTS"),
        .ranks = WRITER("MPI_RANKS"),
        .nic_metric = WRITER("NET_NIC_METRIC"),
        .ib_metric = WRITER("NET_IB_SWITCH_METRIC"),
        .nic_map = WRITER("NIC_ID_MAP"),
        .net_metrics = WRITER("TARGET_INFO_NETWORK_METRICS"),
        .nic_info = WRITER("TARGET_INFO_NIC_INFO"),
        .nvvideo = {WRITER("NVVIDEO_ENCODER_API"),
                    WRITER("NVVIDEO_DECODER_API"),
                    WRITER("NVVIDEO_JPEG_API")},
    };
    rng_seed(&x.rng, c->seed ^ UINT64_C(0x6d70696e65747669));
    if (c->mpi_events > 0)
        gen_mpi(&x);
    else if (c->ranks > 0)
        write_mpi_ranks(&x); /* a rank of a job says which, MPI tracing or not */
    if (c->net_samples > 0)
        gen_net(&x);
    if (c->nvvideo_calls > 0)
        gen_nvvideo(&x);
    struct table_writer *writers[] = {&x.p2p, &x.coll, &x.start_wait, &x.other, &x.ranks, &x.nic_metric,
                                      &x.ib_metric, &x.nic_map, &x.net_metrics, &x.nic_info, &x.nvvideo[0],
                                      &x.nvvideo[1], &x.nvvideo[2]};
    for (size_t i = 0; i < COUNT_OF(writers); i++)
        writer_close(writers[i]);
}
