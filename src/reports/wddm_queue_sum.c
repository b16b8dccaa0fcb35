/* wddm_queue_sum: how busy each WDDM queue was: packets (queue packets and
 * DMA packets) paired from their start and stop events, grouped by queue,
 * with the share of its process's time during which the queue held one. */
#include <stdlib.h>

#include "reports/common.h"

#define WDDM_CONTEXTS "TARGET_INFO_WDDM_CONTEXTS"
#define QUEUE_START "WDDM_QUEUE_PACKET_START_EVENTS"
#define QUEUE_STOP "WDDM_QUEUE_PACKET_STOP_EVENTS"
#define DMA_START "WDDM_DMA_PACKET_START_EVENTS"
#define DMA_STOP "WDDM_DMA_PACKET_STOP_EVENTS"

/* A kind of queue: its tables and the columns that pair a start event
 * with its stop event (within one context). */
struct qkind {
	const char *name; /* Q Name */
	const char *start_table, *stop_table, *start_key, *stop_key;
};

static const struct qkind kinds[] = {
	{ "queue", QUEUE_START, QUEUE_STOP, "submitSequence", "submitSequence" },
	{ "dma", DMA_START, DMA_STOP, "uliSubmissionId", "uliCompletionId" },
};
#define NKINDS (sizeof kinds / sizeof *kinds)

/* One packet: a start event joined to a stop event. */
struct packet {
	int64_t qtype, pid, gpu, context, engine; /* the group key (sorted by pid first) */
	int64_t start, end;
};

struct packets {
	struct packet *p;
	size_t n, cap;
};

/* ---- pairing start and stop events ----------------------------------------- */

struct stop_ev {
	int64_t context, key, start;
};

static int cmp_stop(const void *a, const void *b)
{
	const struct stop_ev *x = a, *y = b;
	if (x->context != y->context)
		return (x->context > y->context) - (x->context < y->context);
	return (x->key > y->key) - (x->key < y->key);
}

/* The first stop event of (context, key) in the sorted stops, or n. */
static size_t first_stop(const struct stop_ev *s, size_t n, int64_t context, int64_t key)
{
	struct stop_ev want = { context, key, 0 };
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cmp_stop(&s[mid], &want) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static enum nst_status push(struct packets *ps, struct packet p, struct nst_error *err)
{
	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? ps->cap * 2 : 64;
		struct packet *np = realloc(ps->p, cap * sizeof *np);
		if (!np)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		ps->p = np;
		ps->cap = cap;
	}
	ps->p[ps->n++] = p;
	return NST_OK;
}

static enum nst_status read_stops(struct nst_ctx *ctx, const struct qkind *k,
				  struct stop_ev **out, size_t *n, struct nst_error *err)
{
	const int64_t *start, *context, *key;
	enum nst_status s = nst_ev_rows(ctx->ev, k->stop_table, n, err);
	if (!s) s = nst_ev_i64(ctx->ev, k->stop_table, "start", &start, err);
	if (!s) s = nst_ev_i64(ctx->ev, k->stop_table, "context", &context, err);
	if (!s) s = nst_ev_i64(ctx->ev, k->stop_table, k->stop_key, &key, err);
	if (s != NST_OK)
		return s;
	if (*n && (!start || !context || !key))
		return nst_fail(err, NST_ERR_DB, "%s: %s lacks start, context or %s",
				nst_db_path(ctx->db), k->stop_table, k->stop_key);
	*out = malloc((*n ? *n : 1) * sizeof **out);
	if (!*out)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < *n; i++)
		(*out)[i] = (struct stop_ev){ context[i], key[i], start[i] };
	qsort(*out, *n, sizeof **out, cmp_stop);
	return NST_OK;
}

/* The start table's columns. */
struct starts {
	size_t n;
	const int64_t *start, *gtid, *gpu, *context, *key, *engine;
};

static enum nst_status read_starts(struct nst_ctx *ctx, const struct qkind *k,
				   struct starts *st, struct nst_error *err)
{
	const char *t = k->start_table;
	enum nst_status s = nst_ev_rows(ctx->ev, t, &st->n, err);
	if (!s) s = nst_ev_i64(ctx->ev, t, "start", &st->start, err);
	if (!s) s = nst_ev_i64(ctx->ev, t, "globalTid", &st->gtid, err);
	if (!s) s = nst_ev_i64(ctx->ev, t, "gpu", &st->gpu, err);
	if (!s) s = nst_ev_i64(ctx->ev, t, "context", &st->context, err);
	if (!s) s = nst_ev_i64(ctx->ev, t, k->start_key, &st->key, err);
	if (!s) s = nst_ev_i64(ctx->ev, t, "engineType", &st->engine, err);
	if (s == NST_OK && st->n &&
	    (!st->start || !st->gtid || !st->gpu || !st->context || !st->key || !st->engine))
		s = nst_fail(err, NST_ERR_DB, "%s: %s lacks a column the report needs",
			     nst_db_path(ctx->db), t);
	return s;
}

/* Every stop event of the same context and key that is not earlier than
 * the start event ends a packet, as in nsys's join. */
static enum nst_status pair_kind(struct nst_ctx *ctx, int64_t qtype, struct packets *ps,
				 struct nst_error *err)
{
	const struct qkind *k = &kinds[qtype];
	struct starts st;
	struct stop_ev *stops = NULL;
	size_t nstops = 0;
	enum nst_status s = read_starts(ctx, k, &st, err);
	if (!s) s = read_stops(ctx, k, &stops, &nstops, err);
	for (size_t i = 0; s == NST_OK && i < st.n; i++) {
		int64_t g = st.gtid[i];
		struct packet p = {
			qtype, g == NST_NULL_I64 ? NST_NULL_I64 : nst_pid(g), st.gpu[i],
			st.context[i], st.engine[i], st.start[i], 0,
		};
		for (size_t j = first_stop(stops, nstops, st.context[i], st.key[i]);
		     s == NST_OK && j < nstops && stops[j].context == st.context[i] &&
		     stops[j].key == st.key[i]; j++) {
			if (stops[j].start < st.start[i])
				continue;
			p.end = stops[j].start;
			s = push(ps, p, err);
		}
	}
	free(stops);
	return s;
}

/* ---- queues ------------------------------------------------------------------ */

static int cmp_key(const struct packet *a, const struct packet *b)
{
	const int64_t ka[] = { a->pid, a->qtype, a->gpu, a->context, a->engine };
	const int64_t kb[] = { b->pid, b->qtype, b->gpu, b->context, b->engine };
	for (int i = 0; i < 5; i++)
		if (ka[i] != kb[i])
			return (ka[i] > kb[i]) - (ka[i] < kb[i]);
	return 0;
}

/* Queue order, then start time: a queue's packets in a run, ready for the
 * union of their intervals. */
static int cmp_packet(const void *a, const void *b)
{
	const struct packet *x = a, *y = b;
	int c = cmp_key(x, y);
	if (c)
		return c;
	if (x->start != y->start)
		return (x->start > y->start) - (x->start < y->start);
	return (x->end > y->end) - (x->end < y->end);
}

/* One output row. */
struct queue {
	const struct packet *first; /* its key */
	struct nst_dist d;
	struct nst_cell util;
};

/* The time covered by at least one of the packets (sorted by start). */
static int64_t busy_time(const struct packet *p, size_t n)
{
	int64_t busy = 0, cur_s = p[0].start, cur_e = p[0].end;
	for (size_t i = 1; i < n; i++) {
		if (p[i].start > cur_e) {
			busy += cur_e - cur_s;
			cur_s = p[i].start;
		}
		if (p[i].end > cur_e)
			cur_e = p[i].end;
	}
	return busy + cur_e - cur_s;
}

/* A process's span: from its first packet's start to its last packet's
 * end, over every queue of both kinds. */
struct span {
	int64_t pid, lo, hi;
};

static int64_t span_of(const struct span *sp, size_t n, int64_t pid)
{
	for (size_t i = 0; i < n; i++)
		if (sp[i].pid == pid)
			return sp[i].hi - sp[i].lo;
	return 0;
}

static size_t spans(const struct packets *ps, struct span *sp)
{
	size_t n = 0;
	for (size_t i = 0; i < ps->n; i++) {
		const struct packet *p = &ps->p[i];
		size_t k = 0;
		while (k < n && sp[k].pid != p->pid)
			k++;
		if (k == n)
			sp[n++] = (struct span){ p->pid, p->start, p->end };
		sp[k].lo = p->start < sp[k].lo ? p->start : sp[k].lo;
		sp[k].hi = p->end > sp[k].hi ? p->end : sp[k].hi;
	}
	return n;
}

static enum nst_status build_queues(const struct packets *ps, struct queue *q, size_t *nq,
				    struct nst_error *err)
{
	size_t n = ps->n ? ps->n : 1;
	struct span *sp = malloc(n * sizeof *sp);
	int64_t *vals = malloc(n * sizeof *vals);
	if (!sp || !vals) {
		free(sp);
		free(vals);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	size_t nsp = spans(ps, sp);
	*nq = 0;
	for (size_t i = 0, j; i < ps->n; i = j) {
		for (j = i; j < ps->n && cmp_key(&ps->p[i], &ps->p[j]) == 0; j++)
			vals[j - i] = ps->p[j].end - ps->p[j].start;
		struct queue *e = &q[(*nq)++];
		e->first = &ps->p[i];
		if (!nst_dist_of(vals, j - i, &e->d)) {
			free(sp);
			free(vals);
			return nst_fail_sum(err);
		}
		int64_t span = span_of(sp, nsp, ps->p[i].pid);
		/* SQL divides by zero into NULL */
		e->util = span ? nst_round1(100.0 * (double)busy_time(&ps->p[i], j - i) / (double)span)
			       : nst_null();
	}
	free(sp);
	free(vals);
	return NST_OK;
}

/* Utilization descending as printed (rounded), NULL last, then queue
 * key order: the sort is stable over the queues in key order. */
static int cmp_util(uint32_t a, uint32_t b, void *arg)
{
	const struct queue *q = arg;
	struct nst_cell x = q[a].util, y = q[b].util;
	if (x.kind == NST_NULL || y.kind == NST_NULL)
		return (x.kind == NST_NULL) - (y.kind == NST_NULL);
	return (x.v.r < y.v.r) - (x.v.r > y.v.r);
}

/* ---- output -------------------------------------------------------------------- */

/* The engine names nsys prints (not ENUM_WDDM_ENGINE_TYPE's labels). */
static const char *engine_name(int64_t engine)
{
	static const char *const names[] = {
		"Other", "3D", "Video Decode", "Video Encode", "Video Processing",
		"Scene Assembly", "Copy", "Overlay", "Crypto",
	};
	return engine >= 0 && engine < (int64_t)(sizeof names / sizeof *names) ? names[engine]
									      : NULL;
}

/* nodeOrdinal of the context; 0 when TARGET_INFO_WDDM_CONTEXTS lacks it. */
static int64_t node_ordinal(const int64_t *ctx_id, const int64_t *node, size_t n, int64_t context)
{
	for (size_t i = 0; ctx_id && node && i < n; i++)
		if (ctx_id[i] == context)
			return node[i] == NST_NULL_I64 ? 0 : node[i];
	return 0;
}

struct contexts {
	size_t n;
	const int64_t *id, *node;
};

static enum nst_status emit(const struct nst_sink *out, const struct queue *q,
			    const uint32_t *order, size_t n, const struct contexts *cx,
			    struct nst_error *err)
{
	enum nst_status s;
	static const char *const cols[] = {
		"Utilization:ratio_%", "Instances", "Avg:dur_ns", "Med:dur_ns", "Min:dur_ns",
		"Max:dur_ns", "StdDev:dur_ns", "Name", "Q Type", "Q Name", "PID", "GPU ID",
		"Context:addr_uint", "Engine", "Node Ord",
	};
	if ((s = out->begin(out->ctx, cols, 15, err)) != NST_OK)
		return s;
	for (size_t k = 0; k < n; k++) {
		const struct queue *e = &q[order[k]];
		const struct packet *p = e->first;
		struct nst_cell c[15] = {
			e->util, nst_int((int64_t)e->d.n), nst_round1(e->d.avg),
			nst_round1(nst_mid_value(e->d.med)), nst_int(e->d.min), nst_int(e->d.max),
			nst_round1(e->d.stdev), nst_text(engine_name(p->engine)), nst_int(p->qtype),
			nst_text(kinds[p->qtype].name), nst_int_or_null(p->pid), nst_int_or_null(p->gpu),
			nst_int_or_null(p->context), nst_int_or_null(p->engine),
			nst_int(node_ordinal(cx->id, cx->node, cx->n, p->context)),
		};
		if ((s = out->row(out->ctx, c, err)) != NST_OK)
			return s;
	}
	return NST_OK;
}

static enum nst_status summarise(struct nst_ctx *ctx, struct packets *ps,
				 const struct nst_sink *out, struct nst_error *err)
{
	struct contexts cx;
	enum nst_status s = nst_ev_rows(ctx->ev, WDDM_CONTEXTS, &cx.n, err);
	if (!s) s = nst_ev_i64(ctx->ev, WDDM_CONTEXTS, "context", &cx.id, err);
	if (!s) s = nst_ev_i64(ctx->ev, WDDM_CONTEXTS, "nodeOrdinal", &cx.node, err);
	if (s != NST_OK)
		return s;
	if (ps->n)
		qsort(ps->p, ps->n, sizeof *ps->p, cmp_packet);
	size_t cap = ps->n ? ps->n : 1, nq = 0;
	struct queue *q = malloc(cap * sizeof *q);
	uint32_t *order = malloc(cap * sizeof *order);
	if (!q || !order)
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (s == NST_OK)
		s = build_queues(ps, q, &nq, err);
	if (s == NST_OK) {
		for (size_t k = 0; k < nq; k++)
			order[k] = (uint32_t)k;
		nst_stable_sort(order, nq, cmp_util, q);
		s = emit(out, q, order, nq, &cx, err);
	}
	free(q);
	free(order);
	return s;
}

static bool has_pair(const struct nst_db *db, const struct qkind *k)
{
	return nst_db_has_table(db, k->start_table) && nst_db_has_table(db, k->stop_table);
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	/* TARGET_INFO_WDDM_CONTEXTS only gives Node Ord: without it the
	 * queues are listed with 0 there, as for a context it does not list
	 * (nsys refuses, D49), and nsys's message stays for an export with no
	 * packets to list either. */
	bool any = false;
	for (size_t k = 0; k < NKINDS; k++)
		any = any || has_pair(ctx->db, &kinds[k]);
	if (!any)
		return nst_nodata(ctx, err, nst_db_has_table(ctx->db, WDDM_CONTEXTS)
						    ? "WDDM event data." : "WDDM context data.");
	struct packets ps = { 0 };
	enum nst_status s = NST_OK;
	for (size_t k = 0; s == NST_OK && k < NKINDS; k++)
		if (has_pair(ctx->db, &kinds[k]))
			s = pair_kind(ctx, (int64_t)k, &ps, err);
	if (s == NST_OK)
		s = summarise(ctx, &ps, out, err);
	free(ps.p);
	return s;
}

static const struct nst_need needs[] = {
	{ WDDM_CONTEXTS, "context", false }, { WDDM_CONTEXTS, "nodeOrdinal", false },
	{ QUEUE_START, "start", false }, { QUEUE_START, "globalTid", false },
	{ QUEUE_START, "gpu", false }, { QUEUE_START, "context", false },
	{ QUEUE_START, "submitSequence", false }, { QUEUE_START, "engineType", false },
	{ QUEUE_STOP, "start", false }, { QUEUE_STOP, "context", false },
	{ QUEUE_STOP, "submitSequence", false },
	{ DMA_START, "start", false }, { DMA_START, "globalTid", false },
	{ DMA_START, "gpu", false }, { DMA_START, "context", false },
	{ DMA_START, "uliSubmissionId", false }, { DMA_START, "engineType", false },
	{ DMA_STOP, "start", false }, { DMA_STOP, "context", false },
	{ DMA_STOP, "uliCompletionId", false },
	{ NULL, NULL, false },
};

const struct nst_report nst_report_wddm_queue_sum = {
	.name = "wddm_queue_sum",
	.title = "WDDM Queue Utilization Summary",
	.help = "How busy each WDDM queue was. Queue packets and DMA packets are\n"
		"paired from their start and stop events (same context and\n"
		"submission id, the stop not earlier than the start) and grouped by\n"
		"queue type, process, GPU, context and engine: the share of the\n"
		"process's time (its first packet's start to its last packet's end)\n"
		"during which the queue held a packet, the number of packets, and the\n"
		"average, median, minimum, maximum and standard deviation of a\n"
		"packet's time.  Without a TARGET_INFO_WDDM_CONTEXTS table (which nsys\n"
		"2024.2.3 refuses) Node Ord is 0.\n"
		NST_TOP_ROWS_HELP,
	.args = (const char *const[]){ "rows", NULL },
	.needs = needs,
	.run = run,
	.flags = NST_REPORT_TOP_ROWS,
};
