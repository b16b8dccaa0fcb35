#include "reports/common.h"

#include <stdlib.h>
#include <string.h>

#include "core/corrindex.h"
#include "reports/nvtx_gpu.h"

struct nst_shared {
	bool calls_loaded;
	struct nst_calls calls;
	bool ids_loaded, index_built;
	struct nst_corrindex call_index;
	const char **api_names; /* by nameId, dense ids only */
	size_t napi_names;
	int64_t *kname_ids[3];
	struct nst_col kname_col[3]; /* kname_ids as columns */
	struct nst_arena arena; /* stripped API names */
	uint32_t *call_next; /* nst_calls_chain() */
	/* nvtx-name: "range/kernel" ids by name mode, and their texts */
	int64_t *kname_nvtx_ids[3];
	struct nst_col kname_nvtx_col[3];
	const char **kname_nvtx_text[3];
	size_t nkname_nvtx_text[3];
};

struct nst_shared *nst_shared_new(void)
{
	return calloc(1, sizeof(struct nst_shared));
}

void nst_shared_free(struct nst_shared *sh)
{
	if (!sh)
		return;
	free(sh->calls.rows);
	nst_corrindex_release(&sh->call_index);
	free(sh->api_names);
	for (int i = 0; i < 3; i++) {
		free(sh->kname_ids[i]);
		free(sh->kname_nvtx_ids[i]);
		free(sh->kname_nvtx_text[i]);
	}
	nst_arena_release(&sh->arena);
	free(sh->call_next);
	free(sh);
}

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
	uint32_t *slot = malloc(cap * sizeof *slot);
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
	g->first = malloc((nrows ? nrows : 1) * sizeof *g->first);
	if (!g->first || table_resize(&t, 1024, keys, nkeys, g)) {
		free(t.slot);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory grouping rows");
	}
	for (size_t i = 0; i < nrows; i++) {
		uint32_t r = rows[i];
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

/* One key with a small range (string ids, device ids): a direct table
 * instead of hashing.  Returns false when the range is too wide. */
static bool assign_small_range(const struct nst_col *key, const uint32_t *rows, size_t nrows,
			       uint32_t *gid, struct nst_groups *g, enum nst_status *s,
			       struct nst_error *err)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	for (size_t i = 0; i < nrows; i++) {
		int64_t v = nst_col_at(key, rows[i]);
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	/* unsigned: a NULL (INT64_MIN) among big ids must not overflow */
	uint64_t width = (uint64_t)hi - (uint64_t)lo;
	if (nrows == 0 || width >= 4 * (uint64_t)nrows + 65536)
		return false;
	size_t span = (size_t)width + 1;
	uint32_t *slot = malloc(span * sizeof *slot);
	g->first = malloc(nrows * sizeof *g->first);
	if (!slot || !g->first) {
		free(slot);
		*s = nst_fail(err, NST_ERR_NOMEM, "out of memory grouping rows");
		return true;
	}
	memset(slot, 0xff, span * sizeof *slot);
	for (size_t i = 0; i < nrows; i++) {
		uint32_t *sl = &slot[(uint64_t)nst_col_at(key, rows[i]) - (uint64_t)lo];
		if (*sl == UINT32_MAX) {
			*sl = (uint32_t)g->n;
			g->first[g->n++] = rows[i];
		}
		gid[i] = *sl;
	}
	free(slot);
	uint32_t *first = realloc(g->first, (g->n ? g->n : 1) * sizeof *first);
	if (first)
		g->first = first;
	*s = NST_OK;
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

enum nst_status nst_group_cols(const struct nst_col *const *keys, size_t nkeys,
			       const uint32_t *rows, size_t nrows,
			       struct nst_groups *g, struct nst_error *err)
{
	memset(g, 0, sizeof *g);
	uint32_t *gid = malloc((nrows ? nrows : 1) * sizeof *gid);
	if (!gid)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory grouping rows");
	enum nst_status s;
	if (nkeys != 1 || !assign_small_range(keys[0], rows, nrows, gid, g, &s, err))
		s = assign_groups(keys, nkeys, rows, nrows, gid, g, err);
	if (s == NST_OK) {
		g->start = calloc(g->n + 1, sizeof *g->start);
		g->order = malloc((nrows ? nrows : 1) * sizeof *g->order);
		if (!g->start || !g->order)
			s = nst_fail(err, NST_ERR_NOMEM, "out of memory grouping rows");
	}
	if (s == NST_OK) {
		/* Counting sort by group keeps each group's rows in row order. */
		for (size_t i = 0; i < nrows; i++)
			g->start[gid[i] + 1]++;
		for (size_t k = 0; k < g->n; k++)
			g->start[k + 1] += g->start[k];
		size_t *fill = malloc((g->n ? g->n : 1) * sizeof *fill);
		if (!fill) {
			s = nst_fail(err, NST_ERR_NOMEM, "out of memory grouping rows");
		} else {
			memcpy(fill, g->start, g->n * sizeof *fill);
			for (size_t i = 0; i < nrows; i++)
				g->order[fill[gid[i]]++] = rows[i];
			free(fill);
		}
	}
	free(gid);
	if (s != NST_OK)
		nst_groups_release(g);
	return s;
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

enum nst_status nst_group_dists(const struct nst_groups *g, const int64_t *val,
				struct nst_dist **out, struct nst_error *err)
{
	size_t most = 1;
	for (size_t k = 0; k < g->n; k++)
		if (g->start[k + 1] - g->start[k] > most)
			most = g->start[k + 1] - g->start[k];
	*out = malloc((g->n ? g->n : 1) * sizeof **out);
	int64_t *vals = malloc(most * sizeof *vals);
	if (!*out || !vals) {
		free(*out);
		free(vals);
		*out = NULL;
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	for (size_t k = 0; k < g->n; k++) {
		size_t n = 0;
		for (size_t i = g->start[k]; i < g->start[k + 1]; i++)
			vals[n++] = val[g->order[i]];
		if (!nst_dist_of(vals, n, &(*out)[k])) {
			free(vals);
			free(*out);
			*out = NULL;
			return nst_fail_sum(err);
		}
	}
	free(vals);
	return NST_OK;
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

void nst_stable_sort(uint32_t *idx, size_t n,
		     int (*cmp)(uint32_t a, uint32_t b, void *arg), void *arg)
{
	uint32_t *tmp = malloc((n ? n : 1) * sizeof *tmp);
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

struct nst_cell nst_mid_cell(struct nst_mid m)
{
	return m.is_int ? nst_int(m.i) : nst_real(m.r);
}

/* ---- names --------------------------------------------------------------- */

static const char *strip_version(struct nst_arena *arena, const char *name)
{
	size_t len = strlen(name);
	if (len >= 6 && name[len - 6] == '_' && name[len - 5] == 'v')
		return nst_arena_strndup(arena, name, len - 6);
	return name;
}

const char *nst_api_name(struct nst_ctx *ctx, int64_t id)
{
	struct nst_shared *sh = ctx->shared;
	const char *raw = nst_db_string(ctx->db, id);
	if (!raw)
		return NULL;
	if (id < 0 || id >= (1 << 24))
		return strip_version(ctx->arena, raw);
	if ((size_t)id < sh->napi_names && sh->api_names[id])
		return sh->api_names[id];
	if ((size_t)id >= sh->napi_names) {
		size_t n = (size_t)id * 2 + 64;
		const char **p = realloc(sh->api_names, n * sizeof *p);
		if (!p)
			return strip_version(ctx->arena, raw);
		memset(p + sh->napi_names, 0, (n - sh->napi_names) * sizeof *p);
		sh->api_names = p;
		sh->napi_names = n;
	}
	return sh->api_names[id] = strip_version(&sh->arena, raw);
}

enum nst_kname nst_kname_mode(const struct nst_ctx *ctx)
{
	if (nst_ctx_flag(ctx, "base"))
		return NST_KNAME_SHORT;
	if (nst_ctx_flag(ctx, "mangled"))
		return NST_KNAME_MANGLED;
	return NST_KNAME_DEMANGLED;
}

/* Where the ids of "range/kernel" names start, for each name mode: far
 * above any StringIds id. */
static int64_t nvtx_kname_base(int mode)
{
	return (INT64_C(1) << 40) * (mode + 1);
}

const char *nst_kernel_name_text(struct nst_ctx *ctx, int64_t id)
{
	struct nst_shared *sh = ctx->shared;
	if (id == NST_NULL_I64)
		return NULL;
	for (int m = 0; m < 3; m++) {
		int64_t i = id - nvtx_kname_base(m);
		if (i >= 0 && (uint64_t)i < sh->nkname_nvtx_text[m])
			return sh->kname_nvtx_text[m][i];
	}
	return nst_db_string(ctx->db, id);
}

/* The ids of nvtx-name: the mode's ids with range names prefixed. */
static enum nst_status nvtx_kernel_name_ids(struct nst_ctx *ctx, enum nst_kname mode,
					    const struct nst_col **ids, struct nst_error *err)
{
	struct nst_shared *sh = ctx->shared;
	if (!sh->kname_nvtx_ids[mode]) {
		const struct nst_col *base;
		enum nst_status s = nst_kernel_name_ids(ctx, mode, &base, err);
		if (s == NST_OK && base)
			s = nst_nvtx_kernel_names(ctx, base, nvtx_kname_base(mode), &sh->arena,
						  &sh->kname_nvtx_ids[mode],
						  &sh->kname_nvtx_text[mode],
						  &sh->nkname_nvtx_text[mode], err);
		if (s != NST_OK || !base) {
			*ids = base;
			return s;
		}
	}
	sh->kname_nvtx_col[mode] = nst_col_of(sh->kname_nvtx_ids[mode]);
	*ids = &sh->kname_nvtx_col[mode];
	return NST_OK;
}

enum nst_status nst_report_kernel_name_ids(struct nst_ctx *ctx, const struct nst_col **ids,
					   struct nst_error *err)
{
	if (nst_ctx_flag(ctx, "nvtx-name"))
		return nvtx_kernel_name_ids(ctx, nst_kname_mode(ctx), ids, err);
	return nst_kernel_name_ids(ctx, nst_kname_mode(ctx), ids, err);
}

enum nst_status nst_kernel_name_ids(struct nst_ctx *ctx, enum nst_kname mode,
				    const struct nst_col **ids, struct nst_error *err)
{
	static const char *const col[] = { "demangledName", "shortName", "mangledName" };
	const struct nst_col *dem, *chosen;
	enum nst_status s = nst_ev_col(ctx->ev, KERNEL, "demangledName", &dem, err);
	if (s == NST_OK)
		s = nst_ev_col(ctx->ev, KERNEL, col[mode], &chosen, err);
	if (s != NST_OK)
		return s;
	if (mode == NST_KNAME_DEMANGLED || !chosen || !dem) {
		*ids = chosen ? chosen : dem;
		return NST_OK;
	}
	if (ctx->shared->kname_ids[mode]) {
		*ids = &ctx->shared->kname_col[mode];
		return NST_OK;
	}
	size_t n;
	if ((s = nst_ev_rows(ctx->ev, KERNEL, &n, err)) != NST_OK)
		return s;
	int64_t *out = malloc((n ? n : 1) * sizeof *out);
	if (!out)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		int64_t v = nst_col_at(chosen, i);
		out[i] = v != NST_NULL_I64 ? v : nst_col_at(dem, i);
	}
	ctx->shared->kname_ids[mode] = out;
	ctx->shared->kname_col[mode] = nst_col_of(out);
	*ids = &ctx->shared->kname_col[mode];
	return NST_OK;
}

/* ---- runtime rows ---------------------------------------------------------- */

static enum nst_status load_calls(struct nst_ctx *ctx, struct nst_error *err)
{
	struct nst_calls *c = &ctx->shared->calls;
	const struct nst_col *cls, *chain;
	enum nst_status s = nst_ev_rows(ctx->ev, RUNTIME, &c->n, err);
	if (!s) s = nst_ev_i64(ctx->ev, RUNTIME, "start", &c->start, err);
	if (!s) s = nst_ev_i64(ctx->ev, RUNTIME, "end", &c->end, err);
	if (!s) s = nst_ev_col(ctx->ev, RUNTIME, "nameId", &c->name_id, err);
	if (!s) s = nst_ev_col(ctx->ev, RUNTIME, "eventClass", &cls, err);
	if (!s) s = nst_ev_col(ctx->ev, RUNTIME, "callchainId", &chain, err);
	if (s != NST_OK)
		return s;
	if (!c->start || !c->end || !c->name_id)
		return nst_fail(err, NST_ERR_DB, "%s: %s lacks start, end or nameId",
				nst_db_path(ctx->db), RUNTIME);
	c->rows = malloc((c->n ? c->n : 1) * sizeof *c->rows);
	if (!c->rows)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory reading %s", RUNTIME);
	for (size_t i = 0; i < c->n; i++)
		if (!nst_is_backtrace(cls, chain, i))
			c->rows[c->ncalls++] = (uint32_t)i;
	return NST_OK;
}

enum nst_status nst_calls_ids(struct nst_ctx *ctx, const struct nst_calls **out,
			      struct nst_error *err)
{
	struct nst_calls *c = &ctx->shared->calls;
	enum nst_status s = nst_calls_get(ctx, out, err);
	if (s != NST_OK || ctx->shared->ids_loaded)
		return s;
	if (!s) s = nst_ev_col(ctx->ev, RUNTIME, "globalTid", &c->gtid, err);
	if (!s) s = nst_ev_col(ctx->ev, RUNTIME, "correlationId", &c->corr, err);
	if (!s) s = nst_ev_col(ctx->ev, RUNTIME, "returnValue", &c->ret, err);
	ctx->shared->ids_loaded = s == NST_OK;
	return s;
}

enum nst_status nst_calls_index(struct nst_ctx *ctx, struct nst_error *err)
{
	struct nst_shared *sh = ctx->shared;
	const struct nst_calls *c;
	enum nst_status s = nst_calls_ids(ctx, &c, err);
	if (s != NST_OK || sh->index_built || !c->gtid || !c->corr)
		return s;
	if (nst_corrindex_build(&sh->call_index, c->gtid, 0xFFFFFFFFFF000000ull,
				c->corr, c->rows, c->ncalls) != 0)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory indexing %s", RUNTIME);
	sh->index_built = true;
	return NST_OK;
}

enum nst_status nst_calls_get(struct nst_ctx *ctx, const struct nst_calls **out,
			      struct nst_error *err)
{
	struct nst_shared *sh = ctx->shared;
	if (!sh->calls_loaded) {
		enum nst_status s = load_calls(ctx, err);
		if (s != NST_OK)
			return s;
		sh->calls_loaded = true;
	}
	*out = &sh->calls;
	return NST_OK;
}

int64_t nst_calls_find(struct nst_ctx *ctx, int64_t gpid, int64_t corr)
{
	if (gpid == NST_NULL_I64 || corr == NST_NULL_I64)
		return -1;
	return nst_corrindex_find(&ctx->shared->call_index, gpid, corr);
}

/* ---- the usual duration summary ------------------------------------------ */

enum nst_status nst_emit_summary(const struct nst_sink *out,
				 const char *count_label,
				 const char *const *tail_cols, size_t ntail,
				 const struct nst_summary_row *rows, size_t n,
				 struct nst_error *err)
{
	double total = 0;
	for (size_t k = 0; k < n; k++)
		total += (double)rows[k].d->sum;
	return nst_emit_summary_of(out, count_label, tail_cols, ntail, rows, n, total, err);
}

enum nst_status nst_emit_summary_of(const struct nst_sink *out,
				    const char *count_label,
				    const char *const *tail_cols, size_t ntail,
				    const struct nst_summary_row *rows, size_t n,
				    double total, struct nst_error *err)
{
	const char *cols[8 + 4] = {
		"Time:ratio_%", "Total Time:dur_ns", count_label, "Avg:dur_ns",
		"Med:dur_ns", "Min:dur_ns", "Max:dur_ns", "StdDev:dur_ns",
	};
	for (size_t t = 0; t < ntail; t++)
		cols[8 + t] = tail_cols[t];
	if (out->begin(out->ctx, cols, 8 + ntail))
		return nst_fail(err, NST_ERR_IO, "cannot write the report");
	for (size_t k = 0; k < n; k++) {
		const struct nst_dist *d = rows[k].d;
		struct nst_cell c[12] = {
			/* SQL divides by zero into NULL */
			total != 0 ? nst_round1((double)d->sum * 100.0 / total) : nst_null(),
			nst_int(d->sum),
			nst_int((int64_t)d->n),
			nst_round1(d->avg),
			nst_round1(nst_mid_value(d->med)),
			nst_int(d->min),
			nst_int(d->max),
			nst_round1(d->stdev),
		};
		for (size_t t = 0; t < ntail; t++)
			c[8 + t] = rows[k].tail[t];
		if (out->row(out->ctx, c))
			return nst_fail(err, NST_ERR_IO, "cannot write the report");
	}
	return NST_OK;
}

enum nst_status nst_nodata(struct nst_ctx *ctx, struct nst_error *err,
			   const char *what)
{
	return nst_fail(err, NST_ERR_NODATA, "%s does not contain %s",
			nst_db_path(ctx->db), what);
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

/* Whether key[idx[]] is already in order: nothing to sort, nor to
 * allocate. */
static bool in_key_order(const uint32_t *idx, size_t n, const int64_t *key)
{
	for (size_t i = 1; i < n; i++)
		if (key[idx[i]] < key[idx[i - 1]])
			return false;
	return true;
}

/* Bits needed for v. */
static int bits_of(uint64_t v)
{
	int b = 0;
	while (b < 64 && (v >> b) != 0)
		b++;
	return b;
}

/* One stable counting pass of packed values on the byte at `shift`. */
static void radix_pass_packed(const uint64_t *src, uint64_t *dst, size_t n, int shift)
{
	size_t count[257] = { 0 };
	for (size_t i = 0; i < n; i++)
		count[((src[i] >> shift) & 0xff) + 1]++;
	for (int b = 0; b < 256; b++)
		count[b + 1] += count[b];
	for (size_t i = 0; i < n; i++)
		dst[count[(src[i] >> shift) & 0xff]++] = src[i];
}

/* When idx ascends (row order, as the traces start from) and the key's
 * range and the largest row fit 64 bits together, (key - min, row) packs
 * into one word: equal keys then stay in row order, which is idx's, and
 * the sort takes 16 bytes a row.  Returns false when it does not apply. */
static bool sort_packed(uint32_t *idx, size_t n, const int64_t *key, enum nst_status *s,
			struct nst_error *err)
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
	uint64_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
	if (!a || !b) {
		free(a);
		free(b);
		*s = nst_fail(err, NST_ERR_NOMEM, "out of memory sorting rows");
		return true;
	}
	uint64_t or_all = 0, and_all = ~(uint64_t)0;
	for (size_t i = 0; i < n; i++) {
		a[i] = (((uint64_t)key[idx[i]] - (uint64_t)lo) << rowbits) | idx[i];
		or_all |= a[i];
		and_all &= a[i];
	}
	uint64_t *src = a, *dst = b;
	for (int shift = 0; shift < 64; shift += 8) {
		if ((((or_all ^ and_all) >> shift) & 0xff) == 0)
			continue;
		radix_pass_packed(src, dst, n, shift);
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

enum nst_status nst_sort_by_key(uint32_t *idx, size_t n, const int64_t *key,
				struct nst_error *err)
{
	if (in_key_order(idx, n, key))
		return NST_OK;
	enum nst_status packed;
	if (sort_packed(idx, n, key, &packed, err))
		return packed;
	struct keyed_rows a = { malloc(n * sizeof *a.key), idx };
	struct keyed_rows b = { malloc(n * sizeof *b.key), malloc(n * sizeof *b.row) };
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

/* ---- runtime rows sharing a launch key -------------------------------------- */

static enum nst_status build_call_chain(struct nst_ctx *ctx, const struct nst_calls *c,
					struct nst_error *err)
{
	uint32_t *next = malloc((c->n ? c->n : 1) * sizeof *next);
	uint32_t *last = malloc((c->n ? c->n : 1) * sizeof *last);
	if (!next || !last) {
		free(next);
		free(last);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory indexing %s", RUNTIME);
	}
	memset(next, 0xff, (c->n ? c->n : 1) * sizeof *next);
	for (size_t k = 0; k < c->ncalls; k++) {
		uint32_t r = c->rows[k];
		int64_t gtid = nst_col_or_null(c->gtid, r);
		if (!c->corr || gtid == NST_NULL_I64)
			continue;
		int64_t first = nst_calls_find(ctx, nst_gpid(gtid), nst_col_at(c->corr, r));
		if (first < 0)
			continue;
		if ((uint32_t)first == r) {
			last[r] = r;
			continue;
		}
		next[last[first]] = r;
		last[first] = r;
	}
	free(last);
	ctx->shared->call_next = next;
	return NST_OK;
}

enum nst_status nst_calls_chain(struct nst_ctx *ctx, const uint32_t **next,
				struct nst_error *err)
{
	const struct nst_calls *c;
	enum nst_status s = nst_calls_get(ctx, &c, err);
	if (s == NST_OK)
		s = nst_calls_index(ctx, err);
	if (s == NST_OK && !ctx->shared->call_next)
		s = build_call_chain(ctx, c, err);
	*next = ctx->shared->call_next;
	return s;
}

enum nst_status nst_no_table(struct nst_ctx *ctx, struct nst_error *err,
			     const char *table)
{
	return nst_fail(err, NST_ERR_NODATA, "%s file does not contain %s table.",
			nst_db_path(ctx->db), table);
}

enum nst_status nst_require_strings(struct nst_ctx *ctx, struct nst_error *err)
{
	if (nst_db_has_table(ctx->db, "StringIds"))
		return NST_OK;
	return nst_no_table(ctx, err, "StringIds");
}

/* ---- calls summarised by name ------------------------------------------- */

struct by_total {
	const struct nst_dist *d;
	const int64_t *key;
};

/* Total descending; equal totals in name id order, as GROUP BY nameId
 * leaves them. */
static int cmp_total(uint32_t a, uint32_t b, void *arg)
{
	const struct by_total *t = arg;
	if (t->d[a].sum != t->d[b].sum)
		return t->d[a].sum > t->d[b].sum ? -1 : 1;
	return (t->key[a] > t->key[b]) - (t->key[a] < t->key[b]);
}

static enum nst_status emit_by_name(struct nst_ctx *ctx, const struct nst_sink *out,
				    const struct nst_groups *g, const struct nst_dist *d,
				    const struct nst_col *name_id, nst_name_fn name_of,
				    struct nst_error *err)
{
	size_t n = g->n ? g->n : 1;
	uint32_t *order = malloc(n * sizeof *order);
	int64_t *key = malloc(n * sizeof *key);
	struct nst_summary_row *rows = malloc(n * sizeof *rows);
	enum nst_status s = NST_OK;
	if (!order || !key || !rows) {
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
		goto out;
	}
	for (size_t k = 0; k < g->n; k++) {
		order[k] = (uint32_t)k;
		key[k] = nst_col_at(name_id, g->first[k]);
	}
	nst_stable_sort(order, g->n, cmp_total, &(struct by_total){ d, key });
	for (size_t k = 0; k < g->n; k++) {
		rows[k].d = &d[order[k]];
		rows[k].tail[0] = nst_text(name_of(ctx, key[order[k]]));
	}
	static const char *const tail[] = { "Name" };
	s = nst_emit_summary(out, "Num Calls", tail, 1, rows, g->n, err);
out:
	free(order);
	free(key);
	free(rows);
	return s;
}

enum nst_status nst_summarise_calls(struct nst_ctx *ctx, const struct nst_sink *out,
				    const int64_t *start, const int64_t *end,
				    const struct nst_col *name_id, size_t n,
				    const uint32_t *rows, size_t nrows,
				    nst_name_fn name_of, struct nst_error *err)
{
	int64_t *dur = malloc((n ? n : 1) * sizeof *dur);
	if (!dur)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		dur[i] = end[i] - start[i];
	struct nst_groups g;
	struct nst_dist *d = NULL;
	const struct nst_col *keys[] = { name_id };
	enum nst_status s = nst_group_cols(keys, 1, rows, nrows, &g, err);
	if (s == NST_OK) {
		s = nst_group_dists(&g, dur, &d, err);
		if (s == NST_OK)
			s = emit_by_name(ctx, out, &g, d, name_id, name_of, err);
		nst_groups_release(&g);
	}
	free(d);
	free(dur);
	return s;
}

const char *nst_raw_name(struct nst_ctx *ctx, int64_t name_id)
{
	return nst_db_string(ctx->db, name_id);
}
