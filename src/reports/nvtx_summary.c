/* The NVTX range summaries: nvtx_sum (both styles, with a Style column),
 * nvtx_pushpop_sum and nvtx_startend_sum (one style each, without). */
#include <stdlib.h>
#include <string.h>

#include "reports/nvtx.h"

/* What equal totals are ordered by, side by side: the comparisons of a
 * sort read one array instead of two through the group's first range. */
struct sort_key {
	const char *name; /* NULL for NULL */
	int style;
};

/* Equal totals by name, then style, the order that nsys's GROUP BY
 * leaves them in. */
static int cmp_ties(uint32_t a, uint32_t b, void *arg)
{
	const struct sort_key *ka = (const struct sort_key *)arg + a;
	const struct sort_key *kb = (const struct sort_key *)arg + b;
	int c = nst_cmp_sql_text(ka->name, kb->name);
	return c ? c : ka->style - kb->style;
}

static enum nst_status emit(const struct nst_sink *out, const struct nst_nvtx_named *r,
			    const struct nst_groups *g, const struct nst_dist *d,
			    bool with_style, struct nst_error *err)
{
	size_t n = g->n ? g->n : 1;
	uint32_t *order = malloc(n * sizeof *order);
	struct nst_summary_row *rows = malloc(n * sizeof *rows);
	struct sort_key *key = malloc(n * sizeof *key);
	enum nst_status s = NST_OK;
	if (!order || !rows || !key) {
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
		goto out;
	}
	for (size_t k = 0; k < g->n; k++) {
		uint32_t first = g->first[k];
		order[k] = (uint32_t)k;
		key[k] = (struct sort_key){ nst_nvtx_name_text(r, first), r->style[first] };
	}
	if ((s = nst_sort_by_total(order, g->n, d, cmp_ties, key, err)) != NST_OK)
		goto out;
	for (size_t k = 0; k < g->n; k++) {
		const struct sort_key *kk = &key[order[k]];
		rows[k].d = &d[order[k]];
		rows[k].tail[0] = nst_text(with_style ? nst_nvtx_style_name(kk->style) : kk->name);
		rows[k].tail[1] = nst_text(kk->name);
	}
	static const char *const tail[] = { "Style", "Range" };
	s = with_style ? nst_emit_summary(out, "Instances", tail, 2, rows, g->n, err)
		       : nst_emit_summary(out, "Instances", tail + 1, 1, rows, g->n, err);
out:
	free(order);
	free(rows);
	free(key);
	return s;
}

/* Groups the named ranges by (name, style) and emits their durations. */
static enum nst_status summarise(const struct nst_sink *out, const struct nst_nvtx *nv,
				 const struct nst_nvtx_named *r, bool with_style,
				 struct nst_error *err)
{
	size_t n = r->n ? r->n : 1;
	int64_t *dur = malloc(n * sizeof *dur);
	int64_t *key = malloc(n * sizeof *key);
	struct nst_groups g = { 0 };
	struct nst_dist *d = NULL;
	enum nst_status s = NST_OK;
	if (!dur || !key) {
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < r->n; i++) {
		dur[i] = nst_nvtx_end(nv, r->row[i]) - nv->start[r->row[i]];
		key[i] = nst_nvtx_range_key(nst_nvtx_name_of(r, i), (enum nst_nvtx_style)r->style[i]);
	}
	s = nst_group((const int64_t *const[]){ key }, 1, NULL, r->n, &g, err);
	if (s == NST_OK)
		s = nst_group_dists(&g, dur, &d, err);
	if (s == NST_OK)
		s = emit(out, r, &g, d, with_style, err);
out:
	nst_groups_release(&g);
	free(d);
	free(dur);
	free(key);
	return s;
}

enum nst_status nst_nvtx_summary(struct nst_ctx *ctx, const struct nst_sink *out,
				 unsigned styles, struct nst_error *err)
{
	struct nst_nvtx nv;
	struct nst_nvtx_named named;
	enum nst_status s = nst_nvtx_check(ctx, err);
	if (!s) s = nst_nvtx_load(ctx, &nv, err);
	if (!s) s = nst_nvtx_name_ranges(ctx, &nv, styles, &named, err);
	if (s != NST_OK)
		return s;
	s = summarise(out, &nv, &named, styles == NST_NVTX_ALL_STYLES, err);
	nst_nvtx_named_release(&named);
	return s;
}
