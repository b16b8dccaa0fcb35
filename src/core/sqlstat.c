#include "core/sqlstat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/big.h"
#include "core/col.h"

/* SQLite's printf digit generator: takes the leading digit of *val and
 * scales the rest up; after `cnt` significant digits it yields zeros. */
static char next_digit(long double *val, int *cnt)
{
	if (*cnt <= 0)
		return '0';
	(*cnt)--;
	int digit = (int)*val;
	*val = (*val - (long double)digit) * 10.0L;
	return (char)('0' + digit);
}

/* What SQLite's printf adds to |x| before it takes prec digits after
 * the point: half the last digit's unit, and for all but the largest
 * numbers a little more. */
static long double rounder_of(long double v, int prec)
{
	long double rounder = 0.5L;
	for (int i = 0; i < prec; i++)
		rounder /= 10.0L;
	uint64_t u;
	double rx = (double)v;
	memcpy(&u, &rx, sizeof u);
	int ex = -1023 + (int)((u >> 52) & 0x7ff);
	if (prec + ex / 3 < 15)
		rounder += v * 3e-16;
	return rounder;
}

/* printf("%.*f", prec, x) of SQLite 3.42 for finite x; returns length. */
static size_t sqlite_fixed(char *buf, int prec, double x)
{
	char *p = buf;
	long double v = x;
	if (v < 0) {
		v = -v;
		*p++ = '-';
	}
	v += rounder_of(v, prec);

	int exp10 = 0;
	if (v > 0.0L) {
		long double scale = 1.0L;
		while (v >= 1e100L * scale && exp10 <= 350) {
			scale *= 1e100L;
			exp10 += 100;
		}
		while (v >= 1e10L * scale && exp10 <= 350) {
			scale *= 1e10L;
			exp10 += 10;
		}
		while (v >= 10.0L * scale && exp10 <= 350) {
			scale *= 10.0L;
			exp10++;
		}
		v /= scale;
		while (v < 1e-8L) {
			v *= 1e8L;
			exp10 -= 8;
		}
		while (v < 1.0L) {
			v *= 10.0L;
			exp10--;
		}
	}
	int nsd = 16; /* significant digits; the rest print as zeros */
	int e2 = exp10;
	if (e2 < 0)
		*p++ = '0';
	for (; e2 >= 0; e2--)
		*p++ = next_digit(&v, &nsd);
	if (prec > 0)
		*p++ = '.';
	for (e2++; e2 < 0 && prec > 0; prec--, e2++)
		*p++ = '0';
	while (prec-- > 0)
		*p++ = next_digit(&v, &nsd);
	*p = '\0';
	return (size_t)(p - buf);
}

/* sqlite3AtoF for the plain decimals sqlite_fixed writes: the digits as
 * an integer, divided by a power of ten in long double. */
static double sqlite_atof(const char *s)
{
	int neg = *s == '-';
	s += neg;
	uint64_t sig = 0;
	int digits = 0, frac = 0, seen_point = 0, dropped = 0;
	for (; *s; s++) {
		if (*s == '.') {
			seen_point = 1;
			continue;
		}
		if (digits < 18) {
			sig = sig * 10 + (uint64_t)(*s - '0');
			if (sig)
				digits++;
			frac += seen_point;
		} else if (!seen_point) {
			dropped++;
		}
	}
	long double r = (long double)sig;
	int e = dropped - frac;
	long double scale = 1.0L;
	for (int i = 0; i < (e < 0 ? -e : e); i++)
		scale *= 10.0L;
	r = e < 0 ? r / scale : r * scale;
	return neg ? -(double)r : (double)r;
}

/* round(x, digits) without the digit generator, where its digits are
 * certain: |x| below 1e10 (at most 14 digits, all of them significant to
 * the generator, which stops at 16), and |x| plus the rounder, in units
 * of the last digit, at least 1e-3 from a whole number.  The generator's
 * long double steps are off by less than 1e-6 units there, so it writes
 * floor(that) as the digits; they read back as sqlite_atof reads them:
 * that integer divided by 10^digits in long double. */
static bool round_certain(double x, int digits, double *out)
{
	long double v = x < 0 ? -(long double)x : (long double)x;
	if (!(v < 1e10L))
		return false;
	long double scale = 1.0L;
	for (int i = 0; i < digits; i++)
		scale *= 10.0L;
	long double units = (v + rounder_of(v, digits)) * scale, whole = floorl(units);
	if (units - whole < 1e-3L || whole + 1.0L - units < 1e-3L)
		return false;
	double r = (double)(whole / scale);
	*out = x < 0 ? -r : r;
	return true;
}

double nst_sql_round(double x, int digits)
{
	if (digits > 30)
		digits = 30;
	if (digits < 0)
		digits = 0;
	if (isnan(x) || x < -4503599627370496.0 || x > 4503599627370496.0)
		return x; /* no fraction left to round */
	if (digits == 0)
		return (double)(int64_t)(x + (x < 0 ? -0.5 : 0.5));
	/* A whole number below 1e14 prints as itself with up to 4 zeros after
	 * the point and reads back exactly (a -0 as 0): the mean of a single
	 * value, a zero deviation, most cells of a summary of ranges that each
	 * ran once, at a tenth of the cost.  With more digits SQLite's reading
	 * back loses the last bits from 2^44 on (test_sqlstat.c). */
	if (digits <= 4 && x > -1e14 && x < 1e14 && x == (double)(int64_t)x)
		return x + 0.0;
	double r;
	if (digits <= 4 && round_certain(x, digits, &r))
		return r;
	char buf[400];
	sqlite_fixed(buf, digits, x);
	return sqlite_atof(buf);
}

void nst_welford_add(struct nst_welford *w, double x)
{
	w->n++;
	double delta = x - w->mean;
	w->mean += delta / (double)w->n;
	w->m2 += delta * (x - w->mean);
}

double nst_welford_stdev(const struct nst_welford *w)
{
	return w->n > 1 ? sqrt(w->m2 / (double)(w->n - 1)) : 0.0;
}

static struct nst_mid mid_of(int64_t a, int64_t b)
{
	struct nst_mid m = { .is_int = a == b, .i = a };
	m.r = a == b ? (double)a : ((double)a + (double)b) / 2.0;
	return m;
}

/* The positions of sorted values the num/den quantile reads, into at[]:
 * the two around it when it falls between them, else the one it is on
 * (the last for a quantile at the end). */
static size_t quantile_ranks(size_t n, int num, int den, size_t *at)
{
	double p = (double)n * num / den;
	size_t ip = (size_t)p;
	if ((double)ip == p && ip > 0) {
		at[0] = ip - 1;
		at[1] = ip;
		return 2;
	}
	at[0] = ip >= n ? n - 1 : ip;
	return 1;
}

struct nst_mid nst_quantile(const int64_t *s, size_t n, int num, int den)
{
	size_t at[2];
	size_t k = quantile_ranks(n, num, den, at);
	return mid_of(s[at[0]], s[at[k - 1]]);
}

double nst_mid_value(struct nst_mid m)
{
	return m.is_int ? (double)m.i : m.r;
}

/* Values read where they are: vals[i] (rows NULL), or value rows[i] of
 * vals or, vals NULL, of the durations in span. */
struct values {
	const int64_t *vals;
	const uint32_t *rows;
	const struct nst_span *span;
};

static inline int64_t value_at(const struct values *v, size_t i)
{
	if (!v->rows)
		return v->vals[i];
	uint32_t r = v->rows[i];
	return v->vals ? v->vals[r] : nst_span_at(v->span, r);
}

/* Count, sum, extremes, mean and stdev, in row order; false when the sum
 * does not fit. */
static bool moments_of(const struct values *vals, size_t n, struct nst_dist *out)
{
	struct nst_welford w = { 0 };
	double fsum = 0;
	int64_t sum = 0, mn = value_at(vals, 0), mx = mn;
	for (size_t i = 0; i < n; i++) {
		int64_t v = value_at(vals, i);
		if (!nst_add_i64(&sum, v))
			return false;
		fsum += (double)v;
		mn = v < mn ? v : mn;
		mx = v > mx ? v : mx;
		nst_welford_add(&w, (double)v);
	}
	*out = (struct nst_dist){
		.n = n, .sum = sum, .min = mn, .max = mx,
		.avg = fsum / (double)n,
		.stdev = nst_welford_stdev(&w),
	};
	return true;
}

static bool moments(const int64_t *vals, size_t n, struct nst_dist *out)
{
	return moments_of(&(struct values){ .vals = vals }, n, out);
}

/* The median of vals, whose elements it reads are in place. */
static void median(const int64_t *vals, size_t n, struct nst_dist *out)
{
	out->med = nst_quantile(vals, n, 1, 2);
}

bool nst_dist_moments(const int64_t *vals, size_t n, struct nst_dist *out)
{
	return moments(vals, n, out);
}

bool nst_dist_of(int64_t *vals, size_t n, struct nst_dist *out)
{
	struct nst_dist d;
	if (!moments(vals, n, &d))
		return false;
	nst_sort_i64(vals, n);
	median(vals, n, &d);
	*out = d;
	return true;
}

/* ---- selecting ranks in place ---------------------------------------------- */

static void swap_i64(int64_t *a, int64_t *b)
{
	int64_t t = *a;
	*a = *b;
	*b = t;
}

static void sift(int64_t *v, size_t n, size_t i)
{
	for (size_t c; (c = 2 * i + 1) < n; i = c) {
		if (c + 1 < n && v[c + 1] > v[c])
			c++;
		if (v[i] >= v[c])
			break;
		swap_i64(&v[i], &v[c]);
	}
}

static void heap_sort(int64_t *v, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift(v, n, i);
	for (size_t m = n; m > 1; m--) {
		swap_i64(&v[0], &v[m - 1]);
		sift(v, m - 1, 0);
	}
}

static int64_t median3(int64_t a, int64_t b, int64_t c)
{
	if (a > b)
		swap_i64(&a, &b);
	return c < a ? a : c > b ? b : c;
}

/* Puts the k-th smallest of v[lo..hi) at k, smaller ones before it and
 * larger ones after.  Quickselect with a three-way partition (equal
 * values end a step), a heap sort when the pivots keep coming out badly,
 * so that no input takes more than n log n. */
static void select_rank(int64_t *v, size_t lo, size_t hi, size_t k)
{
	size_t budget = 64;
	while (hi - lo > 16) {
		if (budget-- == 0) {
			heap_sort(v + lo, hi - lo);
			return;
		}
		int64_t pivot = median3(v[lo], v[lo + (hi - lo) / 2], v[hi - 1]);
		size_t lt = lo, i = lo, gt = hi;
		while (i < gt) {
			if (v[i] < pivot)
				swap_i64(&v[lt++], &v[i++]);
			else if (v[i] > pivot)
				swap_i64(&v[i], &v[--gt]);
			else
				i++;
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return;
	}
	for (size_t i = lo + 1; i < hi; i++)
		for (size_t j = i; j > lo && v[j - 1] > v[j]; j--)
			swap_i64(&v[j - 1], &v[j]);
}

/* ranks[0..m) (sorted) by quickselect, each above the one before. */
static void select_in_place(int64_t *vals, size_t n, const size_t *ranks, size_t m)
{
	for (size_t i = 0, lo = 0; i < m; i++) {
		if (ranks[i] < lo)
			continue; /* a rank already placed */
		select_rank(vals, lo, n, ranks[i]);
		lo = ranks[i] + 1;
	}
}

/* ---- selecting by histogram ---------------------------------------------------
 * Quickselect swaps each value a few times on branches a CPU cannot
 * predict: at 10M kernel durations, three percentiles took 0.3 s.  A
 * histogram of the values' leading bits tells which bucket holds each
 * rank; one more read-only pass copies those buckets out, and the
 * selection finishes inside them, narrower by 2^HIST_BITS a level. */

#define HIST_BITS 16
#define HIST_MIN ((size_t)1 << 10) /* below this, quickselect; above, two passes beat its
				    * swaps (mem_time_sum of 18432 copies: 0.59 -> 0.49 ms) */
#define MAX_RANKS 8                /* more ranks at once: quickselect */

struct hist {
	int64_t min;
	int shift;
	size_t nb;
	uint32_t *count;
};

/* Few values, or more ranks than from_buckets keeps: quickselect. */
static bool for_quickselect(size_t n, size_t m)
{
	return n < HIST_MIN || m > MAX_RANKS || n > UINT32_MAX;
}

static int bits_of(uint64_t x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

static size_t bucket_of(const struct hist *h, int64_t v)
{
	return (size_t)(((uint64_t)v - (uint64_t)h->min) >> h->shift);
}

/* Buckets of (v - min) >> shift over vals' range: at most 2^HIST_BITS,
 * fewer for fewer values.  False when out of memory. */
static bool hist_fill(struct hist *h, const struct values *vals, size_t n, int64_t min,
		      int64_t max)
{
	int want = bits_of(n) - 2 < HIST_BITS ? bits_of(n) - 2 : HIST_BITS;
	int have = bits_of((uint64_t)max - (uint64_t)min);
	h->min = min;
	h->shift = have > want ? have - want : 0;
	h->nb = (size_t)(((uint64_t)max - (uint64_t)min) >> h->shift) + 1;
	h->count = calloc(h->nb, sizeof *h->count);
	if (!h->count)
		return false;
	for (size_t i = 0; i < n; i++)
		h->count[bucket_of(h, value_at(vals, i))]++;
	return true;
}

static bool rank_values(int64_t *vals, size_t n, const size_t *ranks, size_t m, int64_t *out);

/* The buckets holding ranks[0..m): each one's values copied out (one
 * read of vals) and its ranks found among them. */
static bool from_buckets(const struct hist *h, const struct values *vals, size_t n,
			 const size_t *ranks, size_t m, int64_t *out)
{
	size_t bucket[MAX_RANKS], below[MAX_RANKS], nt = 0, total = 0;
	for (size_t i = 0, b = 0, seen = 0; i < m; i++) {
		for (; seen + h->count[b] <= ranks[i]; b++)
			seen += h->count[b];
		if (nt == 0 || bucket[nt - 1] != b) {
			bucket[nt] = b;
			below[nt++] = seen;
			total += h->count[b];
		}
	}
	int64_t *part = nst_big_alloc(total, sizeof *part);
	if (!part)
		return false;
	size_t start[MAX_RANKS], at[MAX_RANKS];
	for (size_t t = 0, pos = 0; t < nt; pos += h->count[bucket[t]], t++)
		start[t] = at[t] = pos;
	uint8_t *slot = calloc(h->nb, 1); /* bucket -> its target + 1, 0: none */
	if (!slot) {
		free(part);
		return false;
	}
	for (size_t t = 0; t < nt; t++)
		slot[bucket[t]] = (uint8_t)(t + 1);
	for (size_t i = 0; i < n; i++) {
		int64_t v = value_at(vals, i);
		uint8_t t = slot[bucket_of(h, v)];
		if (t)
			part[at[t - 1]++] = v;
	}
	free(slot);
	bool ok = true;
	for (size_t t = 0, i = 0; ok && t < nt; t++) {
		size_t local[MAX_RANKS], k = 0;
		for (size_t j = i; j < m && ranks[j] - below[t] < h->count[bucket[t]]; j++)
			local[k++] = ranks[j] - below[t];
		ok = rank_values(part + start[t], h->count[bucket[t]], local, k, out + i);
		i += k;
	}
	free(part);
	return ok;
}

/* The values at ranks[0..m) (sorted, below n) of vals, whose least and
 * greatest are min and max, by histogram, into out, reading vals only.
 * False when out of memory. */
static bool rank_by_histogram(const struct values *vals, size_t n, int64_t min, int64_t max,
			      const size_t *ranks, size_t m, int64_t *out)
{
	if (min == max) {
		for (size_t i = 0; i < m; i++)
			out[i] = min;
		return true;
	}
	struct hist h;
	if (!hist_fill(&h, vals, n, min, max))
		return false;
	bool ok = from_buckets(&h, vals, n, ranks, m, out);
	free(h.count);
	return ok;
}

/* The values at ranks[0..m) (sorted, below n) of vals, into out; vals
 * is left in no particular order.  False when out of memory. */
static bool rank_values(int64_t *vals, size_t n, const size_t *ranks, size_t m, int64_t *out)
{
	if (for_quickselect(n, m)) {
		select_in_place(vals, n, ranks, m);
		for (size_t i = 0; i < m; i++)
			out[i] = vals[ranks[i]];
		return true;
	}
	int64_t min = vals[0], max = vals[0];
	for (size_t i = 1; i < n; i++) {
		min = vals[i] < min ? vals[i] : min;
		max = vals[i] > max ? vals[i] : max;
	}
	return rank_by_histogram(&(struct values){ .vals = vals }, n, min, max, ranks, m, out);
}

/* ranks[0..m) ascending (a few: an insertion sort): each rank is then
 * looked for above the one before. */
static void sort_ranks(size_t *ranks, size_t m)
{
	for (size_t i = 1; i < m; i++)
		for (size_t j = i; j > 0 && ranks[j - 1] > ranks[j]; j--) {
			size_t t = ranks[j];
			ranks[j] = ranks[j - 1];
			ranks[j - 1] = t;
		}
}

void nst_select_ranks(int64_t *vals, size_t n, size_t *ranks, size_t m)
{
	sort_ranks(ranks, m);
	int64_t found[MAX_RANKS];
	if (for_quickselect(n, m) || !rank_values(vals, n, ranks, m, found)) {
		select_in_place(vals, n, ranks, m);
		return;
	}
	for (size_t i = 0; i < m; i++)
		vals[ranks[i]] = found[i];
}

bool nst_dist_of_unordered(int64_t *vals, size_t n, struct nst_dist *out)
{
	struct nst_dist d;
	if (!moments(vals, n, &d))
		return false;
	size_t at[2], m = quantile_ranks(n, 1, 2, at);
	nst_select_ranks(vals, n, at, m);
	median(vals, n, &d);
	*out = d;
	return true;
}

bool nst_dist_in_place_pays(size_t n)
{
	return !for_quickselect(n, 2);
}

enum nst_dist_status nst_dist_in_place(const int64_t *vals, const uint32_t *rows,
				       const struct nst_span *span, size_t n,
				       struct nst_dist *out)
{
	const struct values src = { vals, rows, span };
	struct nst_dist d;
	if (!moments_of(&src, n, &d))
		return NST_DIST_OVERFLOW;
	size_t at[2], m = quantile_ranks(n, 1, 2, at);
	int64_t found[2];
	if (!rank_by_histogram(&src, n, d.min, d.max, at, m, found))
		return NST_DIST_NOMEM;
	d.med = mid_of(found[0], found[m - 1]);
	*out = d;
	return NST_DIST_OK;
}

void nst_radix_pass(const uint64_t *src, uint64_t *dst, size_t n, int shift)
{
	size_t count[257] = { 0 };
	for (size_t i = 0; i < n; i++)
		count[((src[i] >> shift) & 0xff) + 1]++;
	for (int b = 0; b < 256; b++)
		count[b + 1] += count[b];
	for (size_t i = 0; i < n; i++)
		dst[count[(src[i] >> shift) & 0xff]++] = src[i];
}

/* LSD radix sort on bytes, skipping bytes that are equal in every key. */
static void radix_u64(uint64_t *v, uint64_t *tmp, size_t n)
{
	uint64_t or_all = 0, and_all = ~(uint64_t)0;
	for (size_t i = 0; i < n; i++) {
		or_all |= v[i];
		and_all &= v[i];
	}
	uint64_t *src = v, *dst = tmp;
	for (int shift = 0; shift < 64; shift += 8) {
		if ((((or_all ^ and_all) >> shift) & 0xff) == 0)
			continue;
		nst_radix_pass(src, dst, n, shift);
		uint64_t *t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof *v);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

void nst_sort_u64(uint64_t *v, size_t n)
{
	uint64_t *tmp = n > 256 ? malloc(n * sizeof *tmp) : NULL;
	if (tmp) {
		radix_u64(v, tmp, n);
		free(tmp);
	} else {
		qsort(v, n, sizeof *v, cmp_u64);
	}
}

void nst_sort_i64(int64_t *v, size_t n)
{
	/* Flipping the sign bit orders signed values as unsigned ones. */
	uint64_t *u = (uint64_t *)v;
	for (size_t i = 0; i < n; i++)
		u[i] ^= (uint64_t)1 << 63;
	nst_sort_u64(u, n);
	for (size_t i = 0; i < n; i++)
		u[i] ^= (uint64_t)1 << 63;
}
