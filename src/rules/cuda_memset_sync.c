/* cuda_memset_sync: synchronous memsets of pinned or managed memory,
 * longest first. */
#include "rules/mem_calls.h"

#define PINNED 1  /* ENUM_CUDA_MEM_KIND */
#define MANAGED 4

static bool sync_call(const char *name)
{
	return nst_rule_like_prefix(name, "cudaMemset") && !nst_rule_like_infix(name, "async");
}

static bool host_visible(const struct nst_mem_ops *m, size_t i)
{
	return m->kind[0] && (m->kind[0][i] == PINNED || m->kind[0][i] == MANAGED);
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	/* nsys prints cuda_api_sync's text here too. */
	static const struct nst_mem_rule rule = {
		.table = MEMSET,
		.what = "memset",
		.call = sync_call,
		.op = host_visible,
		.advice = NST_RULE_SYNC_ADVICE,
		.noresult = NST_RULE_SYNC_NORESULT,
	};
	return nst_mem_rule_run(ctx, out, &rule, err);
}

static const char *const args[] = { "rows", NULL };

static const struct nst_need needs[] = {
	NST_MEMSET_RULE_NEEDS,
	{ NULL, NULL, false },
};

const struct nst_report nst_rule_cuda_memset_sync = {
	.name = "cuda_memset_sync",
	.title = "CUDA Synchronous Memset",
	.help = "Memsets of pinned or managed memory made by synchronous cudaMemset*\n"
		"calls, longest first: duration, start, memory kind, bytes, process,\n"
		"device, context, green context, stream and the API name.\n"
		"rows=N shows N of them (default 50, -1 all). A memset is matched to\n"
		"its call within its own process, never to a CUDA backtrace record.",
	.args = args,
	.needs = needs,
	.run = run,
	.check = nst_rule_check,
};
