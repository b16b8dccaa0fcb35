/* Numbers as nsys writes them: Python's float repr for REAL cells, its
 * number grammar, and the column format's locale-aware re-printing. */
#include <float.h>
#include <stdbool.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "format/format_int.h"

/* ---- grammar ---- */

static size_t skip_digits(const char *s, size_t i, size_t len)
{
	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++;
	return i;
}

enum nst_numkind nst_num_kind(const char *s, size_t len)
{
	enum nst_numkind kind = NST_NUM_INT;
	size_t i = 0, start;

	if (i < len && (s[i] == '+' || s[i] == '-'))
		i++;
	start = i;
	i = skip_digits(s, i, len);
	/* a leading zero must stand alone: "012" and "00.5" are text */
	if (i == start || (s[start] == '0' && i - start > 1))
		return NST_NUM_NONE;
	if (i < len && s[i] == '.') {
		kind = NST_NUM_FIXED;
		i = skip_digits(s, i + 1, len);
	}
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		kind = NST_NUM_EXP;
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		start = i;
		i = skip_digits(s, i, len);
		if (i == start)
			return NST_NUM_NONE;
	}
	return i == len ? kind : NST_NUM_NONE;
}

bool nst_num_is_json(const char *s, size_t len, enum nst_numkind k)
{
	const char *dot;

	if (k == NST_NUM_NONE || s[0] == '+')
		return false;
	dot = memchr(s, '.', len);
	/* JSON wants a digit after the point: "1." and "1.e5" are not JSON */
	return !dot || (dot + 1 < s + len && dot[1] >= '0' && dot[1] <= '9');
}

/* ---- integers ---- */

/* Two digits at a time, from a table of "00" to "99": a trace prints
 * tens of millions of timestamps. */
static const char digit_pairs[201] =
	"0001020304050607080910111213141516171819"
	"2021222324252627282930313233343536373839"
	"4041424344454647484950515253545556575859"
	"6061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

static size_t decimal_digits(uint64_t u)
{
	size_t n = 1;
	for (uint64_t p = 10; n < 20 && u >= p; p *= 10)
		n++;
	return n;
}

size_t nst_num_itoa(int64_t v, char *out)
{
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	size_t len = (v < 0) + decimal_digits(u);
	char *p = out + len;

	*p = '\0';
	for (; u >= 100; u /= 100) {
		p -= 2;
		memcpy(p, digit_pairs + 2 * (u % 100), 2);
	}
	if (u >= 10) {
		p -= 2;
		memcpy(p, digit_pairs + 2 * u, 2);
	} else {
		*--p = (char)('0' + u);
	}
	if (v < 0)
		out[0] = '-';
	return len;
}

/* ---- Python repr ---- */

/* Shortest "%.*e" text that reads back as v: 15 digits are enough for
 * most values and then are also the shortest (%e keeps trailing zeros,
 * stripped by the caller); 17 always round-trip. */
static void shortest_exp(double v, char *buf, size_t size)
{
	/* subnormals carry fewer digits: 15 may round-trip without being
	 * the shortest */
	int first = fabs(v) < DBL_MIN ? 1 : 15;

	for (int prec = first; prec <= 17; prec++) {
		snprintf(buf, size, "%.*e", prec - 1, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

/* Splits "-d.ddde+XX" into digits without trailing zeros and exponent. */
static size_t split_exp(const char *e, char *digits, int *exp10)
{
	size_t n = 0;
	const char *p = e;

	for (; *p && *p != 'e'; p++)
		if (*p >= '0' && *p <= '9')
			digits[n++] = *p;
	while (n > 1 && digits[n - 1] == '0')
		n--;
	digits[n] = '\0';
	*exp10 = atoi(p + 1);
	return n;
}

static size_t layout_fixed(const char *d, size_t n, int e, char *out)
{
	size_t len = 0;

	if (e < 0) {
		len += (size_t)sprintf(out, "0.");
		for (int z = -e - 1; z > 0; z--)
			out[len++] = '0';
		memcpy(out + len, d, n);
		len += n;
	} else if ((size_t)e + 1 >= n) {
		memcpy(out, d, n);
		len = n;
		for (size_t z = n; z < (size_t)e + 1; z++)
			out[len++] = '0';
		out[len++] = '.';
		out[len++] = '0';
	} else {
		memcpy(out, d, (size_t)e + 1);
		len = (size_t)e + 1;
		out[len++] = '.';
		memcpy(out + len, d + e + 1, n - (size_t)e - 1);
		len += n - (size_t)e - 1;
	}
	out[len] = '\0';
	return len;
}

static size_t layout_sci(const char *d, size_t n, int e, char *out)
{
	size_t len = 0;

	out[len++] = d[0];
	if (n > 1) {
		out[len++] = '.';
		memcpy(out + len, d + 1, n - 1);
		len += n - 1;
	}
	len += (size_t)sprintf(out + len, "e%c%02d", e < 0 ? '-' : '+',
			       e < 0 ? -e : e);
	return len;
}

static size_t repr_special(double v, char *out)
{
	if (isnan(v))
		return (size_t)sprintf(out, "nan");
	if (isinf(v))
		return (size_t)sprintf(out, v < 0 ? "-inf" : "inf");
	return (size_t)sprintf(out, signbit(v) ? "-0.0" : "0.0");
}

/* ".0" after a whole number, without sprintf parsing a format for it:
 * most averages and medians of a summary are whole. */
static size_t point_zero(char *out)
{
	memcpy(out, ".0", 3);
	return 2;
}

/* Writes the integer m with a decimal point `decimals` digits from the
 * right ("0.05" for 5 and 2). */
static size_t put_scaled(int64_t m, int decimals, char *out)
{
	char digits[24];
	size_t n = nst_num_itoa(m < 0 ? -m : m, digits), len = 0;

	if (m < 0)
		out[len++] = '-';
	if (n <= (size_t)decimals) {
		out[len++] = '0';
		out[len++] = '.';
		for (size_t z = n; z < (size_t)decimals; z++)
			out[len++] = '0';
		memcpy(out + len, digits, n);
		len += n;
	} else {
		memcpy(out + len, digits, n - (size_t)decimals);
		len += n - (size_t)decimals;
		out[len++] = '.';
		memcpy(out + len, digits + n - decimals, (size_t)decimals);
		len += (size_t)decimals;
	}
	out[len] = '\0';
	return len;
}

/* Reports mostly print values rounded to a few decimals: when some
 * m / 10^k (k <= 4) is exactly v, that is the shortest repr, found
 * without printf and strtod.  The division of two exact doubles rounds
 * like strtod, so equality proves the round trip. */
static size_t repr_few_decimals(double v, char *out)
{
	static const double pow10[] = { 1, 10, 100, 1000, 10000 };
	double a = fabs(v);

	if (a < 1e-4 || a >= 1e11)
		return 0;
	for (int k = 0; k <= 4; k++) {
		double m = nearbyint(v * pow10[k]);
		if (m / pow10[k] != v)
			continue;
		if (k > 0)
			return put_scaled((int64_t)m, k, out);
		k = (int)nst_num_itoa((int64_t)m, out);
		return (size_t)k + point_zero(out + k);
	}
	return 0;
}

size_t nst_num_repr(double v, char *out)
{
	char e[40], digits[24];
	size_t n, sign;
	int exp10;

	if (isnan(v) || isinf(v) || v == 0)
		return repr_special(v, out);
	if (fabs(v) < 1e15 && v == (double)(int64_t)v) {
		n = nst_num_itoa((int64_t)v, out);
		return n + point_zero(out + n);
	}
	n = repr_few_decimals(v, out);
	if (n)
		return n;
	shortest_exp(v, e, sizeof e);
	n = split_exp(e, digits, &exp10);
	sign = v < 0;
	if (sign)
		out[0] = '-';
	/* Python switches to exponent form below 1e-4 and from 1e16 */
	if (exp10 < -4 || exp10 >= 16)
		return sign + layout_sci(digits, n, exp10, out + sign);
	return sign + layout_fixed(digits, n, exp10, out + sign);
}

/* ---- column re-printing ---- */

/* Inserts the locale's separator into a run of digits per `grouping`:
 * each byte is a group size from the right, the last one repeats and
 * CHAR_MAX stops grouping. */
static size_t group_digits(const char *d, size_t n, const struct nst_numeric *marks,
			   char *out)
{
	const char *sep = marks->thousands_sep, *g = marks->grouping;
	size_t seplen = strlen(sep), size = (unsigned char)*g;
	char rev[NST_NUMBUF];
	size_t r = 0, in_group = 0;

	for (size_t i = n; i-- > 0;) {
		if (seplen && size && size != CHAR_MAX && in_group == size) {
			for (size_t k = seplen; k-- > 0;)
				rev[r++] = sep[k];
			in_group = 0;
			if (g[1])
				size = (unsigned char)*++g;
		}
		rev[r++] = d[i];
		in_group++;
	}
	for (size_t i = 0; i < r; i++)
		out[i] = rev[r - 1 - i];
	return r;
}

/* Marks that change nothing (the C locale's): no separator, a '.'. */
bool nst_num_marks_plain(const struct nst_numeric *marks)
{
	return !marks->thousands_sep[0] && !strcmp(marks->decimal_point, ".");
}

/* C-locale number text to the locale's: grouped integer digits and the
 * locale's decimal point. */
static size_t localize(const char *s, const struct nst_numeric *marks, char *out)
{
	size_t len = 0, i = 0, start;
	const char *dp = marks->decimal_point;

	if (nst_num_marks_plain(marks)) {
		len = strlen(s);
		memcpy(out, s, len + 1);
		return len;
	}
	if (s[i] == '-' || s[i] == '+')
		out[len++] = s[i++];
	start = i;
	while (s[i] >= '0' && s[i] <= '9')
		i++;
	len += group_digits(s + start, i - start, marks, out + len);
	if (s[i] == '.') {
		memcpy(out + len, dp, strlen(dp));
		len += strlen(dp);
		i++;
	}
	while (s[i])
		out[len++] = s[i++];
	out[len] = '\0';
	return len;
}

static int mantissa_decimals(const char *s, size_t len)
{
	const char *dot = memchr(s, '.', len);
	int n = 0;

	if (!dot)
		return 0;
	for (dot++; dot < s + len && *dot >= '0' && *dot <= '9'; dot++)
		n++;
	return n > 340 ? 340 : n;
}

/* Whether s is a number as nst_num_itoa or "%.*f" print one, with at
 * most 15 digits: read and printed again it is s (15 decimal digits
 * survive a double both ways), so the reading can be skipped.  Leading
 * zeros and negative zeros are not: they print otherwise ("007" as 7). */
static bool printed_as_is(const char *s, size_t len, enum nst_numkind k)
{
	size_t i = s[0] == '-', digits = 0, nonzero = 0, point = 0;

	if (len == 0 || len > 17 || (k != NST_NUM_INT && k != NST_NUM_FIXED))
		return false;
	if (i < len && s[i] == '0' && i + 1 < len && s[i + 1] != '.')
		return false;
	for (; i < len; i++) {
		if (s[i] == '.' && k == NST_NUM_FIXED && !point && digits) {
			point = i;
			continue;
		}
		if (s[i] < '0' || s[i] > '9')
			return false;
		digits++;
		nonzero += s[i] != '0';
	}
	bool complete = k == NST_NUM_INT || (point && point + 1 < len);
	return complete && digits <= 15 && (s[0] != '-' || nonzero);
}

size_t nst_num_reformat(const char *s, size_t len, enum nst_numkind k,
			const struct nst_numeric *marks, bool group, char *out)
{
	char src[400], plain[NST_NUMBUF];

	if (printed_as_is(s, len, k)) {
		if (!group || nst_num_marks_plain(marks)) {
			memcpy(out, s, len);
			out[len] = '\0';
			return len;
		}
		memcpy(plain, s, len);
		plain[len] = '\0';
		return localize(plain, marks, out);
	}
	if (len >= sizeof src) {
		/* too long to be a value nsys could re-print faithfully */
		memcpy(out, s, len < NST_NUMBUF ? len : NST_NUMBUF - 1);
		out[len < NST_NUMBUF ? len : NST_NUMBUF - 1] = '\0';
		return strlen(out);
	}
	memcpy(src, s, len);
	src[len] = '\0';
	if (k == NST_NUM_INT)
		nst_num_itoa(strtoll(src, NULL, 10), plain);
	else if (k == NST_NUM_FIXED)
		nst_num_fixed(strtod(src, NULL), mantissa_decimals(s, len), plain);
	else
		snprintf(plain, sizeof plain, "%.*e", mantissa_decimals(s, len),
			 strtod(src, NULL));
	if (!group) {
		len = strlen(plain);
		memcpy(out, plain, len + 1);
		return len;
	}
	return localize(plain, marks, out);
}

int nst_num_frac(const char *s, size_t len, const struct nst_numeric *marks)
{
	const char *dp = marks->decimal_point, *end = s + len;
	size_t dplen = strlen(dp);

	if (dplen == 0)
		return (int)nst_utf8_chars(s, len); /* as the empty string matches first */
	/* the point's first byte found by memchr: a call per cell, not per byte */
	for (const char *p = s; (p = memchr(p, dp[0], (size_t)(end - p))) != NULL; p++)
		if ((size_t)(end - p) >= dplen && !memcmp(p, dp, dplen))
			return (int)nst_utf8_chars(p + dplen, (size_t)(end - p - dplen));
	return -1;
}

/* "%.*f" without printf for the common case: scaled by 10^decimals the
 * value is an integer well inside double precision and not near a tie,
 * where the product's rounding could differ from printf's exact one. */
size_t nst_num_fixed(double v, int decimals, char *out)
{
	static const double pow10[] = { 1, 10, 100, 1000, 10000 };
	double r, m, frac;

	if (decimals >= 0 && decimals <= 4 && fabs(v) < 1e12) {
		r = v * pow10[decimals];
		m = nearbyint(r);
		frac = fabs(r - m);
		/* below 2^52 the product keeps a fraction to judge ties by;
		 * a negative that rounds to zero prints "-0.000" */
		if (fabs(r) < 4e15 && frac < 0.499999 && !(m == 0 && signbit(v)))
			return decimals ? put_scaled((int64_t)m, decimals, out)
					: nst_num_itoa((int64_t)m, out);
	}
	return (size_t)snprintf(out, NST_NUMBUF, "%.*f", decimals, v);
}
