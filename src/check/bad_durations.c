/* Rows that end before they start, or when they start: a negative duration
 * subtracts from every sum, a zero one adds an instance with no time. */
#include "check/launches.h"

static const char *const tables[] = { CHK_KERNEL, CHK_MEMCPY, CHK_MEMSET, CHK_RUNTIME };
#define NTABLES (sizeof tables / sizeof *tables)

static enum nst_status want(struct nst_events *ev)
{
	enum nst_status s = chk_want_gpu(ev);
	if (!s) s = nst_ev_want(ev, CHK_RUNTIME, "start", false);
	if (!s) s = nst_ev_want(ev, CHK_RUNTIME, "end", false);
	return s ? s : chk_want_calls(ev);
}

static void note_row(struct chk_ctx *ctx, struct chk_result *r, const char *table, size_t i,
		     int64_t start, int64_t end)
{
	const struct nst_col *rowid = NULL;
	struct nst_error ignored;
	chk_col(ctx, table, "rowid", &rowid, &ignored);
	r->count++;
	chk_part_add(r, nst_arena_printf(ctx->arena, "%s %s", table,
					 end < start ? "negative" : "zero"), 1);
	struct chk_example *e = chk_example(r, table, chk_at(rowid, i));
	chk_num(e, "start", start);
	chk_num(e, "end", end);
	chk_num(e, "duration", end - start);
}

static enum nst_status scan(struct chk_ctx *ctx, struct chk_result *r, const char *table,
			    struct nst_error *err)
{
	size_t n;
	const struct nst_col *start, *end;
	enum nst_status s = chk_rows(ctx, table, &n, err);
	if (!s) s = chk_col(ctx, table, "start", &start, err);
	if (!s) s = chk_col(ctx, table, "end", &end, err);
	for (size_t i = 0; s == NST_OK && start && end && i < n; i++) {
		int64_t b = nst_col_at(start, i), e = nst_col_at(end, i);
		if (b != NST_NULL_I64 && e != NST_NULL_I64 && e <= b)
			note_row(ctx, r, table, i, b, e);
	}
	return s;
}

static enum nst_status run(struct chk_ctx *ctx, struct chk_result *r,
			   struct nst_error *err)
{
	if (chk_lacks_all(ctx, r, tables, NTABLES))
		return NST_OK;
	enum nst_status s = NST_OK;
	for (size_t t = 0; s == NST_OK && t < NTABLES; t++)
		s = scan(ctx, r, tables[t], err);
	return s;
}

const struct chk_finding chk_bad_durations = {
	.name = "bad_durations",
	.title = "rows whose end is not after their start",
	.help = "Kernel, memcpy, memset and runtime rows with end <= start (both set),\n"
		"broken down by table into negative (end < start) and zero (end = start).",
	.affects = "cuda_gpu_kern_sum,cuda_gpu_mem_time_sum,cuda_gpu_sum,cuda_api_sum,"
		   "cuda_kern_exec_sum,gpu_gaps,gpu_time_util",
	.want = want,
	.run = run,
};
