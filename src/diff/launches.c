/* The launches of both sides of a diff: keys, streams in start order,
 * and streams paired by content (launches.h). */
#include <stdlib.h>
#include <string.h>

#include "core/big.h"
#include "diff/launches.h"
#include "reports/kernel_names.h"

enum nst_status diff_launch_keys_init(struct diff_launch_keys *k, struct nst_error *err)
{
	memset(k, 0, sizeof *k);
	if (nst_map_init(&k->ids, 1024))
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	return NST_OK;
}

void diff_launch_keys_release(struct diff_launch_keys *k)
{
	nst_strtab_release(&k->names);
	nst_map_release(&k->ids);
	free(k->name);
	free(k->dims);
	nst_arena_release(&k->arena);
}

/* ---- the launches of one side -------------------------------------------------- */

static bool pack(const int64_t d[6], int64_t *grid, int64_t *block)
{
	for (int i = 0; i < 6; i++)
		if (d[i] < 0 || d[i] >= (i == 0 ? INT64_C(1) << 31 : INT64_C(1) << 16))
			return false;
	if (d[3] >= 1 << 11 || d[4] >= 1 << 11 || d[5] >= 1 << 7)
		return false;
	*grid = d[0] << 32 | d[1] << 16 | d[2];
	*block = d[3] << 18 | d[4] << 7 | d[5];
	return true;
}

static enum nst_status new_key(struct diff_launch_keys *k, const char *name, const int64_t d[6],
			       uint32_t *out, struct nst_error *err)
{
	if (k->n == k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 256;
		const char **nm = realloc(k->name, cap * sizeof *nm);
		if (nm)
			k->name = nm;
		int64_t (*dm)[6] = nm ? realloc(k->dims, cap * sizeof *dm) : NULL;
		if (!dm)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		k->dims = dm;
		k->cap = cap;
	}
	k->name[k->n] = name;
	memcpy(k->dims[k->n], d, sizeof k->dims[0]);
	*out = (uint32_t)k->n++;
	return NST_OK;
}

/* The key of a launch: its name's number and its dimensions, packed when
 * they are within CUDA's limits, else spelled out in the name's text. */
static enum nst_status key_of(struct diff_launch_keys *k, const char *name, const int64_t d[6],
			      uint32_t *out, struct nst_error *err)
{
	int64_t grid, block;
	const char *text = name ? name : "";
	if (!pack(d, &grid, &block)) {
		text = nst_arena_printf(&k->arena, "%s\x1f%lld %lld %lld %lld %lld %lld", text,
					(long long)d[0], (long long)d[1], (long long)d[2],
					(long long)d[3], (long long)d[4], (long long)d[5]);
		grid = block = -1;
		if (!text)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	int64_t tid = nst_strtab_intern(&k->names, text);
	uint32_t id;
	bool fresh;
	if (tid < 0 || nst_map_get_or_put(&k->ids, tid << 32 | (block & 0xFFFFFFFF), grid,
					  (uint32_t)k->n, &id, &fresh) < 0)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (!fresh) {
		*out = id;
		return NST_OK;
	}
	return new_key(k, name, d, out, err);
}

static const char *const dim_cols[6] = { "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ" };

static enum nst_status read_keys(struct nst_ctx *ctx, struct diff_launch_keys *k, bool base,
				 struct diff_launch_side *s, struct nst_error *err)
{
	const struct nst_col *name, *dim[6] = { NULL };
	enum nst_status st = nst_kernel_name_ids(ctx, base ? NST_KNAME_SHORT : NST_KNAME_DEMANGLED,
						 &name, err);
	for (int i = 0; st == NST_OK && i < 6; i++)
		st = nst_ev_col(ctx->ev, KERNEL, dim_cols[i], &dim[i], err);
	if (st != NST_OK)
		return st;
	if (!(s->key = nst_big_alloc(s->n, sizeof *s->key)))
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t r = 0; st == NST_OK && r < s->n; r++) {
		int64_t d[6], sid = name ? nst_col_at(name, r) : NST_NULL_I64;
		for (int i = 0; i < 6; i++)
			d[i] = dim[i] && nst_col_at(dim[i], r) != NST_NULL_I64 ? nst_col_at(dim[i], r) : 0;
		const char *text = sid == NST_NULL_I64 ? NULL : nst_db_string(ctx->db, sid);
		st = key_of(k, text, d, &s->key[r], err);
	}
	return st;
}

struct by_stream {
	const struct nst_col *device, *stream;
	const int64_t *start;
};

static int stream_then_start(uint32_t a, uint32_t b, void *arg)
{
	const struct by_stream *c = arg;
	int64_t x[3] = { c->device ? nst_col_at(c->device, a) : 0,
			 c->stream ? nst_col_at(c->stream, a) : 0, c->start[a] };
	int64_t y[3] = { c->device ? nst_col_at(c->device, b) : 0,
			 c->stream ? nst_col_at(c->stream, b) : 0, c->start[b] };
	for (int i = 0; i < 3; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

/* Rows in (device, stream, start) order, cut into streams. */
static enum nst_status order_streams(struct nst_ctx *ctx, struct diff_launch_side *s,
				     struct nst_error *err)
{
	struct by_stream c = { NULL, NULL, s->start };
	enum nst_status st = nst_ev_col(ctx->ev, KERNEL, "deviceId", &c.device, err);
	if (st == NST_OK)
		st = nst_ev_col(ctx->ev, KERNEL, "streamId", &c.stream, err);
	s->order = nst_big_alloc(s->n, sizeof *s->order);
	s->seq = nst_big_alloc(s->n, sizeof *s->seq);
	s->streams = nst_big_alloc(s->n, sizeof *s->streams);
	if (st == NST_OK && (!s->order || !s->seq || !s->streams))
		st = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (st != NST_OK)
		return st;
	for (size_t r = 0; r < s->n; r++)
		s->order[r] = (uint32_t)r;
	nst_stable_sort(s->order, s->n, stream_then_start, &c);
	for (size_t i = 0; i < s->n; i++) {
		uint32_t r = s->order[i];
		int64_t dev = c.device ? nst_col_at(c.device, r) : 0;
		int64_t str = c.stream ? nst_col_at(c.stream, r) : 0;
		struct diff_launch_stream *last = s->nstreams ? &s->streams[s->nstreams - 1] : NULL;
		if (!last || last->device != dev || last->stream != str)
			s->streams[s->nstreams++] = (struct diff_launch_stream){ dev, str, i, 0, -1 };
		s->streams[s->nstreams - 1].n++;
		s->seq[i] = s->key[r];
		if (i == 0 || s->start[r] < s->origin)
			s->origin = s->start[r];
	}
	return NST_OK;
}

enum nst_status diff_launch_load_side(struct nst_diff_ctx *d, int side, struct diff_launch_keys *k,
				      struct diff_launch_side *s, struct nst_error *err)
{
	struct nst_ctx ctx;
	enum nst_status st = d->events(d, side, &ctx, err);
	if (st == NST_ERR_NODATA)
		return NST_OK; /* the filter's range is not on this side: no launches */
	if (st == NST_OK)
		st = nst_ev_rows(ctx.ev, KERNEL, &s->n, err);
	if (st == NST_OK)
		st = nst_ev_i64(ctx.ev, KERNEL, "start", &s->start, err);
	if (st == NST_OK)
		st = nst_ev_i64(ctx.ev, KERNEL, "end", &s->end, err);
	if (st == NST_OK && s->n && (!s->start || !s->end))
		return nst_fail(err, NST_ERR_DB, "%s lacks start or end", KERNEL);
	if (st == NST_OK)
		st = read_keys(&ctx, k, diff_names_base(d), s, err);
	return st == NST_OK ? order_streams(&ctx, s, err) : st;
}

void diff_launch_release_side(struct diff_launch_side *s)
{
	free(s->key);
	free(s->order);
	free(s->seq);
	free(s->streams);
}

/* ---- pairing streams by content ------------------------------------------------- */

static int ascending(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	return (a > b) - (a < b);
}

/* Launches two streams have in common: the intersection of their keys as
 * multisets (both sorted). */
static size_t common(const uint32_t *a, size_t n, const uint32_t *b, size_t m)
{
	size_t i = 0, j = 0, c = 0;
	while (i < n && j < m) {
		if (a[i] == b[j])
			c++, i++, j++;
		else if (a[i] < b[j])
			i++;
		else
			j++;
	}
	return c;
}

struct candidate {
	bool same;     /* the same device and stream number */
	size_t common, a, b;
};

static int better(const void *x, const void *y)
{
	const struct candidate *p = x, *q = y;
	if (p->same != q->same)
		return p->same ? -1 : 1;
	if (p->common != q->common)
		return p->common > q->common ? -1 : 1;
	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return (p->b > q->b) - (p->b < q->b);
}

static uint32_t *sorted_keys(const struct diff_launch_side *s)
{
	uint32_t *k = nst_big_alloc(s->n, sizeof *k);
	if (!k)
		return NULL;
	memcpy(k, s->seq, s->n * sizeof *k);
	for (size_t i = 0; i < s->nstreams; i++)
		qsort(k + s->streams[i].first, s->streams[i].n, sizeof *k, ascending);
	return k;
}

enum nst_status diff_launch_pair_streams(struct diff_launch_side *a, struct diff_launch_side *b,
					 struct nst_error *err)
{
	uint32_t *ka = sorted_keys(a), *kb = sorted_keys(b);
	size_t nc = a->nstreams * b->nstreams, m = 0;
	struct candidate *c = nst_big_alloc(nc, sizeof *c);
	enum nst_status st = ka && kb && c ? NST_OK : nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; st == NST_OK && i < a->nstreams; i++)
		for (size_t j = 0; j < b->nstreams; j++) {
			const struct diff_launch_stream *sa = &a->streams[i], *sb = &b->streams[j];
			size_t n = common(ka + sa->first, sa->n, kb + sb->first, sb->n);
			bool same = sa->device == sb->device && sa->stream == sb->stream;
			if (n)
				c[m++] = (struct candidate){ same, n, i, j };
		}
	if (st == NST_OK)
		qsort(c, m, sizeof *c, better);
	for (size_t i = 0; st == NST_OK && i < m; i++)
		if (a->streams[c[i].a].paired < 0 && b->streams[c[i].b].paired < 0) {
			a->streams[c[i].a].paired = (int64_t)c[i].b;
			b->streams[c[i].b].paired = (int64_t)c[i].a;
		}
	free(ka);
	free(kb);
	free(c);
	return st;
}

/* ---- repeated rows ------------------------------------------------------------------ */

/* Whether the launch at order[i] repeats one before it in [from, i): the
 * launches of one start are few, and not in end order. */
static bool repeats(const struct diff_launch_side *s, size_t from, size_t i)
{
	uint32_t r = s->order[i];
	for (size_t j = from; j < i; j++)
		if (s->end[s->order[j]] == s->end[r])
			return true;
	return false;
}

static int drop_in_stream(struct diff_launch_side *s, struct diff_launch_stream *st, size_t *to,
			  int (*fn)(void *arg, uint32_t row), void *arg)
{
	size_t begin = *to, kept = begin, same = begin;
	for (size_t i = st->first; i < st->first + st->n; i++) {
		uint32_t r = s->order[i];
		if (kept > begin && s->start[s->order[kept - 1]] != s->start[r])
			same = kept;
		s->order[kept] = r;
		if (repeats(s, same, kept)) {
			int rc = fn(arg, r);
			if (rc)
				return rc;
			continue;
		}
		s->seq[kept++] = s->key[r];
	}
	st->first = begin;
	st->n = kept - begin;
	*to = kept;
	return 0;
}

int diff_launch_drop_repeats(struct diff_launch_side *s, int (*fn)(void *arg, uint32_t row),
			     void *arg)
{
	size_t to = 0;
	for (size_t i = 0; i < s->nstreams; i++) {
		int rc = drop_in_stream(s, &s->streams[i], &to, fn, arg);
		if (rc)
			return rc;
	}
	return 0;
}
