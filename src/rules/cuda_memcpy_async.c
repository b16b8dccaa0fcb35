/* cuda_memcpy_async: asynchronous copies from or to pageable memory,
 * which the driver turns into synchronous ones, longest first. */
#include "rules/mem_calls.h"

#define PAGEABLE 0 /* ENUM_CUDA_MEM_KIND */

static bool async_call(const char *name)
{
	return nst_rule_like_prefix(name, "cudaMemcpy") && nst_rule_like_infix(name + 10, "Async");
}

static bool pageable(const struct nst_mem_ops *m, size_t i)
{
	return (m->kind[0] && m->kind[0][i] == PAGEABLE) ||
	       (m->kind[1] && m->kind[1][i] == PAGEABLE);
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	static const struct nst_mem_rule rule = {
		.table = MEMCPY,
		.what = "memcpy",
		.call = async_call,
		.op = pageable,
		.advice =
			"The following APIs use PAGEABLE memory which causes asynchronous CUDA memcpy\n"
			"operations to block and be executed synchronously. This leads to low GPU\n"
			"utilization.\n\n"
			"Suggestion: If applicable, use PINNED memory instead.\n",
		.noresult =
			"There were no problems detected related to memcpy operations using pageable\n"
			"memory.\n",
	};
	return nst_mem_rule_run(ctx, out, &rule, err);
}

static const char *const args[] = { "rows", NULL };

static const struct nst_need needs[] = {
	NST_MEMCPY_RULE_NEEDS,
	{ NULL, NULL, false },
};

const struct nst_report nst_rule_cuda_memcpy_async = {
	.name = "cuda_memcpy_async",
	.title = "CUDA Async Memcpy with Pageable Memory",
	.help = "Asynchronous copies (cudaMemcpy*Async) from or to pageable memory,\n"
		"which block the host as synchronous ones do, longest first: the\n"
		"copy's duration, start, memory kinds, bytes, process, device,\n"
		"context, green context, stream and the API name.\n"
		"rows=N shows N of them (default 50, -1 all). A copy is matched to\n"
		"its call within its own process, never to a CUDA backtrace record.",
	.args = args,
	.needs = needs,
	.run = run,
	.check = nst_rule_check,
};
