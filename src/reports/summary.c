/* The duration summary and calls summarised by function. */
#include "reports/summary.h"

#include <stdlib.h>

#include "reports/common.h"

/* ---- the usual duration summary ------------------------------------------ */

enum nst_status nst_emit_summary(const struct nst_sink *out,
				 const char *count_label,
				 const char *const *tail_cols, size_t ntail,
				 const struct nst_summary_row *rows, size_t n,
				 struct nst_error *err)
{
	double total = 0;
	for (size_t k = 0; k < n; k++)
		total += (double)rows[k].d->sum;
	return nst_emit_summary_of(out, count_label, tail_cols, ntail, rows, n, total, err);
}

enum nst_status nst_emit_summary_of(const struct nst_sink *out,
				    const char *count_label,
				    const char *const *tail_cols, size_t ntail,
				    const struct nst_summary_row *rows, size_t n,
				    double total, struct nst_error *err)
{
	enum nst_status s;
	const char *cols[8 + 4] = {
		"Time:ratio_%", "Total Time:dur_ns", count_label, "Avg:dur_ns",
		"Med:dur_ns", "Min:dur_ns", "Max:dur_ns", "StdDev:dur_ns",
	};
	for (size_t t = 0; t < ntail; t++)
		cols[8 + t] = tail_cols[t];
	if ((s = out->begin(out->ctx, cols, 8 + ntail, err)) != NST_OK)
		return s;
	for (size_t k = 0; k < n; k++) {
		const struct nst_dist *d = rows[k].d;
		struct nst_cell c[12] = {
			/* SQL divides by zero into NULL */
			total != 0 ? nst_round1((double)d->sum * 100.0 / total) : nst_null(),
			nst_int(d->sum),
			nst_int((int64_t)d->n),
			nst_round1(d->avg),
			nst_round1(nst_mid_value(d->med)),
			nst_int(d->min),
			nst_int(d->max),
			nst_round1(d->stdev),
		};
		for (size_t t = 0; t < ntail; t++)
			c[8 + t] = rows[k].tail[t];
		if ((s = out->row(out->ctx, c, err)) != NST_OK)
			return s;
	}
	return NST_OK;
}

/* ---- calls summarised by name ------------------------------------------- */

/* Equal totals in name id order, as GROUP BY nameId leaves them. */
static int cmp_name_id(uint32_t a, uint32_t b, void *arg)
{
	const int64_t *key = arg;
	return (key[a] > key[b]) - (key[a] < key[b]);
}

static enum nst_status emit_by_name(struct nst_ctx *ctx, const struct nst_sink *out,
				    const struct nst_groups *g, const struct nst_dist *d,
				    const struct nst_col *name_id, nst_name_fn name_of,
				    struct nst_error *err)
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
		key[k] = nst_col_at(name_id, g->first[k]);
	}
	s = nst_sort_by_total(order, g->n, d, cmp_name_id, key, err);
	if (s != NST_OK)
		goto out;
	for (size_t k = 0; k < g->n; k++) {
		rows[k].d = &d[order[k]];
		rows[k].tail[0] = nst_text(name_of(ctx, key[order[k]]));
	}
	static const char *const tail[] = { "Name" };
	s = nst_emit_summary(out, "Num Calls", tail, 1, rows, g->n, err);
out:
	free(order);
	free(key);
	free(rows);
	return s;
}

enum nst_status nst_summarise_calls(struct nst_ctx *ctx, const struct nst_sink *out,
				    const struct nst_span *dur,
				    const struct nst_col *name_id, const uint32_t *rows, size_t nrows,
				    nst_name_fn name_of, struct nst_error *err)
{
	struct nst_groups g;
	struct nst_dist *d = NULL;
	const struct nst_col *keys[] = { name_id };
	enum nst_status s = nst_group_cols(keys, 1, rows, nrows, &g, err);
	if (s == NST_OK) {
		s = nst_group_durations(&g, dur, true, &d, err);
		if (s == NST_OK)
			s = emit_by_name(ctx, out, &g, d, name_id, name_of, err);
		nst_groups_release(&g);
	}
	free(d);
	return s;
}

/* The rows of c's table that are its calls. */
static enum nst_status class_rows(const struct nst_class_calls *c, const struct nst_col *cls,
				  size_t n, uint32_t **rows, size_t *nrows, struct nst_error *err)
{
	*nrows = 0;
	*rows = malloc((n ? n : 1) * sizeof **rows);
	if (!*rows)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		if (cls ? nst_col_at(cls, i) == c->cls : c->every_without_class)
			(*rows)[(*nrows)++] = (uint32_t)i;
	return NST_OK;
}

enum nst_status nst_summarise_class_calls(struct nst_ctx *ctx, const struct nst_sink *out,
					  const struct nst_class_calls *c,
					  struct nst_error *err)
{
	enum nst_status s = nst_require_strings(ctx, err);
	if (s != NST_OK)
		return s;
	if (!nst_db_has_table(ctx->db, c->table))
		return nst_nodata(ctx, err, c->nodata);
	size_t n;
	struct nst_span dur;
	const struct nst_col *cls, *name_id;
	s = nst_ev_rows(ctx->ev, c->table, &n, err);
	if (!s) s = nst_ev_durations(ctx->ev, c->table, &dur, err);
	if (!s) s = nst_ev_col(ctx->ev, c->table, "eventClass", &cls, err);
	if (!s) s = nst_ev_col(ctx->ev, c->table, "nameId", &name_id, err);
	if (s != NST_OK)
		return s;
	if (nst_span_none(&dur) || !name_id)
		return nst_fail(err, NST_ERR_DB, "%s: %s lacks start, end or nameId",
				nst_db_path(ctx->db), c->table);
	uint32_t *rows;
	size_t nrows;
	s = class_rows(c, cls, n, &rows, &nrows, err);
	if (s == NST_OK)
		s = nst_summarise_calls(ctx, out, &dur, name_id, rows, nrows, c->name_of, err);
	free(rows);
	return s;
}
