#include "check/launches.h"

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
	enum nst_status s = want_all(ev, CHK_GRAPH, gpu_cols, 7);
	for (size_t t = 0; s == NST_OK && t < 3; t++)
		s = want_all(ev, chk_gpu_tables[t], gpu_cols, 7);
	return s;
}

enum nst_status chk_want_calls(struct nst_events *ev)
{
	return want_all(ev, CHK_RUNTIME, call_cols, 6);
}

int64_t chk_launch_proc(const struct chk_launches *l, int64_t process)
{
	return l->per_process ? chk_gpid(process) : 0;
}

/* Every GPU table there is must carry globalPid for a per-process key. */
static bool gpu_tables_have_pid(struct nst_db *db)
{
	static const char *const all[] = { CHK_KERNEL, CHK_MEMCPY, CHK_MEMSET, CHK_GRAPH };
	for (size_t t = 0; t < 4; t++)
		if (nst_db_has_table(db, all[t]) && !nst_db_has_column(db, all[t], "globalPid"))
			return false;
	return true;
}

static enum nst_status put(struct nst_map *m, int64_t proc, int64_t corr, uint32_t row)
{
	uint32_t old;
	bool inserted;
	if (corr == NST_NULL_I64 || corr == 0)
		return NST_OK;
	return nst_map_get_or_put(m, proc, corr, row, &old, &inserted) ? NST_ERR_NOMEM : NST_OK;
}

static enum nst_status index_calls(struct chk_ctx *ctx, struct chk_launches *l,
				   struct nst_error *err)
{
	size_t n;
	const int64_t *cls, *chain, *gtid, *corr;
	enum nst_status s = chk_rows(ctx, CHK_RUNTIME, &n, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "eventClass", &cls, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "callchainId", &chain, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "globalTid", &gtid, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "correlationId", &corr, err);
	for (size_t i = 0; s == NST_OK && corr && i < n; i++)
		if (!chk_is_backtrace(cls, chain, i))
			s = put(&l->calls, chk_launch_proc(l, chk_at(gtid, i)), corr[i], (uint32_t)i);
	return s == NST_ERR_NOMEM ? nst_fail(err, s, "out of memory") : s;
}

static enum nst_status index_gpu_table(struct chk_ctx *ctx, struct chk_launches *l,
				       const char *table, struct nst_error *err)
{
	size_t n;
	const int64_t *pid, *corr;
	enum nst_status s = chk_rows(ctx, table, &n, err);
	if (!s) s = chk_col(ctx, table, "globalPid", &pid, err);
	if (!s) s = chk_col(ctx, table, "correlationId", &corr, err);
	for (size_t i = 0; s == NST_OK && corr && i < n; i++)
		s = put(&l->gpu, chk_launch_proc(l, chk_at(pid, i)), corr[i], (uint32_t)i);
	return s == NST_ERR_NOMEM ? nst_fail(err, s, "out of memory") : s;
}

enum nst_status chk_launches_build(struct chk_ctx *ctx, struct chk_launches *l,
				   struct nst_error *err)
{
	*l = (struct chk_launches){ .per_process = gpu_tables_have_pid(ctx->db) };
	if (nst_map_init(&l->gpu, 1024) || nst_map_init(&l->calls, 1024)) {
		chk_launches_release(l);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	enum nst_status s = index_calls(ctx, l, err);
	static const char *const all[] = { CHK_KERNEL, CHK_MEMCPY, CHK_MEMSET, CHK_GRAPH };
	for (size_t t = 0; s == NST_OK && t < 4; t++)
		s = index_gpu_table(ctx, l, all[t], err);
	return s;
}

void chk_launches_release(struct chk_launches *l)
{
	nst_map_release(&l->calls);
	nst_map_release(&l->gpu);
}
