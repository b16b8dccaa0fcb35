/* cuda_gpu_trace: every kernel, memory copy and memset, one row each in
 * start order, with launch shapes, sizes, throughput and the device. */
#include <stdlib.h>
#include <string.h>

#include "core/big.h"
#include "reports/gpu_ops.h"
#include "reports/kernel_names.h"

#define GPU_INFO "TARGET_INFO_GPU"
#define GPU_INFO_OLD "TARGET_INFO_CUDA_GPU" /* before schema 2.x had TARGET_INFO_GPU */

static const char *const cols[] = {
	"Start:ts_ns", "Duration:dur_ns", "CorrId", "GrdX", "GrdY", "GrdZ",
	"BlkX", "BlkY", "BlkZ", "Reg/Trd", "StcSMem:mem_B", "DymSMem:mem_B",
	"Bytes:mem_B", "Throughput:thru_B", "SrcMemKd", "DstMemKd", "Device",
	"Ctx", "GreenCtx", "Strm", "Name",
};
#define NCOLS (sizeof cols / sizeof *cols)
enum { C_START, C_DUR, C_CORR, C_GRID, C_BLOCK = C_GRID + 3, C_REGS = C_BLOCK + 3,
       C_SSMEM, C_DSMEM, C_BYTES, C_THRU, C_SRC, C_DST, C_DEVICE, C_CTX,
       C_GREEN, C_STREAM, C_NAME };

/* ---- devices: printf('%s (%d)', TARGET_INFO_GPU.name, deviceId) ------------ */

/* nsys LEFT JOINs TARGET_INFO_GPU on the device id alone: an id listed
 * twice (two VMs) gives each operation twice, one without gives " (id)". */
struct devices {
	size_t n;
	const int64_t *id;
	const char *const *name;
	struct nst_map seen; /* device id -> index into spans */
	struct span { const char **text; size_t n; } *spans;
	size_t nspans, cap;
};

static enum nst_status devices_load(struct nst_ctx *ctx, struct devices *d,
				    struct nst_error *err)
{
	memset(d, 0, sizeof *d);
	bool modern = nst_db_has_table(ctx->db, GPU_INFO);
	const char *table = modern ? GPU_INFO : GPU_INFO_OLD;
	enum nst_status s = nst_ev_rows(ctx->ev, table, &d->n, err);
	if (!s && modern) s = nst_ev_i64(ctx->ev, table, "id", &d->id, err);
	if (!s && !d->id) s = nst_ev_i64(ctx->ev, table, "deviceId", &d->id, err);
	if (!s) s = nst_ev_text(ctx->ev, table, "name", &d->name, err);
	if (s != NST_OK)
		return s;
	if (!d->id)
		d->n = 0;
	if (nst_map_init(&d->seen, 16))
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	return NST_OK;
}

static void devices_release(struct devices *d)
{
	nst_map_release(&d->seen);
	free(d->spans);
}

static const char *device_text(struct nst_ctx *ctx, const char *name, int64_t id)
{
	return nst_arena_printf(ctx->arena, "%s (%lld)", name ? name : "",
				(long long)(id == NST_NULL_I64 ? 0 : id));
}

/* The Device texts of the GPU rows that match id, in table order. */
static enum nst_status device_span(struct nst_ctx *ctx, struct devices *d, int64_t id,
				   struct span *sp, struct nst_error *err)
{
	memset(sp, 0, sizeof *sp);
	for (size_t i = 0; i < d->n; i++)
		sp->n += id != NST_NULL_I64 && d->id[i] == id;
	sp->text = nst_arena_alloc(ctx->arena, (sp->n ? sp->n : 1) * sizeof *sp->text);
	if (!sp->text)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	size_t k = 0;
	for (size_t i = 0; i < d->n; i++)
		if (id != NST_NULL_I64 && d->id[i] == id)
			sp->text[k++] = device_text(ctx, d->name ? d->name[i] : NULL, id);
	if (sp->n == 0) {
		sp->text[0] = device_text(ctx, NULL, id);
		sp->n = 1;
	}
	for (k = 0; k < sp->n; k++)
		if (!sp->text[k])
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	return NST_OK;
}

static enum nst_status devices_of(struct nst_ctx *ctx, struct devices *d, int64_t id,
				  const struct span **out, struct nst_error *err)
{
	uint32_t at;
	bool fresh;
	if (nst_map_get_or_put(&d->seen, id, 0, (uint32_t)d->nspans, &at, &fresh))
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (fresh) {
		if (d->nspans == d->cap) {
			size_t cap = d->cap ? 2 * d->cap : 8;
			struct span *p = realloc(d->spans, cap * sizeof *p);
			if (!p)
				return nst_fail(err, NST_ERR_NOMEM, "out of memory");
			d->spans = p;
			d->cap = cap;
		}
		enum nst_status s = device_span(ctx, d, id, &d->spans[d->nspans], err);
		if (s != NST_OK)
			return s;
		d->nspans++;
	}
	*out = &d->spans[at];
	return NST_OK;
}

/* ---- the three sources ------------------------------------------------------ */

struct kernels {
	struct nst_gpu_table t;
	const struct nst_col *name_id, *dim[6], *regs, *ssmem, *dsmem; /* as stored */
};

struct copies {
	struct nst_gpu_table t;
	const struct nst_col *kind, *src, *dst;
};

struct memsets {
	struct nst_gpu_table t;
	const struct nst_col *kind;
};

struct trace {
	struct nst_ctx *ctx;
	struct kernels k;
	struct copies c;
	struct memsets m;
	struct devices dev;
	struct nst_op_names names;
	struct nst_label_cache mem_kind;
	struct nst_cell cell[NCOLS];
};

static enum nst_status load_kernels(struct nst_ctx *ctx, struct kernels *k,
				    struct nst_error *err)
{
	static const char *const dims[6] = {
		"gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ",
	};
	memset(k, 0, sizeof *k);
	enum nst_status s = nst_gpu_table_load(ctx, KERNEL, NST_GPU_ALL, &k->t, err);
	for (int i = 0; !s && i < 6; i++)
		s = nst_ev_col(ctx->ev, KERNEL, dims[i], &k->dim[i], err);
	if (!s) s = nst_ev_col(ctx->ev, KERNEL, "registersPerThread", &k->regs, err);
	if (!s) s = nst_ev_col(ctx->ev, KERNEL, "staticSharedMemory", &k->ssmem, err);
	if (!s) s = nst_ev_col(ctx->ev, KERNEL, "dynamicSharedMemory", &k->dsmem, err);
	if (!s && k->t.n)
		s = nst_report_kernel_name_ids(ctx, &k->name_id, err);
	return s;
}

static enum nst_status load_sources(struct trace *tr, struct nst_error *err)
{
	struct nst_ctx *ctx = tr->ctx;
	enum nst_status s = load_kernels(ctx, &tr->k, err);
	if (!s) s = nst_gpu_table_load(ctx, MEMCPY, NST_GPU_ALL, &tr->c.t, err);
	if (!s) s = nst_ev_col(ctx->ev, MEMCPY, "copyKind", &tr->c.kind, err);
	if (!s) s = nst_ev_col(ctx->ev, MEMCPY, "srcKind", &tr->c.src, err);
	if (!s) s = nst_ev_col(ctx->ev, MEMCPY, "dstKind", &tr->c.dst, err);
	if (!s) s = nst_gpu_table_load(ctx, MEMSET, NST_GPU_ALL, &tr->m.t, err);
	if (!s) s = nst_ev_col(ctx->ev, MEMSET, "memKind", &tr->m.kind, err);
	return s;
}

/* ---- cells ------------------------------------------------------------------- */

static struct nst_cell col_cell(const struct nst_col *col, size_t row)
{
	return nst_int_or_null(nst_col_or_null(col, row));
}

/* bytes * (1000000000 / duration) in SQLite arithmetic: integer division,
 * NULL for a zero duration, REAL once the product overflows. */
static struct nst_cell throughput(int64_t bytes, int64_t dur)
{
	if (bytes == NST_NULL_I64 || dur == 0)
		return nst_null();
	int64_t per_second = 1000000000 / dur, product;
	if (__builtin_mul_overflow(bytes, per_second, &product))
		return nst_real((double)bytes * (double)per_second);
	return nst_int(product);
}

/* The columns all three sources fill alike; the rest start NULL. */
static void common_cells(struct trace *tr, const struct nst_gpu_table *t, size_t i)
{
	struct nst_cell *c = tr->cell;
	for (size_t k = 0; k < NCOLS; k++)
		c[k] = nst_null();
	c[C_START] = nst_int(t->start[i]);
	c[C_DUR] = nst_int(t->end[i] - t->start[i]);
	c[C_CORR] = col_cell(t->corr, i);
	c[C_CTX] = col_cell(t->context, i);
	c[C_GREEN] = nst_col_or_null(t->green, i) != 0 ? col_cell(t->green, i) : nst_null();
	c[C_STREAM] = col_cell(t->stream, i);
	if (t->bytes) {
		c[C_BYTES] = col_cell(t->bytes, i);
		c[C_THRU] = throughput(nst_col_at(t->bytes, i), t->end[i] - t->start[i]);
	}
}

static void kernel_cells(struct trace *tr, size_t i)
{
	const struct kernels *k = &tr->k;
	struct nst_cell *c = tr->cell;
	common_cells(tr, &k->t, i);
	c[C_BYTES] = c[C_THRU] = nst_null();
	for (int d = 0; d < 6; d++)
		c[C_GRID + d] = col_cell(k->dim[d], i);
	c[C_REGS] = col_cell(k->regs, i);
	c[C_SSMEM] = col_cell(k->ssmem, i);
	c[C_DSMEM] = col_cell(k->dsmem, i);
	int64_t id = nst_col_or_null(k->name_id, i);
	c[C_NAME] = nst_text(id != NST_NULL_I64 ? nst_kernel_name_text(tr->ctx, id) : NULL);
}

static enum nst_status copy_cells(struct trace *tr, size_t i, struct nst_error *err)
{
	const struct copies *m = &tr->c;
	struct nst_cell *c = tr->cell;
	common_cells(tr, &m->t, i);
	struct nst_db *db = tr->ctx->db;
	c[C_SRC] = nst_text(m->src ? nst_label_cached(db, &tr->mem_kind, nst_col_at(m->src, i)) : NULL);
	c[C_DST] = nst_text(m->dst ? nst_label_cached(db, &tr->mem_kind, nst_col_at(m->dst, i)) : NULL);
	int64_t name = m->kind ? nst_op_name_memcpy(tr->ctx, &tr->names, nst_col_at(m->kind, i)) : 0;
	if (name < 0)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	c[C_NAME] = nst_text(nst_op_name(&tr->names, name));
	return NST_OK;
}

static enum nst_status memset_cells(struct trace *tr, size_t i, struct nst_error *err)
{
	const struct memsets *m = &tr->m;
	struct nst_cell *c = tr->cell;
	common_cells(tr, &m->t, i);
	c[C_SRC] = nst_text(m->kind ? nst_label_cached(tr->ctx->db, &tr->mem_kind, nst_col_at(m->kind, i))
				    : NULL);
	int64_t name = nst_op_name_memset(&tr->names);
	if (name < 0)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	c[C_NAME] = nst_text(nst_op_name(&tr->names, name));
	return NST_OK;
}

/* ---- rows in start order ------------------------------------------------------ */

/* Operation op of the union (kernels, then copies, then memsets, as nsys's
 * UNION ALL lists them): its table and row. */
static const struct nst_gpu_table *source_of(const struct trace *tr, size_t op, size_t *row)
{
	if (op < tr->k.t.n) {
		*row = op;
		return &tr->k.t;
	}
	op -= tr->k.t.n;
	if (op < tr->c.t.n) {
		*row = op;
		return &tr->c.t;
	}
	*row = op - tr->c.t.n;
	return &tr->m.t;
}

static enum nst_status fill_cells(struct trace *tr, const struct nst_gpu_table *t,
				  size_t row, struct nst_error *err)
{
	if (t == &tr->k.t) {
		kernel_cells(tr, row);
		return NST_OK;
	}
	return t == &tr->c.t ? copy_cells(tr, row, err) : memset_cells(tr, row, err);
}

static enum nst_status emit_op(struct trace *tr, const struct nst_sink *out, size_t op,
			       struct nst_error *err)
{
	size_t row;
	const struct nst_gpu_table *t = source_of(tr, op, &row);
	const struct span *sp = NULL;
	enum nst_status s = fill_cells(tr, t, row, err);
	if (s == NST_OK)
		s = devices_of(tr->ctx, &tr->dev, nst_col_or_null(t->device, row),
			       &sp, err);
	for (size_t k = 0; s == NST_OK && k < sp->n; k++) {
		tr->cell[C_DEVICE] = nst_text(sp->text[k]);
		s = out->row(out->ctx, tr->cell, err);
	}
	return s;
}

/* The union's operations in start order; ties keep the union's order, as
 * nsys's ORDER BY start does. */
static enum nst_status start_order(const struct trace *tr, uint32_t **order, size_t *n,
				   struct nst_error *err)
{
	*n = tr->k.t.n + tr->c.t.n + tr->m.t.n;
	int64_t *start = nst_big_alloc(*n, sizeof *start);
	*order = nst_big_alloc(*n, sizeof **order);
	if (!start || !*order) {
		free(start);
		free(*order);
		*order = NULL;
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	for (size_t op = 0; op < *n; op++) {
		size_t row;
		start[op] = source_of(tr, op, &row)->start[row];
		(*order)[op] = (uint32_t)op;
	}
	enum nst_status s = nst_sort_by_key(*order, *n, start, err);
	free(start);
	return s;
}

static enum nst_status emit(struct trace *tr, const struct nst_sink *out,
			    struct nst_error *err)
{
	uint32_t *order;
	size_t n;
	enum nst_status s = start_order(tr, &order, &n, err);
	if (s != NST_OK)
		return s;
	s = out->begin(out->ctx, cols, NCOLS, err);
	for (size_t i = 0; s == NST_OK && i < n; i++)
		s = emit_op(tr, out, order[i], err);
	free(order);
	return s;
}

/* ---- the report ----------------------------------------------------------------- */

static enum nst_status check_tables(struct nst_ctx *ctx, struct nst_error *err)
{
	enum nst_status s = nst_require_strings(ctx, err);
	if (s != NST_OK)
		return s;
	/* Exports older than TARGET_INFO_GPU name their GPUs in
	 * TARGET_INFO_CUDA_GPU; nsys refuses them, nstats reads that.  With
	 * neither, the GPUs have no names and Device is " (id)", as for a
	 * device that TARGET_INFO_GPU does not list (nsys refuses, D49);
	 * nsys's message stays for an export with no GPU rows either. */
	bool named = nst_db_has_table(ctx->db, GPU_INFO) || nst_db_has_table(ctx->db, GPU_INFO_OLD);
	if (!nst_db_has_table(ctx->db, KERNEL) && !nst_db_has_table(ctx->db, MEMCPY) &&
	    !nst_db_has_table(ctx->db, MEMSET))
		return named ? nst_nodata(ctx, err, "GPU trace data.") : nst_no_table(ctx, err, GPU_INFO);
	return NST_OK;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	enum nst_status s = check_tables(ctx, err);
	if (s != NST_OK)
		return s;
	struct trace *tr = calloc(1, sizeof *tr);
	if (!tr)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	tr->ctx = ctx;
	tr->mem_kind.table = "ENUM_CUDA_MEM_KIND";
	s = nst_op_names_init(&tr->names, err);
	if (s == NST_OK) {
		s = load_sources(tr, err);
		if (s == NST_OK)
			s = devices_load(ctx, &tr->dev, err);
		if (s == NST_OK)
			s = emit(tr, out, err);
		devices_release(&tr->dev);
		nst_op_names_release(&tr->names);
	}
	free(tr);
	return s;
}

static const struct nst_need needs[] = {
	NST_GPU_ALL_NEEDS(KERNEL), NST_KERNEL_NAME_NEEDS,
	{ KERNEL, "gridX", false }, { KERNEL, "gridY", false }, { KERNEL, "gridZ", false },
	{ KERNEL, "blockX", false }, { KERNEL, "blockY", false }, { KERNEL, "blockZ", false },
	{ KERNEL, "registersPerThread", false }, { KERNEL, "staticSharedMemory", false },
	{ KERNEL, "dynamicSharedMemory", false },
	NST_GPU_ALL_NEEDS(MEMCPY), NST_MEMCPY_KIND_NEEDS,
	{ MEMCPY, "srcKind", false }, { MEMCPY, "dstKind", false },
	NST_GPU_ALL_NEEDS(MEMSET), { MEMSET, "memKind", false },
	{ GPU_INFO, "id", false }, { GPU_INFO, "deviceId", false }, { GPU_INFO, "name", true },
	{ GPU_INFO_OLD, "deviceId", false }, { GPU_INFO_OLD, "name", true },
	{ NULL, NULL, false },
};

const struct nst_report nst_report_cuda_gpu_trace = {
	.name = "cuda_gpu_trace",
	.title = "CUDA GPU Trace",
	.help = "Every CUDA kernel, memory copy and memset in start order: duration,\n"
		"correlation id, grid and block, registers, shared memory, bytes and\n"
		"throughput, memory kinds, device, context, green context, stream and\n"
		"name.  Exports without ENUM tables or greenContextId (which nsys\n"
		"2024.2.3 refuses) are read too; without TARGET_INFO_GPU (or the older\n"
		"TARGET_INFO_CUDA_GPU) a Device is its id alone, \" (0)\".\n"
		"base names kernels by their short name, mangled by their mangled\n"
		"name where the export has one.  nvtx-name prefixes each kernel's name\n"
		"with the name of the innermost NVTX range around its launch, on the\n"
		"launching thread (\"range/kernel\").",
	.args = (const char *const[]){ "nvtx-name", "base", "mangled", NULL },
	.needs = needs,
	.run = run,
	.flags = NST_REPORT_KERNELS | NST_REPORT_EVENT_ROWS,
};
