/* The stream as Perfetto's protobuf trace (perfetto_trace.proto, packed by
 * protobuf-c): each packet packed into one reused buffer and written at
 * once as a length-delimited field 1 of Trace, so that nothing grows with
 * the events but the interned names.
 *
 * One packet sequence: the first packet clears the incremental state and
 * interns the categories and the annotation names; an event name is
 * interned by the packet of its first slice.  A slice is a SLICE_BEGIN and
 * a SLICE_END packet on its track; Perfetto sorts packets by time, so the
 * END of a slice is written right after its BEGIN (walk.c gives each
 * track's slices in start order, which makes ties come out right).  Strings that are not
 * well-formed UTF-8 are written as nstats's JSON writes them (U+FFFD for
 * each stray byte), since Perfetto's strings are UTF-8.
 *
 * Packing is the larger half of the work, so it runs on a thread of its
 * own (core/pipe.h): the walk's thread turns each track and slice into a
 * job, interning names as it goes (the order of the packets decides which
 * packet interns a name), and hands jobs over a batch at a time; the
 * packer packs them in order and writes. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "core/pipe.h"
#include "format/format.h"
#include "perfetto_trace.pb-c.h"
#include "trace/trace.h"

#define SEQUENCE_ID 1

/* A track or a slice as the packer takes it: what the walk lends for the
 * call is copied into the batch. */
struct job {
	bool is_track;
	uint8_t cat, flow, nargs;
	uint32_t arg;             /* the first of its args in the batch's */
	size_t text;              /* in the batch's text: a track's name, or the
				     name a slice interns; NO_TEXT: none */
	union {
		struct trace_track track; /* its name: text */
		struct {
			uint64_t track_uuid, iid, flow_id;
			int64_t start, end;
		} slice;
	};
};
#define NO_TEXT SIZE_MAX

struct job_arg {
	uint8_t key, kind;
	int64_t i[3];
	size_t text; /* ARG_TEXT: in the batch's text */
};

#define BATCH_JOBS 16384

struct batch {
	struct job job[BATCH_JOBS];
	size_t njobs;
	struct job_arg *arg;
	size_t nargs, capargs;
	char *text;
	size_t ntext, captext;
};

struct perfetto {
	FILE *out;
	/* the walk's side */
	struct trace_names names; /* event names: iid = id + 1 */
	struct nst_arena arena;   /* repaired names */
	struct nst_pipe packer;
	struct batch *fill;
	/* the packer's side */
	uint8_t *buf;
	size_t len, cap;
	char dims[2][64];
};

/* ---- packets ---------------------------------------------------------------------- */

/* Packets gather in buf, written out a chunk at a time: stdio would
 * copy each small packet once more, and protobuf-c's packing to a
 * buffer of its own copies each field. */
#define CHUNK ((size_t)1 << 20)

static enum nst_status flush_chunk(struct perfetto *pf, struct nst_error *err)
{
	if (pf->len && fwrite(pf->buf, 1, pf->len, pf->out) != pf->len)
		return trace_write_failed(pf->out, err);
	pf->len = 0;
	return NST_OK;
}

static size_t varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;
	do {
		uint8_t b = v & 0x7F;
		v >>= 7;
		p[n++] = (uint8_t)(b | (v ? 0x80 : 0));
	} while (v);
	return n;
}

/* Room for n more bytes in the chunk. */
static enum nst_status room(struct perfetto *pf, size_t n, struct nst_error *err)
{
	if (pf->len + n <= pf->cap)
		return NST_OK;
	size_t cap = pf->len + n > CHUNK ? 2 * (pf->len + n) : CHUNK + 4096;
	uint8_t *buf = realloc(pf->buf, cap);
	if (!buf)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	pf->buf = buf;
	pf->cap = cap;
	return NST_OK;
}

/* Trace.packet (field 1, length-delimited): its tag and length. */
#define PACKET_HEAD_MAX 11
/* What a field of perfetto_trace.proto packs to at most: a varint one a
 * tag (field numbers below 2048: 2 bytes) and 10 bytes, a fixed64 one a
 * tag and 8, a string or message one a tag, a length of 5 bytes and what
 * it holds. */
#define VARINT_MAX 12
#define FIXED64_MAX 10
#define LENGTH_MAX 7
/* A slice's packet: timestamp, sequence id and flags, the track event
 * (type, name, track, one category, a flow) and the interned data's head. */
#define SLICE_PACKET_MAX (3 * VARINT_MAX + LENGTH_MAX + 4 * VARINT_MAX + 2 * FIXED64_MAX + LENGTH_MAX)
/* An annotation (name and an integer or a string of len bytes) and an
 * interned event name of len bytes. */
#define ANNOTATION_MAX(len) (LENGTH_MAX + 2 * VARINT_MAX + LENGTH_MAX + (len))
#define EVENT_NAME_MAX(len) (LENGTH_MAX + VARINT_MAX + LENGTH_MAX + (len))

/* One packet as field 1 of Trace, packed in place in the chunk.  Its
 * length comes first, and protobuf-c finds it by walking the packet as
 * packing it does: a packet whose size is at most bound (a slice's,
 * millions of them) is packed once, after room for the widest length,
 * and moved back over what the length did not take; bound 0: walked
 * twice (tracks, the first packet). */
static enum nst_status write_packet(struct perfetto *pf, Perfetto__Protos__TracePacket *p,
				    size_t bound, struct nst_error *err)
{
	p->has_trusted_packet_sequence_id = true;
	p->trusted_packet_sequence_id = SEQUENCE_ID;
	size_t size = bound ? bound : protobuf_c_message_get_packed_size(&p->base);
	enum nst_status s = room(pf, PACKET_HEAD_MAX + size, err);
	if (s != NST_OK)
		return s;
	uint8_t *head = pf->buf + pf->len, *body = head + PACKET_HEAD_MAX;
	size = protobuf_c_message_pack(&p->base, body);
	if (size > (bound ? bound : size))
		return nst_fail(err, NST_ERR_INTERNAL, "a Perfetto packet of %zu bytes, past its bound %zu",
				size, bound);
	head[0] = 0x0A;
	size_t n = 1 + varint(head + 1, size);
	memmove(head + n, body, size);
	pf->len += n + size;
	return pf->len >= CHUNK ? flush_chunk(pf, err) : NST_OK;
}

/* s as UTF-8: itself when it is, else a repaired copy in the arena. */
static char *utf8(struct perfetto *pf, const char *s)
{
	size_t len = strlen(s);
	if (nst_utf8_valid(s, len))
		return (char *)s;
	char *out = nst_arena_alloc(&pf->arena, 3 * len + 1);
	if (out)
		nst_utf8_repair(s, len, out);
	return out;
}

/* ---- the first packet: categories and annotation names ------------------------------ */

static enum nst_status first_packet(struct perfetto *pf, struct nst_error *err)
{
	Perfetto__Protos__EventCategory cat[CAT_COUNT], *pcat[CAT_COUNT];
	Perfetto__Protos__DebugAnnotationName key[KEY_COUNT], *pkey[KEY_COUNT];
	for (int i = 0; i < CAT_COUNT; i++) {
		perfetto__protos__event_category__init(&cat[i]);
		cat[i].has_iid = true;
		cat[i].iid = (uint64_t)i + 1;
		cat[i].name = (char *)trace_cat_names[i];
		pcat[i] = &cat[i];
	}
	for (int i = 0; i < KEY_COUNT; i++) {
		perfetto__protos__debug_annotation_name__init(&key[i]);
		key[i].has_iid = true;
		key[i].iid = (uint64_t)i + 1;
		key[i].name = (char *)trace_key_names[i];
		pkey[i] = &key[i];
	}
	Perfetto__Protos__InternedData in;
	perfetto__protos__interned_data__init(&in);
	in.n_event_categories = CAT_COUNT;
	in.event_categories = pcat;
	in.n_debug_annotation_names = KEY_COUNT;
	in.debug_annotation_names = pkey;
	Perfetto__Protos__TracePacket p;
	perfetto__protos__trace_packet__init(&p);
	p.has_sequence_flags = true;
	p.sequence_flags = PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_INCREMENTAL_STATE_CLEARED;
	p.interned_data = &in;
	return write_packet(pf, &p, 0, err);
}

/* ---- the jobs, on the walk's thread ------------------------------------------------------ */

static void batch_free(void *batch)
{
	struct batch *b = batch;
	if (!b)
		return;
	free(b->arg);
	free(b->text);
	free(b);
}

static enum nst_status nomem(struct nst_error *err)
{
	return nst_fail(err, NST_ERR_NOMEM, "out of memory");
}

/* s copied into the batch's text: its offset, NO_TEXT when out of memory. */
static size_t keep_text(struct batch *b, const char *s)
{
	size_t len = strlen(s);
	if (b->ntext + len + 1 > b->captext) {
		size_t cap = 2 * (b->ntext + len + 1) + 4096;
		char *t = realloc(b->text, cap);
		if (!t)
			return NO_TEXT;
		b->text = t;
		b->captext = cap;
	}
	size_t at = b->ntext;
	memcpy(b->text + at, s, len + 1);
	b->ntext += len + 1;
	return at;
}

static struct job_arg *new_arg(struct batch *b)
{
	if (b->nargs == b->capargs) {
		size_t cap = b->capargs ? 2 * b->capargs : 8 * BATCH_JOBS;
		struct job_arg *a = realloc(b->arg, cap * sizeof *a);
		if (!a)
			return NULL;
		b->arg = a;
		b->capargs = cap;
	}
	return &b->arg[b->nargs++];
}

/* Hands a full batch to the packer and takes an empty one. */
static enum nst_status hand_over(struct perfetto *pf, struct nst_error *err)
{
	enum nst_status s = nst_pipe_give(&pf->packer, pf->fill, err);
	pf->fill = nst_pipe_empty(&pf->packer);
	return s == NST_OK && !pf->fill ? nomem(err) : s;
}

/* The next job of the batch, a full batch handed over first; none once a
 * hand-over failed (the packer's failure, or no batch to fill). */
static enum nst_status new_job(struct perfetto *pf, struct job **out, struct nst_error *err)
{
	if (!pf->fill) {
		enum nst_status s = nst_pipe_failure(&pf->packer, err);
		return s != NST_OK ? s : nomem(err);
	}
	enum nst_status s = pf->fill->njobs == BATCH_JOBS ? hand_over(pf, err) : NST_OK;
	if (s != NST_OK)
		return s;
	struct batch *b = pf->fill;
	*out = &b->job[b->njobs];
	**out = (struct job){ .arg = (uint32_t)b->nargs, .text = NO_TEXT };
	return NST_OK;
}

static enum nst_status pf_track(void *self, const struct trace_track *t, struct nst_error *err)
{
	struct perfetto *pf = self;
	struct job *j;
	enum nst_status s = new_job(pf, &j, err);
	if (s != NST_OK)
		return s;
	char *name = utf8(pf, t->name);
	if (!name || (j->text = keep_text(pf->fill, name)) == NO_TEXT)
		return nomem(err);
	j->is_track = true;
	j->track = *t;
	j->track.name = NULL;
	pf->fill->njobs++;
	return NST_OK;
}

/* A GPU operation's device, context and stream are its track's (whose
 * name says them): not repeated on each of millions of slices. */
static bool placement(const struct trace_slice *s, const struct trace_arg *a)
{
	return s->track->kind == TRACK_STREAM &&
	       (a->key == KEY_DEVICE || a->key == KEY_CONTEXT || a->key == KEY_STREAM);
}

static enum nst_status keep_args(struct batch *b, const struct trace_slice *s, struct job *j,
				 struct nst_error *err)
{
	for (size_t i = 0; i < s->nargs; i++) {
		const struct trace_arg *a = &s->arg[i];
		if (placement(s, a))
			continue;
		struct job_arg *ja = new_arg(b);
		if (!ja)
			return nomem(err);
		*ja = (struct job_arg){ .key = (uint8_t)a->key, .kind = (uint8_t)a->kind,
					.i = { a->i[0], a->i[1], a->i[2] }, .text = NO_TEXT };
		if (a->kind == ARG_TEXT && (ja->text = keep_text(b, a->s)) == NO_TEXT)
			return nomem(err);
		j->nargs++;
	}
	return NST_OK;
}

static enum nst_status pf_slice(void *self, const struct trace_slice *s, struct nst_error *err)
{
	struct perfetto *pf = self;
	struct job *j;
	enum nst_status st = new_job(pf, &j, err);
	if (st != NST_OK)
		return st;
	bool fresh;
	int64_t id = trace_name_id(&pf->names, s->name, &fresh);
	if (id < 0)
		return nomem(err);
	if (fresh) {
		char *text = utf8(pf, s->name);
		if (!text || (j->text = keep_text(pf->fill, text)) == NO_TEXT)
			return nomem(err);
	}
	j->cat = (uint8_t)s->cat;
	j->flow = (uint8_t)s->flow;
	j->slice.track_uuid = s->track->uuid;
	j->slice.start = s->start;
	j->slice.end = s->end;
	j->slice.iid = (uint64_t)id + 1;
	j->slice.flow_id = s->flow_id;
	if ((st = keep_args(pf->fill, s, j, err)) != NST_OK)
		return st;
	pf->fill->njobs++;
	return NST_OK;
}

/* ---- tracks, on the packer's thread ------------------------------------------------------ */

static enum nst_status pack_track(struct perfetto *pf, const struct batch *b, const struct job *j,
				  struct nst_error *err)
{
	Perfetto__Protos__TrackDescriptor d;
	Perfetto__Protos__ProcessDescriptor proc;
	Perfetto__Protos__ThreadDescriptor thr;
	perfetto__protos__track_descriptor__init(&d);
	d.has_uuid = true;
	d.uuid = j->track.uuid;
	char *name = b->text + j->text;
	if (j->track.kind == TRACK_PROCESS) {
		perfetto__protos__process_descriptor__init(&proc);
		proc.has_pid = true;
		proc.pid = (int32_t)j->track.pid;
		proc.process_name = name;
		d.process = &proc;
	} else if (j->track.kind == TRACK_THREAD) {
		perfetto__protos__thread_descriptor__init(&thr);
		thr.has_pid = thr.has_tid = true;
		thr.pid = (int32_t)j->track.pid;
		thr.tid = (int32_t)j->track.tid;
		thr.thread_name = name;
		d.thread = &thr;
	} else {
		d.name = name;
		d.has_parent_uuid = j->track.parent != 0;
		d.parent_uuid = j->track.parent;
	}
	Perfetto__Protos__TracePacket p;
	perfetto__protos__trace_packet__init(&p);
	p.track_descriptor = &d;
	return write_packet(pf, &p, 0, err);
}

/* ---- slices, on the packer's thread ------------------------------------------------------ */

/* "[x, y, z]", without printf's parsing, which a launch's two dims would
 * cost every kernel. */
static char *put_int(char *p, int64_t v)
{
	char tmp[24];
	size_t n = 0;
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	do
		tmp[n++] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*p++ = '-';
	while (n)
		*p++ = tmp[--n];
	return p;
}

static void dims_text(char *b, const int64_t *v)
{
	*b++ = '[';
	for (int i = 0; i < 3; i++) {
		b = put_int(b, v[i]);
		if (i < 2) {
			*b++ = ',';
			*b++ = ' ';
		}
	}
	*b++ = ']';
	*b = '\0';
}

/* Returns the most it packs to. */
static size_t annotation(struct perfetto *pf, const struct batch *b, const struct job_arg *a,
			 Perfetto__Protos__DebugAnnotation *d, int *ndims)
{
	perfetto__protos__debug_annotation__init(d);
	d->has_name_iid = true;
	d->name_iid = (uint64_t)a->key + 1;
	if (a->kind == ARG_INT) {
		d->has_int_value = true;
		d->int_value = a->i[0];
	} else if (a->kind == ARG_TEXT) {
		d->string_value = b->text + a->text;
	} else {
		char *t = pf->dims[(*ndims)++ & 1];
		dims_text(t, a->i);
		d->string_value = t;
	}
	return ANNOTATION_MAX(d->string_value ? strlen(d->string_value) : 0);
}

static enum nst_status begin_packet(struct perfetto *pf, const struct batch *b,
				    const struct job *j, struct nst_error *err)
{
	Perfetto__Protos__DebugAnnotation ann[TRACE_MAX_ARGS], *pann[TRACE_MAX_ARGS];
	int ndims = 0;
	size_t bound = SLICE_PACKET_MAX;
	for (size_t i = 0; i < j->nargs; i++) {
		bound += annotation(pf, b, &b->arg[j->arg + i], &ann[i], &ndims);
		pann[i] = &ann[i];
	}
	uint64_t cat = (uint64_t)j->cat + 1, flow = j->slice.flow_id;
	Perfetto__Protos__TrackEvent ev;
	perfetto__protos__track_event__init(&ev);
	ev.has_type = ev.has_track_uuid = ev.has_name_iid = true;
	ev.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN;
	ev.track_uuid = j->slice.track_uuid;
	ev.name_iid = j->slice.iid;
	ev.n_category_iids = 1;
	ev.category_iids = &cat;
	ev.n_debug_annotations = j->nargs;
	ev.debug_annotations = pann;
	if (j->flow == FLOW_START || j->flow == FLOW_STEP) {
		ev.n_flow_ids = 1;
		ev.flow_ids = &flow;
	} else if (j->flow == FLOW_END) {
		ev.n_terminating_flow_ids = 1;
		ev.terminating_flow_ids = &flow;
	}
	Perfetto__Protos__EventName en, *pen = &en;
	Perfetto__Protos__InternedData in;
	Perfetto__Protos__TracePacket p;
	perfetto__protos__trace_packet__init(&p);
	if (j->text != NO_TEXT) {
		perfetto__protos__event_name__init(&en);
		en.has_iid = true;
		en.iid = j->slice.iid;
		en.name = b->text + j->text;
		perfetto__protos__interned_data__init(&in);
		in.n_event_names = 1;
		in.event_names = &pen;
		p.interned_data = &in;
		bound += EVENT_NAME_MAX(strlen(en.name));
	}
	p.has_timestamp = p.has_sequence_flags = true;
	p.timestamp = (uint64_t)j->slice.start;
	p.sequence_flags = PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_NEEDS_INCREMENTAL_STATE;
	p.track_event = &ev;
	return write_packet(pf, &p, bound, err);
}

static enum nst_status end_packet(struct perfetto *pf, const struct job *j, struct nst_error *err)
{
	Perfetto__Protos__TrackEvent ev;
	perfetto__protos__track_event__init(&ev);
	ev.has_type = ev.has_track_uuid = true;
	ev.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END;
	ev.track_uuid = j->slice.track_uuid;
	Perfetto__Protos__TracePacket p;
	perfetto__protos__trace_packet__init(&p);
	p.has_timestamp = p.has_sequence_flags = true;
	p.timestamp = (uint64_t)j->slice.end;
	p.sequence_flags = PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_NEEDS_INCREMENTAL_STATE;
	p.track_event = &ev;
	return write_packet(pf, &p, SLICE_PACKET_MAX, err);
}

/* The packer: a batch's jobs as packets, in order. */
static enum nst_status pack_batch(void *self, void *batch, bool drop, struct nst_error *err)
{
	struct perfetto *pf = self;
	struct batch *b = batch;
	enum nst_status s = NST_OK;
	for (size_t i = 0; !drop && s == NST_OK && i < b->njobs; i++) {
		const struct job *j = &b->job[i];
		if (j->is_track)
			s = pack_track(pf, b, j, err);
		else if ((s = begin_packet(pf, b, j, err)) == NST_OK)
			s = end_packet(pf, j, err);
	}
	b->njobs = b->nargs = b->ntext = 0;
	return s;
}

/* ---- the document ------------------------------------------------------------------------ */

static enum nst_status pf_finish(void *self, struct nst_error *err)
{
	struct perfetto *pf = self;
	enum nst_status s = pf->fill && pf->fill->njobs ? hand_over(pf, err) : NST_OK;
	/* the first failure is the one said: the packer's, unless one came before */
	enum nst_status end = nst_pipe_end(&pf->packer, s == NST_OK ? err : NULL);
	if (s != NST_OK || end != NST_OK)
		return s != NST_OK ? s : end;
	if (!pf->fill) /* a hand-over found no batch to fill: the document lacks slices */
		return nomem(err);
	if ((s = flush_chunk(pf, err)) != NST_OK)
		return s;
	if (fflush(pf->out) != 0 || ferror(pf->out))
		return trace_write_failed(pf->out, err);
	return NST_OK;
}

static void pf_free(void *self)
{
	struct perfetto *pf = self;
	if (!pf)
		return;
	nst_pipe_release(&pf->packer, batch_free);
	batch_free(pf->fill);
	free(pf->buf);
	trace_names_release(&pf->names);
	nst_arena_release(&pf->arena);
	free(pf);
}

enum nst_status trace_perfetto_new(FILE *out, struct trace_writer *w, struct nst_error *err)
{
	struct perfetto *pf = calloc(1, sizeof *pf);
	if (!pf)
		return nomem(err);
	pf->out = out;
	*w = (struct trace_writer){ .track = pf_track, .slice = pf_slice, .finish = pf_finish,
				    .free = pf_free, .self = pf };
	/* the first packet before the packer starts: its buffer is the packer's then */
	enum nst_status s = first_packet(pf, err);
	if (s == NST_OK) {
		nst_pipe_start(&pf->packer, sizeof *pf->fill, pack_batch, pf);
		if (!(pf->fill = nst_pipe_empty(&pf->packer)))
			s = nomem(err);
	}
	if (s != NST_OK) {
		pf_free(pf);
		*w = (struct trace_writer){ 0 };
	}
	return s;
}
