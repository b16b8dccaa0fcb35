#include "reports/kernel_names.h"
#include "reports/gpu_ops.h"

#include <stdlib.h>
#include <string.h>

#include "core/big.h"
#include "core/resize.h"
#include "core/strtab.h"

/* ---- the columns every GPU activity table shares ------------------------- */

enum nst_status nst_gpu_table_load(struct nst_ctx *ctx, const char *table,
				   enum nst_gpu_columns which,
				   struct nst_gpu_table *t, struct nst_error *err)
{
	memset(t, 0, sizeof *t);
	struct nst_events *ev = ctx->ev;
	enum nst_status s = nst_ev_rows(ev, table, &t->n, err);
	if (!s) s = nst_ev_col(ev, table, "bytes", &t->bytes, err);
	if (!s && which >= NST_GPU_TIMES) {
		s = nst_ev_i64(ev, table, "start", &t->start, err);
		if (!s) s = nst_ev_i64(ev, table, "end", &t->end, err);
		t->dur = (struct nst_span){ NULL, t->start, t->end };
	} else if (!s && which == NST_GPU_SPANS) {
		s = nst_ev_durations(ev, table, &t->dur, err);
	}
	if (!s && which == NST_GPU_ALL) {
		s = nst_ev_col(ev, table, "correlationId", &t->corr, err);
		if (!s) s = nst_ev_col(ev, table, "deviceId", &t->device, err);
		if (!s) s = nst_ev_col(ev, table, "contextId", &t->context, err);
		if (!s) s = nst_ev_col(ev, table, "greenContextId", &t->green, err);
		if (!s) s = nst_ev_col(ev, table, "streamId", &t->stream, err);
	}
	if (s != NST_OK)
		return s;
	if (t->n && which >= NST_GPU_SPANS && nst_span_none(&t->dur))
		return nst_fail(err, NST_ERR_DB, "%s: %s lacks start or end",
				nst_db_path(ctx->db), table);
	return NST_OK;
}

/* ---- names ----------------------------------------------------------------- */

/* Keys of the by-id cache: which id space an id belongs to. */
enum { ID_KERNEL, ID_API, ID_MEMCPY, ID_MEMSET };

enum nst_status nst_op_names_init(struct nst_op_names *nm, struct nst_error *err)
{
	memset(nm, 0, sizeof *nm);
	nm->cap = 64;
	nm->text = malloc(nm->cap * sizeof *nm->text);
	if (!nm->text || nst_map_init(&nm->by_text, 64) || nst_map_init(&nm->by_id, 64)) {
		nst_op_names_release(nm);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	nm->text[0] = NULL;
	nm->n = 1;
	for (int k = 0; k < 4; k++)
		for (int i = 0; i < NST_OP_MEMO; i++)
			nm->memo[k][i].num = -1;
	return NST_OK;
}

void nst_op_names_release(struct nst_op_names *nm)
{
	nst_map_release(&nm->by_text);
	nst_map_release(&nm->by_id);
	for (int k = 0; k < 4; k++)
		free(nm->dense[k]);
	free(nm->text);
	memset(nm, 0, sizeof *nm);
}

static uint64_t hash_text(const char *s)
{
	return nst_hash_text(s, strlen(s));
}

/* The number of text, taken from the next free one when new.  Texts with
 * the same hash sit at probes 0, 1, 2... of that hash. */
static int64_t intern(struct nst_op_names *nm, const char *s)
{
	if (!s)
		return 0;
	if (nm->n == nm->cap) {
		const char **t = realloc(nm->text, 2 * nm->cap * sizeof *t);
		if (!t)
			return -1;
		nm->text = t;
		nm->cap *= 2;
	}
	int64_t h = (int64_t)hash_text(s);
	for (int64_t probe = 0;; probe++) {
		uint32_t num;
		bool fresh;
		if (nst_map_get_or_put(&nm->by_text, h, probe, (uint32_t)nm->n, &num, &fresh))
			return -1;
		if (fresh) {
			nm->text[nm->n] = s;
			return (int64_t)nm->n++;
		}
		if (strcmp(nm->text[num], s) == 0)
			return num;
	}
}

/* Enum values (copy kinds) below this are cached in an array. */
#define DENSE_ENUM_MAX 1024

/* The array slot that caches (space, id), allocated whole on first use;
 * NULL for what the array does not cover (or no memory), which the map
 * then serves.  Names of strings go by their string slot, so the array is
 * as long as StringIds, whatever its ids. */
static uint32_t *dense_slot(struct nst_ctx *ctx, struct nst_op_names *nm, int space, int64_t id)
{
	bool text = space == ID_KERNEL || space == ID_API;
	int64_t key = text ? nst_db_string_slot(ctx->db, id) : id;
	size_t n = text ? nst_db_string_slots(ctx->db) : DENSE_ENUM_MAX;
	if (key < 0 || (uint64_t)key >= n)
		return NULL;
	if (!nm->dense[space]) {
		if (!(nm->dense[space] = nst_big_zalloc(n, sizeof *nm->dense[space])))
			return NULL;
		nm->ndense[space] = n;
	}
	return (uint64_t)key < nm->ndense[space] ? &nm->dense[space][key] : NULL;
}

/* Sets *name to the name of id (NULL for SQL NULL); -1 when out of memory. */
typedef int (*name_fn)(struct nst_ctx *ctx, int64_t id, const char **name);

/* Looks (space, id) up in the cache, else interns name_of(ctx, id). */
static int64_t lookup_id(struct nst_ctx *ctx, struct nst_op_names *nm, int space,
			 int64_t id, name_fn name_of)
{
	uint32_t *slot = dense_slot(ctx, nm, space, id), hit;
	if (slot && *slot)
		return (int64_t)*slot - 1;
	if (!slot && nst_map_get(&nm->by_id, space, id, &hit))
		return (int64_t)hit - 1;
	const char *name;
	if (name_of(ctx, id, &name))
		return -1;
	int64_t num = intern(nm, name);
	if (num < 0)
		return -1;
	bool fresh;
	if (slot)
		*slot = (uint32_t)(num + 1);
	else if (nst_map_get_or_put(&nm->by_id, space, id, (uint32_t)(num + 1), &hit, &fresh))
		return -1;
	return num;
}

static int64_t intern_id(struct nst_ctx *ctx, struct nst_op_names *nm, int space,
			 int64_t id, name_fn name_of)
{
	struct nst_op_memo *m = &nm->memo[space][(uint64_t)id % NST_OP_MEMO];
	if (m->num >= 0 && m->id == id)
		return m->num;
	int64_t num = lookup_id(ctx, nm, space, id, name_of);
	if (num >= 0)
		*m = (struct nst_op_memo){ id, num };
	return num;
}

static int kernel_name(struct nst_ctx *ctx, int64_t sid, const char **name)
{
	*name = sid == NST_NULL_I64 ? NULL : nst_kernel_name_text(ctx, sid);
	return 0;
}

static int api_name(struct nst_ctx *ctx, int64_t sid, const char **name)
{
	*name = sid == NST_NULL_I64 ? NULL : nst_api_name(ctx, sid);
	return 0;
}

/* '[CUDA memcpy ' || label || ']': NULL when the kind has no label. */
static int memcpy_name(struct nst_ctx *ctx, int64_t kind, const char **name)
{
	const char *label = kind == NST_NULL_I64 ? NULL
			  : nst_db_enum_label(ctx->db, "ENUM_CUDA_MEMCPY_OPER", kind);
	*name = label ? nst_arena_printf(ctx->arena, "[CUDA memcpy %s]", label) : NULL;
	return label && !*name ? -1 : 0;
}

static int memset_name(struct nst_ctx *ctx, int64_t unused, const char **name)
{
	(void)ctx;
	(void)unused;
	*name = "[CUDA memset]";
	return 0;
}

int64_t nst_op_name_kernel(struct nst_ctx *ctx, struct nst_op_names *nm, int64_t sid)
{
	return intern_id(ctx, nm, ID_KERNEL, sid, kernel_name);
}

int64_t nst_op_name_api(struct nst_ctx *ctx, struct nst_op_names *nm, int64_t sid)
{
	return intern_id(ctx, nm, ID_API, sid, api_name);
}

int64_t nst_op_name_memcpy(struct nst_ctx *ctx, struct nst_op_names *nm, int64_t kind)
{
	return intern_id(ctx, nm, ID_MEMCPY, kind, memcpy_name);
}

int64_t nst_op_name_memset(struct nst_op_names *nm)
{
	return intern_id(NULL, nm, ID_MEMSET, 0, memset_name);
}

const char *nst_label_cached(struct nst_db *db, struct nst_label_cache *c, int64_t id)
{
	if (id == NST_NULL_I64)
		return NULL;
	if (id < 0 || id >= 32)
		return nst_db_enum_label(db, c->table, id);
	if (!c->known[id]) {
		c->label[id] = nst_db_enum_label(db, c->table, id);
		c->known[id] = true;
	}
	return c->label[id];
}

/* ---- rows to summarize --------------------------------------------------- */

const char *nst_op_cat_label(enum nst_op_cat cat)
{
	static const char *const label[] = { "CUDA_API", "CUDA_KERNEL", "MEMORY_OPER" };
	return label[cat];
}

void nst_op_rows_release(struct nst_op_rows *r)
{
	free(r->name);
	free(r->value);
	free(r->cat);
	memset(r, 0, sizeof *r);
}

/* A set of kernels alone measures its rows by the table's durations
 * (spans: row i is the table's row i) instead of a value each, and needs
 * no category a row; rows of another table after them turn the spans
 * into values and categories. */
static int spans_to_values(struct nst_op_rows *r)
{
	if (nst_span_none(&r->span))
		return 0;
	r->value = nst_big_alloc(r->cap, sizeof *r->value);
	r->cat = nst_big_alloc(r->cap, sizeof *r->cat);
	if (!r->value || !r->cat)
		return -1;
	for (size_t i = 0; i < r->n; i++)
		r->value[i] = nst_span_at(&r->span, i);
	memset(r->cat, NST_OP_KERNEL, r->n);
	r->span = (struct nst_span){ NULL, NULL, NULL };
	return 0;
}

static enum nst_status reserve(struct nst_op_rows *r, size_t more, bool spans,
			       struct nst_error *err)
{
	size_t cap = r->n + more;
	if ((!spans && spans_to_values(r)) ||
	    (cap > r->cap && (NST_RESIZE(r->name, cap) ||
			      (!spans && (NST_RESIZE(r->cat, cap) || NST_RESIZE(r->value, cap))))))
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	r->cap = cap > r->cap ? cap : r->cap;
	return NST_OK;
}

static void push(struct nst_op_rows *r, int64_t name, int64_t value, enum nst_op_cat cat)
{
	r->name[r->n] = (int32_t)name;
	if (r->value) {
		r->value[r->n] = value;
		r->cat[r->n] = (uint8_t)cat;
	}
	r->n++;
}

static enum nst_status no_memory(struct nst_error *err)
{
	return nst_fail(err, NST_ERR_NOMEM, "out of memory");
}

enum nst_status nst_op_rows_add_api(struct nst_ctx *ctx, struct nst_op_rows *r,
				    struct nst_op_names *nm, struct nst_error *err)
{
	if (!nst_db_has_table(ctx->db, RUNTIME))
		return NST_OK;
	const struct nst_calls *c;
	struct nst_span dur;
	enum nst_status s = nst_calls_durations(ctx, &c, &dur, err);
	if (s == NST_OK)
		s = reserve(r, c->ncalls, false, err);
	for (size_t i = 0; s == NST_OK && i < c->ncalls; i++) {
		uint32_t row = nst_call_row(c, i);
		int64_t name = nst_op_name_api(ctx, nm, nst_col_at(c->name_id, row));
		if (name < 0)
			return no_memory(err);
		push(r, name, nst_span_at(&dur, row), NST_OP_API);
	}
	return s;
}

enum nst_status nst_op_rows_add_kernels(struct nst_ctx *ctx, struct nst_op_rows *r,
					struct nst_op_names *nm, struct nst_error *err)
{
	struct nst_gpu_table t;
	const struct nst_col *sid;
	enum nst_status s = nst_gpu_table_load(ctx, KERNEL, NST_GPU_SPANS, &t, err);
	if (s != NST_OK || t.n == 0)
		return s;
	s = nst_report_kernel_name_ids(ctx, &sid, err);
	bool spans = !r->value && nst_span_none(&r->span);
	if (s == NST_OK)
		s = reserve(r, t.n, spans, err);
	if (s == NST_OK && spans)
		r->span = t.dur;
	for (size_t i = 0; s == NST_OK && i < t.n; i++) {
		int64_t name = sid ? nst_op_name_kernel(ctx, nm, nst_col_at(sid, i)) : 0;
		if (name < 0)
			return no_memory(err);
		push(r, name, nst_span_at(&t.dur, i), NST_OP_KERNEL);
	}
	return s;
}

static int64_t measure(const struct nst_gpu_table *t, size_t i, enum nst_op_measure m)
{
	return m == NST_OP_DURATION ? nst_span_at(&t->dur, i) : nst_col_at(t->bytes, i);
}

/* The columns a memory summary reads of its table. */
static enum nst_gpu_columns measured(enum nst_op_measure m)
{
	return m == NST_OP_DURATION ? NST_GPU_SPANS : NST_GPU_BYTES;
}

enum nst_status nst_op_rows_add_memcpy(struct nst_ctx *ctx, struct nst_op_rows *r,
				       struct nst_op_names *nm,
				       enum nst_op_measure m, struct nst_error *err)
{
	struct nst_gpu_table t;
	const struct nst_col *kind;
	enum nst_status s = nst_gpu_table_load(ctx, MEMCPY, measured(m), &t, err);
	if (!s) s = nst_ev_col(ctx->ev, MEMCPY, "copyKind", &kind, err);
	if (s != NST_OK || t.n == 0 || !kind)
		return s;
	if (m == NST_OP_BYTES && !t.bytes)
		return nst_fail(err, NST_ERR_DB, "%s: %s lacks bytes", nst_db_path(ctx->db), MEMCPY);
	if ((s = reserve(r, t.n, false, err)) != NST_OK)
		return s;
	for (size_t i = 0; i < t.n; i++) {
		int64_t name = nst_op_name_memcpy(ctx, nm, nst_col_at(kind, i));
		if (name < 0)
			return no_memory(err);
		if (name > 0) /* nsys joins the ENUM table: no label, no row */
			push(r, name, measure(&t, i, m), NST_OP_MEMORY);
	}
	return NST_OK;
}

enum nst_status nst_op_rows_add_memset(struct nst_ctx *ctx, struct nst_op_rows *r,
				       struct nst_op_names *nm,
				       enum nst_op_measure m, struct nst_error *err)
{
	struct nst_gpu_table t;
	enum nst_status s = nst_gpu_table_load(ctx, MEMSET, measured(m), &t, err);
	if (s != NST_OK || t.n == 0)
		return s;
	if (m == NST_OP_BYTES && !t.bytes)
		return nst_fail(err, NST_ERR_DB, "%s: %s lacks bytes", nst_db_path(ctx->db), MEMSET);
	int64_t name = nst_op_name_memset(nm);
	if (name < 0)
		return no_memory(err);
	if ((s = reserve(r, t.n, false, err)) != NST_OK)
		return s;
	for (size_t i = 0; i < t.n; i++)
		push(r, name, measure(&t, i, m), NST_OP_MEMORY);
	return NST_OK;
}

/* ---- summaries by name ----------------------------------------------------- */

struct summary_order {
	const struct nst_op_summary *s;
	const int64_t *group_name; /* by group */
	const uint32_t *rank;      /* by name number: its place in BINARY order */
	const int64_t *const *extra;
	size_t nextra;
	enum nst_op_order how;
};

static int cmp_i64(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

/* Equal totals by count (NST_ORDER_TOTAL_COUNT_NAME), name, then the
 * extra keys. */
static int cmp_ties(uint32_t a, uint32_t b, void *arg)
{
	const struct summary_order *o = arg;
	const struct nst_dist *da = &o->s->d[a], *db = &o->s->d[b];
	if (o->how == NST_ORDER_TOTAL_COUNT_NAME && da->n != db->n)
		return da->n < db->n ? -1 : 1;
	int c = cmp_i64(o->rank[o->group_name[a]], o->rank[o->group_name[b]]);
	uint32_t ra = o->s->g.first[a], rb = o->s->g.first[b];
	for (size_t k = 0; !c && k < o->nextra; k++)
		c = cmp_i64(o->extra[k][ra], o->extra[k][rb]);
	return c;
}

/* SQLite's BINARY order of the names; NULL (number 0) sorts first. */
static int cmp_names(uint32_t a, uint32_t b, void *arg)
{
	const struct nst_op_names *nm = arg;
	if (!a || !b)
		return (a != 0) - (b != 0);
	return strcmp(nm->text[a], nm->text[b]);
}

static uint32_t *name_ranks(const struct nst_op_names *nm)
{
	uint32_t *by_rank = malloc(nm->n * sizeof *by_rank);
	uint32_t *rank = malloc(nm->n * sizeof *rank);
	if (!by_rank || !rank) {
		free(by_rank);
		free(rank);
		return NULL;
	}
	for (size_t i = 0; i < nm->n; i++)
		by_rank[i] = (uint32_t)i;
	nst_stable_sort(by_rank, nm->n, cmp_names, (void *)nm);
	for (size_t i = 0; i < nm->n; i++)
		rank[by_rank[i]] = (uint32_t)i;
	free(by_rank);
	return rank;
}

/* nsys takes the category as a bare column beside max(): SQLite gives it
 * from the first row of the group that holds the maximum. */
static void group_categories(const struct nst_op_rows *r, struct nst_op_summary *s)
{
	if (!r->cat) { /* kernels alone */
		memset(s->cat, NST_OP_KERNEL, s->g.n);
		return;
	}
	for (size_t k = 0; k < s->g.n; k++) {
		uint32_t best = s->g.order[s->g.start[k]];
		for (size_t i = s->g.start[k] + 1; i < s->g.start[k + 1]; i++)
			if (nst_op_value(r, s->g.order[i]) > nst_op_value(r, best))
				best = s->g.order[i];
		s->cat[k] = r->cat[best];
	}
}

static enum nst_status order_groups(const struct nst_op_rows *r,
				    const struct nst_op_names *nm,
				    const int64_t *const *extra, size_t nextra,
				    enum nst_op_order how, struct nst_op_summary *s,
				    struct nst_error *err)
{
	int64_t *group_name = nst_big_alloc(s->n, sizeof *group_name);
	uint32_t *rank = name_ranks(nm);
	enum nst_status st = group_name && rank ? NST_OK : no_memory(err);
	for (size_t k = 0; st == NST_OK && k < s->n; k++) {
		group_name[k] = r->name[s->g.first[k]];
		s->order[k] = (uint32_t)k;
	}
	struct summary_order o = { s, group_name, rank, extra, nextra, how };
	if (st == NST_OK)
		st = nst_sort_by_total(s->order, s->n, s->d, cmp_ties, &o, err);
	free(group_name);
	free(rank);
	return st;
}

enum nst_status nst_op_summarize(const struct nst_op_rows *r,
				 const struct nst_op_names *nm,
				 const int64_t *const *extra, size_t nextra,
				 enum nst_op_order how, bool median,
				 struct nst_op_summary *s, struct nst_error *err)
{
	memset(s, 0, sizeof *s);
	/* the name numbers, 32-bit, as a column of the events layer stores them */
	struct nst_col cols[8] = { { .i32 = r->name } };
	const struct nst_col *keys[8] = { &cols[0] };
	if (nextra > 7)
		return nst_fail(err, NST_ERR_INTERNAL, "too many grouping keys");
	for (size_t k = 0; k < nextra; k++) {
		cols[1 + k] = nst_col_of(extra[k]);
		keys[1 + k] = &cols[1 + k];
	}
	enum nst_status st = nst_group_cols(keys, 1 + nextra, NULL, r->n, &s->g, err);
	if (st == NST_OK && r->value)
		st = median ? nst_group_dists(&s->g, r->value, &s->d, err)
			       : nst_group_moments(&s->g, r->value, &s->d, err);
	else if (st == NST_OK)
		st = nst_group_durations(&s->g, &r->span, median, &s->d, err);
	if (st != NST_OK) {
		nst_op_summary_release(s);
		return st;
	}
	s->n = s->g.n;
	s->cat = nst_big_alloc(s->n, 1);
	s->order = nst_big_alloc(s->n, sizeof *s->order);
	if (!s->cat || !s->order)
		st = no_memory(err);
	if (st == NST_OK) {
		group_categories(r, s);
		st = order_groups(r, nm, extra, nextra, how, s, err);
	}
	if (st != NST_OK)
		nst_op_summary_release(s);
	return st;
}

void nst_op_summary_release(struct nst_op_summary *s)
{
	nst_groups_release(&s->g);
	free(s->d);
	free(s->cat);
	free(s->order);
	memset(s, 0, sizeof *s);
}

/* ---- one summary from collection to output ------------------------------ */

static enum nst_status collect(struct nst_ctx *ctx, unsigned sources,
			       enum nst_op_measure m, struct nst_op_set *set,
			       struct nst_error *err)
{
	struct nst_op_names *nm = &set->names;
	struct nst_op_rows *r = &set->rows;
	enum nst_status s = NST_OK;
	if (!s && (sources & NST_SRC_API))
		s = nst_op_rows_add_api(ctx, r, nm, err);
	if (!s && (sources & NST_SRC_KERNEL))
		s = nst_op_rows_add_kernels(ctx, r, nm, err);
	if (!s && (sources & NST_SRC_MEMCPY))
		s = nst_op_rows_add_memcpy(ctx, r, nm, m, err);
	if (!s && (sources & NST_SRC_MEMSET))
		s = nst_op_rows_add_memset(ctx, r, nm, m, err);
	return s;
}

static enum nst_status op_set_build(struct nst_ctx *ctx, unsigned sources,
				    enum nst_op_measure m, const int64_t *const *extra,
				    size_t nextra, enum nst_op_order how, bool median,
				    struct nst_op_set *set, struct nst_error *err)
{
	memset(set, 0, sizeof *set);
	enum nst_status s = nst_op_names_init(&set->names, err);
	if (s == NST_OK)
		s = collect(ctx, sources, m, set, err);
	if (s == NST_OK)
		s = nst_op_summarize(&set->rows, &set->names, extra, nextra, how, median,
				     &set->sum, err);
	if (s != NST_OK)
		nst_op_set_release(set);
	return s;
}

enum nst_status nst_op_set_build(struct nst_ctx *ctx, unsigned sources,
				 enum nst_op_measure m, const int64_t *const *extra,
				 size_t nextra, enum nst_op_order how,
				 struct nst_op_set *set, struct nst_error *err)
{
	return op_set_build(ctx, sources, m, extra, nextra, how, true, set, err);
}

enum nst_status nst_kernels_by_name(struct nst_ctx *ctx, bool median,
				    struct nst_op_set *set, struct nst_error *err)
{
	enum nst_status s = nst_require_strings(ctx, err);
	if (s != NST_OK)
		return s;
	if (!nst_db_has_table(ctx->db, KERNEL))
		return nst_nodata(ctx, err, "CUDA kernel data.");
	return op_set_build(ctx, NST_SRC_KERNEL, NST_OP_DURATION, NULL, 0,
			    NST_ORDER_TOTAL_COUNT_NAME, median, set, err);
}

void nst_op_set_release(struct nst_op_set *set)
{
	nst_op_summary_release(&set->sum);
	nst_op_rows_release(&set->rows);
	nst_op_names_release(&set->names);
}

const char *nst_op_group_name(const struct nst_op_set *set, uint32_t grp)
{
	return nst_op_name(&set->names, set->rows.name[set->sum.g.first[grp]]);
}

enum nst_status nst_op_emit_summary(struct nst_ctx *ctx, const struct nst_sink *out,
				    const char *count_label,
				    const char *const *tail_cols, size_t ntail,
				    nst_op_tail_fn tail, const struct nst_op_set *set,
				    struct nst_error *err)
{
	const struct nst_op_summary *s = &set->sum;
	struct nst_summary_row *rows = malloc((s->n ? s->n : 1) * sizeof *rows);
	if (!rows)
		return no_memory(err);
	for (size_t k = 0; k < s->n; k++) {
		uint32_t grp = s->order[k];
		rows[k].d = &s->d[grp];
		tail(ctx, set, grp, rows[k].tail);
	}
	enum nst_status st = nst_emit_summary(out, count_label, tail_cols, ntail,
					      rows, s->n, err);
	free(rows);
	return st;
}

void nst_op_category_tail(struct nst_ctx *ctx, const struct nst_op_set *set,
			  uint32_t grp, struct nst_cell *tail)
{
	(void)ctx;
	tail[0] = nst_text(nst_op_cat_label(set->sum.cat[grp]));
	tail[1] = nst_text(nst_op_group_name(set, grp));
}
