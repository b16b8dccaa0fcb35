/* PyTorch profiler (Kineto) traces: the JSON that torch.profiler writes
 * (*.pt.trace.json, gzip or not), read front to back by YAJL's callbacks,
 * keeping only the fields of the event being read, into an export of the
 * nsys schema in memory (memdb.c).  What is read, and how it maps, is in
 * docs/guide.md ("PyTorch profiler traces"); in short:
 *
 *   ph X, cat kernel              CUPTI_ACTIVITY_KIND_KERNEL
 *   ph X, cat gpu_memcpy          CUPTI_ACTIVITY_KIND_MEMCPY (kinds from the name)
 *   ph X, cat gpu_memset          CUPTI_ACTIVITY_KIND_MEMSET
 *   ph X, cat cuda_runtime        CUPTI_ACTIVITY_KIND_RUNTIME, eventClass 0
 *   ph X, cat cuda_driver         CUPTI_ACTIVITY_KIND_RUNTIME, eventClass 1
 *   ph X, cat user_annotation     NVTX_EVENTS, push/pop ranges of their thread
 *   ph X, cat gpu_user_annotation NVTX_EVENTS, push/pop ranges of domain
 *                                 "gpu_user_annotation" on (device, stream)
 *   ph X, cat Trace               the session's span, with every event kept
 *   ph M process_name, thread_name  PROCESSES, ThreadNames
 *   deviceProperties              TARGET_INFO_GPU
 *   distributedInfo.rank          MPI_RANKS, for every thread with events
 *   anything else                 skipped, unread beyond its syntax
 *
 * Times: ts and dur are microseconds; their digits become nanoseconds
 * exactly (number.c), more than three decimals rounded to the nearest ns.
 * The export's time 0 is the session's first nanosecond.  The flows (ph s
 * and f, cat ac2g) are not read: a GPU row's args.correlation already
 * names its call. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <yajl/yajl_parse.h>
#include <zlib.h>

#include "core/copykind.h"
#include "core/hashmap.h"
#include "core/kname.h"
#include "input/input.h"
#include "input/memdb.h"

/* Kineto nests 6 deep at most; deeper text is refused before YAJL's stack
 * follows it. */
#define MAX_DEPTH 256
/* No string of a trace is near 4 MiB (the longest of the real ones, 5 KB),
 * no number near 1 KiB (20 bytes); YAJL holds a token that spans chunks
 * whole, and lexes it again with each chunk, so longer ones are refused
 * as they stream past, before they cost memory or time. */
#define MAX_STRING ((uint64_t)1 << 22)
#define MAX_WORD ((uint64_t)1 << 10)
/* nsys keeps 24 bits of a process and of a thread id in globalTid; an id
 * beyond them (Kineto writes a truncated pthread id for a thread it could
 * not name, e.g. -549452224) gets a stand-in counted down from the top,
 * above the 2^22 ids Linux gives. */
#define ID_LIMIT ((int64_t)1 << 24)
#define STANDIN_LAST ((int64_t)1 << 23)
#define DOMAIN_NAME "gpu_user_annotation"

/* What the container being read is. */
enum role { R_ROOT, R_SKIP, R_TOP, R_EVENTS, R_EVENT, R_ARGS, R_GRID, R_BLOCK, R_DEVICES,
	    R_DEVICE, R_DIST, R_COUNT };

enum key {
	K_OTHER,
	/* the top object */
	K_EVENTS, K_DEVICES, K_DIST, K_BASE, K_SCHEMA,
	/* an event */
	K_PH, K_CAT, K_NAME, K_PID, K_TID, K_TS, K_DUR, K_ARGS,
	/* its args */
	K_DEVICE, K_CONTEXT, K_STREAM, K_CORR, K_REGS, K_BYTES, K_GRID, K_BLOCK,
	K_FROM_DEVICE, K_IN_DEVICE, K_TO_DEVICE, K_FROM_CONTEXT, K_IN_CONTEXT, K_TO_CONTEXT,
	K_SSMEM, K_DSMEM, K_GREEN, K_COPY_KIND, K_SRC_KIND, K_DST_KIND, K_MEM_KIND,
	K_ARGNAME,
	/* distributedInfo */
	K_RANK,
	/* an entry of deviceProperties, in TARGET_INFO_GPU's column order */
	K_DP_ID, K_DP_NAME, K_DP_MEM, K_DP_SMS, K_DP_REGS_BLOCK, K_DP_SHM_BLOCK, K_DP_SHM_OPTIN,
	K_DP_SHM_SM, K_DP_REGS_SM, K_DP_WARP, K_DP_THREADS, K_DP_MAJOR, K_DP_MINOR,
	K_COUNT
};
#define EVENT_FIRST K_PH
#define EVENT_LAST K_ARGNAME
#define ARGS_FIRST K_DEVICE
#define ARGS_LAST K_ARGNAME
#define DEVICE_FIRST K_DP_ID
#define DEVICE_LAST K_DP_MINOR

#define KEY(role, key, text) { role, key, sizeof text - 1, text }
static const struct key_name {
	unsigned char role, key;
	unsigned char len;
	const char *text;
} KEYS[] = {
	KEY(R_TOP, K_EVENTS, "traceEvents"), KEY(R_TOP, K_DEVICES, "deviceProperties"),
	KEY(R_TOP, K_DIST, "distributedInfo"), KEY(R_TOP, K_BASE, "baseTimeNanoseconds"),
	KEY(R_TOP, K_SCHEMA, "schemaVersion"),
	KEY(R_EVENT, K_PH, "ph"), KEY(R_EVENT, K_CAT, "cat"), KEY(R_EVENT, K_NAME, "name"),
	KEY(R_EVENT, K_PID, "pid"), KEY(R_EVENT, K_TID, "tid"), KEY(R_EVENT, K_TS, "ts"),
	KEY(R_EVENT, K_DUR, "dur"), KEY(R_EVENT, K_ARGS, "args"),
	KEY(R_ARGS, K_DEVICE, "device"), KEY(R_ARGS, K_CONTEXT, "context"),
	KEY(R_ARGS, K_STREAM, "stream"), KEY(R_ARGS, K_CORR, "correlation"),
	KEY(R_ARGS, K_REGS, "registers per thread"), KEY(R_ARGS, K_BYTES, "bytes"),
	KEY(R_ARGS, K_GRID, "grid"), KEY(R_ARGS, K_BLOCK, "block"), KEY(R_ARGS, K_ARGNAME, "name"),
	/* a copy between devices (CUPTI's peer-to-peer record) */
	KEY(R_ARGS, K_FROM_DEVICE, "fromDevice"), KEY(R_ARGS, K_IN_DEVICE, "inDevice"),
	KEY(R_ARGS, K_TO_DEVICE, "toDevice"), KEY(R_ARGS, K_FROM_CONTEXT, "fromContext"),
	KEY(R_ARGS, K_IN_CONTEXT, "inContext"), KEY(R_ARGS, K_TO_CONTEXT, "toContext"),
	/* what nstats's own traces add (export -t chrome-json), which Kineto's do not have */
	KEY(R_ARGS, K_SSMEM, "static shared memory"), KEY(R_ARGS, K_DSMEM, "dynamic shared memory"),
	KEY(R_ARGS, K_GREEN, "green context"), KEY(R_ARGS, K_COPY_KIND, "copy kind"),
	KEY(R_ARGS, K_SRC_KIND, "src kind"), KEY(R_ARGS, K_DST_KIND, "dst kind"),
	KEY(R_ARGS, K_MEM_KIND, "memory kind"),
	KEY(R_DIST, K_RANK, "rank"),
	KEY(R_DEVICE, K_DP_ID, "id"), KEY(R_DEVICE, K_DP_NAME, "name"),
	KEY(R_DEVICE, K_DP_MEM, "totalGlobalMem"), KEY(R_DEVICE, K_DP_SMS, "numSms"),
	KEY(R_DEVICE, K_DP_REGS_BLOCK, "regsPerBlock"), KEY(R_DEVICE, K_DP_SHM_BLOCK, "sharedMemPerBlock"),
	KEY(R_DEVICE, K_DP_SHM_OPTIN, "sharedMemPerBlockOptin"),
	KEY(R_DEVICE, K_DP_SHM_SM, "sharedMemPerMultiprocessor"),
	KEY(R_DEVICE, K_DP_REGS_SM, "regsPerMultiprocessor"), KEY(R_DEVICE, K_DP_WARP, "warpSize"),
	KEY(R_DEVICE, K_DP_THREADS, "maxThreadsPerBlock"), KEY(R_DEVICE, K_DP_MAJOR, "computeMajor"),
	KEY(R_DEVICE, K_DP_MINOR, "computeMinor"),
};

/* Each role's keys by length, as indices into KEYS: a key of another
 * length is none of them without a look at its text. */
#define KEY_LEN_MAX 32
#define KEYS_PER_LEN 4
struct key_index {
	unsigned char n[R_COUNT][KEY_LEN_MAX + 1];
	unsigned char at[R_COUNT][KEY_LEN_MAX + 1][KEYS_PER_LEN];
	bool linear; /* a key of KEYS did not fit: look through all of them */
};

/* JSON types, as a value's type and as messages name them. */
enum type { T_ABSENT, T_NULL, T_BOOL, T_NUM, T_STR, T_MAP, T_ARRAY };
static const char *const TYPE_NAME[] = { "absent", "null", "a boolean", "a number", "a string",
					 "an object", "an array" };

/* A value of the event (or entry) being read: its type, where it starts,
 * and for a number its value and the start of its text. */
struct field {
	unsigned char type;
	enum nst_num num;
	int64_t v;
	uint64_t off;
	char text[40];
};

/* A string value, kept for the keys that are strings. */
struct sbuf {
	char *p;
	size_t len, cap;
	bool nul; /* it holds a NUL character (\u0000) */
};

struct dims {
	unsigned char type; /* the field's: T_ARRAY when it is one */
	int n;
	bool bad;           /* an element that is no integer */
	int64_t v[3];
};

enum cat { C_NONE, C_TRACE, C_KERNEL, C_MEMCPY, C_MEMSET, C_RUNTIME, C_DRIVER, C_ANNOTATION,
	   C_GPU_ANNOTATION };

/* Categories as torch.profiler writes them, and as Kineto before 2022 did. */
static const struct {
	const char *text;
	enum cat cat;
} CATS[] = {
	{ "kernel", C_KERNEL }, { "gpu_memcpy", C_MEMCPY }, { "gpu_memset", C_MEMSET },
	{ "cuda_runtime", C_RUNTIME }, { "cuda_driver", C_DRIVER },
	{ "user_annotation", C_ANNOTATION }, { "gpu_user_annotation", C_GPU_ANNOTATION },
	{ "Trace", C_TRACE },
	{ "Kernel", C_KERNEL }, { "Memcpy", C_MEMCPY }, { "Memset", C_MEMSET },
	{ "Runtime", C_RUNTIME },
};

/* Strings longer than MAX_STRING, numbers and literals longer than
 * MAX_WORD, found as the text streams past: the scanner is the text's
 * check (nst_text_open), run on the reading thread ahead of YAJL. */
struct scan {
	bool in_string, escape;
	uint64_t len, start;
};

struct kparse {
	const char *path;
	struct nst_error *err;      /* the caller's, maybe NULL */
	bool failed;
	enum nst_status status;     /* of the failure */
	struct memdb *db;
	yajl_handle y;
	const unsigned char *chunk; /* the text YAJL is reading, from byte chunk_off */
	uint64_t chunk_off;

	int depth;
	unsigned char role[MAX_DEPTH + 2];
	unsigned char key;          /* of the value to come in the innermost object */
	struct key_index keys;

	uint64_t event_off;         /* where the event or entry being read starts */
	struct field f[K_COUNT];
	struct sbuf str[K_COUNT];
	struct dims grid, block;
	struct sbuf scratch;
	int64_t *base_of;           /* a kernel name's id -> its base's id, -1: not yet */
	size_t nbase;

	struct scan scan;           /* the reading thread's */
	bool saw_events;
	bool has_span;
	int64_t lo, hi;             /* the session: first and last ns, on the trace's clock */
	uint64_t lo_off, hi_off;
	/* the top object's: baseTimeNanoseconds, schemaVersion, distributedInfo.rank */
	struct field base, rank;
	char schema[32];
	struct nst_map standins;    /* (id, 0 for a pid or 1 for a tid) -> stand-in */
	int64_t next_standin;
};

/* ---- messages --------------------------------------------------------------- */

static int fail_at(struct kparse *p, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Every failure: "PATH: byte N: what", N counted in the decompressed text. */
static int fail_at(struct kparse *p, uint64_t off, const char *fmt, ...)
{
	char what[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	p->status = nst_fail(p->err, NST_ERR_DB, "%s: byte %llu: %s", p->path,
			     (unsigned long long)off, what);
	p->failed = true;
	return 0;
}

static int nomem(struct kparse *p)
{
	p->status = nst_fail(p->err, NST_ERR_NOMEM, "%s: out of memory", p->path);
	p->failed = true;
	return 0;
}

/* A failure of memdb, whose message is in p->err already. */
static int failed(struct kparse *p, enum nst_status s)
{
	p->status = s;
	p->failed = true;
	return 0;
}

/* The event's category as the trace spells it, for messages. */
static const char *cat_text(const struct kparse *p)
{
	return p->str[K_CAT].p ? p->str[K_CAT].p : "";
}

/* ---- values ------------------------------------------------------------------ */

static uint64_t consumed(const struct kparse *p)
{
	return p->chunk_off + yajl_get_bytes_consumed(p->y);
}

static void index_keys(struct key_index *ix)
{
	memset(ix, 0, sizeof *ix);
	for (size_t i = 0; i < sizeof KEYS / sizeof *KEYS; i++) {
		unsigned char r = KEYS[i].role, len = KEYS[i].len;
		if (len <= KEY_LEN_MAX && ix->n[r][len] < KEYS_PER_LEN)
			ix->at[r][len][ix->n[r][len]++] = (unsigned char)i;
		else
			ix->linear = true;
	}
}

/* Every key of every event goes through here. */
static unsigned char lookup_key(const struct kparse *p, const unsigned char *s, size_t len)
{
	unsigned char role = p->role[p->depth];
	if (p->keys.linear) {
		for (size_t i = 0; i < sizeof KEYS / sizeof *KEYS; i++)
			if (KEYS[i].role == role && KEYS[i].len == len && memcmp(KEYS[i].text, s, len) == 0)
				return KEYS[i].key;
		return K_OTHER;
	}
	if (role >= R_COUNT || len > KEY_LEN_MAX)
		return K_OTHER;
	for (unsigned char j = 0; j < p->keys.n[role][len]; j++) {
		const struct key_name *k = &KEYS[p->keys.at[role][len][j]];
		if (k->text[0] == s[0] && memcmp(k->text, s, len) == 0)
			return k->key;
	}
	return K_OTHER;
}

/* The field the value to come fills, or NULL when it is not read. */
static struct field *slot(struct kparse *p)
{
	switch (p->role[p->depth]) {
	case R_TOP:
		return p->key == K_BASE ? &p->base : NULL;
	case R_DIST:
		return p->key == K_RANK ? &p->rank : NULL;
	case R_EVENT:
	case R_ARGS:
	case R_DEVICE:
		return p->key != K_OTHER ? &p->f[p->key] : NULL;
	default:
		return NULL;
	}
}

/* Fields first..last absent, and the dimensions with them. */
static void reset(struct kparse *p, int first, int last)
{
	for (int k = first; k <= last; k++) {
		p->f[k].type = T_ABSENT;
		p->str[k].len = 0;
		p->str[k].nul = false;
		if (p->str[k].p)
			p->str[k].p[0] = '\0';
	}
	p->grid = p->block = (struct dims){ 0 };
}

static bool keep_text(struct sbuf *b, const unsigned char *s, size_t len)
{
	if (len + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		while (cap < len + 1)
			cap *= 2;
		char *q = realloc(b->p, cap);
		if (!q)
			return false;
		b->p = q;
		b->cap = cap;
	}
	memcpy(b->p, s, len);
	b->p[len] = '\0';
	b->len = len;
	b->nul = memchr(s, '\0', len) != NULL;
	return true;
}

/* Where a scalar that was just read starts: exact for numbers and
 * literals, and for strings without escapes, which YAJL hands over in
 * place; for other strings, counted back from its end. */
static uint64_t scalar_off(const struct kparse *p, const unsigned char *s, size_t len, int type)
{
	uint64_t end = consumed(p);
	size_t raw = type == T_STR ? len + 2 : len;
	uintptr_t at = (uintptr_t)s, chunk = (uintptr_t)p->chunk;
	if (type == T_STR && chunk && at > chunk && at < chunk + NST_TEXT_CHUNK)
		return p->chunk_off + (uint64_t)(at - chunk) - 1;
	return end >= raw ? end - raw : 0;
}

static int wrong_place(struct kparse *p, uint64_t off, int type)
{
	switch (p->role[p->depth]) {
	case R_ROOT:
		return fail_at(p, off, "the JSON text is %s, not an object: not a PyTorch profiler trace",
			       TYPE_NAME[type]);
	case R_EVENTS:
		return fail_at(p, off, "an element of \"traceEvents\" is %s, not an event object",
			       TYPE_NAME[type]);
	case R_DEVICES:
		return fail_at(p, off, "an element of \"deviceProperties\" is %s, not an object",
			       TYPE_NAME[type]);
	default:
		return 1;
	}
}

static void dims_add(struct dims *d, int type, const char *s, size_t len)
{
	int64_t v = 0;
	if (type != T_NUM || d->n == 3 || nst_decimal_scaled(s, len, 0, false, &v) != NST_NUM_OK)
		d->bad = true;
	else
		d->v[d->n++] = v;
}

/* A scalar value: into its field, or skipped. */
static int scalar(struct kparse *p, int type, const unsigned char *s, size_t len)
{
	enum role r = p->role[p->depth];
	if (r == R_ROOT || r == R_EVENTS || r == R_DEVICES)
		return wrong_place(p, scalar_off(p, s, len, type), type);
	if (r == R_TOP && p->key == K_EVENTS)
		return fail_at(p, scalar_off(p, s, len, type), "\"traceEvents\" is %s, not an array",
			       TYPE_NAME[type]);
	if (r == R_GRID || r == R_BLOCK) {
		dims_add(r == R_GRID ? &p->grid : &p->block, type, (const char *)s, len);
		return 1;
	}
	if (r == R_TOP && p->key == K_SCHEMA && (type == T_NUM || type == T_STR)) {
		snprintf(p->schema, sizeof p->schema, "%.*s", (int)(len < 31 ? len : 31), (const char *)s);
		return 1;
	}
	struct field *f = slot(p);
	if (!f)
		return 1;
	f->type = (unsigned char)type;
	f->off = scalar_off(p, s, len, type);
	if (type == T_NUM) {
		bool time = p->key == K_TS || p->key == K_DUR;
		f->num = nst_decimal_scaled((const char *)s, len, time ? 3 : 0, time, &f->v);
		/* its text for messages, cut */
		size_t n = len < 32 ? len : 32;
		memcpy(f->text, s, n);
		memcpy(f->text + n, len > 32 ? "..." : "", len > 32 ? 4 : 1);
	} else if (type == T_STR && r != R_TOP && r != R_DIST) {
		if (!keep_text(&p->str[p->key], s, len))
			return nomem(p);
	}
	return 1;
}

static int on_null(void *ctx)
{
	return scalar(ctx, T_NULL, (const unsigned char *)"null", 4);
}

static int on_boolean(void *ctx, int b)
{
	return scalar(ctx, T_BOOL, (const unsigned char *)(b ? "true" : "false"), b ? 4 : 5);
}

static int on_number(void *ctx, const char *s, size_t len)
{
	return scalar(ctx, T_NUM, (const unsigned char *)s, len);
}

static int on_string(void *ctx, const unsigned char *s, size_t len)
{
	return scalar(ctx, T_STR, s, len);
}

static int on_map_key(void *ctx, const unsigned char *s, size_t len)
{
	struct kparse *p = ctx;
	p->key = lookup_key(p, s, len);
	return 1;
}

/* ---- events ------------------------------------------------------------------ */

/* Whether field k is the string text, all of it (a NUL inside is no end). */
static bool is_text(const struct kparse *p, int k, const char *text)
{
	size_t n = strlen(text);
	return p->f[k].type == T_STR && p->str[k].len == n && memcmp(p->str[k].p, text, n) == 0;
}

static enum cat category(const struct kparse *p)
{
	for (size_t i = 0; i < sizeof CATS / sizeof *CATS; i++)
		if (is_text(p, K_CAT, CATS[i].text))
			return CATS[i].cat;
	return C_NONE;
}

/* "ts" or "dur" in exact nanoseconds. */
static bool event_time(struct kparse *p, int k, int64_t *out)
{
	const char *name = k == K_TS ? "ts" : "dur";
	const struct field *f = &p->f[k];
	if (f->type == T_ABSENT)
		return fail_at(p, p->event_off, "%s event has no \"%s\"", cat_text(p), name);
	if (f->type != T_NUM)
		return fail_at(p, p->event_off, "%s event: \"%s\" is %s, not a number", cat_text(p), name,
			       TYPE_NAME[f->type]);
	if (f->num != NST_NUM_OK)
		return fail_at(p, f->off, "%s event: \"%s\" %s us does not fit 64 bits of nanoseconds",
			       cat_text(p), name, f->text);
	*out = f->v;
	return true;
}

static bool event_times(struct kparse *p, int64_t *start, int64_t *end)
{
	int64_t dur;
	if (!event_time(p, K_TS, start) || !event_time(p, K_DUR, &dur))
		return false;
	if (__builtin_add_overflow(*start, dur, end))
		return fail_at(p, p->event_off, "%s event: ts + dur does not fit 64 bits of nanoseconds",
			       cat_text(p));
	int64_t lo = *start < *end ? *start : *end, hi = *start < *end ? *end : *start;
	if (!p->has_span || lo < p->lo)
		p->lo = lo, p->lo_off = p->event_off;
	if (!p->has_span || hi > p->hi)
		p->hi = hi, p->hi_off = p->event_off;
	p->has_span = true;
	return true;
}

/* An integer of the event, or of its args (in_args), into *v; *present
 * false when it is optional and absent. */
static bool event_int(struct kparse *p, int k, const char *name, bool in_args, bool required,
		      bool *present, int64_t *v)
{
	const struct field *f = &p->f[k];
	const char *where = in_args ? "\"args\" " : "";
	/* null is no value, where none is needed */
	*present = f->type != T_ABSENT && (required || f->type != T_NULL);
	if (!*present) {
		if (!required)
			return true;
		if (in_args && p->f[K_ARGS].type != T_MAP)
			return fail_at(p, p->event_off, "%s event has no \"args\" object", cat_text(p));
		return fail_at(p, p->event_off, "%s event: %shas no \"%s\"", cat_text(p), where, name);
	}
	if (f->type != T_NUM)
		return fail_at(p, p->event_off, "%s event: %s\"%s\" is %s, not an integer", cat_text(p),
			       where, name, TYPE_NAME[f->type]);
	if (f->num == NST_NUM_FRACTION)
		return fail_at(p, f->off, "%s event: %s\"%s\" %s is not an integer", cat_text(p), where,
			       name, f->text);
	if (f->num != NST_NUM_OK)
		return fail_at(p, f->off, "%s event: %s\"%s\" %s does not fit 64 bits", cat_text(p),
			       where, name, f->text);
	*v = f->v;
	return true;
}

static bool need_int(struct kparse *p, int k, const char *name, int64_t *v)
{
	bool present;
	return event_int(p, k, name, true, true, &present, v);
}

/* An id as globalTid can hold it: itself, or its stand-in (*standin). */
static bool small_id(struct kparse *p, int64_t id, int kind, int64_t *out, bool *standin)
{
	*standin = id < 0 || id >= ID_LIMIT;
	if (!*standin) {
		*out = id;
		return true;
	}
	uint32_t v;
	bool fresh;
	if (p->next_standin < STANDIN_LAST)
		return fail_at(p, p->event_off, "more than %lld process and thread ids beyond 24 bits",
			       (long long)(ID_LIMIT - STANDIN_LAST));
	if (nst_map_get_or_put(&p->standins, id, kind, (uint32_t)p->next_standin, &v, &fresh) != 0)
		return nomem(p);
	p->next_standin -= fresh;
	*out = v;
	return true;
}

/* A stand-in's process or thread is named by the id the trace gives it,
 * unless the trace names it (process_name, thread_name). */
static bool name_standin(struct kparse *p, bool thread, int64_t id, int64_t raw)
{
	char text[64];
	int n = snprintf(text, sizeof text, "%s %lld", thread ? "tid" : "pid", (long long)raw);
	enum nst_status s = thread ? md_thread(p->db, id, text, (size_t)n, false, p->err)
				   : md_process(p->db, id, text, (size_t)n, false, p->err);
	return s == NST_OK || failed(p, s);
}

/* pid and tid as nsys packs them: globalTid = pid << 24 | tid. */
static bool event_gtid(struct kparse *p, int64_t *gtid)
{
	int64_t raw[2], id[2];
	bool present, standin[2];
	for (int i = 0; i < 2; i++)
		if (!event_int(p, i ? K_TID : K_PID, i ? "tid" : "pid", false, true, &present, &raw[i]) ||
		    !small_id(p, raw[i], i, &id[i], &standin[i]))
			return false;
	*gtid = id[0] << 24 | id[1];
	return (!standin[0] || name_standin(p, false, id[0], raw[0])) &&
	       (!standin[1] || name_standin(p, true, *gtid, raw[1]));
}

static bool event_name(struct kparse *p, const struct sbuf **name)
{
	const struct field *f = &p->f[K_NAME];
	if (f->type == T_ABSENT)
		return fail_at(p, p->event_off, "%s event has no \"name\"", cat_text(p));
	if (f->type != T_STR)
		return fail_at(p, p->event_off, "%s event: \"name\" is %s, not a string", cat_text(p),
			       TYPE_NAME[f->type]);
	if (p->str[K_NAME].nul)
		return fail_at(p, p->event_off, "%s event: \"name\" holds a NUL character", cat_text(p));
	*name = &p->str[K_NAME];
	return true;
}

static bool event_dims(struct kparse *p, const struct dims *d, const char *name)
{
	if (p->f[K_ARGS].type == T_MAP && d->type == T_ARRAY && d->n == 3 && !d->bad)
		return true;
	if (p->f[K_ARGS].type != T_MAP)
		return fail_at(p, p->event_off, "%s event has no \"args\" object", cat_text(p));
	return fail_at(p, p->event_off, "%s event: \"args\" \"%s\" is not an array of 3 integers",
		       cat_text(p), name);
}

static void put_optional(struct kparse *p, int k)
{
	if (p->f[k].type == T_ABSENT || p->f[k].type == T_NULL)
		md_null(p->db);
	else
		md_int(p->db, p->f[k].v);
}

/* The GPU's place of a copy or set: device, context, stream, and the
 * correlation of its call when there is one. */
static bool gpu_place(struct kparse *p, int64_t start, int64_t end)
{
	int64_t device, context, stream, corr, green;
	bool has_corr, has_green;
	/* a copy between devices says "inDevice" and "inContext" for the one it ran on */
	int dk = p->f[K_DEVICE].type == T_ABSENT && p->f[K_IN_DEVICE].type != T_ABSENT ? K_IN_DEVICE
										       : K_DEVICE;
	int ck = p->f[K_CONTEXT].type == T_ABSENT && p->f[K_IN_CONTEXT].type != T_ABSENT ? K_IN_CONTEXT
											 : K_CONTEXT;
	if (!need_int(p, dk, dk == K_DEVICE ? "device" : "inDevice", &device) ||
	    !need_int(p, ck, ck == K_CONTEXT ? "context" : "inContext", &context) ||
	    !need_int(p, K_STREAM, "stream", &stream) ||
	    !event_int(p, K_CORR, "correlation", true, false, &has_corr, &corr) ||
	    !event_int(p, K_GREEN, "green context", true, false, &has_green, &green))
		return false;
	md_int(p->db, start);
	md_int(p->db, end);
	md_int(p->db, device);
	md_int(p->db, context);
	put_optional(p, K_GREEN);
	md_int(p->db, stream);
	put_optional(p, K_CORR);
	return true;
}

static bool finish_row(struct kparse *p)
{
	enum nst_status s = md_end(p->db, p->err);
	return s == NST_OK || failed(p, s);
}

static int64_t string_id(struct kparse *p, const char *s, size_t len)
{
	enum nst_status st = NST_OK;
	int64_t id = md_string(p->db, s, len, &st, p->err);
	if (id < 0)
		failed(p, st);
	return id;
}

/* The StringIds id of a kernel name's base (nsys's shortName), worked out
 * once per name: a name comes back with every launch. */
static int64_t kernel_base_id(struct kparse *p, const struct sbuf *name, int64_t name_id)
{
	if ((size_t)name_id < p->nbase && p->base_of[name_id] >= 0)
		return p->base_of[name_id];
	size_t blen, boff = nst_kname_base(name->p, &blen);
	if (!keep_text(&p->scratch, (const unsigned char *)name->p + boff, blen)) {
		nomem(p);
		return -1;
	}
	int64_t base_id = string_id(p, p->scratch.p, blen);
	if (base_id < 0)
		return -1;
	if ((size_t)name_id >= p->nbase) {
		size_t n = p->nbase ? p->nbase : 64;
		while (n <= (size_t)name_id)
			n *= 2;
		int64_t *v = realloc(p->base_of, n * sizeof *v);
		if (!v) {
			nomem(p);
			return -1;
		}
		for (size_t i = p->nbase; i < n; i++)
			v[i] = -1;
		p->base_of = v;
		p->nbase = n;
	}
	return p->base_of[name_id] = base_id;
}

static int kernel(struct kparse *p, int64_t start, int64_t end)
{
	const struct sbuf *name;
	int64_t regs, smem;
	bool present;
	if (!event_name(p, &name) || !need_int(p, K_REGS, "registers per thread", &regs) ||
	    !event_dims(p, &p->grid, "grid") || !event_dims(p, &p->block, "block") ||
	    !event_int(p, K_SSMEM, "static shared memory", true, false, &present, &smem) ||
	    !event_int(p, K_DSMEM, "dynamic shared memory", true, false, &present, &smem))
		return 0;
	int64_t name_id = string_id(p, name->p, name->len);
	int64_t base_id = name_id < 0 ? -1 : kernel_base_id(p, name, name_id);
	if (base_id < 0)
		return 0;
	md_begin(p->db, MD_KERNEL);
	if (!gpu_place(p, start, end))
		return 0;
	md_int(p->db, name_id);
	md_int(p->db, base_id);
	md_int(p->db, regs);
	for (int i = 0; i < 3; i++)
		md_int(p->db, p->grid.v[i]);
	for (int i = 0; i < 3; i++)
		md_int(p->db, p->block.v[i]);
	put_optional(p, K_SSMEM);
	put_optional(p, K_DSMEM);
	return finish_row(p);
}

/* Kineto's names of CUPTI's memory kinds, as ENUM_CUDA_MEM_KIND numbers
 * them; -1 for a word it does not know. */
static int64_t mem_kind(const char *s, size_t len)
{
	static const char *const names[] = { "Pageable", "Pinned", "Device", "Array", "Managed",
					     "Device Static", "Managed Static", "Unknown" };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (strlen(names[i]) == len && memcmp(names[i], s, len) == 0)
			return (int64_t)i;
	return -1;
}

/* "(SRC -> DST)" or "(KIND)" at s: the kinds, -1 where there is none. */
static void kinds_in_parens(const char *s, int64_t *a, int64_t *b)
{
	*a = *b = -1;
	size_t n = strlen(s);
	if (n < 2 || s[0] != '(' || s[n - 1] != ')')
		return;
	const char *arrow = strstr(s, " -> ");
	if (!arrow) {
		*a = mem_kind(s + 1, n - 2);
		return;
	}
	*a = mem_kind(s + 1, (size_t)(arrow - s - 1));
	*b = mem_kind(arrow + 4, (size_t)(s + n - 1 - arrow - 4));
}

static void put_kind(struct kparse *p, int64_t kind)
{
	if (kind < 0)
		md_null(p->db);
	else
		md_int(p->db, kind);
}

/* An optional text of the args, k: *text NULL when it is absent or null. */
static bool event_text(struct kparse *p, int k, const char *name, const struct sbuf **text)
{
	const struct field *f = &p->f[k];
	*text = NULL;
	if (f->type == T_ABSENT || f->type == T_NULL)
		return true;
	if (f->type != T_STR)
		return fail_at(p, f->off, "%s event: \"args\" \"%s\" is %s, not a string", cat_text(p),
			       name, TYPE_NAME[f->type]);
	*text = &p->str[k];
	return true;
}

/* A memory kind of the args, k, over the one the name gave (*kind). */
static bool kind_arg(struct kparse *p, int k, const char *name, int64_t *kind)
{
	const struct sbuf *text;
	if (!event_text(p, k, name, &text))
		return false;
	if (text)
		*kind = mem_kind(text->p, text->len);
	return true;
}

/* "Memcpy HtoD (Pageable -> Device)": copyKind as ENUM_CUDA_MEMCPY_OPER
 * numbers it, srcKind and dstKind, from the name or, where nstats wrote
 * the trace, from its args; a copy between devices gives their devices
 * and contexts too. */
static int memcpy_row(struct kparse *p, int64_t start, int64_t end)
{
	static const struct {
		int key;
		const char *name;
	} ends[] = { { K_FROM_DEVICE, "fromDevice" }, { K_FROM_CONTEXT, "fromContext" },
		     { K_TO_DEVICE, "toDevice" }, { K_TO_CONTEXT, "toContext" } };
	const struct sbuf *name, *kind;
	int64_t bytes, op = 0, src = -1, dst = -1, v;
	bool present;
	if (!event_name(p, &name) || !need_int(p, K_BYTES, "bytes", &bytes))
		return 0;
	for (size_t i = 0; i < sizeof ends / sizeof *ends; i++)
		if (!event_int(p, ends[i].key, ends[i].name, true, false, &present, &v))
			return 0;
	if (strncmp(name->p, "Memcpy ", 7) == 0) {
		const char *w = name->p + 7;
		size_t n = strcspn(w, " ");
		op = nst_copy_kind_id(w, n);
		if (w[n] == ' ')
			kinds_in_parens(w + n + 1, &src, &dst);
	}
	if (!event_text(p, K_COPY_KIND, "copy kind", &kind) ||
	    !kind_arg(p, K_SRC_KIND, "src kind", &src) || !kind_arg(p, K_DST_KIND, "dst kind", &dst))
		return 0;
	if (kind)
		op = nst_copy_kind_id(kind->p, kind->len);
	md_begin(p->db, MD_MEMCPY);
	if (!gpu_place(p, start, end))
		return 0;
	md_int(p->db, bytes);
	md_int(p->db, op);
	put_kind(p, src);
	put_kind(p, dst);
	for (size_t i = 0; i < sizeof ends / sizeof *ends; i++)
		put_optional(p, ends[i].key);
	return finish_row(p);
}

/* "Memset (Device)": memKind. */
static int memset_row(struct kparse *p, int64_t start, int64_t end)
{
	const struct sbuf *name;
	int64_t bytes, kind = -1, unused;
	if (!event_name(p, &name) || !need_int(p, K_BYTES, "bytes", &bytes))
		return 0;
	if (strncmp(name->p, "Memset ", 7) == 0)
		kinds_in_parens(name->p + 7, &kind, &unused);
	if (!kind_arg(p, K_MEM_KIND, "memory kind", &kind))
		return 0;
	md_begin(p->db, MD_MEMSET);
	if (!gpu_place(p, start, end))
		return 0;
	md_int(p->db, bytes);
	put_kind(p, kind);
	return finish_row(p);
}

static int call(struct kparse *p, int64_t start, int64_t end, int event_class)
{
	const struct sbuf *name;
	int64_t gtid, corr;
	bool has_corr;
	if (!event_name(p, &name) || !event_gtid(p, &gtid) ||
	    !event_int(p, K_CORR, "correlation", true, false, &has_corr, &corr))
		return 0;
	int64_t name_id = string_id(p, name->p, name->len);
	if (name_id < 0)
		return 0;
	enum nst_status s = md_call(p->db, has_corr, corr, gtid & -ID_LIMIT, p->err);
	if (s != NST_OK)
		return failed(p, s);
	md_begin(p->db, MD_RUNTIME);
	md_int(p->db, start);
	md_int(p->db, end);
	md_int(p->db, event_class);
	md_int(p->db, gtid);
	put_optional(p, K_CORR);
	md_int(p->db, name_id);
	return finish_row(p);
}

/* A range pushed and popped on its thread (eventType 59); on the GPU, the
 * thread is (device, stream) and the domain gpu_user_annotation. */
static int range(struct kparse *p, int64_t start, int64_t end, bool gpu)
{
	const struct sbuf *name;
	int64_t gtid;
	if (!event_name(p, &name) || !event_gtid(p, &gtid))
		return 0;
	md_begin(p->db, MD_NVTX);
	md_int(p->db, start);
	md_int(p->db, end);
	md_int(p->db, 59);
	md_text(p->db, name->p, name->len);
	md_int(p->db, gtid);
	if (gpu)
		md_int(p->db, MD_DOMAIN);
	else
		md_null(p->db);
	return finish_row(p);
}

/* process_name and thread_name of integer ids (not of the "Spans"
 * process of the profiler's own rows). */
static int metadata(struct kparse *p)
{
	bool process = is_text(p, K_NAME, "process_name");
	if (!process && !is_text(p, K_NAME, "thread_name"))
		return 1;
	const struct field *f[2] = { &p->f[K_PID], &p->f[K_TID] };
	int64_t id[2] = { 0, 0 };
	bool standin;
	for (int i = 0; i < 2 - process; i++)
		if (f[i]->type != T_NUM || f[i]->num != NST_NUM_OK)
			return 1;
	for (int i = 0; i < 2 - process; i++)
		if (!small_id(p, f[i]->v, i, &id[i], &standin))
			return 0;
	const struct sbuf *name = &p->str[K_ARGNAME];
	if (p->f[K_ARGNAME].type != T_STR || name->nul)
		return fail_at(p, p->event_off, "%s event: \"args\" \"name\" is %s, not a string",
			       p->str[K_NAME].p, p->f[K_ARGNAME].type == T_STR ? "a string with a NUL character"
			       : TYPE_NAME[p->f[K_ARGNAME].type]);
	enum nst_status s = process ? md_process(p->db, id[0], name->p, name->len, true, p->err)
				    : md_thread(p->db, id[0] << 24 | id[1], name->p, name->len, true, p->err);
	return s == NST_OK || failed(p, s);
}

static int event_end(struct kparse *p)
{
	if (is_text(p, K_PH, "M"))
		return metadata(p);
	enum cat c = category(p);
	if (!is_text(p, K_PH, "X") || c == C_NONE)
		return 1;
	int64_t start, end;
	if (!event_times(p, &start, &end))
		return 0;
	switch (c) {
	case C_KERNEL:
		return kernel(p, start, end);
	case C_MEMCPY:
		return memcpy_row(p, start, end);
	case C_MEMSET:
		return memset_row(p, start, end);
	case C_RUNTIME:
	case C_DRIVER:
		return call(p, start, end, c == C_DRIVER);
	case C_ANNOTATION:
	case C_GPU_ANNOTATION:
		return range(p, start, end, c == C_GPU_ANNOTATION);
	default:
		return 1; /* the Trace span: its times only */
	}
}

/* An entry of deviceProperties: a row of TARGET_INFO_GPU. */
static int device_end(struct kparse *p)
{
	for (int k = DEVICE_FIRST; k <= DEVICE_LAST; k++) {
		const struct field *f = &p->f[k];
		const char *name = KEYS[0].text;
		for (size_t i = 0; i < sizeof KEYS / sizeof *KEYS; i++)
			if (KEYS[i].role == R_DEVICE && KEYS[i].key == k)
				name = KEYS[i].text;
		if (k == K_DP_ID && f->type == T_ABSENT)
			return fail_at(p, p->event_off, "a \"deviceProperties\" entry has no \"id\"");
		if (k == K_DP_NAME ? f->type != T_ABSENT && (f->type != T_STR || p->str[k].nul)
				   : f->type != T_ABSENT && (f->type != T_NUM || f->num != NST_NUM_OK))
			return fail_at(p, p->event_off, "a \"deviceProperties\" entry: \"%s\" is not %s", name,
				       k == K_DP_NAME ? "a string" : "an integer of 64 bits");
	}
	md_begin(p->db, MD_GPU);
	for (int k = DEVICE_FIRST; k <= DEVICE_LAST; k++) {
		if (k == K_DP_NAME && p->f[k].type == T_STR)
			md_text(p->db, p->str[k].p, p->str[k].len);
		else
			put_optional(p, k);
	}
	return finish_row(p);
}

/* ---- containers --------------------------------------------------------------- */

/* The role of a container opened where the parser is. */
static int open_role(struct kparse *p, int type, unsigned char *role)
{
	uint64_t off = consumed(p) - 1;
	*role = R_SKIP;
	struct field *f;
	switch (p->role[p->depth]) {
	case R_ROOT:
		if (type != T_MAP)
			return wrong_place(p, off, type);
		*role = R_TOP;
		return 1;
	case R_TOP:
		if (p->key == K_EVENTS) {
			if (type != T_ARRAY)
				return fail_at(p, off, "\"traceEvents\" is %s, not an array", TYPE_NAME[type]);
			if (p->saw_events)
				return fail_at(p, off, "a second \"traceEvents\" array");
			p->saw_events = true;
			*role = R_EVENTS;
		} else if (p->key == K_DEVICES && type == T_ARRAY) {
			*role = R_DEVICES;
		} else if (p->key == K_DIST && type == T_MAP) {
			*role = R_DIST;
		}
		break;
	case R_EVENTS:
	case R_DEVICES:
		if (type != T_MAP)
			return wrong_place(p, off, type);
		*role = p->role[p->depth] == R_EVENTS ? R_EVENT : R_DEVICE;
		if (*role == R_EVENT)
			reset(p, EVENT_FIRST, EVENT_LAST);
		else
			reset(p, DEVICE_FIRST, DEVICE_LAST);
		p->event_off = off;
		return 1;
	case R_GRID:
	case R_BLOCK:
		(p->role[p->depth] == R_GRID ? &p->grid : &p->block)->bad = true;
		return 1;
	default:
		break;
	}
	if ((f = slot(p)) != NULL) {
		f->type = (unsigned char)type;
		f->off = off;
		if (p->key == K_ARGS && type == T_MAP) {
			/* a second "args" replaces the first, as a second key does */
			reset(p, ARGS_FIRST, ARGS_LAST);
			*role = R_ARGS;
		}
		if ((p->key == K_GRID || p->key == K_BLOCK) && type == T_ARRAY) {
			*role = p->key == K_GRID ? R_GRID : R_BLOCK;
			(p->key == K_GRID ? &p->grid : &p->block)->type = T_ARRAY;
		}
	}
	return 1;
}

static int open_container(struct kparse *p, int type)
{
	unsigned char role;
	if (!open_role(p, type, &role))
		return 0;
	if (p->depth == MAX_DEPTH)
		return fail_at(p, consumed(p) - 1, "nesting deeper than %d levels", MAX_DEPTH);
	p->role[++p->depth] = role;
	p->key = K_OTHER;
	return 1;
}

static int close_container(struct kparse *p)
{
	unsigned char role = p->role[p->depth--];
	p->key = K_OTHER;
	if (role == R_EVENT)
		return event_end(p);
	if (role == R_DEVICE)
		return device_end(p);
	return 1;
}

static int on_start_map(void *ctx) { return open_container(ctx, T_MAP); }
static int on_start_array(void *ctx) { return open_container(ctx, T_ARRAY); }
static int on_end(void *ctx) { return close_container(ctx); }

static const yajl_callbacks CALLBACKS = {
	.yajl_null = on_null,
	.yajl_boolean = on_boolean,
	.yajl_number = on_number,
	.yajl_string = on_string,
	.yajl_start_map = on_start_map,
	.yajl_map_key = on_map_key,
	.yajl_end_map = on_end,
	.yajl_start_array = on_start_array,
	.yajl_end_array = on_end,
};

/* ---- the text ------------------------------------------------------------------ */

/* A byte that no number or literal holds. */
static bool ends_word(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ':' || c == '[' ||
	       c == ']' || c == '{' || c == '}';
}

/* The bytes of buf[0..n) before the first that makes a token too long
 * (n when none does), with the failure, to be reported once YAJL has read
 * those bytes without finding an error before it. */
static size_t scan(void *ctx, const unsigned char *buf, size_t n, uint64_t off,
		   uint64_t *fail_off, char *why, size_t cap)
{
	struct scan *sc = ctx;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = buf[i];
		if (!sc->in_string && c != '"') {
			/* the bytes up to the next string at once, when no word in them can be
			 * too long: only the word they end in carries on */
			const unsigned char *q = memchr(buf + i, '"', n - i);
			size_t seg = (size_t)((q ? q : buf + n) - (buf + i));
			if (sc->len + seg <= MAX_WORD) {
				const unsigned char *end = buf + i + seg;
				size_t k = 0;
				while (k < seg && !ends_word(end[-1 - (ptrdiff_t)k]))
					k++;
				if (k == seg) {
					if (sc->len == 0)
						sc->start = off + i;
					sc->len += seg;
				} else {
					sc->len = k;
					sc->start = off + (uint64_t)(end - buf) - k;
				}
				i += seg - 1;
				continue;
			}
		}
		if (sc->in_string && !sc->escape && c != '"' && c != '\\') {
			/* the plain bytes of a string, up to its quote or next escape, at once */
			const unsigned char *q = memchr(buf + i, '"', n - i);
			const unsigned char *bs = memchr(buf + i, '\\', (size_t)((q ? q : buf + n) - (buf + i)));
			const unsigned char *stop = bs ? bs : q ? q : buf + n;
			size_t run = (size_t)(stop - (buf + i));
			if (sc->len + run > MAX_STRING) {
				i += (size_t)(MAX_STRING - sc->len);
				snprintf(why, cap, "a string longer than %llu bytes",
					 (unsigned long long)MAX_STRING);
				*fail_off = sc->start;
				return i;
			}
			sc->len += run;
			i += run - 1;
			continue;
		}
		if (sc->in_string) {
			if (sc->escape)
				sc->escape = false;
			else if (c == '\\')
				sc->escape = true;
			else if (c == '"') {
				sc->in_string = false;
				sc->len = 0;
				continue;
			}
		} else if (c == '"') {
			sc->in_string = true;
			sc->len = 0;
			sc->start = off + i;
			continue;
		} else if (ends_word(c)) {
			sc->len = 0;
			continue;
		} else if (sc->len == 0) {
			sc->start = off + i;
		}
		uint64_t max = sc->in_string ? MAX_STRING : MAX_WORD;
		if (++sc->len > max) {
			snprintf(why, cap, "a %s longer than %llu bytes",
				 sc->in_string ? "string" : "number or literal", (unsigned long long)max);
			*fail_off = sc->start;
			return i;
		}
	}
	return n;
}

/* YAJL's failure, found at the byte before off (where it stopped). */
static void yajl_fail(struct kparse *p, uint64_t off)
{
	unsigned char *msg = yajl_get_error(p->y, 0, NULL, 0);
	size_t n = msg ? strlen((char *)msg) : 0;
	while (n && (msg[n - 1] == '\n' || msg[n - 1] == '.'))
		n--;
	fail_at(p, off ? off - 1 : 0, "invalid JSON: %.*s", (int)n, msg ? (char *)msg : "");
	if (msg)
		yajl_free_error(p->y, msg);
}

/* Reads the whole text through YAJL. */
static void parse(struct kparse *p, struct nst_text *text)
{
	for (;;) {
		const struct nst_text_chunk *c = nst_text_next(text);
		p->chunk_off = c->off;
		if (c->status == NST_ERR_NOMEM) {
			nomem(p);
			return;
		}
		if (c->status != NST_OK) {
			fail_at(p, c->fail_off, "%s", c->why);
			return;
		}
		if (c->n == 0)
			break;
		p->chunk = c->buf;
		if (yajl_parse(p->y, c->buf, c->ok) != yajl_status_ok) {
			if (!p->failed)
				yajl_fail(p, consumed(p));
			return;
		}
		if (c->ok < c->n) {
			fail_at(p, c->fail_off, "%s", c->why);
			return;
		}
	}
	p->chunk = NULL;
	uint64_t total = p->chunk_off;
	if (yajl_complete_parse(p->y) != yajl_status_ok) {
		if (!p->failed)
			yajl_fail(p, total + 1); /* the text ended too soon: its end */
		return;
	}
	if (!p->saw_events)
		fail_at(p, total, "the text has no \"traceEvents\" array: not a PyTorch profiler trace");
}

/* A value of the trace's own that must be an integer. */
static bool top_int(struct kparse *p, const struct field *f, const char *name)
{
	if (f->type != T_NUM)
		return fail_at(p, f->off, "%s is %s, not an integer", name, TYPE_NAME[f->type]);
	if (f->num != NST_NUM_OK)
		return fail_at(p, f->off, "%s %s is not an integer of 64 bits", name, f->text);
	return true;
}

/* The session: its span, from the first to the last nanosecond of the
 * events kept and of the profiler's Trace spans, and its wall-clock
 * start.  ts counts from the Unix epoch, or from baseTimeNanoseconds when
 * the trace has it (Kineto since 2024 writes ts - base, to keep the
 * microseconds' digits short). */
static bool session(struct kparse *p, struct md_session *s)
{
	*s = (struct md_session){ .has_span = p->has_span, .origin = p->lo, .end = p->hi,
				  .domain = DOMAIN_NAME,
				  .format = "PyTorch profiler trace (Kineto JSON)",
				  .format_version = p->schema[0] ? p->schema : NULL };
	int64_t base = 0, span;
	if (p->base.type != T_ABSENT) {
		if (!top_int(p, &p->base, "\"baseTimeNanoseconds\""))
			return false;
		base = p->base.v;
	}
	if (p->rank.type != T_ABSENT) {
		if (!top_int(p, &p->rank, "\"distributedInfo\" \"rank\""))
			return false;
		s->has_rank = true;
		s->rank = p->rank.v;
	}
	if (!p->has_span)
		return true;
	if (__builtin_sub_overflow(p->hi, p->lo, &span) || span > ((int64_t)1 << 61))
		return fail_at(p, p->hi_off, "the trace's events span more than 2^61 ns, as nstats computes "
			       "times (from the event at byte %llu to this one)",
			       (unsigned long long)p->lo_off);
	if (__builtin_add_overflow(p->lo, base, &s->epoch))
		return fail_at(p, p->base.off, "\"baseTimeNanoseconds\" %s plus the trace's first ts does "
			       "not fit 64 bits of nanoseconds", p->base.text);
	s->has_epoch = true;
	return true;
}

static void kparse_release(struct kparse *p)
{
	for (int k = 0; k < K_COUNT; k++)
		free(p->str[k].p);
	free(p->scratch.p);
	free(p->base_of);
	nst_map_release(&p->standins);
	if (p->y)
		yajl_free(p->y);
}

enum nst_status nst_kineto_open(const char *path, struct nst_db **out, struct nst_error *err)
{
	*out = NULL;
	enum nst_status s = nst_input_file(path, err);
	if (s != NST_OK)
		return s;
	struct kparse *p = calloc(1, sizeof *p);
	struct nst_text *text = NULL;
	if (!p)
		return nst_fail(err, NST_ERR_NOMEM, "%s: out of memory", path);
	p->path = path;
	p->err = err;
	p->role[0] = R_ROOT;
	p->next_standin = ID_LIMIT - 1;
	index_keys(&p->keys);
	s = nst_text_open(path, scan, &p->scan, &text, err);
	if (s == NST_OK)
		s = memdb_new(path, &p->db, err);
	if (s == NST_OK && !(p->y = yajl_alloc(&CALLBACKS, NULL, p)))
		s = nst_fail(err, NST_ERR_NOMEM, "%s: out of memory", path);
	if (s == NST_OK) {
		parse(p, text);
		nst_text_close(text);
		text = NULL;
		struct md_session ses;
		if (!p->failed && session(p, &ses))
			s = memdb_finish(p->db, &ses, err);
		else
			s = p->status;
	}
	if (s == NST_OK)
		s = nst_db_adopt(memdb_take(p->db), path, out, err);
	nst_text_close(text);
	memdb_free(p->db);
	kparse_release(p);
	free(p);
	return s;
}
