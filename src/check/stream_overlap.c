/* Kernels that overlap on one stream.  A stream runs its work in order, so
 * an overlap there means a wrong timestamp or a row written twice; busy
 * time taken as a sum then counts the overlap twice. */
#include <stdlib.h>

#include "check/launches.h"
#include "core/big.h"
#include "core/hashmap.h"

struct kern {
	int64_t proc, dev, stream, start, end;
	uint32_t row;
};

/* A kernel that starts before open_until, the latest end before it. */
struct overlap {
	struct kern k;
	int64_t open_until;
};

struct kernel_cols {
	size_t n;
	const struct nst_col *pid, *dev, *stream, *start, *end;
};

static int by_stream_start(const void *a, const void *b)
{
	const struct kern *x = a, *y = b;
	if (x->proc != y->proc) return x->proc < y->proc ? -1 : 1;
	if (x->dev != y->dev) return x->dev < y->dev ? -1 : 1;
	if (x->stream != y->stream) return x->stream < y->stream ? -1 : 1;
	if (x->start != y->start) return x->start < y->start ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

static bool same_stream(const struct kern *x, const struct kern *y)
{
	return x->proc == y->proc && x->dev == y->dev && x->stream == y->stream;
}

/* Kernel row i, false when its start or end is NULL. */
static bool kern_at(const struct kernel_cols *c, size_t i, struct kern *k)
{
	*k = (struct kern){ chk_gpid(chk_at(c->pid, i)), chk_at(c->dev, i), chk_at(c->stream, i),
			    nst_col_at(c->start, i), nst_col_at(c->end, i), (uint32_t)i };
	return k->start != NST_NULL_I64 && k->end != NST_NULL_I64;
}

/* The overlaps found, noted in stream and start order. */
struct found {
	struct overlap *o;
	size_t n, cap;
};

static bool add(struct found *f, const struct kern *k, int64_t open_until)
{
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 16;
		struct overlap *o = realloc(f->o, cap * sizeof *o);
		if (!o)
			return false;
		f->o = o;
		f->cap = cap;
	}
	f->o[f->n++] = (struct overlap){ *k, open_until };
	return true;
}

static void note_kernel(struct chk_ctx *ctx, struct chk_result *r, const struct overlap *o)
{
	const struct nst_col *rowid = NULL;
	struct nst_error ignored;
	chk_col(ctx, CHK_KERNEL, "rowid", &rowid, &ignored);
	const struct kern *k = &o->k;
	r->count++;
	struct chk_example *e = chk_example(r, CHK_KERNEL, chk_at(rowid, k->row));
	chk_num(e, "globalPid", k->proc);
	chk_num(e, "deviceId", k->dev);
	chk_num(e, "streamId", k->stream);
	chk_num(e, "start", k->start);
	chk_num(e, "overlap", (o->open_until < k->end ? o->open_until : k->end) - k->start);
}

/* ---- any order: every kernel sorted by stream, start and row ----------- */

/* A kernel overlaps when it starts before a kernel that comes earlier on
 * its stream (by start, then row) has ended. */
static bool sweep(const struct kern *k, size_t n, struct found *f)
{
	int64_t open_until = INT64_MIN;
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || !same_stream(&k[i], &k[i - 1]))
			open_until = INT64_MIN;
		else if (k[i].start < open_until && !add(f, &k[i], open_until))
			return false;
		if (k[i].end > open_until)
			open_until = k[i].end;
	}
	return true;
}

static enum nst_status sorted_sweep(const struct kernel_cols *c, struct found *f,
				    struct nst_error *err)
{
	struct kern *k = nst_big_alloc(c->n, sizeof *k);
	if (!k)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	size_t n = 0;
	for (size_t i = 0; i < c->n; i++)
		n += kern_at(c, i, &k[n]);
	qsort(k, n, sizeof *k, by_stream_start);
	bool ok = sweep(k, n, f);
	free(k);
	return ok ? NST_OK : nst_fail(err, NST_ERR_NOMEM, "out of memory");
}

/* ---- the usual export: each stream's rows already in start order ------- */

struct stream_state {
	int64_t last_start, open_until;
};

#define RECENT 64

struct recent_stream {
	int64_t proc, key;
	uint32_t at; /* UINT32_MAX: none */
};

struct streams {
	struct nst_map map; /* (process, device << 32 | stream) -> index in at */
	struct stream_state *at;
	size_t n, cap;
	/* The streams met lately, by a hash of their key, in front of the
	 * map: a few streams' kernels interleave row after row, 10M of them. */
	struct recent_stream recent[RECENT];
};

/* The state of k's stream; NULL when its ids do not make a key, or out of
 * memory (*nomem). */
static struct stream_state *stream_of(struct streams *s, const struct kern *k, bool *nomem)
{
	if (k->dev < 0 || k->dev > INT32_MAX || k->stream < 0 || k->stream > UINT32_MAX)
		return NULL;
	int64_t key = k->dev << 32 | k->stream;
	uint64_t h = ((uint64_t)k->proc * 0x9E3779B97F4A7C15ull ^ (uint64_t)key) * 0xBF58476D1CE4E5B9ull;
	struct recent_stream *seen = &s->recent[h >> 58];
	if (seen->at != UINT32_MAX && seen->proc == k->proc && seen->key == key)
		return &s->at[seen->at];
	uint32_t at;
	bool inserted;
	if (nst_map_get_or_put(&s->map, k->proc, key, (uint32_t)s->n, &at, &inserted) != 0) {
		*nomem = true;
		return NULL;
	}
	if (inserted && s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct stream_state *a = realloc(s->at, cap * sizeof *a);
		if (!a) {
			*nomem = true;
			return NULL;
		}
		s->at = a;
		s->cap = cap;
	}
	if (inserted)
		s->at[s->n++] = (struct stream_state){ INT64_MIN, INT64_MIN };
	seen->proc = k->proc;
	seen->key = key;
	seen->at = at;
	return &s->at[at];
}

/* The sweep in row order, each stream kept apart: the same as the sorted
 * sweep while each stream's starts do not go back.  *in_order false when
 * one does (or a stream has no key): the sorted sweep must run instead. */
static enum nst_status ordered_sweep(const struct kernel_cols *c, struct found *f,
				     bool *in_order, struct nst_error *err)
{
	struct streams s = { .n = 0 };
	for (size_t h = 0; h < RECENT; h++)
		s.recent[h].at = UINT32_MAX;
	bool nomem = nst_map_init(&s.map, 64) != 0;
	*in_order = true;
	for (size_t i = 0; i < c->n && *in_order && !nomem; i++) {
		struct kern k;
		if (!kern_at(c, i, &k))
			continue;
		struct stream_state *st = stream_of(&s, &k, &nomem);
		if (!st || k.start < st->last_start) {
			*in_order = false;
			break;
		}
		if (k.start < st->open_until && !add(f, &k, st->open_until))
			nomem = true;
		if (k.end > st->open_until)
			st->open_until = k.end;
		st->last_start = k.start;
	}
	nst_map_release(&s.map);
	free(s.at);
	return nomem ? nst_fail(err, NST_ERR_NOMEM, "out of memory") : NST_OK;
}

static int by_overlap(const void *a, const void *b)
{
	return by_stream_start(&((const struct overlap *)a)->k, &((const struct overlap *)b)->k);
}

static enum nst_status run(struct chk_ctx *ctx, struct chk_result *r,
			   struct nst_error *err)
{
	static const char *const kernels[] = { CHK_KERNEL };
	if (chk_lacks_all(ctx, r, kernels, 1))
		return NST_OK;
	struct kernel_cols c;
	enum nst_status s = chk_rows(ctx, CHK_KERNEL, &c.n, err);
	if (!s) s = chk_col(ctx, CHK_KERNEL, "globalPid", &c.pid, err);
	if (!s) s = chk_col(ctx, CHK_KERNEL, "deviceId", &c.dev, err);
	if (!s) s = chk_col(ctx, CHK_KERNEL, "streamId", &c.stream, err);
	if (!s) s = chk_col(ctx, CHK_KERNEL, "start", &c.start, err);
	if (!s) s = chk_col(ctx, CHK_KERNEL, "end", &c.end, err);
	if (s || !c.start || !c.end)
		return s;
	struct found f = { .n = 0 };
	bool in_order;
	s = ordered_sweep(&c, &f, &in_order, err);
	if (s == NST_OK && !in_order) {
		f.n = 0;
		s = sorted_sweep(&c, &f, err);
	}
	if (s == NST_OK && f.n > 1)
		qsort(f.o, f.n, sizeof *f.o, by_overlap);
	for (size_t i = 0; s == NST_OK && i < f.n; i++)
		note_kernel(ctx, r, &f.o[i]);
	free(f.o);
	return s;
}

const struct chk_finding chk_stream_overlap = {
	.name = "stream_overlap",
	.title = "kernels that start before an earlier kernel on their stream ended",
	.help = "Kernel rows of one stream (globalPid, deviceId, streamId), in order of\n"
		"start then row: a kernel is counted when it starts before the latest end\n"
		"of the kernels before it.  Exact duplicates count here too.",
	.affects = "gpu_gaps,gpu_time_util,cuda_gpu_kern_sum,nvtx_gpu_proj_sum",
	.want = chk_want_gpu,
	.run = run,
};
