/* cuda_api_trace: every CUDA runtime and driver API call, by start time,
 * with the name and priority of its thread.  CUDA backtrace records are
 * not calls and are left out (nsys 2024.2.3 lists them as extra rows). */
#include <stdlib.h>

#include "core/big.h"
#include "reports/common.h"
#include "reports/threads.h"

/* One output row: the call, and the thread name row `tn` (-1: none). */
static enum nst_status emit_call(struct nst_ctx *ctx, const struct nst_sink *out,
				 const struct nst_calls *c, const struct nst_threads *t,
				 uint32_t r, int64_t tn, struct nst_error *err)
{
	int64_t gtid = nst_col_or_null(c->gtid, r);
	struct nst_cell cells[9] = {
		nst_int(c->start[r]),
		nst_int(c->end[r] - c->start[r]),
		nst_text(nst_api_name(ctx, nst_col_at(c->name_id, r))),
		nst_int_or_null(nst_col_or_null(c->ret, r)),
		nst_int_or_null(nst_col_or_null(c->corr, r)),
		gtid == NST_NULL_I64 ? nst_null() : nst_int(nst_pid(gtid)),
		gtid == NST_NULL_I64 ? nst_null() : nst_int(nst_tid(gtid)),
		nst_threads_priority(t, tn),
		nst_threads_name(ctx, t, tn),
	};
	return out->row(out->ctx, cells, err);
}

static enum nst_status emit(struct nst_ctx *ctx, const struct nst_sink *out,
			    const struct nst_calls *c, const struct nst_threads *t,
			    const uint32_t *order, struct nst_error *err)
{
	static const char *const cols[] = {
		"Start:ts_ns", "Duration:dur_ns", "Name", "Result", "CorrID",
		"Pid", "Tid", "T-Pri", "Thread Name",
	};
	enum nst_status s = out->begin(out->ctx, cols, 9, err);
	for (size_t k = 0; s == NST_OK && k < c->ncalls; k++) {
		uint32_t r = order[k];
		int64_t tn = nst_threads_first(t, nst_col_or_null(c->gtid, r));
		do
			s = emit_call(ctx, out, c, t, r, tn, err);
		while (s == NST_OK && (tn = nst_threads_next(t, tn)) >= 0);
	}
	return s;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	enum nst_status strings = nst_require_strings(ctx, err);
	if (strings != NST_OK)
		return strings;
	/* ThreadNames only names the threads: without it the calls are listed
	 * with an empty T-Pri and Thread Name (nsys refuses, D49), and nsys's
	 * message stays for an export with no calls to list either. */
	if (!nst_db_has_table(ctx->db, RUNTIME))
		return nst_db_has_table(ctx->db, THREADS) ? nst_nodata(ctx, err, "CUDA trace data.")
							  : nst_no_table(ctx, err, THREADS);
	const struct nst_calls *c;
	enum nst_status s = nst_calls_results(ctx, &c, err);
	if (s != NST_OK)
		return s;
	struct nst_threads t = { 0 };
	uint32_t *order = nst_big_alloc(c->ncalls, sizeof *order);
	if (!order)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t k = 0; k < c->ncalls; k++)
		order[k] = nst_call_row(c, k);
	s = nst_sort_by_key(order, c->ncalls, c->start, err);
	if (s == NST_OK)
		s = nst_threads_load(ctx, &t, err);
	if (s == NST_OK)
		s = emit(ctx, out, c, &t, order, err);
	nst_threads_release(&t);
	free(order);
	return s;
}

static const struct nst_need needs[] = {
	NST_CALL_NEEDS,
	NST_CALL_ID_NEEDS,
	NST_CALL_RESULT_NEEDS,
	NST_THREAD_NEEDS,
	{ NULL, NULL, false },
};

const struct nst_report nst_report_cuda_api_trace = {
	.name = "cuda_api_trace",
	.title = "CUDA API Trace",
	.help = "Every CUDA runtime and driver API call in start order: its start,\n"
		"duration, name (without a `_vNNNN` suffix), return value,\n"
		"correlation id, process and thread, and the thread's priority and\n"
		"name. CUDA backtrace records are not calls and are left out\n"
		"(nsys 2024.2.3 lists them as extra rows).  Without a ThreadNames\n"
		"table (which nsys 2024.2.3 refuses) T-Pri and Thread Name are empty.",
	.args = (const char *const[]){ NULL },
	.needs = needs,
	.run = run,
	.flags = NST_REPORT_CALLS | NST_REPORT_EVENT_ROWS,
};
