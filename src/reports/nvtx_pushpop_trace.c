/* nvtx_pushpop_trace: every push/pop NVTX range with its place in its
 * thread's stack of ranges (nvtx_tree.h says how ranges nest).
 *
 * A range whose domain was created on several threads of its process has
 * several "domain:name" names in nvtx_sum; nsys 2024.2.3 then fails this
 * report (UNIQUE constraint failed: NVTX_PARENT.rangeId).  nstats lists
 * the range once, named after the first of those domain rows
 * (docs/deviations.md, D16). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/nvtx.h"
#include "reports/nvtx_tree.h"

/* The push/pop ranges, one per NVTX_EVENTS row, as nvtx_tree reads them. */
struct ranges {
	struct nst_nvtx_tree_in in;
	int64_t *start, *end, *thread, *id;
	const char **name;
};

static void ranges_release(struct ranges *r)
{
	free(r->start);
	free(r->end);
	free(r->thread);
	free(r->id);
	free(r->name);
}

static int ranges_alloc(struct ranges *r, size_t n)
{
	size_t k = n ? n : 1;
	r->start = malloc(k * sizeof *r->start);
	r->end = malloc(k * sizeof *r->end);
	r->thread = malloc(k * sizeof *r->thread);
	r->id = malloc(k * sizeof *r->id);
	r->name = malloc(k * sizeof *r->name);
	return r->start && r->end && r->thread && r->id && r->name ? 0 : -1;
}

/* The named push/pop ranges, each named once (nst_nvtx_named_once). */
static enum nst_status collect(const struct nst_nvtx *nv, const int64_t *rowid,
			       const struct nst_nvtx_named *named, struct ranges *r,
			       struct nst_error *err)
{
	if (ranges_alloc(r, named->n))
		return nst_fail(err, NST_ERR_NOMEM, "out of memory listing NVTX ranges");
	size_t n = 0;
	for (size_t k = 0; k < named->n; k++) {
		uint32_t row = named->row[k];
		r->start[n] = nv->start[row];
		r->end[n] = nst_nvtx_end(nv, row);
		r->thread[n] = nst_col_or_null(nv->gtid, row);
		r->id[n] = rowid ? rowid[row] : (int64_t)row + 1;
		r->name[n] = nst_nvtx_name_text(named, k);
		n++;
	}
	r->in = (struct nst_nvtx_tree_in){ n, r->start, r->end, r->thread, r->id };
	return NST_OK;
}

/* ---- output -------------------------------------------------------------- */

/* A growing text buffer, reused from row to row. */
struct text {
	char *s;
	size_t len, cap;
};

static int text_put(struct text *t, const char *s, size_t len)
{
	if (t->len + len + 1 > t->cap) {
		size_t cap = (t->len + len + 1) * 2;
		char *p = realloc(t->s, cap);
		if (!p)
			return -1;
		t->s = p;
		t->cap = cap;
	}
	memcpy(t->s + t->len, s, len);
	t->len += len;
	t->s[t->len] = '\0';
	return 0;
}

struct emitter {
	const struct nst_sink *out;
	const struct ranges *r;
	const struct nst_nvtx_tree *t;
	uint32_t *stack;        /* max_level + 1 */
	struct text ids, tree;  /* RangeStack, NameTree */
};

/* ":top:...:id" */
static int range_stack(struct emitter *e, uint32_t x)
{
	size_t depth = nst_nvtx_tree_stack(e->t, x, e->stack);
	e->ids.len = 0;
	for (size_t k = 0; k < depth; k++) {
		char num[24];
		int len = snprintf(num, sizeof num, ":%lld", (long long)e->r->id[e->stack[k]]);
		if (text_put(&e->ids, num, (size_t)len))
			return -1;
	}
	return 0;
}

/* The name behind two dashes per level; no name, no tree (SQL's ||). */
static const char *name_tree(struct emitter *e, uint32_t x)
{
	const char *name = e->r->name[x];
	if (!name)
		return NULL;
	e->tree.len = 0;
	for (uint32_t l = 0; l < e->t->level[x]; l++)
		if (text_put(&e->tree, "--", 2))
			return NULL;
	return text_put(&e->tree, name, strlen(name)) ? NULL : e->tree.s;
}

static enum nst_status emit_range(struct emitter *e, uint32_t x, struct nst_error *err)
{
	const struct ranges *r = e->r;
	const struct nst_nvtx_tree *t = e->t;
	int64_t dur = r->end[x] - r->start[x], gtid = r->thread[x];
	uint32_t p = t->parent[x];
	if (range_stack(e, x))
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	const char *tree = name_tree(e, x);
	if (r->name[x] && !tree)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	struct nst_cell cells[14] = {
		nst_int(r->start[x]),
		nst_int(r->end[x]),
		nst_int(dur),
		nst_int(t->child_dur[x]),
		nst_int(dur - t->child_dur[x]),
		nst_text(r->name[x]),
		gtid == NST_NULL_I64 ? nst_null() : nst_int(nst_pid(gtid)),
		gtid == NST_NULL_I64 ? nst_null() : nst_int(nst_tid(gtid)),
		nst_int(t->level[x]),
		nst_int(t->nchild[x]),
		nst_int(r->id[x]),
		p == NST_NVTX_NO_PARENT ? nst_null() : nst_int(r->id[p]),
		nst_text(e->ids.s),
		nst_text(tree),
	};
	return e->out->row(e->out->ctx, cells, err);
}

static enum nst_status emit(const struct nst_sink *out, const struct ranges *r,
			    const struct nst_nvtx_tree *t, const uint32_t *order,
			    size_t nrows, struct nst_error *err)
{
	static const char *const cols[] = {
		"Start:ts_ns", "End:ts_ns", "Duration:dur_ns", "DurChild:dur_ns",
		"DurNonChild:dur_ns", "Name", "PID", "TID", "Lvl", "NumChild",
		"RangeId", "ParentId", "RangeStack", "NameTree",
	};
	struct emitter e = { .out = out, .r = r, .t = t };
	e.stack = malloc(((size_t)t->max_level + 1) * sizeof *e.stack);
	enum nst_status s = NST_OK;
	if (!e.stack)
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	else s = out->begin(out->ctx, cols, 14, err);
	for (size_t k = 0; s == NST_OK && k < nrows; k++)
		s = emit_range(&e, order[k], err);
	free(e.stack);
	free(e.ids.s);
	free(e.tree.s);
	return s;
}

/* ---- the report ---------------------------------------------------------- */

static enum nst_status trace(const struct nst_sink *out, const struct ranges *r,
			     struct nst_error *err)
{
	struct nst_nvtx_tree t;
	uint32_t *order = NULL;
	size_t nrows = 0;
	enum nst_status s = nst_nvtx_tree_build(&r->in, &t, err);
	if (s != NST_OK)
		return s;
	s = nst_nvtx_tree_order(&r->in, &t, &order, &nrows, err);
	if (s == NST_OK)
		s = emit(out, r, &t, order, nrows, err);
	free(order);
	nst_nvtx_tree_release(&t);
	return s;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	struct nst_nvtx nv;
	struct nst_nvtx_named named;
	struct ranges r = { 0 };
	const int64_t *rowid = NULL;
	enum nst_status s = nst_nvtx_check(ctx, err);
	if (!s) s = nst_nvtx_load(ctx, &nv, err);
	if (!s) s = nst_ev_i64(ctx->ev, NVTX, "rowid", &rowid, err);
	if (!s) s = nst_nvtx_name_ranges(ctx, &nv, NST_NVTX_STYLE_BIT(NST_NVTX_PUSHPOP),
					 &named, err);
	if (s != NST_OK)
		return s;
	nst_nvtx_named_once(&named);
	s = collect(&nv, rowid, &named, &r, err);
	nst_nvtx_named_release(&named);
	if (s == NST_OK)
		s = trace(out, &r, err);
	ranges_release(&r);
	return s;
}

static const struct nst_need needs[] = {
	{ NVTX, "start", false }, { NVTX, "end", false },
	{ NVTX, "eventType", false }, { NVTX, "globalTid", false },
	{ NVTX, "textId", false }, { NVTX, "domainId", false },
	{ NVTX, "text", true }, { NVTX, "rowid", false },
	{ NULL, NULL, false },
};

const struct nst_report nst_report_nvtx_pushpop_trace = {
	.name = "nvtx_pushpop_trace",
	.title = "NVTX Push/Pop Range Trace",
	.help = "Every push/pop NVTX range, by start: its start, end and duration,\n"
		"the time spent in its direct children and outside them, its name\n"
		"(\"domain:name\" for a named domain), process and thread, its level\n"
		"in the thread's range stack (0 at the top), number of children,\n"
		"id (the NVTX_EVENTS rowid), parent's id, the ids of the stack down\n"
		"to it (\":1:4:9\") and its name indented by two dashes a level. A\n"
		"range's parent is the shortest range of its thread that contains\n"
		"it; ranges with the same thread, start and end are left out, with\n"
		"what they contain, as nsys does. A range that was never popped\n"
		"runs to the last NVTX timestamp.",
	.args = (const char *const[]){ NULL },
	.needs = needs,
	.run = run,
	.flags = NST_REPORT_EVENT_ROWS,
};
