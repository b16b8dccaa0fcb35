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
 * printed from the integer nanoseconds: nothing is rounded. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"

struct device {
	int64_t id;
	char *name;
};

struct chrome {
	FILE *out;
	bool any;          /* an event was written: the next needs a comma */
	bool has_span;
	int64_t lo, hi;    /* the span of the slices */
	struct device *dev;
	size_t ndev, cap;
};

static void put_string(FILE *out, const char *s)
{
	nst_put_json_string(out, s, strlen(s));
}

/* ns as microseconds, "-1.234" for -1234: exact, never through a double. */
static void put_us(FILE *out, int64_t ns)
{
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	fprintf(out, "%s%" PRIu64 ".%03u", ns < 0 ? "-" : "", a / 1000, (unsigned)(a % 1000));
}

static void next_event(struct chrome *c)
{
	fputs(c->any ? ",\n" : "\n", c->out);
	c->any = true;
}

static enum nst_status status_of(struct chrome *c, struct nst_error *err)
{
	return ferror(c->out) ? trace_write_failed(c->out, err) : NST_OK;
}

/* ---- names of processes and threads ------------------------------------------------- */

static void metadata(struct chrome *c, const char *what, int64_t pid, int64_t tid, const char *name)
{
	next_event(c);
	fprintf(c->out, "{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%lld,\"tid\":%lld,\"args\":{\"name\":",
		what, (long long)pid, (long long)tid);
	put_string(c->out, name);
	fputs("}}", c->out);
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
	if (c->ndev == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 8;
		struct device *d = realloc(c->dev, cap * sizeof *d);
		if (!d)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		c->dev = d;
		c->cap = cap;
	}
	char *copy = strdup(name);
	if (!copy)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	c->dev[c->ndev++] = (struct device){ id, copy };
	return NST_OK;
}

/* ---- slices ------------------------------------------------------------------------------- */

static void put_arg(FILE *out, const struct trace_arg *a)
{
	put_string(out, trace_key_names[a->key]);
	putc(':', out);
	if (a->kind == ARG_INT)
		fprintf(out, "%lld", (long long)a->i[0]);
	else if (a->kind == ARG_TEXT)
		put_string(out, a->s);
	else
		fprintf(out, "[%lld,%lld,%lld]", (long long)a->i[0], (long long)a->i[1],
			(long long)a->i[2]);
}

static void put_place(struct chrome *c, const struct trace_slice *s, int64_t ts)
{
	fprintf(c->out, ",\"pid\":%lld,\"tid\":%lld,\"ts\":", (long long)s->track->pid,
		(long long)s->track->tid);
	put_us(c->out, ts);
}

/* The flow's event, bound to the slice that encloses it: the one just
 * written. */
static void flow_event(struct chrome *c, const struct trace_slice *s)
{
	static const char ph[] = { [FLOW_START] = 's', [FLOW_STEP] = 't', [FLOW_END] = 'f' };
	next_event(c);
	fprintf(c->out, "{\"ph\":\"%c\",\"id\":%llu,\"cat\":\"ac2g\",\"name\":\"ac2g\"", ph[s->flow],
		(unsigned long long)s->flow_id);
	if (s->flow != FLOW_START)
		fputs(",\"bp\":\"e\"", c->out);
	put_place(c, s, s->start);
	putc('}', c->out);
}

static enum nst_status cj_slice(void *self, const struct trace_slice *s, struct nst_error *err)
{
	struct chrome *c = self;
	FILE *out = c->out;
	next_event(c);
	fprintf(out, "{\"ph\":\"X\",\"cat\":\"%s\",\"name\":", trace_cat_names[s->cat]);
	put_string(out, s->kineto_name ? s->kineto_name : s->name);
	put_place(c, s, s->start);
	fputs(",\"dur\":", out);
	put_us(out, s->end - s->start);
	fputs(",\"args\":{", out);
	for (size_t i = 0; i < s->nargs; i++) {
		if (i)
			putc(',', out);
		put_arg(out, &s->arg[i]);
	}
	fputs("}}", out);
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
	fputs("{\"ph\":\"X\",\"cat\":\"Trace\",\"name\":\"nstats export\",\"pid\":0,\"tid\":0,\"ts\":",
	      c->out);
	put_us(c->out, lo);
	fputs(",\"dur\":", c->out);
	put_us(c->out, c->hi - lo);
	fputs("}", c->out);
}

static enum nst_status cj_finish(void *self, struct nst_error *err)
{
	struct chrome *c = self;
	if (c->has_span)
		session_span(c);
	fputs("\n],\n\"deviceProperties\":[", c->out);
	for (size_t i = 0; i < c->ndev; i++) {
		fprintf(c->out, "%s{\"id\":%lld,\"name\":", i ? "," : "", (long long)c->dev[i].id);
		put_string(c->out, c->dev[i].name);
		putc('}', c->out);
	}
	fputs("]}\n", c->out);
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
	free(c);
}

enum nst_status trace_chrome_json_new(FILE *out, struct trace_writer *w, struct nst_error *err)
{
	struct chrome *c = calloc(1, sizeof *c);
	if (!c)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	c->out = out;
	fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", out);
	*w = (struct trace_writer){ .track = cj_track, .slice = cj_slice, .device = cj_device,
				    .finish = cj_finish, .free = cj_free, .self = c };
	return status_of(c, err);
}
