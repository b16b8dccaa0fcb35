/* osrt_sum: time spent in each OS runtime function (OSRT_API rows of event
 * class 27; the start/finish markers of classes 31 and 32 are not calls). */
#include <stdlib.h>

#include "reports/common.h"

#define OSRT "OSRT_API"
#define OS_RUNTIME_CLASS 27

struct by_total {
	const struct nst_dist *d;
	const int64_t *name_id;
};

/* Total descending; equal totals in name id order, as GROUP BY nameId
 * leaves them. */
static int cmp_total(uint32_t a, uint32_t b, void *arg)
{
	const struct by_total *t = arg;
	if (t->d[a].sum != t->d[b].sum)
		return t->d[a].sum > t->d[b].sum ? -1 : 1;
	return (t->name_id[a] > t->name_id[b]) - (t->name_id[a] < t->name_id[b]);
}

static enum nst_status emit(struct nst_ctx *ctx, const struct nst_sink *out,
			    const struct nst_groups *g, const struct nst_dist *d,
			    const int64_t *name_id, struct nst_error *err)
{
	size_t n = g->n ? g->n : 1;
	uint32_t *order = malloc(n * sizeof *order);
	int64_t *key = malloc(n * sizeof *key);
	struct nst_summary_row *rows = malloc(n * sizeof *rows);
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
		rows[k].tail[0] = nst_text(nst_db_string(ctx->db, key[order[k]]));
	}
	static const char *const tail[] = { "Name" };
	s = nst_emit_summary(out, "Num Calls", tail, 1, rows, g->n, err);
out:
	free(order);
	free(key);
	free(rows);
	return s;
}

/* The rows that are OS runtime calls. */
static enum nst_status call_rows(const int64_t *event_class, size_t n,
				 uint32_t **rows, size_t *nrows, struct nst_error *err)
{
	*nrows = 0;
	*rows = malloc((n ? n : 1) * sizeof **rows);
	if (!*rows)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		if (!event_class || event_class[i] == OS_RUNTIME_CLASS)
			(*rows)[(*nrows)++] = (uint32_t)i;
	return NST_OK;
}

static enum nst_status summarise(struct nst_ctx *ctx, const struct nst_sink *out,
				 const int64_t *dur, const int64_t *name_id,
				 const uint32_t *rows, size_t nrows,
				 struct nst_error *err)
{
	struct nst_groups g;
	struct nst_dist *d = NULL;
	const int64_t *keys[] = { name_id };
	enum nst_status s = nst_group(keys, 1, rows, nrows, &g, err);
	if (s != NST_OK)
		return s;
	s = nst_group_dists(&g, dur, &d, err);
	if (s == NST_OK)
		s = emit(ctx, out, &g, d, name_id, err);
	nst_groups_release(&g);
	free(d);
	return s;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	enum nst_status strings = nst_require_strings(ctx, err);
	if (strings != NST_OK)
		return strings;
	if (!nst_db_has_table(ctx->db, OSRT))
		return nst_nodata(ctx, err, "OS Runtime trace data.");
	size_t n;
	const int64_t *start, *end, *cls, *name_id;
	enum nst_status s = nst_ev_rows(ctx->ev, OSRT, &n, err);
	if (!s) s = nst_ev_i64(ctx->ev, OSRT, "start", &start, err);
	if (!s) s = nst_ev_i64(ctx->ev, OSRT, "end", &end, err);
	if (!s) s = nst_ev_i64(ctx->ev, OSRT, "eventClass", &cls, err);
	if (!s) s = nst_ev_i64(ctx->ev, OSRT, "nameId", &name_id, err);
	if (s != NST_OK)
		return s;
	if (!start || !end || !name_id)
		return nst_fail(err, NST_ERR_DB, "%s: %s lacks start, end or nameId",
				nst_db_path(ctx->db), OSRT);
	uint32_t *rows;
	size_t nrows;
	int64_t *dur = malloc((n ? n : 1) * sizeof *dur);
	if (!dur)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		dur[i] = end[i] - start[i];
	s = call_rows(cls, n, &rows, &nrows, err);
	if (s == NST_OK)
		s = summarise(ctx, out, dur, name_id, rows, nrows, err);
	free(rows);
	free(dur);
	return s;
}

static const struct nst_need needs[] = {
	{ OSRT, "start", false }, { OSRT, "end", false },
	{ OSRT, "eventClass", false }, { OSRT, "nameId", false },
	{ NULL, NULL, false },
};

const struct nst_report nst_report_osrt_sum = {
	.name = "osrt_sum",
	.title = "OS Runtime Summary",
	.help = "Time spent in each OS runtime library function (OSRT_API calls of\n"
		"event class 27): the number of calls, their total time and its\n"
		"share, and the average, median, minimum, maximum and standard\n"
		"deviation of one call.",
	.args = (const char *const[]){ NULL },
	.needs = needs,
	.run = run,
};
