#include "reports/threads.h"

#include <stdlib.h>

#include "core/big.h"
#include "reports/common.h"

enum nst_status nst_threads_load(struct nst_ctx *ctx, struct nst_threads *t,
				 struct nst_error *err)
{
	enum nst_status s = nst_ev_rows(ctx->ev, THREADS, &t->n, err);
	if (!s) s = nst_ev_i64(ctx->ev, THREADS, "globalTid", &t->gtid, err);
	if (!s) s = nst_ev_i64(ctx->ev, THREADS, "nameId", &t->name_id, err);
	if (!s) s = nst_ev_i64(ctx->ev, THREADS, "priority", &t->priority, err);
	if (s != NST_OK)
		return s;
	t->next = nst_big_alloc(t->n, sizeof *t->next);
	uint32_t *last = nst_big_alloc(t->n, sizeof *last);
	if (!t->next || !last || nst_map_init(&t->first, t->n) != 0) {
		free(last);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory reading %s", THREADS);
	}
	for (size_t i = 0; t->gtid && i < t->n; i++) {
		t->next[i] = UINT32_MAX;
		if (t->gtid[i] == NST_NULL_I64)
			continue;
		uint32_t head;
		bool fresh;
		if (nst_map_get_or_put(&t->first, t->gtid[i], 0, (uint32_t)i, &head, &fresh)) {
			free(last);
			return nst_fail(err, NST_ERR_NOMEM, "out of memory reading %s", THREADS);
		}
		if (!fresh)
			t->next[last[head]] = (uint32_t)i;
		last[head] = (uint32_t)i;
	}
	free(last);
	return NST_OK;
}

void nst_threads_release(struct nst_threads *t)
{
	nst_map_release(&t->first);
	free(t->next);
}

int64_t nst_threads_first(const struct nst_threads *t, int64_t gtid)
{
	uint32_t row;
	if (gtid == NST_NULL_I64 || !t->gtid || !nst_map_get(&t->first, gtid, 0, &row))
		return -1;
	return row;
}

int64_t nst_threads_next(const struct nst_threads *t, int64_t row)
{
	return row < 0 || t->next[row] == UINT32_MAX ? -1 : (int64_t)t->next[row];
}

struct nst_cell nst_threads_priority(const struct nst_threads *t, int64_t row)
{
	if (row < 0 || !t->priority)
		return nst_null();
	return nst_int_or_null(t->priority[row]);
}

struct nst_cell nst_threads_name(struct nst_ctx *ctx, const struct nst_threads *t,
				 int64_t row)
{
	if (row < 0 || !t->name_id)
		return nst_null();
	return nst_text(nst_db_string(ctx->db, t->name_id[row]));
}
