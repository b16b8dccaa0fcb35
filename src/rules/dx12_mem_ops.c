/* dx12_mem_ops: DX12 memory operations that cost the CPU time for
 * nothing: heaps and committed resources created with zeroing, reads from
 * and writes to subresources against the heap's or the CPU page's intent.
 * Each DX12_MEMORY_OPERATION row joined to its DX12_API call gets at most
 * one warning; longest call first, ties in memory-operation order.
 *
 * What nsys 2024.2.3 does, as its output shows it:
 *  - the heap type it calls "upload" is 1 and "readback" 2, one less than
 *    ENUM_D3D12_HEAP_TYPE says (1 is DEFAULT there);
 *  - a subresource read or write names the heap when the heap type is the
 *    one it looks for, else the CPU page (write-combine 2, write-back 3);
 *  - zeroing is a heapFlags without D3D12_HEAP_FLAG_CREATE_NOT_ZEROED;
 *  - the Map/Unmap warnings of its help are never reported, whatever the
 *    ranges, heap, page or flags of the operation: nstats reports none. */
#include <stdlib.h>
#include <string.h>

#include "core/big.h"
#include "rules/rule.h"

#define DX12_API "DX12_API"
#define DX12_MEMORY_OPERATION "DX12_MEMORY_OPERATION"

#define HEAP_UPLOAD 1               /* as nsys reads heapType */
#define HEAP_READBACK 2
#define PAGE_WRITE_COMBINE 2        /* ENUM_D3D12_PAGE_PROPERTY */
#define PAGE_WRITE_BACK 3
#define HEAP_FLAG_CREATE_NOT_ZEROED 0x1000  /* D3D12_HEAP_FLAG_CREATE_NOT_ZEROED */

static const char *const cols[] = {
	"Duration:dur_ns", "Start:ts_ns", "TID", "Device ID", "Warning Type",
};
#define NCOLS (sizeof cols / sizeof *cols)

/* The columns read, NULL where the export lacks one. */
struct dx12 {
	size_t ncalls, nops;
	const int64_t *id, *start, *end, *gtid, *name_id;
	const int64_t *gpu, *heap_type, *heap_flags, *page, *call_id;
};

static enum nst_status load(struct nst_ctx *ctx, struct dx12 *d, struct nst_error *err)
{
	struct nst_events *ev = ctx->ev;
	enum nst_status s = nst_ev_rows(ev, DX12_API, &d->ncalls, err);
	if (!s) s = nst_ev_rows(ev, DX12_MEMORY_OPERATION, &d->nops, err);
	if (!s) s = nst_ev_i64(ev, DX12_API, "id", &d->id, err);
	if (!s) s = nst_ev_i64(ev, DX12_API, "start", &d->start, err);
	if (!s) s = nst_ev_i64(ev, DX12_API, "end", &d->end, err);
	if (!s) s = nst_ev_i64(ev, DX12_API, "globalTid", &d->gtid, err);
	if (!s) s = nst_ev_i64(ev, DX12_API, "nameId", &d->name_id, err);
	if (!s) s = nst_ev_i64(ev, DX12_MEMORY_OPERATION, "gpu", &d->gpu, err);
	if (!s) s = nst_ev_i64(ev, DX12_MEMORY_OPERATION, "heapType", &d->heap_type, err);
	if (!s) s = nst_ev_i64(ev, DX12_MEMORY_OPERATION, "heapFlags", &d->heap_flags, err);
	if (!s) s = nst_ev_i64(ev, DX12_MEMORY_OPERATION, "cpuPageProperty", &d->page, err);
	if (!s) s = nst_ev_i64(ev, DX12_MEMORY_OPERATION, "traceEventId", &d->call_id, err);
	return s;
}

static int64_t at(const int64_t *col, size_t row)
{
	return col ? col[row] : NST_NULL_I64;
}

/* A heap created without D3D12_HEAP_FLAG_CREATE_NOT_ZEROED (a NULL flag
 * is no warning, as SQL's NULL comparisons make it). */
static bool zeroed(int64_t flags)
{
	return flags != NST_NULL_I64 && !(flags & HEAP_FLAG_CREATE_NOT_ZEROED);
}

/* The warning for one memory operation of the call named `name`, or NULL. */
static const char *warning(const char *name, int64_t heap, int64_t flags, int64_t page)
{
	if (nst_rule_like_prefix(name, "ID3D12Device::CreateHeap"))
		return zeroed(flags) ? "D3D12_HEAP_CREATED_WITH_ZEROING" : NULL;
	if (nst_rule_like_prefix(name, "ID3D12Device::CreateCommittedResource"))
		return zeroed(flags) ? "D3D12_COMMITTED_RESOURCE_CREATED_WITH_ZEROING" : NULL;
	if (strcmp(name, "ID3D12Resource::ReadFromSubresource") == 0) {
		if (heap == HEAP_UPLOAD)
			return "D3D12_READ_FROM_UPLOAD_HEAP_SUBRESOURCE";
		return page == PAGE_WRITE_COMBINE ?
			"D3D12_READ_FROM_SUBRESOURCE_TO_WRITE_COMBINE_PAGE" : NULL;
	}
	if (strcmp(name, "ID3D12Resource::WriteToSubresource") == 0) {
		if (heap == HEAP_READBACK)
			return "D3D12_WRITE_TO_READBACK_HEAP_SUBRESOURCE";
		return page == PAGE_WRITE_BACK ?
			"D3D12_WRITE_TO_SUBRESOURCE_FROM_WRITE_BACK_PAGE" : NULL;
	}
	return NULL;
}

/* The call row with id `id`, or -1 (an operation without its call has
 * no warning: nsys joins them). */
static int64_t call_row(const struct dx12 *d, const uint32_t *by, int64_t id)
{
	size_t lo = 0, hi = d->ncalls;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int64_t v = d->id[by[mid]];
		if (v == id)
			return by[mid];
		if (v < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* The warned operations: op[k] with its call row call[k], kind warn[k]. */
struct warned {
	uint32_t *op, *call;
	int64_t *dur;
	const char **warn;
	size_t n;
};

static void warned_free(struct warned *w)
{
	free(w->op);
	free(w->call);
	free(w->dur);
	free(w->warn);
}

static enum nst_status find(struct nst_ctx *ctx, const struct dx12 *d, struct warned *w,
			    struct nst_error *err)
{
	size_t nops = d->nops ? d->nops : 1;
	uint32_t *by = nst_big_alloc(d->ncalls, sizeof *by);
	w->op = nst_big_alloc(nops, sizeof *w->op);
	w->call = nst_big_alloc(nops, sizeof *w->call);
	w->dur = nst_big_alloc(nops, sizeof *w->dur);
	w->warn = nst_big_alloc(nops, sizeof *w->warn);
	if (!by || !w->op || !w->call || !w->dur || !w->warn) {
		free(by);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	/* call rows by id, to find an operation's call by traceEventId */
	for (size_t i = 0; i < d->ncalls; i++)
		by[i] = (uint32_t)i;
	enum nst_status s = nst_sort_by_key(by, d->ncalls, d->id, err);
	if (s != NST_OK) {
		free(by);
		return s;
	}
	for (size_t k = 0; k < d->nops; k++) {
		int64_t r = at(d->call_id, k) == NST_NULL_I64 ? -1 :
			call_row(d, by, d->call_id[k]);
		if (r < 0 || at(d->name_id, (size_t)r) == NST_NULL_I64)
			continue;
		const char *what = warning(nst_raw_name(ctx, d->name_id[r]), at(d->heap_type, k),
					   at(d->heap_flags, k), at(d->page, k));
		if (!what)
			continue;
		w->op[w->n] = (uint32_t)k;
		w->call[w->n] = (uint32_t)r;
		w->warn[w->n] = what;
		w->dur[w->n] = d->end[r] - d->start[r];
		w->n++;
	}
	free(by);
	return NST_OK;
}

static struct nst_cell maybe(int64_t v)
{
	return v == NST_NULL_I64 ? nst_null() : nst_int(v);
}

static enum nst_status emit(const struct dx12 *d, const struct warned *w, const uint32_t *idx,
			    size_t n, const struct nst_rule_notes *notes,
			    const struct nst_sink *out, struct nst_error *err)
{
	/* Without a warning nsys's result has no columns either. */
	enum nst_status s = nst_rule_begin(out, notes, cols, n ? NCOLS : 0, err);
	for (size_t k = 0; s == NST_OK && k < n; k++) {
		uint32_t i = idx[k], r = w->call[i];
		int64_t g = at(d->gtid, r);
		struct nst_cell row[NCOLS] = {
			nst_int(w->dur[i]), nst_int(d->start[r]),
			maybe(g == NST_NULL_I64 ? g : nst_tid(g)),
			maybe(at(d->gpu, w->op[i])), nst_text(w->warn[i]),
		};
		s = out->row(out->ctx, row, err);
	}
	return s;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	if (!nst_db_has_table(ctx->db, DX12_API) ||
	    !nst_db_has_table(ctx->db, DX12_MEMORY_OPERATION))
		return nst_fail(err, NST_ERR_NODATA,
				"%s could not be analyzed because it does not contain the "
				"required DX12 data. Does the application use DX12 APIs?",
				nst_db_path(ctx->db));
	struct dx12 d = { 0 };
	enum nst_status s = load(ctx, &d, err);
	if (!s && d.nops && d.ncalls && (!d.id || !d.start || !d.end))
		return nst_fail(err, NST_ERR_NODATA, "%s: DX12_API lacks id, start or end",
				nst_db_path(ctx->db));
	if (!s && d.nops && d.ncalls) s = nst_require_strings(ctx, err);
	struct warned w = { 0 };
	if (!s && d.ncalls) s = find(ctx, &d, &w, err);
	uint32_t *idx = nst_big_alloc(w.n, sizeof *idx);
	if (!s && !idx) s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (!s) {
		for (size_t k = 0; k < w.n; k++)
			idx[k] = (uint32_t)k;
		struct nst_rule_notes notes = {
			.advice = "The following are host-side memory operations that can be blocking"
				  " and result\nin stuttering.\n\nFor more information on each warning,"
				  " use the option '--help-rules={SCRIPT}'.\n",
			.noresult = "There were no problems detected related to memory operations.\n",
		};
		size_t n = nst_rule_top(ctx, idx, w.n, w.dur, &notes);
		s = emit(&d, &w, idx, n, &notes, out, err);
	}
	free(idx);
	warned_free(&w);
	return s;
}

static const char *const args[] = { "rows", NULL };

static const struct nst_need needs[] = {
	{ DX12_API, "id", false }, { DX12_API, "start", false }, { DX12_API, "end", false },
	{ DX12_API, "globalTid", false }, { DX12_API, "nameId", false },
	{ DX12_MEMORY_OPERATION, "gpu", false }, { DX12_MEMORY_OPERATION, "heapType", false },
	{ DX12_MEMORY_OPERATION, "heapFlags", false },
	{ DX12_MEMORY_OPERATION, "cpuPageProperty", false },
	{ DX12_MEMORY_OPERATION, "traceEventId", false },
	{ NULL, NULL, false },
};

const struct nst_report nst_rule_dx12_mem_ops = {
	.name = "dx12_mem_ops",
	.title = "DX12 Memory Operations",
	.help = "DX12 memory operations that cost time for nothing, longest call\n"
		"first: duration, start, thread, device and warning. A heap or a\n"
		"committed resource created without D3D12_HEAP_FLAG_CREATE_NOT_ZEROED;\n"
		"ReadFromSubresource from an upload heap or to a write-combine CPU page;\n"
		"WriteToSubresource to a readback heap or from a write-back CPU page.\n"
		"rows=N shows N of them (default 50, -1 all). Like nsys 2024.2.3, no\n"
		"Map or Unmap is ever warned about.",
	.args = args,
	.needs = needs,
	.run = run,
	.check = nst_rule_check,
};
