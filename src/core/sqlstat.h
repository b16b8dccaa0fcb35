/* The numbers nsys's SQL computes, reproduced bit for bit: SQLite 3.42's
 * round(), and the aggregates of the extension functions that nsys
 * registers (median, lower/upper quartile, sample stdev). */
#ifndef NSTATS_CORE_SQLSTAT_H
#define NSTATS_CORE_SQLSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* SQLite's round(x, digits): printf("%.*f") with its long-double digit
 * generator, parsed back.  It differs from printf-and-strtod on ties
 * (round(0.25, 1) is 0.3) and that shows in every Avg column. */
double nst_sql_round(double x, int digits);

/* A middle value as the extension functions return it: an integer when
 * the one or two elements it comes from are equal, else their mean. */
struct nst_mid {
	bool is_int;
	int64_t i;
	double r;
};

/* The distribution of one group's values. */
struct nst_dist {
	size_t n;
	int64_t sum, min, max;
	double avg;   /* sum accumulated in double in row order, / n */
	double stdev; /* Welford in row order; 0.0 below two values */
	struct nst_mid med;
};

/* vals in row order; they are sorted in place.  n > 0.  False, with out
 * unset, when their sum does not fit int64: SQLite's sum() fails there
 * too ("integer overflow"), and a wrapped total would be a wrong number. */
bool nst_dist_of(int64_t *vals, size_t n, struct nst_dist *out);
/* The same numbers, with vals left in no useful order: only the elements
 * the quantiles read are put in place, in place, where a sort takes a
 * buffer as large as vals (76 MB for the 10M launches of one API). */
bool nst_dist_of_unordered(int64_t *vals, size_t n, struct nst_dist *out);
/* The same numbers of values read where they are, none copied or moved:
 * vals[i] (rows NULL), or value rows[i] of vals, or (vals NULL) the
 * duration of row rows[i] in span (core/col.h).  Only where
 * nst_dist_in_place_pays(n): the values are read three times by a
 * histogram, where a few thousand are selected faster in a copy. */
struct nst_span;
enum nst_dist_status { NST_DIST_OK, NST_DIST_OVERFLOW, NST_DIST_NOMEM };
bool nst_dist_in_place_pays(size_t n);
enum nst_dist_status nst_dist_in_place(const int64_t *vals, const uint32_t *rows,
				       const struct nst_span *span, size_t n,
				       struct nst_dist *out);
/* n, sum, min, max, avg and stdev alone (med zero): no
 * element moves.  False as nst_dist_of. */
bool nst_dist_moments(const int64_t *vals, size_t n, struct nst_dist *out);
/* Puts the element of each rank (0-based, below n; sorted here) where a
 * sort would put it: a few quantiles of n values in O(n).  The other
 * elements are left in no particular order and may be overwritten. */
void nst_select_ranks(int64_t *vals, size_t n, size_t *ranks, size_t m);

/* *sum += v; false, with *sum unchanged, when the result does not fit. */
static inline bool nst_add_i64(int64_t *sum, int64_t v)
{
	int64_t r;
	if (__builtin_add_overflow(*sum, v, &r))
		return false;
	*sum = r;
	return true;
}

/* Welford's running sample variance, as the stdev() aggregate does it. */
struct nst_welford {
	int64_t n;
	double mean, m2;
};
void nst_welford_add(struct nst_welford *w, double x);
double nst_welford_stdev(const struct nst_welford *w);

/* Quantile at position n*num/den of sorted values, the extension
 * functions' rule: a whole position p means mean(s[p-1], s[p]). */
struct nst_mid nst_quantile(const int64_t *sorted, size_t n, int num, int den);
double nst_mid_value(struct nst_mid m);

void nst_sort_i64(int64_t *v, size_t n);
void nst_sort_u64(uint64_t *v, size_t n);
/* One stable counting pass of a radix sort: src into dst by the byte of
 * each value at bit shift. */
void nst_radix_pass(const uint64_t *src, uint64_t *dst, size_t n, int shift);

#endif
