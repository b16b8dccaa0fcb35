/* The stream as the Trace Event Format that chrome://tracing and Perfetto
 * open, and that PyTorch's profiler (Kineto) writes: one JSON object with
 * "traceEvents" (ph X slices, ph M names of processes and threads, ph s, t
 * and f flows, bound to the enclosing slices), written as it comes.
 *
 * Kineto's spelling throughout (categories, args, the names of copies and
 * sets, "deviceProperties"), so that Kineto's readers, nstats's among them
 * (src/input/kineto.c), read the file back; a "Trace" span from time 0
 * keeps the export's clock through such a reader, which counts from the
 * session's first nanosecond.  Times are microseconds with three decimals,
 * printed from the integer nanoseconds: nothing is rounded.
 *
 * A million launches make millions of events: each is built in one buffer,
 * numbers formatted by hand, and each distinct name escaped once, so that
 * the FILE sees one large fwrite per block instead of a dozen locked stdio
 * calls and printf parses per event. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "format/format.h"
#include "trace/trace.h"

/* What the buffer holds before it goes to the FILE in one fwrite. */
#define BLOCK (256 * 1024)

struct device {
	int64_t id;
	char *name;
};

/* A name as JSON, quotes and escapes included. */
struct quoted {
	const char *text;
	size_t len;
};

struct chrome {
	FILE *out;
	char *buf;         /* the events not yet written */
	size_t len, cap;
	bool nomem;        /* a buffer could not grow: the export stops */
	int write_errno;   /* why a block was not written; 0 while all were */
	bool any;          /* an event was written: the next needs a comma */
	bool has_span;
	int64_t lo, hi;    /* the span of the slices */
	struct device *dev;
	size_t ndev, devcap;
	struct trace_names names;  /* the names of slices and text args */
	struct quoted *quoted;     /* by the names' id */
	size_t qcap;
	struct nst_arena arena;    /* their quoted text */
};

/* ---- the buffer ------------------------------------------------------------------------ */

static void flush_buffer(struct chrome *c)
{
	if (c->len && fwrite(c->buf, 1, c->len, c->out) != c->len && !c->write_errno)
		c->write_errno = errno ? errno : EIO;
	c->len = 0;
}

/* Room for n more bytes, the buffer written out first when it is full. */
static bool make_room(struct chrome *c, size_t n)
{
	if (c->cap - c->len >= n)
		return true;
	flush_buffer(c);
	if (n <= c->cap)
		return true;
	char *b = realloc(c->buf, n);
	if (!b) {
		c->nomem = true;
		return false;
	}
	c->buf = b;
	c->cap = n;
	return true;
}

static void put(struct chrome *c, const char *s, size_t n)
{
	if (!make_room(c, n))
		return;
	memcpy(c->buf + c->len, s, n);
	c->len += n;
}

#define PUT_LITERAL(c, s) put(c, s, sizeof s - 1)

static void put_str(struct chrome *c, const char *s)
{
	put(c, s, strlen(s));
}

static void put_char(struct chrome *c, char ch)
{
	put(c, &ch, 1);
}

/* The decimal digits of v, at least `min` of them (zeros in front). */
static void put_digits(struct chrome *c, uint64_t v, int min)
{
	char tmp[24];
	char *p = tmp + sizeof tmp;
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v || tmp + sizeof tmp - p < min);
	put(c, p, (size_t)(tmp + sizeof tmp - p));
}

static uint64_t magnitude(int64_t v)
{
	return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

static void put_int(struct chrome *c, int64_t v)
{
	if (v < 0)
		put_char(c, '-');
	put_digits(c, magnitude(v), 1);
}

/* ns as microseconds, "-1.234" for -1234: exact, never through a double. */
static void put_us(struct chrome *c, int64_t ns)
{
	uint64_t a = magnitude(ns);
	if (ns < 0)
		put_char(c, '-');
	put_digits(c, a / 1000, 1);
	put_char(c, '.');
	put_digits(c, a % 1000, 3);
}

/* s as a JSON string, escaped here: for the names that come once. */
static void put_string(struct chrome *c, const char *s)
{
	size_t len = strlen(s);
	if (make_room(c, NST_JSON_QUOTED_MAX(len)))
		c->len += nst_json_quote(s, len, c->buf + c->len);
}

/* ---- names, escaped once --------------------------------------------------------------- */

/* Keeps the quoted form of the name that id just got, escaped in the
 * buffer's free room. */
static bool keep_quoted(struct chrome *c, int64_t id, const char *s)
{
	size_t len = strlen(s);
	if ((size_t)id >= c->qcap) {
		size_t cap = c->qcap ? 2 * c->qcap : 64;
		struct quoted *q = realloc(c->quoted, cap * sizeof *q);
		if (!q)
			return false;
		c->quoted = q;
		c->qcap = cap;
	}
	if (!make_room(c, NST_JSON_QUOTED_MAX(len)))
		return false;
	size_t n = nst_json_quote(s, len, c->buf + c->len);
	char *text = nst_arena_alloc(&c->arena, n);
	if (!text)
		return false;
	memcpy(text, c->buf + c->len, n);
	c->quoted[id] = (struct quoted){ text, n };
	return true;
}

/* The quoted form of s; NULL when out of memory (then and ever after:
 * a name that got its id may lack its quoted form). */
static const struct quoted *quoted_name(struct chrome *c, const char *s)
{
	if (c->nomem)
		return NULL;
	bool fresh;
	int64_t id = trace_name_id(&c->names, s, &fresh);
	if (id < 0 || (fresh && !keep_quoted(c, id, s))) {
		c->nomem = true;
		return NULL;
	}
	return &c->quoted[id];
}

static void put_name(struct chrome *c, const char *s)
{
	const struct quoted *q = quoted_name(c, s);
	if (q)
		put(c, q->text, q->len);
}

/* ---- events ----------------------------------------------------------------------------- */

static void next_event(struct chrome *c)
{
	if (c->any)
		PUT_LITERAL(c, ",\n");
	else
		PUT_LITERAL(c, "\n");
	c->any = true;
}

static enum nst_status status_of(struct chrome *c, struct nst_error *err)
{
	if (c->nomem)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	/* the saved errno, not ferror(), which locks the stream every
	 * event; errno itself may have moved since the block failed */
	if (!c->write_errno)
		return NST_OK;
	errno = c->write_errno;
	return trace_write_failed(c->out, err);
}

/* ---- names of processes and threads ------------------------------------------------- */

static void metadata(struct chrome *c, const char *what, int64_t pid, int64_t tid, const char *name)
{
	next_event(c);
	PUT_LITERAL(c, "{\"ph\":\"M\",\"name\":\"");
	put_str(c, what);
	PUT_LITERAL(c, "\",\"pid\":");
	put_int(c, pid);
	PUT_LITERAL(c, ",\"tid\":");
	put_int(c, tid);
	PUT_LITERAL(c, ",\"args\":{\"name\":");
	put_string(c, name);
	PUT_LITERAL(c, "}}");
}

static enum nst_status cj_track(void *self, const struct trace_track *t, struct nst_error *err)
{
	struct chrome *c = self;
	bool process = t->kind == TRACK_PROCESS || t->kind == TRACK_GPU;
	metadata(c, process ? "process_name" : "thread_name", t->pid, process ? 0 : t->tid, t->name);
	return status_of(c, err);
}

static enum nst_status cj_device(void *self, int64_t id, const char *name, struct nst_error *err)
{
	struct chrome *c = self;
	for (size_t i = 0; i < c->ndev; i++)
		if (c->dev[i].id == id && strcmp(c->dev[i].name, name) == 0)
			return NST_OK;
	if (c->ndev == c->devcap) {
		size_t cap = c->devcap ? 2 * c->devcap : 8;
		struct device *d = realloc(c->dev, cap * sizeof *d);
		if (!d)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		c->dev = d;
		c->devcap = cap;
	}
	char *copy = strdup(name);
	if (!copy)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	c->dev[c->ndev++] = (struct device){ id, copy };
	return NST_OK;
}

/* ---- slices ------------------------------------------------------------------------------- */

static void put_arg(struct chrome *c, const struct trace_arg *a)
{
	put_name(c, trace_key_names[a->key]);
	put_char(c, ':');
	if (a->kind == ARG_INT) {
		put_int(c, a->i[0]);
	} else if (a->kind == ARG_TEXT) {
		put_name(c, a->s);
	} else {
		put_char(c, '[');
		for (int k = 0; k < 3; k++) {
			if (k)
				put_char(c, ',');
			put_int(c, a->i[k]);
		}
		put_char(c, ']');
	}
}

static void put_place(struct chrome *c, const struct trace_slice *s, int64_t ts)
{
	PUT_LITERAL(c, ",\"pid\":");
	put_int(c, s->track->pid);
	PUT_LITERAL(c, ",\"tid\":");
	put_int(c, s->track->tid);
	PUT_LITERAL(c, ",\"ts\":");
	put_us(c, ts);
}

/* The flow's event, bound to the slice that encloses it: the one just
 * written. */
static void flow_event(struct chrome *c, const struct trace_slice *s)
{
	static const char ph[] = { [FLOW_START] = 's', [FLOW_STEP] = 't', [FLOW_END] = 'f' };
	next_event(c);
	PUT_LITERAL(c, "{\"ph\":\"");
	put_char(c, ph[s->flow]);
	PUT_LITERAL(c, "\",\"id\":");
	put_digits(c, s->flow_id, 1);
	PUT_LITERAL(c, ",\"cat\":\"ac2g\",\"name\":\"ac2g\"");
	if (s->flow != FLOW_START)
		PUT_LITERAL(c, ",\"bp\":\"e\"");
	put_place(c, s, s->start);
	put_char(c, '}');
}

static enum nst_status cj_slice(void *self, const struct trace_slice *s, struct nst_error *err)
{
	struct chrome *c = self;
	next_event(c);
	PUT_LITERAL(c, "{\"ph\":\"X\",\"cat\":\"");
	put_str(c, trace_cat_names[s->cat]);
	PUT_LITERAL(c, "\",\"name\":");
	put_name(c, s->kineto_name ? s->kineto_name : s->name);
	put_place(c, s, s->start);
	PUT_LITERAL(c, ",\"dur\":");
	put_us(c, s->end - s->start);
	PUT_LITERAL(c, ",\"args\":{");
	for (size_t i = 0; i < s->nargs; i++) {
		if (i)
			put_char(c, ',');
		put_arg(c, &s->arg[i]);
	}
	PUT_LITERAL(c, "}}");
	if (s->flow != FLOW_NONE)
		flow_event(c, s);
	if (!c->has_span || s->start < c->lo)
		c->lo = s->start;
	if (!c->has_span || s->end > c->hi)
		c->hi = s->end;
	c->has_span = true;
	return status_of(c, err);
}

/* ---- the end -------------------------------------------------------------------------------- */

/* Kineto's span of the session, from 0 (or the first slice, when earlier)
 * so that its readers keep the export's times. */
static void session_span(struct chrome *c)
{
	int64_t lo = c->lo < 0 ? c->lo : 0;
	next_event(c);
	PUT_LITERAL(c, "{\"ph\":\"X\",\"cat\":\"Trace\",\"name\":\"nstats export\",\"pid\":0,\"tid\":0,\"ts\":");
	put_us(c, lo);
	PUT_LITERAL(c, ",\"dur\":");
	put_us(c, c->hi - lo);
	put_char(c, '}');
}

static enum nst_status cj_finish(void *self, struct nst_error *err)
{
	struct chrome *c = self;
	if (c->has_span)
		session_span(c);
	PUT_LITERAL(c, "\n],\n\"deviceProperties\":[");
	for (size_t i = 0; i < c->ndev; i++) {
		if (i)
			put_char(c, ',');
		PUT_LITERAL(c, "{\"id\":");
		put_int(c, c->dev[i].id);
		PUT_LITERAL(c, ",\"name\":");
		put_string(c, c->dev[i].name);
		put_char(c, '}');
	}
	PUT_LITERAL(c, "]}\n");
	if (c->nomem)
		return status_of(c, err);
	flush_buffer(c);
	if (fflush(c->out) != 0 || ferror(c->out))
		return trace_write_failed(c->out, err);
	return NST_OK;
}

static void cj_free(void *self)
{
	struct chrome *c = self;
	if (!c)
		return;
	for (size_t i = 0; i < c->ndev; i++)
		free(c->dev[i].name);
	free(c->dev);
	free(c->buf);
	free(c->quoted);
	trace_names_release(&c->names);
	nst_arena_release(&c->arena);
	free(c);
}

enum nst_status trace_chrome_json_new(FILE *out, struct trace_writer *w, struct nst_error *err)
{
	struct chrome *c = calloc(1, sizeof *c);
	if (!c || !(c->buf = malloc(BLOCK))) {
		free(c);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	c->out = out;
	c->cap = BLOCK;
	PUT_LITERAL(c, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
	*w = (struct trace_writer){ .track = cj_track, .slice = cj_slice, .device = cj_device,
				    .finish = cj_finish, .free = cj_free, .self = c };
	return NST_OK;
}
