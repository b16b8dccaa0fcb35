/* What a report asks of its context: its arguments, and the events as
 * nsys's unfiltered main.X tables show them. */
#include <string.h>

#include "reports/report.h"

struct nst_ctx nst_ctx_unfiltered(const struct nst_ctx *ctx)
{
	struct nst_ctx all = *ctx;
	if (ctx->ev_all) {
		all.ev = ctx->ev_all;
		all.shared = ctx->shared_all;
	}
	return all;
}

bool nst_args_flag(const struct nst_arg *args, size_t nargs, const char *key)
{
	for (size_t i = 0; i < nargs; i++)
		if (!args[i].value && strcmp(args[i].key, key) == 0)
			return true;
	return false;
}

bool nst_ctx_flag(const struct nst_ctx *ctx, const char *key)
{
	return nst_args_flag(ctx->args, ctx->nargs, key);
}

const char *nst_ctx_value(const struct nst_ctx *ctx, const char *key)
{
	for (size_t i = 0; i < ctx->nargs; i++)
		if (ctx->args[i].value && strcmp(ctx->args[i].key, key) == 0)
			return ctx->args[i].value;
	return NULL;
}
