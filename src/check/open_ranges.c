/* NVTX ranges that never ended (end NULL): the application did not pop or
 * end them before the capture stopped.  The NVTX reports cannot time them. */
#include <string.h>

#include "check/check.h"

#define NVTX "NVTX_EVENTS"

/* The range types of ENUM_NSYS_EVENT_TYPE: push/pop and start/end, of
 * NVTX and of NVTX over the CUDA/OpenCL-style "nvtxt" API. */
static bool is_range(int64_t type)
{
	return type == 59 || type == 60 || type == 70 || type == 71;
}

static enum nst_status want(struct nst_events *ev)
{
	static const char *const cols[] = { "rowid", "start", "end", "eventType", "globalTid",
					    "textId", "text" };
	enum nst_status s = NST_OK;
	for (size_t i = 0; s == NST_OK && i < 5; i++)
		s = nst_ev_want(ev, NVTX, cols[i], false);
	if (!s) s = nst_ev_want(ev, NVTX, cols[5], false);
	if (!s) s = nst_ev_want(ev, NVTX, cols[6], true);
	return s;
}

/* Their ENUM_NSYS_EVENT_TYPE names, fixed: older exports lack the table. */
static const char *type_name(int64_t type)
{
	switch (type) {
	case 59: return "NvtxPushPopRange";
	case 60: return "NvtxStartEndRange";
	case 70: return "NvtxtPushPopRange";
	default: return "NvtxtStartEndRange";
	}
}

static enum nst_status run(struct chk_ctx *ctx, struct chk_result *r,
			   struct nst_error *err)
{
	if (chk_lacks(ctx, r, NVTX))
		return NST_OK;
	size_t n;
	const struct nst_col *rowid, *start, *end, *type, *gtid, *text_id;
	const char *const *text;
	enum nst_status s = chk_rows(ctx, NVTX, &n, err);
	if (!s) s = chk_col(ctx, NVTX, "rowid", &rowid, err);
	if (!s) s = chk_col(ctx, NVTX, "start", &start, err);
	if (!s) s = chk_col(ctx, NVTX, "end", &end, err);
	if (!s) s = chk_col(ctx, NVTX, "eventType", &type, err);
	if (!s) s = chk_col(ctx, NVTX, "globalTid", &gtid, err);
	if (!s) s = chk_col(ctx, NVTX, "textId", &text_id, err);
	if (!s) s = nst_ev_text(ctx->ev, NVTX, "text", &text, err);
	if (s == NST_OK && (!type || !end)) {
		r->count = CHK_NOT_CHECKED;
		r->note = NVTX " has no eventType or end column";
		return NST_OK;
	}
	for (size_t i = 0; s == NST_OK && i < n; i++) {
		int64_t kind = nst_col_at(type, i);
		if (!is_range(kind) || nst_col_at(end, i) != NST_NULL_I64)
			continue;
		r->count++;
		chk_part_add(r, type_name(kind), 1);
		struct chk_example *e = chk_example(r, NVTX, chk_at(rowid, i));
		chk_num(e, "globalTid", chk_at(gtid, i));
		chk_num(e, "start", chk_at(start, i));
		chk_num(e, "eventType", kind);
		if (e) /* the events' text dies with them, before the report prints */
			chk_text(e, "name", text && text[i] ? nst_arena_strndup(ctx->arena, text[i],
				 strlen(text[i])) : chk_string(ctx, chk_at(text_id, i)));
	}
	return s;
}

const struct chk_finding chk_open_ranges = {
	.name = "open_ranges",
	.title = "NVTX ranges left open (no end)",
	.help = "NVTX_EVENTS rows of a range type (eventType 59 push/pop, 60 start/end,\n"
		"70 and 71 their nvtxt twins) whose end is NULL, broken down by type.",
	.affects = "nvtx_sum,nvtx_pushpop_sum,nvtx_pushpop_trace,nvtx_startend_sum,"
		   "nvtx_kern_sum,nvtx_gpu_proj_sum,nvtx_gpu_proj_trace",
	.want = want,
	.run = run,
};
