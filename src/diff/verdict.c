/* verdict: the CI gate of `nstats diff --gate PCT`.  A kernel fails when
 * its instances got slower by more than gate= percent and the change is
 * significant (shift.c: the Hodges-Lehmann estimate of the ratio of B's
 * durations to A's, the Mann-Whitney p Holm-adjusted over every check
 * tested, below the diff's alpha), so that a run that did fewer iterations, or one slow
 * instance among six, fails nothing; a kernel only the candidate runs
 * fails as grown without bound.  A device is checked on its busy time in
 * each iteration where both sides mark iterations (iters.c), as a kernel
 * on its instances, so that a run of fewer iterations fails nothing; else
 * it fails when its busy time (gpu_time_sum) grew by more than gate=
 * percent: one number a side, no test.  Kernels below min= ns in total
 * on both sides do not count.  Its
 * rows: every device, then the kernels that fail (or, when none does, the
 * one that moved up the most), then the verdict. */
#include <math.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
#include "diff/diff.h"

static const char *const cols[] = {
	"Check", "Basis", "A:dur_ns", "B:dur_ns", "Change:ratio_%", "CI Low:ratio_%",
	"CI High:ratio_%", "P-Value", "Gate:ratio_%", "Result",
};
#define NCOLS (sizeof cols / sizeof *cols)

struct gate {
	int64_t pct, min;
	double alpha;
};

/* One thing the gate looks at. */
struct item {
	const char *what;
	bool device;
	int64_t dev[2];           /* a device's id on each side */
	int64_t a_total, b_total; /* -1: the side lacks it */
	double growth;            /* percent: of the total (devices), of A's median (kernels) */
	struct diff_shift shift;  /* kernels on both sides; devices by iteration */
	size_t seq;               /* devices keep the order gpu_time_sum gives them */
};

static double growth_of(int64_t a, int64_t b)
{
	if (a <= 0)
		return b > 0 ? INFINITY : 0;
	return (double)(b - a) * 100.0 / (double)a;
}

/* ---- what each side measured ------------------------------------------------- */

struct measured {
	struct diff_table busy[2], kern[2];
	struct diff_samples inst[2];
	struct diff_iters iters[2];
};

static enum nst_status measure_side(struct nst_diff_ctx *d, int side, void *arg,
				    struct nst_error *err)
{
	struct measured *m = arg;
	const char *ks = diff_names_base(d) ? "cuda_gpu_kern_sum:base" : "cuda_gpu_kern_sum";
	enum nst_status s = diff_collect(d, side, "gpu_time_sum", &m->busy[side], err);
	if (s == NST_OK)
		s = diff_collect(d, side, ks, &m->kern[side], err);
	if (s == NST_OK)
		s = diff_kernel_samples(d, side, &m->inst[side], err);
	if (s == NST_OK)
		s = diff_iterations(d, side, &m->iters[side], err);
	return s;
}

static void release_measured(struct measured *m)
{
	for (int side = 0; side < 2; side++) {
		diff_table_release(&m->busy[side]);
		diff_table_release(&m->kern[side]);
		diff_samples_release(&m->inst[side]);
		diff_iters_release(&m->iters[side]);
	}
}

static struct nst_cell key_of(const struct diff_table *t, int side, const struct diff_pair *p,
			      const char *key)
{
	return diff_side_cell(&t[side], side ? p->b : p->a, diff_col(&t[side], key));
}

/* "kernel NAME"; "GPU busy, device 0", or "GPU busy, device 3 (A) = 1 (B)"
 * for a pair of devices of different ids. */
static const char *name_of(struct nst_diff_ctx *d, const struct diff_table *t, const char *key,
			   const struct diff_pair *p, const char *label)
{
	struct nst_cell c = key_of(t, p->a >= 0 ? 0 : 1, p, key);
	if (c.kind == NST_TEXT)
		return nst_arena_printf(d->arena, "%s %s", label, c.v.s);
	struct nst_cell b = key_of(t, 1, p, key);
	if (p->a >= 0 && p->b >= 0 && diff_int(&b) != diff_int(&c))
		return nst_arena_printf(d->arena, "%s %lld (A) = %lld (B)", label,
					(long long)diff_int(&c), (long long)diff_int(&b));
	return nst_arena_printf(d->arena, "%s %lld", label, (long long)diff_int(&c));
}

static int64_t total_of(const struct diff_table *t, int64_t row, const char *col)
{
	if (row < 0)
		return -1;
	struct nst_cell c = diff_side_cell(t, row, diff_col(t, col));
	return diff_int(&c);
}

/* The id in a row's key cell; an unknown device is NST_NULL_I64, as
 * struct diff_iters has it. */
static int64_t id_of(const struct diff_table *t, int64_t row, const char *key)
{
	struct nst_cell c = diff_side_cell(t, row, diff_col(t, key));
	return c.kind == NST_NULL ? NST_NULL_I64 : diff_int(&c);
}

/* Items from one pair of tables, their rows paired as p[0..np) says:
 * their totals, and for kernels their instances compared. */
static enum nst_status add_items(struct nst_diff_ctx *d, const struct diff_table *t,
				 const struct diff_pair *p, size_t np,
				 const struct diff_samples *inst, const char *key,
				 const char *measure, const char *label, struct item **items,
				 size_t *n, struct nst_error *err)
{
	enum nst_status s = NST_OK;
	struct item *it = realloc(*items, (*n + np + 1) * sizeof *it);
	if (!it)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	*items = it;
	for (size_t i = 0; s == NST_OK && i < np; i++) {
		struct item x = { .what = name_of(d, t, key, &p[i], label), .device = !inst,
				  .a_total = total_of(&t[0], p[i].a, measure),
				  .b_total = total_of(&t[1], p[i].b, measure), .seq = *n,
				  .dev = { id_of(&t[0], p[i].a, key), id_of(&t[1], p[i].b, key) } };
		if (!x.what)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		x.growth = growth_of(x.a_total, x.b_total);
		if (inst && x.a_total >= 0 && x.b_total >= 0) {
			const char *name = strchr(x.what, ' ') + 1;
			size_t na = 0, nb = 0;
			const int64_t *a = diff_samples_of(&inst[0], name, &na);
			const int64_t *b = diff_samples_of(&inst[1], name, &nb);
			if (diff_shift_of(a, na, b, nb, &x.shift) < 0)
				s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
		}
		it[(*n)++] = x;
	}
	return s;
}

/* The devices, paired by their work (--devices), and the kernels, by name. */
static enum nst_status add_all(struct nst_diff_ctx *d, const struct measured *m,
			       struct item **items, size_t *n, struct nst_error *err)
{
	static const char *const name = "Name";
	struct diff_pair *p = NULL;
	size_t np = 0;
	enum nst_status s = diff_match_devices(d, &m->busy[0], &m->busy[1], &p, &np, NULL, err);
	if (s == NST_OK)
		s = add_items(d, m->busy, p, np, NULL, "Device", "Busy:dur_ns", "GPU busy, device",
			      items, n, err);
	free(p);
	p = NULL;
	if (s == NST_OK)
		s = diff_match(&m->kern[0], &m->kern[1], &name, 1, &p, &np, err);
	if (s == NST_OK)
		s = add_items(d, m->kern, p, np, m->inst, name, "Total Time:dur_ns", "kernel", items,
			      n, err);
	free(p);
	return s;
}

/* A device's busy time in each iteration of each side (0 in each where
 * it had none), compared, where both sides mark iterations and it worked
 * in some: a device busy only outside them keeps its total. */
static enum nst_status per_iteration(struct item *it, size_t n, const struct diff_iters *iters,
				     struct nst_error *err)
{
	if (!iters[0].n || !iters[1].n)
		return NST_OK;
	size_t most = iters[0].n > iters[1].n ? iters[0].n : iters[1].n;
	int64_t *none = calloc(most, sizeof *none);
	int rc = none ? 0 : -1;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		if (!it[i].device || it[i].a_total < 0 || it[i].b_total < 0)
			continue;
		size_t na, nb;
		const int64_t *a = diff_iters_busy(&iters[0], it[i].dev[0], &na);
		const int64_t *b = diff_iters_busy(&iters[1], it[i].dev[1], &nb);
		if (a || b)
			rc = diff_shift_of(a ? a : none, a ? na : iters[0].n, b ? b : none,
					   b ? nb : iters[1].n, &it[i].shift);
	}
	free(none);
	return rc == 0 ? NST_OK : nst_fail(err, NST_ERR_NOMEM, "out of memory");
}

/* The p-values of the kernels and devices tested, adjusted together. */
static enum nst_status adjust(struct item *it, size_t n, struct nst_error *err)
{
	int rc = diff_shift_adjust(it, n, sizeof *it, offsetof(struct item, shift));
	for (size_t i = 0; rc == 0 && i < n; i++)
		if (it[i].shift.tested)
			it[i].growth = it[i].shift.pct;
	return rc == 0 ? NST_OK : nst_fail(err, NST_ERR_NOMEM, "out of memory");
}

static enum nst_status collect(struct nst_diff_ctx *d, struct item **items, size_t *n,
			       struct nst_error *err)
{
	struct measured m;
	memset(&m, 0, sizeof m);
	enum nst_status s = diff_both_sides(d, measure_side, &m, err);
	if (s == NST_OK)
		s = add_all(d, &m, items, n, err);
	if (s == NST_OK)
		s = per_iteration(*items, *n, m.iters, err);
	if (s == NST_OK)
		s = adjust(*items, *n, err);
	release_measured(&m);
	return s;
}

/* ---- the decision ---------------------------------------------------------------- */

static bool counted(const struct item *it, const struct gate *g)
{
	return it->device || it->a_total >= g->min || it->b_total >= g->min;
}

static bool over(const struct item *it, const struct gate *g)
{
	if (!counted(it, g) || it->b_total < 0)
		return false;
	if ((it->device && !it->shift.tested) || it->a_total < 0)
		return it->growth > (double)g->pct;
	return diff_shift_significant(&it->shift, g->alpha) && it->growth > (double)g->pct;
}

static const char *basis_of(const struct item *it)
{
	if (it->device)
		return it->shift.tested ? "per iteration" : "total";
	return it->shift.tested ? "instances" : it->a_total < 0 ? "only in B" : "only in A";
}

static struct nst_cell pct_cell(double x)
{
	return isnan(x) || isinf(x) ? nst_null() : nst_round1(x);
}

/* A and B of a kernel are the medians of its instances; of a device, its
 * busy time, or the median of that in an iteration. */
static struct nst_cell side_cell(const struct item *it, int side)
{
	int64_t total = side ? it->b_total : it->a_total;
	if (total < 0)
		return nst_null();
	if (!it->shift.tested)
		return nst_int(total);
	const struct diff_shift *s = &it->shift;
	return nst_real(side ? s->b_med : s->a_med);
}

static enum nst_status emit_item(const struct nst_sink *out, const struct item *it,
				 const struct gate *g, struct nst_error *err)
{
	const struct diff_shift *s = &it->shift;
	struct nst_cell row[NCOLS] = {
		nst_text(it->what), nst_text(basis_of(it)), side_cell(it, 0), side_cell(it, 1),
		pct_cell(it->growth), pct_cell(s->tested ? s->lo : NAN),
		pct_cell(s->tested ? s->hi : NAN),
		s->tested ? nst_real(s->p_adj) : nst_null(), nst_int(g->pct),
		nst_text(over(it, g) ? "FAIL" : "pass"),
	};
	return out->row(out->ctx, row, err);
}

/* Why the worst offender failed, in one line for stderr. */
static void say_worst(struct nst_diff_result *res, const struct item *w, size_t failed,
		      const struct gate *g)
{
	char more[48] = "";
	if (failed > 1)
		snprintf(more, sizeof more, " (and %zu more)", failed - 1);
	res->gate_failed = true;
	const struct diff_shift *s = &w->shift;
	if (w->a_total < 0)
		snprintf(res->worst, sizeof res->worst, "%s: only in the candidate, %lld ns"
			 " (gate %lld%%)%s", w->what, (long long)w->b_total, (long long)g->pct, more);
	else if (!s->tested)
		snprintf(res->worst, sizeof res->worst, "%s: %+.1f%% (%lld ns -> %lld ns, gate"
			 " %lld%%)%s", w->what, w->growth, (long long)w->a_total,
			 (long long)w->b_total, (long long)g->pct, more);
	else
		snprintf(res->worst, sizeof res->worst, "%s: %+.1f%% [%+.1f%%, %+.1f%%], p = %.2g"
			 " (median %.1f ns -> %.1f ns%s, gate %lld%%)%s", w->what, w->growth, s->lo,
			 s->hi, s->p_adj, s->a_med, s->b_med, w->device ? " per iteration" : "",
			 (long long)g->pct, more);
}

static double rank_growth(const struct item *it)
{
	return isnan(it->growth) ? -INFINITY : it->growth;
}

static enum nst_status emit(struct nst_diff_ctx *d, const struct item *it, size_t n,
			    const struct gate *g, const struct nst_sink *out, struct nst_error *err)
{
	const struct item *worst = NULL, *most = NULL;
	size_t failed = 0;
	for (size_t i = 0; i < n; i++) {
		if (over(&it[i], g) && ++failed && (!worst || rank_growth(&it[i]) > rank_growth(worst)))
			worst = &it[i];
		if (!it[i].device && it[i].b_total >= 0 &&
		    (!most || rank_growth(&it[i]) > rank_growth(most)))
			most = &it[i];
	}
	enum nst_status s = out->begin(out->ctx, cols, NCOLS, err);
	for (size_t i = 0; s == NST_OK && i < n; i++)
		if (it[i].device || over(&it[i], g) || (!worst && &it[i] == most))
			s = emit_item(out, &it[i], g, err);
	if (worst)
		say_worst(d->res, worst, failed, g);
	struct nst_cell verdict[NCOLS] = {
		nst_text("verdict"), nst_null(), nst_null(), nst_null(),
		worst ? pct_cell(worst->growth) : nst_null(), nst_null(), nst_null(), nst_null(),
		nst_int(g->pct), nst_text(worst ? "FAIL" : "pass"),
	};
	return s == NST_OK ? out->row(out->ctx, verdict, err) : s;
}

static int more_growth(const void *x, const void *y)
{
	const struct item *a = x, *b = y;
	if (a->device != b->device)
		return a->device ? -1 : 1;
	if (a->device)
		return (a->seq > b->seq) - (a->seq < b->seq);
	double ga = rank_growth(a), gb = rank_growth(b);
	if (ga != gb)
		return ga > gb ? -1 : 1;
	return strcmp(a->what, b->what);
}

static enum nst_status diff(struct nst_diff_ctx *d, const struct nst_sink *out,
			    struct nst_error *err)
{
	struct gate g = { diff_arg_i64(d, "gate", 0), diff_arg_i64(d, "min", 0), diff_alpha(d) };
	struct item *items = NULL;
	size_t n = 0;
	enum nst_status s = collect(d, &items, &n, err);
	if (s == NST_OK) {
		qsort(items, n, sizeof *items, more_growth);
		s = emit(d, items, n, &g, out, err);
	}
	free(items);
	return s;
}

static enum nst_status check(const struct nst_arg *args, size_t nargs, struct nst_error *err)
{
	bool gate = false;
	for (size_t i = 0; i < nargs; i++) {
		int64_t v;
		if (!args[i].value || !nst_parse_i64(args[i].value, &v) || v < 0)
			return nst_fail(err, NST_ERR_USAGE, "%s=%s: not a whole number >= 0",
					args[i].key, args[i].value ? args[i].value : "");
		gate |= strcmp(args[i].key, "gate") == 0;
	}
	return gate ? NST_OK : nst_fail(err, NST_ERR_USAGE, "gate=PCT is required (or nstats"
					" diff --gate PCT)");
}

static const char *const args[] = { "gate", "min", NULL };

/* nvtx_sum: the NVTX ranges, to find iterations.  The CUDA calls that tie
 * an iteration's GPU work to it are read only where there are iterations
 * (a later request is one more scan of the table): declared here, they
 * doubled the time and memory of a gate on 10M launches without any. */
static const char *const sources[] = { "gpu_time_sum", "cuda_gpu_kern_sum", "nvtx_sum", NULL };

const struct nst_report nst_diff_verdict = {
	.name = "verdict",
	.title = "Regression Gate",
	.help = "The verdict of --gate.  A kernel fails when its instances got slower by\n"
		"more than gate= percent and the change is significant: Change is the\n"
		"Hodges-Lehmann estimate of the ratio of its durations in B to those in A\n"
		"(the median of every B/A ratio of instances), with its 95% interval, and\n"
		"the Mann-Whitney p-value, Holm-adjusted over the tested checks, is below\n"
		"--alpha (default 0.05; 1: no test).  So a run that did fewer\n"
		"iterations, or one slow instance, fails nothing.  A kernel only the\n"
		"candidate has fails.  A device is checked on its busy time in each\n"
		"iteration where both sides mark iterations (iter_diff; nstats diff\n"
		"--per), as a kernel on its instances (Basis: per iteration); else it\n"
		"fails when its GPU busy time (gpu_time_sum's Busy) grew by more than\n"
		"gate= percent (Basis: total).  Kernels whose total is below min= ns on\n"
		"both sides are left out.  Rows: each device, the kernels that fail (or\n"
		"the one that moved up the most), and the verdict, pass or FAIL.  A and\n"
		"B are a kernel's medians (its totals when one side lacks it), a\n"
		"device's median busy time in an iteration, or its busy time.  Devices\n"
		"pair as gpu_time_diff pairs them (by the kernels they ran unless\n"
		"--devices id).",
	.args = args,
	.sources = sources,
	.flags = NST_REPORT_ADDITION,
	.check = check,
	.diff = diff,
};
