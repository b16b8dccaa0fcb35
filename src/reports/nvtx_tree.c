#include "reports/nvtx_tree.h"

#include <stdlib.h>
#include <string.h>

#include "core/big.h"
#include "reports/common.h"

static int64_t dur_of(const struct nst_nvtx_tree_in *in, uint32_t i)
{
	return in->end[i] - in->start[i];
}

/* Whether a is the better parent: shorter, or as long with a smaller id. */
static bool shorter(const struct nst_nvtx_tree_in *in, uint32_t a, uint32_t b)
{
	if (b == NST_NVTX_NO_PARENT)
		return true;
	int64_t da = dur_of(in, a), db = dur_of(in, b);
	return da != db ? da < db : in->id[a] < in->id[b];
}

/* ---- sorting ------------------------------------------------------------- */

/* nst_sort_by_key, skipped when idx is in key order already (ids mostly
 * are: ranges come in rowid order). */
static enum nst_status sort_by(uint32_t *idx, size_t n, const int64_t *key,
			       struct nst_error *err)
{
	size_t k = 1;
	while (k < n && key[idx[k - 1]] <= key[idx[k]])
		k++;
	return k >= n ? NST_OK : nst_sort_by_key(idx, n, key, err);
}

/* Indexes by thread, start, end descending, id: a range comes after every
 * range that contains it, except an identical one. */
static enum nst_status sort_ranges(const struct nst_nvtx_tree_in *in, uint32_t *idx,
				   int64_t *neg_end, struct nst_error *err)
{
	for (size_t i = 0; i < in->n; i++) {
		idx[i] = (uint32_t)i;
		neg_end[i] = ~in->end[i]; /* reverses the order, never overflows */
	}
	enum nst_status s = sort_by(idx, in->n, in->id, err);
	if (!s) s = sort_by(idx, in->n, neg_end, err);
	if (!s) s = sort_by(idx, in->n, in->start, err);
	if (!s) s = sort_by(idx, in->n, in->thread, err);
	return s;
}

/* ---- one thread, ranges nested or disjoint: a stack -------------------- */

/* Parents of seg[0..m) when no two of its ranges cross; false (parents
 * unfinished) at the first crossing.  Ranges that merely touch count as
 * crossing: a zero-length range at the shared instant lies in both. */
static bool stack_sweep(const struct nst_nvtx_tree_in *in, struct nst_nvtx_tree *t,
			const uint32_t *seg, size_t m, uint32_t *stack)
{
	size_t top = 0;
	for (size_t k = 0; k < m; k++) {
		uint32_t x = seg[k];
		while (top && in->end[stack[top - 1]] < in->end[x]) {
			if (in->end[stack[top - 1]] >= in->start[x])
				return false;
			top--;
		}
		t->parent[x] = top ? stack[top - 1] : NST_NVTX_NO_PARENT;
		stack[top++] = x;
	}
	return true;
}

/* ---- one thread, ranges that cross: the shortest container, exactly ---- */

/* A Fenwick tree over ends (largest first) whose nodes keep the two best
 * parents seen: a prefix is every inserted range ending at or after a
 * given end, and the second best stands in when the best is the range
 * itself. */
struct best2 {
	uint32_t a, b;
};

static void best2_put(const struct nst_nvtx_tree_in *in, struct best2 *n, uint32_t x)
{
	if (shorter(in, x, n->a)) {
		n->b = n->a;
		n->a = x;
	} else if (shorter(in, x, n->b)) {
		n->b = x;
	}
}

struct exact {
	const struct nst_nvtx_tree_in *in;
	struct best2 *fen; /* 1-based, nrank nodes */
	uint32_t *rank;    /* by range index: its end's place, largest end 0 */
	size_t nrank;
};

static void exact_insert(struct exact *e, uint32_t x)
{
	for (size_t i = e->rank[x] + 1; i <= e->nrank; i += i & (~i + 1))
		best2_put(e->in, &e->fen[i], x);
}

static uint32_t exact_parent(struct exact *e, uint32_t x)
{
	struct best2 got = { NST_NVTX_NO_PARENT, NST_NVTX_NO_PARENT };
	for (size_t i = e->rank[x] + 1; i > 0; i -= i & (~i + 1)) {
		if (e->fen[i].a != NST_NVTX_NO_PARENT)
			best2_put(e->in, &got, e->fen[i].a);
		if (e->fen[i].b != NST_NVTX_NO_PARENT)
			best2_put(e->in, &got, e->fen[i].b);
	}
	return got.a != x ? got.a : got.b;
}

/* Ranks the ends of seg[0..m), largest first; tmp holds m indexes. */
static enum nst_status rank_ends(struct exact *e, const uint32_t *seg, size_t m,
				 const int64_t *neg_end, uint32_t *tmp, struct nst_error *err)
{
	memcpy(tmp, seg, m * sizeof *tmp);
	enum nst_status s = sort_by(tmp, m, neg_end, err);
	if (s != NST_OK)
		return s;
	e->nrank = 0;
	for (size_t k = 0; k < m; k++) {
		if (k && e->in->end[tmp[k]] != e->in->end[tmp[k - 1]])
			e->nrank++;
		e->rank[tmp[k]] = (uint32_t)e->nrank;
	}
	e->nrank += m > 0;
	return NST_OK;
}

/* Parents of seg[0..m) (sorted by start): ranges starting together are
 * all inserted before any of them looks for its container. */
static enum nst_status exact_sweep(struct exact *e, struct nst_nvtx_tree *t,
				   const uint32_t *seg, size_t m, const int64_t *neg_end,
				   uint32_t *tmp, struct nst_error *err)
{
	enum nst_status s = rank_ends(e, seg, m, neg_end, tmp, err);
	if (s != NST_OK)
		return s;
	memset(e->fen, 0xff, (e->nrank + 1) * sizeof *e->fen);
	for (size_t k = 0; k < m;) {
		size_t g = k;
		while (g < m && e->in->start[seg[g]] == e->in->start[seg[k]])
			exact_insert(e, seg[g++]);
		for (; k < g; k++)
			t->parent[seg[k]] = exact_parent(e, seg[k]);
	}
	return NST_OK;
}

/* ---- the whole tree ------------------------------------------------------ */

struct scratch {
	uint32_t *sorted, *stack, *tmp, *rank;
	int64_t *neg_end;
	struct best2 *fen;
};

static void scratch_release(struct scratch *s)
{
	free(s->sorted);
	free(s->stack);
	free(s->tmp);
	free(s->rank);
	free(s->neg_end);
	free(s->fen);
}

static int scratch_alloc(struct scratch *s, size_t n)
{
	size_t k = n ? n : 1;
	s->sorted = nst_big_alloc(k, sizeof *s->sorted);
	s->stack = nst_big_alloc(k, sizeof *s->stack);
	s->tmp = nst_big_alloc(k, sizeof *s->tmp);
	s->rank = nst_big_alloc(k, sizeof *s->rank);
	s->neg_end = nst_big_alloc(k, sizeof *s->neg_end);
	s->fen = nst_big_alloc(k + 1, sizeof *s->fen);
	return s->sorted && s->stack && s->tmp && s->rank && s->neg_end && s->fen ? 0 : -1;
}

static int tree_alloc(struct nst_nvtx_tree *t, size_t n)
{
	size_t k = n ? n : 1;
	memset(t, 0, sizeof *t);
	t->n = n;
	t->parent = nst_big_alloc(k, sizeof *t->parent);
	t->level = nst_big_zalloc(k, sizeof *t->level);
	t->nchild = nst_big_zalloc(k, sizeof *t->nchild);
	t->child_dur = nst_big_zalloc(k, sizeof *t->child_dur);
	t->dropped = nst_big_zalloc(k, sizeof *t->dropped);
	return t->parent && t->level && t->nchild && t->child_dur && t->dropped ? 0 : -1;
}

/* Parents, thread by thread (threads are contiguous in sorted order). */
static enum nst_status find_parents(const struct nst_nvtx_tree_in *in,
				    struct nst_nvtx_tree *t, struct scratch *s,
				    struct nst_error *err)
{
	struct exact e = { .in = in, .fen = s->fen, .rank = s->rank };
	for (size_t a = 0, b; a < in->n; a = b) {
		int64_t thread = in->thread[s->sorted[a]];
		for (b = a; b < in->n && in->thread[s->sorted[b]] == thread; b++)
			t->parent[s->sorted[b]] = NST_NVTX_NO_PARENT;
		if (thread == NST_NULL_I64 || stack_sweep(in, t, s->sorted + a, b - a, s->stack))
			continue;
		enum nst_status st = exact_sweep(&e, t, s->sorted + a, b - a, s->neg_end,
						 s->tmp, err);
		if (st != NST_OK)
			return st;
	}
	return NST_OK;
}

/* Identical ranges of one thread are adjacent in sorted order. */
static void drop_identical(const struct nst_nvtx_tree_in *in, struct nst_nvtx_tree *t,
			   const uint32_t *sorted)
{
	for (size_t k = 1; k < in->n; k++) {
		uint32_t x = sorted[k], y = sorted[k - 1];
		if (in->thread[x] != NST_NULL_I64 && in->thread[x] == in->thread[y] &&
		    in->start[x] == in->start[y] && in->end[x] == in->end[y])
			t->dropped[x] = t->dropped[y] = true;
	}
}

/* Levels and drops flow down; a parent precedes its children in sorted
 * order unless both are dropped already. */
static void levels_and_counts(const struct nst_nvtx_tree_in *in, struct nst_nvtx_tree *t,
			      const uint32_t *sorted)
{
	for (size_t k = 0; k < in->n; k++) {
		uint32_t x = sorted[k], p = t->parent[x];
		if (p == NST_NVTX_NO_PARENT)
			continue;
		t->dropped[x] = t->dropped[x] || t->dropped[p];
		t->level[x] = t->level[p] + 1;
		if (t->dropped[x])
			continue;
		t->nchild[p]++;
		t->child_dur[p] += dur_of(in, x);
	}
	for (size_t i = 0; i < in->n; i++)
		if (!t->dropped[i] && t->level[i] > t->max_level)
			t->max_level = t->level[i];
}

enum nst_status nst_nvtx_tree_build(const struct nst_nvtx_tree_in *in,
				    struct nst_nvtx_tree *t, struct nst_error *err)
{
	struct scratch s = { 0 };
	enum nst_status st = NST_OK;
	if (tree_alloc(t, in->n) || scratch_alloc(&s, in->n))
		st = nst_fail(err, NST_ERR_NOMEM, "out of memory nesting NVTX ranges");
	if (!st) st = sort_ranges(in, s.sorted, s.neg_end, err);
	if (!st) st = find_parents(in, t, &s, err);
	if (!st) {
		drop_identical(in, t, s.sorted);
		levels_and_counts(in, t, s.sorted);
	}
	scratch_release(&s);
	if (st != NST_OK)
		nst_nvtx_tree_release(t);
	return st;
}

void nst_nvtx_tree_release(struct nst_nvtx_tree *t)
{
	free(t->parent);
	free(t->level);
	free(t->nchild);
	free(t->child_dur);
	free(t->dropped);
	memset(t, 0, sizeof *t);
}

size_t nst_nvtx_tree_stack(const struct nst_nvtx_tree *t, uint32_t i, uint32_t *stack)
{
	size_t depth = (size_t)t->level[i] + 1;
	for (size_t k = depth; k-- > 0; i = t->parent[i])
		stack[k] = i;
	return depth;
}

/* ---- row order ----------------------------------------------------------- */

/* Children of each range in id order: kids[first[p] .. first[p + 1]). */
static void child_lists(const struct nst_nvtx_tree_in *in, const struct nst_nvtx_tree *t,
			const uint32_t *by_id, size_t *first, uint32_t *kids)
{
	memset(first, 0, (in->n + 1) * sizeof *first);
	for (size_t i = 0; i < in->n; i++)
		if (!t->dropped[i] && t->parent[i] != NST_NVTX_NO_PARENT)
			first[t->parent[i] + 1]++;
	for (size_t p = 0; p < in->n; p++)
		first[p + 1] += first[p];
	for (size_t k = 0; k < in->n; k++) {
		uint32_t x = by_id[k], p = t->parent[x];
		if (!t->dropped[x] && p != NST_NVTX_NO_PARENT)
			kids[first[p]++] = x;
	}
	for (size_t p = in->n; p > 0; p--) /* undo the fill's advance */
		first[p] = first[p - 1];
	first[0] = 0;
}

/* The kept ranges breadth first: top-level ones by id, then their
 * children level by level; returns how many. */
static size_t breadth_first(const struct nst_nvtx_tree_in *in, const struct nst_nvtx_tree *t,
			    const uint32_t *by_id, const size_t *first, const uint32_t *kids,
			    uint32_t *queue)
{
	size_t tail = 0;
	for (size_t k = 0; k < in->n; k++)
		if (!t->dropped[by_id[k]] && t->parent[by_id[k]] == NST_NVTX_NO_PARENT)
			queue[tail++] = by_id[k];
	for (size_t head = 0; head < tail; head++) {
		uint32_t p = queue[head];
		for (size_t c = first[p]; c < first[p + 1]; c++)
			queue[tail++] = kids[c];
	}
	return tail;
}

enum nst_status nst_nvtx_tree_order(const struct nst_nvtx_tree_in *in,
				    const struct nst_nvtx_tree *t, uint32_t **order,
				    size_t *nrows, struct nst_error *err)
{
	size_t k = in->n ? in->n : 1;
	uint32_t *by_id = nst_big_alloc(k, sizeof *by_id);
	uint32_t *kids = nst_big_alloc(k, sizeof *kids);
	size_t *first = nst_big_alloc(k + 1, sizeof *first);
	*order = nst_big_alloc(k, sizeof **order);
	*nrows = 0;
	enum nst_status s = NST_OK;
	if (!by_id || !kids || !first || !*order) {
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory ordering NVTX ranges");
		goto out;
	}
	for (size_t i = 0; i < in->n; i++)
		by_id[i] = (uint32_t)i;
	s = sort_by(by_id, in->n, in->id, err);
	if (s != NST_OK)
		goto out;
	child_lists(in, t, by_id, first, kids);
	*nrows = breadth_first(in, t, by_id, first, kids, *order);
	s = sort_by(*order, *nrows, in->end, err);
	if (!s) s = sort_by(*order, *nrows, in->start, err);
out:
	free(by_id);
	free(kids);
	free(first);
	if (s != NST_OK) {
		free(*order);
		*order = NULL;
		*nrows = 0;
	}
	return s;
}
