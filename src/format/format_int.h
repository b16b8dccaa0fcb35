/* Private to src/format: numbers, units, text helpers and the writer
 * state shared by the streaming and the columnar styles.
 *
 * Every value goes through the same three steps nsys takes, because nsys
 * formats the text its reports print, not typed values:
 *   1. source text: INT as decimal, REAL as Python's str(float), TEXT as is;
 *   2. unit conversion of that text (a text that looks like a number is
 *      converted too, one that does not passes through);
 *   3. column/table only: numbers are re-printed with the locale's
 *      separators, keeping their decimals and exponent form.
 */
#ifndef NSTATS_FORMAT_INT_H
#define NSTATS_FORMAT_INT_H

#include <locale.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/suggest.h"
#include "format/format.h"

/* Big enough for any converted or re-printed number: "%.4f" of 1e308 is
 * 314 characters; grouping adds a separator (up to 7 bytes) per digit
 * group. */
#define NST_NUMBUF 2048

/* ---- numbers (number.c) ---- */

/* What a text is, by nsys's number grammar:
 * [+-]? (0 | [1-9][0-9]*) ('.' [0-9]*)? ([eE] [+-]? [0-9]+)? */
enum nst_numkind {
	NST_NUM_NONE,   /* not a number: shown as text */
	NST_NUM_INT,    /* no point, no exponent */
	NST_NUM_FIXED,  /* a point, no exponent */
	NST_NUM_EXP,    /* an exponent */
};

enum nst_numkind nst_num_kind(const char *s, size_t len);
/* True when s (of kind k) is also a valid JSON number. */
bool nst_num_is_json(const char *s, size_t len, enum nst_numkind k);
/* Python's str(float): shortest round-trip digits.  out holds 32 bytes. */
size_t nst_num_repr(double v, char *out);
/* printf("%.*f", decimals, v), faster; out holds NST_NUMBUF bytes. */
size_t nst_num_fixed(double v, int decimals, char *out);
/* Decimal text of v; out holds 24 bytes. */
size_t nst_num_itoa(int64_t v, char *out);
/* Re-prints number text s (kind k) the way nsys's column format does:
 * integers as int64 (saturating), others with the same count of decimals
 * and the same notation, with the marks' decimal point; grouped when
 * `group`.  out holds NST_NUMBUF. */
size_t nst_num_reformat(const char *s, size_t len, enum nst_numkind k,
			const struct nst_numeric *marks, bool group, char *out);
/* Whether the marks are C's: no thousands separator, '.' (re-printing
 * changes nothing of a number printed in C). */
bool nst_num_marks_plain(const struct nst_numeric *marks);
/* Characters after the marks' decimal point in text printed by
 * nst_num_reformat, -1 when there is no point. */
int nst_num_frac(const char *s, size_t len, const struct nst_numeric *marks);

/* ---- units (units.c) ---- */

enum nst_cat {
	NST_CAT_NONE, NST_CAT_TS, NST_CAT_DUR, NST_CAT_MEM, NST_CAT_THRU,
	NST_CAT_GID, NST_CAT_ADDR, NST_CAT_RATIO,
};

enum nst_unit {
	NST_U_NONE,
	NST_U_NS, NST_U_US, NST_U_MS, NST_U_SEC,
	NST_U_B, NST_U_KB, NST_U_KIB, NST_U_MB, NST_U_MIB, NST_U_GB, NST_U_GIB,
	NST_U_GIDINT, NST_U_GIDHEX, NST_U_GIDSUBINT, NST_U_GIDSUBHEX,
	NST_U_UINT, NST_U_HEX,
	NST_U_PCT,
	NST_U_COUNT
};

/* One column's tag, parsed from "Label:category_unit". */
struct nst_tag {
	const char *label;    /* not NUL-terminated: label_len bytes */
	size_t label_len;
	enum nst_cat cat;     /* NST_CAT_NONE: untagged or unknown tag */
	enum nst_unit src;    /* the unit the report wrote */
};

void nst_tag_parse(const char *name, struct nst_tag *tag);
/* The display unit of `cat` under spec (its default when not set). */
enum nst_unit nst_unit_display(const struct nst_fmt_spec *spec,
			       enum nst_cat cat);
/* "Label (unit)" or "Label"; malloc'd, NULL when out of memory. */
char *nst_tag_header(const struct nst_tag *tag, enum nst_unit shown,
		     bool with_unit);
/* Converts number text s from src to dst; returns s itself when nothing
 * changes, else text written to out (NST_NUMBUF bytes). */
const char *nst_unit_convert(enum nst_cat cat, enum nst_unit src,
			     enum nst_unit dst, const char *s, size_t *len,
			     char *out);

/* Unit and category names, for the help text and the spec parser. */
enum nst_unit nst_unit_lookup(const char *name, size_t len);
/* A time unit by any of its spellings (ns, nsec, nanoseconds, ...), or
 * with prefix by the start of one (--timeunit's "m" is ms); NST_U_NONE
 * when unknown or when the prefix starts spellings of two units.  The
 * i-th spelling, NULL past the last. */
enum nst_unit nst_time_unit_word(const char *word, size_t len, bool prefix);
const char *nst_time_word(size_t i);
/* Offers the units of cat (every spelling), or the categories, to sg. */
void nst_unit_offer(struct nst_suggest *sg, enum nst_cat cat);
void nst_cat_offer(struct nst_suggest *sg);
const char *nst_unit_name(enum nst_unit u);
bool nst_unit_allowed(enum nst_cat cat, enum nst_unit u);
enum nst_cat nst_cat_lookup(const char *name, size_t len);
/* The units section of --help-formats, from the tables above. */
void nst_unit_help(FILE *out);

/* ---- text (text.c) ---- */

/* Characters in UTF-8 text (continuation bytes do not count). */
size_t nst_utf8_chars(const char *s, size_t len);
/* Bytes taking the first n characters of s. */
size_t nst_utf8_prefix(const char *s, size_t len, size_t n);
void nst_put_spaces(FILE *out, size_t n);
void nst_put_repeat(FILE *out, char c, size_t n);
/* A line of csv or tsv, made in memory and written in one call: a call
 * into stdio for every cell and separator cost as much as formatting
 * them.  Returns -1 when out of memory. */
struct nst_line {
	char *p;
	size_t n, cap;
};
int nst_line_grow(struct nst_line *l, size_t more);
static inline int nst_line_put(struct nst_line *l, const char *s, size_t len)
{
	if (l->n + len > l->cap && nst_line_grow(l, len))
		return -1;
	memcpy(l->p + l->n, s, len);
	l->n += len;
	return 0;
}
/* Escapers add s with the format's quoting (-1: out of memory). */
int nst_put_csv(struct nst_line *l, const char *s, size_t len, char sep);
int nst_put_tsv(struct nst_line *l, const char *s, size_t len, bool esc);
void nst_put_html(FILE *out, const char *s, size_t len, bool attribute);

/* ---- the writer (writer.c, columnar.c) ---- */

/* A column as the writer shows it. */
struct nst_fcol {
	size_t src;           /* index in the report's cells */
	char *header;         /* label with unit; owned */
	size_t header_len;
	enum nst_cat cat;
	enum nst_unit from, to;   /* to == from: no conversion */
	/* column/table layout */
	int fixed_width;      /* explicit width, or NST_FMT_WIDTH_AUTO */
	size_t width;
	size_t nums, texts;   /* sizing rows: number vs text votes */
	int maxfrac;          /* widest fraction among sized numbers */
	/* the widest sized cells, in characters: text and exponent forms,
	 * integers, and fractions less their digits after the point */
	size_t widest_flush, widest_int, widest_whole;
	bool right;           /* numbers win: right-aligned */
};

/* One value ready to print: its text after conversion. */
struct nst_val {
	const char *s;        /* NULL for NULL and empty text */
	size_t len;
	enum nst_numkind kind;
};

struct nst_colbuf;        /* columnar.c: rows held back to size columns */

struct nst_fmt {
	struct nst_fmt_spec spec;
	FILE *out;
	char *title, *report;
	/* Rules: text after the title, and instead of nsys's zero-row line. */
	char *advice, *noresult, *footer;
	struct nst_fcol *cols;
	size_t ncols;         /* shown columns */
	size_t nsrc;          /* cells per row */
	bool begun;
	uint64_t rows;
	bool failed;          /* a callback failed: refuse the rest */
	bool nomem;           /* ... for want of memory, not a write */
	bool spill_failed;    /* ... for want of the temporary file of held rows */
	locale_t cloc;        /* the C locale while formatting: printf's '.'; owned */
	uint64_t hidden_graph_launches; /* json:typed: what the rows leave out */
	int64_t hidden_graph_ns;
	struct nst_colbuf *buf;
	bool ints_as_printed; /* column styles: integers shown as printed (plain marks, reprinted) */
	struct nst_line line; /* csv, tsv: the row being made */
};

/* Value of cell in column c, converted; scratch holds NST_NUMBUF bytes. */
void nst_fmt_value(const struct nst_fmt *f, const struct nst_fcol *c,
		   const struct nst_cell *cell, char *scratch,
		   struct nst_val *val);

/* json:typed (typed.c): one row, and the object's end with its notes. */
void nst_typed_row(struct nst_fmt *f, const struct nst_cell *cells);
void nst_typed_end(const struct nst_fmt *f);

int nst_columnar_begin(struct nst_fmt *f);
int nst_columnar_row(struct nst_fmt *f, const struct nst_cell *cells);
void nst_columnar_end(struct nst_fmt *f);
void nst_columnar_free(struct nst_fmt *f);

#endif
