/* UTF-8 widths and the quoting of each format.  Writers scan for the
 * characters that need care and copy the runs between them whole, so
 * plain values cost one copy. */
#include <stdint.h>
#include <stdlib.h>
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

int nst_line_grow(struct nst_line *l, size_t more)
{
	size_t cap = l->cap ? l->cap : 256;
	while (cap < l->n + more)
		cap *= 2;
	char *p = realloc(l->p, cap);
	if (!p)
		return -1;
	l->p = p;
	l->cap = cap;
	return 0;
}

static bool csv_special(char c, char sep)
{
	return c == sep || c == '"' || c == '\n' || c == '\r';
}

/* Nonzero when a byte of w is c (the classic test for a zero byte in
 * w ^ c, c in every byte). */
static uint64_t has_byte(uint64_t w, unsigned char c)
{
	uint64_t x = w ^ (0x0101010101010101ull * c);
	return (x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull;
}

/* Where the first character that needs quoting is, or len: kernel names
 * run to a hundred bytes and come ten million times in a trace, so eight
 * bytes are looked at a time. */
static size_t csv_plain_prefix(const char *s, size_t len, char sep)
{
	size_t i = 0;
	for (uint64_t w; i + 8 <= len; i += 8) {
		memcpy(&w, s + i, sizeof w);
		if (has_byte(w, (unsigned char)sep) | has_byte(w, '"') | has_byte(w, '\n') |
		    has_byte(w, '\r'))
			break;
	}
	while (i < len && !csv_special(s[i], sep))
		i++;
	return i;
}

int nst_put_csv(struct nst_line *l, const char *s, size_t len, char sep)
{
	if (csv_plain_prefix(s, len, sep) == len)
		return nst_line_put(l, s, len);
	/* RFC 4180: quote the field and double the quotes inside it */
	int rc = nst_line_put(l, "\"", 1);
	const char *from = s, *end = s + len, *q;
	while (!rc && (q = memchr(from, '"', (size_t)(end - from)))) {
		rc = nst_line_put(l, from, (size_t)(q + 1 - from));
		if (!rc)
			rc = nst_line_put(l, "\"", 1);
		from = q + 1;
	}
	if (!rc)
		rc = nst_line_put(l, from, (size_t)(end - from));
	return rc ? rc : nst_line_put(l, "\"", 1);
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

int nst_put_tsv(struct nst_line *l, const char *s, size_t len, bool esc)
{
	size_t from = 0;
	int rc = 0;

	for (size_t i = 0; !rc && i < len; i++) {
		const char *rep = tsv_escape(s[i], esc);
		if (!rep)
			continue;
		rc = nst_line_put(l, s + from, i - from);
		if (!rc)
			rc = nst_line_put(l, rep, strlen(rep));
		from = i + 1;
	}
	return rc ? rc : nst_line_put(l, s + from, len - from);
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

static bool continuation(const unsigned char *s, size_t len, size_t i)
{
	return i < len && (s[i] & 0xC0) == 0x80;
}

/* The second byte's range depends on the first (format.h). */
size_t nst_utf8_len(const char *str, size_t len, size_t i)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char c = s[i];
	if (c < 0x80)
		return 1;
	size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
		 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
	if (n == 0 || i + 1 >= len)
		return 0;
	unsigned char lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
	unsigned char hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
	if (s[i + 1] < lo || s[i + 1] > hi)
		return 0;
	for (size_t k = 2; k < n; k++)
		if (!continuation(s, len, i + k))
			return 0;
	return n;
}

/* Where an escaped string goes: a stream, or a caller's memory. */
typedef void json_put(void *sink, const char *s, size_t n);

/* A strict JSON parser takes only UTF-8: a byte that is not part of a
 * well-formed sequence (a name from a corrupt or foreign export) becomes
 * U+FFFD, as a decoder that replaces errors would show it.  One loop for
 * every sink, so that the stream and the memory forms cannot differ. */
static void json_quote(const char *s, size_t len, json_put *put, void *sink)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t from = 0;
	char buf[8];

	put(sink, "\"", 1);
	for (size_t i = 0; i < len;) {
		size_t n = nst_utf8_len(s, len, i);
		const char *rep = n == 0 ? "\\ufffd" : n == 1 ? json_escape(u[i], buf) : NULL;
		if (!rep) {
			i += n;
			continue;
		}
		put(sink, s + from, i - from);
		put(sink, rep, strlen(rep));
		from = ++i;
	}
	put(sink, s + from, len - from);
	put(sink, "\"", 1);
}

static void put_stream(void *sink, const char *s, size_t n)
{
	fwrite(s, 1, n, sink);
}

void nst_put_json_string(FILE *out, const char *s, size_t len)
{
	json_quote(s, len, put_stream, out);
}

static void put_memory(void *sink, const char *s, size_t n)
{
	char **end = sink;
	if (n)
		memcpy(*end, s, n);
	*end += n;
}

size_t nst_json_quote(const char *s, size_t len, char *out)
{
	char *end = out;
	json_quote(s, len, put_memory, &end);
	return (size_t)(end - out);
}

bool nst_utf8_valid(const char *s, size_t len)
{
	for (size_t i = 0, n; i < len; i += n)
		if ((n = nst_utf8_len(s, len, i)) == 0)
			return false;
	return true;
}

size_t nst_utf8_repair(const char *s, size_t len, char *out)
{
	size_t o = 0;
	for (size_t i = 0; i < len;) {
		size_t n = nst_utf8_len(s, len, i);
		if (n == 0) {
			memcpy(out + o, "\xEF\xBF\xBD", 3);
			o += 3;
			i++;
			continue;
		}
		memcpy(out + o, s + i, n);
		o += n;
		i += n;
	}
	out[o] = '\0';
	return o;
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
