/* Order statistics of the n*m differences b_j - a_i of two sorted samples,
 * found without forming them: what the Hodges-Lehmann shift and its
 * confidence interval are made of. */
#ifndef NSTATS_CORE_PAIRDIFF_H
#define NSTATS_CORE_PAIRDIFF_H

#include <stddef.h>
#include <stdint.h>

#define NST_PAIR_DIFF_MAX_RANKS 4

/* a[0..n) and b[0..m), each sorted ascending, n and m at least 1, n*m
 * below 2^63.  rank[0..nrank) (nrank <= NST_PAIR_DIFF_MAX_RANKS) are
 * 1-based ranks in 1..n*m, ascending; value[r] gets the difference of rank
 * rank[r].  A difference of two int64s needs 65 bits: long double holds it
 * exactly where its significand has 64 bits or more (x86-64, AArch64).
 * Time O((n + m) log(n + m)) at worst, a few passes over a and b on
 * smooth data; memory O(n + m).  Returns 0, or -1 when out of memory. */
int nst_pair_diff_ranks(const int64_t *a, size_t n, const int64_t *b, size_t m,
			const uint64_t *rank, size_t nrank, long double *value);

#endif
