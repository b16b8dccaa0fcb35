#include <stdlib.h>
#include <string.h>

#include "check/launches.h"
#include "core/big.h"

static const char *const paired[CHK_PAIRED_TABLES] = {
	CHK_KERNEL, CHK_MEMCPY, CHK_MEMSET, CHK_GRAPH,
};
static const char *const gpu_cols[] = {
	"rowid", "start", "end", "deviceId", "streamId", "globalPid", "correlationId",
};
static const char *const call_cols[] = {
	"rowid", "eventClass", "callchainId", "globalTid", "correlationId", "nameId",
};

static enum nst_status want_all(struct nst_events *ev, const char *table,
				const char *const *cols, size_t n)
{
	enum nst_status s = NST_OK;
	for (size_t i = 0; s == NST_OK && i < n; i++)
		s = nst_ev_want(ev, table, cols[i], false);
	return s;
}

enum nst_status chk_want_gpu(struct nst_events *ev)
{
	enum nst_status s = NST_OK;
	for (size_t t = 0; s == NST_OK && t < CHK_PAIRED_TABLES; t++)
		s = want_all(ev, paired[t], gpu_cols, sizeof gpu_cols / sizeof *gpu_cols);
	return s;
}

enum nst_status chk_want_calls(struct nst_events *ev)
{
	return want_all(ev, CHK_RUNTIME, call_cols, sizeof call_cols / sizeof *call_cols);
}

/* Every GPU table there is must carry globalPid for a per-process key. */
static bool gpu_tables_have_pid(struct nst_db *db)
{
	for (size_t t = 0; t < CHK_PAIRED_TABLES; t++)
		if (nst_db_has_table(db, paired[t]) && !nst_db_has_column(db, paired[t], "globalPid"))
			return false;
	return true;
}

/* Indexes rows[0..n) by (process, id); by id alone (process 0) when the
 * pairing is not per process: the id column then stands in for the
 * process, masked to 0, so that a NULL id is still left out. */
static enum nst_status index_rows(const struct chk_launches *l, struct nst_corrindex *x,
				  const struct nst_col *process, const struct nst_col *id,
				  const uint32_t *rows, size_t n, struct nst_error *err)
{
	memset(x, 0, sizeof *x);
	if (!id || n == 0)
		return NST_OK;
	bool keyed = l->per_process && process;
	if (nst_corrindex_build(x, keyed ? process : id, keyed ? CHK_PROCESS_BITS : 0, id, rows, n))
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	return NST_OK;
}

static enum nst_status index_calls(struct chk_ctx *ctx, struct chk_launches *l,
				   struct nst_error *err)
{
	size_t n, ncalls = 0;
	const struct nst_col *cls, *chain, *gtid, *corr;
	enum nst_status s = chk_rows(ctx, CHK_RUNTIME, &n, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "eventClass", &cls, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "callchainId", &chain, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "globalTid", &gtid, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "correlationId", &corr, err);
	if (s != NST_OK)
		return s;
	uint32_t *rows = nst_big_alloc(n, sizeof *rows);
	l->has_gpu = nst_big_zalloc(n, 1);
	if (!rows || !l->has_gpu) {
		free(rows);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < n; i++)
		if (!chk_is_backtrace(cls, chain, i))
			rows[ncalls++] = (uint32_t)i;
	s = index_rows(l, &l->calls, gtid, corr, rows, ncalls, err);
	l->calls_by_process = s == NST_OK && l->per_process && gtid && corr;
	free(rows);
	return s;
}

static int64_t key_of(const struct chk_launches *l, int64_t process)
{
	return l->per_process ? chk_gpid(process) : 0;
}

/* The call a (process, correlationId) pairs with, or -1. */
static int64_t call_of(struct chk_launches *l, int64_t process, int64_t corr)
{
	if ((l->per_process && process == NST_NULL_I64) || corr == NST_NULL_I64)
		return -1;
	return nst_corrindex_find(&l->calls, key_of(l, process), corr);
}

static enum nst_status mark_gpu_table(struct chk_ctx *ctx, struct chk_launches *l,
				      size_t t, struct nst_error *err)
{
	size_t n;
	const struct nst_col *pid, *corr;
	enum nst_status s = chk_rows(ctx, paired[t], &n, err);
	if (!s) s = chk_col(ctx, paired[t], "globalPid", &pid, err);
	if (!s) s = chk_col(ctx, paired[t], "correlationId", &corr, err);
	if (s == NST_OK && !(l->has_call[t] = nst_big_zalloc(n, 1)))
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; s == NST_OK && corr && i < n; i++) {
		int64_t r = call_of(l, l->per_process ? chk_at(pid, i) : 0, nst_col_at(corr, i));
		if (r >= 0)
			l->has_gpu[r] = l->has_call[t][i] = 1;
	}
	return s;
}

static void release(struct chk_launches *l)
{
	nst_corrindex_release(&l->calls);
	free(l->has_gpu);
	for (size_t t = 0; t < CHK_PAIRED_TABLES; t++)
		free(l->has_call[t]);
	free(l);
}

enum nst_status chk_launches_of(struct chk_ctx *ctx, struct chk_launches **out,
				struct nst_error *err)
{
	if (ctx->launches) {
		*out = ctx->launches;
		return NST_OK;
	}
	struct chk_launches *l = calloc(1, sizeof *l);
	if (!l)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	l->per_process = gpu_tables_have_pid(ctx->db);
	enum nst_status s = index_calls(ctx, l, err);
	for (size_t t = 0; s == NST_OK && t < CHK_PAIRED_TABLES; t++)
		s = mark_gpu_table(ctx, l, t, err);
	/* the GPU rows marked the first call of each key: its other calls too */
	for (size_t k = 0; s == NST_OK && k < l->calls.ndups; k++)
		l->has_gpu[l->calls.dup_row[k]] = l->has_gpu[l->calls.dup_first[k]];
	if (s != NST_OK) {
		release(l);
		return s;
	}
	*out = ctx->launches = l;
	return NST_OK;
}

void chk_launches_release(struct chk_ctx *ctx)
{
	struct chk_launches *l = ctx->launches;
	if (l && l->calls_by_process && ctx->probe && ctx->probe->adopt_calls)
		ctx->probe->adopt_calls(ctx->probe->arg, &l->calls);
	if (l)
		release(l);
	ctx->launches = NULL;
}

bool chk_call_has_gpu(const struct chk_launches *l, size_t row)
{
	/* per process, calls without a globalTid column have no process to
	 * pair by: none has GPU work */
	return (!l->per_process || l->calls_by_process) && l->has_gpu[row];
}

bool chk_row_has_call(const struct chk_launches *l, size_t t, size_t i)
{
	return l->has_call[t][i];
}
