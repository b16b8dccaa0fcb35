/* correlationIds that calls of two or more processes use.  CUPTI numbers
 * calls per process, so in a capture of several processes the same id
 * comes back; a join on correlationId alone (as some scripts do) then
 * pairs a GPU row with another process's call.  nstats joins on (process,
 * correlationId). */
#include <stdlib.h>

#include "check/launches.h"

struct use {
	int64_t corr, proc;
	uint32_t row;
};

static int by_corr_proc(const void *a, const void *b)
{
	const struct use *x = a, *y = b;
	if (x->corr != y->corr) return x->corr < y->corr ? -1 : 1;
	if (x->proc != y->proc) return x->proc < y->proc ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

static enum nst_status collect(struct chk_ctx *ctx, struct use **out, size_t *n,
			       struct nst_error *err)
{
	size_t rows;
	const int64_t *cls, *chain, *gtid, *corr;
	enum nst_status s = chk_rows(ctx, CHK_RUNTIME, &rows, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "eventClass", &cls, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "callchainId", &chain, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "globalTid", &gtid, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "correlationId", &corr, err);
	*n = 0;
	*out = NULL;
	if (s || !corr || !gtid)
		return s;
	if (!(*out = malloc((rows ? rows : 1) * sizeof **out)))
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < rows; i++)
		if (!chk_is_backtrace(cls, chain, i) && corr[i] != NST_NULL_I64 && corr[i] != 0 &&
		    gtid[i] != NST_NULL_I64)
			(*out)[(*n)++] = (struct use){ corr[i], chk_gpid(gtid[i]), (uint32_t)i };
	return NST_OK;
}

static void note_id(struct chk_ctx *ctx, struct chk_result *r, const struct use *u,
		    size_t n, int64_t procs)
{
	const int64_t *rowid = NULL;
	struct nst_error ignored;
	chk_col(ctx, CHK_RUNTIME, "rowid", &rowid, &ignored);
	r->count++;
	struct chk_example *e = chk_example(r, CHK_RUNTIME, chk_at(rowid, u[0].row));
	chk_num(e, "correlationId", u[0].corr);
	chk_num(e, "processes", procs);
	chk_num(e, "calls", (int64_t)n);
	chk_num(e, "first globalPid", u[0].proc);
	for (size_t i = 1; i < n; i++)
		if (u[i].proc != u[0].proc) {
			chk_num(e, "other globalPid", u[i].proc);
			break;
		}
}

static void count_ids(struct chk_ctx *ctx, struct chk_result *r, const struct use *u,
		      size_t n)
{
	for (size_t g = 0; g < n;) {
		size_t end = g + 1;
		int64_t procs = 1;
		for (; end < n && u[end].corr == u[g].corr; end++)
			procs += u[end].proc != u[end - 1].proc;
		if (procs > 1) {
			note_id(ctx, r, &u[g], end - g, procs);
			chk_part_add(r, "calls sharing those ids", (int64_t)(end - g));
		}
		g = end;
	}
}

static enum nst_status run(struct chk_ctx *ctx, struct chk_result *r,
			   struct nst_error *err)
{
	if (chk_lacks(ctx, r, CHK_RUNTIME))
		return NST_OK;
	struct use *u = NULL;
	size_t n = 0;
	enum nst_status s = collect(ctx, &u, &n, err);
	if (s == NST_OK && n > 1)
		qsort(u, n, sizeof *u, by_corr_proc);
	if (s == NST_OK)
		count_ids(ctx, r, u, n);
	if (r->count > 0)
		r->note = "nstats pairs calls and GPU rows by (process, correlationId); a join "
			  "on correlationId alone pairs these wrong";
	free(u);
	return s;
}

const struct chk_finding chk_correlation_collisions = {
	.name = "correlation_collisions",
	.title = "correlationIds used by calls of two or more processes",
	.help = "Distinct non-zero correlationIds of runtime rows (backtrace records are\n"
		"not calls) whose globalTids belong to 2 or more processes.  Harmless to\n"
		"nstats, which keys on (process, correlationId); wrong in any tool that\n"
		"joins on correlationId alone.",
	.affects = "joins on correlationId alone (outside nstats)",
	.informational = true,
	.want = chk_want_calls,
	.run = run,
};
