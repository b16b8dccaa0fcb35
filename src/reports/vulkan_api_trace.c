/* vulkan_api_trace: every VULKAN_API row in start order (equal starts in
 * row order), with the name and priority of its thread. */
#include <stdlib.h>

#include "reports/common.h"
#include "reports/threads.h"

#define VULKAN_API "VULKAN_API"

struct api_rows {
	size_t n;
	const int64_t *start, *end, *cls, *name_id, *context, *corr, *gtid;
};

static enum nst_status load(struct nst_ctx *ctx, struct api_rows *a, struct nst_error *err)
{
	enum nst_status s = nst_ev_rows(ctx->ev, VULKAN_API, &a->n, err);
	if (!s) s = nst_ev_i64(ctx->ev, VULKAN_API, "start", &a->start, err);
	if (!s) s = nst_ev_i64(ctx->ev, VULKAN_API, "end", &a->end, err);
	if (!s) s = nst_ev_i64(ctx->ev, VULKAN_API, "eventClass", &a->cls, err);
	if (!s) s = nst_ev_i64(ctx->ev, VULKAN_API, "nameId", &a->name_id, err);
	if (!s) s = nst_ev_i64(ctx->ev, VULKAN_API, "contextId", &a->context, err);
	if (!s) s = nst_ev_i64(ctx->ev, VULKAN_API, "correlationId", &a->corr, err);
	if (!s) s = nst_ev_i64(ctx->ev, VULKAN_API, "globalTid", &a->gtid, err);
	if (s == NST_OK && (!a->start || !a->end))
		s = nst_fail(err, NST_ERR_DB, "%s: %s lacks start or end",
			     nst_db_path(ctx->db), VULKAN_API);
	return s;
}

static int64_t at(const int64_t *col, size_t row)
{
	return col ? col[row] : NST_NULL_I64;
}

static int64_t span(int64_t start, int64_t end)
{
	return start == NST_NULL_I64 || end == NST_NULL_I64 ? NST_NULL_I64 : end - start;
}

/* One output row: the call, and the thread name row `tn` (-1: none). */
static enum nst_status emit_call(struct nst_ctx *ctx, const struct nst_sink *out,
				 const struct api_rows *a, const struct nst_threads *t,
				 uint32_t r, int64_t tn, struct nst_error *err)
{
	int64_t gtid = at(a->gtid, r), name = at(a->name_id, r);
	struct nst_cell cells[10] = {
		nst_int_or_null(a->start[r]),
		nst_int_or_null(span(a->start[r], a->end[r])),
		name == NST_NULL_I64 ? nst_null() : nst_text(nst_db_string(ctx->db, name)),
		nst_int_or_null(at(a->cls, r)),
		nst_int_or_null(at(a->context, r)),
		nst_int_or_null(at(a->corr, r)),
		gtid == NST_NULL_I64 ? nst_null() : nst_int(nst_pid(gtid)),
		gtid == NST_NULL_I64 ? nst_null() : nst_int(nst_tid(gtid)),
		nst_threads_priority(t, tn),
		nst_threads_name(ctx, t, tn),
	};
	return out->row(out->ctx, cells, err);
}

static enum nst_status emit(struct nst_ctx *ctx, const struct nst_sink *out,
			    const struct api_rows *a, const struct nst_threads *t,
			    const uint32_t *order, struct nst_error *err)
{
	static const char *const cols[] = {
		"Start:ts_ns", "Duration:dur_ns", "Name", "Event Class", "Context",
		"CorrID", "Pid", "Tid", "T-Pri", "Thread Name",
	};
	enum nst_status s = out->begin(out->ctx, cols, 10, err);
	for (size_t k = 0; s == NST_OK && k < a->n; k++) {
		uint32_t r = order[k];
		int64_t tn = nst_threads_first(t, at(a->gtid, r));
		do
			s = emit_call(ctx, out, a, t, r, tn, err);
		while (s == NST_OK && (tn = nst_threads_next(t, tn)) >= 0);
	}
	return s;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	enum nst_status s = nst_require_strings(ctx, err);
	if (s != NST_OK)
		return s;
	/* As in cuda_api_trace: ThreadNames only names the threads (D49). */
	if (!nst_db_has_table(ctx->db, VULKAN_API))
		return nst_db_has_table(ctx->db, THREADS) ? nst_nodata(ctx, err, "Vulkan API trace data.")
							  : nst_no_table(ctx, err, THREADS);
	struct api_rows a = { 0 };
	if ((s = load(ctx, &a, err)) != NST_OK)
		return s;
	struct nst_threads t = { 0 };
	uint32_t *order = malloc((a.n ? a.n : 1) * sizeof *order);
	if (!order)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t k = 0; k < a.n; k++)
		order[k] = (uint32_t)k;
	s = nst_sort_by_key(order, a.n, a.start, err);
	if (s == NST_OK)
		s = nst_threads_load(ctx, &t, err);
	if (s == NST_OK)
		s = emit(ctx, out, &a, &t, order, err);
	nst_threads_release(&t);
	free(order);
	return s;
}

static const struct nst_need needs[] = {
	{ VULKAN_API, "start", false }, { VULKAN_API, "end", false },
	{ VULKAN_API, "eventClass", false }, { VULKAN_API, "nameId", false },
	{ VULKAN_API, "contextId", false }, { VULKAN_API, "correlationId", false },
	{ VULKAN_API, "globalTid", false },
	NST_THREAD_NEEDS,
	{ NULL, NULL, false },
};

const struct nst_report nst_report_vulkan_api_trace = {
	.name = "vulkan_api_trace",
	.title = "Vulkan API Trace",
	.help = "Every Vulkan API call (VULKAN_API row, of any event class) in start\n"
		"order: its start, duration, name, event class, context, correlation\n"
		"id, process and thread, and the thread's priority and name (empty\n"
		"without a ThreadNames table, which nsys 2024.2.3 refuses).",
	.args = (const char *const[]){ NULL },
	.needs = needs,
	.run = run,
	.flags = NST_REPORT_EVENT_ROWS,
};
