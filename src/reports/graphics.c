#include "reports/graphics.h"

#include <stdlib.h>
#include <string.h>

#include "core/hashmap.h"
#include "core/search.h"

enum nst_status nst_gfx_check(struct nst_ctx *ctx, const char *table,
			      const char *what, struct nst_error *err)
{
	enum nst_status s = nst_require_strings(ctx, err);
	if (s == NST_OK && !nst_db_has_table(ctx->db, table))
		s = nst_nodata(ctx, err, what);
	return s;
}

/* ---- ranges and their names --------------------------------------------- */

/* How a range is named; the order is the order of ties in total. */
enum name_kind {
	NAME_NULL,   /* no name */
	NAME_INT,    /* an integer: the KHR event id */
	NAME_RANK,   /* a text: its rank among the names in text order */
	NAME_TEXTID, /* the StringIds text of a textId */
};

/* Ranges as (name, duration) in the order nsys aggregates them. */
struct ranges {
	size_t n, cap;
	int64_t *kind, *key, *dur;
	const char **rank_text; /* NAME_RANK: the text of each rank */
};

/* end - start as SQL computes it: NULL when either is NULL. */
static int64_t span(int64_t start, int64_t end)
{
	return start == NST_NULL_I64 || end == NST_NULL_I64 ? NST_NULL_I64 : end - start;
}

/* A NULL duration is left out: it is no part of any sum. */
static enum nst_status ranges_add(struct ranges *r, enum name_kind kind, int64_t key,
				  int64_t dur, struct nst_error *err)
{
	if (dur == NST_NULL_I64)
		return NST_OK;
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 256;
		int64_t *k = realloc(r->kind, cap * sizeof *k);
		if (k) r->kind = k;
		int64_t *y = k ? realloc(r->key, cap * sizeof *y) : NULL;
		if (y) r->key = y;
		int64_t *d = y ? realloc(r->dur, cap * sizeof *d) : NULL;
		if (!d)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		r->dur = d;
		r->cap = cap;
	}
	r->kind[r->n] = kind;
	r->key[r->n] = key;
	r->dur[r->n++] = dur;
	return NST_OK;
}

static void ranges_release(struct ranges *r)
{
	free(r->kind);
	free(r->key);
	free(r->dur);
	free(r->rank_text);
}

static struct nst_cell name_cell(struct nst_ctx *ctx, const struct ranges *r, size_t i)
{
	switch ((enum name_kind)r->kind[i]) {
	case NAME_INT: return nst_int(r->key[i]);
	case NAME_RANK: return nst_text(r->rank_text[r->key[i]]);
	case NAME_TEXTID: return nst_text(nst_db_string(ctx->db, r->key[i]));
	case NAME_NULL: break;
	}
	return nst_null();
}

/* ---- the summary ------------------------------------------------------- */

struct by_name {
	const struct ranges *r;
	const uint32_t *first;
};

/* Equal totals in name order. */
static int cmp_ties(uint32_t a, uint32_t b, void *arg)
{
	const struct by_name *t = arg;
	uint32_t ra = t->first[a], rb = t->first[b];
	int64_t ka = t->r->kind[ra], kb = t->r->kind[rb];
	if (ka != kb)
		return ka < kb ? -1 : 1;
	return (t->r->key[ra] > t->r->key[rb]) - (t->r->key[ra] < t->r->key[rb]);
}

static enum nst_status emit(struct nst_ctx *ctx, const struct nst_sink *out,
			    const struct ranges *r, const struct nst_groups *g,
			    const struct nst_dist *d, struct nst_error *err)
{
	size_t m = 0;
	double total = 0;
	uint32_t *order = malloc((g->n ? g->n : 1) * sizeof *order);
	struct nst_summary_row *rows = malloc((g->n ? g->n : 1) * sizeof *rows);
	enum nst_status s = NST_OK;
	if (!order || !rows) {
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
		goto out;
	}
	for (size_t k = 0; k < g->n; k++) {
		total += (double)d[k].sum;
		if (d[k].sum > 0)
			order[m++] = (uint32_t)k;
	}
	s = nst_sort_by_total(order, m, d, cmp_ties, &(struct by_name){ r, g->first }, err);
	if (s != NST_OK)
		goto out;
	for (size_t k = 0; k < m; k++) {
		rows[k].d = &d[order[k]];
		rows[k].tail[0] = name_cell(ctx, r, g->first[order[k]]);
	}
	static const char *const tail[] = { "Range" };
	s = nst_emit_summary_of(out, "Instances", tail, 1, rows, m, total, err);
out:
	free(order);
	free(rows);
	return s;
}

/* Groups the ranges by name and emits the groups with a positive total. */
static enum nst_status summarise(struct nst_ctx *ctx, const struct nst_sink *out,
				 const struct ranges *r, struct nst_error *err)
{
	uint32_t *rows = malloc((r->n ? r->n : 1) * sizeof *rows);
	if (!rows)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < r->n; i++)
		rows[i] = (uint32_t)i;
	struct nst_groups g;
	struct nst_dist *d = NULL;
	const int64_t *keys[] = { r->kind, r->key };
	enum nst_status s = nst_group(keys, 2, rows, r->n, &g, err);
	if (s == NST_OK) {
		s = nst_group_dists(&g, r->dur, &d, err);
		if (s == NST_OK)
			s = emit(ctx, out, r, &g, d, err);
		nst_groups_release(&g);
	}
	free(d);
	free(rows);
	return s;
}

/* ---- columns --------------------------------------------------------------- */

struct cols {
	size_t n;
	const int64_t *start, *end, *gtid, *corr, *text_id, *cls, *id;
};

static int64_t at(const int64_t *col, size_t row)
{
	return col ? col[row] : NST_NULL_I64;
}

/* start and end are NOT NULL in every schema; the rest may be absent. */
static enum nst_status load_cols(struct nst_ctx *ctx, const char *table, struct cols *c,
				 struct nst_error *err)
{
	memset(c, 0, sizeof *c);
	enum nst_status s = nst_ev_rows(ctx->ev, table, &c->n, err);
	if (!s) s = nst_ev_i64(ctx->ev, table, "start", &c->start, err);
	if (!s) s = nst_ev_i64(ctx->ev, table, "end", &c->end, err);
	if (!s) s = nst_ev_i64(ctx->ev, table, "textId", &c->text_id, err);
	if (s != NST_OK)
		return s;
	if (!c->start || !c->end)
		return nst_fail(err, NST_ERR_DB, "%s: %s lacks start or end",
				nst_db_path(ctx->db), table);
	return NST_OK;
}

/* ---- CPU markers: begin and end calls paired ------------------------------- */

/* End calls (no textId) by (globalTid, correlationId), chained in row order. */
struct end_calls {
	struct nst_map first;
	uint32_t *next;
};

static bool is_end_call(const struct cols *c, size_t i)
{
	return at(c->text_id, i) == NST_NULL_I64 && at(c->gtid, i) != NST_NULL_I64 &&
	       at(c->corr, i) != NST_NULL_I64;
}

static enum nst_status index_end_calls(const struct cols *c, struct end_calls *e,
				       struct nst_error *err)
{
	e->next = malloc((c->n ? c->n : 1) * sizeof *e->next);
	uint32_t *last = malloc((c->n ? c->n : 1) * sizeof *last);
	bool ok = e->next && last && nst_map_init(&e->first, c->n) == 0;
	for (size_t i = 0; ok && i < c->n; i++) {
		e->next[i] = UINT32_MAX;
		if (!is_end_call(c, i))
			continue;
		uint32_t head;
		bool fresh;
		ok = nst_map_get_or_put(&e->first, c->gtid[i], c->corr[i], (uint32_t)i,
					&head, &fresh) == 0;
		if (ok && !fresh)
			e->next[last[head]] = (uint32_t)i;
		if (ok)
			last[head] = (uint32_t)i;
	}
	free(last);
	return ok ? NST_OK : nst_fail(err, NST_ERR_NOMEM, "out of memory pairing markers");
}

static enum nst_status pair_calls(const struct cols *c, const struct end_calls *e,
				  struct ranges *r, struct nst_error *err)
{
	enum nst_status s = NST_OK;
	for (size_t b = 0; s == NST_OK && b < c->n; b++) {
		uint32_t end;
		if (at(c->text_id, b) == NST_NULL_I64 ||
		    !nst_map_get(&e->first, at(c->gtid, b), at(c->corr, b), &end))
			continue;
		for (; s == NST_OK && end != UINT32_MAX; end = e->next[end])
			s = ranges_add(r, NAME_TEXTID, c->text_id[b],
				       span(c->end[b], c->start[end]), err);
	}
	return s;
}

enum nst_status nst_gfx_cpu_marker_sum(struct nst_ctx *ctx, const struct nst_sink *out,
				       const char *table, struct nst_error *err)
{
	struct cols c;
	struct end_calls e = { 0 };
	struct ranges r = { 0 };
	enum nst_status s = load_cols(ctx, table, &c, err);
	if (!s) s = nst_ev_i64(ctx->ev, table, "globalTid", &c.gtid, err);
	if (!s) s = nst_ev_i64(ctx->ev, table, "correlationId", &c.corr, err);
	if (!s) s = index_end_calls(&c, &e, err);
	if (!s) s = pair_calls(&c, &e, &r, err);
	if (!s) s = summarise(ctx, out, &r, err);
	nst_map_release(&e.first);
	free(e.next);
	ranges_release(&r);
	return s;
}

/* ---- GPU markers: one range a row -------------------------------------------- */

enum nst_status nst_gfx_gpu_marker_sum(struct nst_ctx *ctx, const struct nst_sink *out,
				       const char *table, struct nst_error *err)
{
	struct cols c;
	struct ranges r = { 0 };
	enum nst_status s = load_cols(ctx, table, &c, err);
	for (size_t i = 0; s == NST_OK && i < c.n; i++)
		if (at(c.text_id, i) != NST_NULL_I64)
			s = ranges_add(&r, NAME_TEXTID, c.text_id[i], span(c.start[i], c.end[i]), err);
	if (s == NST_OK)
		s = summarise(ctx, out, &r, err);
	ranges_release(&r);
	return s;
}

/* ---- KHR_debug: named by text, else by event id -------------------------------- */

/* The texts of a set of textIds, ranked in text order; equal texts share
 * a rank.  ids is sorted, rank[i] belongs to ids[i]. */
struct text_ranks {
	size_t n;
	int64_t *ids;
	int64_t *rank;
	const char **text; /* by rank */
};

struct by_text {
	struct nst_ctx *ctx;
	const int64_t *ids;
};

static int cmp_text(uint32_t a, uint32_t b, void *arg)
{
	const struct by_text *t = arg;
	return strcmp(nst_db_string(t->ctx->db, t->ids[a]), nst_db_string(t->ctx->db, t->ids[b]));
}

static size_t unique_i64(int64_t *v, size_t n)
{
	size_t m = 0;
	nst_sort_i64(v, n);
	for (size_t i = 0; i < n; i++)
		if (m == 0 || v[m - 1] != v[i])
			v[m++] = v[i];
	return m;
}

static enum nst_status rank_texts(struct nst_ctx *ctx, struct text_ranks *t,
				  struct nst_error *err)
{
	uint32_t *order = malloc((t->n ? t->n : 1) * sizeof *order);
	t->rank = malloc((t->n ? t->n : 1) * sizeof *t->rank);
	t->text = malloc((t->n ? t->n : 1) * sizeof *t->text);
	if (!order || !t->rank || !t->text) {
		free(order);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < t->n; i++)
		order[i] = (uint32_t)i;
	nst_stable_sort(order, t->n, cmp_text, &(struct by_text){ ctx, t->ids });
	int64_t rank = -1;
	for (size_t j = 0; j < t->n; j++) {
		const char *s = nst_db_string(ctx->db, t->ids[order[j]]);
		if (rank < 0 || strcmp(t->text[rank], s) != 0)
			t->text[++rank] = s;
		t->rank[order[j]] = rank;
	}
	free(order);
	return NST_OK;
}

/* Ranks the texts of the textIds that name rows of the class. */
static enum nst_status rank_khr_texts(struct nst_ctx *ctx, const struct cols *c,
				      int64_t event_class, struct text_ranks *t,
				      struct nst_error *err)
{
	t->ids = malloc((c->n ? c->n : 1) * sizeof *t->ids);
	if (!t->ids)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < c->n; i++) {
		int64_t id = at(c->text_id, i);
		if (at(c->cls, i) == event_class && id != NST_NULL_I64 && nst_db_string(ctx->db, id))
			t->ids[t->n++] = id;
	}
	t->n = unique_i64(t->ids, t->n);
	return rank_texts(ctx, t, err);
}

static int64_t rank_of(const struct text_ranks *t, int64_t id)
{
	size_t lo = nst_lower_bound(t->ids, t->n, sizeof *t->ids, 0, id);
	return lo < t->n && t->ids[lo] == id ? t->rank[lo] : -1;
}

/* The last end of the table: where a range that never ended stops. */
static int64_t last_end(const struct cols *c)
{
	int64_t last = NST_NULL_I64;
	for (size_t i = 0; i < c->n; i++)
		if (c->end[i] != NST_NULL_I64 && (last == NST_NULL_I64 || c->end[i] > last))
			last = c->end[i];
	return last;
}

static enum nst_status khr_ranges(const struct cols *c, int64_t event_class,
				  const struct text_ranks *t, struct ranges *r,
				  struct nst_error *err)
{
	int64_t last = last_end(c);
	enum nst_status s = NST_OK;
	for (size_t i = 0; s == NST_OK && i < c->n; i++) {
		if (at(c->cls, i) != event_class)
			continue;
		int64_t end = c->end[i];
		if (end == NST_NULL_I64 && last != NST_NULL_I64)
			end = last > c->start[i] ? last : c->start[i];
		int64_t dur = span(c->start[i], end);
		int64_t rank = rank_of(t, at(c->text_id, i)), id = at(c->id, i);
		if (rank >= 0)
			s = ranges_add(r, NAME_RANK, rank, dur, err);
		else if (id != NST_NULL_I64)
			s = ranges_add(r, NAME_INT, id, dur, err);
		else
			s = ranges_add(r, NAME_NULL, 0, dur, err);
	}
	return s;
}

enum nst_status nst_gfx_khr_sum(struct nst_ctx *ctx, const struct nst_sink *out,
				int64_t event_class, struct nst_error *err)
{
	struct cols c;
	struct text_ranks t = { 0 };
	struct ranges r = { 0 };
	enum nst_status s = load_cols(ctx, KHR_DEBUG, &c, err);
	if (!s) s = nst_ev_i64(ctx->ev, KHR_DEBUG, "eventClass", &c.cls, err);
	if (!s) s = nst_ev_i64(ctx->ev, KHR_DEBUG, "id", &c.id, err);
	if (!s) s = rank_khr_texts(ctx, &c, event_class, &t, err);
	if (!s) s = khr_ranges(&c, event_class, &t, &r, err);
	if (!s) {
		r.rank_text = t.text; /* the ranges name groups by these */
		t.text = NULL;
		s = summarise(ctx, out, &r, err);
	}
	free(t.ids);
	free(t.rank);
	free(t.text);
	ranges_release(&r);
	return s;
}
