/* Timelines: an export as a trace that Perfetto or chrome://tracing opens
 * (docs/export.md).
 *
 *   walk.c         the export as a stream of tracks, slices and flows: each
 *                  track declared before its first slice, the slices of each
 *                  source in start order
 *   perfetto.c     the stream as Perfetto's protobuf packets
 *   chrome_json.c  the stream as the Trace Event Format (JSON)
 *   names.c        the names a writer has met, interned once
 *   trace.c        the public API (nst_trace_...)
 *
 * A writer takes the stream and writes as it goes: a third format is one
 * more file with a trace_writer. */
#ifndef NSTATS_TRACE_TRACE_H
#define NSTATS_TRACE_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "core/arena.h"
#include "core/strtab.h"
#include "nstats/nstats.h"

enum trace_track_kind {
	TRACK_PROCESS, /* a host process: pid */
	TRACK_THREAD,  /* a thread of one: pid, tid */
	TRACK_GPU,     /* a GPU device: gpu_pid (JSON's process for it) */
	TRACK_STREAM,  /* a stream of a device: parent, gpu_pid, tid (the stream) */
	TRACK_LANE,    /* NVTX start/end ranges of a process that do not
			  overlap: parent, pid, tid (made up) */
};

struct trace_track {
	enum trace_track_kind kind;
	uint64_t uuid, parent; /* parent 0: none */
	int64_t pid, tid;      /* as written: each input's ids kept apart */
	const char *name;
};

/* What a slice is: Perfetto's category, the Trace Event Format's "cat". */
enum trace_cat {
	CAT_API, CAT_KERNEL, CAT_MEMCPY, CAT_MEMSET, CAT_NVTX, CAT_NVTX_STARTEND, CAT_COUNT,
};

/* Debug annotations / "args": a fixed set of keys, so that Perfetto's are
 * interned once. */
enum trace_key {
	KEY_CORRELATION, KEY_RESULT, KEY_DEVICE, KEY_CONTEXT, KEY_STREAM, KEY_GRID, KEY_BLOCK,
	KEY_REGISTERS, KEY_STATIC_SMEM, KEY_DYNAMIC_SMEM, KEY_BYTES, KEY_COPY_KIND,
	KEY_SRC_KIND, KEY_DST_KIND, KEY_MEM_KIND, KEY_DOMAIN, KEY_GREEN_CONTEXT, KEY_COUNT,
};
/* The keys' names: Kineto's where it has one, so that its readers find them. */
extern const char *const trace_key_names[KEY_COUNT];
extern const char *const trace_cat_names[CAT_COUNT];

enum trace_arg_kind { ARG_INT, ARG_TEXT, ARG_DIM3 };
struct trace_arg {
	enum trace_key key;
	enum trace_arg_kind kind;
	int64_t i[3];
	const char *s;
};

/* How a slice takes part in the flow from a launch to its GPU work: the
 * launch starts it, each GPU operation but the last steps it, the last
 * ends it (in start order). */
enum trace_flow { FLOW_NONE, FLOW_START, FLOW_STEP, FLOW_END };

#define TRACE_MAX_ARGS 12
struct trace_slice {
	const struct trace_track *track;
	enum trace_cat cat;
	int64_t start, end;
	const char *name;     /* never NULL */
	/* The name Kineto would give it ("Memcpy HtoD (Pinned -> Device)"),
	 * NULL when it is name: the JSON writes it, for Kineto's readers. */
	const char *kineto_name;
	struct trace_arg arg[TRACE_MAX_ARGS];
	size_t nargs;
	enum trace_flow flow;
	uint64_t flow_id;
};

/* Where the stream goes.  Strings are borrowed for the call. */
struct trace_writer {
	enum nst_status (*track)(void *self, const struct trace_track *t, struct nst_error *err);
	enum nst_status (*slice)(void *self, const struct trace_slice *s, struct nst_error *err);
	/* The GPUs an input named (for the JSON's deviceProperties). */
	enum nst_status (*device)(void *self, int64_t id, const char *name, struct nst_error *err);
	/* Ends the document and flushes it. */
	enum nst_status (*finish)(void *self, struct nst_error *err);
	void (*free)(void *self);
	void *self;
};

enum nst_status trace_perfetto_new(FILE *out, struct trace_writer *w, struct nst_error *err);
enum nst_status trace_chrome_json_new(FILE *out, struct trace_writer *w, struct nst_error *err);

/* One export's tracks and slices, under filter (NULL: none), its ids and
 * names kept apart from the other inputs' by `input` (0 for the first) and
 * label.  *next_uuid numbers the tracks across inputs. */
enum nst_status trace_walk(struct nst_export *x, uint32_t input, const char *label,
			   const struct nst_filter *filter, const struct trace_writer *w,
			   uint64_t *next_uuid, struct nst_error *err);

/* The names a writer has met (the slices' and the text args'), each
 * interned by its text with a copy of its own: the export's strings are
 * borrowed, and another input's may come at the same address.  The same
 * name comes back with every launch, so the id last seen at an address is
 * kept, and checked by its text. */
#define TRACE_NAME_CACHE 4096
struct trace_names {
	struct nst_strtab tab; /* text[id]: the copy */
	struct nst_arena arena;
	struct { const char *p; size_t id1; } cache[TRACE_NAME_CACHE];
};
/* The id of s (from 0), *fresh when s got it now; -1 when out of memory. */
int64_t trace_name_id(struct trace_names *n, const char *s, bool *fresh);
void trace_names_release(struct trace_names *n);

/* A stream's write error as the library says it. */
enum nst_status trace_write_failed(FILE *out, struct nst_error *err);

#endif
