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
 * DIFF_LAUNCH_WORK (nst_seq_align, linear memory): a launch of A and one of B
 * with the same key, in order, are one row; the others are removed or
 * added.  Two launches with the same name and dimensions are two rows.  A
 * pair too different to be aligned exactly within the work is aligned on
 * anchors and named in the footer and the result's caveat. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
#include "core/seqdiff.h"
#include "diff/launches.h"


static const char *const cols[] = {
	"Device A", "Stream A", "Device B", "Stream B", "Status", "Name", "GridXYZ", "BlockXYZ",
	"A Start:ts_ns", "B Start:ts_ns", "A Duration:dur_ns", "B Duration:dur_ns",
	"Diff Duration:dur_ns",
};
#define NCOLS (sizeof cols / sizeof *cols)


/* ---- rows --------------------------------------------------------------------------- */

struct emit {
	struct nst_diff_ctx *d;
	const struct diff_launch_keys *k;
	const struct diff_launch_side *side[2];
	const struct diff_launch_stream *stream[2]; /* NULL where a side has none */
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
	const struct diff_launch_side *sd = e->side[s];
	uint32_t r = sd->order[e->stream[s]->first + (size_t)i];
	*start = nst_int(sd->start[r] - sd->origin);
	*dur = nst_int(sd->end[r] - sd->start[r]);
}

static int emit_op(void *arg, enum nst_seq_op op, size_t i, size_t j)
{
	struct emit *e = arg;
	int64_t ia = op == NST_SEQ_ADD ? -1 : (int64_t)i, ib = op == NST_SEQ_DEL ? -1 : (int64_t)j;
	const struct diff_launch_side *ks = ia >= 0 ? e->side[0] : e->side[1];
	const struct diff_launch_stream *kst = ia >= 0 ? e->stream[0] : e->stream[1];
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
	return diff_arg_i64(d, "work", DIFF_LAUNCH_WORK);
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
static enum nst_status emit_pair(struct emit *e, const struct diff_launch_stream *sa,
				 const struct diff_launch_stream *sb, bool *approx)
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
static const char *mapping_note(struct nst_arena *arena, const struct diff_launch_side *a,
				const struct diff_launch_side *b)
{
	size_t len = 64 + 48 * (a->nstreams + b->nstreams);
	char *s = nst_arena_alloc(arena, len), *p = s;
	if (!s)
		return NULL;
	p += sprintf(p, "Streams paired by the launches they share (device/stream):");
	for (size_t i = 0; i < a->nstreams; i++) {
		const struct diff_launch_stream *x = &a->streams[i];
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
	const struct diff_launch_side *a = e->side[0], *b = e->side[1];
	enum nst_status st = NST_OK;
	for (size_t i = 0; st == NST_OK && i < a->nstreams; i++) {
		const struct diff_launch_stream *sa = &a->streams[i];
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
	struct diff_launch_keys k;
	struct diff_launch_side s[2];
	memset(s, 0, sizeof s);
	bool approx = false;
	enum nst_status st = diff_launch_keys_init(&k, err);
	for (int i = 0; st == NST_OK && i < 2; i++)
		st = diff_launch_load_side(d, i, &k, &s[i], err);
	if (st == NST_OK)
		st = diff_launch_pair_streams(&s[0], &s[1], err);
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
	diff_launch_release_side(&s[0]);
	diff_launch_release_side(&s[1]);
	diff_launch_keys_release(&k);
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
