#include "reports/family.h"

#include <stdlib.h>
#include <string.h>

static enum nst_status add_name(struct nst_family *f, size_t *cap, const char *name,
				struct nst_error *err)
{
	if (f->n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		char **p = realloc(f->names, *cap * sizeof *p);
		if (!p)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		f->names = p;
	}
	if (!(f->names[f->n] = strdup(name)))
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	f->n++;
	return NST_OK;
}

enum nst_status nst_family_find(struct nst_ctx *ctx, const char *prefix,
				struct nst_family *f, struct nst_error *err)
{
	static const char sql[] =
		"SELECT name FROM sqlite_master WHERE type IN ('table','view') "
		"AND substr(name, 1, ?1) = ?2 AND length(name) > ?1 ORDER BY name";
	sqlite3 *h = nst_db_handle(ctx->db);
	sqlite3_stmt *st;
	*f = (struct nst_family){ 0 };
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
		return nst_fail(err, NST_ERR_DB, "%s: cannot read the schema: %s",
				nst_db_path(ctx->db), sqlite3_errmsg(h));
	sqlite3_bind_int(st, 1, (int)strlen(prefix));
	sqlite3_bind_text(st, 2, prefix, -1, SQLITE_STATIC);
	size_t cap = 0;
	enum nst_status s = NST_OK;
	int rc;
	while (s == NST_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
		s = add_name(f, &cap, (const char *)sqlite3_column_text(st, 0), err);
	if (s == NST_OK && rc != SQLITE_DONE)
		s = nst_fail(err, NST_ERR_DB, "%s: cannot read the schema: %s",
			     nst_db_path(ctx->db), sqlite3_errmsg(h));
	sqlite3_finalize(st);
	if (s != NST_OK)
		nst_family_release(f);
	return s;
}

void nst_family_release(struct nst_family *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->names[i]);
	free(f->names);
	*f = (struct nst_family){ 0 };
}

enum nst_status nst_timed_load(struct nst_ctx *ctx, const char *table,
			       struct nst_timed *t, struct nst_error *err)
{
	enum nst_status s = nst_ev_rows(ctx->ev, table, &t->n, err);
	if (!s) s = nst_ev_i64(ctx->ev, table, "start", &t->start, err);
	if (!s) s = nst_ev_i64(ctx->ev, table, "end", &t->end, err);
	if (!s) s = nst_ev_i64(ctx->ev, table, "nameId", &t->name_id, err);
	if (s == NST_OK && t->n && (!t->start || !t->end || !t->name_id))
		s = nst_fail(err, NST_ERR_DB, "%s: %s lacks start, end or nameId",
			     nst_db_path(ctx->db), table);
	return s;
}

enum nst_status nst_named_dists_add(struct nst_named_dists *nd, int64_t *vals, size_t n,
				    const char *name, struct nst_error *err)
{
	if (nd->n == nd->cap) {
		size_t cap = nd->cap ? nd->cap * 2 : 16;
		struct nst_dist *d = realloc(nd->d, cap * sizeof *d);
		if (d)
			nd->d = d;
		const char **nm = d ? realloc(nd->name, cap * sizeof *nm) : NULL;
		if (!nm)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		nd->name = nm;
		nd->cap = cap;
	}
	if (!nst_dist_of(vals, n, &nd->d[nd->n]))
		return nst_fail_sum(err);
	nd->name[nd->n++] = name;
	return NST_OK;
}

enum nst_status nst_named_dists_emit(const struct nst_named_dists *nd,
				     const struct nst_sink *out, const char *count_label,
				     struct nst_error *err)
{
	size_t n = nd->n ? nd->n : 1;
	uint32_t *order = malloc(n * sizeof *order);
	struct nst_summary_row *rows = malloc(n * sizeof *rows);
	enum nst_status s;
	if (!order || !rows) {
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	} else {
		for (size_t k = 0; k < nd->n; k++)
			order[k] = (uint32_t)k;
		s = nst_sort_by_total(order, nd->n, nd->d, NULL, NULL, err);
	}
	if (s == NST_OK) {
		for (size_t k = 0; k < nd->n; k++) {
			rows[k].d = &nd->d[order[k]];
			rows[k].tail[0] = nst_text(nd->name[order[k]]);
		}
		static const char *const tail[] = { "Name" };
		s = nst_emit_summary(out, count_label, tail, 1, rows, nd->n, err);
	}
	free(order);
	free(rows);
	return s;
}

void nst_named_dists_release(struct nst_named_dists *nd)
{
	free(nd->d);
	free(nd->name);
	*nd = (struct nst_named_dists){ 0 };
}
