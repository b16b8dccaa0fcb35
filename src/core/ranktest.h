/* Two samples compared by their ranks, as a performance engineer compares
 * the instance durations of a kernel in two runs: the Mann-Whitney U test
 * (is B's distribution shifted from A's, or is the difference noise?) and
 * the Hodges-Lehmann estimate of the shift with its confidence interval;
 * and Holm's adjustment of the p-values of many such tests. */
#ifndef NSTATS_CORE_RANKTEST_H
#define NSTATS_CORE_RANKTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nst_rank_test {
	/* Two-sided p-value of "A and B come from one distribution": exact
	 * (the permutation distribution of the rank sum, ties at their
	 * midranks) when n + m <= NST_RANK_EXACT_MAX, else the normal
	 * approximation with the tie correction and a continuity correction.
	 * 1 when a side is empty. */
	double p;
	bool exact;
	/* U of B: the pairs (a_i, b_j) with b_j > a_i, a tie counting 1/2. */
	double u;
	/* Hodges-Lehmann: the median of the n*m differences b_j - a_i (the
	 * mean of the two middle ones when n*m is even). */
	double shift;
	/* Its confidence interval at level conf: the differences of rank k and
	 * n*m + 1 - k, k from U's distribution (exact without ties when n + m
	 * <= NST_RANK_EXACT_MAX, else normal with the tie correction).  NaN
	 * when the samples are too small for any interval at that level. */
	double lo, hi;
};

#define NST_RANK_EXACT_MAX 60

/* a[0..n) and b[0..m), each sorted ascending.  conf: e.g. 0.95.
 * Returns 0, or -1 when out of memory. */
int nst_rank_test(const int64_t *a, size_t n, const int64_t *b, size_t m, double conf,
		  struct nst_rank_test *out);

/* Holm's step-down adjustment of p[0..n): adj[i] is p[i]'s adjusted
 * p-value (min(1, max over the smaller p's of (n - rank) * p)), so that
 * rejecting every adj[i] < alpha keeps the chance of any false rejection
 * at most alpha.  NaN p's (no test) stay NaN and do not count in n.
 * Returns 0, or -1 when out of memory. */
int nst_holm(const double *p, size_t n, double *adj);

#endif
