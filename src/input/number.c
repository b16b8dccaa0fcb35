/* A JSON number's text as an exact integer: Kineto writes times as
 * microseconds with up to three decimals, which are whole nanoseconds, and
 * a double cannot hold them (1712195495505543.123 us is not one); so the
 * digits themselves are scaled and rounded, never a binary fraction. */
#include "input/input.h"

/* The digits of a number, the integer part's and the fraction's as one
 * string, without the point. */
struct digits {
	const char *ip, *fp;
	size_t ni, nf;
};

static int digit_at(const struct digits *d, size_t k)
{
	return (k < d->ni ? d->ip[k] : d->fp[k - d->ni]) - '0';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static size_t skip_digits(const char *s, size_t i, size_t len)
{
	while (i < len && is_digit(s[i]))
		i++;
	return i;
}

/* "e[+-]digits" from s[*i]; huge exponents clamp at +-10^9, which is
 * beyond any number a token can write. */
static bool exponent(const char *s, size_t *i, size_t len, int64_t *e)
{
	*e = 0;
	if (*i == len || (s[*i] != 'e' && s[*i] != 'E'))
		return true;
	bool neg = false;
	if (++*i < len && (s[*i] == '+' || s[*i] == '-'))
		neg = s[(*i)++] == '-';
	size_t start = *i;
	for (; *i < len && is_digit(s[*i]); ++*i)
		if (*e < 1000000000)
			*e = *e * 10 + (s[*i] - '0');
	if (*i == start)
		return false;
	if (neg)
		*e = -*e;
	return true;
}

/* What Kineto writes nearly always, at a fraction of the general path's
 * cost (a trace has millions of numbers): digits, with at most scale of
 * them after a point, 18 digits in all once scaled; false for anything
 * else, which the general path reads. */
static bool plain(const char *s, size_t len, int scale, int64_t *out)
{
	static const int64_t POW10[] = { 1, 10, 100, 1000 };
	if (len == 0 || len > 19 || scale < 0 || scale > 3)
		return false;
	int64_t v = 0;
	int nf = -1; /* digits after the point; -1: no point */
	int ndigits = 0;
	for (size_t i = 0; i < len; i++) {
		if (is_digit(s[i])) {
			if (++ndigits > 18)
				return false;
			v = v * 10 + (s[i] - '0');
			nf += nf >= 0;
		} else if (s[i] == '.' && nf < 0 && i > 0 && i + 1 < len) {
			nf = 0;
		} else {
			return false;
		}
	}
	int shift = scale - (nf < 0 ? 0 : nf);
	if (shift < 0 || ndigits + shift > 18) /* beyond 18 digits: the general path's range checks */
		return false;
	*out = v * POW10[shift];
	return true;
}

enum nst_num nst_decimal_scaled(const char *s, size_t len, int scale, bool round,
				int64_t *out)
{
	if (plain(s, len, scale, out))
		return NST_NUM_OK;
	*out = 0;
	size_t i = 0;
	bool neg = i < len && s[i] == '-';
	i += neg;
	struct digits d = { .ip = s + i };
	i = skip_digits(s, i, len);
	d.ni = (size_t)(s + i - d.ip);
	if (d.ni == 0)
		return NST_NUM_SYNTAX;
	if (i < len && s[i] == '.') {
		d.fp = s + ++i;
		i = skip_digits(s, i, len);
		d.nf = (size_t)(s + i - d.fp);
		if (d.nf == 0)
			return NST_NUM_SYNTAX;
	}
	int64_t e;
	if (!exponent(s, &i, len, &e) || i != len)
		return NST_NUM_SYNTAX;

	/* value = D * 10^p, D the digits from the first to the last that is
	 * not 0, as an integer */
	size_t n = d.ni + d.nf, first = 0;
	while (first < n && digit_at(&d, first) == 0)
		first++;
	if (first == n)
		return NST_NUM_OK; /* zero, whatever its exponent */
	int64_t p = e - (int64_t)d.nf + scale;
	for (; digit_at(&d, n - 1) == 0; n--)
		p++;
	int64_t sig = (int64_t)(n - first);
	int64_t whole = sig + p; /* digits before the point, once scaled */
	if (whole > 19)
		return NST_NUM_RANGE; /* at least 10^19 */
	uint64_t mag = 0;
	for (int64_t k = 0; k < sig && k < whole; k++)
		mag = mag * 10 + (uint64_t)digit_at(&d, first + (size_t)k);
	for (int64_t k = sig; k < whole; k++)
		mag *= 10;
	if (whole < sig) {
		/* digits below the unit, the last of them not 0: the first says
		 * which way to round */
		int next = whole >= 0 ? digit_at(&d, first + (size_t)whole) : 0;
		if (!round)
			return NST_NUM_FRACTION;
		mag += next >= 5;
	}
	uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	if (mag > limit)
		return NST_NUM_RANGE;
	*out = neg ? (mag == limit ? INT64_MIN : -(int64_t)mag) : (int64_t)mag;
	return NST_NUM_OK;
}
