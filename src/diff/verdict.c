/* verdict: the CI gate of `nstats diff --gate PCT`.  It fails when the
 * GPU busy time of a device (gpu_time_sum) or the total of a kernel
 * (cuda_gpu_kern_sum, by the diff's names) grew by more than gate=
 * percent; kernels below min= ns on both sides do not count.  Its rows:
 * every device, then the kernels over the gate (or, when none is, the one
 * that grew the most), then the verdict. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
#include "diff/diff.h"

static const char *const cols[] = {
	"Check", "A:dur_ns", "B:dur_ns", "Change:ratio_%", "Gate:ratio_%", "Result",
};
#define NCOLS (sizeof cols / sizeof *cols)

struct gate {
	int64_t pct, min;
};

/* One thing the gate looks at: its growth in percent of A (infinite for
 * a kernel only B has). */
struct item {
	const char *what;
	int64_t a, b;
	double growth;
	bool device;
	size_t seq; /* devices keep the order gpu_time_sum gives them */
};

static int64_t arg_of(const struct nst_diff_ctx *d, const char *key, int64_t dflt)
{
	for (size_t i = d->nargs; i-- > 0;) {
		int64_t v;
		if (strcmp(d->args[i].key, key) == 0 && d->args[i].value &&
		    nst_parse_i64(d->args[i].value, &v))
			return v;
	}
	return dflt;
}

static double growth_of(int64_t a, int64_t b)
{
	if (a == 0)
		return b > 0 ? INFINITY : 0;
	return (double)(b - a) * 100.0 / (double)a;
}

/* Items from one pair of tables: key column, measured column. */
static enum nst_status add_items(struct nst_diff_ctx *d, const struct diff_table *t,
				 const char *key, const char *measure, const char *label,
				 bool device, struct item **items, size_t *n, struct nst_error *err)
{
	struct diff_pair *p = NULL;
	size_t np = 0;
	enum nst_status s = diff_match(&t[0], &t[1], &key, 1, &p, &np, err);
	struct item *it = s == NST_OK ? realloc(*items, (*n + np + 1) * sizeof *it) : NULL;
	if (s == NST_OK && !it)
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	int k[2] = { diff_col(&t[0], key), diff_col(&t[1], key) };
	int m[2] = { diff_col(&t[0], measure), diff_col(&t[1], measure) };
	for (size_t i = 0; s == NST_OK && i < np; i++) {
		struct nst_cell a = diff_side_cell(&t[0], p[i].a, m[0]);
		struct nst_cell b = diff_side_cell(&t[1], p[i].b, m[1]);
		struct nst_cell name = p[i].a >= 0 ? diff_side_cell(&t[0], p[i].a, k[0])
						   : diff_side_cell(&t[1], p[i].b, k[1]);
		const char *what = name.kind == NST_TEXT
			? nst_arena_printf(d->arena, "%s %s", label, name.v.s)
			: nst_arena_printf(d->arena, "%s %lld", label, (long long)diff_int(&name));
		if (!what) {
			s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
			break;
		}
		it[*n] = (struct item){ what, diff_int(&a), diff_int(&b),
					growth_of(diff_int(&a), diff_int(&b)), device, *n };
		++*n;
	}
	if (it)
		*items = it;
	free(p);
	return s;
}

/* One side's GPU busy time and kernel totals. */
struct measured {
	struct diff_table busy[2], kern[2];
};

static enum nst_status measure_side(struct nst_diff_ctx *d, int side, void *arg,
				    struct nst_error *err)
{
	struct measured *m = arg;
	const char *ks = diff_names_base(d) ? "cuda_gpu_kern_sum:base" : "cuda_gpu_kern_sum";
	enum nst_status s = diff_collect(d, side, "gpu_time_sum", &m->busy[side], err);
	if (s == NST_OK)
		s = diff_collect(d, side, ks, &m->kern[side], err);
	return s;
}

static enum nst_status collect(struct nst_diff_ctx *d, struct item **items, size_t *n,
			       struct nst_error *err)
{
	struct measured m = { 0 };
	struct diff_table *busy = m.busy, *kern = m.kern;
	enum nst_status s = diff_both_sides(d, measure_side, &m, err);
	if (s == NST_OK)
		s = add_items(d, busy, "Device", "Busy:dur_ns", "GPU busy, device", true, items, n,
			      err);
	if (s == NST_OK)
		s = add_items(d, kern, "Name", "Total Time:dur_ns", "kernel", false, items, n, err);
	for (int side = 0; side < 2; side++) {
		diff_table_release(&busy[side]);
		diff_table_release(&kern[side]);
	}
	return s;
}

static bool over(const struct item *it, const struct gate *g)
{
	if (!it->device && it->a < g->min && it->b < g->min)
		return false;
	return it->growth > (double)g->pct;
}

static enum nst_status emit_item(const struct nst_sink *out, const struct item *it,
				 const struct gate *g, struct nst_error *err)
{
	struct nst_cell row[NCOLS] = {
		nst_text(it->what), nst_int(it->a), nst_int(it->b),
		isinf(it->growth) ? nst_null() : nst_round1(it->growth), nst_int(g->pct),
		nst_text(over(it, g) ? "FAIL" : "pass"),
	};
	return out->row(out->ctx, row, err);
}

/* The worst offender of the items over the gate, for one line on stderr. */
static void say_worst(struct nst_diff_result *res, const struct item *w, const struct gate *g)
{
	res->gate_failed = true;
	if (isinf(w->growth))
		snprintf(res->worst, sizeof res->worst, "%s: only in the candidate, %lld ns"
			 " (gate %lld%%)", w->what, (long long)w->b, (long long)g->pct);
	else
		snprintf(res->worst, sizeof res->worst, "%s: %+.1f%% (%lld ns -> %lld ns, gate"
			 " %lld%%)", w->what, w->growth, (long long)w->a, (long long)w->b,
			 (long long)g->pct);
}

static enum nst_status emit(struct nst_diff_ctx *d, const struct item *it, size_t n,
			    const struct gate *g, const struct nst_sink *out, struct nst_error *err)
{
	const struct item *worst = NULL, *most = NULL;
	for (size_t i = 0; i < n; i++) {
		if (over(&it[i], g) && (!worst || it[i].growth > worst->growth))
			worst = &it[i];
		if (!it[i].device && (!most || it[i].growth > most->growth))
			most = &it[i];
	}
	enum nst_status s = out->begin(out->ctx, cols, NCOLS, err);
	for (size_t i = 0; s == NST_OK && i < n; i++)
		if (it[i].device || over(&it[i], g) || (!worst && &it[i] == most))
			s = emit_item(out, &it[i], g, err);
	if (worst)
		say_worst(d->res, worst, g);
	struct nst_cell verdict[NCOLS] = {
		nst_text("verdict"), nst_null(), nst_null(),
		worst && !isinf(worst->growth) ? nst_round1(worst->growth) : nst_null(),
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
	if (a->growth != b->growth)
		return a->growth > b->growth ? -1 : 1;
	return strcmp(a->what, b->what);
}

static enum nst_status diff(struct nst_diff_ctx *d, const struct nst_sink *out,
			    struct nst_error *err)
{
	struct gate g = { arg_of(d, "gate", 0), arg_of(d, "min", 0) };
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
	return gate ? NST_OK : nst_fail(err, NST_ERR_USAGE, "gate=PCT is required");
}

static const char *const args[] = { "gate", "min", NULL };

static const char *const sources[] = { "gpu_time_sum", "cuda_gpu_kern_sum", NULL };

const struct nst_report nst_diff_verdict = {
	.name = "verdict",
	.title = "Regression Gate",
	.help = "The verdict of --gate: fails when the GPU busy time of a device\n"
		"(gpu_time_sum's Busy) or the total time of a kernel (cuda_gpu_kern_sum,\n"
		"by the diff's --names) grew by more than gate= percent of the baseline;\n"
		"a kernel only the candidate has grew without bound.  Kernels below min=\n"
		"ns on both sides are left out.  Rows: each device, the kernels over the\n"
		"gate (or the one that grew the most), and the verdict, pass or FAIL.",
	.args = args,
	.sources = sources,
	.flags = NST_REPORT_ADDITION,
	.check = check,
	.diff = diff,
};
