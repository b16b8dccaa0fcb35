/* network_congestion: the sampling intervals in which a NIC or an
 * InfiniBand switch port waited to send more than ticks_threshold ticks
 * per millisecond (the "IB: Send waits" metric). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
#include "core/search.h"
#include "reports/common.h"

#define NIC_METRIC "NET_NIC_METRIC"
#define IB_METRIC "NET_IB_SWITCH_METRIC"
#define METRICS "TARGET_INFO_NETWORK_METRICS"
#define NIC_MAP "NIC_ID_MAP"
#define NIC_INFO "TARGET_INFO_NIC_INFO"
#define DEVICE_NAMES "ENUM_NET_DEVICE_ID"
#define SEND_WAITS "IB: Send waits"
#define DEFAULT_THRESHOLD 10000

/* One interval to show: a metric row of either table, and for a NIC the
 * TARGET_INFO_NIC_INFO row it belongs to (-1 for a switch). */
struct interval {
	int64_t start, end, value, guid;
	int64_t nic;
};

struct interval_list {
	struct interval *v;
	size_t n, cap;
};

/* The (metricsListId, metricsIdx) pairs that name the send-wait metric. */
struct metric_ids {
	int64_t *list, *idx;
	size_t n;
};

struct nic_tables {
	size_t nmap, ninfo, ndev;
	const int64_t *map_nic, *map_gid;
	const int64_t *guid, *nic_id, *device;
	const int64_t *dev_id;        /* the device names, read here: their ids */
	const char *const *dev_label; /* are PCI ids, beyond the db's enum cache */
};

static enum nst_status push(struct interval_list *l, const struct interval *iv,
			    struct nst_error *err)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct interval *p = realloc(l->v, cap * sizeof *p);
		if (!p)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		l->v = p;
		l->cap = cap;
	}
	l->v[l->n++] = *iv;
	return NST_OK;
}

/* nsys's argument parser takes the last value given. */
static enum nst_status threshold_of(const struct nst_ctx *ctx, int64_t *out,
				    struct nst_error *err)
{
	*out = DEFAULT_THRESHOLD;
	for (size_t i = 0; i < ctx->nargs; i++) {
		const char *v = ctx->args[i].value;
		if (strcmp(ctx->args[i].key, "ticks_threshold") != 0)
			continue;
		if (!v || !nst_parse_i64(v, out))
			return nst_fail(err, NST_ERR_USAGE,
					"report 'network_congestion': ticks_threshold needs an integer, not '%s'",
					v ? v : "");
	}
	return NST_OK;
}

/* The tables the report needs, in the order nsys checks them. */
static enum nst_status check_tables(struct nst_ctx *ctx, struct nst_error *err)
{
	bool nic = nst_db_has_table(ctx->db, NIC_METRIC);
	if (!nic && !nst_db_has_table(ctx->db, IB_METRIC))
		return nst_nodata(ctx, err, "NIC or IB switch metrics.");
	if (nic && !nst_db_has_table(ctx->db, NIC_MAP))
		return nst_nodata(ctx, err, "NIC ID map.");
	if (!nst_db_has_table(ctx->db, METRICS))
		return nst_fail(err, NST_ERR_NODATA,
				"%s file does not contain network metrics information table.",
				nst_db_path(ctx->db));
	if (nic && !nst_db_has_table(ctx->db, NIC_INFO))
		return nst_nodata(ctx, err, "NIC info data.");
	return NST_OK;
}

static enum nst_status send_wait_ids(struct nst_ctx *ctx, struct metric_ids *m,
				     struct nst_error *err)
{
	size_t n;
	const int64_t *list, *idx;
	const char *const *name;
	*m = (struct metric_ids){ 0 };
	enum nst_status s = nst_ev_rows(ctx->ev, METRICS, &n, err);
	if (!s) s = nst_ev_i64(ctx->ev, METRICS, "metricsListId", &list, err);
	if (!s) s = nst_ev_i64(ctx->ev, METRICS, "metricsIdx", &idx, err);
	if (!s) s = nst_ev_text(ctx->ev, METRICS, "name", &name, err);
	if (s != NST_OK || n == 0 || !list || !idx || !name)
		return s;
	m->list = malloc(n * sizeof *m->list);
	m->idx = malloc(n * sizeof *m->idx);
	if (!m->list || !m->idx)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		if (name[i] && strcmp(name[i], SEND_WAITS) == 0) {
			m->list[m->n] = list[i];
			m->idx[m->n++] = idx[i];
		}
	return NST_OK;
}

static bool is_send_wait(const struct metric_ids *m, int64_t list, int64_t idx)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->list[i] == list && m->idx[i] == idx)
			return true;
	return false;
}

/* A metric table's columns. */
struct metric_rows {
	size_t n;
	const int64_t *start, *end, *gid, *list, *idx, *value;
};

static enum nst_status load_metric(struct nst_ctx *ctx, const char *t, struct metric_rows *r,
				   struct nst_error *err)
{
	*r = (struct metric_rows){ 0 };
	if (!nst_db_has_table(ctx->db, t))
		return NST_OK;
	enum nst_status s = nst_ev_rows(ctx->ev, t, &r->n, err);
	if (!s) s = nst_ev_i64(ctx->ev, t, "start", &r->start, err);
	if (!s) s = nst_ev_i64(ctx->ev, t, "end", &r->end, err);
	if (!s) s = nst_ev_i64(ctx->ev, t, "globalId", &r->gid, err);
	if (!s) s = nst_ev_i64(ctx->ev, t, "metricsListId", &r->list, err);
	if (!s) s = nst_ev_i64(ctx->ev, t, "metricsIdx", &r->idx, err);
	if (!s) s = nst_ev_i64(ctx->ev, t, "value", &r->value, err);
	if (s == NST_OK && r->n &&
	    !(r->start && r->end && r->gid && r->list && r->idx && r->value))
		return nst_fail(err, NST_ERR_DB, "%s: %s lacks a metric column",
				nst_db_path(ctx->db), t);
	return s;
}

static bool congested(const struct metric_rows *r, size_t i, const struct metric_ids *m,
		      int64_t threshold)
{
	return r->value[i] != NST_NULL_I64 && r->value[i] > threshold &&
	       is_send_wait(m, r->list[i], r->idx[i]);
}

static enum nst_status load_nic_tables(struct nst_ctx *ctx, struct nic_tables *t,
				       struct nst_error *err)
{
	*t = (struct nic_tables){ 0 };
	enum nst_status s = nst_ev_rows(ctx->ev, NIC_MAP, &t->nmap, err);
	if (!s) s = nst_ev_i64(ctx->ev, NIC_MAP, "nicId", &t->map_nic, err);
	if (!s) s = nst_ev_i64(ctx->ev, NIC_MAP, "globalId", &t->map_gid, err);
	if (!s) s = nst_ev_rows(ctx->ev, NIC_INFO, &t->ninfo, err);
	if (!s) s = nst_ev_i64(ctx->ev, NIC_INFO, "GUID", &t->guid, err);
	if (!s) s = nst_ev_i64(ctx->ev, NIC_INFO, "nicId", &t->nic_id, err);
	if (!s) s = nst_ev_i64(ctx->ev, NIC_INFO, "deviceId", &t->device, err);
	if (!s) s = nst_ev_rows(ctx->ev, DEVICE_NAMES, &t->ndev, err);
	if (!s) s = nst_ev_i64(ctx->ev, DEVICE_NAMES, "id", &t->dev_id, err);
	if (!s) s = nst_ev_text(ctx->ev, DEVICE_NAMES, "label", &t->dev_label, err);
	if (s == NST_OK && (!t->dev_id || !t->dev_label))
		t->ndev = 0;
	if (s == NST_OK && (!t->map_nic || !t->map_gid))
		t->nmap = 0;
	if (s == NST_OK && (!t->guid || !t->nic_id || !t->device))
		t->ninfo = 0;
	return s;
}

/* The name of a NIC's device id, or NULL when nsys has none: from the
 * export's table, or from the labels nsys ships for older exports. */
static const char *device_label(struct nst_ctx *ctx, const struct nic_tables *t, int64_t id)
{
	if (!nst_db_has_table(ctx->db, DEVICE_NAMES))
		return nst_db_enum_label(ctx->db, DEVICE_NAMES, id);
	for (size_t i = 0; i < t->ndev; i++)
		if (t->dev_id[i] == id)
			return t->dev_label[i];
	return NULL;
}

/* Congested NIC samples come out per TARGET_INFO_NIC_INFO row, then per
 * NIC_ID_MAP row, in their order, and for one map row ordered by start,
 * end, metric and value (the order of the index nsys's join builds on the
 * metric table); the switch samples follow in row order.  Then the start
 * time alone orders them. */
struct nic_sample {
	int64_t key[6]; /* globalId, start, end, metricsListId, metricsIdx, value */
	uint32_t row;
};

static int cmp_nic_sample(const void *pa, const void *pb)
{
	const struct nic_sample *a = pa, *b = pb;
	int c = nst_cmp_keys(a->key, b->key, 6);
	return c ? c : (a->row > b->row) - (a->row < b->row);
}

/* The congested NIC samples, in (globalId, start, end, ...) order. */
static enum nst_status congested_nic_rows(const struct metric_rows *r, const struct metric_ids *m,
					  int64_t threshold, uint32_t **rows, size_t *n,
					  struct nst_error *err)
{
	*n = 0;
	*rows = malloc((r->n ? r->n : 1) * sizeof **rows);
	struct nic_sample *v = malloc((r->n ? r->n : 1) * sizeof *v);
	if (!*rows || !v) {
		free(v);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < r->n; i++)
		if (congested(r, i, m, threshold))
			v[(*n)++] = (struct nic_sample){
				{ r->gid[i], r->start[i], r->end[i], r->list[i], r->idx[i], r->value[i] },
				(uint32_t)i };
	if (*n)
		qsort(v, *n, sizeof *v, cmp_nic_sample);
	for (size_t k = 0; k < *n; k++)
		(*rows)[k] = v[k].row;
	free(v);
	return NST_OK;
}

/* The samples of NIC info row k: through each NIC_ID_MAP row of its nicId
 * to the samples of that globalId.  A NIC whose device nsys cannot name
 * has none, as nsys's join with the device names drops it. */
static enum nst_status add_nic(struct nst_ctx *ctx, const struct nic_tables *t, size_t k,
			       const struct metric_rows *r, const uint32_t *rows, size_t n,
			       struct interval_list *l, struct nst_error *err)
{
	enum nst_status s = NST_OK;
	if (!device_label(ctx, t, t->device[k]))
		return NST_OK;
	for (size_t m = 0; s == NST_OK && m < t->nmap; m++) {
		if (t->map_nic[m] != t->nic_id[k])
			continue;
		for (size_t j = 0; s == NST_OK && j < n; j++) {
			uint32_t i = rows[j];
			if (r->gid[i] != t->map_gid[m])
				continue;
			struct interval iv = { r->start[i], r->end[i], r->value[i], t->guid[k],
					       (int64_t)k };
			s = push(l, &iv, err);
		}
	}
	return s;
}

static enum nst_status collect(struct nst_ctx *ctx, const struct metric_ids *m,
			       int64_t threshold, struct interval_list *l,
			       const struct nic_tables *nic, struct nst_error *err)
{
	struct metric_rows nr, ir;
	uint32_t *rows = NULL;
	size_t n = 0;
	enum nst_status s = load_metric(ctx, NIC_METRIC, &nr, err);
	if (!s) s = load_metric(ctx, IB_METRIC, &ir, err);
	if (!s) s = congested_nic_rows(&nr, m, threshold, &rows, &n, err);
	for (size_t k = 0; s == NST_OK && n && k < nic->ninfo; k++)
		s = add_nic(ctx, nic, k, &nr, rows, n, l, err);
	for (size_t i = 0; s == NST_OK && i < ir.n; i++)
		if (congested(&ir, i, m, threshold)) {
			struct interval iv = { ir.start[i], ir.end[i], ir.value[i], ir.gid[i], -1 };
			s = push(l, &iv, err);
		}
	free(rows);
	return s;
}

static int cmp_interval(uint32_t a, uint32_t b, void *arg)
{
	const struct interval *v = arg;
	return (v[a].start > v[b].start) - (v[a].start < v[b].start);
}

static struct nst_cell device_name(struct nst_ctx *ctx, const struct nic_tables *t,
				   const struct interval *iv)
{
	if (iv->nic < 0)
		return nst_text(""); /* a switch has no device name */
	return nst_text(device_label(ctx, t, t->device[iv->nic]));
}

static enum nst_status emit(struct nst_ctx *ctx, const struct nst_sink *out,
			    const struct interval_list *l, const struct nic_tables *t,
			    struct nst_error *err)
{
	static const char *const cols[] = {
		"Start:ts_ns", "End:ts_ns", "Duration:dur_ns", "Send wait rate (ticks/ms)",
		"GUID", "Device name",
	};
	uint32_t *order = malloc((l->n ? l->n : 1) * sizeof *order);
	if (!order)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < l->n; i++)
		order[i] = (uint32_t)i;
	nst_stable_sort(order, l->n, cmp_interval, l->v);
	enum nst_status s = NST_OK;
	s = out->begin(out->ctx, cols, sizeof cols / sizeof *cols, err);
	for (size_t k = 0; s == NST_OK && k < l->n; k++) {
		const struct interval *iv = &l->v[order[k]];
		struct nst_cell c[6] = {
			nst_int(iv->start), nst_int(iv->end), nst_int(iv->end - iv->start),
			nst_int(iv->value),
			nst_text(nst_arena_printf(ctx->arena, "%" PRIx64, (uint64_t)iv->guid)),
			device_name(ctx, t, iv),
		};
		s = out->row(out->ctx, c, err);
	}
	free(order);
	return s;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	int64_t threshold;
	struct metric_ids m = { 0 };
	struct interval_list l = { 0 };
	struct nic_tables nic = { 0 };
	enum nst_status s = threshold_of(ctx, &threshold, err);
	if (!s) s = check_tables(ctx, err);
	if (!s) s = send_wait_ids(ctx, &m, err);
	if (!s && nst_db_has_table(ctx->db, NIC_METRIC))
		s = load_nic_tables(ctx, &nic, err);
	if (!s) s = collect(ctx, &m, threshold, &l, &nic, err);
	if (!s) s = emit(ctx, out, &l, &nic, err);
	free(m.list);
	free(m.idx);
	free(l.v);
	return s;
}

#define METRIC_NEEDS(t)                                                   \
	{ t, "start", false }, { t, "end", false }, { t, "globalId", false }, \
	{ t, "metricsListId", false }, { t, "metricsIdx", false },        \
	{ t, "value", false }

static const struct nst_need needs[] = {
	METRIC_NEEDS(NIC_METRIC),
	METRIC_NEEDS(IB_METRIC),
	{ METRICS, "metricsListId", false }, { METRICS, "metricsIdx", false },
	{ METRICS, "name", true },
	{ NIC_MAP, "nicId", false }, { NIC_MAP, "globalId", false },
	{ NIC_INFO, "GUID", false }, { NIC_INFO, "nicId", false },
	{ NIC_INFO, "deviceId", false },
	{ DEVICE_NAMES, "id", false }, { DEVICE_NAMES, "label", true },
	{ NULL, NULL, false },
};

const struct nst_report nst_report_network_congestion = {
	.name = "network_congestion",
	.title = "Network Devices Congestion",
	.help = "The sampling intervals in which a network device waited to send:\n"
		"each NIC or InfiniBand switch interval whose \"IB: Send waits\"\n"
		"rate is above ticks_threshold ticks per millisecond (default\n"
		"10000), in start order, with the device GUID (hex) and, for a\n"
		"NIC, its device name. A tick's length depends on the device, so\n"
		"compare rates of one device only.",
	.args = (const char *const[]){ "ticks_threshold", NULL },
	.needs = needs,
	.run = run,
	.flags = NST_REPORT_CHECKS_AFTER_FILTER | NST_REPORT_EVENT_ROWS,
};
