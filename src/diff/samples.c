/* The instances behind a comparison's row: each kernel's (API function's,
 * memory operation's) durations on one side, sorted, so that the two
 * sides can be compared as distributions and not only by their totals. */
#include <stdlib.h>
#include <string.h>

#include "core/sqlstat.h"
#include "core/strtab.h"
#include "diff/diff.h"
#include "reports/group.h"
#include "reports/kernel_names.h"
#include "reports/nvtx.h"
#include "reports/tables.h"

/* Where the value of each row comes from. */
struct row_values {
	const struct nst_span *span; /* the durations of the rows, or */
	const int64_t *val;          /* their values */
};

static int64_t value_at(const struct row_values *v, uint32_t r)
{
	return v->span ? nst_span_at(v->span, r) : v->val[r];
}

struct named_group {
	const char *text;
	uint32_t group;
};

static int by_text(const void *x, const void *y)
{
	const struct named_group *a = x, *b = y;
	int c = nst_cmp_sql_text(a->text, b->text);
	return c ? c : (a->group > b->group) - (a->group < b->group);
}

static bool same_text(const struct named_group *a, const struct named_group *b)
{
	return nst_cmp_sql_text(a->text, b->text) == 0;
}

/* The groups' values into s, one key a distinct text (groups of one text,
 * e.g. a name stored twice in StringIds, are one key), keys in text
 * order, each key's values sorted. */
static enum nst_status fill(const struct nst_groups *g, const char *const *text,
			    const struct row_values *v, struct diff_samples *s,
			    struct nst_error *err)
{
	size_t rows = g->n ? g->start[g->n] : 0;
	struct named_group *ng = malloc((g->n ? g->n : 1) * sizeof *ng);
	s->key = malloc((g->n ? g->n : 1) * sizeof *s->key);
	s->start = malloc((g->n + 1) * sizeof *s->start);
	s->val = malloc((rows ? rows : 1) * sizeof *s->val);
	if (!ng || !s->key || !s->start || !s->val) {
		free(ng);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < g->n; i++)
		ng[i] = (struct named_group){ text[i], (uint32_t)i };
	qsort(ng, g->n, sizeof *ng, by_text);
	size_t at = 0;
	for (size_t i = 0; i < g->n; i++) {
		if (i == 0 || !same_text(&ng[i - 1], &ng[i])) {
			if (s->n)
				nst_sort_i64(s->val + s->start[s->n - 1], at - s->start[s->n - 1]);
			s->start[s->n] = at;
			s->key[s->n++] = ng[i].text ? ng[i].text : "";
		}
		for (size_t j = g->start[ng[i].group]; j < g->start[ng[i].group + 1]; j++)
			s->val[at++] = value_at(v, g->order[j]);
	}
	if (s->n)
		nst_sort_i64(s->val + s->start[s->n - 1], at - s->start[s->n - 1]);
	s->start[s->n] = at;
	free(ng);
	return NST_OK;
}

/* The text of each group's first row's StringIds id. */
static const char **group_names(struct nst_ctx *ctx, const struct nst_groups *g,
				const struct nst_col *name)
{
	const char **text = malloc((g->n ? g->n : 1) * sizeof *text);
	for (size_t i = 0; text && i < g->n; i++) {
		int64_t sid = name ? nst_col_at(name, g->first[i]) : NST_NULL_I64;
		text[i] = sid == NST_NULL_I64 ? NULL : nst_db_string(ctx->db, sid);
	}
	return text;
}

enum nst_status diff_kernel_samples(struct nst_diff_ctx *d, int side, struct diff_samples *out,
				    struct nst_error *err)
{
	memset(out, 0, sizeof *out);
	struct nst_ctx ctx;
	enum nst_status st = d->events(d, side, &ctx, err);
	if (st == NST_ERR_NODATA)
		return NST_OK; /* the filter's range is not on this side: no kernels */
	size_t n = 0;
	struct nst_span span;
	const struct nst_col *name = NULL;
	if (st == NST_OK)
		st = nst_ev_rows(ctx.ev, KERNEL, &n, err);
	if (st != NST_OK || n == 0)
		return st;
	/* as the kernel summaries read them: no start and end widened to
	 * 16 bytes a row where the run holds their difference in 4 */
	st = nst_ev_durations(ctx.ev, KERNEL, &span, err);
	if (st == NST_OK && nst_span_none(&span))
		st = nst_fail(err, NST_ERR_DB, "%s lacks start or end", KERNEL);
	if (st == NST_OK)
		st = nst_kernel_name_ids(&ctx, diff_names_base(d) ? NST_KNAME_SHORT
								 : NST_KNAME_DEMANGLED, &name, err);
	struct nst_groups g = { 0 };
	if (st == NST_OK)
		st = nst_group_cols(&name, 1, NULL, n, &g, err);
	const char **text = st == NST_OK ? group_names(&ctx, &g, name) : NULL;
	if (st == NST_OK && !text)
		st = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (st == NST_OK)
		st = fill(&g, text, &(struct row_values){ &span, NULL }, out, err);
	free(text);
	nst_groups_release(&g);
	return st;
}

/* Each (name, style) group's key: "name\x1fStyle", as nvtx_diff's Range
  * and Style cells join (keyed.c, key_text). */
static const char **range_keys(struct nst_arena *a, const struct nst_nvtx_named *r,
			       const struct nst_groups *g)
{
	const char **text = malloc((g->n ? g->n : 1) * sizeof *text);
	for (size_t k = 0; text && k < g->n; k++) {
		uint32_t first = g->first[k];
		const char *name = nst_nvtx_name_text(r, first);
		text[k] = nst_arena_printf(a, "%s\x1f%s", name ? name : "",
					   nst_nvtx_style_name((enum nst_nvtx_style)r->style[first]));
		if (!text[k]) {
			free(text);
			return NULL;
		}
	}
	return text;
}

/* The named ranges' durations grouped by (name, style), as nvtx_sum
 * groups them (reports/nvtx_summary.c). */
static enum nst_status range_samples(struct nst_ctx *ctx, const struct nst_nvtx *nv,
				     const struct nst_nvtx_named *r, struct diff_samples *out,
				     struct nst_error *err)
{
	size_t n = r->n ? r->n : 1;
	int64_t *dur = malloc(n * sizeof *dur), *key = malloc(n * sizeof *key);
	struct nst_groups g = { 0 };
	const char **text = NULL;
	enum nst_status st = dur && key ? NST_OK : nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; st == NST_OK && i < r->n; i++) {
		dur[i] = nst_nvtx_end(nv, r->row[i]) - nv->start[r->row[i]];
		key[i] = nst_nvtx_range_key(nst_nvtx_name_of(r, i), (enum nst_nvtx_style)r->style[i]);
	}
	if (st == NST_OK)
		st = nst_group((const int64_t *const[]){ key }, 1, NULL, r->n, &g, err);
	if (st == NST_OK && !(text = range_keys(ctx->arena, r, &g)))
		st = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (st == NST_OK)
		st = fill(&g, text, &(struct row_values){ NULL, dur }, out, err);
	free(text);
	nst_groups_release(&g);
	free(dur);
	free(key);
	return st;
}

enum nst_status diff_range_samples(struct nst_diff_ctx *d, int side, struct diff_samples *out,
				   struct nst_error *err)
{
	memset(out, 0, sizeof *out);
	struct nst_ctx ctx;
	enum nst_status st = d->events(d, side, &ctx, err);
	if (st == NST_ERR_NODATA)
		return NST_OK; /* the filter's range is not on this side: no ranges */
	struct nst_nvtx nv;
	struct nst_nvtx_named named;
	if (st == NST_OK && nst_nvtx_check(&ctx, err) == NST_ERR_NODATA)
		return NST_OK; /* no NVTX table: no ranges, as nvtx_diff has none */
	if (st == NST_OK)
		st = nst_nvtx_load(&ctx, &nv, err);
	if (st == NST_OK)
		st = nst_nvtx_name_ranges(&ctx, &nv, NST_NVTX_ALL_STYLES, &named, err);
	if (st != NST_OK)
		return st;
	st = range_samples(&ctx, &nv, &named, out, err);
	nst_nvtx_named_release(&named);
	return st;
}

/* Rows of t grouped by the text of column kc. */
static enum nst_status group_by_text(const struct diff_table *t, int kc, struct nst_groups *g,
				     const char ***text, struct nst_error *err)
{
	struct nst_strtab tab = { 0 };
	uint32_t *gid = malloc((t->nrows ? t->nrows : 1) * sizeof *gid);
	enum nst_status st = gid ? NST_OK : nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t r = 0; st == NST_OK && r < t->nrows; r++) {
		const struct nst_cell *k = diff_cell(t, r, kc);
		int64_t id = nst_strtab_intern(&tab, k->kind == NST_TEXT ? k->v.s : "");
		if (id < 0)
			st = nst_fail(err, NST_ERR_NOMEM, "out of memory");
		else if ((size_t)id == g->n)
			g->n++;
		if (id >= 0)
			gid[r] = (uint32_t)id;
	}
	g->first = st == NST_OK ? malloc((g->n ? g->n : 1) * sizeof *g->first) : NULL;
	if (st == NST_OK && !g->first)
		st = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t r = t->nrows; st == NST_OK && r-- > 0;)
		g->first[gid[r]] = (uint32_t)r;
	if (st == NST_OK)
		st = nst_group_by_ids(gid, NULL, t->nrows, g, err);
	free(gid);
	nst_strtab_release_index(&tab);
	*text = tab.text; /* the strings are the table's */
	return st;
}

enum nst_status diff_report_samples(struct nst_diff_ctx *d, int side, const char *spec,
				    const char *key_col, const char *val_col,
				    struct diff_samples *out, struct nst_error *err)
{
	memset(out, 0, sizeof *out);
	enum nst_status st = diff_collect(d, side, spec, &out->keep, err);
	const struct diff_table *t = &out->keep;
	int kc = diff_col(t, key_col), vc = diff_col(t, val_col);
	if (st == NST_OK && t->nrows && (kc < 0 || vc < 0))
		st = nst_fail(err, NST_ERR_INTERNAL, "%s has no column '%s' or '%s'", spec,
			      key_col, val_col);
	if (st != NST_OK || !t->nrows)
		return st;
	int64_t *val = malloc(t->nrows * sizeof *val);
	struct nst_groups g = { 0 };
	const char **text = NULL;
	st = val ? group_by_text(t, kc, &g, &text, err)
		 : nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t r = 0; st == NST_OK && r < t->nrows; r++)
		val[r] = diff_int(diff_cell(t, r, vc));
	if (st == NST_OK)
		st = fill(&g, text, &(struct row_values){ NULL, val }, out, err);
	free(val);
	free(text);
	nst_groups_release(&g);
	return st;
}

const int64_t *diff_samples_of(const struct diff_samples *s, const char *key, size_t *n)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(s->key[mid], key);
		if (c == 0) {
			*n = s->start[mid + 1] - s->start[mid];
			return s->val + s->start[mid];
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*n = 0;
	return NULL;
}

void diff_samples_release(struct diff_samples *s)
{
	free(s->key);
	free(s->start);
	free(s->val);
	diff_table_release(&s->keep);
	memset(s, 0, sizeof *s);
}
