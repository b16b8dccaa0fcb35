#include "core/sqlstat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* printf("%.*f", prec, x) of SQLite 3.42 for finite x; returns length. */
static size_t sqlite_fixed(char *buf, int prec, double x)
{
	char *p = buf;
	long double v = x;
	if (v < 0) {
		v = -v;
		*p++ = '-';
	}
	long double rounder = 0.5L;
	for (int i = 0; i < prec; i++)
		rounder /= 10.0L;
	uint64_t u;
	double rx = (double)v;
	memcpy(&u, &rx, sizeof u);
	int ex = -1023 + (int)((u >> 52) & 0x7ff);
	if (prec + ex / 3 < 15)
		rounder += v * 3e-16;
	v += rounder;

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

struct nst_mid nst_quantile(const int64_t *s, size_t n, int num, int den)
{
	double p = (double)n * num / den;
	size_t ip = (size_t)p;
	if ((double)ip == p && ip > 0)
		return mid_of(s[ip - 1], s[ip]);
	if (ip >= n)
		ip = n - 1;
	return mid_of(s[ip], s[ip]);
}

double nst_mid_value(struct nst_mid m)
{
	return m.is_int ? (double)m.i : m.r;
}

bool nst_dist_of(int64_t *vals, size_t n, struct nst_dist *out)
{
	struct nst_welford w = { 0 };
	double fsum = 0;
	int64_t sum = 0, mn = vals[0], mx = vals[0];
	for (size_t i = 0; i < n; i++) {
		int64_t v = vals[i];
		if (!nst_add_i64(&sum, v))
			return false;
		fsum += (double)v;
		mn = v < mn ? v : mn;
		mx = v > mx ? v : mx;
		nst_welford_add(&w, (double)v);
	}
	nst_sort_i64(vals, n);
	*out = (struct nst_dist){
		.n = n, .sum = sum, .min = mn, .max = mx,
		.avg = fsum / (double)n,
		.stdev = nst_welford_stdev(&w),
		.med = nst_quantile(vals, n, 1, 2),
		.q1 = nst_quantile(vals, n, 1, 4),
		.q3 = nst_quantile(vals, n, 3, 4),
	};
	return true;
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
