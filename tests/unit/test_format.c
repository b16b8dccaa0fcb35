/* Output formats.  Every expected text marked "nsys" was printed by nsys
 * 2024.2.3 (LC_ALL=C.UTF-8 unless noted, written to a file with -o) for
 * the SQL in the comment, run through its _sql report; the cells here are
 * what SQLite returns for that SQL.  Cases marked "deviation" check where
 * nstats deliberately differs (docs/deviations.md). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "format/format.h"

#define I(x) { .kind = NST_INT, .v.i = (x) }
#define R(x) { .kind = NST_REAL, .v.r = (x) }
#define T(x) { .kind = NST_TEXT, .v.s = (x) }
#define NUL { .kind = NST_NULL }
#define ELL "\xE2\x80\xA6"
#define TITLE "\n ** DEBUG: SQL Statement (_sql):\n\n"
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The locale marks the next render uses, as the command line takes them
 * from localeconv(). */
static struct { const char *sep, *grouping, *point; } marks = { "", "", "." };

static void use_marks(const char *sep, const char *grouping, const char *point)
{
	marks.sep = sep;
	marks.grouping = grouping;
	marks.point = point;
}

/* Renders nrows rows of ncols cells with format `fmt` into a string. */
static char *render_to(const char *fmt, bool console, const char *const *cols,
		       size_t ncols, const struct nst_cell *cells, size_t nrows)
{
	struct nst_fmt_spec spec;
	struct nst_error err = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct nst_fmt *f;
	struct nst_sink sink;

	assert_non_null(out);
	assert_int_equal(nst_fmt_parse(fmt, &spec, &err), NST_OK);
	spec.console = console;
	nst_fmt_set_numeric(&spec, marks.sep, marks.grouping, marks.point);
	f = nst_fmt_open(&spec, out, "DEBUG: SQL Statement", "_sql");
	assert_non_null(f);
	sink = nst_fmt_sink(f);
	assert_int_equal(sink.begin(sink.ctx, cols, ncols, &err), NST_OK);
	for (size_t r = 0; r < nrows; r++)
		assert_int_equal(sink.row(sink.ctx, cells + r * ncols, &err), NST_OK);
	assert_int_equal(nst_fmt_end(f, &err), NST_OK);
	fclose(out);
	return buf;
}

static char *render(const char *fmt, const char *const *cols, size_t ncols,
		    const struct nst_cell *cells, size_t nrows)
{
	return render_to(fmt, false, cols, ncols, cells, nrows);
}

static void expect(const char *fmt, const char *const *cols, size_t ncols,
		   const struct nst_cell *cells, size_t nrows, const char *want)
{
	char *got = render(fmt, cols, ncols, cells, nrows);
	assert_string_equal(got, want);
	free(got);
}

static int reset_locale(void **state)
{
	(void)state;
	use_marks("", "", ".");
	return 0;
}

/* ---- values: Python's str(float), integers, NULL ---- */

/* select 1.5 as a, 5991.0 as b, 1e20 as c, 1.5e-7 as d, 1e16 as e,
 * 1e15 as f, 0.0001 as g, -1.989032661366619e+244 as h,
 * 2.1367106979533398e-33 as i, 1.2345678901234568e+17 as j, 0.1 as k,
 * 17973 as l, -1234567 as m, NULL as n, 5e-324 as o   -- csv, nsys */
static void test_float_repr(void **state)
{
	static const char *const cols[] = { "a", "b", "c", "d", "e", "f", "g",
		"h", "i", "j", "k", "l", "m", "n", "o" };
	const struct nst_cell row[] = { R(1.5), R(5991.0), R(1e20), R(1.5e-7),
		R(1e16), R(1e15), R(0.0001), R(-1.989032661366619e+244),
		R(2.1367106979533398e-33), R(1.2345678901234568e+17), R(0.1),
		I(17973), I(-1234567), NUL, R(5e-324) };
	(void)state;
	expect("csv", cols, COUNT(cols), row, 1,
	       "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o\n"
	       "1.5,5991.0,1e+20,1.5e-07,1e+16,1000000000000000.0,0.0001,"
	       "-1.989032661366619e+244,2.1367106979533398e-33,"
	       "1.2345678901234568e+17,0.1,17973,-1234567,,5e-324\n");
}

/* Integers at every digit count and both ends of int64, against printf. */
static void test_integers(void **state)
{
	static const char *const cols[] = { "v" };
	int64_t v[64];
	size_t n = 0;
	char want[64 * 24 + 8] = "v\n", *w = want + 2;
	(void)state;
	v[n++] = INT64_MIN;
	v[n++] = INT64_MAX;
	v[n++] = 0;
	for (int64_t p = 1; n + 4 <= COUNT(v) && p <= INT64_MAX / 10; p *= 10) {
		v[n++] = p;
		v[n++] = p - 1;
		v[n++] = -p;
		v[n++] = -(p * 9 + 1);
	}
	struct nst_cell rows[64];
	for (size_t i = 0; i < n; i++) {
		rows[i] = (struct nst_cell)I(v[i]);
		w += sprintf(w, "%lld\n", (long long)v[i]);
	}
	expect("csv", cols, 1, rows, n, want);
}

/* Quoting past the first eight bytes, where csv looks at a word at a time. */
static void test_csv_quoting_long(void **state)
{
	static const char *const cols[] = { "a", "b", "c", "d", "e" };
	const struct nst_cell row[] = {
		T("abcdefgh"), T("abcdefghi,j"), T("0123456789abcdef\"x\"\"y"),
		T("0123456789abc\rdef"), T("templ<int, 4>(float const *)"),
	};
	(void)state;
	expect("csv", cols, COUNT(cols), row, 1,
	       "a,b,c,d,e\n"
	       "abcdefgh,\"abcdefghi,j\",\"0123456789abcdef\"\"x\"\"\"\"y\","
	       "\"0123456789abc\rdef\",\"templ<int, 4>(float const *)\"\n");
}

/* ---- unit conversion, every category ---- */

static const char *const unit_cols[] = { "A:dur_ns", "B:ts_ns", "C:mem_B",
	"D:thru_B", "E:addr_uint", "F:gid_gidint", "G:ratio_%", "H:foo_bar",
	"I:dur", "J:dur_xx", "K:a:dur_us", "L:DUR_NS", "N:dur_us", "O:mem_KB",
	"Q:dur_sec", "R:addr_uint", "S:dur_ns", "T:dur_sec" };

static void expect_units(const char *fmt, const char *want)
{
	const struct nst_cell row[] = { I(17973), I(17973), I(4194304),
		I(4194304), I(139637976727552), I(72623859790382856), R(54.5),
		I(5), I(5), I(5), I(5), I(5), R(1.5), I(7), I(3), I(-1),
		T("abc"), I(9223372036854775807) };
	expect(fmt, unit_cols, COUNT(unit_cols), row, 1, want);
}

/* The SQL of unit_cols with those values; each csv variant: nsys */
static void test_units_default(void **state)
{
	(void)state;
	expect_units("csv",
		"A (ns),B (ns),C (MB),D (MB/s),E,F,G (%),H,I (ns),J,K,L (ns),"
		"N (ns),O (MB),Q (ns),R,S (ns),T (ns)\n"
		"17973,17973,4.194,4.194,0x7F0000000000,72623859790382856,54.5,"
		"5,5,5,5,5,1500.0,0.007,3000000000,-1,abc,-1000000000\n");
}

static void test_units_us_kb(void **state)
{
	(void)state;
	expect_units("csv:time=us:mem=KB",
		"A (us),B (us),C (KB),D (MB/s),E,F,G (%),H,I (us),J,K,L (us),"
		"N (us),O (KB),Q (us),R,S (us),T (us)\n"
		"17.973,17.973,4194.30,4.194,0x7F0000000000,72623859790382856,"
		"54.5,5,0.005,5,5,0.005,1.5,7,3000000,-1,abc,-1000000\n");
}

static void test_units_ms_b(void **state)
{
	(void)state;
	expect_units("csv:time=ms:mem=B",
		"A (ms),B (ms),C (B),D (MB/s),E,F,G (%),H,I (ms),J,K,L (ms),"
		"N (ms),O (B),Q (ms),R,S (ms),T (ms)\n"
		"0.0180,0.0180,4194304,4.194,0x7F0000000000,72623859790382856,"
		"54.5,5,0.0000,5,5,0.0000,0.0015,7000.0,3000,-1,abc,-1000\n");
}

static void test_units_sec_kib_uint_gidhex(void **state)
{
	(void)state;
	expect_units("csv:time=sec:mem=KiB:addr=uint:gid=gidhex",
		"A (sec),B (sec),C (KiB),D (MB/s),E,F,G (%),H,I (sec),J,K,"
		"L (sec),N (sec),O (KiB),Q (sec),R,S (sec),T (sec)\n"
		"0.0000,0.0000,4096.00,4.194,139637976727552,0x102030405060708,"
		"54.5,5,0.0000,5,5,0.0000,0.0000,6.84,3,-1,abc,"
		"9223372036854775807\n");
}

static void test_units_gidsubint_bytes(void **state)
{
	(void)state;
	expect_units("csv:gid=gidsubint:bytes=GiB",
		"A (ns),B (ns),C (GiB),D (GiB/s),E,F,G (%),H,I (ns),J,K,L (ns),"
		"N (ns),O (GiB),Q (ns),R,S (ns),T (ns)\n"
		"17973,17973,0.004,0.004,0x7F0000000000,"
		"001:002:00197637:00395016,54.5,5,5,5,5,5,1500.0,0.000,"
		"3000000000,-1,abc,-1000000000\n");
}

static void test_units_noconv(void **state)
{
	(void)state;
	expect_units("csv:gid=gidsubhex:noconv",
		"A (ns),B (ns),C (B),D (B/s),E,F,G (%),H,I (ns),J,K,L (ns),"
		"N (us),O (KB),Q (sec),R,S (ns),T (sec)\n"
		"17973,17973,4194304,4194304,139637976727552,72623859790382856,"
		"54.5,5,5,5,5,5,1.5,7,3,-1,abc,9223372036854775807\n");
}

static void test_units_per_category(void **state)
{
	(void)state;
	expect_units("csv:nohdrunit:dur=us:ts=ms:thru=KB",
		"A,B,C,D,E,F,G,H,I,J,K,L,N,O,Q,R,S,T\n"
		"17.973,0.0180,4.194,4194.30,0x7F0000000000,72623859790382856,"
		"54.5,5,0.005,5,5,0.005,1.5,0.007,3000000,-1,abc,-1000000\n");
}

/* select 72623859790382856 as "F:gid" ... -- csv:gid=gidsubhex, nsys */
static void test_units_gidsubhex(void **state)
{
	static const char *const cols[] = { "F:gid", "H:gid", "I:gid" };
	const struct nst_cell row[] = { I(72623859790382856), I(-1), R(1.5) };
	(void)state;
	expect("csv:gid=gidsubhex", cols, 3, row, 1,
	       "F,H,I\n01:02:030405:060708,FF:FF:FFFFFF:FFFFFF,1.5\n");
}

/* select 255 as "b:addr", '0xFF' as "c:addr_hex", '0xFF' as "d:addr_uint"
 * -- csv:addr=uint, nsys: an untagged address is hex text */
static void test_units_hex_source(void **state)
{
	static const char *const cols[] = { "b:addr", "c:addr_hex",
					    "d:addr_uint" };
	const struct nst_cell row[] = { I(255), T("0xFF"), T("0xFF") };
	(void)state;
	expect("csv:addr=uint", cols, 3, row, 1, "b,c,d\n597,255,0xFF\n");
}

/* ---- column: separators, alignment, clipping ---- */

static const char *const sep_cols[] = { "a", "b", "c", "d", "e", "f", "k" };

static void expect_separators(const char *fmt, const char *want)
{
	const struct nst_cell row[] = { I(17973), R(5991.0), R(1234567.125),
		I(-1234567), R(1e20), R(1.5e-7), I(12345678901234567) };
	expect(fmt, sep_cols, COUNT(sep_cols), row, 1, want);
}

/* select 17973 as a, 5991.0 as b, 1234567.125 as c, -1234567 as d,
 * 1e20 as e, 1.5e-7 as f, 12345678901234567 as k
 * -- column, nsys with LC_ALL=en_US.UTF-8 */
static void test_grouping_en_us(void **state)
{
	(void)state;
	use_marks(",", "\3", ".");
	expect_separators("column", TITLE
		"   a        b           c            d         e       f      "
		"         k           \n"
		" ------  -------  -------------  ----------  -----  -------  "
		"----------------------\n"
		" 17,973  5,991.0  1,234,567.125  -1,234,567  1e+20  1.5e-07  "
		"12,345,678,901,234,567\n");
}

/* the same SQL -- table, nsys with LC_ALL=en_IN.UTF-8 (grouping 3;2) */
static void test_grouping_en_in(void **state)
{
	(void)state;
	use_marks(",", "\3\2", ".");
	expect_separators("table", TITLE
		"+--------+---------+---------------+------------+-------+-----"
		"----+--------------------------+\n"
		"|   a    |    b    |       c       |     d      |   e   |    f"
		"    |            k             |\n"
		"+--------+---------+---------------+------------+-------+-----"
		"----+--------------------------+\n"
		"| 17,973 | 5,991.0 | 12,34,567.125 | -12,34,567 | 1e+20 | 1.5e"
		"-07 | 12,34,56,78,90,12,34,567 |\n"
		"+--------+---------+---------------+------------+-------+-----"
		"----+--------------------------+\n");
}

/* the same SQL -- column:nofmt, nsys with LC_ALL=en_US.UTF-8 */
static void test_nofmt(void **state)
{
	(void)state;
	use_marks(",", "\3", ".");
	expect_separators("column:nofmt", TITLE
		"   a      b          c          d        e       f             "
		"k        \n"
		" -----  ------  -----------  --------  -----  -------  --------"
		"---------\n"
		" 17973  5991.0  1234567.125  -1234567  1e+20  1.5e-07  "
		"12345678901234567\n");
}

/* csv and json never group, even under a grouping locale (nsys) */
static void test_grouping_not_in_csv(void **state)
{
	static const char *const cols[] = { "a", "b" };
	const struct nst_cell row[] = { I(17973), R(5991.0) };
	(void)state;
	use_marks(",", "\3", ".");
	expect("csv", cols, 2, row, 1, "a,b\n17973,5991.0\n");
	expect("htable", cols, 2, row, 1,
	       "<table>\n  <thead>\n    <tr>\n      <th>a</th>\n"
	       "      <th>b</th>\n    </tr>\n  </thead>\n  <tbody>\n"
	       "    <tr>\n      <td>17973</td>\n      <td>5991.0</td>\n"
	       "    </tr>\n  </tbody>\n</table>\n");
}

/* select 'abcdefghijkl' as HEADERLONGNAME, 1234567 as N
 * -- column:colmax=5, nsys with LC_ALL=en_US.UTF-8 */
static void test_clip(void **state)
{
	static const char *const cols[] = { "HEADERLONGNAME", "N" };
	const struct nst_cell row[] = { T("abcdefghijkl"), I(1234567) };
	(void)state;
	use_marks(",", "\3", ".");
	expect("column:colmax=5", cols, 2, row, 1, TITLE
	       " HEAD" ELL "    N  \n"
	       " -----  -----\n"
	       " abcd" ELL "  1,23" ELL "\n");
}

/* select '日本語日本語' as cjk, 'aé' as c2 -- table:colmax=4, nsys:
 * widths count characters, not bytes */
static void test_clip_utf8(void **state)
{
	static const char *const cols[] = { "cjk", "c2" };
	const struct nst_cell row[] = { T("日本語日本語"), T("aé") };
	(void)state;
	expect("table:colmax=4", cols, 2, row, 1, TITLE
	       "+------+----+\n"
	       "| cjk  | c2 |\n"
	       "+------+----+\n"
	       "| 日本語" ELL " | aé |\n"
	       "+------+----+\n");
}

/* select 12.5 as H union all select 'abc' union all select 1
 * union all select 1.5e-7 union all select 1e20 union all select 0.125
 * union all select NULL union all select 'inf' union all select '-0'
 * -- column, nsys: numbers line up on the point, texts and exponents
 * stay flush right */
static void test_decimal_alignment(void **state)
{
	static const char *const cols[] = { "H" };
	const struct nst_cell rows[] = { R(12.5), T("abc"), I(1), R(1.5e-7),
		R(1e20), R(0.125), NUL, T("inf"), T("-0") };
	(void)state;
	expect("column", cols, 1, rows, COUNT(rows), TITLE
	       "    H   \n"
	       " -------\n"
	       "  12.5  \n"
	       "     abc\n"
	       "   1    \n"
	       " 1.5e-07\n"
	       "   1e+20\n"
	       "   0.125\n"
	       "        \n"
	       "     inf\n"
	       "   0    \n");
}

/* select 1 as HHHHHHHH1, 'abc' as HHHHHHHH2, 'abc' as HHHHHHHH3,
 * 1 as HHHHHHHH4, NULL as HHHHHHHH5 union all select 'abc', 1, 2, 2, 'b'
 * union all select 5, 3, 'x', 'y', 3 union all select 6, 4, 4, 4, NULL
 * -- column, nsys: the majority of non-NULL cells picks the alignment */
static void test_alignment_vote(void **state)
{
	static const char *const cols[] = { "HHHHHHHH1", "HHHHHHHH2",
		"HHHHHHHH3", "HHHHHHHH4", "HHHHHHHH5" };
	const struct nst_cell rows[] = {
		I(1), T("abc"), T("abc"), I(1), NUL,
		T("abc"), I(1), I(2), I(2), T("b"),
		I(5), I(3), T("x"), T("y"), I(3),
		I(6), I(4), I(4), I(4), NUL,
	};
	(void)state;
	expect("column", cols, 5, rows, 4, TITLE
	       " HHHHHHHH1  HHHHHHHH2  HHHHHHHH3  HHHHHHHH4  HHHHHHHH5\n"
	       " ---------  ---------  ---------  ---------  ---------\n"
	       "         1        abc  abc                1           \n"
	       "       abc          1  2                  2  b        \n"
	       "         5          3  x                  y  3        \n"
	       "         6          4  4                  4           \n");
}

/* select 1 as H, 'ab' as T union all select 0.125, 'abcd'
 * union all select 123, 'abcdefgh' union all select 12, 'xyzw'
 * -- column:autolines=2, nsys (en_US): later rows keep the layout and
 * are cut, padding included */
static void test_autolines_stream(void **state)
{
	static const char *const cols[] = { "H", "T" };
	const struct nst_cell rows[] = { I(1), T("ab"), R(0.125), T("abcd"),
		I(123), T("abcdefgh"), I(12), T("xyzw") };
	(void)state;
	use_marks(",", "\3", ".");
	expect("column:autolines=2", cols, 2, rows, 4, TITLE
	       "   H     T  \n"
	       " -----  ----\n"
	       " 1      ab  \n"
	       " 0.125  abcd\n"
	       " 123 " ELL "  abc" ELL "\n"
	       " 12  " ELL "  xyzw\n");
}

/* column:autolines=0 over more text than the formatter keeps in memory
 * (it holds the rest in a file): every row sizes the columns, the last
 * row's wide number and long name included, and the rows come out whole
 * and in order.  The expected lines are made here with printf. */
static void test_autolines_all_past_memory(void **state)
{
	enum { NROWS = 150000, NAME = 60, LAST = 90 };
	static const char *const cols[] = { "N", "Name" };
	struct nst_cell *rows = calloc(2 * NROWS, sizeof *rows);
	char *names = malloc((size_t)NROWS * (LAST + 1)), *got, *want, *w;
	(void)state;
	assert_non_null(rows);
	assert_non_null(names);
	for (size_t r = 0; r < NROWS; r++) {
		char *name = names + r * (LAST + 1);
		int len = r == NROWS - 1 ? LAST : NAME;
		snprintf(name, LAST + 1, "kernel_%0*zu", len - 7, r);
		rows[2 * r] = (struct nst_cell)I(r == NROWS - 1 ? 123456789012 : (int64_t)r);
		rows[2 * r + 1] = (struct nst_cell)T(name);
	}
	got = render("column:autolines=0", cols, 2, rows, NROWS);
	want = malloc((size_t)NROWS * (LAST + 20) + 512);
	assert_non_null(want);
	/* headers centred, the left side getting the smaller half */
	w = want + sprintf(want, TITLE " %*s%*s  %*s%*s\n ", 6, "N", 6, "", 47, "Name", 43, "");
	w += sprintf(w, "%.12s  %.90s\n", "------------",
		     "------------------------------------------------------------"
		     "------------------------------");
	for (size_t r = 0; r < NROWS; r++)
		w += sprintf(w, " %12lld  %-*s\n", (long long)rows[2 * r].v.i, LAST, rows[2 * r + 1].v.s);
	assert_string_equal(got, want);
	free(got);
	free(want);
	free(names);
	free(rows);
}

/* select '+12' as a, '1e5' as b, 1234.5 as c, 'x' as d -- nsys (en_US) */
static void test_nohdr(void **state)
{
	static const char *const cols[] = { "a", "b", "c", "d" };
	const struct nst_cell row[] = { T("+12"), T("1e5"), R(1234.5), T("x") };
	(void)state;
	use_marks(",", "\3", ".");
	expect("table:nohdr", cols, 4, row, 1, TITLE
	       "+----+-------+---------+---+\n"
	       "| 12 | 1e+05 | 1,234.5 | x |\n"
	       "+----+-------+---------+---+\n");
	expect("column:nohdr", cols, 4, row, 1, TITLE
	       " 12  1e+05  1,234.5  x\n");
	expect("csv:nohdr", cols, 4, row, 1, "+12,1e5,1234.5,x\n");
}

/* select 123456 as a, 2 as _h, 'xyz' as b, 'hello' as c, 5 as d
 * union all select 3, 4, 'y', 'w', 6 -- table:3:0:4:1, nsys: widths
 * count hidden columns */
static void test_explicit_widths(void **state)
{
	static const char *const cols[] = { "a", "_h", "b", "c", "d" };
	const struct nst_cell rows[] = { I(123456), I(2), T("xyz"), T("hello"),
		I(5), I(3), I(4), T("y"), T("w"), I(6) };
	(void)state;
	expect("table:3:0:4:1", cols, 5, rows, 2, TITLE
	       "+-----+------+---+---+\n"
	       "|  a  |  b   | c | d |\n"
	       "+-----+------+---+---+\n"
	       "| 12" ELL " | xyz  | " ELL " | 5 |\n"
	       "|   3 | y    | w | 6 |\n"
	       "+-----+------+---+---+\n");
}

/* ---- hidden columns, every style ---- */

static const char *const hidden_cols[] = { "a", "_h", "b" };
static const struct nst_cell hidden_rows[] = { I(1), I(2), T("x"),
					       I(3), I(4), T("y") };

static void expect_hidden(const char *fmt, const char *want)
{
	expect(fmt, hidden_cols, 3, hidden_rows, 2, want);
}

/* select 1 as a, 2 as _h, 'x' as b union all select 3, 4, 'y' -- nsys */
static void test_hidden(void **state)
{
	(void)state;
	expect_hidden("csv", "a,b\n1,x\n3,y\n");
	expect_hidden("tsv", "a\tb\n1\tx\n3\ty\n");
	expect_hidden("column", TITLE " a  b\n -  -\n 1  x\n 3  y\n");
	expect_hidden("table", TITLE "+---+---+\n| a | b |\n+---+---+\n"
		      "| 1 | x |\n| 3 | y |\n+---+---+\n");
	expect_hidden("json", "[\n  {\n    \"a\": 1,\n    \"b\": \"x\"\n  },\n"
		      "  {\n    \"a\": 3,\n    \"b\": \"y\"\n  }\n]\n");
	expect_hidden("hdoc",
		"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
		"  <meta charset=\"UTF-8\">\n"
		"  <title>Nsight Systems Stats Output</title>\n</head>\n"
		"<body>\n<h1>DEBUG: SQL Statement (_sql)</h1>\n<table>\n"
		"  <thead>\n    <tr>\n      <th>a</th>\n      <th>b</th>\n"
		"    </tr>\n  </thead>\n  <tbody>\n    <tr>\n"
		"      <td>1</td>\n      <td>x</td>\n    </tr>\n    <tr>\n"
		"      <td>3</td>\n      <td>y</td>\n    </tr>\n  </tbody>\n"
		"</table>\n</body>\n</html>\n");
}

/* On the console nsys follows a report that had rows with an empty line */
static void test_console_blank_line(void **state)
{
	char *got;
	(void)state;
	got = render_to("csv", true, hidden_cols, 3, hidden_rows, 2);
	assert_string_equal(got, "a,b\n1,x\n3,y\n\n");
	free(got);
	got = render_to("csv", true, hidden_cols, 3, hidden_rows, 0);
	assert_string_equal(got, "");
	free(got);
}

/* ---- zero rows ---- */

/* select 1 as a where 0 -- nsys for column, csv, tsv, json */
static void test_zero_rows(void **state)
{
	static const char *const cols[] = { "a" };
	(void)state;
	expect("column", cols, 1, NULL, 0, TITLE
	       "Report was successfully run, but no data was returned.\n\n");
	expect("column:nohdr", cols, 1, NULL, 0, TITLE
	       "Report was successfully run, but no data was returned.\n\n");
	expect("csv", cols, 1, NULL, 0, "");
	expect("tsv", cols, 1, NULL, 0, "");
	expect("json", cols, 1, NULL, 0, "[\n]\n");
}

/* deviation: nsys prints a stray "+--+" line before the table title and
 * an HTML table without <thead> and <tbody> */
static void test_zero_rows_deviations(void **state)
{
	static const char *const cols[] = { "a" };
	(void)state;
	expect("table", cols, 1, NULL, 0, TITLE
	       "Report was successfully run, but no data was returned.\n\n");
	expect("htable", cols, 1, NULL, 0,
	       "<table>\n  <thead>\n    <tr>\n      <th>a</th>\n    </tr>\n"
	       "  </thead>\n  <tbody>\n  </tbody>\n</table>\n");
}

/* ---- escaping ---- */

/* select '123' as t, 'true' as b, 'null' as n, '1.50' as f, ' 12' as s,
 * '1e5' as e, 'a,b' as c, '0x1F' as h, '-5' as neg, 'inf' as i, '' as emp,
 * 'q"\' as q, 'x'||char(9)||'y' as tab -- json, nsys */
static void test_json_values(void **state)
{
	static const char *const cols[] = { "t", "b", "n", "f", "s", "e", "c",
		"h", "neg", "i", "emp", "q", "tab" };
	const struct nst_cell row[] = { T("123"), T("true"), T("null"),
		T("1.50"), T(" 12"), T("1e5"), T("a,b"), T("0x1F"), T("-5"),
		T("inf"), T(""), T("q\"\\"), T("x\ty") };
	(void)state;
	expect("json", cols, COUNT(cols), row, 1,
	       "[\n  {\n"
	       "    \"t\": 123,\n"
	       "    \"b\": true,\n"
	       "    \"n\": null,\n"
	       "    \"f\": 1.50,\n"
	       "    \"s\": \" 12\",\n"
	       "    \"e\": 1e5,\n"
	       "    \"c\": \"a,b\",\n"
	       "    \"h\": \"0x1F\",\n"
	       "    \"neg\": -5,\n"
	       "    \"i\": \"inf\",\n"
	       "    \"emp\": \"\",\n"
	       "    \"q\": \"q\\\"\\\\\",\n"
	       "    \"tab\": \"x\\ty\"\n"
	       "  }\n]\n");
}

/* json:typed (D57): values by their type, not by how their text looks;
 * int64 exact; NULL, empty and non-finite as null; one object per report,
 * with the rows under "rows", and no empty line after it on the console. */
static void test_json_typed_values(void **state)
{
	static const char *const cols[] = { "i", "big", "r", "t", "b", "emp", "nul", "nan",
		"d:dur_ns", "h:addr_uint" };
	const struct nst_cell rows[] = {
		I(-7), I(INT64_MAX), R(2.5), T("123"), T("true"), T(""), NUL, R(NAN),
		T("1500"), I(255),
		I(0), I(INT64_MIN), R(1e300), T("x"), T("null"), T("a"), NUL, R(-INFINITY),
		I(3), I(0),
	};
	(void)state;
	char *out = render_to("json:typed:addr=hex", true, cols, COUNT(cols), rows, 2);
	assert_string_equal(out,
		"{\"rows\": [\n"
		"{\"i\": -7, \"big\": 9223372036854775807, \"r\": 2.5, \"t\": \"123\", "
		"\"b\": \"true\", \"emp\": null, \"nul\": null, \"nan\": null, "
		"\"d (ns)\": 1500, \"h\": \"0xFF\"},\n"
		"{\"i\": 0, \"big\": -9223372036854775808, \"r\": 1e+300, \"t\": \"x\", "
		"\"b\": \"null\", \"emp\": \"a\", \"nul\": null, \"nan\": null, "
		"\"d (ns)\": 3, \"h\": \"0x0\"}\n"
		"]}");
	free(out);
	out = render_to("json:typed", true, cols, 1, rows, 0);
	assert_string_equal(out, "{\"rows\": []}");
	free(out);
}

/* deviation: nsys writes "+12", "1." and control characters raw, which
 * is not JSON */
static void test_json_valid(void **state)
{
	static const char *const cols[] = { "p", "d", "nl" };
	const struct nst_cell row[] = { T("+12"), T("1."), T("a\nb\x01") };
	(void)state;
	expect("json", cols, 3, row, 1,
	       "[\n  {\n    \"p\": \"+12\",\n    \"d\": \"1.\",\n"
	       "    \"nl\": \"a\\nb\\u0001\"\n  }\n]\n");
}

/* Invalid UTF-8 (a corrupt or foreign export; nsys's Python fails to
 * decode it) becomes U+FFFD byte by byte; well-formed sequences, up to
 * four bytes, pass as they are.  Deviation D5. */
static void test_json_invalid_utf8(void **state)
{
	static const char *const cols[] = { "s" };
	const struct nst_cell row[] = { T("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80|\xff\xc3|\xe0\x80\x80|\xed\xa0\x80|\xf4\x90\x80\x80|\xc3") };
	(void)state;
	expect("json", cols, 1, row, 1,
	       "[\n  {\n    \"s\": \"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80|\\ufffd\\ufffd|"
	       "\\ufffd\\ufffd\\ufffd|\\ufffd\\ufffd\\ufffd|\\ufffd\\ufffd\\ufffd\\ufffd|\\ufffd\"\n  }\n]\n");
}

/* select 'a,b' ... -- nsys quotes only fields with a comma; deviation:
 * quotes and line breaks are quoted too and quotes doubled (RFC 4180) */
static void test_csv_quoting(void **state)
{
	static const char *const cols[] = { "k\"q", "c", "q", "qc", "nl", "s" };
	const struct nst_cell row[] = { T("gemm(float *, int)"), T("a\"b"),
		T("\"q,\""), T("x\ny"), T(" 128    1    1") };
	(void)state;
	expect("csv", cols + 1, 5, row, 1,
	       "c,q,qc,nl,s\n"
	       "\"gemm(float *, int)\",\"a\"\"b\",\"\"\"q,\"\"\",\"x\ny\","
	       " 128    1    1\n");
	expect("csv", cols, 1, row, 1, "\"k\"\"q\"\n\"gemm(float *, int)\"\n");
}

/* select 'a'||char(9)||'b' as t -- tsv and tsv:esc, nsys */
static void test_tsv_tabs(void **state)
{
	static const char *const cols[] = { "t" };
	const struct nst_cell row[] = { T("a\tb") };
	const struct nst_cell nl[] = { T("a\nb") };
	(void)state;
	expect("tsv", cols, 1, row, 1, "t\na b\n");
	expect("tsv:esc", cols, 1, row, 1, "t\na\\tb\n");
	/* deviation: nsys leaves line breaks in, splitting the row */
	expect("tsv", cols, 1, nl, 1, "t\na b\n");
	expect("tsv:esc", cols, 1, nl, 1, "t\na\\nb\n");
}

/* nsys escapes < > & in cells; deviation: headers and the title too */
static void test_html_escape(void **state)
{
	static const char *const cols[] = { "x<y>&z" };
	const struct nst_cell row[] = { T("<&>\"") };
	(void)state;
	expect("htable", cols, 1, row, 1,
	       "<table>\n  <thead>\n    <tr>\n      <th>x&lt;y&gt;&amp;z</th>\n"
	       "    </tr>\n  </thead>\n  <tbody>\n    <tr>\n"
	       "      <td>&lt;&amp;&gt;\"</td>\n    </tr>\n  </tbody>\n"
	       "</table>\n");
}

/* ---- arguments and help ---- */

static void test_parse(void **state)
{
	struct nst_fmt_spec s;
	struct nst_error err = { 0 };
	(void)state;
	assert_int_equal(nst_fmt_parse("column:time=US:nofmt:autolines=0:"
				       "colmax=7:5:.:0", &s, &err), NST_OK);
	assert_int_equal(s.style, NST_STYLE_COLUMN);
	assert_string_equal(s.time_unit, "us");
	assert_true(s.nofmt);
	assert_int_equal(s.autolines, 0);
	assert_int_equal(s.colmax, 7);
	assert_int_equal(s.nwidths, 3);
	assert_int_equal(s.widths[1], NST_FMT_WIDTH_AUTO);
	assert_int_equal(nst_fmt_parse("hdoc:title=T:css=x.css", &s, &err),
			 NST_OK);
	assert_string_equal(s.doc_title, "T");
	assert_string_equal(s.css_url, "x.css");
	assert_int_equal(nst_fmt_parse("csv", &s, &err), NST_OK);
	assert_int_equal(s.autolines, 100);
	assert_string_equal(nst_fmt_ext(NST_STYLE_HTABLE), "html");
	assert_string_equal(nst_fmt_name(NST_STYLE_TSV), "tsv");
}

/* deviation: nsys ignores arguments it does not know */
static void test_parse_errors(void **state)
{
	static const char *const bad[] = { "COLUMN", "csv:nofmt", "csv:bogus",
		"column:time=xx", "column:mem=ns", "column:foo=us",
		"json:nohdr", "column:autolines=x", "column:colmax=-1",
		"htable:title=x", "column:esc", "csv:" };
	struct nst_fmt_spec s;
	struct nst_error err = { 0 };
	(void)state;
	for (size_t i = 0; i < COUNT(bad); i++)
		assert_int_equal(nst_fmt_parse(bad[i], &s, &err), NST_ERR_USAGE);
}

static char *help_text(const char *name, enum nst_status want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct nst_error err = { 0 };

	assert_int_equal(nst_format_help(out, name, &err), want);
	fclose(out);
	return buf;
}

static void test_help(void **state)
{
	static const char *const names[] = { "column", "table", "csv", "tsv",
		"json", "hdoc", "htable" };
	char *all = help_text("ALL", NST_OK), *list = help_text(NULL, NST_OK);
	(void)state;
	for (size_t i = 0; i < COUNT(names); i++) {
		assert_non_null(strstr(list, names[i]));
		assert_non_null(strstr(all, names[i]));
	}
	assert_non_null(strstr(all, "gidsubhex"));
	assert_non_null(strstr(all, "autolines=<n>"));
	free(all);
	free(list);
	free(help_text("nope", NST_ERR_USAGE));
}

/* deviation D8: a width of 0 drops the column; nsys leaves an empty cell
 * behind it, nstats drops it cleanly */
static void test_width_zero_drops_column(void **state)
{
	static const char *const cols[] = { "a", "b" };
	const struct nst_cell rows[] = { I(1), T("x"), I(2), T("y") };
	(void)state;
	expect("column:0:.", cols, 2, rows, 2, TITLE
	       " b\n"
	       " -\n"
	       " x\n"
	       " y\n");
}

/* Characters, not bytes: the clipping mark is three bytes of UTF-8. */
static size_t display_width(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* deviation D9: nsys crashes (std::length_error) when a row after the
 * sizing rows has more decimals than they had; nstats prints every row,
 * each line as wide as the header's */
static void test_more_decimals_after_sizing(void **state)
{
	static const char *const cols[] = { "Value" };
	const struct nst_cell rows[] = { R(1.5), R(2.125), R(30.0625) };
	(void)state;
	char *got = render("column:autolines=1", cols, 1, rows, 3);
	char *lines[8];
	size_t n = 0;
	for (char *line = strtok(got, "\n"); line && n < 8; line = strtok(NULL, "\n"))
		lines[n++] = line;
	assert_int_equal(n, 6); /* title, header, rule, three rows */
	for (size_t i = 2; i < n; i++)
		assert_int_equal(display_width(lines[i]), display_width(lines[1]));
	assert_non_null(strstr(lines[3], "1.5"));
	assert_non_null(strstr(lines[4], "2."));
	free(got);
}

/* deviation D11: nsys cuts a converted value to 127 characters, a wrong
 * number; 1e150 B is 1e144 MB, 145 digits before the point */
static void test_long_converted_value(void **state)
{
	static const char *const cols[] = { "Size:mem_B" };
	const struct nst_cell rows[] = { R(1e150) };
	(void)state;
	char *got = render("csv", cols, 1, rows, 1);
	char *value = strchr(got, '\n') + 1;
	*strchr(value, '\n') = '\0';
	assert_true(strlen(value) > 127);
	assert_string_equal(value + strlen(value) - 4, ".000");
	double back = strtod(value, NULL);
	assert_true(back > 0.999999e144 && back < 1.000001e144);
	free(got);
}

/* The column format prints a number in text as Python reads it (int(),
 * or '%.*f' of float() with as many decimals; the expected texts are
 * Python 3's).  Most print as they are and skip the reading; a sign, a
 * negative zero and more than 15 digits must still be read. */
static void test_numbers_in_text_reprinted(void **state)
{
	static const char *const cols[] = { "V" };
	static const char *const cases[][2] = {
		{ "-0", "0" }, { "+5", "5" }, { "-0.00", "-0.00" }, { "0.0", "0.0" },
		{ "1.50", "1.50" }, { "-12.5", "-12.5" }, { "+1.5", "1.5" },
		{ "123456789012345", "123,456,789,012,345" },
		{ "1234567890123456789", "1,234,567,890,123,456,789" },
		{ "12345678901234.55", "12,345,678,901,234.55" },
		{ "0.1000000000000000055511", "0.1000000000000000055511" },
		{ "0.12345678901234567", "0.12345678901234566" },
		{ "9.999999999999999", "9.999999999999998" },
	};
	(void)state;
	use_marks(",", "\3", ".");
	for (size_t i = 0; i < COUNT(cases); i++) {
		const struct nst_cell rows[] = { T(cases[i][0]) };
		char *got = render("column", cols, 1, rows, 1);
		char *line = got + strlen(got);
		while (line > got && line[-1] == '\n')
			*--line = '\0';
		while (line > got && line[-1] != '\n')
			line--;
		while (*line == ' ')
			line++;
		char *end = line + strlen(line);
		while (end > line && end[-1] == ' ')
			*--end = '\0';
		assert_string_equal(line, cases[i][1]);
		free(got);
	}
}

/* deviation D12: with a decimal comma (de_DE), nsys misreads decimals;
 * nstats keeps '.' in csv and json and shows the locale's separators with
 * the right value in column */
static void test_decimal_comma(void **state)
{
	static const char *const cols[] = { "V" };
	const struct nst_cell rows[] = { R(1234567.125) };
	(void)state;
	use_marks(".", "\3", ",");
	char *csv = render("csv", cols, 1, rows, 1);
	assert_string_equal(csv, "V\n1234567.125\n");
	char *json = render("json", cols, 1, rows, 1);
	assert_non_null(strstr(json, "1234567.125"));
	char *column = render("column", cols, 1, rows, 1);
	assert_non_null(strstr(column, "1.234.567,125"));
	free(csv);
	free(json);
	free(column);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_float_repr),
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_csv_quoting_long),
		cmocka_unit_test(test_units_default),
		cmocka_unit_test(test_units_us_kb),
		cmocka_unit_test(test_units_ms_b),
		cmocka_unit_test(test_units_sec_kib_uint_gidhex),
		cmocka_unit_test(test_units_gidsubint_bytes),
		cmocka_unit_test(test_units_noconv),
		cmocka_unit_test(test_units_per_category),
		cmocka_unit_test(test_units_gidsubhex),
		cmocka_unit_test(test_units_hex_source),
		cmocka_unit_test_teardown(test_grouping_en_us, reset_locale),
		cmocka_unit_test_teardown(test_grouping_en_in, reset_locale),
		cmocka_unit_test_teardown(test_nofmt, reset_locale),
		cmocka_unit_test_teardown(test_grouping_not_in_csv, reset_locale),
		cmocka_unit_test_teardown(test_clip, reset_locale),
		cmocka_unit_test(test_clip_utf8),
		cmocka_unit_test(test_decimal_alignment),
		cmocka_unit_test(test_alignment_vote),
		cmocka_unit_test_teardown(test_autolines_stream, reset_locale),
		cmocka_unit_test(test_autolines_all_past_memory),
		cmocka_unit_test_teardown(test_nohdr, reset_locale),
		cmocka_unit_test(test_explicit_widths),
		cmocka_unit_test(test_hidden),
		cmocka_unit_test(test_console_blank_line),
		cmocka_unit_test(test_zero_rows),
		cmocka_unit_test(test_zero_rows_deviations),
		cmocka_unit_test(test_json_values),
		cmocka_unit_test(test_json_typed_values),
		cmocka_unit_test(test_json_valid),
		cmocka_unit_test(test_json_invalid_utf8),
		cmocka_unit_test(test_csv_quoting),
		cmocka_unit_test(test_tsv_tabs),
		cmocka_unit_test(test_html_escape),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_width_zero_drops_column),
		cmocka_unit_test(test_more_decimals_after_sizing),
		cmocka_unit_test(test_long_converted_value),
		cmocka_unit_test_teardown(test_numbers_in_text_reprinted, reset_locale),
		cmocka_unit_test_teardown(test_decimal_comma, reset_locale),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
