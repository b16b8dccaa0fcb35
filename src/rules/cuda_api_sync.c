/* cuda_api_sync: the calls that block the host until the GPU is done
 * (cudaDeviceSynchronize, cudaStreamSynchronize), longest first.  CUDA
 * backtrace records are not calls (nsys 2024.2.3 lists each call twice). */
#include <stdlib.h>

#include "core/big.h"
#include "rules/rule.h"

static const char *const cols[] = {
	"Duration:dur_ns", "Start:ts_ns", "PID", "TID", "API Name",
};
#define NCOLS (sizeof cols / sizeof *cols)

static bool is_sync(const char *name)
{
	return nst_rule_like_prefix(name, "cudaDeviceSynchronize") ||
	       nst_rule_like_prefix(name, "cudaStreamSynchronize");
}

static int64_t gtid_of(const struct nst_calls *c, uint32_t r)
{
	return nst_col_or_null(c->gtid, r);
}

/* process= and thread= keep one process's or one thread's calls. */
static bool wanted(const struct nst_ctx *ctx, int64_t gtid)
{
	int64_t pid = nst_rule_int(ctx, "process", -1);
	int64_t tid = nst_rule_int(ctx, "thread", -1);
	if (gtid == NST_NULL_I64)
		return pid < 0 && tid < 0;
	return (pid < 0 || nst_pid(gtid) == pid) && (tid < 0 || nst_tid(gtid) == tid);
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	if (!nst_db_has_table(ctx->db, RUNTIME))
		return nst_rule_no_cuda(ctx, err, "runtime");
	enum nst_status s = nst_require_strings(ctx, err);
	/* nsys refuses the pair once its NVTX filter has found the range. */
	if (!s && ctx->nvtx && (nst_ctx_value(ctx, "process") || nst_ctx_value(ctx, "thread")))
		return nst_fail(err, NST_ERR_NODATA,
				"The 'nvtx' option cannot be used with 'pid' or 'tid'.");
	const struct nst_calls *c;
	/* The time and NVTX filter applies here (nsys filters this rule's calls;
	 * only the memcpy/memset rules join the unfiltered runtime table). */
	if (!s) s = nst_calls_ids(ctx, &c, err);
	if (s != NST_OK)
		return s;
	int64_t *dur = nst_big_alloc(c->n, sizeof *dur);
	uint32_t *idx = nst_big_alloc(c->ncalls, sizeof *idx);
	if (!dur || !idx) {
		free(dur);
		free(idx);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	size_t n = 0;
	for (size_t k = 0; k < c->ncalls; k++) {
		uint32_t r = nst_call_row(c, k);
		if (!is_sync(nst_raw_name(ctx, nst_col_at(c->name_id, r))) || !wanted(ctx, gtid_of(c, r)))
			continue;
		dur[r] = c->end[r] - c->start[r];
		idx[n++] = r;
	}
	struct nst_rule_notes notes = {
		.advice = NST_RULE_SYNC_ADVICE,
		.noresult = NST_RULE_SYNC_NORESULT,
	};
	n = nst_rule_top(ctx, idx, n, dur, &notes);
	s = nst_rule_begin(out, &notes, cols, NCOLS, err);
	for (size_t k = 0; s == NST_OK && k < n; k++) {
		uint32_t r = idx[k];
		int64_t g = gtid_of(c, r);
		struct nst_cell row[NCOLS] = {
			nst_int(dur[r]), nst_int(c->start[r]),
			g == NST_NULL_I64 ? nst_null() : nst_int(nst_pid(g)),
			g == NST_NULL_I64 ? nst_null() : nst_int(nst_tid(g)),
			nst_text(nst_raw_name(ctx, nst_col_at(c->name_id, r))),
		};
		s = out->row(out->ctx, row, err);
	}
	free(dur);
	free(idx);
	return s;
}

static const char *const args[] = { "rows", "process", "thread", NULL };

static const struct nst_need needs[] = {
	NST_CALL_NEEDS,
	NST_CALL_ID_NEEDS,
	{ NULL, NULL, false },
};

const struct nst_report nst_rule_cuda_api_sync = {
	.name = "cuda_api_sync",
	.title = "CUDA Synchronization APIs",
	.help = "The calls that block the host until the CUDA work issued before them\n"
		"is complete (cudaDeviceSynchronize, cudaStreamSynchronize), longest\n"
		"first: duration, start, process, thread and API name.\n"
		"rows=N shows N of them (default 50, -1 all); process=PID and\n"
		"thread=TID keep one process or thread. CUDA backtrace records are\n"
		"not calls (nsys 2024.2.3 lists each call twice).",
	.args = args,
	.needs = needs,
	.run = run,
	.check = nst_rule_check,
};
