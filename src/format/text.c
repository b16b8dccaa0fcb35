/* UTF-8 widths and the quoting of each format.  Writers scan for the
 * characters that need care and write the runs between them in one
 * fwrite, so plain values cost one call. */
#include <string.h>

#include "format/format_int.h"

size_t nst_utf8_chars(const char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xC0) != 0x80;
	return n;
}

size_t nst_utf8_prefix(const char *s, size_t len, size_t n)
{
	size_t i = 0;

	for (size_t seen = 0; i < len; i++) {
		if (((unsigned char)s[i] & 0xC0) != 0x80 && seen++ == n)
			break;
	}
	return i;
}

void nst_put_repeat(FILE *out, char c, size_t n)
{
	char run[64];

	memset(run, c, sizeof run);
	for (; n > sizeof run; n -= sizeof run)
		fwrite(run, 1, sizeof run, out);
	fwrite(run, 1, n, out);
}

void nst_put_spaces(FILE *out, size_t n)
{
	nst_put_repeat(out, ' ', n);
}

static bool csv_special(char c, char sep)
{
	return c == sep || c == '"' || c == '\n' || c == '\r';
}

void nst_put_csv(FILE *out, const char *s, size_t len, char sep)
{
	size_t i = 0, from = 0;

	while (i < len && !csv_special(s[i], sep))
		i++;
	if (i == len) {
		fwrite(s, 1, len, out);
		return;
	}
	/* RFC 4180: quote the field and double the quotes inside it */
	putc('"', out);
	for (i = 0; i < len; i++) {
		if (s[i] != '"')
			continue;
		fwrite(s + from, 1, i + 1 - from, out);
		from = i;
	}
	fwrite(s + from, 1, len - from, out);
	putc('"', out);
}

static const char *tsv_escape(char c, bool esc)
{
	switch (c) {
	case '\t':
		return esc ? "\\t" : " ";
	case '\n':
		return esc ? "\\n" : " ";
	case '\r':
		return esc ? "\\r" : " ";
	default:
		return NULL;
	}
}

void nst_put_tsv(FILE *out, const char *s, size_t len, bool esc)
{
	size_t from = 0;

	for (size_t i = 0; i < len; i++) {
		const char *rep = tsv_escape(s[i], esc);
		if (!rep)
			continue;
		fwrite(s + from, 1, i - from, out);
		fputs(rep, out);
		from = i + 1;
	}
	fwrite(s + from, 1, len - from, out);
}

/* The JSON escape of c, written to buf; NULL when c goes as is. */
static const char *json_escape(unsigned char c, char buf[8])
{
	switch (c) {
	case '"':
		return "\\\"";
	case '\\':
		return "\\\\";
	case '\t':
		return "\\t";
	case '\n':
		return "\\n";
	case '\r':
		return "\\r";
	case '\b':
		return "\\b";
	case '\f':
		return "\\f";
	default:
		if (c >= 0x20)
			return NULL;
		snprintf(buf, 8, "\\u%04x", c);
		return buf;
	}
}

void nst_put_json_string(FILE *out, const char *s, size_t len)
{
	size_t from = 0;
	char buf[8];

	putc('"', out);
	for (size_t i = 0; i < len; i++) {
		const char *rep = json_escape((unsigned char)s[i], buf);
		if (!rep)
			continue;
		fwrite(s + from, 1, i - from, out);
		fputs(rep, out);
		from = i + 1;
	}
	fwrite(s + from, 1, len - from, out);
	putc('"', out);
}

static const char *html_escape(char c, bool attribute)
{
	switch (c) {
	case '&':
		return "&amp;";
	case '<':
		return "&lt;";
	case '>':
		return "&gt;";
	case '"':
		return attribute ? "&quot;" : NULL;
	default:
		return NULL;
	}
}

void nst_put_html(FILE *out, const char *s, size_t len, bool attribute)
{
	size_t from = 0;

	for (size_t i = 0; i < len; i++) {
		const char *rep = html_escape(s[i], attribute);
		if (!rep)
			continue;
		fwrite(s + from, 1, i - from, out);
		fputs(rep, out);
		from = i + 1;
	}
	fwrite(s + from, 1, len - from, out);
}
