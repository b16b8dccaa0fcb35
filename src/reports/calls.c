/* The runtime calls, their (process, correlationId) index, and the chain
 * of calls that share a launch key. */
#include "reports/calls.h"

#include <stdlib.h>
#include <string.h>

#include "core/big.h"
#include "reports/shared.h"

/* ---- runtime rows ---------------------------------------------------------- */

/* Each part is filled under the shared lock (shared.h); the getters of
 * calls.h take it around the *_locked functions below. */
static enum nst_status calls_get_locked(struct nst_ctx *ctx, const struct nst_calls **out,
					struct nst_error *err);

static enum nst_status load_calls(struct nst_ctx *ctx, struct nst_error *err)
{
	struct nst_calls *c = &ctx->shared->calls;
	const struct nst_col *cls, *chain;
	enum nst_status s = nst_ev_rows(ctx->ev, RUNTIME, &c->n, err);
	if (!s) s = nst_ev_col(ctx->ev, RUNTIME, "nameId", &c->name_id, err);
	if (!s) s = nst_ev_col(ctx->ev, RUNTIME, NST_BACKTRACE_CLASS, &cls, err);
	if (!s) s = nst_ev_col(ctx->ev, RUNTIME, "callchainId", &chain, err);
	if (s != NST_OK)
		return s;
	if (!c->name_id)
		return nst_fail(err, NST_ERR_DB, "%s: %s lacks nameId", nst_db_path(ctx->db),
				RUNTIME);
	size_t i = 0;
	while (i < c->n && !nst_is_backtrace(cls, chain, i))
		i++;
	c->ncalls = i;
	if (i == c->n)
		return NST_OK; /* every row a call: rows stays NULL */
	c->rows = nst_big_alloc(c->n, sizeof *c->rows);
	if (!c->rows)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory reading %s", RUNTIME);
	for (size_t k = 0; k < i; k++)
		c->rows[k] = (uint32_t)k;
	for (; i < c->n; i++)
		if (!nst_is_backtrace(cls, chain, i))
			c->rows[c->ncalls++] = (uint32_t)i;
	return NST_OK;
}

static enum nst_status calls_ids_locked(struct nst_ctx *ctx, const struct nst_calls **out,
			      struct nst_error *err)
{
	struct nst_calls *c = &ctx->shared->calls;
	enum nst_status s = calls_get_locked(ctx, out, err);
	if (s != NST_OK || ctx->shared->ids_loaded)
		return s;
	if (!s) s = nst_ev_col(ctx->ev, RUNTIME, "globalTid", &c->gtid, err);
	if (!s) s = nst_ev_col(ctx->ev, RUNTIME, "correlationId", &c->corr, err);
	ctx->shared->ids_loaded = s == NST_OK;
	return s;
}

static enum nst_status calls_results_locked(struct nst_ctx *ctx, const struct nst_calls **out,
				  struct nst_error *err)
{
	struct nst_calls *c = &ctx->shared->calls;
	enum nst_status s = calls_ids_locked(ctx, out, err);
	if (s == NST_OK && !c->ret)
		s = nst_ev_col(ctx->ev, RUNTIME, "returnValue", &c->ret, err);
	return s;
}

int nst_calls_index_rows(const struct nst_calls *c, const uint32_t *rows, size_t n,
			 struct nst_corrindex *x)
{
	return nst_corrindex_build(x, c->gtid, NST_PROCESS_BITS, c->corr, rows, n);
}

static enum nst_status calls_index_locked(struct nst_ctx *ctx, struct nst_error *err)
{
	struct nst_shared *sh = ctx->shared;
	const struct nst_calls *c;
	enum nst_status s = calls_ids_locked(ctx, &c, err);
	if (s != NST_OK || sh->index_built || !c->gtid || !c->corr)
		return s;
	if (nst_calls_index_rows(c, c->rows, c->ncalls, &sh->call_index) != 0)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory indexing %s", RUNTIME);
	sh->index_built = true;
	return NST_OK;
}

static enum nst_status calls_rows_locked(struct nst_ctx *ctx, const struct nst_calls **out,
					 struct nst_error *err)
{
	struct nst_shared *sh = ctx->shared;
	if (!sh->calls_loaded) {
		enum nst_status s = load_calls(ctx, err);
		if (s != NST_OK)
			return s;
		sh->calls_loaded = true;
	}
	*out = &sh->calls;
	return NST_OK;
}

static enum nst_status calls_get_locked(struct nst_ctx *ctx, const struct nst_calls **out,
					struct nst_error *err)
{
	struct nst_calls *c = &ctx->shared->calls;
	enum nst_status s = calls_rows_locked(ctx, out, err);
	if (s != NST_OK || c->start)
		return s;
	if (!s) s = nst_ev_i64(ctx->ev, RUNTIME, "start", &c->start, err);
	if (!s) s = nst_ev_i64(ctx->ev, RUNTIME, "end", &c->end, err);
	if (s == NST_OK && (!c->start || !c->end))
		s = nst_fail(err, NST_ERR_DB, "%s: %s lacks start or end", nst_db_path(ctx->db),
			     RUNTIME);
	if (s != NST_OK)
		c->start = c->end = NULL;
	return s;
}

void nst_shared_adopt_call_index(struct nst_shared *sh, struct nst_corrindex *x)
{
	pthread_mutex_lock(&sh->lock);
	if (!sh->index_built) {
		sh->call_index = *x;
		memset(x, 0, sizeof *x);
		sh->index_built = true;
	}
	pthread_mutex_unlock(&sh->lock);
}

int64_t nst_calls_find(struct nst_ctx *ctx, int64_t gpid, int64_t corr)
{
	if (gpid == NST_NULL_I64 || corr == NST_NULL_I64)
		return -1;
	return nst_corrindex_find(&ctx->shared->call_index, gpid, corr);
}

/* ---- runtime rows sharing a launch key -------------------------------------- */

static enum nst_status calls_chain_locked(struct nst_ctx *ctx, const uint32_t **next,
				struct nst_error *err)
{
	const struct nst_calls *c;
	enum nst_status s = calls_get_locked(ctx, &c, err);
	if (s == NST_OK)
		s = calls_index_locked(ctx, err);
	if (s == NST_OK && !ctx->shared->chain_built) {
		if (nst_corrindex_chain(&ctx->shared->call_index, c->n, &ctx->shared->call_next))
			s = nst_fail(err, NST_ERR_NOMEM, "out of memory indexing %s", RUNTIME);
		ctx->shared->chain_built = s == NST_OK;
	}
	*next = ctx->shared->call_next;
	return s;
}

/* ---- the getters, under the shared lock ------------------------------------- */

typedef enum nst_status (*calls_fn)(struct nst_ctx *ctx, const struct nst_calls **out,
				    struct nst_error *err);

static enum nst_status under_lock(calls_fn fn, struct nst_ctx *ctx, const struct nst_calls **out,
				  struct nst_error *err)
{
	pthread_mutex_lock(&ctx->shared->lock);
	enum nst_status s = fn(ctx, out, err);
	pthread_mutex_unlock(&ctx->shared->lock);
	return s;
}

enum nst_status nst_calls_get(struct nst_ctx *ctx, const struct nst_calls **out,
			      struct nst_error *err)
{
	return under_lock(calls_get_locked, ctx, out, err);
}

enum nst_status nst_calls_rows(struct nst_ctx *ctx, const struct nst_calls **out,
			       struct nst_error *err)
{
	return under_lock(calls_rows_locked, ctx, out, err);
}

enum nst_status nst_calls_durations(struct nst_ctx *ctx, const struct nst_calls **out,
				    struct nst_span *dur, struct nst_error *err)
{
	enum nst_status s = nst_calls_rows(ctx, out, err);
	if (s == NST_OK)
		s = nst_ev_durations(ctx->ev, RUNTIME, dur, err);
	if (s == NST_OK && nst_span_none(dur))
		s = nst_fail(err, NST_ERR_DB, "%s: %s lacks start or end", nst_db_path(ctx->db),
			     RUNTIME);
	return s;
}

enum nst_status nst_calls_ids(struct nst_ctx *ctx, const struct nst_calls **out,
			      struct nst_error *err)
{
	return under_lock(calls_ids_locked, ctx, out, err);
}

enum nst_status nst_calls_results(struct nst_ctx *ctx, const struct nst_calls **out,
				  struct nst_error *err)
{
	return under_lock(calls_results_locked, ctx, out, err);
}

enum nst_status nst_calls_index(struct nst_ctx *ctx, struct nst_error *err)
{
	pthread_mutex_lock(&ctx->shared->lock);
	enum nst_status s = calls_index_locked(ctx, err);
	pthread_mutex_unlock(&ctx->shared->lock);
	return s;
}

enum nst_status nst_calls_chain(struct nst_ctx *ctx, const uint32_t **next,
				struct nst_error *err)
{
	pthread_mutex_lock(&ctx->shared->lock);
	enum nst_status s = calls_chain_locked(ctx, next, err);
	pthread_mutex_unlock(&ctx->shared->lock);
	return s;
}
