/* A row's instances compared: whether B's durations moved from A's by
 * more than run-to-run noise (core/ranktest.c), how far, and the status
 * that says so.
 *
 * The p-value is the rank test's on the durations.  The shift is the
 * Hodges-Lehmann estimate on their logarithms: the median of the ratios
 * b_j / a_i of every instance of B to every instance of A, with its 95%
 * interval, shown as a change in percent.  Kernels get slower by a
 * factor, not by a constant: eight percent on every instance of a kernel
 * whose durations spread over two decades is +8% as a ratio, but a
 * third of that as a difference in ns against the median.  A ratio needs
 * no base either, so a kernel that ran fewer times but no slower reads as
 * unchanged. */
#include <math.h>
#include <stdlib.h>

#include "diff/diff.h"

const char *const diff_shift_cols[DIFF_SHIFT_NCOLS] = {
	"A Med:dur_ns", "B Med:dur_ns", "Shift:ratio_%", "Shift CI Low:ratio_%",
	"Shift CI High:ratio_%", "P-Value", "Holm P-Value",
};

/* The median as nsys's Med is: the mean of the two middle values. */
static double median_of(const int64_t *v, size_t n)
{
	return n % 2 ? (double)v[n / 2] : ((double)v[n / 2 - 1] + (double)v[n / 2]) / 2;
}

/* Logarithms in fixed point, 2^-40 a unit: strictly increasing on whole
 * ns up to 10^12 (1000 s), so the order and the ties of the durations
 * stay, and the rank test's exact integer search finds the median ratio
 * to 1e-12.  Durations below 1 ns count as 1 ns: a ratio to 0 is none. */
#define LOG_UNIT 1099511627776.0
#define LOG_EXACT_MAX INT64_C(1000000000000)

static int64_t *logs_of(const int64_t *v, size_t n)
{
	int64_t *out = malloc((n ? n : 1) * sizeof *out);
	for (size_t i = 0; out && i < n; i++)
		out[i] = (int64_t)llround(log(v[i] > 1 ? (double)v[i] : 1.0) * LOG_UNIT);
	return out;
}

static double percent_of_log(double x)
{
	return isnan(x) ? NAN : expm1(x / LOG_UNIT) * 100.0;
}

int diff_shift_of(const int64_t *a, size_t na, const int64_t *b, size_t nb,
		  struct diff_shift *out)
{
	*out = (struct diff_shift){ .na = na, .nb = nb, .a_med = NAN, .b_med = NAN, .pct = NAN,
				    .lo = NAN, .hi = NAN, .p = NAN, .p_adj = NAN };
	if (!na || !nb)
		return 0;
	out->tested = true;
	out->a_med = median_of(a, na);
	out->b_med = median_of(b, nb);
	struct nst_rank_test t;
	int64_t *la = logs_of(a, na), *lb = logs_of(b, nb);
	/* where the logarithms keep the durations' order and ties, their
	 * ranks are the durations' ranks: one test gives p and the shift */
	bool same_ranks = a[0] >= 1 && b[0] >= 1 && a[na - 1] <= LOG_EXACT_MAX &&
			  b[nb - 1] <= LOG_EXACT_MAX;
	int rc = la && lb ? 0 : -1;
	if (rc == 0 && !same_ranks)
		rc = nst_rank_test(a, na, b, nb, 0.95, &t);
	if (rc == 0 && !same_ranks)
		out->p = t.p;
	if (rc == 0)
		rc = nst_rank_test(la, na, lb, nb, 0.95, &t);
	if (rc == 0) {
		out->p = same_ranks ? t.p : out->p;
		out->pct = percent_of_log(t.shift);
		out->lo = percent_of_log(t.lo);
		out->hi = percent_of_log(t.hi);
	}
	free(la);
	free(lb);
	return rc;
}

static struct diff_shift *shift_at(void *rows, size_t i, size_t size, size_t offset)
{
	return (struct diff_shift *)((char *)rows + i * size + offset);
}

int diff_shift_adjust(void *rows, size_t n, size_t size, size_t offset)
{
	double *p = calloc(n ? n : 1, sizeof *p), *adj = calloc(n ? n : 1, sizeof *adj);
	int rc = p && adj ? 0 : -1;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		const struct diff_shift *s = shift_at(rows, i, size, offset);
		p[i] = s->tested ? s->p : NAN;
	}
	if (rc == 0)
		rc = nst_holm(p, n, adj);
	for (size_t i = 0; rc == 0 && i < n; i++)
		shift_at(rows, i, size, offset)->p_adj = adj[i];
	free(p);
	free(adj);
	return rc;
}

bool diff_shift_significant(const struct diff_shift *s, double alpha)
{
	return s->tested && (alpha >= 1 || s->p_adj < alpha);
}

const char *diff_shift_status(const struct diff_shift *s, bool in_a, bool in_b, double alpha,
			      int64_t tolerance)
{
	if (!in_a)
		return "added";
	if (!in_b)
		return "removed";
	if (!diff_shift_significant(s, alpha))
		return "~";
	if (fabs(s->pct) <= (double)tolerance)
		return "same";
	return s->pct > 0 ? "slower" : "faster";
}

static struct nst_cell real_or_null(double x, bool round1)
{
	if (isnan(x) || isinf(x))
		return nst_null();
	return round1 ? nst_round1(x) : nst_real(x);
}

void diff_shift_cells(const struct diff_shift *s, struct nst_cell *out)
{
	out[0] = real_or_null(s->a_med, false);
	out[1] = real_or_null(s->b_med, false);
	out[2] = real_or_null(s->pct, true);
	out[3] = real_or_null(s->lo, true);
	out[4] = real_or_null(s->hi, true);
	out[5] = real_or_null(s->p, false);
	out[6] = real_or_null(s->p_adj, false);
}
