/* CUDA backtrace records among the runtime rows (--cudabacktrace): a second
 * row per traced call, with the call's correlationId.  nsys counts them as
 * calls; nstats never does. */
#include "check/check.h"

static enum nst_status want(struct nst_events *ev)
{
	static const char *const cols[] = {
		"rowid", "eventClass", "callchainId", "globalTid", "correlationId", "nameId",
	};
	enum nst_status s = NST_OK;
	for (size_t i = 0; s == NST_OK && i < sizeof cols / sizeof *cols; i++)
		s = nst_ev_want(ev, CHK_RUNTIME, cols[i], false);
	return s;
}

static enum nst_status run(struct chk_ctx *ctx, struct chk_result *r,
			   struct nst_error *err)
{
	size_t n;
	const struct nst_col *rowid, *cls, *chain, *gtid, *corr, *name;
	enum nst_status s = chk_rows(ctx, CHK_RUNTIME, &n, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "rowid", &rowid, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "eventClass", &cls, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "callchainId", &chain, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "globalTid", &gtid, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "correlationId", &corr, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "nameId", &name, err);
	if (s)
		return s;
	if (chk_lacks(ctx, r, CHK_RUNTIME))
		return NST_OK;
	for (size_t i = 0; i < n; i++) {
		if (!chk_is_backtrace(cls, chain, i))
			continue;
		r->count++;
		struct chk_example *e = chk_example(r, CHK_RUNTIME, chk_at(rowid, i));
		chk_num(e, "globalTid", chk_at(gtid, i));
		chk_num(e, "correlationId", chk_at(corr, i));
		chk_num(e, "eventClass", chk_at(cls, i));
		chk_num(e, "callchainId", chk_at(chain, i));
		chk_text(e, "name", chk_string(ctx, chk_at(name, i)));
	}
	if (r->count > 0) {
		chk_part_add(r, CHK_RUNTIME, r->count);
		r->note = "excluded from every report: a backtrace record is not a call";
	}
	return NST_OK;
}

const struct chk_finding chk_backtrace_rows = {
	.name = "backtrace_rows",
	.title = "CUDA backtrace records among the runtime rows",
	.help = "CUPTI_ACTIVITY_KIND_RUNTIME rows with callchainId set or eventClass 67:\n"
		"the backtrace record that --cudabacktrace adds beside a call, with the\n"
		"call's correlationId.  nsys 2024.2.3 counts each as a second call;\n"
		"nstats excludes them from every report.",
	.affects = "cuda_api_sum,cuda_api_trace,cuda_api_gpu_sum,cuda_kern_exec_sum,"
		   "cuda_kern_exec_trace,nvtx_kern_sum,cuda_api_sync,cuda_memcpy_async,"
		   "cuda_memcpy_sync,cuda_memset_sync",
	.want = want,
	.run = run,
};
