/* launch_diff: kernel launches paired one to one across the two sides.
 * A launch is its kernel's name (by the diff's --names), grid and block;
 * each side's launches run on streams (device, stream), in start order.
 * Streams keep their numbers from run to run and from nsys to Kineto as a
 * rule (both number them as CUPTI does), but not always: a stream of A
 * pairs with the stream of B that has its device and stream number when
 * the two share a launch, and the streams left pair by content, the pair
 * with the most launches in common first (ties: the lower device and
 * stream of A, then of B), until no pair has one in common.  Each pair of streams is
 * aligned as a shortest edit script over its launch sequences within
 * ALIGN_WORK (nst_seq_align, linear memory): a launch of A and one of B
 * with the same key, in order, are one row; the others are removed or
 * added.  Two launches with the same name and dimensions are two rows.  A
 * pair too different to be aligned exactly within the work is aligned on
 * anchors and named in the footer and the result's caveat. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/big.h"
#include "core/hashmap.h"
#include "core/parse.h"
#include "core/seqdiff.h"
#include "core/strtab.h"
#include "diff/diff.h"
#include "reports/kernel_names.h"

/* The work (word operations, or steps of Myers's search) allowed to align
 * one pair of streams as a shortest edit script by default (work=): a few
 * seconds.  Past it, a pair is aligned on anchors, and said to be so
 * (core/seqdiff.h). */
#define ALIGN_WORK INT64_C(1000000000)

static const char *const cols[] = {
	"Device A", "Stream A", "Device B", "Stream B", "Status", "Name", "GridXYZ", "BlockXYZ",
	"A Start:ts_ns", "B Start:ts_ns", "A Duration:dur_ns", "B Duration:dur_ns",
	"Diff Duration:dur_ns",
};
#define NCOLS (sizeof cols / sizeof *cols)

/* What makes two launches the same, shared by both sides. */
struct keys {
	struct nst_strtab names;
	struct nst_map ids;        /* (name << 32 | block, grid) -> key */
	const char **name;         /* by key */
	int64_t (*dims)[6];        /* by key */
	size_t n, cap;
	struct nst_arena arena;
};

struct stream {
	int64_t device, stream;
	size_t first, n;           /* rows order[first .. first + n) */
	int64_t paired;            /* the other side's stream, or -1 */
};

struct side {
	size_t n;
	const int64_t *start, *end;
	uint32_t *key;             /* by row */
	uint32_t *order;           /* rows by stream, then start */
	uint32_t *seq;             /* keys in that order */
	struct stream *streams;
	size_t nstreams;
	int64_t origin;            /* the first launch's start */
};

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

static enum nst_status new_key(struct keys *k, const char *name, const int64_t d[6],
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
static enum nst_status key_of(struct keys *k, const char *name, const int64_t d[6],
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

static enum nst_status read_keys(struct nst_ctx *ctx, struct keys *k, bool base,
				 struct side *s, struct nst_error *err)
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
static enum nst_status order_streams(struct nst_ctx *ctx, struct side *s, struct nst_error *err)
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
		struct stream *last = s->nstreams ? &s->streams[s->nstreams - 1] : NULL;
		if (!last || last->device != dev || last->stream != str)
			s->streams[s->nstreams++] = (struct stream){ dev, str, i, 0, -1 };
		s->streams[s->nstreams - 1].n++;
		s->seq[i] = s->key[r];
		if (i == 0 || s->start[r] < s->origin)
			s->origin = s->start[r];
	}
	return NST_OK;
}

static enum nst_status load_side(struct nst_diff_ctx *d, int side, struct keys *k,
				 struct side *s, struct nst_error *err)
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

static void release_side(struct side *s)
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

static uint32_t *sorted_keys(const struct side *s)
{
	uint32_t *k = nst_big_alloc(s->n, sizeof *k);
	if (!k)
		return NULL;
	memcpy(k, s->seq, s->n * sizeof *k);
	for (size_t i = 0; i < s->nstreams; i++)
		qsort(k + s->streams[i].first, s->streams[i].n, sizeof *k, ascending);
	return k;
}

static enum nst_status pair_streams(struct side *a, struct side *b, struct nst_error *err)
{
	uint32_t *ka = sorted_keys(a), *kb = sorted_keys(b);
	size_t nc = a->nstreams * b->nstreams, m = 0;
	struct candidate *c = nst_big_alloc(nc, sizeof *c);
	enum nst_status st = ka && kb && c ? NST_OK : nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; st == NST_OK && i < a->nstreams; i++)
		for (size_t j = 0; j < b->nstreams; j++) {
			const struct stream *sa = &a->streams[i], *sb = &b->streams[j];
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

/* ---- rows --------------------------------------------------------------------------- */

struct emit {
	struct nst_diff_ctx *d;
	const struct keys *k;
	const struct side *side[2];
	const struct stream *stream[2]; /* NULL where a side has none */
	const struct nst_sink *out;
	struct nst_error *err;
	enum nst_status status;
	const char *unproven;           /* the pairs not proven shortest, "A d/s -> B d/s, ..." */
};

static struct nst_cell xyz(struct nst_arena *a, const int64_t *v)
{
	return nst_text(nst_arena_printf(a, "%4lld %4lld %4lld", (long long)v[0], (long long)v[1],
					 (long long)v[2]));
}

/* Launch i of side s's stream, or none. */
static void launch_cells(const struct emit *e, int s, int64_t i, struct nst_cell *start,
			 struct nst_cell *dur)
{
	if (i < 0) {
		*start = *dur = nst_null();
		return;
	}
	const struct side *sd = e->side[s];
	uint32_t r = sd->order[e->stream[s]->first + (size_t)i];
	*start = nst_int(sd->start[r] - sd->origin);
	*dur = nst_int(sd->end[r] - sd->start[r]);
}

static int emit_op(void *arg, enum nst_seq_op op, size_t i, size_t j)
{
	struct emit *e = arg;
	int64_t ia = op == NST_SEQ_ADD ? -1 : (int64_t)i, ib = op == NST_SEQ_DEL ? -1 : (int64_t)j;
	const struct side *ks = ia >= 0 ? e->side[0] : e->side[1];
	const struct stream *kst = ia >= 0 ? e->stream[0] : e->stream[1];
	uint32_t key = ks->seq[kst->first + (size_t)(ia >= 0 ? ia : ib)];
	struct nst_cell row[NCOLS];
	for (int s = 0; s < 2; s++) {
		row[2 * s] = e->stream[s] ? nst_int(e->stream[s]->device) : nst_null();
		row[2 * s + 1] = e->stream[s] ? nst_int(e->stream[s]->stream) : nst_null();
	}
	row[4] = nst_text(op == NST_SEQ_SAME ? "matched" : op == NST_SEQ_DEL ? "removed" : "added");
	row[5] = nst_text(e->k->name[key]);
	row[6] = xyz(e->d->arena, e->k->dims[key]);
	row[7] = xyz(e->d->arena, e->k->dims[key] + 3);
	launch_cells(e, 0, ia, &row[8], &row[10]);
	launch_cells(e, 1, ib, &row[9], &row[11]);
	row[12] = op == NST_SEQ_SAME ? nst_int(row[11].v.i - row[10].v.i) : nst_null();
	e->status = e->out->row(e->out->ctx, row, e->err);
	return e->status != NST_OK;
}

/* work=, checked by check_work. */
static int64_t align_work(const struct nst_diff_ctx *d)
{
	for (size_t i = d->nargs; i-- > 0;) {
		int64_t v;
		if (strcmp(d->args[i].key, "work") == 0 && d->args[i].value &&
		    nst_parse_i64(d->args[i].value, &v))
			return v;
	}
	return ALIGN_WORK;
}

static enum nst_status check_work(const struct nst_arg *args, size_t nargs, struct nst_error *err)
{
	for (size_t i = 0; i < nargs; i++) {
		int64_t v;
		if (strcmp(args[i].key, "work") == 0 &&
		    (!args[i].value || !nst_parse_i64(args[i].value, &v) || v < 0))
			return nst_fail(err, NST_ERR_USAGE, "work=%s: not a whole number >= 0",
					args[i].value ? args[i].value : "");
	}
	return NST_OK;
}

/* The rows of one pair of streams (either may be missing). */
static enum nst_status emit_pair(struct emit *e, const struct stream *sa, const struct stream *sb,
				 bool *approx)
{
	e->stream[0] = sa;
	e->stream[1] = sb;
	const uint32_t *a = sa ? e->side[0]->seq + sa->first : NULL;
	const uint32_t *b = sb ? e->side[1]->seq + sb->first : NULL;
	bool shortest = true;
	int rc = nst_seq_align(a, sa ? sa->n : 0, b, sb ? sb->n : 0, (uint64_t)align_work(e->d),
			       emit_op, e, &shortest);
	if (rc < 0)
		return nst_fail(e->err, NST_ERR_NOMEM, "out of memory");
	if (!shortest && sa && sb) {
		e->unproven = nst_arena_printf(e->d->arena, "%s%sA %lld/%lld -> B %lld/%lld",
					       e->unproven ? e->unproven : "", e->unproven ? ", " : "",
					       (long long)sa->device, (long long)sa->stream,
					       (long long)sb->device, (long long)sb->stream);
		if (!e->unproven)
			return nst_fail(e->err, NST_ERR_NOMEM, "out of memory");
	}
	*approx |= !shortest;
	return e->status;
}

/* Said after the rows (column and table formats, json:typed's notes) and
 * in the result, for a line on stderr. */
static enum nst_status say_unproven(struct nst_diff_ctx *d, const struct nst_sink *out,
				    const char *pairs, struct nst_error *err)
{
	snprintf(d->res->caveat, sizeof d->res->caveat,
		 "launch_diff: the alignment of streams %s may not be shortest: too different "
		 "to align exactly within the work allowed, aligned on anchors", pairs);
	const char *text = nst_arena_printf(
		d->arena,
		"Not proven shortest: streams %s differ in too many places to be aligned\n"
		"exactly within the work allowed (N*M/64 and Myers's search both past\n"
		"work=%lld); they were aligned on the launches found once on each side,\n"
		"and a shorter script may exist.\n",
		pairs, (long long)align_work(d));
	if (!text)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	return out->note ? out->note(out->ctx, NST_NOTE_FOOTER, text, err) : NST_OK;
}

/* "A 0/7 -> B 0/13" for each pair, the streams of one side only after. */
static const char *mapping_note(struct nst_arena *arena, const struct side *a,
				const struct side *b)
{
	size_t len = 64 + 48 * (a->nstreams + b->nstreams);
	char *s = nst_arena_alloc(arena, len), *p = s;
	if (!s)
		return NULL;
	p += sprintf(p, "Streams paired by the launches they share (device/stream):");
	for (size_t i = 0; i < a->nstreams; i++) {
		const struct stream *x = &a->streams[i];
		if (x->paired < 0)
			p += sprintf(p, "\n  A %lld/%lld -> none", (long long)x->device,
				     (long long)x->stream);
		else
			p += sprintf(p, "\n  A %lld/%lld -> B %lld/%lld", (long long)x->device,
				     (long long)x->stream, (long long)b->streams[x->paired].device,
				     (long long)b->streams[x->paired].stream);
	}
	for (size_t j = 0; j < b->nstreams; j++)
		if (b->streams[j].paired < 0)
			p += sprintf(p, "\n  none -> B %lld/%lld", (long long)b->streams[j].device,
				     (long long)b->streams[j].stream);
	sprintf(p, "\n");
	return s;
}

static enum nst_status emit_all(struct emit *e, bool *approx)
{
	const struct side *a = e->side[0], *b = e->side[1];
	enum nst_status st = NST_OK;
	for (size_t i = 0; st == NST_OK && i < a->nstreams; i++) {
		const struct stream *sa = &a->streams[i];
		st = emit_pair(e, sa, sa->paired >= 0 ? &b->streams[sa->paired] : NULL, approx);
	}
	for (size_t j = 0; st == NST_OK && j < b->nstreams; j++)
		if (b->streams[j].paired < 0)
			st = emit_pair(e, NULL, &b->streams[j], approx);
	return st;
}

static enum nst_status diff(struct nst_diff_ctx *d, const struct nst_sink *out,
			    struct nst_error *err)
{
	struct keys k = { 0 };
	struct side s[2];
	memset(s, 0, sizeof s);
	bool approx = false;
	enum nst_status st = nst_map_init(&k.ids, 1024) ? nst_fail(err, NST_ERR_NOMEM, "out of memory")
							: NST_OK;
	for (int i = 0; st == NST_OK && i < 2; i++)
		st = load_side(d, i, &k, &s[i], err);
	if (st == NST_OK)
		st = pair_streams(&s[0], &s[1], err);
	const char *note = st == NST_OK ? mapping_note(d->arena, &s[0], &s[1]) : NULL;
	if (st == NST_OK && out->note && note)
		st = out->note(out->ctx, NST_NOTE_ADVICE, note, err);
	if (st == NST_OK)
		st = out->begin(out->ctx, cols, NCOLS, err);
	struct emit e = { d, &k, { &s[0], &s[1] }, { NULL, NULL }, out, err, NST_OK, NULL };
	if (st == NST_OK)
		st = emit_all(&e, &approx);
	if (st == NST_OK && approx && e.unproven)
		st = say_unproven(d, out, e.unproven, err);
	release_side(&s[0]);
	release_side(&s[1]);
	nst_strtab_release(&k.names);
	nst_map_release(&k.ids);
	free(k.name);
	free(k.dims);
	nst_arena_release(&k.arena);
	return st;
}

static const char *const args[] = { "work", NULL };

static const char *const sources[] = { "cuda_gpu_trace", NULL };

const struct nst_report nst_diff_launch_diff = {
	.name = "launch_diff",
	.title = "CUDA Kernel Launches Compared",
	.help = "Kernel launches paired one to one.  A launch is its kernel's name (by\n"
		"--names), grid and block; each side's launches run on streams (device,\n"
		"stream) in start order.  A stream pairs with the stream of the same\n"
		"device and number when they share a launch; the others pair by content,\n"
		"the pair with the most launches in common first.  Each pair's launch\n"
		"sequences are aligned as a shortest edit script (a longest common\n"
		"subsequence of launches): one row a launch, matched (on both sides, with\n"
		"both start offsets and durations and the change of the duration),\n"
		"removed (only in A) or added (only in B).  Start offsets count from each\n"
		"side's first launch.  The stream pairing heads the column and table\n"
		"formats.  The script is a shortest one when, past the common first and\n"
		"last launches, N*M/64 <= work= (N, M the launches of each side; default\n"
		"10^9, seconds; 0 for no limit) or Myers's search ends within work=\n"
		"steps (few differences).  Past that a pair is aligned on anchors\n"
		"(launches found once on each side) and may not be shortest: the footer\n"
		"and a line on stderr name it.",
	.args = args,
	.check = check_work,
	.flags = NST_REPORT_ADDITION,
	.diff = diff,
	.sources = sources,
};
