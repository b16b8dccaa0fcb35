/* What several findings share: examples, breakdowns, column reads. */
#include <string.h>

#include "check/check.h"

const char *const chk_gpu_tables[3] = { CHK_KERNEL, CHK_MEMCPY, CHK_MEMSET };

struct chk_example *chk_example(struct chk_result *r, const char *table,
				int64_t rowid)
{
	if (r->nex == CHK_MAX_EXAMPLES)
		return NULL;
	struct chk_example *e = &r->ex[r->nex++];
	*e = (struct chk_example){ .table = table, .rowid = rowid };
	return e;
}

void chk_num(struct chk_example *e, const char *name, int64_t v)
{
	if (e && e->nf < CHK_MAX_FIELDS)
		e->f[e->nf++] = (struct chk_field){ .name = name, .num = v };
}

void chk_text(struct chk_example *e, const char *name, const char *v)
{
	if (e && e->nf < CHK_MAX_FIELDS)
		e->f[e->nf++] = (struct chk_field){ .name = name, .text = v ? v : "" };
}

void chk_part_add(struct chk_result *r, const char *name, int64_t n)
{
	for (size_t i = 0; i < r->nparts; i++) {
		if (strcmp(r->parts[i].name, name) == 0) {
			r->parts[i].count += n;
			return;
		}
	}
	if (r->nparts < CHK_MAX_PARTS)
		r->parts[r->nparts++] = (struct chk_part){ name, n, NULL };
}

void chk_part_reason(struct chk_result *r, const char *name, const char *reason)
{
	size_t before = r->nparts;
	chk_part_add(r, name, 1);
	if (r->nparts > before)
		r->parts[before].reason = reason;
}

enum nst_status chk_col(struct chk_ctx *ctx, const char *table, const char *col,
			const struct nst_col **out, struct nst_error *err)
{
	return nst_ev_col(ctx->ev, table, col, out, err);
}

enum nst_status chk_rows(struct chk_ctx *ctx, const char *table, size_t *n,
			 struct nst_error *err)
{
	return nst_ev_rows(ctx->ev, table, n, err);
}

enum nst_status chk_sql_i64(struct chk_ctx *ctx, const char *sql, int64_t dflt,
			    int64_t *out, struct nst_error *err)
{
	sqlite3 *h = nst_db_handle(ctx->db);
	sqlite3_stmt *st;
	*out = dflt;
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
		return nst_fail(err, NST_ERR_DB, "%s: %s", nst_db_path(ctx->db),
				sqlite3_errmsg(h));
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		*out = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return nst_fail(err, NST_ERR_DB, "%s: %s", nst_db_path(ctx->db),
				sqlite3_errmsg(h));
	return NST_OK;
}

const char *chk_string(struct chk_ctx *ctx, int64_t id)
{
	const char *s = id == NST_NULL_I64 ? NULL : nst_db_string(ctx->db, id);
	return s ? s : "";
}

bool chk_lacks_all(struct chk_ctx *ctx, struct chk_result *r, const char *const *tables,
		   size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (nst_db_has_table(ctx->db, tables[i]))
			return false;
	r->count = CHK_NOT_CHECKED;
	r->note = n == 1 ? nst_arena_printf(ctx->arena, "no %s table", tables[0])
			 : "none of the tables it reads is in the export";
	return true;
}

bool chk_lacks(struct chk_ctx *ctx, struct chk_result *r, const char *table)
{
	return chk_lacks_all(ctx, r, &table, 1);
}

const struct chk_result *chk_result_of(const struct chk_ctx *ctx, const char *name)
{
	for (size_t i = 0; i < ctx->nfindings; i++)
		if (strcmp(ctx->findings[i]->name, name) == 0)
			return &ctx->results[i];
	return NULL;
}
