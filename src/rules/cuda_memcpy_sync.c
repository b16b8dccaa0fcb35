/* cuda_memcpy_sync: copies made by synchronous cudaMemcpy* calls, except
 * small host-to-device ones and copies within one device, longest first. */
#include "rules/mem_calls.h"

#define HTOD 1          /* ENUM_CUDA_MEMCPY_OPER */
#define SMALL_HTOD 64000 /* bytes: a copy this small returns at once */

static bool sync_call(const char *name)
{
	return nst_rule_like_prefix(name, "cudaMemcpy") && !nst_rule_like_infix(name, "Async");
}

/* A copy with a source device but no other destination device stays on
 * that device (nsys drops it too, also when the destination is NULL). */
static bool blocks(const struct nst_mem_ops *m, size_t i)
{
	int64_t bytes = nst_col_or_null(m->t.bytes, i);
	if (m->copy_kind && m->copy_kind[i] == HTOD && bytes != NST_NULL_I64 &&
	    bytes <= SMALL_HTOD)
		return false;
	int64_t src = m->src_dev ? m->src_dev[i] : NST_NULL_I64;
	int64_t dst = m->dst_dev ? m->dst_dev[i] : NST_NULL_I64;
	return src == NST_NULL_I64 || (dst != NST_NULL_I64 && src != dst);
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	static const struct nst_mem_rule rule = {
		.table = MEMCPY,
		.what = "memcpy",
		.call = sync_call,
		.op = blocks,
		.advice =
			"The following are synchronous memory transfers that block the host. This does\n"
			"not include host to device transfers of a memory block of 64 KB or less.\n\n"
			"Suggestion: Use cudaMemcpy*Async() APIs instead.\n",
		.noresult = "There were no problems detected related to synchronous memcpy operations.\n",
	};
	return nst_mem_rule_run(ctx, out, &rule, err);
}

static const char *const args[] = { "rows", NULL };

static const struct nst_need needs[] = {
	NST_MEMCPY_RULE_NEEDS,
	{ NULL, NULL, false },
};

const struct nst_report nst_rule_cuda_memcpy_sync = {
	.name = "cuda_memcpy_sync",
	.title = "CUDA Synchronous Memcpy",
	.help = "Copies made by synchronous cudaMemcpy* calls, which block the host,\n"
		"longest first; host-to-device copies of 64000 bytes or less and\n"
		"copies within one device are left out. Columns as cuda_memcpy_async.\n"
		"rows=N shows N of them (default 50, -1 all). A copy is matched to\n"
		"its call within its own process, never to a CUDA backtrace record.",
	.args = args,
	.needs = needs,
	.run = run,
	.check = nst_rule_check,
};
