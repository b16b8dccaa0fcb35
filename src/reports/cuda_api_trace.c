/* cuda_api_trace: every CUDA runtime and driver API call, by start time,
 * with the name and priority of its thread.  CUDA backtrace records are
 * not calls and are left out (nsys 2024.2.3 lists them as extra rows). */
#include <stdlib.h>

#include "core/hashmap.h"
#include "reports/common.h"

#define THREADS "ThreadNames"

/* ThreadNames rows by globalTid: nsys LEFT JOINs the table, so a thread
 * named twice gives each of its calls twice, in ThreadNames order. */
struct thread_names {
	size_t n;
	const int64_t *gtid, *name_id, *priority;
	struct nst_map first; /* (globalTid, 0) -> first row */
	uint32_t *next;       /* next row of the same thread, or UINT32_MAX */
};

static enum nst_status load_thread_names(struct nst_ctx *ctx, struct thread_names *t,
					 struct nst_error *err)
{
	enum nst_status s = nst_ev_rows(ctx->ev, THREADS, &t->n, err);
	if (!s) s = nst_ev_i64(ctx->ev, THREADS, "globalTid", &t->gtid, err);
	if (!s) s = nst_ev_i64(ctx->ev, THREADS, "nameId", &t->name_id, err);
	if (!s) s = nst_ev_i64(ctx->ev, THREADS, "priority", &t->priority, err);
	if (s != NST_OK)
		return s;
	t->next = malloc((t->n ? t->n : 1) * sizeof *t->next);
	uint32_t *last = malloc((t->n ? t->n : 1) * sizeof *last);
	if (!t->next || !last || nst_map_init(&t->first, t->n) != 0) {
		free(last);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory reading %s", THREADS);
	}
	for (size_t i = 0; t->gtid && i < t->n; i++) {
		t->next[i] = UINT32_MAX;
		if (t->gtid[i] == NST_NULL_I64)
			continue;
		uint32_t head;
		bool fresh;
		if (nst_map_get_or_put(&t->first, t->gtid[i], 0, (uint32_t)i, &head, &fresh)) {
			free(last);
			return nst_fail(err, NST_ERR_NOMEM, "out of memory reading %s", THREADS);
		}
		if (!fresh)
			t->next[last[head]] = (uint32_t)i;
		last[head] = (uint32_t)i;
	}
	free(last);
	return NST_OK;
}

static void release_thread_names(struct thread_names *t)
{
	nst_map_release(&t->first);
	free(t->next);
}

static int64_t first_name_row(const struct thread_names *t, int64_t gtid)
{
	uint32_t row;
	if (gtid == NST_NULL_I64 || !t->gtid || !nst_map_get(&t->first, gtid, 0, &row))
		return -1;
	return row;
}

static int64_t or_null(const int64_t *col, size_t row)
{
	return col ? col[row] : NST_NULL_I64;
}

/* One output row: the call, and the thread name row `tn` (-1: none). */
static int emit_call(struct nst_ctx *ctx, const struct nst_sink *out,
		     const struct nst_calls *c, const struct thread_names *t,
		     uint32_t r, int64_t tn)
{
	int64_t gtid = or_null(c->gtid, r);
	struct nst_cell cells[9] = {
		nst_int(c->start[r]),
		nst_int(c->end[r] - c->start[r]),
		nst_text(nst_api_name(ctx, c->name_id[r])),
		nst_int_or_null(or_null(c->ret, r)),
		nst_int_or_null(or_null(c->corr, r)),
		gtid == NST_NULL_I64 ? nst_null() : nst_int(nst_pid(gtid)),
		gtid == NST_NULL_I64 ? nst_null() : nst_int(nst_tid(gtid)),
		tn < 0 ? nst_null() : nst_int_or_null(or_null(t->priority, (size_t)tn)),
		tn < 0 || !t->name_id ? nst_null()
				      : nst_text(nst_db_string(ctx->db, t->name_id[tn])),
	};
	return out->row(out->ctx, cells);
}

static enum nst_status emit(struct nst_ctx *ctx, const struct nst_sink *out,
			    const struct nst_calls *c, const struct thread_names *t,
			    const uint32_t *order, struct nst_error *err)
{
	static const char *const cols[] = {
		"Start:ts_ns", "Duration:dur_ns", "Name", "Result", "CorrID",
		"Pid", "Tid", "T-Pri", "Thread Name",
	};
	if (out->begin(out->ctx, cols, 9))
		return nst_fail(err, NST_ERR_IO, "cannot write the report");
	for (size_t k = 0; k < c->ncalls; k++) {
		uint32_t r = order[k];
		int64_t tn = first_name_row(t, or_null(c->gtid, r));
		int bad = 0;
		if (tn < 0)
			bad = emit_call(ctx, out, c, t, r, -1);
		for (; tn >= 0 && !bad; tn = t->next[tn] == UINT32_MAX ? -1 : (int64_t)t->next[tn])
			bad = emit_call(ctx, out, c, t, r, tn);
		if (bad)
			return nst_fail(err, NST_ERR_IO, "cannot write the report");
	}
	return NST_OK;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	enum nst_status strings = nst_require_strings(ctx, err);
	if (strings != NST_OK)
		return strings;
	if (!nst_db_has_table(ctx->db, THREADS))
		return nst_no_table(ctx, err, THREADS);
	if (!nst_db_has_table(ctx->db, RUNTIME))
		return nst_nodata(ctx, err, "CUDA trace data.");
	const struct nst_calls *c;
	enum nst_status s = nst_calls_ids(ctx, &c, err);
	if (s != NST_OK)
		return s;
	struct thread_names t = { 0 };
	uint32_t *order = malloc((c->ncalls ? c->ncalls : 1) * sizeof *order);
	if (!order)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t k = 0; k < c->ncalls; k++)
		order[k] = c->rows[k];
	s = nst_sort_by_key(order, c->ncalls, c->start, err);
	if (s == NST_OK)
		s = load_thread_names(ctx, &t, err);
	if (s == NST_OK)
		s = emit(ctx, out, c, &t, order, err);
	release_thread_names(&t);
	free(order);
	return s;
}

static const struct nst_need needs[] = {
	NST_CALL_NEEDS,
	NST_CALL_ID_NEEDS,
	{ THREADS, "globalTid", false }, { THREADS, "nameId", false },
	{ THREADS, "priority", false },
	{ NULL, NULL, false },
};

const struct nst_report nst_report_cuda_api_trace = {
	.name = "cuda_api_trace",
	.title = "CUDA API Trace",
	.help = "Every CUDA runtime and driver API call in start order: its start,\n"
		"duration, name (without a `_vNNNN` suffix), return value,\n"
		"correlation id, process and thread, and the thread's priority and\n"
		"name. CUDA backtrace records are not calls and are left out\n"
		"(nsys 2024.2.3 lists them as extra rows).",
	.args = (const char *const[]){ NULL },
	.needs = needs,
	.run = run,
};
