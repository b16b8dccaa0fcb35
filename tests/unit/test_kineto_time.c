/* A Kineto trace's ts and dur (microseconds, as JSON numbers) to exact
 * nanoseconds, and the integers of its args, through nst_decimal_scaled:
 * every digit counts, nothing goes through a double, more than three
 * decimals round to the nearest nanosecond (halves away from zero). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "input/input.h"

static void expect(const char *text, int scale, bool round, enum nst_num want, int64_t want_v)
{
	int64_t v = 12345;
	enum nst_num got = nst_decimal_scaled(text, strlen(text), scale, round, &v);
	if (got != want || (want == NST_NUM_OK && v != want_v))
		fail_msg("'%s' (scale %d%s): status %d value %lld, expected status %d value %lld",
			 text, scale, round ? ", rounding" : "", (int)got, (long long)v, (int)want,
			 (long long)want_v);
}

static void us(const char *text, int64_t ns) { expect(text, 3, true, NST_NUM_OK, ns); }
static void us_fails(const char *text, enum nst_num why) { expect(text, 3, true, why, 0); }
static void integer(const char *text, int64_t v) { expect(text, 0, false, NST_NUM_OK, v); }
static void integer_fails(const char *text, enum nst_num why) { expect(text, 0, false, why, 0); }

/* what Kineto writes: integers, or up to three decimals */
static void kineto_times(void **state)
{
	(void)state;
	us("0", 0);
	us("1", 1000);
	us("12", 12000);
	us("1.5", 1500);
	us("1.28", 1280);
	us("156.777", 156777);
	us("0.001", 1);
	us("-3.25", -3250);
	/* ts of the real traces: beyond what a double holds to the nanosecond */
	us("4458676522690.655", 4458676522690655);
	us("1712195495505543.2", INT64_C(1712195495505543200));
	us("1712195495505543.123", INT64_C(1712195495505543123));
	us("1695835542514261", INT64_C(1695835542514261000));
	us("2413669096090.1", INT64_C(2413669096090100));
}

/* exponents and more decimals: exact, then rounded to the nearest ns */
static void exponents_and_rounding(void **state)
{
	(void)state;
	us("1e3", 1000000);
	us("1E3", 1000000);
	us("1.5e+2", 150000);
	us("2.5e-3", 3);        /* 2.5 ns: halves away from zero */
	us("-2.5e-3", -3);
	us("1.0005", 1001);     /* 1000.5 ns */
	us("1.00049999", 1000); /* 1000.49999 ns */
	us("1.0004", 1000);
	us("-1.0005", -1001);
	us("1.0006", 1001);
	us("0.0004", 0);
	us("0.0005", 1);
	us("1.2340000000", 1234); /* trailing zeros are exact */
	us("0.000000000000001e15", 1000);
	us("123456789e-9", 123);  /* 123.456789 ns */
	us("123456789e-12", 0);   /* 0.123456789 ns */
	us("123456789e-6", 123457);
	us("1e-999999999999999", 0);
	us("0e999999999999", 0);
	us("-0", 0);
	us("-0.0", 0);
	/* many digits, one far below the nanosecond */
	char text[2100] = "1.";
	memset(text + 2, '0', 2000);
	strcpy(text + 2002, "9");
	us(text, 1000);
	text[2] = '9';
	us(text, 1900);
	text[3] = '9';
	text[4] = '9';
	text[5] = '5';
	us(text, 2000); /* 1.9995000...9 us: 1999.5 ns and more */
}

static void limits(void **state)
{
	(void)state;
	us("9223372036854775.807", INT64_MAX);
	us_fails("9223372036854775.808", NST_NUM_RANGE);
	us("-9223372036854775.808", INT64_MIN);
	us_fails("-9223372036854775.809", NST_NUM_RANGE);
	us("9223372036854775.8069", INT64_MAX);
	us_fails("9223372036854775.8075", NST_NUM_RANGE); /* rounds up past it */
	us_fails("1e17", NST_NUM_RANGE);
	us_fails("1e999999999999999999999", NST_NUM_RANGE);
	us_fails("-1e400", NST_NUM_RANGE);
	us_fails("99999999999999999999999", NST_NUM_RANGE);
}

static void not_numbers(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"", "-", "+1", ".5", "1.", "1.e3", "1e", "1e+", "1e-", "1.5x", " 1", "1 ",
		"NaN", "Infinity", "-Infinity", "0x10", "1,5", "\"1\"", "1..2", "--1", "1e5.5",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		us_fails(bad[i], NST_NUM_SYNTAX);
	int64_t v;
	/* the length given is what counts, not a NUL */
	assert_int_equal(nst_decimal_scaled("12345", 3, 3, true, &v), NST_NUM_OK);
	assert_int_equal(v, 123000);
	assert_int_equal(nst_decimal_scaled("1\0" "5", 3, 0, false, &v), NST_NUM_SYNTAX);
}

/* ids and sizes: exact integers, whatever their spelling */
static void integers(void **state)
{
	(void)state;
	integer("0", 0);
	integer("7", 7);
	integer("-1", -1);
	integer("7.0", 7);
	integer("7.000e2", 700);
	integer("7e2", 700);
	integer("12845056", 12845056);
	integer("42297524224", INT64_C(42297524224));
	integer("1711964646000000000", INT64_C(1711964646000000000));
	integer("9223372036854775807", INT64_MAX);
	integer("-9223372036854775808", INT64_MIN);
	integer("100000000000000000000e-2", INT64_C(1000000000000000000));
	integer("1e18", INT64_C(1000000000000000000));
	integer_fails("9223372036854775808", NST_NUM_RANGE);
	integer_fails("1e19", NST_NUM_RANGE);
	integer_fails("7.5", NST_NUM_FRACTION);
	integer_fails("0.1", NST_NUM_FRACTION);
	integer_fails("5e-1", NST_NUM_FRACTION);
	integer_fails("1.000000000000000000001", NST_NUM_FRACTION);
}

/* where plain numbers stop taking the short path (18 digits once scaled)
 * and the general one takes over: the same values on both sides */
static void eighteen_digits(void **state)
{
	(void)state;
	integer("999999999999999999", 999999999999999999);
	integer("1000000000000000000", 1000000000000000000);
	integer("9223372036854775807", INT64_MAX);
	integer_fails("9223372036854775808", NST_NUM_RANGE);
	us("999999999999999.999", 999999999999999999);
	us("999999999999999.99", 999999999999999990);
	us("999999999999999", 999999999999999000);
	us("1000000000000000", 1000000000000000000);
	us("1000000000000000.5", 1000000000000000500);
	us_fails("9999999999999999.9", NST_NUM_RANGE);
	us("0.001", 1);
	us("0.5", 500);
	us_fails("1.", NST_NUM_SYNTAX);
	us_fails(".5", NST_NUM_SYNTAX);
	us_fails("1.2.3", NST_NUM_SYNTAX);
}

/* every value with up to three decimals, against the digits moved by hand */
static void three_decimals_exactly(void **state)
{
	(void)state;
	uint64_t x = 88172645463325252ull;
	for (int i = 0; i < 100000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		int64_t ns = (int64_t)(x % 9000000000000000000ull) >> (x % 50);
		int decimals = (int)(x >> 60) % 4;
		char text[64];
		int64_t whole = ns / 1000, frac = ns % 1000;
		if (decimals == 0)
			ns = whole * 1000, snprintf(text, sizeof text, "%lld", (long long)whole);
		else if (decimals == 1)
			ns = whole * 1000 + frac / 100 * 100,
			snprintf(text, sizeof text, "%lld.%01lld", (long long)whole, (long long)(frac / 100));
		else if (decimals == 2)
			ns = whole * 1000 + frac / 10 * 10,
			snprintf(text, sizeof text, "%lld.%02lld", (long long)whole, (long long)(frac / 10));
		else
			snprintf(text, sizeof text, "%lld.%03lld", (long long)whole, (long long)frac);
		us(text, ns);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kineto_times),
		cmocka_unit_test(exponents_and_rounding),
		cmocka_unit_test(limits),
		cmocka_unit_test(not_numbers),
		cmocka_unit_test(integers),
		cmocka_unit_test(three_decimals_exactly),
		cmocka_unit_test(eighteen_digits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
