/* cuda_kern_exec_sum: the launches of cuda_kern_exec_trace summarised per
 * process, thread, device, API function and kernel: the distributions of
 * the total, API, queue and kernel times. */
#include <stdlib.h>
#include <string.h>

#include "core/big.h"
#include "reports/kern_exec.h"
#include "reports/kernel_names.h"

/* What a launch is grouped by.  Names are compared as text, the way nsys
 * groups them, so two name ids with one text form one group. */
struct launch_keys {
	int64_t *pid, *tid, *dev, *api, *kname;
	const char **api_text, **kname_text; /* by launch */
};

enum metric { M_TOTAL, M_API, M_QUEUE, M_KERNEL, NMETRICS };

struct launch_group {
	uint32_t first; /* a launch of the group: its keys */
	size_t count;
	struct nst_dist d[NMETRICS];
	size_t nqueue; /* launches with a queue time */
};

static void release_keys(struct launch_keys *k)
{
	free(k->pid);
	free(k->tid);
	free(k->dev);
	free(k->api);
	free(k->kname);
	free(k->api_text);
	free(k->kname_text);
}

static enum nst_status fill_keys(struct nst_ctx *ctx, const struct nst_kexec *j,
				 struct launch_keys *k, struct nst_error *err)
{
	size_t n = j->n ? j->n : 1;
	k->pid = nst_big_alloc(n, sizeof *k->pid);
	k->tid = nst_big_alloc(n, sizeof *k->tid);
	k->dev = nst_big_alloc(n, sizeof *k->dev);
	k->api = nst_big_alloc(n, sizeof *k->api);
	k->kname = nst_big_alloc(n, sizeof *k->kname);
	k->api_text = nst_big_alloc(n, sizeof *k->api_text);
	k->kname_text = nst_big_alloc(n, sizeof *k->kname_text);
	if (!k->pid || !k->tid || !k->dev || !k->api || !k->kname || !k->api_text ||
	    !k->kname_text)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < j->n; i++) {
		uint32_t kr = j->krow[i], rr = j->rrow[i];
		int64_t gtid = nst_col_or_null(j->calls->gtid, rr);
		k->pid[i] = nst_pid(gtid);
		k->tid[i] = nst_tid(gtid);
		k->dev[i] = nst_col_or_null(j->device, kr);
		k->api[i] = nst_col_at(j->calls->name_id, rr);
		k->kname[i] = nst_col_or_null(j->kname, kr);
		k->api_text[i] = nst_api_name(ctx, k->api[i]);
		k->kname_text[i] = nst_kernel_name_text(ctx, k->kname[i]);
	}
	return NST_OK;
}

/* SQLite's order: NULL first, then numbers, then text byte by byte. */
static int cmp_i64(int64_t a, int64_t b)
{
	return (a > b) - (a < b); /* NST_NULL_I64 is the smallest */
}

static int cmp_keys(uint32_t a, uint32_t b, void *arg)
{
	const struct launch_keys *k = arg;
	int c = cmp_i64(k->pid[a], k->pid[b]);
	if (!c) c = cmp_i64(k->tid[a], k->tid[b]);
	if (!c) c = cmp_i64(k->dev[a], k->dev[b]);
	if (!c) c = nst_cmp_sql_text(k->api_text[a], k->api_text[b]);
	if (!c) c = nst_cmp_sql_text(k->kname_text[a], k->kname_text[b]);
	return c;
}

/* Merges id groups whose texts are equal: key[i] becomes the rank of the
 * launch's text key, so one more grouping gives nsys's groups. */
static enum nst_status text_rank(const struct nst_groups *g, const struct launch_keys *k,
				 const uint32_t *row_group, int64_t *rank,
				 struct nst_error *err)
{
	uint32_t *order = nst_big_alloc(g->n, sizeof *order);
	int64_t *group_rank = nst_big_alloc(g->n, sizeof *group_rank);
	if (!order || !group_rank) {
		free(order);
		free(group_rank);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < g->n; i++)
		order[i] = g->first[i];
	nst_stable_sort(order, g->n, cmp_keys, (void *)k);
	int64_t r = -1;
	for (size_t i = 0; i < g->n; i++) {
		if (i == 0 || cmp_keys(order[i - 1], order[i], (void *)k) != 0)
			r++;
		group_rank[row_group[order[i]]] = r;
	}
	for (size_t g_i = 0; g_i < g->n; g_i++)
		for (size_t x = g->start[g_i]; x < g->start[g_i + 1]; x++)
			rank[g->order[x]] = group_rank[g_i];
	free(order);
	free(group_rank);
	return NST_OK;
}

/* The launches grouped as nsys groups them; *rank_of gives each launch its
 * group's rank in key order. */
static enum nst_status group_launches(const struct launch_keys *k, size_t n,
				      struct nst_groups *g, int64_t **rank_of,
				      struct nst_error *err)
{
	uint32_t *rows = nst_big_alloc(n, sizeof *rows);
	uint32_t *row_group = nst_big_alloc(n, sizeof *row_group);
	*rank_of = nst_big_alloc(n, sizeof **rank_of);
	struct nst_groups by_id;
	enum nst_status s = NST_OK;
	if (!rows || !row_group || !*rank_of) {
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		rows[i] = (uint32_t)i;
	const int64_t *ids[] = { k->pid, k->tid, k->dev, k->api, k->kname };
	if ((s = nst_group(ids, 5, rows, n, &by_id, err)) != NST_OK)
		goto out;
	for (size_t gi = 0; gi < by_id.n; gi++)
		for (size_t x = by_id.start[gi]; x < by_id.start[gi + 1]; x++)
			row_group[by_id.order[x]] = (uint32_t)gi;
	s = text_rank(&by_id, k, row_group, *rank_of, err);
	nst_groups_release(&by_id);
	if (s == NST_OK) {
		const int64_t *rank_key[] = { *rank_of };
		s = nst_group(rank_key, 1, rows, n, g, err);
	}
out:
	free(rows);
	free(row_group);
	return s;
}

/* False when a sum does not fit. */
static bool group_stats(const struct nst_kexec *j, const struct nst_groups *g,
			size_t gi, int64_t *buf[NMETRICS], struct launch_group *out)
{
	size_t n[NMETRICS] = { 0 };
	for (size_t x = g->start[gi]; x < g->start[gi + 1]; x++) {
		struct nst_kexec_times t = nst_kexec_times_of(j, g->order[x]);
		buf[M_TOTAL][n[M_TOTAL]++] = t.total;
		buf[M_API][n[M_API]++] = t.api;
		buf[M_KERNEL][n[M_KERNEL]++] = t.kernel;
		if (t.queue != NST_NULL_I64)
			buf[M_QUEUE][n[M_QUEUE]++] = t.queue;
	}
	out->first = g->first[gi];
	out->count = n[M_TOTAL];
	out->nqueue = n[M_QUEUE];
	for (int m = 0; m < NMETRICS; m++)
		if (n[m] && !nst_dist_of(buf[m], n[m], &out->d[m]))
			return false;
	return true;
}

static enum nst_status summarise(const struct nst_kexec *j, const struct nst_groups *g,
				 struct launch_group *out, struct nst_error *err)
{
	size_t most = 1;
	for (size_t gi = 0; gi < g->n; gi++)
		if (g->start[gi + 1] - g->start[gi] > most)
			most = g->start[gi + 1] - g->start[gi];
	int64_t *buf[NMETRICS];
	int64_t *block = nst_big_alloc(most, NMETRICS * sizeof *block);
	if (!block)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (int m = 0; m < NMETRICS; m++)
		buf[m] = block + (size_t)m * most;
	enum nst_status s = NST_OK;
	for (size_t gi = 0; s == NST_OK && gi < g->n; gi++)
		if (!group_stats(j, g, gi, buf, &out[gi]))
			s = nst_fail_sum(err);
	free(block);
	return s;
}

struct by_avg {
	const struct launch_group *lg;
	const int64_t *rank;
};

/* nsys sorts on the rounded TAvg it prints; equal ones keep key order. */
static int cmp_avg(uint32_t a, uint32_t b, void *arg)
{
	const struct by_avg *o = arg;
	double x = nst_sql_round(o->lg[a].d[M_TOTAL].avg, 1);
	double y = nst_sql_round(o->lg[b].d[M_TOTAL].avg, 1);
	if (x != y)
		return x > y ? -1 : 1;
	return cmp_i64(o->rank[o->lg[a].first], o->rank[o->lg[b].first]);
}

static void stat_cells(const struct launch_group *lg, enum metric m, size_t n,
		       struct nst_cell *c)
{
	const struct nst_dist *d = &lg->d[m];
	if (n == 0) { /* stdev() of no values is 0.0, the rest NULL */
		c[0] = c[1] = c[2] = c[3] = nst_null();
		c[4] = nst_real(0.0);
		return;
	}
	c[0] = nst_round1(d->avg);
	c[1] = nst_round1(nst_mid_value(d->med));
	c[2] = nst_int(d->min);
	c[3] = nst_int(d->max);
	c[4] = nst_round1(d->stdev);
}

static enum nst_status emit_group(const struct nst_sink *out, const struct launch_keys *k,
				  const struct launch_group *lg, struct nst_error *err)
{
	uint32_t f = lg->first;
	struct nst_cell c[27] = {
		nst_int(k->pid[f]), nst_int(k->tid[f]),
		nst_int_or_null(k->dev[f]),
		nst_int((int64_t)lg->count), nst_int((int64_t)lg->nqueue),
	};
	stat_cells(lg, M_TOTAL, lg->count, c + 5);
	stat_cells(lg, M_API, lg->count, c + 10);
	stat_cells(lg, M_QUEUE, lg->nqueue, c + 15);
	stat_cells(lg, M_KERNEL, lg->count, c + 20);
	c[25] = nst_text(k->api_text[f]);
	c[26] = nst_text(k->kname_text[f]);
	return out->row(out->ctx, c, err);
}

static const char *const columns[] = {
	"PID", "TID", "DevId", "Count", "QCount",
	"TAvg:dur_ns", "TMed:dur_ns", "TMin:dur_ns", "TMax:dur_ns", "TStdDev:dur_ns",
	"AAvg:dur_ns", "AMed:dur_ns", "AMin:dur_ns", "AMax:dur_ns", "AStdDev:dur_ns",
	"QAvg:dur_ns", "QMed:dur_ns", "QMin:dur_ns", "QMax:dur_ns", "QStdDev:dur_ns",
	"KAvg:dur_ns", "KMed:dur_ns", "KMin:dur_ns", "KMax:dur_ns", "KStdDev:dur_ns",
	"API Name", "Kernel Name",
};

static enum nst_status emit(const struct nst_sink *out, const struct launch_keys *k,
			    const struct launch_group *lg, size_t n,
			    const int64_t *rank, struct nst_error *err)
{
	uint32_t *order = nst_big_alloc(n, sizeof *order);
	if (!order)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	nst_stable_sort(order, n, cmp_avg, &(struct by_avg){ lg, rank });
	enum nst_status s = out->begin(out->ctx, columns, sizeof columns / sizeof *columns, err);
	for (size_t i = 0; s == NST_OK && i < n; i++)
		s = emit_group(out, k, &lg[order[i]], err);
	free(order);
	return s;
}

static enum nst_status summarise_and_emit(struct nst_ctx *ctx, const struct nst_sink *out,
					  const struct nst_kexec *j, struct nst_error *err)
{
	struct launch_keys k = { 0 };
	struct nst_groups g = { 0 };
	struct launch_group *lg = NULL;
	int64_t *rank = NULL;
	enum nst_status s = fill_keys(ctx, j, &k, err);
	if (s == NST_OK)
		s = group_launches(&k, j->n, &g, &rank, err);
	if (s == NST_OK && !(lg = nst_big_zalloc(g.n, sizeof *lg)))
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (s == NST_OK)
		s = summarise(j, &g, lg, err);
	if (s == NST_OK)
		s = emit(out, &k, lg, g.n, rank, err);
	free(lg);
	free(rank);
	nst_groups_release(&g);
	release_keys(&k);
	return s;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	enum nst_status s = nst_kexec_check(ctx, err);
	if (s != NST_OK)
		return s;
	struct nst_kexec j;
	if ((s = nst_kexec_join(ctx, &j, err)) != NST_OK)
		return s;
	s = summarise_and_emit(ctx, out, &j, err);
	nst_kexec_release(&j);
	return s;
}

const struct nst_report nst_report_cuda_kern_exec_sum = {
	.name = "cuda_kern_exec_sum",
	.title = "CUDA Kernel Launch & Exec Time Summary",
	.help = "The launches of cuda_kern_exec_trace per process, thread, device,\n"
		"API function and kernel: their count, the count with a queue\n"
		"time, and the average, median, minimum, maximum and standard\n"
		"deviation of the total (T), API (A), queue (Q) and kernel (K)\n"
		"times, by average total time.\n"
		"`base` names kernels by their short names, `mangled` by their\n"
		"mangled names.\n"
		"CUDA backtrace records are not calls (nsys 2024.2.3 counts such\n"
		"launches twice).  nvtx-name prefixes each kernel's name with the\n"
		"name of the innermost NVTX range around its launch, on the launching\n"
		"thread (\"range/kernel\").\n"
		NST_TOP_ROWS_HELP,
	.args = (const char *const[]){ "nvtx-name", "base", "mangled", "rows", NULL },
	.needs = nst_kexec_needs,
	.run = run,
	.flags = NST_REPORT_KERNELS | NST_REPORT_CALLS | NST_REPORT_TOP_ROWS,
};
