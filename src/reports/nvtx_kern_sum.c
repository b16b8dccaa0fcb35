/* nvtx_kern_sum: kernels grouped by every NVTX range around their launch
 * on the launching thread (not only the innermost), by process, thread and
 * kernel name.  A kernel inside two ranges of one name counts in both, as
 * nsys's join does; NVTX Inst and Kern Inst count each range and kernel
 * once.  A start/end range ended by another thread holds nothing.  Calls are never CUDA backtrace records, so a backtrace export
 * does not double the times (docs/deviations.md, D20). */
#include <stdlib.h>
#include <string.h>

#include "core/big.h"
#include "core/resize.h"
#include "reports/kernel_names.h"
#include "reports/nvtx_gpu.h"

#define NONE UINT32_MAX

/* (range, launch) pairs; range NONE for a launch outside every range,
 * launch >= nlaunch for a kernel no call launched (kernel row - nlaunch). */
struct pairs {
	size_t n, cap;
	uint32_t *range, *launch;
};

static int pairs_push(struct pairs *p, uint32_t range, uint32_t launch)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 4096;
		if (NST_RESIZE(p->range, cap) || NST_RESIZE(p->launch, cap))
			return -1;
		p->cap = cap;
	}
	p->range[p->n] = range;
	p->launch[p->n++] = launch;
	return 0;
}

struct joined {
	struct nst_nvtx nv;
	struct nst_nvtx_named named;
	struct nst_launches l;
	const struct nst_calls *calls;
	const int64_t *kstart, *kend;
	const struct nst_col *kname; /* as stored */
	const struct nst_col *end_tid; /* NVTX endGlobalTid */
	size_t nk;
	struct pairs p;
	uint8_t *matched; /* by launch */
};

static void joined_release(struct joined *j)
{
	nst_nvtx_named_release(&j->named);
	nst_launches_release(&j->l);
	free(j->p.range);
	free(j->p.launch);
	free(j->matched);
}

static int take_pair(void *arg, uint32_t range, uint32_t launch)
{
	struct joined *j = arg;
	j->matched[launch] = 1;
	return pairs_push(&j->p, range, launch);
}

/* Every range around every launch, then the launches (and kernels) that
 * no range holds, as the LEFT JOINs keep them. */
static enum nst_status pair_up(struct joined *j, struct nst_error *err)
{
	struct nst_spans ranges = { 0 };
	enum nst_status s = nst_nvtx_spans(&j->nv, &j->named, &ranges, err);
	for (size_t i = 0; s == NST_OK && i < ranges.n; i++)
		if (nst_col_or_null(j->end_tid, j->named.row[i]) != NST_NULL_I64)
			ranges.start[i] = NST_NULL_I64; /* ended on another thread */
	j->matched = nst_big_zalloc(j->l.n, 1);
	if (s == NST_OK && !j->matched)
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (s == NST_OK)
		s = nst_launches_in_ranges(&ranges, j->calls, &j->l, 1, take_pair, j, err);
	nst_spans_release(&ranges);
	uint8_t *launched = nst_big_zalloc(j->nk, 1);
	if (s == NST_OK && !launched)
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; s == NST_OK && i < j->l.n; i++) {
		launched[j->l.op[i]] = 1;
		if (!j->matched[i] && pairs_push(&j->p, NONE, (uint32_t)i))
			s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	for (size_t k = 0; s == NST_OK && k < j->nk; k++)
		if (!launched[k] && pairs_push(&j->p, NONE, (uint32_t)(j->l.n + k)))
			s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	free(launched);
	return s;
}

/* ---- grouping --------------------------------------------------------------- */

enum { K_NAME, K_STYLE, K_PID, K_TID, K_KNAME, NKEYS };

/* A key by pair: 32-bit when every value fits (they usually do), so that a
 * million pairs cost 4 MB a key rather than 8. */
struct key_col {
	int32_t *narrow;
	int64_t *wide;
	struct nst_col col;
};

struct summary {
	struct key_col key[NKEYS];
	int64_t *dur;
	struct nst_groups g;
	struct nst_dist *d;
	int64_t *nvtx_inst, *kern_inst; /* by group */
};

static void summary_release(struct summary *m)
{
	for (int k = 0; k < NKEYS; k++) {
		free(m->key[k].narrow);
		free(m->key[k].wide);
	}
	free(m->dur);
	nst_groups_release(&m->g);
	free(m->d);
	free(m->nvtx_inst);
	free(m->kern_inst);
}

static uint32_t kernel_of(const struct joined *j, uint32_t launch)
{
	return launch < j->l.n ? j->l.op[launch] : (uint32_t)(launch - j->l.n);
}

/* Key `key` of pair i. */
static int64_t pair_key(const struct joined *j, int key, size_t i)
{
	uint32_t e = j->p.range[i], launch = j->p.launch[i];
	int64_t gtid = launch < j->l.n ? nst_col_or_null(j->calls->gtid, j->l.call[launch]) : NST_NULL_I64;
	switch (key) {
	case K_NAME: return e == NONE ? NST_NULL_I64 : nst_nvtx_name_of(&j->named, e);
	case K_STYLE: return e == NONE ? NST_NULL_I64 : j->named.style[e];
	case K_PID: return gtid == NST_NULL_I64 ? NST_NULL_I64 : nst_pid(gtid);
	case K_TID: return gtid == NST_NULL_I64 ? NST_NULL_I64 : nst_tid(gtid);
	default: return nst_col_or_null(j->kname, kernel_of(j, launch));
	}
}

static bool fits_narrow(int64_t v)
{
	return v == NST_NULL_I64 || (v > INT32_MIN && v <= INT32_MAX);
}

/* Key `key` of every pair, 32-bit unless a value does not fit. */
static int build_key(const struct joined *j, int key, struct key_col *c)
{
	size_t n = j->p.n ? j->p.n : 1;
	if (!(c->narrow = nst_big_alloc(n, sizeof *c->narrow)))
		return -1;
	for (size_t i = 0; i < j->p.n; i++) {
		int64_t v = pair_key(j, key, i);
		if (!fits_narrow(v)) {
			free(c->narrow);
			c->narrow = NULL;
			break;
		}
		c->narrow[i] = v == NST_NULL_I64 ? NST_NULL_I32 : (int32_t)v;
	}
	if (c->narrow) {
		c->col = (struct nst_col){ .i32 = c->narrow };
		return 0;
	}
	if (!(c->wide = nst_big_alloc(n, sizeof *c->wide)))
		return -1;
	for (size_t i = 0; i < j->p.n; i++)
		c->wide[i] = pair_key(j, key, i);
	c->col = nst_col_of(c->wide);
	return 0;
}

/* Key `key` of the pair at row. */
static int64_t key_at(const struct summary *m, int key, size_t row)
{
	return nst_col_at(&m->key[key].col, row);
}

/* Counts each range and each kernel once per group: a mark per NVTX row
 * and per kernel row, set to the group that saw it last. */
static enum nst_status distinct_counts(const struct joined *j, struct summary *m,
				       struct nst_error *err)
{
	uint32_t *rmark = nst_big_alloc(j->nv.n, sizeof *rmark);
	uint32_t *kmark = nst_big_alloc(j->nk, sizeof *kmark);
	size_t ng = m->g.n ? m->g.n : 1;
	m->nvtx_inst = nst_big_zalloc(ng, sizeof *m->nvtx_inst);
	m->kern_inst = nst_big_zalloc(ng, sizeof *m->kern_inst);
	enum nst_status s = NST_OK;
	if (!rmark || !kmark || !m->nvtx_inst || !m->kern_inst) {
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
		goto out;
	}
	memset(rmark, 0xff, (j->nv.n ? j->nv.n : 1) * sizeof *rmark);
	memset(kmark, 0xff, (j->nk ? j->nk : 1) * sizeof *kmark);
	for (size_t g = 0; g < m->g.n; g++) {
		for (size_t i = m->g.start[g]; i < m->g.start[g + 1]; i++) {
			uint32_t p = m->g.order[i], e = j->p.range[p];
			uint32_t k = kernel_of(j, j->p.launch[p]);
			if (e != NONE && rmark[j->named.row[e]] != g) {
				rmark[j->named.row[e]] = (uint32_t)g;
				m->nvtx_inst[g]++;
			}
			if (kmark[k] != g) {
				kmark[k] = (uint32_t)g;
				m->kern_inst[g]++;
			}
		}
	}
out:
	free(rmark);
	free(kmark);
	return s;
}

static enum nst_status summarise(const struct joined *j, struct summary *m,
				 struct nst_error *err)
{
	size_t n = j->p.n ? j->p.n : 1;
	uint32_t *rows = nst_big_alloc(n, sizeof *rows);
	m->dur = nst_big_alloc(n, sizeof *m->dur);
	bool ok = rows && m->dur;
	for (int k = 0; ok && k < NKEYS; k++)
		ok = build_key(j, k, &m->key[k]) == 0;
	if (!ok) {
		free(rows);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < j->p.n; i++) {
		uint32_t k = kernel_of(j, j->p.launch[i]);
		m->dur[i] = j->kend[k] - j->kstart[k];
		rows[i] = (uint32_t)i;
	}
	const struct nst_col *keys[NKEYS];
	for (int k = 0; k < NKEYS; k++)
		keys[k] = &m->key[k].col;
	enum nst_status s = nst_group_cols(keys, NKEYS, rows, j->p.n, &m->g, err);
	free(rows);
	if (s == NST_OK)
		s = nst_group_dists(&m->g, m->dur, &m->d, err);
	if (s == NST_OK)
		s = distinct_counts(j, m, err);
	return s;
}

/* ---- output ------------------------------------------------------------------ */

struct sorter {
	struct nst_ctx *ctx;
	const struct joined *j;
	const struct summary *m;
};

static int cmp_i64(int64_t a, int64_t b)
{
	return (a > b) - (a < b); /* NST_NULL_I64 is the smallest: NULL first */
}

static const char *range_text(const struct joined *j, int64_t name)
{
	return name == NST_NULL_I64 ? NULL : j->named.text[name];
}

/* Range name, PID, TID, total descending; then style and kernel name. */
static int cmp_groups(uint32_t a, uint32_t b, void *arg)
{
	const struct sorter *t = arg;
	const struct summary *m = t->m;
	uint32_t fa = m->g.first[a], fb = m->g.first[b];
	int c = nst_cmp_sql_text(range_text(t->j, key_at(m, K_NAME, fa)),
			 range_text(t->j, key_at(m, K_NAME, fb)));
	if (!c) c = cmp_i64(key_at(m, K_PID, fa), key_at(m, K_PID, fb));
	if (!c) c = cmp_i64(key_at(m, K_TID, fa), key_at(m, K_TID, fb));
	if (!c) c = cmp_i64(m->d[b].sum, m->d[a].sum);
	if (!c) c = cmp_i64(key_at(m, K_STYLE, fa), key_at(m, K_STYLE, fb));
	if (!c)
		c = nst_cmp_sql_text(nst_kernel_name_text(t->ctx, key_at(m, K_KNAME, fa)),
			     nst_kernel_name_text(t->ctx, key_at(m, K_KNAME, fb)));
	return c;
}

static enum nst_status emit(struct nst_ctx *ctx, const struct nst_sink *out,
			    const struct joined *j, const struct summary *m,
			    struct nst_error *err)
{
	static const char *const cols[] = {
		"NVTX Range", "Style", "PID", "TID", "NVTX Inst", "Kern Inst",
		"Total Time:dur_ns", "Avg:dur_ns", "Med:dur_ns", "Min:dur_ns",
		"Max:dur_ns", "StdDev:dur_ns", "Kernel Name",
	};
	uint32_t *order = nst_big_alloc(m->g.n, sizeof *order);
	if (!order)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t g = 0; g < m->g.n; g++)
		order[g] = (uint32_t)g;
	nst_stable_sort(order, m->g.n, cmp_groups, &(struct sorter){ ctx, j, m });
	enum nst_status s = NST_OK;
	s = out->begin(out->ctx, cols, 13, err);
	for (size_t k = 0; s == NST_OK && k < m->g.n; k++) {
		uint32_t g = order[k], f = m->g.first[g];
		const struct nst_dist *d = &m->d[g];
		int64_t style = key_at(m, K_STYLE, f);
		struct nst_cell c[13] = {
			nst_text(range_text(j, key_at(m, K_NAME, f))),
			nst_text(style == NST_NULL_I64 ? NULL : nst_nvtx_style_name((enum nst_nvtx_style)style)),
			nst_int_or_null(key_at(m, K_PID, f)),
			nst_int_or_null(key_at(m, K_TID, f)),
			nst_int(m->nvtx_inst[g]),
			nst_int(m->kern_inst[g]),
			nst_int(d->sum),
			nst_round1(d->avg),
			nst_round1(nst_mid_value(d->med)),
			nst_int(d->min),
			nst_int(d->max),
			nst_round1(d->stdev),
			nst_text(nst_kernel_name_text(ctx, key_at(m, K_KNAME, f))),
		};
		s = out->row(out->ctx, c, err);
	}
	free(order);
	return s;
}

/* ---- the report ---------------------------------------------------------------- */

static enum nst_status check(struct nst_ctx *ctx, struct nst_error *err)
{
	enum nst_status s = nst_nvtx_check(ctx, err);
	if (s == NST_OK && !nst_db_has_table(ctx->db, KERNEL))
		s = nst_nodata(ctx, err, "CUDA kernel data.");
	if (s == NST_OK && !nst_db_has_table(ctx->db, RUNTIME))
		s = nst_nodata(ctx, err, "CUDA API data.");
	return s;
}

static enum nst_status load(struct nst_ctx *ctx, struct joined *j, struct nst_error *err)
{
	enum nst_status s = nst_nvtx_load(ctx, &j->nv, err);
	if (!s) s = nst_nvtx_name_ranges(ctx, &j->nv, NST_NVTX_ALL_STYLES, &j->named, err);
	if (!s) nst_nvtx_named_once(&j->named);
	if (!s) s = nst_ev_col(ctx->ev, NVTX, "endGlobalTid", &j->end_tid, err);
	if (!s) s = nst_calls_ids(ctx, &j->calls, err);
	if (!s) s = nst_launches_of(ctx, KERNEL, false, &j->l, err);
	if (!s) s = nst_ev_rows(ctx->ev, KERNEL, &j->nk, err);
	if (!s) s = nst_ev_i64(ctx->ev, KERNEL, "start", &j->kstart, err);
	if (!s) s = nst_ev_i64(ctx->ev, KERNEL, "end", &j->kend, err);
	if (!s) s = nst_report_kernel_name_ids(ctx, &j->kname, err);
	if (s == NST_OK && j->nk && (!j->kstart || !j->kend))
		s = nst_fail(err, NST_ERR_DB, "%s: %s lacks start or end", nst_db_path(ctx->db), KERNEL);
	return s;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	struct joined j = { 0 };
	struct summary m = { 0 };
	enum nst_status s = check(ctx, err);
	if (!s) s = load(ctx, &j, err);
	if (!s) s = pair_up(&j, err);
	if (!s) s = summarise(&j, &m, err);
	if (!s) s = emit(ctx, out, &j, &m, err);
	summary_release(&m);
	joined_release(&j);
	return s;
}

static const struct nst_need needs[] = {
	{ NVTX, "start", false }, { NVTX, "end", false },
	{ NVTX, "eventType", false }, { NVTX, "globalTid", false },
	{ NVTX, "textId", false }, { NVTX, "domainId", false },
	{ NVTX, "text", true }, { NVTX, "endGlobalTid", false },
	NST_CALL_NEEDS, NST_CALL_ID_NEEDS,
	{ KERNEL, "start", false }, { KERNEL, "end", false },
	{ KERNEL, "demangledName", false }, NST_LAUNCH_NEEDS(KERNEL),
	{ NULL, NULL, false },
};

const struct nst_report nst_report_nvtx_kern_sum = {
	.name = "nvtx_kern_sum",
	.title = "NVTX Range Kernel Summary",
	.help = "CUDA kernels grouped by the NVTX ranges around their launch: a\n"
		"kernel belongs to every range (not only the innermost) that holds\n"
		"the API call that launched it, on the same thread.  Per range name,\n"
		"style, PID, TID and kernel name: the number of range instances and\n"
		"of kernel instances, and the total, average, median, minimum,\n"
		"maximum and standard deviation of the kernels' execution times.\n"
		"Kernels outside every range have no range name.  base names kernels\n"
		"by their short name, mangled by their mangled name where the export\n"
		"has one.\n"
		NST_TOP_ROWS_HELP,
	.args = (const char *const[]){ "base", "mangled", "rows", NULL },
	.needs = needs,
	.run = run,
	.flags = NST_REPORT_KERNELS | NST_REPORT_CALLS | NST_REPORT_TOP_ROWS,
};
