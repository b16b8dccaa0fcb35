/* --dx12-mem: D3D12 calls (DX12_API) and the memory operations they make (DX12_MEMORY_OPERATION),
 * one call after another over the threads in turn, from 1 ms on.  Durations are whole
 * microseconds, so that equal ones are common.  What a call is picks the heap type, heap flags and
 * CPU page property at random, so every combination of them comes up with a few hundred calls. */
#include "nsysgen.h"

enum { EVENT_CLASS_DX12_API = 41 };

/* What a call does to memory. */
enum dxm_kind { DXM_CREATE, DXM_MAP, DXM_SUBRESOURCE, DXM_NONE };

struct dxm_call {
    const char *name;
    enum dxm_kind kind;
};

/* ID3D12Device4's methods and the ID3D12Device::*Placed* one share the memory rows of the plain ones. */
static const struct dxm_call DXM_CALLS[] = {
    {"ID3D12Device::CreateHeap", DXM_CREATE},
    {"ID3D12Device::CreateCommittedResource", DXM_CREATE},
    {"ID3D12Device4::CreateHeap1", DXM_CREATE},
    {"ID3D12Device4::CreateCommittedResource1", DXM_CREATE},
    {"ID3D12Device::CreatePlacedResource", DXM_CREATE},
    {"ID3D12Resource::Map", DXM_MAP},
    {"ID3D12Resource::Unmap", DXM_MAP},
    {"ID3D12Resource::ReadFromSubresource", DXM_SUBRESOURCE},
    {"ID3D12Resource::WriteToSubresource", DXM_SUBRESOURCE},
    {"ID3D12GraphicsCommandList::Close", DXM_NONE},
};

enum {
    D3D12_HEAP_TYPE_DEFAULT = 1, /* ENUM_D3D12_HEAP_TYPE: 1..4 */
    D3D12_HEAP_TYPE_CUSTOM = 4,
    D3D12_CPU_PAGE_UNKNOWN = 0, /* ENUM_D3D12_PAGE_PROPERTY: 0..3 */
    D3D12_CPU_PAGE_NOT_AVAILABLE = 1,
    D3D12_CPU_PAGE_WRITE_BACK = 3,
    D3D12_HEAP_FLAG_CREATE_NOT_ZEROED = 0x1000,
};

/* Flags a heap is created with; NOT_ZEROED is the one that spares the zeroing. */
static const int64_t DXM_HEAP_FLAGS[] = {0, 4, 64, 128, D3D12_HEAP_FLAG_CREATE_NOT_ZEROED,
                                         D3D12_HEAP_FLAG_CREATE_NOT_ZEROED | 4};

struct dxm_gen {
    struct gen *g;
    struct rng rng;
    struct table_writer api, ops;
    int64_t names[COUNT_OF(DXM_CALLS)];
};

/* One memory row: the call's heap, with a CPU page of its own only on custom heaps. */
static void dxm_op_row(struct dxm_gen *x, int64_t call_id, enum dxm_kind kind, int64_t subresource)
{
    const struct config *c = x->g->cfg;
    struct table_writer *w = &x->ops;
    int64_t heap = rng_range(&x->rng, D3D12_HEAP_TYPE_DEFAULT, D3D12_HEAP_TYPE_CUSTOM);
    int64_t page = heap == D3D12_HEAP_TYPE_CUSTOM
                       ? rng_range(&x->rng, D3D12_CPU_PAGE_NOT_AVAILABLE, D3D12_CPU_PAGE_WRITE_BACK)
                       : D3D12_CPU_PAGE_UNKNOWN;
    int64_t range_start = 256 * rng_below(&x->rng, 16);
    /* An empty range (start == end) says the CPU reads or writes nothing. */
    int64_t range_end = rng_one_in(&x->rng, 4) ? range_start : range_start + 256 * rng_range(&x->rng, 1, 64);
    int64_t device = rng_below(&x->rng, c->devices);
    bool has_device = !rng_one_in(&x->rng, 16);
    int64_t heap_flags = DXM_HEAP_FLAGS[rng_below(&x->rng, COUNT_OF(DXM_HEAP_FLAGS))];
    bool has_heap_flags = !rng_one_in(&x->rng, 12);
    row_begin(c, w);
    put_int_or_null(w, has_device, device);
    put_int_or_null(w, kind != DXM_CREATE, range_start);
    put_int_or_null(w, kind != DXM_CREATE, range_end);
    put_int_or_null(w, kind != DXM_CREATE, subresource);
    put_int(w, heap);
    put_int_or_null(w, has_heap_flags, heap_flags);
    put_int(w, page);
    put_int(w, 0);
    put_int(w, call_id);
    row_end(w);
}

static void dxm_call_row(struct dxm_gen *x, const struct thread *th, int64_t id, size_t call, int64_t start,
                         int64_t end)
{
    struct table_writer *w = &x->api;
    row_begin(x->g->cfg, w);
    put_int(w, id);
    put_int(w, start);
    put_int(w, end);
    put_int(w, EVENT_CLASS_DX12_API);
    put_int(w, (int64_t)th->gtid);
    put_null(w);
    put_null(w);
    put_int(w, x->names[call]);
    put_int(w, 0x1000 + (int64_t)call);
    put_null(w);
    put_null(w);
    put_null(w);
    put_null(w);
    put_null(w);
    put_int(w, 0x7ff6b0000000 + (int64_t)call);
    row_end(w);
}

void write_dx12_memory_ops(struct gen *g)
{
    const struct config *c = g->cfg;
    if (c->dx12_mem_calls == 0)
        return;
    struct dxm_gen x = {
        .g = g,
        .api = WRITER("DX12_API"),
        .ops = WRITER("DX12_MEMORY_OPERATION"),
    };
    rng_seed(&x.rng, c->seed ^ UINT64_C(0x6478313278656d));
    for (size_t i = 0; i < COUNT_OF(DXM_CALLS); i++)
        x.names[i] = intern(g, DXM_CALLS[i].name);
    int64_t t = 1000000;
    for (int64_t id = 1; id <= c->dx12_mem_calls; id++) {
        size_t call = (size_t)rng_below(&x.rng, COUNT_OF(DXM_CALLS));
        int64_t end = t + 1000 * rng_range(&x.rng, 1, 40);
        dxm_call_row(&x, &g->threads[(id - 1) % g->nthreads], id, call, t, end);
        enum dxm_kind kind = DXM_CALLS[call].kind;
        int64_t subresources = kind == DXM_NONE ? 0 : kind != DXM_CREATE && rng_one_in(&x.rng, 6) ? 2 : 1;
        for (int64_t s = 0; s < subresources; s++)
            dxm_op_row(&x, id, kind, s);
        note_time(g, end);
        t = end + rng_range(&x.rng, 2000, 30000);
    }
    writer_close(&x.api);
    writer_close(&x.ops);
}
