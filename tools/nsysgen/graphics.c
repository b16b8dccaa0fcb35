/* Graphics API rows (--vulkan, --opengl, --dx11, --dx12), written after the CUDA rows from a random
 * stream of their own, so that these options only add rows. Each thread records frames: a "frame"
 * debug range around passes, each a debug range around a few draw calls.
 *  - Vulkan: VK_EXT_debug_utils labels are a begin call (with the label text) and an end call (no
 *    text) in VULKAN_DEBUG_API that share a correlationId; the draws and submits are VULKAN_API rows
 *    (class 53), with now and then an object creation (class 60); on submit the GPU executes each
 *    label as a VULKAN_WORKLOAD row with the text, and the submit itself as a row without one.
 *  - OpenGL: each KHR_debug group is one KHR_DEBUG_EVENTS row on the CPU (event type 62) and one on
 *    the GPU (63), plus a marker (52) per frame; the "ui" pass pushes an empty message (no textId,
 *    named by its id), and the capture ends inside one more frame, whose group has no end.
 *  - D3D11: PIX events as begin and end calls in D3D11_PIX_DEBUG_API, and a SetMarker per frame.
 *  - D3D12: the same in D3D12_PIX_DEBUG_API on a command list, and DX12_WORKLOAD rows on the GPU.
 * The "empty pass" has no draws and takes no GPU time. */
#include "nsysgen.h"

enum gfx_api { GFX_VULKAN, GFX_OPENGL, GFX_DX11, GFX_DX12, GFX_APIS };

enum {
    EVENT_CLASS_DX12_WORKLOAD = 42,
    EVENT_CLASS_VULKAN_API = 53,
    EVENT_CLASS_VULKAN_WORKLOAD = 54,
    EVENT_CLASS_VULKAN_CREATE_OBJECT = 60,
    EVENT_CLASS_VULKAN_DEBUG_API = 66,
    EVENT_CLASS_VULKAN_BATCH_WORKLOAD = 93,
};
enum { KHR_DEBUG_MARK = 52, KHR_DEBUG_PUSH_POP = 62, KHR_DEBUG_GPU_PUSH_POP = 63 }; /* ENUM_NSYS_EVENT_TYPE */
enum { GL_SOURCE_APPLICATION = 33354, GL_TYPE_MARKER = 33384, GL_TYPE_PUSH_GROUP = 33385,
       GL_SEVERITY_NOTIFICATION = 33387 };
enum { D3D12_LIST_DIRECT = 0 };

#define GFX_FRAME_LABEL "frame"
#define GFX_EMPTY_PASS 5 /* no draws, no GPU time */
#define GFX_UI_PASS 4    /* OpenGL: pushed with an empty message */
static const char *const GFX_PASSES[] = {"shadow pass, cascade 0", "gbuffer", "lighting", "post: bloom", "ui",
                                         "empty pass"};
static const char *const VK_DRAWS[] = {"vkCmdBindPipeline", "vkCmdBindDescriptorSets", "vkCmdDraw",
                                       "vkCmdDrawIndexed", "vkCmdPushConstants"};
static const char *const VK_FRAME_CALLS[] = {"vkAcquireNextImageKHR", "vkWaitForFences", "vkResetFences",
                                             "vkBeginCommandBuffer", "vkEndCommandBuffer", "vkQueueSubmit",
                                             "vkQueuePresentKHR"};
enum { VK_ACQUIRE, VK_WAIT, VK_RESET, VK_BEGIN_CB, VK_END_CB, VK_SUBMIT, VK_PRESENT, VK_FRAME_CALL_COUNT };
static const char *const VK_CREATE_CALLS[] = {"vkCreateBuffer", "vkAllocateMemory", "vkCreateImageView"};

#define GFX_MAX_LABELS 8

/* One debug range of a frame: its text, its correlationId and its CPU span. */
struct gfx_label {
    int pass; /* -1: the frame */
    int64_t corr;
    int64_t start, end; /* CPU: end of the begin call, start of the end call */
};

struct gfx_frame {
    struct gfx_label labels[GFX_MAX_LABELS];
    int n;
    int64_t number; /* from 1 */
};

struct gfx_gen {
    struct gen *g;
    struct rng rng;
    enum gfx_api api;
    struct table_writer w_vk_api, w_vk_debug, w_vk_workload, w_khr, w_d3d11_pix, w_d3d12_pix, w_dx12_workload;
    int64_t frame_text, pass_text[COUNT_OF(GFX_PASSES)];
    int64_t vk_draws[COUNT_OF(VK_DRAWS)], vk_frame[VK_FRAME_CALL_COUNT], vk_create[COUNT_OF(VK_CREATE_CALLS)];
    int64_t vk_begin_label, vk_end_label, dx_begin, dx_end, dx_marker, dx12_execute, dx12_list_name;
    int64_t marker_text;
    int64_t next_vk_api_id;
    int64_t *gpu_free; /* per process: when its GPU queue is next free */
};

static int64_t gfx_text(const struct gfx_gen *x, int pass) { return pass < 0 ? x->frame_text : x->pass_text[pass]; }

static void gfx_intern(struct gfx_gen *x)
{
    struct gen *g = x->g;
    x->frame_text = intern(g, GFX_FRAME_LABEL);
    for (size_t i = 0; i < COUNT_OF(GFX_PASSES); i++)
        x->pass_text[i] = intern(g, GFX_PASSES[i]);
    for (size_t i = 0; i < COUNT_OF(VK_DRAWS); i++)
        x->vk_draws[i] = intern(g, VK_DRAWS[i]);
    for (size_t i = 0; i < VK_FRAME_CALL_COUNT; i++)
        x->vk_frame[i] = intern(g, VK_FRAME_CALLS[i]);
    for (size_t i = 0; i < COUNT_OF(VK_CREATE_CALLS); i++)
        x->vk_create[i] = intern(g, VK_CREATE_CALLS[i]);
    x->vk_begin_label = intern(g, "vkCmdBeginDebugUtilsLabelEXT");
    x->vk_end_label = intern(g, "vkCmdEndDebugUtilsLabelEXT");
    x->dx_begin = intern(g, "PIXBeginEvent");
    x->dx_end = intern(g, "PIXEndEvent");
    x->dx_marker = intern(g, "PIXSetMarker");
    x->dx12_execute = intern(g, "ExecuteCommandLists");
    x->dx12_list_name = intern(g, "main command list");
    x->marker_text = intern(g, "present");
}

/* ---- rows ---- */

static int64_t gfx_context(const struct thread *th) { return 0x5a000 + th->process * 0x100; }

static void vk_api_row(struct gfx_gen *x, struct thread *th, int64_t dur, int event_class, int64_t name,
                       int64_t corr)
{
    struct table_writer *w = &x->w_vk_api;
    row_begin(x->g->cfg, w);
    put_int(w, x->next_vk_api_id++);
    put_int(w, th->now);
    put_int(w, th->now + dur);
    put_int(w, event_class);
    put_int(w, (int64_t)th->gtid);
    put_int(w, corr);
    put_int(w, corr);
    put_int(w, name);
    put_int(w, gfx_context(th));
    row_end(w);
    th->now += dur;
}

/* A begin call (text >= 0) or an end call (text < 0) of a debug range, on the CPU. */
static void debug_call_row(struct gfx_gen *x, const struct thread *th, int64_t start, int64_t end, int64_t corr,
                           int64_t text, int64_t frame)
{
    const struct process *p = &x->g->procs[th->process];
    struct table_writer *w;
    switch (x->api) {
    case GFX_VULKAN:
        w = &x->w_vk_debug;
        row_begin(x->g->cfg, w);
        put_int(w, start);
        put_int(w, end);
        put_int(w, EVENT_CLASS_VULKAN_DEBUG_API);
        put_int(w, (int64_t)th->gtid);
        put_int(w, corr);
        put_int(w, corr);
        put_int(w, text >= 0 ? x->vk_begin_label : x->vk_end_label);
        put_int(w, gfx_context(th));
        put_int_or_null(w, text >= 0, NVTX_GREEN);
        put_int_or_null(w, text >= 0, text);
        break;
    case GFX_DX11:
    case GFX_DX12:
        w = x->api == GFX_DX11 ? &x->w_d3d11_pix : &x->w_d3d12_pix;
        row_begin(x->g->cfg, w);
        put_int(w, start);
        put_int(w, end);
        put_int(w, (int64_t)th->gtid);
        put_int(w, corr);
        put_int(w, corr);
        put_int(w, text == x->marker_text ? x->dx_marker : text >= 0 ? x->dx_begin : x->dx_end);
        put_int(w, gfx_context(th));
        put_int(w, frame);
        put_int_or_null(w, text >= 0, NVTX_GREEN);
        put_int_or_null(w, text >= 0, text);
        if (x->api == GFX_DX12) {
            put_int(w, D3D12_LIST_DIRECT);
            put_int(w, x->dx12_list_name);
            put_int(w, (int64_t)(p->gpid | 0x7ff6a000));
        }
        break;
    case GFX_OPENGL:
    case GFX_APIS:
    default: fail("internal error: no debug calls for this API");
    }
    row_end(w);
}

/* A KHR_debug group (text < 0: pushed with an empty message) or marker on the CPU or GPU. */
static void khr_row(struct gfx_gen *x, const struct thread *th, int type, int64_t start, bool ended, int64_t end,
                    int64_t text, int64_t id, int64_t corr)
{
    struct table_writer *w = &x->w_khr;
    row_begin(x->g->cfg, w);
    put_int(w, type);
    put_int(w, start);
    put_int_or_null(w, ended, end);
    put_int_or_null(w, text >= 0, text);
    put_int(w, (int64_t)th->gtid);
    put_int(w, GL_SOURCE_APPLICATION);
    put_int(w, type == KHR_DEBUG_MARK ? GL_TYPE_MARKER : GL_TYPE_PUSH_GROUP);
    put_int(w, id);
    put_int(w, GL_SEVERITY_NOTIFICATION);
    put_int(w, corr);
    put_int(w, 1 + th->process);
    row_end(w);
}

/* A GPU workload: a debug range (text >= 0) or a submit without text. */
static void workload_row(struct gfx_gen *x, const struct thread *th, int64_t start, int64_t end, int64_t corr,
                         int64_t name, int64_t text, int64_t frame)
{
    const struct process *p = &x->g->procs[th->process];
    int64_t gpu = th->process % x->g->cfg->devices;
    struct table_writer *w;
    if (x->api == GFX_VULKAN) {
        w = &x->w_vk_workload;
        row_begin(x->g->cfg, w);
        put_int(w, start);
        put_int(w, end);
        put_int(w, text >= 0 ? EVENT_CLASS_VULKAN_WORKLOAD : EVENT_CLASS_VULKAN_BATCH_WORKLOAD);
        put_int(w, (int64_t)th->gtid);
        put_int(w, corr);
        put_int(w, corr);
        put_int(w, name);
        put_int(w, gpu);
        put_int(w, gfx_context(th));
        put_int_or_null(w, text >= 0, NVTX_GREEN);
        put_int_or_null(w, text >= 0, text);
    } else {
        w = &x->w_dx12_workload;
        row_begin(x->g->cfg, w);
        put_int(w, start);
        put_int(w, end);
        put_int(w, EVENT_CLASS_DX12_WORKLOAD);
        put_int(w, (int64_t)th->gtid);
        put_int(w, corr);
        put_int(w, corr);
        put_int(w, name);
        put_int(w, gfx_context(th));
        put_int(w, frame);
        put_int(w, gpu);
        put_int_or_null(w, text >= 0, NVTX_GREEN);
        put_int_or_null(w, text >= 0, text);
        put_int(w, D3D12_LIST_DIRECT);
        put_int(w, x->dx12_list_name);
        put_int(w, (int64_t)(p->gpid | 0x7ff6a000));
    }
    row_end(w);
    note_time(x->g, end);
}

/* ---- a frame ---- */

static int64_t gfx_call_duration(struct gfx_gen *x) { return rng_range(&x->rng, 800, 4000); }

static void vk_call(struct gfx_gen *x, struct thread *th, int64_t name)
{
    vk_api_row(x, th, gfx_call_duration(x), EVENT_CLASS_VULKAN_API, name, x->g->procs[th->process].next_corr++);
}

/* Opens a debug range: the begin call (Vulkan, D3D); OpenGL writes its group when it closes. */
static struct gfx_label *label_begin(struct gfx_gen *x, struct thread *th, struct gfx_frame *f, int pass)
{
    struct gfx_label *l = &f->labels[f->n++];
    l->pass = pass;
    l->corr = x->g->procs[th->process].next_corr++;
    int64_t call = gfx_call_duration(x);
    if (x->api != GFX_OPENGL)
        debug_call_row(x, th, th->now, th->now + call, l->corr, gfx_text(x, pass), f->number);
    th->now += call;
    l->start = th->now;
    return l;
}

static void label_end(struct gfx_gen *x, struct thread *th, const struct gfx_frame *f, struct gfx_label *l)
{
    l->end = th->now;
    int64_t call = gfx_call_duration(x);
    if (x->api == GFX_OPENGL) {
        int64_t text = l->pass == GFX_UI_PASS ? -1 : gfx_text(x, l->pass);
        khr_row(x, th, KHR_DEBUG_PUSH_POP, l->start, true, l->end, text, 1 + (l->pass + 1) * 100, l->corr);
    } else {
        debug_call_row(x, th, th->now, th->now + call, l->corr, -1, f->number);
    }
    th->now += call;
    note_time(x->g, th->now);
}

static void record_pass(struct gfx_gen *x, struct thread *th, struct gfx_frame *f, int pass)
{
    struct gfx_label *l = label_begin(x, th, f, pass);
    int64_t draws = pass == GFX_EMPTY_PASS ? 0 : rng_range(&x->rng, 1, 4);
    for (int64_t d = 0; d < draws; d++) {
        if (x->api == GFX_VULKAN)
            vk_call(x, th, x->vk_draws[rng_below(&x->rng, (int64_t)COUNT_OF(VK_DRAWS))]);
        else
            th->now += gfx_call_duration(x);
    }
    th->now += rng_range(&x->rng, 200, 3000);
    label_end(x, th, f, l);
}

/* The GPU runs the frame's ranges one after another, the frame around its passes. */
static void submit_frame(struct gfx_gen *x, struct thread *th, const struct gfx_frame *f, int64_t corr)
{
    int64_t *free_at = &x->gpu_free[th->process];
    int64_t t = max64(*free_at, th->now + rng_range(&x->rng, 20000, 60000)), frame_start = t;
    for (int i = 1; i < f->n; i++) {
        const struct gfx_label *l = &f->labels[i];
        int64_t dur = l->pass == GFX_EMPTY_PASS ? 0 : rng_range(&x->rng, 30000, 900000);
        if (x->api == GFX_OPENGL) {
            int64_t text = l->pass == GFX_UI_PASS ? -1 : gfx_text(x, l->pass);
            khr_row(x, th, KHR_DEBUG_GPU_PUSH_POP, t, true, t + dur, text, 1 + (l->pass + 1) * 100, l->corr);
        } else if (x->api != GFX_DX11) {
            workload_row(x, th, t, t + dur, l->corr, gfx_text(x, l->pass), gfx_text(x, l->pass), f->number);
        }
        t += dur;
    }
    const struct gfx_label *frame = &f->labels[0];
    if (x->api == GFX_OPENGL)
        khr_row(x, th, KHR_DEBUG_GPU_PUSH_POP, frame_start, true, t, x->frame_text, 1, frame->corr);
    else if (x->api != GFX_DX11) {
        workload_row(x, th, frame_start, t, frame->corr, x->frame_text, x->frame_text, f->number);
        workload_row(x, th, frame_start, t, corr, x->api == GFX_VULKAN ? x->vk_frame[VK_SUBMIT] : x->dx12_execute,
                     -1, f->number);
    }
    *free_at = t + rng_range(&x->rng, 5000, 50000);
    note_time(x->g, *free_at);
}

/* The frame's markers: a present marker (OpenGL, D3D) and Vulkan's frame calls around the recording. */
static void frame_marker(struct gfx_gen *x, struct thread *th, const struct gfx_frame *f)
{
    int64_t corr = x->g->procs[th->process].next_corr++, dur = gfx_call_duration(x);
    if (x->api == GFX_OPENGL)
        khr_row(x, th, KHR_DEBUG_MARK, th->now, false, 0, x->marker_text, 2, corr);
    else if (x->api == GFX_DX11 || x->api == GFX_DX12)
        debug_call_row(x, th, th->now, th->now + dur, corr, x->marker_text, f->number);
    th->now += dur;
}

/* One frame of at most `budget` debug ranges on the thread; returns how many it recorded. */
static int record_frame(struct gfx_gen *x, struct thread *th, int64_t number, int64_t budget)
{
    struct gfx_frame f = {.number = number};
    bool vk = x->api == GFX_VULKAN;
    if (vk) {
        vk_call(x, th, x->vk_frame[VK_ACQUIRE]);
        vk_call(x, th, x->vk_frame[VK_WAIT]);
        vk_call(x, th, x->vk_frame[VK_RESET]);
        vk_call(x, th, x->vk_frame[VK_BEGIN_CB]);
        if (number <= x->g->nthreads || rng_one_in(&x->rng, 6)) { /* each thread sets up in its first frame */
            int64_t name = x->vk_create[rng_below(&x->rng, (int64_t)COUNT_OF(VK_CREATE_CALLS))];
            int64_t duration = rng_range(&x->rng, 5000, 60000);
            vk_api_row(x, th, duration, EVENT_CLASS_VULKAN_CREATE_OBJECT, name, x->g->procs[th->process].next_corr++);
        }
    }
    struct gfx_label *frame = label_begin(x, th, &f, -1);
    for (int pass = 0; pass < (int)COUNT_OF(GFX_PASSES) && f.n < budget; pass++)
        if (pass < 2 || rng_one_in(&x->rng, 2) || pass == GFX_EMPTY_PASS)
            record_pass(x, th, &f, pass);
    label_end(x, th, &f, frame);
    int64_t submit_corr = x->g->procs[th->process].next_corr;
    if (vk) {
        vk_call(x, th, x->vk_frame[VK_END_CB]);
        vk_call(x, th, x->vk_frame[VK_SUBMIT]);
    }
    submit_frame(x, th, &f, submit_corr);
    if (vk)
        vk_call(x, th, x->vk_frame[VK_PRESENT]);
    frame_marker(x, th, &f);
    note_time(x->g, th->now);
    th->now += rng_range(&x->rng, 100000, 2000000);
    return f.n;
}

/* OpenGL: the capture ends inside a frame, whose group has no end yet. */
static void write_open_group(struct gfx_gen *x, struct thread *th)
{
    int64_t corr = x->g->procs[th->process].next_corr++;
    th->now += gfx_call_duration(x);
    khr_row(x, th, KHR_DEBUG_PUSH_POP, th->now, false, 0, x->frame_text, 1, corr);
}

/* `ranges` debug ranges on the CPU, frame by frame, dealt to the threads in turn. */
static void write_api_frames(struct gfx_gen *x, int64_t ranges)
{
    struct gen *g = x->g;
    int64_t number = 1;
    for (int64_t done = 0; done < ranges; number++)
        done += record_frame(x, &g->threads[(number - 1) % g->nthreads], number, ranges - done);
    if (x->api == GFX_OPENGL && ranges > 0)
        write_open_group(x, &g->threads[0]);
}

void write_graphics(struct gen *g)
{
    const struct config *c = g->cfg;
    const int64_t ranges[GFX_APIS] = {c->vulkan, c->opengl, c->dx11, c->dx12};
    if (!c->vulkan && !c->opengl && !c->dx11 && !c->dx12)
        return;
    struct gfx_gen x = {
        .g = g,
        .w_vk_api = WRITER("VULKAN_API"),
        .w_vk_debug = WRITER("VULKAN_DEBUG_API"),
        .w_vk_workload = WRITER("VULKAN_WORKLOAD"),
        .w_khr = WRITER("KHR_DEBUG_EVENTS"),
        .w_d3d11_pix = WRITER("D3D11_PIX_DEBUG_API"),
        .w_d3d12_pix = WRITER("D3D12_PIX_DEBUG_API"),
        .w_dx12_workload = WRITER("DX12_WORKLOAD"),
        .next_vk_api_id = 1,
    };
    rng_seed(&x.rng, c->seed ^ UINT64_C(0x67726170686963));
    x.gpu_free = xcalloc((size_t)c->processes, sizeof *x.gpu_free);
    gfx_intern(&x);
    for (int api = 0; api < GFX_APIS; api++) {
        x.api = (enum gfx_api)api;
        write_api_frames(&x, ranges[api]);
    }
    struct table_writer *writers[] = {&x.w_vk_api, &x.w_vk_debug, &x.w_vk_workload, &x.w_khr,
                                      &x.w_d3d11_pix, &x.w_d3d12_pix, &x.w_dx12_workload};
    for (size_t i = 0; i < COUNT_OF(writers); i++)
        writer_close(writers[i]);
    free(x.gpu_free);
}
