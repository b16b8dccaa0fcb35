/* nst_trace_...: a timeline document of one or more exports (trace.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"

struct nst_trace {
	struct trace_writer w;
	uint32_t inputs;    /* added so far */
	uint64_t next_uuid; /* tracks' ids, across inputs */
	bool finished;
};

enum nst_status trace_write_failed(FILE *out, struct nst_error *err)
{
	(void)out;
	int e = errno;
	return nst_fail(err, NST_ERR_IO, "writing the trace failed: %s",
			e ? strerror(e) : "write error");
}

enum nst_status nst_trace_open(enum nst_trace_type type, FILE *out, struct nst_trace **t,
			       struct nst_error *err)
{
	*t = NULL;
	if (!out || (type != NST_TRACE_PERFETTO && type != NST_TRACE_CHROME_JSON))
		return nst_fail(err, NST_ERR_USAGE, "nst_trace_open: %s",
				out ? "unknown trace type" : "no stream to write to");
	struct nst_trace *tr = calloc(1, sizeof *tr);
	if (!tr)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	tr->next_uuid = 1;
	enum nst_status s = type == NST_TRACE_PERFETTO ? trace_perfetto_new(out, &tr->w, err)
						       : trace_chrome_json_new(out, &tr->w, err);
	if (s != NST_OK) {
		nst_trace_free(tr);
		return s;
	}
	*t = tr;
	return NST_OK;
}

enum nst_status nst_trace_add(struct nst_trace *t, struct nst_export *x, const char *label,
			      const struct nst_filter *filter, struct nst_error *err)
{
	if (t->finished)
		return nst_fail(err, NST_ERR_USAGE, "nst_trace_add: the trace is closed");
	if (t->inputs >= 127)
		return nst_fail(err, NST_ERR_USAGE, "%s: a trace holds 127 exports at most",
				nst_export_path(x));
	return trace_walk(x, t->inputs++, label, filter, &t->w, &t->next_uuid, err);
}

enum nst_status nst_trace_close(struct nst_trace *t, struct nst_error *err)
{
	if (t->finished)
		return NST_OK;
	t->finished = true;
	return t->w.finish(t->w.self, err);
}

void nst_trace_free(struct nst_trace *t)
{
	if (!t)
		return;
	if (t->w.free)
		t->w.free(t->w.self);
	free(t);
}
