/* Calls that imply GPU work with no GPU row of theirs: work the capture
 * lost (buffers not flushed at the end, a session stopped early) or a call
 * that did nothing (a zero-byte copy). */
#include <string.h>

#include "check/launches.h"

/* The calls that put work on a GPU, by the start of their names (runtime
 * and driver, every version suffix): kernel launches, copies, sets and
 * graph launches.  cudaLaunchHostFunc runs on the CPU and is not one. */
static const char *const launch_prefixes[] = {
	"cudaLaunchKernel", "cudaLaunchCooperativeKernel", "cuLaunchKernel",
	"cuLaunchCooperativeKernel", "cudaMemcpy", "cudaMemset", "cuMemcpy",
	"cuMemset", "cudaGraphLaunch", "cuGraphLaunch",
};

static bool is_launch(const char *name)
{
	for (size_t i = 0; i < sizeof launch_prefixes / sizeof *launch_prefixes; i++)
		if (strncmp(name, launch_prefixes[i], strlen(launch_prefixes[i])) == 0)
			return true;
	return false;
}

static enum nst_status want(struct nst_events *ev)
{
	enum nst_status s = chk_want_gpu(ev);
	return s ? s : chk_want_calls(ev);
}

struct call_cols {
	size_t n;
	const struct nst_col *rowid, *cls, *chain, *gtid, *corr, *name;
};

static enum nst_status read_calls(struct chk_ctx *ctx, struct call_cols *c,
				  struct nst_error *err)
{
	enum nst_status s = chk_rows(ctx, CHK_RUNTIME, &c->n, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "rowid", &c->rowid, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "eventClass", &c->cls, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "callchainId", &c->chain, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "globalTid", &c->gtid, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "correlationId", &c->corr, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "nameId", &c->name, err);
	return s;
}

/* Calls alternate among a few names (launches, copies, syncs): each name
 * is looked up, and its prefixes compared, once per slot it takes here. */
#define NAME_SLOTS 64

struct names {
	bool used[NAME_SLOTS], launch[NAME_SLOTS];
	int64_t id[NAME_SLOTS];
	const char *name[NAME_SLOTS];
};

static size_t name_slot(struct chk_ctx *ctx, struct names *t, int64_t id)
{
	size_t k = (size_t)((uint64_t)id % NAME_SLOTS);
	if (!t->used[k] || t->id[k] != id) {
		t->used[k] = true;
		t->id[k] = id;
		t->name[k] = chk_string(ctx, id);
		t->launch[k] = is_launch(t->name[k]);
	}
	return k;
}

static void scan(struct chk_ctx *ctx, struct chk_launches *l,
		 const struct call_cols *c, struct chk_result *r)
{
	struct names t = { .used = { false } };
	for (size_t i = 0; c->corr && i < c->n; i++) {
		int64_t corr = nst_col_at(c->corr, i);
		if (chk_is_backtrace(c->cls, c->chain, i) || corr == NST_NULL_I64 || corr == 0)
			continue;
		size_t k = name_slot(ctx, &t, chk_at(c->name, i));
		if (!t.launch[k] || chk_call_has_gpu(l, i))
			continue;
		r->count++;
		chk_part_add(r, t.name[k], 1);
		struct chk_example *e = chk_example(r, CHK_RUNTIME, chk_at(c->rowid, i));
		chk_num(e, "globalTid", chk_at(c->gtid, i));
		chk_num(e, "correlationId", corr);
		chk_text(e, "name", t.name[k]);
	}
}

static bool has_gpu_table(struct nst_db *db)
{
	return nst_db_has_table(db, CHK_KERNEL) || nst_db_has_table(db, CHK_MEMCPY) ||
	       nst_db_has_table(db, CHK_MEMSET) || nst_db_has_table(db, CHK_GRAPH);
}

static enum nst_status run(struct chk_ctx *ctx, struct chk_result *r,
			   struct nst_error *err)
{
	if (chk_lacks(ctx, r, CHK_RUNTIME))
		return NST_OK;
	struct call_cols c;
	struct chk_launches *l = NULL;
	enum nst_status s = read_calls(ctx, &c, err);
	if (s == NST_OK)
		s = chk_launches_of(ctx, &l, err);
	if (s != NST_OK)
		return s;
	scan(ctx, l, &c, r);
	if (r->count > 0 && !has_gpu_table(ctx->db))
		r->note = "the export has no kernel, memcpy, memset or graph table: GPU activity "
			  "was not captured";
	else if (!l->per_process)
		r->note = "paired by correlationId alone: a GPU table has no globalPid column";
	return NST_OK;
}

const struct chk_finding chk_launches_without_gpu = {
	.name = "launches_without_gpu",
	.title = "calls that launch GPU work without a GPU row",
	.help = "Runtime rows (not backtrace records, correlationId not 0) whose name\n"
		"starts with cudaLaunchKernel, cudaLaunchCooperativeKernel, cuLaunchKernel,\n"
		"cuLaunchCooperativeKernel, cudaMemcpy, cudaMemset, cuMemcpy, cuMemset,\n"
		"cudaGraphLaunch or cuGraphLaunch, with no kernel, memcpy, memset or graph\n"
		"row of the same (process, correlationId).  Broken down by call name.",
	.affects = "cuda_api_gpu_sum,cuda_kern_exec_sum,cuda_kern_exec_trace,"
		   "cuda_gpu_kern_sum,cuda_gpu_mem_time_sum,cuda_gpu_sum",
	.want = want,
	.run = run,
};
