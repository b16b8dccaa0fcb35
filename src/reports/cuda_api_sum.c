/* cuda_api_sum: time spent in each CUDA API function, over the calls in
 * CUPTI_ACTIVITY_KIND_RUNTIME (runtime and driver API; backtrace records
 * are not calls and are left out). */
#include <stdlib.h>

#include "reports/common.h"

struct by_total {
	const struct nst_dist *d;
	const int64_t *key;
};

/* Total descending; equal totals keep the order of their name ids. */
static int cmp_total(uint32_t a, uint32_t b, void *arg)
{
	const struct by_total *t = arg;
	if (t->d[a].sum != t->d[b].sum)
		return t->d[a].sum > t->d[b].sum ? -1 : 1;
	return (t->key[a] > t->key[b]) - (t->key[a] < t->key[b]);
}

static enum nst_status emit(struct nst_ctx *ctx, const struct nst_sink *out,
			    const struct nst_groups *g, const struct nst_dist *d,
			    const int64_t *name_id, struct nst_error *err)
{
	uint32_t *order = malloc((g->n ? g->n : 1) * sizeof *order);
	int64_t *key = malloc((g->n ? g->n : 1) * sizeof *key);
	struct nst_summary_row *rows = malloc((g->n ? g->n : 1) * sizeof *rows);
	enum nst_status s = NST_OK;
	if (!order || !key || !rows) {
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
		goto out;
	}
	for (size_t k = 0; k < g->n; k++) {
		order[k] = (uint32_t)k;
		key[k] = name_id[g->first[k]];
	}
	nst_stable_sort(order, g->n, cmp_total, &(struct by_total){ d, key });
	for (size_t k = 0; k < g->n; k++) {
		rows[k].d = &d[order[k]];
		rows[k].tail[0] = nst_text(nst_api_name(ctx, key[order[k]]));
	}
	static const char *const tail[] = { "Name" };
	s = nst_emit_summary(out, "Num Calls", tail, 1, rows, g->n, err);
out:
	free(order);
	free(key);
	free(rows);
	return s;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	enum nst_status strings = nst_require_strings(ctx, err);
	if (strings != NST_OK)
		return strings;
	if (!nst_db_has_table(ctx->db, RUNTIME))
		return nst_nodata(ctx, err, "CUDA trace data.");
	const struct nst_calls *c;
	enum nst_status s = nst_calls_get(ctx, &c, err);
	if (s != NST_OK)
		return s;
	int64_t *dur = malloc((c->n ? c->n : 1) * sizeof *dur);
	if (!dur)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < c->n; i++)
		dur[i] = c->end[i] - c->start[i];
	struct nst_groups g;
	struct nst_dist *d = NULL;
	const int64_t *keys[] = { c->name_id };
	s = nst_group(keys, 1, c->rows, c->ncalls, &g, err);
	if (s == NST_OK) {
		s = nst_group_dists(&g, dur, &d, err);
		if (s == NST_OK)
			s = emit(ctx, out, &g, d, c->name_id, err);
		nst_groups_release(&g);
	}
	free(d);
	free(dur);
	return s;
}

static const struct nst_need needs[] = {
	NST_CALL_NEEDS,
	{ NULL, NULL, false },
};

const struct nst_report nst_report_cuda_api_sum = {
	.name = "cuda_api_sum",
	.title = "CUDA API Summary",
	.help = "Time spent in each CUDA runtime and driver API function: the\n"
		"number of calls, their total time and its share, and the average,\n"
		"median, minimum, maximum and standard deviation of one call.\n"
		"A `_vNNNN` version suffix is dropped from the names. CUDA backtrace\n"
		"records are not counted as calls (nsys 2024.2.3 counts them).",
	.args = (const char *const[]){ NULL },
	.needs = needs,
	.run = run,
};
