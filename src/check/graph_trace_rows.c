/* Graph executions traced as a whole (--cuda-graph-trace=graph): one
 * CUPTI_ACTIVITY_KIND_GRAPH_TRACE row per launch of a graph, and no kernel,
 * memcpy or memset rows for the work inside it.  Every kernel report misses
 * that GPU time. */
#include "check/launches.h"
#include "core/sqlstat.h"

static enum nst_status run(struct chk_ctx *ctx, struct chk_result *r,
			   struct nst_error *err)
{
	size_t n;
	const struct nst_col *rowid, *pid, *dev, *stream, *start, *end;
	enum nst_status s = chk_rows(ctx, CHK_GRAPH, &n, err);
	if (!s) s = chk_col(ctx, CHK_GRAPH, "rowid", &rowid, err);
	if (!s) s = chk_col(ctx, CHK_GRAPH, "globalPid", &pid, err);
	if (!s) s = chk_col(ctx, CHK_GRAPH, "deviceId", &dev, err);
	if (!s) s = chk_col(ctx, CHK_GRAPH, "streamId", &stream, err);
	if (!s) s = chk_col(ctx, CHK_GRAPH, "start", &start, err);
	if (!s) s = chk_col(ctx, CHK_GRAPH, "end", &end, err);
	int64_t total = 0;
	for (size_t i = 0; s == NST_OK && i < n; i++) {
		r->count++;
		int64_t from = chk_at(start, i), to = chk_at(end, i);
		if (from != NST_NULL_I64 && to != NST_NULL_I64 && !nst_add_i64(&total, to - from))
			return nst_fail(err, NST_ERR_DB, "%s: %s: a sum of durations does not fit 64 bits",
					nst_db_path(ctx->db), CHK_GRAPH);
		struct chk_example *e = chk_example(r, CHK_GRAPH, chk_at(rowid, i));
		chk_num(e, "globalPid", chk_at(pid, i));
		chk_num(e, "deviceId", chk_at(dev, i));
		chk_num(e, "streamId", chk_at(stream, i));
		chk_num(e, "start", chk_at(start, i));
		chk_num(e, "end", chk_at(end, i));
	}
	if (r->count > 0) {
		chk_part_add(r, CHK_GRAPH, r->count);
		r->note = nst_arena_printf(ctx->arena,
			"%lld ns of graph execution whose kernels no kernel report sees",
			(long long)total);
	}
	return s;
}

const struct chk_finding chk_graph_trace_rows = {
	.name = "graph_trace_rows",
	.title = "CUDA graph executions traced as a whole, their kernels hidden",
	.help = "Rows of CUPTI_ACTIVITY_KIND_GRAPH_TRACE (graph-level tracing writes one\n"
		"per graph launch and no rows for the kernels inside), with their total\n"
		"duration.",
	.affects = "cuda_gpu_kern_sum,cuda_gpu_kern_gb_sum,cuda_gpu_sum,cuda_gpu_trace,"
		   "cuda_kern_exec_sum,cuda_kern_exec_trace,nvtx_kern_sum,gpu_gaps,gpu_time_util",
	.want = chk_want_gpu,
	.run = run,
};
