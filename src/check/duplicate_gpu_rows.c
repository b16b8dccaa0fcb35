/* GPU rows that repeat another's (device, stream, start, end): a stream runs
 * one operation at a time, so a second row with the same span is the same
 * work written twice, and every sum over GPU rows counts it twice. */
#include <stdlib.h>

#include "core/search.h"
#include "core/sqlstat.h"

#include "check/launches.h"
#include "core/big.h"

struct span {
	int64_t dev, stream, start, end;
	uint32_t table, row; /* table: index in chk_gpu_tables */
};

static int by_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	if (x->dev != y->dev) return x->dev < y->dev ? -1 : 1;
	if (x->stream != y->stream) return x->stream < y->stream ? -1 : 1;
	if (x->start != y->start) return x->start < y->start ? -1 : 1;
	if (x->end != y->end) return x->end < y->end ? -1 : 1;
	if (x->table != y->table) return x->table < y->table ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

static bool same_span(const struct span *x, const struct span *y)
{
	return x->dev == y->dev && x->stream == y->stream && x->start == y->start &&
	       x->end == y->end;
}

/* The columns of the three tables. */
struct gpu_cols {
	size_t rows[3];
	const struct nst_col *dev[3], *stream[3], *start[3], *end[3];
};

static enum nst_status read_cols(struct chk_ctx *ctx, struct gpu_cols *g, struct nst_error *err)
{
	enum nst_status s = NST_OK;
	for (size_t t = 0; s == NST_OK && t < 3; t++) {
		const char *tb = chk_gpu_tables[t];
		s = chk_rows(ctx, tb, &g->rows[t], err);
		if (!s) s = chk_col(ctx, tb, "deviceId", &g->dev[t], err);
		if (!s) s = chk_col(ctx, tb, "streamId", &g->stream[t], err);
		if (!s) s = chk_col(ctx, tb, "start", &g->start[t], err);
		if (!s) s = chk_col(ctx, tb, "end", &g->end[t], err);
		if (!g->start[t] || !g->end[t])
			g->rows[t] = 0;
	}
	return s;
}

static struct span span_at(const struct gpu_cols *g, size_t t, size_t i)
{
	return (struct span){ chk_at(g->dev[t], i), chk_at(g->stream[t], i),
			      nst_col_at(g->start[t], i), nst_col_at(g->end[t], i),
			      (uint32_t)t, (uint32_t)i };
}

/* As an int64, so that the sorted hashes are searched with nst_lower_bound. */
static int64_t span_hash(const struct span *s)
{
	uint64_t h = (uint64_t)s->dev * 0x9E3779B97F4A7C15ull;
	h = (h ^ (uint64_t)s->stream) * 0xBF58476D1CE4E5B9ull;
	h = (h ^ (uint64_t)s->start) * 0x94D049BB133111EBull;
	h = (h ^ (uint64_t)s->end) * 0x9E3779B97F4A7C15ull;
	return (int64_t)(h ^ h >> 29);
}

/* The hashes that two or more rows have, sorted: a row whose span repeats
 * another's has one of them (so do a few others, whose hashes collide). */
static enum nst_status repeated_hashes(const struct gpu_cols *g, size_t total, int64_t **out,
				       size_t *n, struct nst_error *err)
{
	int64_t *h = nst_big_alloc(total, sizeof *h);
	if (!h)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	size_t k = 0;
	for (size_t t = 0; t < 3; t++)
		for (size_t i = 0; i < g->rows[t]; i++) {
			struct span s = span_at(g, t, i);
			h[k++] = span_hash(&s);
		}
	nst_sort_i64(h, k);
	*n = 0;
	for (size_t i = 1; i < k; i++)
		if (h[i] == h[i - 1] && (*n == 0 || h[*n - 1] != h[i]))
			h[(*n)++] = h[i];
	*out = h;
	return NST_OK;
}

static bool among(const int64_t *sorted, size_t n, int64_t v)
{
	size_t at = nst_lower_bound(sorted, n, sizeof *sorted, 0, v);
	return at < n && sorted[at] == v;
}

/* ---- tables in start order: one merged pass ---------------------------------- */

static bool in_start_order(const struct gpu_cols *g)
{
	for (size_t t = 0; t < 3; t++)
		for (size_t i = 1; i < g->rows[t]; i++)
			if (nst_col_at(g->start[t], i) < nst_col_at(g->start[t], i - 1))
				return false;
	return true;
}

/* The table whose next row starts first, or 3 when all are done. */
static size_t next_table(const struct gpu_cols *g, const size_t at[3])
{
	size_t best = 3;
	for (size_t t = 0; t < 3; t++)
		if (at[t] < g->rows[t] &&
		    (best == 3 || nst_col_at(g->start[t], at[t]) <
					  nst_col_at(g->start[best], at[best])))
			best = t;
	return best;
}

static enum nst_status append(struct span **out, size_t *n, size_t *cap, const struct span *sp,
			      struct nst_error *err)
{
	if (*n == *cap) {
		size_t grown = *cap ? 2 * *cap : 64;
		struct span *p = realloc(*out, grown * sizeof *p);
		if (!p)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		*out = p;
		*cap = grown;
	}
	(*out)[(*n)++] = *sp;
	return NST_OK;
}

/* Rows of one start, across the tables: those whose span another row of
 * the run has (every row, when the run is long). */
static enum nst_status take_run(const struct span *run, size_t k, struct span **out, size_t *n,
				size_t *cap, struct nst_error *err)
{
	enum nst_status s = NST_OK;
	for (size_t i = 0; s == NST_OK && i < k; i++) {
		bool twin = k > 16;
		for (size_t j = 0; !twin && j < k; j++)
			twin = j != i && same_span(&run[i], &run[j]);
		if (twin)
			s = append(out, n, cap, &run[i], err);
	}
	return s;
}

/* The rows of equal start being looked at, and what is kept of them. */
struct runs {
	struct span *run, *out;
	size_t k, runcap, n, cap;
};

/* Rows from .. end - 1 of table t, added to the run. */
static enum nst_status add_rows(const struct gpu_cols *g, size_t t, size_t from, size_t end,
				struct runs *r, struct nst_error *err)
{
	enum nst_status s = NST_OK;
	for (size_t i = from; s == NST_OK && i < end; i++) {
		struct span sp = span_at(g, t, i);
		s = append(&r->run, &r->k, &r->runcap, &sp, err);
	}
	return s;
}

/* The run taken (when two or more rows) and emptied. */
static enum nst_status end_run(struct runs *r, struct nst_error *err)
{
	enum nst_status s = r->k > 1 ? take_run(r->run, r->k, &r->out, &r->n, &r->cap, err) : NST_OK;
	r->k = 0;
	return s;
}

/* The first of table t's rows from i on that does not start at `at`. */
static size_t past_start(const struct gpu_cols *g, size_t t, size_t i, int64_t at)
{
	while (i < g->rows[t] && nst_col_at(g->start[t], i) == at)
		i++;
	return i;
}

/* The run of every table's rows that start at `start`, the tables' heads. */
static enum nst_status cross_run(const struct gpu_cols *g, size_t at[3], int64_t start,
				 struct runs *r, struct nst_error *err)
{
	enum nst_status s = NST_OK;
	for (size_t t = 0; s == NST_OK && t < 3; t++) {
		size_t end = past_start(g, t, at[t], start);
		s = add_rows(g, t, at[t], end, r, err);
		at[t] = end;
	}
	return s == NST_OK ? end_run(r, err) : s;
}

/* With every table in start order, equal spans are among the rows of equal
 * start, which a merge of the three tables by start brings together.  The
 * table whose next row starts first runs alone until another's next start
 * (reading its starts only: kernels are most of the rows); a start two
 * tables share makes one run of all their rows of it. */
static enum nst_status merged_candidates(const struct gpu_cols *g, struct span **out, size_t *n,
					 struct nst_error *err)
{
	size_t at[3] = { 0 };
	struct runs r = { 0 };
	enum nst_status s = NST_OK;
	for (size_t t; s == NST_OK && (t = next_table(g, at)) < 3;) {
		int64_t head = nst_col_at(g->start[t], at[t]), bound = 0;
		bool other = false, shared = false;
		for (size_t u = 0; u < 3; u++) {
			if (u == t || at[u] >= g->rows[u])
				continue;
			int64_t h = nst_col_at(g->start[u], at[u]);
			shared = shared || h == head;
			bound = !other || h < bound ? h : bound;
			other = true;
		}
		if (shared) {
			s = cross_run(g, at, head, &r, err);
			continue;
		}
		size_t i = at[t];
		while (s == NST_OK && i < g->rows[t]) {
			int64_t si = nst_col_at(g->start[t], i);
			if (other && si >= bound)
				break;
			size_t j = past_start(g, t, i + 1, si);
			if (j - i > 1 && (s = add_rows(g, t, i, j, &r, err)) == NST_OK)
				s = end_run(&r, err);
			i = j;
		}
		at[t] = i;
	}
	free(r.run);
	*out = r.out;
	*n = r.n;
	return s;
}

/* ---- any order: hashes ------------------------------------------------------------ */

/* Every row whose span may repeat another's: the groups of equal spans
 * are all there, and no other row can join one. */
static enum nst_status collect(struct chk_ctx *ctx, struct span **out, size_t *n,
			       struct nst_error *err)
{
	struct gpu_cols g;
	enum nst_status s = read_cols(ctx, &g, err);
	size_t total = g.rows[0] + g.rows[1] + g.rows[2], nrep = 0;
	int64_t *rep = NULL;
	*n = 0;
	*out = NULL;
	if (s == NST_OK && in_start_order(&g))
		return merged_candidates(&g, out, n, err);
	if (s == NST_OK)
		s = repeated_hashes(&g, total, &rep, &nrep, err);
	if (s == NST_OK && nrep > 0 && !(*out = nst_big_alloc(total, sizeof **out)))
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t t = 0; s == NST_OK && nrep > 0 && t < 3; t++)
		for (size_t i = 0; i < g.rows[t]; i++) {
			struct span sp = span_at(&g, t, i);
			if (among(rep, nrep, span_hash(&sp)))
				(*out)[(*n)++] = sp;
		}
	free(rep);
	return s;
}

static void note_extra(struct chk_ctx *ctx, struct chk_result *r, const struct span *first,
		       const struct span *dup, struct nst_error *err)
{
	const char *tb = chk_gpu_tables[dup->table];
	const struct nst_col *rowid = NULL;
	chk_col(ctx, tb, "rowid", &rowid, err);
	r->count++;
	chk_part_add(r, first->table == dup->table ? tb : "across tables", 1);
	struct chk_example *e = chk_example(r, tb, chk_at(rowid, dup->row));
	chk_num(e, "deviceId", dup->dev);
	chk_num(e, "streamId", dup->stream);
	chk_num(e, "start", dup->start);
	chk_num(e, "end", dup->end);
	chk_text(e, "same as", chk_gpu_tables[first->table]);
}

/* In each group of equal spans, every row after the first is an extra:
 * within its table when an earlier row of the group is of its table,
 * across tables otherwise. */
static void count_extras(struct chk_ctx *ctx, struct chk_result *r, const struct span *sp,
			 size_t n, struct nst_error *err)
{
	for (size_t g = 0; g < n;) {
		size_t end = g + 1;
		while (end < n && same_span(&sp[g], &sp[end]))
			end++;
		for (size_t i = g + 1; i < end; i++) {
			const struct span *first = &sp[g];
			for (size_t j = g; j < i; j++)
				if (sp[j].table == sp[i].table) {
					first = &sp[j];
					break;
				}
			note_extra(ctx, r, first, &sp[i], err);
		}
		g = end;
	}
}

static enum nst_status run(struct chk_ctx *ctx, struct chk_result *r,
			   struct nst_error *err)
{
	if (chk_lacks_all(ctx, r, chk_gpu_tables, 3))
		return NST_OK;
	struct span *sp = NULL;
	size_t n = 0;
	enum nst_status s = collect(ctx, &sp, &n, err);
	if (s == NST_OK && n > 1)
		qsort(sp, n, sizeof *sp, by_span);
	if (s == NST_OK)
		count_extras(ctx, r, sp, n, err);
	free(sp);
	return s;
}

const struct chk_finding chk_duplicate_gpu_rows = {
	.name = "duplicate_gpu_rows",
	.title = "GPU rows with the same device, stream, start and end as another",
	.help = "Kernel, memcpy and memset rows grouped by (deviceId, streamId, start,\n"
		"end): every row of a group after its first is counted once, under its\n"
		"table when the group already has a row of that table, else under\n"
		"\"across tables\".",
	.affects = "cuda_gpu_kern_sum,cuda_gpu_mem_time_sum,cuda_gpu_mem_size_sum,cuda_gpu_sum,"
		   "cuda_gpu_trace,cuda_kern_exec_sum,cuda_kern_exec_trace,gpu_gaps,gpu_time_util",
	.want = chk_want_gpu,
	.run = run,
};
