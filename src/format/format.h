/* Output formats: column, table, csv, tsv, json, hdoc, htable.
 *
 * A report's rows arrive through a struct nst_sink (begin, then row per row);
 * nst_fmt_end() closes the output.  column/table keep the first `autolines`
 * rows to size the columns and stream the rest; the other formats stream.
 * Units are converted in every format (csv and json too), as nsys does.
 */
#ifndef NSTATS_FORMAT_H
#define NSTATS_FORMAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "nstats/nstats.h"

enum nst_style {
	NST_STYLE_COLUMN,
	NST_STYLE_TABLE,
	NST_STYLE_CSV,
	NST_STYLE_TSV,
	NST_STYLE_JSON,
	NST_STYLE_HDOC,
	NST_STYLE_HTABLE,
};

#define NST_FMT_MAX_WIDTHS 64   /* explicit column widths, column:W:W... */
#define NST_FMT_WIDTH_AUTO (-1)  /* "." in the width list */

/* The marks of LC_NUMERIC the column and table formats print numbers
 * with: a localeconv()-style grouping such as "\3" or "\3\2" ("" for
 * none). */
struct nst_numeric {
	char thousands_sep[8];
	char grouping[16];
	char decimal_point[8];
};

/* Display units per category; NULL means the category's default.  Unit
 * names match case-insensitively.  Fill a spec with nst_fmt_spec_init()
 * or nst_fmt_parse(): a zeroed spec means autolines=0 and colmax=0, which
 * are "all rows" and "no limit", as in nsys. */
struct nst_fmt_spec {
	enum nst_style style;
	const char *time_unit;  /* time= (ts and dur), and --timeunit */
	const char *mem_unit;   /* bytes= (mem and thru) */
	const char *addr_unit;  /* addr=: uint hex */
	const char *gid_unit;   /* gid=: gidint gidhex gidsubint gidsubhex */
	/* ts= dur= mem= thru=: win over time=/bytes= unless one of those
	 * came later (nst_fmt_parse clears them), as nsys applies specs in
	 * order. */
	struct {
		const char *ts, *dur, *mem, *thru;
	} only;
	bool nohdr;             /* no header row */
	bool nofmt;             /* no thousands separators */
	bool noconv;            /* native values, native unit in the header */
	bool nohdrunit;         /* no unit in the header */
	bool esc;               /* tsv: escape TAB and newline as \t, \n */
	/* json: values by type, NULL as null; one report is one object,
	 * {"rows": [...]}, for the caller to place in its document. */
	bool typed;
	/* Output goes to the console or a pipe: nsys follows every report
	 * that returned rows with an empty line there, not in files. */
	bool console;
	int autolines;          /* column/table: rows used to size columns */
	bool autolines_given;   /* ... given as autolines=N, not the default */
	int colmax;             /* column/table: widest column */
	/* column/table: the widest a line may be (0: no limit): the widest
	 * text columns narrow until the table fits, their texts shortened in
	 * the middle as distinct_names does (a terminal's width) */
	int fit;
	/* column/table with autolines=0: a text too wide for its column is
	 * shortened in its middle so that distinct texts of the column stay
	 * distinct (nst_shorten_all), where nsys cuts it on the right */
	bool distinct_names;
	/* column/table: explicit widths by position, hidden columns counted;
	 * NST_FMT_WIDTH_AUTO sizes the column, 0 drops it. */
	int widths[NST_FMT_MAX_WIDTHS];
	size_t nwidths;
	char doc_title[256];    /* hdoc: <title> */
	char css_url[512];      /* hdoc: stylesheet link, "" for none */
	struct nst_numeric numeric; /* column/table: the C locale's by default */
};

/* The defaults of `style` (autolines 100, colmax 100, nsys's title). */
void nst_fmt_spec_init(struct nst_fmt_spec *spec, enum nst_style style);

/* Parses "column:time=us:nofmt" into spec (defaults first).  On error
 * returns NST_ERR_USAGE with a message naming the bad part. */
enum nst_status nst_fmt_parse(const char *arg, struct nst_fmt_spec *spec,
			      struct nst_error *err);

/* The format's canonical name and the default extension of its files. */
const char *nst_fmt_name(enum nst_style style);
const char *nst_fmt_ext(enum nst_style style);

/* Sets spec's numeric marks; NULL or "" for none (the decimal point
 * then is '.'), as are marks too long to keep. */
void nst_fmt_set_numeric(struct nst_fmt_spec *spec, const char *thousands_sep,
			 const char *grouping, const char *decimal_point);

/* The spec behind a public struct nst_format (nstats.h), resolved for its
 * target, time unit and locale by nst_format_parse(). */
const struct nst_fmt_spec *nst_format_spec(const struct nst_format *f);

struct nst_fmt;

/* Starts one report's output on `out`.  title/report give the column and
 * table formats' heading (" ** <title> (<report>):").  The returned
 * writer's sink() feeds it; nst_fmt_end() finishes and frees it.  The
 * column and table formats print a rule's notes (enum nst_note) where
 * nsys does; the other formats leave them out. */
struct nst_fmt *nst_fmt_open(const struct nst_fmt_spec *spec, FILE *out,
			     const char *title, const char *report);
struct nst_sink nst_fmt_sink(struct nst_fmt *f);
/* CUDA graph launches whose kernels the report's rows leave out (D21):
 * json:typed says so in the report's object; the other formats leave it
 * to the caller. */
void nst_fmt_hidden_graphs(struct nst_fmt *f, uint64_t launches, int64_t ns);
/* Finishes the output (a report with no rows prints what nsys prints for
 * the style) and frees f.  Returns NST_ERR_IO when a write failed. */
enum nst_status nst_fmt_end(struct nst_fmt *f, struct nst_error *err);

/* The length of the well-formed UTF-8 sequence at s[i] of s[0..len) (RFC
 * 3629: no overlong forms, surrogates or code points past U+10FFFF; 1 for
 * ASCII), 0 when there is none. */
size_t nst_utf8_len(const char *s, size_t len, size_t i);
/* Whether s[0..len) is well-formed UTF-8, and a copy of it into out
 * (3 * len + 1 bytes, NUL-terminated; returns its length) where each byte
 * that is no part of a well-formed sequence is U+FFFD: the text that
 * nst_put_json_string() writes, for writers of other formats (text.c). */
bool nst_utf8_valid(const char *s, size_t len);
size_t nst_utf8_repair(const char *s, size_t len, char *out);
/* s[0..len) quoted as nst_put_json_string() writes it, into out (room for
 * NST_JSON_QUOTED_MAX(len) bytes, not NUL-terminated); returns its length:
 * for writers that build their text in memory. */
#define NST_JSON_QUOTED_MAX(len) (6 * (len) + 2)
size_t nst_json_quote(const char *s, size_t len, char *out);

#endif
