/* GPU memory operations joined to their calls, for the memcpy and memset
 * rules. */
#include <stdlib.h>
#include <string.h>

#include "rules/mem_calls.h"
#include "core/big.h"

#define MEM_KIND "ENUM_CUDA_MEM_KIND"

static const char *const memcpy_cols[] = {
	"Duration:dur_ns", "Start:ts_ns", "Src Kind", "Dst Kind", "Bytes:mem_B", "PID",
	"Device ID", "Context ID", "Green Context ID", "Stream ID", "API Name",
};
static const char *const memset_cols[] = {
	"Duration:dur_ns", "Start:ts_ns", "Memory Kind", "Bytes:mem_B", "PID",
	"Device ID", "Context ID", "Green Context ID", "Stream ID", "API Name",
};
#define MAXCOLS (sizeof memcpy_cols / sizeof *memcpy_cols)

static enum nst_status load(struct nst_ctx *ctx, const char *table, struct nst_mem_ops *m,
			    struct nst_error *err)
{
	*m = (struct nst_mem_ops){ 0 };
	bool cpy = strcmp(table, MEMCPY) == 0;
	struct nst_events *ev = ctx->ev;
	enum nst_status s = nst_gpu_table_load(ctx, table, NST_GPU_ALL, &m->t, err);
	if (!s) s = nst_ev_i64(ev, table, "globalPid", &m->gpid, err);
	if (!s) s = nst_ev_i64(ev, table, cpy ? "srcKind" : "memKind", &m->kind[0], err);
	if (!s && cpy) s = nst_ev_i64(ev, table, "dstKind", &m->kind[1], err);
	if (!s && cpy) s = nst_ev_i64(ev, table, "copyKind", &m->copy_kind, err);
	if (!s && cpy) s = nst_ev_i64(ev, table, "srcDeviceId", &m->src_dev, err);
	if (!s && cpy) s = nst_ev_i64(ev, table, "dstDeviceId", &m->dst_dev, err);
	return s;
}

static int64_t at(const int64_t *col, size_t row)
{
	return col ? col[row] : NST_NULL_I64;
}

/* The process every call comes from, or NULL when there are several: a
 * GPU table without globalPid (trimmed exports) then belongs to it. */
static int64_t only_process(const struct nst_calls *c)
{
	int64_t p = NST_NULL_I64;
	for (size_t k = 0; c->gtid && k < c->ncalls; k++) {
		int64_t g = nst_col_at(c->gtid, nst_call_row(c, k));
		if (g == NST_NULL_I64)
			continue;
		if (p != NST_NULL_I64 && nst_gpid(g) != p)
			return NST_NULL_I64;
		p = nst_gpid(g);
	}
	return p;
}

/* A joined pair: GPU row and call row. */
struct pairs {
	uint32_t *op, *call;
	int64_t *dur;
	size_t n, cap;
};

static int pairs_add(struct pairs *p, uint32_t op, uint32_t call, int64_t dur)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 64;
		uint32_t *a = realloc(p->op, cap * sizeof *a);
		if (a) p->op = a;
		uint32_t *b = realloc(p->call, cap * sizeof *b);
		if (b) p->call = b;
		int64_t *d = realloc(p->dur, cap * sizeof *d);
		if (d) p->dur = d;
		if (!a || !b || !d)
			return -1;
		p->cap = cap;
	}
	p->op[p->n] = op;
	p->call[p->n] = call;
	p->dur[p->n] = dur;
	p->n++;
	return 0;
}

static void pairs_release(struct pairs *p)
{
	free(p->op);
	free(p->call);
	free(p->dur);
}

/* Every (operation, call) the rule keeps, in the GPU table's order;
 * ctx reads the calls. */
static enum nst_status join(struct nst_ctx *ctx, const struct nst_mem_rule *rule,
			    const struct nst_mem_ops *m, const struct nst_calls *c,
			    struct pairs *p, struct nst_error *err)
{
	const uint32_t *next;
	enum nst_status s = nst_calls_chain(ctx, &next, err);
	if (s != NST_OK)
		return s;
	int64_t lone = m->gpid ? NST_NULL_I64 : only_process(c);
	for (size_t i = 0; i < m->t.n; i++) {
		if (!rule->op(m, i))
			continue;
		int64_t gpid = m->gpid ? m->gpid[i] : lone;
		gpid = gpid == NST_NULL_I64 ? gpid : nst_gpid(gpid);
		for (int64_t r = nst_calls_find(ctx, gpid, nst_col_or_null(m->t.corr, i)); r >= 0;
		     r = nst_calls_next(next, r)) {
			if (!rule->call(nst_raw_name(ctx, nst_col_at(c->name_id, r))))
				continue;
			if (pairs_add(p, (uint32_t)i, (uint32_t)r, m->t.end[i] - m->t.start[i]))
				return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		}
	}
	return NST_OK;
}

static int earlier_call(uint32_t a, uint32_t b, void *arg)
{
	const uint32_t *call = arg;
	return (call[a] > call[b]) - (call[a] < call[b]);
}

static struct nst_cell col_cell(const struct nst_col *col, size_t row)
{
	return nst_int_or_null(nst_col_or_null(col, row));
}

static struct nst_cell kind_cell(struct nst_ctx *ctx, const int64_t *col, size_t row)
{
	int64_t k = at(col, row);
	return nst_text(k == NST_NULL_I64 ? NULL : nst_db_enum_label(ctx->db, MEM_KIND, k));
}

static enum nst_status emit(struct nst_ctx *ctx, const struct nst_sink *out,
			    const struct nst_mem_ops *m, const struct nst_calls *c, uint32_t i,
			    uint32_t r, bool cpy, struct nst_error *err)
{
	struct nst_cell row[MAXCOLS];
	size_t k = 0;
	int64_t gpid = at(m->gpid, i);
	row[k++] = nst_int(m->t.end[i] - m->t.start[i]);
	row[k++] = nst_int(m->t.start[i]);
	row[k++] = kind_cell(ctx, m->kind[0], i);
	if (cpy)
		row[k++] = kind_cell(ctx, m->kind[1], i);
	row[k++] = col_cell(m->t.bytes, i);
	if (gpid == NST_NULL_I64 && c->gtid)
		gpid = nst_col_at(c->gtid, r);
	row[k++] = gpid == NST_NULL_I64 ? nst_null() : nst_int(nst_pid(gpid));
	row[k++] = col_cell(m->t.device, i);
	row[k++] = col_cell(m->t.context, i);
	/* nsys shows no green context for 0, as cuda_gpu_trace does */
	row[k++] = nst_col_or_null(m->t.green, i) != 0 ? col_cell(m->t.green, i) : nst_null();
	row[k++] = col_cell(m->t.stream, i);
	row[k++] = nst_text(nst_raw_name(ctx, nst_col_at(c->name_id, r)));
	return out->row(out->ctx, row, err);
}

enum nst_status nst_mem_rule_run(struct nst_ctx *ctx, const struct nst_sink *out,
				 const struct nst_mem_rule *rule, struct nst_error *err)
{
	if (!nst_db_has_table(ctx->db, RUNTIME))
		return nst_rule_no_cuda(ctx, err, "runtime");
	if (!nst_db_has_table(ctx->db, rule->table))
		return nst_rule_no_cuda(ctx, err, rule->what);
	bool cpy = strcmp(rule->table, MEMCPY) == 0;
	struct nst_mem_ops m;
	const struct nst_calls *c;
	struct pairs p = { 0 };
	enum nst_status s = nst_require_strings(ctx, err);
	/* nsys joins the filtered operations with main.CUPTI_ACTIVITY_KIND_RUNTIME:
	 * a call outside the filter still names its operation. */
	struct nst_ctx all = nst_ctx_unfiltered(ctx);
	if (!s) s = nst_calls_ids(&all, &c, err);
	if (!s) s = load(ctx, rule->table, &m, err);
	if (!s) s = join(&all, rule, &m, c, &p, err);
	uint32_t *idx = s ? NULL : nst_big_alloc(p.n, sizeof *idx);
	if (!s && !idx)
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (s != NST_OK) {
		pairs_release(&p);
		return s;
	}
	for (size_t k = 0; k < p.n; k++)
		idx[k] = (uint32_t)k;
	/* Equal durations come in the order of the calls, as nsys's join
	 * walks the runtime table. */
	nst_stable_sort(idx, p.n, earlier_call, p.call);
	struct nst_rule_notes notes = { .advice = rule->advice, .noresult = rule->noresult };
	size_t n = nst_rule_top(ctx, idx, p.n, p.dur, &notes);
	s = nst_rule_begin(out, &notes, cpy ? memcpy_cols : memset_cols,
			   cpy ? MAXCOLS : MAXCOLS - 1, err);
	for (size_t k = 0; s == NST_OK && k < n; k++)
		s = emit(ctx, out, &m, c, p.op[idx[k]], p.call[idx[k]], cpy, err);
	pairs_release(&p);
	free(idx);
	return s;
}
