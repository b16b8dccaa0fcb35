/* The page's escaping (src/page/html.c): whatever bytes an export's names
 * hold, what reaches the page is text for HTML and XML alike (no markup
 * character, no control character, no noncharacter) and valid UTF-8; a
 * shortened name is cut between characters.  Expected strings are written
 * by hand from the HTML and UTF-8 rules, not taken from the code. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "page/page.h"

#define FFFD "\xEF\xBF\xBD"

/* What page_esc (or page_esc_short, when max) writes for s[0..len). */
static char *escaped(const char *s, size_t len, size_t max)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&buf, &size);
	if (!out)
		fail_msg("open_memstream failed");
	if (max)
		page_esc_short(out, s, max);
	else
		page_esc(out, s, len);
	fclose(out);
	return buf;
}

static void expect(const char *s, size_t len, const char *want)
{
	char *got = escaped(s, len, 0);
	if (strcmp(got, want) != 0)
		fail_msg("'%s' escaped is '%s', not '%s'", s, got, want);
	free(got);
}

#define EXPECT(lit, want) expect(lit, sizeof lit - 1, want)

static void markup(void **state)
{
	(void)state;
	EXPECT("<script>alert(1)</script>&amp;", "&lt;script&gt;alert(1)&lt;/script&gt;&amp;amp;");
	EXPECT("k\"quoted\" 'name'", "k&quot;quoted&quot; &#39;name&#39;");
	EXPECT("void f<int>(a, b)", "void f&lt;int&gt;(a, b)");
}

static void control_bytes(void **state)
{
	(void)state;
	EXPECT("tab\there", "tab here");
	EXPECT("line\nbreak\r\n", "line break" FFFD " ");
	EXPECT("nul\0in", "nul" FFFD "in");
	EXPECT("bell\a del\x7F", "bell" FFFD " del" FFFD);
	EXPECT("c1 \xC2\x85 control", "c1 " FFFD " control"); /* U+0085 */
}

static void bad_utf8(void **state)
{
	(void)state;
	EXPECT("k\xC3\xFF\xFE\x80" "bad-utf8", "k" FFFD FFFD FFFD FFFD "bad-utf8");
	EXPECT("overlong \xC0\xAF", "overlong " FFFD FFFD);
	EXPECT("surrogate \xED\xA0\x80", "surrogate " FFFD FFFD FFFD);
	EXPECT("past U+10FFFF \xF4\x90\x80\x80", "past U+10FFFF " FFFD FFFD FFFD FFFD);
	EXPECT("cut \xE2\x82", "cut " FFFD FFFD);
	EXPECT("nonchar \xEF\xBF\xBE \xEF\xB7\x90 \xF0\x9F\xBF\xBF",
	       "nonchar " FFFD FFFD FFFD " " FFFD FFFD FFFD " " FFFD FFFD FFFD FFFD);
}

static void good_utf8_kept(void **state)
{
	(void)state;
	EXPECT("\xC2\xB5s caf\xC3\xA9 \xE2\x80\xA6 \xF0\x9F\x9A\x80",
	       "\xC2\xB5s caf\xC3\xA9 \xE2\x80\xA6 \xF0\x9F\x9A\x80");
	EXPECT("\xEF\xBF\xBD", FFFD); /* U+FFFD itself */
}

/* A cut name keeps whole characters on both sides of the ellipsis. */
static void short_names(void **state)
{
	(void)state;
	char *got = escaped("abcdefghijklmnopqrstuvwxyz", 0, 10);
	assert_string_equal(got, "abcd\xE2\x80\xA6vwxyz");
	free(got);
	got = escaped("\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9", 0, 9);
	assert_string_equal(got, "\xC3\xA9\xC3\xA9\xE2\x80\xA6\xC3\xA9\xC3\xA9");
	free(got);
	got = escaped("short", 0, 10);
	assert_string_equal(got, "short");
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(markup),
		cmocka_unit_test(control_bytes),
		cmocka_unit_test(bad_utf8),
		cmocka_unit_test(good_utf8_kept),
		cmocka_unit_test(short_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
