/* kern_brief: what `nstats diff` shows a person first, in the manner of
 * Go's benchstat: a kernel a line, each side's median with its spread,
 * the change with its interval, the p-value and a status; every number
 * in a short text that fits a terminal.  kern_diff holds the same numbers
 * whole, one to a column, for tools. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff/diff.h"

static const char *const cols[] = {
	"Name", "Instances", "A Med ± IQR/2", "B Med ± IQR/2", "Shift [95% CI]", "Holm p", "Status",
};
#define NCOLS (sizeof cols / sizeof *cols)

struct line {
	const char *name;
	const int64_t *a, *b;
	size_t na, nb;
	struct diff_shift shift;
	const char *status;
	bool changed;      /* beyond noise and tolerance, or on one side only */
	double size, time; /* |shift|, total time of both sides: the order */
};

static enum nst_status load(struct nst_diff_ctx *d, int side, void *arg, struct nst_error *err)
{
	struct diff_samples *s = arg;
	return diff_kernel_samples(d, side, &s[side], err);
}

/* The kernels of either side, in name order: both key lists are sorted. */
static size_t merge(const struct diff_samples *s, struct line *l)
{
	size_t i = 0, j = 0, n = 0;
	while (i < s[0].n || j < s[1].n) {
		int c = i == s[0].n ? 1 : j == s[1].n ? -1 : strcmp(s[0].key[i], s[1].key[j]);
		struct line x = { .name = c <= 0 ? s[0].key[i] : s[1].key[j] };
		if (c <= 0) {
			x.na = s[0].start[i + 1] - s[0].start[i];
			x.a = s[0].val + s[0].start[i++];
		}
		if (c >= 0) {
			x.nb = s[1].start[j + 1] - s[1].start[j];
			x.b = s[1].val + s[1].start[j++];
		}
		l[n++] = x;
	}
	return n;
}

static double total_of(const int64_t *v, size_t n)
{
	double t = 0;
	for (size_t i = 0; i < n; i++)
		t += (double)v[i];
	return t;
}

/* Changes first, the largest first; then the rest by time on both sides. */
static void rank(struct line *l)
{
	l->time = total_of(l->a, l->na) + total_of(l->b, l->nb);
	l->changed = strcmp(l->status, "~") != 0 && strcmp(l->status, "same") != 0;
	l->size = l->na && l->nb ? fabs(l->shift.pct) : INFINITY;
}

static int by_rank(const void *x, const void *y)
{
	const struct line *a = x, *b = y;
	if (a->changed != b->changed)
		return a->changed ? -1 : 1;
	if (a->changed && a->size != b->size)
		return a->size > b->size ? -1 : 1;
	if (a->time != b->time)
		return a->time > b->time ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* ns in at most four figures and a unit: 5696 ns, 17.35 us, 4.005 ms,
 * 1.234 s (a median can end in .5 ns: 5696.5 ns reads 5696 ns). */
static void duration(char *buf, size_t size, double ns)
{
	double a = fabs(ns);
	if (a < 1e4)
		snprintf(buf, size, "%.0f ns", ns);
	else if (a < 999.95e3)
		snprintf(buf, size, "%.4g us", ns / 1e3);
	else if (a < 999.95e6)
		snprintf(buf, size, "%.4g ms", ns / 1e6);
	else
		snprintf(buf, size, "%.4g s", ns / 1e9);
}

/* The median and half the interquartile range in percent of it. */
static const char *spread(struct nst_arena *arena, const int64_t *v, size_t n, double med)
{
	if (!n)
		return NULL;
	char d[32];
	duration(d, sizeof d, med);
	double q1 = (double)v[(n - 1) / 4], q3 = (double)v[3 * (n - 1) / 4];
	if (med <= 0)
		return nst_arena_printf(arena, "%s", d);
	return nst_arena_printf(arena, "%s ±%.0f%%", d, (q3 - q1) / 2 * 100 / med);
}

static const char *change(struct nst_arena *arena, const struct diff_shift *s)
{
	if (!s->tested)
		return NULL;
	if (isnan(s->lo))
		return nst_arena_printf(arena, "%+.1f%%", s->pct);
	return nst_arena_printf(arena, "%+.1f%% [%+.1f, %+.1f]", s->pct, s->lo, s->hi);
}

static struct nst_cell text_or_null(const char *s)
{
	return s ? nst_text(s) : nst_null();
}

static enum nst_status emit(struct nst_diff_ctx *d, const struct line *l, const struct nst_sink *out,
			    struct nst_error *err)
{
	struct nst_arena *a = d->arena;
	const struct diff_shift *s = &l->shift;
	const char *p = s->tested ? nst_arena_printf(a, "%.2g", s->p_adj) : NULL;
	const char *n = nst_arena_printf(a, "%zu / %zu", l->na, l->nb);
	struct nst_cell row[NCOLS] = {
		nst_text(l->name), text_or_null(n),
		text_or_null(spread(a, l->a, l->na, s->a_med)),
		text_or_null(spread(a, l->b, l->nb, s->b_med)),
		text_or_null(change(a, s)), text_or_null(p), nst_text(l->status),
	};
	return out->row(out->ctx, row, err);
}

static enum nst_status compare(struct nst_diff_ctx *d, struct line *l, size_t n,
			       struct nst_error *err)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = diff_shift_of(l[i].a, l[i].na, l[i].b, l[i].nb, &l[i].shift);
	if (rc == 0)
		rc = diff_shift_adjust(l, n, sizeof *l, offsetof(struct line, shift));
	for (size_t i = 0; rc == 0 && i < n; i++) {
		l[i].status = diff_shift_status(&l[i].shift, l[i].na > 0, l[i].nb > 0,
						diff_alpha(d), nst_diff_tolerance(d));
		rank(&l[i]);
	}
	return rc == 0 ? NST_OK : nst_fail(err, NST_ERR_NOMEM, "out of memory");
}

static enum nst_status diff(struct nst_diff_ctx *d, const struct nst_sink *out,
			    struct nst_error *err)
{
	struct diff_samples s[2];
	memset(s, 0, sizeof s);
	enum nst_status st = diff_both_sides(d, load, s, err);
	size_t n = s[0].n + s[1].n;
	struct line *l = st == NST_OK ? malloc((n ? n : 1) * sizeof *l) : NULL;
	if (st == NST_OK && !l)
		st = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (st == NST_OK) {
		n = merge(s, l);
		st = compare(d, l, n, err);
	}
	if (st == NST_OK) {
		qsort(l, n, sizeof *l, by_rank);
		st = out->begin(out->ctx, cols, NCOLS, err);
	}
	for (size_t i = 0; st == NST_OK && i < n; i++)
		st = emit(d, &l[i], out, err);
	free(l);
	diff_samples_release(&s[0]);
	diff_samples_release(&s[1]);
	return st;
}

static const char *const args[] = { "tolerance", NULL };
static const char *const sources[] = { "cuda_gpu_kern_sum", NULL };

const struct nst_report nst_diff_kern_brief = {
	.name = "kern_brief",
	.title = "CUDA GPU Kernels Compared, in Brief",
	.help = "A kernel a line, as Go's benchstat shows benchmarks: the instances of\n"
		"each side; each side's median duration (nsys's Med: the mean of the two\n"
		"middle values) and half its interquartile range in percent of it; the\n"
		"shift of B from A (the Hodges-Lehmann estimate of the ratio of their\n"
		"durations, in percent) with its 95% interval; the Mann-Whitney p-value,\n"
		"Holm-adjusted over the kernels; and kern_diff's status (~: no significant\n"
		"change at --alpha; tolerance=, default 2).  Changes first, the largest\n"
		"first, then the kernels by their time on both sides.  Texts made to be\n"
		"read: kern_diff has every number in a column of its own.",
	.args = args,
	.flags = NST_REPORT_ADDITION,
	.check = diff_check_tolerance,
	.diff = diff,
	.sources = sources,
};
