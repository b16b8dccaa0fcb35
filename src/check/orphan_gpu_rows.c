/* GPU rows that no call launched: the kernel, memcpy and memset reports that
 * join calls (cuda_kern_exec_*, cuda_api_gpu_sum, nvtx_*) leave them out
 * or leave their call columns empty. */
#include "check/launches.h"

static enum nst_status want(struct nst_events *ev)
{
	enum nst_status s = chk_want_gpu(ev);
	return s ? s : chk_want_calls(ev);
}

static void note_row(struct chk_result *r, const char *table, size_t i,
		     const struct nst_col *rowid, const struct nst_col *pid, const struct nst_col *corr,
		     const struct nst_col *dev, const struct nst_col *stream, const struct nst_col *start)
{
	r->count++;
	chk_part_add(r, table, 1);
	struct chk_example *e = chk_example(r, table, chk_at(rowid, i));
	chk_num(e, "globalPid", chk_at(pid, i));
	chk_num(e, "correlationId", chk_at(corr, i));
	chk_num(e, "deviceId", chk_at(dev, i));
	chk_num(e, "streamId", chk_at(stream, i));
	chk_num(e, "start", chk_at(start, i));
}

static enum nst_status scan(struct chk_ctx *ctx, struct chk_launches *l, size_t t,
			    struct chk_result *r, struct nst_error *err)
{
	const char *table = chk_gpu_tables[t];
	size_t n;
	const struct nst_col *rowid, *pid, *corr, *dev, *stream, *start;
	enum nst_status s = chk_rows(ctx, table, &n, err);
	if (!s) s = chk_col(ctx, table, "rowid", &rowid, err);
	if (!s) s = chk_col(ctx, table, "globalPid", &pid, err);
	if (!s) s = chk_col(ctx, table, "correlationId", &corr, err);
	if (!s) s = chk_col(ctx, table, "deviceId", &dev, err);
	if (!s) s = chk_col(ctx, table, "streamId", &stream, err);
	if (!s) s = chk_col(ctx, table, "start", &start, err);
	for (size_t i = 0; s == NST_OK && corr && i < n; i++) {
		int64_t id = nst_col_at(corr, i);
		if (id == NST_NULL_I64 || id == 0 || chk_row_has_call(l, t, i))
			continue;
		note_row(r, table, i, rowid, pid, corr, dev, stream, start);
	}
	return s;
}

static enum nst_status run(struct chk_ctx *ctx, struct chk_result *r,
			   struct nst_error *err)
{
	if (!nst_db_has_table(ctx->db, CHK_RUNTIME)) {
		r->count = CHK_NOT_CHECKED;
		r->note = "no " CHK_RUNTIME " table: no call to pair GPU rows with";
		return NST_OK;
	}
	struct chk_launches *l = NULL;
	enum nst_status s = chk_launches_of(ctx, &l, err);
	for (size_t t = 0; s == NST_OK && t < 3; t++)
		s = scan(ctx, l, t, r, err);
	if (s == NST_OK && !l->per_process)
		r->note = "paired by correlationId alone: a GPU table has no globalPid column";
	return s;
}

const struct chk_finding chk_orphan_gpu_rows = {
	.name = "orphan_gpu_rows",
	.title = "GPU rows (kernel, memcpy, memset) without a launching call",
	.help = "Kernel, memcpy and memset rows whose (process, correlationId) no runtime\n"
		"row has (backtrace records are not calls; the process is globalPid, or\n"
		"correlationId alone when a GPU table lacks it).  correlationId 0 is\n"
		"work no call made (unified-memory migrations) and is not counted.",
	.affects = "cuda_kern_exec_sum,cuda_kern_exec_trace,cuda_api_gpu_sum,nvtx_kern_sum,"
		   "nvtx_gpu_proj_sum,nvtx_gpu_proj_trace,cuda_gpu_kern_sum:nvtx-name",
	.want = want,
	.run = run,
};
