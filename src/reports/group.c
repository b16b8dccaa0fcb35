/* Grouping rows by key tuples, distributions over the groups, and the
 * stable orders (merge sort by comparison, radix sort by an int64 key). */
#include "reports/group.h"
#include "core/big.h"

#include <stdlib.h>
#include <string.h>

/* ---- grouping ---------------------------------------------------------- */

static bool same_keys(const struct nst_col *const *keys, size_t nkeys, uint32_t a, uint32_t b)
{
	for (size_t k = 0; k < nkeys; k++)
		if (nst_col_at(keys[k], a) != nst_col_at(keys[k], b))
			return false;
	return true;
}

static uint64_t hash_keys(const struct nst_col *const *keys, size_t nkeys, uint32_t row)
{
	uint64_t h = 0x84222325cbf29ce4ull;
	for (size_t k = 0; k < nkeys; k++) {
		h ^= (uint64_t)nst_col_at(keys[k], row);
		h *= 0x100000001b3ull;
		h ^= h >> 29;
	}
	return h;
}

/* The open-addressing table of group ids behind assign_groups(): sized
 * by the groups found, not by the rows (millions of rows often make a
 * few thousand groups), doubled when half full. */
struct group_table {
	uint32_t *slot;
	size_t cap;
};

/* The slot of row r's keys: its group's, or the empty one to take. */
static size_t find_slot(const struct group_table *t, const struct nst_col *const *keys,
			size_t nkeys, const uint32_t *first, uint32_t r)
{
	size_t j = hash_keys(keys, nkeys, r) & (t->cap - 1);
	while (t->slot[j] != UINT32_MAX && !same_keys(keys, nkeys, first[t->slot[j]], r))
		j = (j + 1) & (t->cap - 1);
	return j;
}

static int table_resize(struct group_table *t, size_t cap, const struct nst_col *const *keys,
			size_t nkeys, const struct nst_groups *g)
{
	uint32_t *slot = nst_big_alloc(cap, sizeof *slot);
	if (!slot)
		return -1;
	memset(slot, 0xff, cap * sizeof *slot);
	free(t->slot);
	*t = (struct group_table){ slot, cap };
	for (size_t k = 0; k < g->n; k++)
		slot[find_slot(t, keys, nkeys, g->first, g->first[k])] = (uint32_t)k;
	return 0;
}

/* Group ids by first appearance, compared through each group's first
 * row; g->first ends as long as the groups. */
static enum nst_status assign_groups(const struct nst_col *const *keys, size_t nkeys,
				     const uint32_t *rows, size_t nrows,
				     uint32_t *gid, struct nst_groups *g,
				     struct nst_error *err)
{
	struct group_table t = { NULL, 0 };
	g->first = nst_big_alloc(nrows, sizeof *g->first);
	if (!g->first || table_resize(&t, 1024, keys, nkeys, g)) {
		free(t.slot);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory grouping rows");
	}
	for (size_t i = 0; i < nrows; i++) {
		uint32_t r = nst_row_at(rows, i);
		size_t j = find_slot(&t, keys, nkeys, g->first, r);
		if (t.slot[j] == UINT32_MAX) {
			t.slot[j] = (uint32_t)g->n;
			g->first[g->n++] = r;
			if (2 * g->n > t.cap) {
				if (table_resize(&t, 2 * t.cap, keys, nkeys, g)) {
					free(t.slot);
					return nst_fail(err, NST_ERR_NOMEM, "out of memory grouping rows");
				}
				j = find_slot(&t, keys, nkeys, g->first, r);
			}
		}
		gid[i] = t.slot[j];
	}
	free(t.slot);
	uint32_t *first = realloc(g->first, (g->n ? g->n : 1) * sizeof *first);
	if (first)
		g->first = first;
	return NST_OK;
}

/* Where a row's group id comes from: an array of ids by position, or a
 * direct table indexed by one key's value less the smallest. */
struct gid_source {
	const uint32_t *gid; /* NULL: slot[key at the row - lo] */
	const struct nst_col *key;
	const uint32_t *slot;
	int64_t lo;
};

static inline uint32_t gid_at(const struct gid_source *src, const uint32_t *rows, size_t i)
{
	if (src->gid)
		return src->gid[i];
	return src->slot[(uint64_t)nst_col_at(src->key, nst_row_at(rows, i)) - (uint64_t)src->lo];
}

/* Each group's rows in row order (a counting sort by group), given
 * g->n: fills start and order. */
static enum nst_status order_by_group(const struct gid_source *src, const uint32_t *rows,
				      size_t nrows, struct nst_groups *g, struct nst_error *err)
{
	g->start = nst_big_zalloc(g->n + 1, sizeof *g->start);
	g->order = nst_big_alloc(nrows, sizeof *g->order);
	size_t *fill = malloc((g->n ? g->n : 1) * sizeof *fill);
	if (!g->start || !g->order || !fill) {
		free(fill);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory grouping rows");
	}
	for (size_t i = 0; i < nrows; i++)
		g->start[gid_at(src, rows, i) + 1]++;
	for (size_t k = 0; k < g->n; k++)
		g->start[k + 1] += g->start[k];
	memcpy(fill, g->start, g->n * sizeof *fill);
	for (size_t i = 0; i < nrows; i++)
		g->order[fill[gid_at(src, rows, i)]++] = nst_row_at(rows, i);
	free(fill);
	return NST_OK;
}

/* One key with a small range (string ids, device ids): a direct table
 * instead of hashing, and no group id kept per row (at 100M rows that
 * array alone is 400 MB).  Returns false when the range is too wide. */
static bool group_small_range(const struct nst_col *key, const uint32_t *rows, size_t nrows,
			      struct nst_groups *g, enum nst_status *s, struct nst_error *err)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	for (size_t i = 0; i < nrows; i++) {
		int64_t v = nst_col_at(key, nst_row_at(rows, i));
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	/* unsigned: a NULL (INT64_MIN) among big ids must not overflow */
	uint64_t width = (uint64_t)hi - (uint64_t)lo;
	if (nrows == 0 || width >= 4 * (uint64_t)nrows + 65536)
		return false;
	size_t span = (size_t)width + 1;
	uint32_t *slot = nst_big_alloc(span, sizeof *slot);
	g->first = nst_big_alloc(nrows, sizeof *g->first);
	if (!slot || !g->first) {
		free(slot);
		*s = nst_fail(err, NST_ERR_NOMEM, "out of memory grouping rows");
		return true;
	}
	memset(slot, 0xff, span * sizeof *slot);
	for (size_t i = 0; i < nrows; i++) {
		uint32_t r = nst_row_at(rows, i);
		uint32_t *sl = &slot[(uint64_t)nst_col_at(key, r) - (uint64_t)lo];
		if (*sl == UINT32_MAX) {
			*sl = (uint32_t)g->n;
			g->first[g->n++] = r;
		}
	}
	uint32_t *first = realloc(g->first, (g->n ? g->n : 1) * sizeof *first);
	if (first)
		g->first = first;
	struct gid_source src = { .key = key, .slot = slot, .lo = lo };
	*s = order_by_group(&src, rows, nrows, g, err);
	free(slot);
	return true;
}

enum nst_status nst_group(const int64_t *const *keys, size_t nkeys,
			  const uint32_t *rows, size_t nrows,
			  struct nst_groups *g, struct nst_error *err)
{
	struct nst_col cols[NST_GROUP_MAX_KEYS];
	const struct nst_col *ptrs[NST_GROUP_MAX_KEYS];
	if (nkeys > NST_GROUP_MAX_KEYS)
		return nst_fail(err, NST_ERR_INTERNAL, "grouping by %zu keys", nkeys);
	for (size_t k = 0; k < nkeys; k++) {
		cols[k] = nst_col_of(keys[k]);
		ptrs[k] = &cols[k];
	}
	return nst_group_cols(ptrs, nkeys, rows, nrows, g, err);
}

enum nst_status nst_group_by_ids(const uint32_t *gid, const uint32_t *rows, size_t nrows,
				 struct nst_groups *g, struct nst_error *err)
{
	struct gid_source src = { .gid = gid };
	return order_by_group(&src, rows, nrows, g, err);
}

enum nst_status nst_group_cols(const struct nst_col *const *keys, size_t nkeys,
			       const uint32_t *rows, size_t nrows,
			       struct nst_groups *g, struct nst_error *err)
{
	memset(g, 0, sizeof *g);
	enum nst_status s;
	if (nkeys == 1 && group_small_range(keys[0], rows, nrows, g, &s, err)) {
		if (s != NST_OK)
			nst_groups_release(g);
		return s;
	}
	uint32_t *gid = nst_big_alloc(nrows, sizeof *gid);
	if (!gid)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory grouping rows");
	s = assign_groups(keys, nkeys, rows, nrows, gid, g, err);
	if (s == NST_OK)
		s = nst_group_by_ids(gid, rows, nrows, g, err);
	free(gid);
	if (s != NST_OK)
		nst_groups_release(g);
	return s;
}

size_t nst_group_largest(const struct nst_groups *g)
{
	size_t most = 1;
	for (size_t k = 0; k < g->n; k++)
		if (g->start[k + 1] - g->start[k] > most)
			most = g->start[k + 1] - g->start[k];
	return most;
}

void nst_groups_release(struct nst_groups *g)
{
	free(g->start);
	free(g->order);
	free(g->first);
	memset(g, 0, sizeof *g);
}

enum nst_status nst_fail_sum(struct nst_error *err)
{
	return nst_fail(err, NST_ERR_DB, "a sum of durations or sizes does not fit 64 bits");
}

/* Whether group k's median is found where its values lie instead of
 * in a copy: a group that is most of the rows it spans (the API that
 * launches every kernel: 100M of 134M calls, an 800 MB copy), big enough
 * for a histogram.  Read in place, a sparse group costs a cache line a
 * value, three times over. */
static bool read_in_place(const struct nst_groups *g, size_t k)
{
	size_t n = g->start[k + 1] - g->start[k];
	uint32_t first = g->order[g->start[k]], last = g->order[g->start[k + 1] - 1];
	return nst_dist_in_place_pays(n) && last >= first && n >= ((size_t)(last - first) + 1) / 2;
}

/* The largest group whose values are copied. */
static size_t largest_copied(const struct nst_groups *g, bool median)
{
	size_t most = 1;
	for (size_t k = 0; k < g->n; k++) {
		size_t n = g->start[k + 1] - g->start[k];
		if (n > most && !(median && read_in_place(g, k)))
			most = n;
	}
	return most;
}

/* Group k's distribution: of val[r], or when val is NULL of the duration
 * of row r. */
static enum nst_dist_status group_dist(const struct nst_groups *g, size_t k,
				       const int64_t *val, const struct nst_span *dur,
				       bool median, int64_t *vals, struct nst_dist *out)
{
	const uint32_t *rows = g->order + g->start[k];
	size_t n = g->start[k + 1] - g->start[k];
	if (median && read_in_place(g, k))
		return nst_dist_in_place(val, rows, dur, n, out);
	for (size_t i = 0; i < n; i++)
		vals[i] = val ? val[rows[i]] : nst_span_at(dur, rows[i]);
	bool ok = median ? nst_dist_of_unordered(vals, n, out) : nst_dist_moments(vals, n, out);
	return ok ? NST_DIST_OK : NST_DIST_OVERFLOW;
}

static enum nst_status group_dists(const struct nst_groups *g, const int64_t *val,
				   const struct nst_span *dur, bool median, struct nst_dist **out,
				   struct nst_error *err)
{
	*out = malloc((g->n ? g->n : 1) * sizeof **out);
	int64_t *vals = nst_big_alloc(largest_copied(g, median), sizeof *vals);
	enum nst_dist_status st = *out && vals ? NST_DIST_OK : NST_DIST_NOMEM;
	for (size_t k = 0; st == NST_DIST_OK && k < g->n; k++)
		st = group_dist(g, k, val, dur, median, vals, &(*out)[k]);
	free(vals);
	if (st == NST_DIST_OK)
		return NST_OK;
	free(*out);
	*out = NULL;
	return st == NST_DIST_NOMEM ? nst_fail(err, NST_ERR_NOMEM, "out of memory")
				    : nst_fail_sum(err);
}

enum nst_status nst_group_dists(const struct nst_groups *g, const int64_t *val,
				struct nst_dist **out, struct nst_error *err)
{
	return group_dists(g, val, NULL, true, out, err);
}

enum nst_status nst_group_moments(const struct nst_groups *g, const int64_t *val,
				  struct nst_dist **out, struct nst_error *err)
{
	return group_dists(g, val, NULL, false, out, err);
}

enum nst_status nst_group_durations(const struct nst_groups *g, const struct nst_span *dur,
				    bool median, struct nst_dist **out, struct nst_error *err)
{
	return group_dists(g, NULL, dur, median, out, err);
}

static void merge_pass(uint32_t *idx, uint32_t *tmp, size_t n, size_t width,
		       int (*cmp)(uint32_t, uint32_t, void *), void *arg)
{
	for (size_t lo = 0; lo < n; lo += 2 * width) {
		size_t mid = lo + width < n ? lo + width : n;
		size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
		size_t a = lo, b = mid, o = lo;
		while (a < mid && b < hi)
			tmp[o++] = cmp(idx[b], idx[a], arg) < 0 ? idx[b++] : idx[a++];
		while (a < mid)
			tmp[o++] = idx[a++];
		while (b < hi)
			tmp[o++] = idx[b++];
	}
}

/* Whether idx is in cmp's order already: rows often come out of their
 * tables sorted, and then the merge passes would only copy them. */
static bool in_cmp_order(const uint32_t *idx, size_t n,
			 int (*cmp)(uint32_t a, uint32_t b, void *arg), void *arg)
{
	for (size_t i = 1; i < n; i++)
		if (cmp(idx[i], idx[i - 1], arg) < 0)
			return false;
	return true;
}

void nst_stable_sort(uint32_t *idx, size_t n,
		     int (*cmp)(uint32_t a, uint32_t b, void *arg), void *arg)
{
	if (in_cmp_order(idx, n, cmp, arg))
		return;
	uint32_t *tmp = nst_big_alloc(n, sizeof *tmp);
	if (!tmp) { /* insertion sort: slow, but stable and allocation-free */
		for (size_t i = 1; i < n; i++)
			for (size_t j = i; j > 0 && cmp(idx[j], idx[j - 1], arg) < 0; j--) {
				uint32_t t = idx[j];
				idx[j] = idx[j - 1];
				idx[j - 1] = t;
			}
		return;
	}
	uint32_t *src = idx, *dst = tmp;
	for (size_t width = 1; width < n; width *= 2) {
		merge_pass(src, dst, n, width, cmp, arg);
		uint32_t *t = src;
		src = dst;
		dst = t;
	}
	if (src != idx)
		memcpy(idx, src, n * sizeof *idx);
	free(tmp);
}

/* ---- ordering rows by a key ------------------------------------------------ */

/* Keys and rows in two arrays rather than one array of (key, row)
 * pairs, which padding makes 16 bytes: a trace of millions of rows sorts
 * in 20 bytes a row (two key arrays, idx and one more row array). */
struct keyed_rows {
	uint64_t *key;
	uint32_t *row;
};

/* One stable counting pass on the byte at `shift`. */
static void radix_pass(struct keyed_rows src, struct keyed_rows dst, size_t n, int shift)
{
	size_t count[257] = { 0 };
	for (size_t i = 0; i < n; i++)
		count[((src.key[i] >> shift) & 0xff) + 1]++;
	for (int b = 0; b < 256; b++)
		count[b + 1] += count[b];
	for (size_t i = 0; i < n; i++) {
		size_t at = count[(src.key[i] >> shift) & 0xff]++;
		dst.key[at] = src.key[i];
		dst.row[at] = src.row[i];
	}
}

/* Bits needed for v. */
static int bits_of(uint64_t v)
{
	int b = 0;
	while (b < 64 && (v >> b) != 0)
		b++;
	return b;
}

/* When idx ascends (row order, as the traces start from) and the key's
 * range and the largest row fit 64 bits together, (key - min, row) packs
 * into one word: equal keys then stay in row order, which is idx's, and
 * the sort takes 16 bytes a row; (max - key, row) sorts by key descending.
 * Returns false when it does not apply. */
static bool sort_packed(uint32_t *idx, size_t n, const int64_t *key, bool desc,
			enum nst_status *s, struct nst_error *err)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	for (size_t i = 0; i < n; i++) {
		if (i && idx[i] <= idx[i - 1])
			return false;
		lo = key[idx[i]] < lo ? key[idx[i]] : lo;
		hi = key[idx[i]] > hi ? key[idx[i]] : hi;
	}
	int rowbits = bits_of(idx[n - 1]);
	if (bits_of((uint64_t)hi - (uint64_t)lo) + rowbits > 64)
		return false;
	uint64_t *a = nst_big_alloc(n, sizeof *a), *b = nst_big_alloc(n, sizeof *b);
	if (!a || !b) {
		free(a);
		free(b);
		*s = nst_fail(err, NST_ERR_NOMEM, "out of memory sorting rows");
		return true;
	}
	uint64_t or_all = 0, and_all = ~(uint64_t)0;
	for (size_t i = 0; i < n; i++) {
		uint64_t k = desc ? (uint64_t)hi - (uint64_t)key[idx[i]]
				  : (uint64_t)key[idx[i]] - (uint64_t)lo;
		a[i] = k << rowbits | idx[i];
		or_all |= a[i];
		and_all &= a[i];
	}
	uint64_t *src = a, *dst = b;
	for (int shift = 0; shift < 64; shift += 8) {
		if ((((or_all ^ and_all) >> shift) & 0xff) == 0)
			continue;
		nst_radix_pass(src, dst, n, shift);
		uint64_t *t = src;
		src = dst;
		dst = t;
	}
	uint64_t mask = rowbits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << rowbits) - 1;
	for (size_t i = 0; i < n; i++)
		idx[i] = (uint32_t)(src[i] & mask);
	free(a);
	free(b);
	*s = NST_OK;
	return true;
}

/* Keys of few distinct values (devices, streams, threads) sort in one
 * stable counting pass by their rank, where the radix sorts make a pass
 * per byte of the key's range (a thread id's range spans processes). */
#define FEW_KEYS 64

struct few_keys {
	int64_t key[2 * FEW_KEYS]; /* open addressing: twice the keys it takes */
	uint8_t used[2 * FEW_KEYS], slot[2 * FEW_KEYS];
	size_t n;
};

/* The slot of k, added when new; false when it would be key FEW_KEYS + 1. */
static bool few_slot(struct few_keys *f, int64_t k, uint8_t *slot)
{
	size_t h = (size_t)(((uint64_t)k * 0x9E3779B97F4A7C15ull) >> 57);
	while (f->used[h] && f->key[h] != k)
		h = (h + 1) % (2 * FEW_KEYS);
	if (!f->used[h]) {
		if (f->n == FEW_KEYS)
			return false;
		f->used[h] = 1;
		f->key[h] = k;
		f->slot[h] = (uint8_t)f->n++;
	}
	*slot = f->slot[h];
	return true;
}

/* rank[slot]: where each slot's key comes among the keys, ascending. */
static void few_ranks(const struct few_keys *f, uint8_t *rank)
{
	int64_t by_slot[FEW_KEYS];
	for (size_t h = 0; h < 2 * FEW_KEYS; h++)
		if (f->used[h])
			by_slot[f->slot[h]] = f->key[h];
	for (size_t a = 0; a < f->n; a++) {
		size_t below = 0;
		for (size_t b = 0; b < f->n; b++)
			below += by_slot[b] < by_slot[a];
		rank[a] = (uint8_t)below;
	}
}

/* False, having looked at no more than the first keys past FEW_KEYS
 * distinct ones, when the keys are not few. */
static bool sort_few_keys(uint32_t *idx, size_t n, const int64_t *key, enum nst_status *s,
			  struct nst_error *err)
{
	struct few_keys f = { .n = 0 };
	uint8_t *slot = nst_big_alloc(n, 1);
	if (!slot) {
		*s = nst_fail(err, NST_ERR_NOMEM, "out of memory sorting rows");
		return true;
	}
	for (size_t i = 0; i < n; i++)
		if (!few_slot(&f, key[idx[i]], &slot[i])) {
			free(slot);
			return false;
		}
	uint8_t rank[FEW_KEYS];
	size_t at[FEW_KEYS + 1] = { 0 };
	few_ranks(&f, rank);
	for (size_t i = 0; i < n; i++)
		at[rank[slot[i]] + 1]++;
	for (size_t r = 0; r < f.n; r++)
		at[r + 1] += at[r];
	uint32_t *out = nst_big_alloc(n, sizeof *out);
	if (!out) {
		free(slot);
		*s = nst_fail(err, NST_ERR_NOMEM, "out of memory sorting rows");
		return true;
	}
	for (size_t i = 0; i < n; i++)
		out[at[rank[slot[i]]]++] = idx[i];
	memcpy(idx, out, n * sizeof *idx);
	free(out);
	free(slot);
	*s = NST_OK;
	return true;
}

/* Rows gathered table after table, or group after group, come in a few
 * runs each in key order: merging them is a pass or two where a radix
 * sort makes one per byte of the key. */
#define FEW_RUNS 8

/* Where the runs of idx in key order start, ends[k] the end of run k;
 * false when there are more than FEW_RUNS. */
static bool few_runs(const uint32_t *idx, size_t n, const int64_t *key, size_t *ends,
		     size_t *nruns)
{
	*nruns = 0;
	for (size_t i = 1; i <= n; i++)
		if (i == n || key[idx[i]] < key[idx[i - 1]]) {
			if (*nruns == FEW_RUNS)
				return false;
			ends[(*nruns)++] = i;
		}
	return true;
}

/* Merges neighbouring runs until one is left; on equal keys the earlier
 * run's row first, so that the sort stays stable. */
static enum nst_status merge_runs(uint32_t *idx, size_t n, const int64_t *key, size_t *ends,
				  size_t nruns, struct nst_error *err)
{
	uint32_t *tmp = nst_big_alloc(n, sizeof *tmp), *src = idx, *dst = tmp;
	if (!tmp)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory sorting rows");
	while (nruns > 1) {
		size_t kept = 0;
		for (size_t k = 0, lo = 0; k < nruns; k += 2) {
			size_t mid = ends[k], hi = k + 1 < nruns ? ends[k + 1] : mid;
			size_t a = lo, b = mid, o = lo;
			while (a < mid && b < hi)
				dst[o++] = key[src[b]] < key[src[a]] ? src[b++] : src[a++];
			while (a < mid)
				dst[o++] = src[a++];
			while (b < hi)
				dst[o++] = src[b++];
			ends[kept++] = hi;
			lo = hi;
		}
		nruns = kept;
		uint32_t *t = src;
		src = dst;
		dst = t;
	}
	if (src != idx)
		memcpy(idx, src, n * sizeof *idx);
	free(tmp);
	return NST_OK;
}

enum nst_status nst_sort_by_key(uint32_t *idx, size_t n, const int64_t *key,
				struct nst_error *err)
{
	size_t ends[FEW_RUNS], nruns;
	if (few_runs(idx, n, key, ends, &nruns))
		return nruns > 1 ? merge_runs(idx, n, key, ends, nruns, err) : NST_OK;
	enum nst_status packed;
	if (sort_few_keys(idx, n, key, &packed, err) || sort_packed(idx, n, key, false, &packed, err))
		return packed;
	struct keyed_rows a = { nst_big_alloc(n, sizeof *a.key), idx };
	struct keyed_rows b = { nst_big_alloc(n, sizeof *b.key), nst_big_alloc(n, sizeof *b.row) };
	enum nst_status s = NST_OK;
	if (!a.key || !b.key || !b.row) {
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory sorting rows");
		goto out;
	}
	uint64_t or_all = 0, and_all = ~(uint64_t)0;
	for (size_t i = 0; i < n; i++) {
		/* Flipping the sign bit orders signed keys as unsigned ones. */
		a.key[i] = (uint64_t)key[idx[i]] ^ (1ull << 63);
		or_all |= a.key[i];
		and_all &= a.key[i];
	}
	struct keyed_rows src = a, dst = b;
	for (int shift = 0; shift < 64; shift += 8) {
		if ((((or_all ^ and_all) >> shift) & 0xff) == 0)
			continue; /* every key has the same byte here */
		radix_pass(src, dst, n, shift);
		struct keyed_rows t = src;
		src = dst;
		dst = t;
	}
	if (src.row != idx)
		memcpy(idx, src.row, n * sizeof *idx);
out:
	free(a.key);
	free(b.key);
	free(b.row);
	return s;
}

/* A key array indexed by row, room for every row in idx[0..n); unfilled. */
static int64_t *keys_by_row(const uint32_t *idx, size_t n)
{
	uint32_t top = 0;
	for (size_t i = 0; i < n; i++)
		top = idx[i] > top ? idx[i] : top;
	return nst_big_alloc((size_t)top + 1, sizeof(int64_t));
}

enum nst_status nst_sort_by_key_desc(uint32_t *idx, size_t n, const int64_t *key,
				     struct nst_error *err)
{
	enum nst_status s;
	if (n == 0 || sort_packed(idx, n, key, true, &s, err))
		return n ? s : NST_OK;
	/* the keys flipped, by row as key is: ~k orders as -k would, and has
	 * no overflow at INT64_MIN */
	int64_t *flip = keys_by_row(idx, n);
	if (!flip)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory sorting rows");
	for (size_t i = 0; i < n; i++)
		flip[idx[i]] = ~key[idx[i]];
	s = nst_sort_by_key(idx, n, flip, err);
	free(flip);
	return s;
}

enum nst_status nst_sort_by_total(uint32_t *idx, size_t n, const struct nst_dist *d,
				  int (*ties)(uint32_t a, uint32_t b, void *arg), void *arg,
				  struct nst_error *err)
{
	int64_t *total = keys_by_row(idx, n);
	if (!total)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory sorting rows");
	for (size_t i = 0; i < n; i++)
		total[idx[i]] = d[idx[i]].sum;
	enum nst_status s = nst_sort_by_key_desc(idx, n, total, err);
	for (size_t lo = 0, hi; s == NST_OK && ties && lo < n; lo = hi) {
		for (hi = lo + 1; hi < n && total[idx[hi]] == total[idx[lo]]; hi++)
			;
		if (hi - lo > 1)
			nst_stable_sort(idx + lo, hi - lo, ties, arg);
	}
	free(total);
	return s;
}
