/* Text from an export into the page: escaped for HTML text and attribute
 * values alike, and made valid UTF-8; values shown in units for a person
 * and, beside them, exactly. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/shorten.h"
#include "format/format.h"
#include "page/page.h"

#define REPLACEMENT "\xEF\xBF\xBD"

/* The length of the UTF-8 sequence at s (at most n bytes) that the page
 * keeps, 0 for one it replaces: not well-formed (nst_utf8_len), or one of
 * the characters a strict HTML parser calls an error. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len = nst_utf8_len((const char *)s, n, 0);
	if (len < 2)
		return 0;
	unsigned c = s[0];
	/* U+FFFE and U+FFFF, and the noncharacters U+FDD0..U+FDEF */
	if (c == 0xEF && s[1] == 0xBF && s[2] >= 0xBE)
		return 0;
	if (c == 0xEF && s[1] == 0xB7 && s[2] >= 0x90 && s[2] <= 0xAF)
		return 0;
	if (len == 4 && (s[2] & 0xBF) == 0xBF && s[3] >= 0xBE && (s[1] & 0x0F) == 0x0F)
		return 0;
	return len;
}

/* C1 controls (U+0080..U+009F) are parse errors in HTML too. */
static bool c1_control(const unsigned char *s, size_t len)
{
	return len == 2 && s[0] == 0xC2 && s[1] < 0xA0;
}

void page_esc(FILE *out, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i < len;) {
		unsigned c = u[i];
		if (c >= 0x80) {
			size_t n = utf8_len(u + i, len - i);
			if (n && !c1_control(u + i, n))
				fwrite(u + i, 1, n, out);
			else
				fputs(REPLACEMENT, out);
			i += n ? n : 1;
			continue;
		}
		switch (c) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:
			if (c < 0x20 || c == 0x7F)
				fputs(c == '\t' || c == '\n' ? " " : REPLACEMENT, out);
			else
				fputc((int)c, out);
		}
		i++;
	}
}

void page_escz(FILE *out, const char *s)
{
	page_esc(out, s ? s : "", s ? strlen(s) : 0);
}

/* Where the character that holds byte i starts (never inside a UTF-8
 * sequence, so that cutting there leaves whole characters). */
static size_t char_start(const char *s, size_t i)
{
	while (i > 0 && ((unsigned char)s[i] & 0xC0) == 0x80)
		i--;
	return i;
}

void page_esc_short(FILE *out, const char *s, size_t max)
{
	size_t len = s ? strlen(s) : 0;
	if (len <= max || max < 8) {
		page_esc(out, s ? s : "", len);
		return;
	}
	size_t head = char_start(s, (max - 1) / 2), tail = char_start(s, len - (max - 1 - head));
	page_esc(out, s, head);
	fputs("\xE2\x80\xA6", out);
	page_esc(out, s + tail, len - tail);
}

void page_labels_free(char **labels, size_t n)
{
	for (size_t i = 0; labels && i < n; i++)
		free(labels[i]);
	free(labels);
}

/* A name past PAGE_TEXT_MAX characters is cut in its middle first: the
 * shortener's work grows with the length of the names. */
static char *bounded_name(const struct nst_cell *c)
{
	const char *s = c->kind == NST_TEXT ? c->v.s : "";
	return nst_shorten(s, PAGE_TEXT_MAX, PAGE_TEXT_MAX / 2);
}

char **page_labels(const struct page_rows *t, int col, size_t n, size_t w)
{
	char **full = calloc(n + 1, sizeof *full), **labels = calloc(n + 1, sizeof *labels);
	bool ok = full && labels;
	for (size_t r = 0; ok && r < n; r++)
		ok = (full[r] = bounded_name(page_cell(t, r, col))) != NULL;
	ok = ok && nst_shorten_all((const char *const *)full, n, w, labels);
	page_labels_free(full, n);
	if (!ok) {
		page_labels_free(labels, n);
		return NULL;
	}
	return labels;
}

void page_raw(FILE *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
}

/* ---- numbers --------------------------------------------------------------------- */

/* The tag after the ':' of a column name ("dur_ns"), "" when none. */
static const char *tag_of(const char *col)
{
	const char *c = strrchr(col, ':');
	return c ? c + 1 : "";
}

static bool ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), m = strlen(end);
	return n >= m && strcmp(s + n - m, end) == 0;
}

const char *page_show_ns(double ns, char *buf, size_t size)
{
	static const struct { double ns; const char *unit; } units[] = {
		{ 1e9, "s" }, { 1e6, "ms" }, { 1e3, "\xC2\xB5s" },
	};
	for (size_t i = 0; i < sizeof units / sizeof *units; i++)
		if (fabs(ns) >= units[i].ns) {
			snprintf(buf, size, "%.3f %s", ns / units[i].ns, units[i].unit);
			return buf;
		}
	snprintf(buf, size, "%.0f ns", ns);
	return buf;
}

/* n with thin spaces between groups of three digits. */
static const char *grouped(int64_t n, char *buf, size_t size)
{
	char digits[32];
	int len = snprintf(digits, sizeof digits, "%llu",
			   (unsigned long long)(n < 0 ? -(uint64_t)n : (uint64_t)n));
	size_t o = 0;
	if (n < 0 && o + 1 < size)
		buf[o++] = '-';
	for (int i = 0; i < len && o + 4 < size; i++) {
		if (i && (len - i) % 3 == 0) {
			memcpy(buf + o, "\xE2\x80\x89", 3);
			o += 3;
		}
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

const char *page_show(const char *col, const struct nst_cell *c, char *buf, size_t size)
{
	const char *tag = tag_of(col);
	if (c->kind == NST_NULL)
		snprintf(buf, size, "\xE2\x80\x94");
	else if (c->kind == NST_TEXT)
		snprintf(buf, size, "%s", c->v.s);
	else if (ends_with(tag, "_ns"))
		page_show_ns(page_real(c), buf, size);
	else if (ends_with(tag, "_B"))
		snprintf(buf, size, "%.3f MB", page_real(c) / 1e6);
	else if (ends_with(tag, "_%"))
		snprintf(buf, size, "%.1f%%", page_real(c));
	else if (c->kind == NST_INT)
		grouped(c->v.i, buf, size);
	else
		snprintf(buf, size, "%.3f", c->v.r);
	return buf;
}

const char *page_exact(const struct nst_cell *c, char *buf, size_t size)
{
	if (c->kind == NST_INT)
		snprintf(buf, size, "%lld", (long long)c->v.i);
	else if (c->kind == NST_REAL)
		snprintf(buf, size, "%.17g", c->v.r);
	else
		snprintf(buf, size, "%s", "");
	return buf;
}

/* ---- sections -------------------------------------------------------------------- */

void page_section_open(struct page *p, const char *id, const char *title, const char *from)
{
	p->section = id;
	page_raw(p->out, "<section id=\"%s\">\n<h2>", id);
	page_escz(p->out, title);
	page_raw(p->out, "</h2>\n");
	if (from) {
		page_raw(p->out, "<p class=\"from\">From ");
		page_escz(p->out, from);
		page_raw(p->out, ".</p>\n");
	}
}

void page_section_close(struct page *p)
{
	page_raw(p->out, "</section>\n");
}

void page_absent(struct page *p, const char *text)
{
	page_raw(p->out, "<p class=\"absent\">");
	page_escz(p->out, text);
	page_raw(p->out, "</p>\n");
}
