/* cuda_gpu_kern_launch_trace: one row per kernel instance, with an
 * identity that two runs or two profilers can be matched on launch by
 * launch: process, device, stream, correlation id and start, plus an
 * ordinal that tells identical launches apart instead of merging them. */
#include <stdlib.h>
#include <string.h>

#include "core/big.h"
#include "reports/common.h"
#include "reports/kernel_names.h"

static const char *const cols[] = {
	"PID", "DevId", "Strm", "CorrId", "Start:ts_ns", "End:ts_ns", "Duration:dur_ns",
	"Instance", "GrdX", "GrdY", "GrdZ", "BlkX", "BlkY", "BlkZ",
	"API Function", "API Start:ts_ns", "TID", "Name",
};
#define NCOLS (sizeof cols / sizeof *cols)
enum { C_PID, C_DEV, C_STREAM, C_CORR, C_START, C_END, C_DUR, C_INSTANCE, C_DIMS,
       C_API = C_DIMS + 6, C_API_START, C_TID, C_NAME };

/* The kernels as the report's filter shows them.  gpid is the process of
 * each row: KERNEL.globalPid, or the only process that made calls when an
 * export lacks that column (NULL when there are several). */
struct kernels {
	size_t n;
	const int64_t *start, *end;
	const struct nst_col *device, *stream, *corr, *name, *dim[6]; /* as stored */
	int64_t *gpid;
};

/* The launch calls, from every call whatever the filter: a kernel in the
 * window keeps the identity of its launch even when the call started
 * before the window.  calls is NULL when the export has none to join. */
struct launches {
	struct nst_ctx all;
	const struct nst_calls *calls;
};

struct trace {
	struct nst_ctx *ctx;
	struct kernels k;
	struct launches l;
	uint32_t *order;    /* output position -> kernel row */
	uint32_t *instance; /* by kernel row */
	struct nst_cell cell[NCOLS];
};

/* ---- reading ------------------------------------------------------------------ */

static enum nst_status load_launches(struct nst_ctx *ctx, struct launches *l,
				     struct nst_error *err)
{
	l->all = nst_ctx_unfiltered(ctx);
	l->calls = NULL;
	if (!nst_db_has_table(ctx->db, RUNTIME))
		return NST_OK;
	const struct nst_calls *c;
	enum nst_status s = nst_calls_ids(&l->all, &c, err);
	if (s == NST_OK)
		s = nst_calls_index(&l->all, err);
	if (s == NST_OK && c->gtid && c->corr)
		l->calls = c;
	return s;
}

/* The process of every call, when it is one process (else NULL). */
static int64_t sole_process(const struct nst_calls *c)
{
	int64_t gpid = NST_NULL_I64;
	for (size_t k = 0; c && k < c->ncalls; k++) {
		int64_t g = nst_col_or_null(c->gtid, nst_call_row(c, k));
		if (g == NST_NULL_I64)
			continue;
		if (gpid != NST_NULL_I64 && gpid != nst_gpid(g))
			return NST_NULL_I64;
		gpid = nst_gpid(g);
	}
	return gpid;
}

static enum nst_status load_processes(struct kernels *k, const int64_t *col,
				      const struct launches *l, struct nst_error *err)
{
	k->gpid = nst_big_alloc(k->n, sizeof *k->gpid);
	if (!k->gpid)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	int64_t sole = col ? NST_NULL_I64 : sole_process(l->calls);
	for (size_t i = 0; i < k->n; i++)
		k->gpid[i] = col ? col[i] : sole;
	return NST_OK;
}

static enum nst_status load_kernels(struct nst_ctx *ctx, struct kernels *k,
				    const struct launches *l, struct nst_error *err)
{
	static const char *const dims[6] = {
		"gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ",
	};
	const int64_t *gpid = NULL;
	struct nst_events *ev = ctx->ev;
	enum nst_status s = nst_ev_rows(ev, KERNEL, &k->n, err);
	if (!s) s = nst_ev_i64(ev, KERNEL, "start", &k->start, err);
	if (!s) s = nst_ev_i64(ev, KERNEL, "end", &k->end, err);
	if (!s) s = nst_ev_col(ev, KERNEL, "deviceId", &k->device, err);
	if (!s) s = nst_ev_col(ev, KERNEL, "streamId", &k->stream, err);
	if (!s) s = nst_ev_col(ev, KERNEL, "correlationId", &k->corr, err);
	if (!s) s = nst_ev_i64(ev, KERNEL, "globalPid", &gpid, err);
	for (int d = 0; !s && d < 6; d++)
		s = nst_ev_col(ev, KERNEL, dims[d], &k->dim[d], err);
	if (!s && k->n)
		s = nst_report_kernel_name_ids(ctx, &k->name, err);
	if (s == NST_OK && k->n && (!k->start || !k->end))
		return nst_fail(err, NST_ERR_DB, "%s: %s lacks start or end",
				nst_db_path(ctx->db), KERNEL);
	return s == NST_OK ? load_processes(k, gpid, l, err) : s;
}

/* ---- order and instances ---------------------------------------------------------- */

/* The keys after start, for the rare rows that start together. */
struct tie_keys {
	const struct nst_col *key[4];
};

/* NULL (INT64_MIN) first; a column the export lacks orders nothing. */
static int cmp_ties(uint32_t a, uint32_t b, void *arg)
{
	const struct tie_keys *t = arg;
	for (int i = 0; i < 4; i++) {
		const struct nst_col *k = t->key[i];
		int64_t va = k ? nst_col_at(k, a) : 0, vb = k ? nst_col_at(k, b) : 0;
		if (va != vb)
			return va < vb ? -1 : 1;
	}
	return 0;
}

/* Start, then PID, device, stream, correlation id, then table order: one
 * radix sort by start, then a stable sort of each run of equal starts. */
static enum nst_status output_order(struct trace *tr, struct nst_error *err)
{
	const struct kernels *k = &tr->k;
	size_t n = k->n ? k->n : 1;
	int64_t *pid = nst_big_alloc(n, sizeof *pid);
	tr->order = nst_big_alloc(n, sizeof *tr->order);
	if (!pid || !tr->order) {
		free(pid);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < k->n; i++) {
		tr->order[i] = (uint32_t)i;
		pid[i] = k->gpid[i] == NST_NULL_I64 ? NST_NULL_I64 : nst_pid(k->gpid[i]);
	}
	enum nst_status s = nst_sort_by_key(tr->order, k->n, k->start, err);
	const struct nst_col pid_col = nst_col_of(pid);
	struct tie_keys ties = { { &pid_col, k->device, k->stream, k->corr } };
	for (size_t lo = 0, hi; s == NST_OK && lo < k->n; lo = hi) {
		for (hi = lo + 1; hi < k->n && k->start[tr->order[hi]] == k->start[tr->order[lo]];)
			hi++;
		if (hi - lo > 1)
			nst_stable_sort(tr->order + lo, hi - lo, cmp_ties, &ties);
	}
	free(pid);
	return s;
}

/* Instance i of a launch is the i-th, in output order, with its process,
 * device, stream, name, grid and block: grouping the rows taken in output
 * order keeps each group in that order. */
static enum nst_status number_instances(struct trace *tr, struct nst_error *err)
{
	const struct kernels *k = &tr->k;
	const struct nst_col gpid = nst_col_of(k->gpid);
	const struct nst_col *candidates[] = {
		k->gpid ? &gpid : NULL, k->device, k->stream, k->name,
		k->dim[0], k->dim[1], k->dim[2], k->dim[3], k->dim[4], k->dim[5],
	};
	const struct nst_col *keys[sizeof candidates / sizeof *candidates];
	size_t nkeys = 0;
	for (size_t i = 0; i < sizeof candidates / sizeof *candidates; i++)
		if (candidates[i])
			keys[nkeys++] = candidates[i];
	tr->instance = nst_big_alloc(k->n, sizeof *tr->instance);
	if (!tr->instance)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	struct nst_groups g;
	enum nst_status s = nst_group_cols(keys, nkeys, tr->order, k->n, &g, err);
	if (s != NST_OK)
		return s;
	for (size_t grp = 0; grp < g.n; grp++)
		for (size_t i = g.start[grp]; i < g.start[grp + 1]; i++)
			tr->instance[g.order[i]] = (uint32_t)(i - g.start[grp] + 1);
	nst_groups_release(&g);
	return NST_OK;
}

/* ---- rows ------------------------------------------------------------------------- */

static struct nst_cell int_at(const struct nst_col *col, size_t row)
{
	return nst_int_or_null(nst_col_or_null(col, row));
}

static void launch_cells(struct trace *tr, size_t row)
{
	const struct kernels *k = &tr->k;
	const struct nst_calls *c = tr->l.calls;
	struct nst_cell *cell = tr->cell;
	int64_t r = -1;
	if (c && k->corr)
		r = nst_calls_find(&tr->l.all, k->gpid[row], nst_col_at(k->corr, row));
	if (r < 0) {
		cell[C_API] = cell[C_API_START] = cell[C_TID] = nst_null();
		return;
	}
	cell[C_API] = nst_text(nst_api_name(&tr->l.all, nst_col_at(c->name_id, (size_t)r)));
	cell[C_API_START] = nst_int(c->start[r]);
	int64_t gtid = nst_col_or_null(c->gtid, (size_t)r);
	cell[C_TID] = gtid == NST_NULL_I64 ? nst_null() : nst_int(nst_tid(gtid));
}

static enum nst_status emit_row(struct trace *tr, const struct nst_sink *out, size_t row,
				struct nst_error *err)
{
	const struct kernels *k = &tr->k;
	struct nst_cell *cell = tr->cell;
	int64_t gpid = k->gpid[row];
	cell[C_PID] = gpid == NST_NULL_I64 ? nst_null() : nst_int(nst_pid(gpid));
	cell[C_DEV] = int_at(k->device, row);
	cell[C_STREAM] = int_at(k->stream, row);
	cell[C_CORR] = int_at(k->corr, row);
	int64_t start = k->start[row], end = k->end[row];
	cell[C_START] = nst_int_or_null(start);
	cell[C_END] = nst_int_or_null(end);
	/* SQL's end - start: NULL when either is (trimmed exports) */
	cell[C_DUR] = start == NST_NULL_I64 || end == NST_NULL_I64 ? nst_null() : nst_int(end - start);
	cell[C_INSTANCE] = nst_int(tr->instance[row]);
	for (int d = 0; d < 6; d++)
		cell[C_DIMS + d] = int_at(k->dim[d], row);
	launch_cells(tr, row);
	int64_t name = nst_col_or_null(k->name, row);
	cell[C_NAME] = nst_text(name != NST_NULL_I64 ? nst_kernel_name_text(tr->ctx, name) : NULL);
	return out->row(out->ctx, cell, err);
}

static enum nst_status emit(struct trace *tr, const struct nst_sink *out,
			    struct nst_error *err)
{
	enum nst_status s = out->begin(out->ctx, cols, NCOLS, err);
	for (size_t i = 0; s == NST_OK && i < tr->k.n; i++)
		s = emit_row(tr, out, tr->order[i], err);
	return s;
}

/* ---- the report --------------------------------------------------------------------- */

static enum nst_status check_tables(struct nst_ctx *ctx, struct nst_error *err)
{
	enum nst_status s = nst_require_strings(ctx, err);
	if (s == NST_OK && !nst_db_has_table(ctx->db, KERNEL))
		s = nst_nodata(ctx, err, "CUDA kernel data.");
	return s;
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
	s = load_launches(ctx, &tr->l, err);
	if (s == NST_OK)
		s = load_kernels(ctx, &tr->k, &tr->l, err);
	if (s == NST_OK)
		s = output_order(tr, err);
	if (s == NST_OK)
		s = number_instances(tr, err);
	if (s == NST_OK)
		s = emit(tr, out, err);
	free(tr->k.gpid);
	free(tr->order);
	free(tr->instance);
	free(tr);
	return s;
}

static const struct nst_need needs[] = {
	{ KERNEL, "start", false }, { KERNEL, "end", false },
	{ KERNEL, "deviceId", false }, { KERNEL, "streamId", false },
	{ KERNEL, "correlationId", false }, { KERNEL, "globalPid", false },
	{ KERNEL, "demangledName", false },
	{ KERNEL, "gridX", false }, { KERNEL, "gridY", false }, { KERNEL, "gridZ", false },
	{ KERNEL, "blockX", false }, { KERNEL, "blockY", false }, { KERNEL, "blockZ", false },
	{ NULL, NULL, false },
};

static const struct nst_need needs_unfiltered[] = {
	NST_CALL_NEEDS, NST_CALL_ID_NEEDS,
	{ NULL, NULL, false },
};

const struct nst_report nst_report_cuda_gpu_kern_launch_trace = {
	.name = "cuda_gpu_kern_launch_trace",
	.title = "CUDA Kernel Launch Trace",
	.help = "One row per kernel instance (CUPTI_ACTIVITY_KIND_KERNEL row), never\n"
		"merged, with an identity to match two runs or two profilers launch by\n"
		"launch: PID, device, stream, correlation id, start, end and duration;\n"
		"Instance, the launch's ordinal (1, 2, 3 ...) among the launches with\n"
		"the same process, device, stream, name, grid and block, in the order\n"
		"of the rows (under a filter, of the rows it keeps, so that two runs cut\n"
		"to the same NVTX range number their launches alike); grid and block;\n"
		"and the API call that launched it: its function, start and thread.\n"
		"Rows are ordered by start, then PID, device, stream and correlation\n"
		"id, then the export's row order.\n"
		"A kernel's call is found by process and correlation id among all the\n"
		"calls, whatever the filter (a kernel in the window whose call started\n"
		"before it still names its call); CUDA backtrace records are never\n"
		"calls, and when several calls share the id, the first in the export\n"
		"is the launch.  A kernel with no call keeps its row, with the API\n"
		"columns empty.\n"
		"base names kernels by their short name, mangled by their mangled name\n"
		"where the export has one; nvtx-name prefixes each name with the\n"
		"innermost NVTX range around its launch (\"range/kernel\").  The name\n"
		"Instance counts by is the name shown.\n"
		"Kernels of CUDA graphs traced at graph level are not in the export's\n"
		"kernel table: a note on stderr says how many graph launches, and how\n"
		"much GPU time, the report leaves out.",
	.args = (const char *const[]){ "nvtx-name", "base", "mangled", NULL },
	.needs = needs,
	.needs_unfiltered = needs_unfiltered,
	.run = run,
	.flags = NST_REPORT_ADDITION | NST_REPORT_KERNELS | NST_REPORT_EVENT_ROWS,
};
