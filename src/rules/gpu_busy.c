/* GPU operations by process and device, for the utilization rules. */
#include <stdlib.h>
#include <string.h>

#include "rules/gpu_busy.h"

static const char *const sources[] = { KERNEL, MEMCPY, MEMSET };
#define NSOURCES (sizeof sources / sizeof *sources)

struct source {
	size_t n;
	const int64_t *start, *end, *gpid, *device, *context;
};

static enum nst_status read_source(struct nst_ctx *ctx, const char *table, struct source *t,
				   struct nst_error *err)
{
	memset(t, 0, sizeof *t);
	struct nst_events *ev = ctx->ev;
	enum nst_status s = nst_ev_rows(ev, table, &t->n, err);
	if (!s) s = nst_ev_i64(ev, table, "start", &t->start, err);
	if (!s) s = nst_ev_i64(ev, table, "end", &t->end, err);
	if (!s) s = nst_ev_i64(ev, table, "globalPid", &t->gpid, err);
	if (!s) s = nst_ev_i64(ev, table, "deviceId", &t->device, err);
	if (!s) s = nst_ev_i64(ev, table, "contextId", &t->context, err);
	if (!s && t->n && (!t->start || !t->end))
		s = nst_fail(err, NST_ERR_DB, "%s: %s lacks start or end", nst_db_path(ctx->db), table);
	return s;
}

/* A table without globalPid (trimmed exports) belongs to the one process
 * that makes CUDA calls; with several there is no telling. */
static enum nst_status lone_process(struct nst_ctx *ctx, const char *table, int64_t *gpid,
				    struct nst_error *err)
{
	size_t n = 0;
	const int64_t *gtid = NULL;
	/* nsys asks main.CUPTI_ACTIVITY_KIND_RUNTIME: all the calls, whatever
	 * the filter. */
	struct nst_ctx all = nst_ctx_unfiltered(ctx);
	enum nst_status s = nst_ev_rows(all.ev, RUNTIME, &n, err);
	if (!s) s = nst_ev_i64(all.ev, RUNTIME, "globalTid", &gtid, err);
	if (s != NST_OK)
		return s;
	*gpid = NST_NULL_I64;
	for (size_t i = 0; gtid && i < n; i++) {
		if (gtid[i] == NST_NULL_I64)
			continue;
		if (*gpid != NST_NULL_I64 && *gpid != nst_gpid(gtid[i])) {
			*gpid = NST_NULL_I64;
			break;
		}
		*gpid = nst_gpid(gtid[i]);
	}
	if (*gpid != NST_NULL_I64)
		return NST_OK;
	return nst_fail(err, NST_ERR_NODATA, "%s does not contain 'globalPid' column in %s.",
			nst_db_path(ctx->db), table);
}

static int64_t at(const int64_t *col, size_t row, int64_t dflt)
{
	return col ? col[row] : dflt;
}

static enum nst_status gather(struct nst_ctx *ctx, struct nst_busy *b, struct source *t,
			      struct nst_error *err)
{
	size_t total = 0;
	for (size_t k = 0; k < NSOURCES; k++)
		total += t[k].n;
	size_t cap = total ? total : 1;
	b->start = malloc(cap * sizeof *b->start);
	b->end = malloc(cap * sizeof *b->end);
	b->pid = malloc(cap * sizeof *b->pid);
	b->device = malloc(cap * sizeof *b->device);
	b->context = malloc(cap * sizeof *b->context);
	if (!b->start || !b->end || !b->pid || !b->device || !b->context)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t k = 0; k < NSOURCES; k++) {
		int64_t lone = NST_NULL_I64;
		if (t[k].n && !t[k].gpid) {
			enum nst_status s = lone_process(ctx, sources[k], &lone, err);
			if (s != NST_OK)
				return s;
		}
		for (size_t i = 0; i < t[k].n; i++, b->n++) {
			int64_t g = at(t[k].gpid, i, lone);
			b->start[b->n] = t[k].start[i];
			b->end[b->n] = t[k].end[i];
			b->pid[b->n] = g == NST_NULL_I64 ? g : nst_pid(g);
			b->device[b->n] = at(t[k].device, i, NST_NULL_I64);
			b->context[b->n] = at(t[k].context, i, NST_NULL_I64);
		}
	}
	return NST_OK;
}

static int earlier(uint32_t a, uint32_t b, void *arg)
{
	const int64_t *start = arg;
	return (start[a] > start[b]) - (start[a] < start[b]);
}

enum nst_status nst_busy_load(struct nst_ctx *ctx, struct nst_busy *b, struct nst_error *err)
{
	memset(b, 0, sizeof *b);
	bool any = false;
	for (size_t k = 0; k < NSOURCES; k++)
		any = any || nst_db_has_table(ctx->db, sources[k]);
	if (!any)
		return nst_fail(err, NST_ERR_NODATA,
				"%s could not be analyzed because it does not contain the required "
				"data. Does the application launch GPU operations?",
				nst_db_path(ctx->db));
	struct source t[NSOURCES];
	enum nst_status s = NST_OK;
	for (size_t k = 0; !s && k < NSOURCES; k++)
		s = read_source(ctx, sources[k], &t[k], err);
	if (!s) s = gather(ctx, b, t, err);
	uint32_t *rows = s ? NULL : malloc((b->n ? b->n : 1) * sizeof *rows);
	if (!s && !rows)
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (s != NST_OK)
		return s;
	for (size_t i = 0; i < b->n; i++)
		rows[i] = (uint32_t)i;
	const int64_t *keys[2] = { b->pid, b->device };
	s = nst_group(keys, 2, rows, b->n, &b->g, err);
	free(rows);
	for (size_t k = 0; !s && k < b->g.n; k++)
		nst_stable_sort(b->g.order + b->g.start[k], b->g.start[k + 1] - b->g.start[k],
				earlier, b->start);
	return s;
}

void nst_busy_release(struct nst_busy *b)
{
	free(b->start);
	free(b->end);
	free(b->pid);
	free(b->device);
	free(b->context);
	nst_groups_release(&b->g);
}
