/* The formats, their arguments, the parser of "fmt:arg:arg" and the
 * --help-formats text.  Both the parser and the help read the tables
 * below, so what help lists is what the parser accepts. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "format/format_int.h"

/* Groups of arguments a format accepts. */
enum {
	ARGS_UNITS = 1 << 0,     /* <category>=<unit>, noconv, nohdrunit */
	ARGS_NOHDR = 1 << 1,
	ARGS_COLUMNS = 1 << 2,   /* nofmt, autolines, colmax, widths */
	ARGS_ESC = 1 << 3,
	ARGS_DOC = 1 << 4,       /* title, css */
	ARGS_TYPED = 1 << 5,
};

static const struct format_info {
	const char *name;
	const char *ext;
	enum nst_style style;
	unsigned args;
	const char *summary;
	const char *about;
} formats[] = {
	{ "column", "txt", NST_STYLE_COLUMN,
	  ARGS_UNITS | ARGS_NOHDR | ARGS_COLUMNS, "text in aligned columns",
	  "    Columns of text for reading on a terminal.  Text is aligned\n"
	  "    left and numbers right, on their decimal point; numbers get the\n"
	  "    thousands separator of the locale (LC_NUMERIC).  A value wider\n"
	  "    than its column is cut on the right and ends in \"\xE2\x80\xA6\".\n"
	  "    Widths come from the header and the first rows (autolines);\n"
	  "    a width list sets them by position instead.\n" },
	{ "table", "txt", NST_STYLE_TABLE,
	  ARGS_UNITS | ARGS_NOHDR | ARGS_COLUMNS, "text columns in boxes",
	  "    The column format with a border around every cell.\n" },
	{ "csv", "csv", NST_STYLE_CSV, ARGS_UNITS | ARGS_NOHDR,
	  "comma-separated values",
	  "    One line per row, values separated by commas, for\n"
	  "    spreadsheets and databases.  A value holding a comma, a quote\n"
	  "    or a line break is put in double quotes (RFC 4180).\n" },
	{ "tsv", "tsv", NST_STYLE_TSV, ARGS_UNITS | ARGS_NOHDR | ARGS_ESC,
	  "tab-separated values",
	  "    One line per row, values separated by tabs.  Tabs and line\n"
	  "    breaks inside a value become spaces, or \\t and \\n with esc.\n" },
	{ "json", "json", NST_STYLE_JSON, ARGS_UNITS | ARGS_TYPED, "JSON array of objects",
	  "    An array with one object per row, keyed by column name.\n"
	  "    Numbers and the words true, false and null stay bare; an empty\n"
	  "    value is \"\".\n"
	  "    With typed, for tools (pandas, jq): numbers are numbers (integers\n"
	  "    exact), text is a string, an empty or NULL value is null, and\n"
	  "    the reports of a run on the console, or on one @command, are one\n"
	  "    document (a file holds one of its own, of its one report):\n"
	  "      {\"nstats\": VERSION, \"exports\": [{\"path\": EXPORT, \"reports\":\n"
	  "        {REPORT: {\"rows\": [{COLUMN: VALUE, ...}, ...]}, ...}}, ...]}\n"
	  "    REPORT is the -r element (cuda_gpu_kern_sum:base).  A skipped\n"
	  "    report is {\"skipped\": WHY}, a failed one {\"error\": WHY}; a\n"
	  "    rule's text is under \"notes\"; the CUDA graph launches a kernel\n"
	  "    report leaves out under \"hidden_graphs\"; an export that cannot\n"
	  "    be read is {\"path\": EXPORT, \"error\": WHY}; diff adds\n"
	  "    \"candidate\": EXPORT.  On the console, the Processing lines go\n"
	  "    to stderr.  See docs/json.md.\n" },
	{ "hdoc", "html", NST_STYLE_HDOC, ARGS_UNITS | ARGS_DOC,
	  "HTML page holding a <table>",
	  "    A complete HTML5 page: a heading naming the report, then\n"
	  "    the rows in a <table>.\n" },
	{ "htable", "html", NST_STYLE_HTABLE, ARGS_UNITS,
	  "bare HTML <table>",
	  "    Only the <table> element, to paste into a larger page.\n" },
};

#define NFORMATS (sizeof formats / sizeof formats[0])

static const struct arg_info {
	const char *syntax;
	unsigned group;
	const char *help;
} args[] = {
	{ "<category>=<unit>", ARGS_UNITS, "show a category in a unit (see Units)" },
	{ "noconv", ARGS_UNITS, "no unit conversion" },
	{ "nohdrunit", ARGS_UNITS, "no unit in the header" },
	{ "nohdr", ARGS_NOHDR, "no header line" },
	{ "nofmt", ARGS_COLUMNS, "print numbers as they are, without separators" },
	{ "autolines=<n>", ARGS_COLUMNS,
	  "rows that size the columns, 0 for all (default 100; all for diff)" },
	{ "colmax=<n>", ARGS_COLUMNS,
	  "widest a sized column gets, 0 for no limit (default 100)" },
	{ "fit=<n>", ARGS_COLUMNS,
	  "lines at most n wide: text columns narrow, texts cut in the middle" },
	{ "<width>[:<width>...]", ARGS_COLUMNS,
	  "column widths in order: a number, \".\" to size it, 0 to drop it" },
	{ "esc", ARGS_ESC, "write tabs and line breaks as \\t and \\n" },
	{ "title=<text>", ARGS_DOC, "the page's <title>" },
	{ "css=<url>", ARGS_DOC, "link a style sheet" },
	{ "typed", ARGS_TYPED, "typed values, one document per stream (below)" },
};

#define NARGS (sizeof args / sizeof args[0])

static const struct format_info *format_info(enum nst_style style)
{
	for (size_t i = 0; i < NFORMATS; i++)
		if (formats[i].style == style)
			return &formats[i];
	return &formats[0];
}

static const struct format_info *format_named(const char *name, size_t len)
{
	for (size_t i = 0; i < NFORMATS; i++)
		if (strlen(formats[i].name) == len &&
		    !memcmp(formats[i].name, name, len))
			return &formats[i];
	return NULL;
}

const char *nst_fmt_name(enum nst_style style)
{
	return format_info(style)->name;
}

const char *nst_fmt_ext(enum nst_style style)
{
	return format_info(style)->ext;
}

void nst_fmt_spec_init(struct nst_fmt_spec *spec, enum nst_style style)
{
	memset(spec, 0, sizeof *spec);
	spec->style = style;
	spec->autolines = 100;
	spec->colmax = 100;
	snprintf(spec->doc_title, sizeof spec->doc_title,
		 "Nsight Systems Stats Output");
	nst_fmt_set_numeric(spec, NULL, NULL, NULL);
}

static void copy_mark(char *dst, size_t size, const char *src, const char *fallback)
{
	if (!src || !*src || strlen(src) >= size)
		src = fallback;
	memcpy(dst, src, strlen(src) + 1);
}

void nst_fmt_set_numeric(struct nst_fmt_spec *spec, const char *thousands_sep,
			 const char *grouping, const char *decimal_point)
{
	struct nst_numeric *m = &spec->numeric;
	copy_mark(m->thousands_sep, sizeof m->thousands_sep, thousands_sep, "");
	copy_mark(m->grouping, sizeof m->grouping, grouping, "");
	copy_mark(m->decimal_point, sizeof m->decimal_point, decimal_point, ".");
}

/* ---- parsing ---- */

struct parse {
	const struct format_info *fmt;
	struct nst_fmt_spec *spec;
	struct nst_error *err;
	const char *arg;    /* the current argument, arglen bytes */
	size_t arglen;
	enum nst_cat cat;   /* the category of a unit that is not known */
};

static enum nst_status bad(struct parse *p, const char *why)
{
	return nst_fail(p->err, NST_ERR_USAGE,
			"format '%s': argument '%.*s': %s", p->fmt->name,
			(int)p->arglen, p->arg, why);
}

/* bad() with the names closest to what was given, offered by `offer`. */
static enum nst_status bad_name(struct parse *p, const char *why, const char *name, size_t len,
				void (*offer)(struct parse *p, struct nst_suggest *sg))
{
	struct nst_suggest sg;
	char msg[320], hint[256];
	nst_suggest_init(&sg, name, len);
	offer(p, &sg);
	nst_suggest_text(&sg, hint, sizeof hint);
	snprintf(msg, sizeof msg, "%s%s%s", why, *hint ? "; " : "", hint);
	return bad(p, msg);
}

static bool takes(const struct parse *p, unsigned group)
{
	return (p->fmt->args & group) != 0;
}

static bool parse_count(const char *s, size_t len, int *out)
{
	long v = 0;

	if (len == 0 || len > 9)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = (int)v;
	return true;
}

/* time= and bytes= set two categories and undo earlier ts=/dur= or
 * mem=/thru=, so the last spec wins as in nsys. */
static void set_unit(struct nst_fmt_spec *s, const char *cat, size_t len,
		     const char *unit)
{
	if (len == 4 && !strncasecmp(cat, "time", 4)) {
		s->time_unit = unit;
		s->only.ts = s->only.dur = NULL;
	} else if (len == 5 && !strncasecmp(cat, "bytes", 5)) {
		s->mem_unit = unit;
		s->only.mem = s->only.thru = NULL;
	} else {
		const char **slot[] = {
			[NST_CAT_TS] = &s->only.ts, [NST_CAT_DUR] = &s->only.dur,
			[NST_CAT_MEM] = &s->only.mem, [NST_CAT_THRU] = &s->only.thru,
			[NST_CAT_GID] = &s->gid_unit, [NST_CAT_ADDR] = &s->addr_unit,
			[NST_CAT_RATIO] = NULL,
		};
		const char **p = slot[nst_cat_lookup(cat, len)];
		if (p)
			*p = unit;
	}
}

/* The category a unit is checked against: a meta-category's first. */
static enum nst_cat unit_category(const char *name, size_t len)
{
	if (len == 4 && !strncasecmp(name, "time", 4))
		return NST_CAT_DUR;
	if (len == 5 && !strncasecmp(name, "bytes", 5))
		return NST_CAT_MEM;
	return nst_cat_lookup(name, len);
}

static void offer_categories(struct parse *p, struct nst_suggest *sg)
{
	(void)p;
	nst_cat_offer(sg);
}

static void offer_units(struct parse *p, struct nst_suggest *sg)
{
	nst_unit_offer(sg, p->cat);
}

static enum nst_status parse_unit(struct parse *p, const char *eq)
{
	size_t klen = (size_t)(eq - p->arg);
	size_t ulen = p->arglen - klen - 1;
	enum nst_cat cat = unit_category(p->arg, klen);
	enum nst_unit u;

	if (!takes(p, ARGS_UNITS))
		return bad(p, "this format takes no units");
	if (cat == NST_CAT_NONE)
		return bad_name(p, "unknown category", p->arg, klen, offer_categories);
	u = nst_unit_lookup(eq + 1, ulen);
	if (!nst_unit_allowed(cat, u)) {
		p->cat = cat;
		return bad_name(p, "unknown unit for this category", eq + 1, ulen, offer_units);
	}
	set_unit(p->spec, p->arg, klen, nst_unit_name(u));
	return NST_OK;
}

static enum nst_status copy_value(struct parse *p, const char *v, size_t len,
				  char *dst, size_t size)
{
	if (len >= size)
		return bad(p, "too long");
	memcpy(dst, v, len);
	dst[len] = '\0';
	return NST_OK;
}

static bool key_is(const struct parse *p, const char *eq, const char *key)
{
	size_t len = (size_t)(eq - p->arg);
	return strlen(key) == len && !memcmp(p->arg, key, len);
}

static enum nst_status parse_keyed(struct parse *p, const char *eq)
{
	const char *v = eq + 1;
	size_t vlen = p->arglen - (size_t)(v - p->arg);
	struct nst_fmt_spec *s = p->spec;
	bool columns = takes(p, ARGS_COLUMNS), doc = takes(p, ARGS_DOC);

	if (columns && key_is(p, eq, "autolines")) {
		s->autolines_given = true;
		return parse_count(v, vlen, &s->autolines)
			       ? NST_OK : bad(p, "not a count");
	}
	if (columns && key_is(p, eq, "colmax"))
		return parse_count(v, vlen, &s->colmax)
			       ? NST_OK : bad(p, "not a count");
	if (columns && key_is(p, eq, "fit"))
		return parse_count(v, vlen, &s->fit)
			       ? NST_OK : bad(p, "not a count");
	if (doc && key_is(p, eq, "title"))
		return copy_value(p, v, vlen, s->doc_title, sizeof s->doc_title);
	if (doc && key_is(p, eq, "css"))
		return copy_value(p, v, vlen, s->css_url, sizeof s->css_url);
	return parse_unit(p, eq);
}

static const struct {
	const char *name;
	unsigned group;
	size_t offset;
} flags[] = {
	{ "nohdr", ARGS_NOHDR, offsetof(struct nst_fmt_spec, nohdr) },
	{ "nofmt", ARGS_COLUMNS, offsetof(struct nst_fmt_spec, nofmt) },
	{ "noconv", ARGS_UNITS, offsetof(struct nst_fmt_spec, noconv) },
	{ "nohdrunit", ARGS_UNITS,
	  offsetof(struct nst_fmt_spec, nohdrunit) },
	{ "esc", ARGS_ESC, offsetof(struct nst_fmt_spec, esc) },
	{ "typed", ARGS_TYPED, offsetof(struct nst_fmt_spec, typed) },
};

static void offer_flags(struct parse *p, struct nst_suggest *sg)
{
	for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
		if (takes(p, flags[i].group))
			nst_suggest_offer(sg, flags[i].name);
}

static bool parse_flag(struct parse *p)
{
	for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
		if (strlen(flags[i].name) != p->arglen ||
		    memcmp(flags[i].name, p->arg, p->arglen) ||
		    !takes(p, flags[i].group))
			continue;
		*(bool *)((char *)p->spec + flags[i].offset) = true;
		return true;
	}
	return false;
}

static enum nst_status parse_width(struct parse *p)
{
	int w = NST_FMT_WIDTH_AUTO;

	if (!takes(p, ARGS_COLUMNS) ||
	    (!(p->arglen == 1 && p->arg[0] == '.') && !parse_count(p->arg, p->arglen, &w)))
		return bad_name(p, "unknown argument", p->arg, p->arglen, offer_flags);
	if (p->spec->nwidths == NST_FMT_MAX_WIDTHS)
		return bad(p, "too many column widths");
	p->spec->widths[p->spec->nwidths++] = w;
	return NST_OK;
}

static enum nst_status parse_arg(struct parse *p)
{
	const char *eq = memchr(p->arg, '=', p->arglen);

	if (p->arglen == 0)
		return bad(p, "empty argument");
	if (eq)
		return parse_keyed(p, eq);
	if (parse_flag(p))
		return NST_OK;
	return parse_width(p);
}

static enum nst_status unknown_format(const char *name, size_t len, struct nst_error *err)
{
	struct nst_suggest sg;
	char hint[128];
	nst_suggest_init(&sg, name, len);
	for (size_t i = 0; i < NFORMATS; i++)
		nst_suggest_offer(&sg, formats[i].name);
	nst_suggest_text(&sg, hint, sizeof hint);
	return nst_fail(err, NST_ERR_USAGE, "unknown format '%.*s'%s%s", (int)len, name,
			*hint ? "; " : "", hint);
}

enum nst_status nst_fmt_parse(const char *arg, struct nst_fmt_spec *spec,
			      struct nst_error *err)
{
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg);
	struct parse p = { .fmt = format_named(arg, len), .spec = spec, .err = err };
	enum nst_status s = NST_OK;

	if (!p.fmt)
		return unknown_format(arg, len, err);
	nst_fmt_spec_init(spec, p.fmt->style);
	while (colon && s == NST_OK) {
		p.arg = colon + 1;
		colon = strchr(p.arg, ':');
		p.arglen = colon ? (size_t)(colon - p.arg) : strlen(p.arg);
		s = parse_arg(&p);
	}
	return s;
}

/* ---- help ---- */

static void help_usage(FILE *out, const struct format_info *f)
{
	fputs(f->name, out);
	for (size_t i = 0; i < NARGS; i++)
		if (f->args & args[i].group)
			fprintf(out, "[:%s]", args[i].syntax);
	fputs("\n\n", out);
	for (size_t i = 0; i < NARGS; i++)
		if (f->args & args[i].group)
			fprintf(out, "    %-22s %s\n", args[i].syntax,
				args[i].help);
	fprintf(out, "\n%s\n", f->about);
}

static void help_list(FILE *out)
{
	fputs("\nFormats:\n\n", out);
	for (size_t i = 0; i < NFORMATS; i++)
		fprintf(out, "  %-8s %s (.%s)\n", formats[i].name,
			formats[i].summary, formats[i].ext);
	fputs("\nUse --help-formats <name> for a format's arguments, or"
	      " --help-formats ALL.\n\n", out);
}

enum nst_status nst_format_help(FILE *out, const char *name, struct nst_error *err)
{
	const struct format_info *f;

	if (!name) {
		help_list(out);
		return NST_OK;
	}
	if (!strcmp(name, "ALL")) {
		putc('\n', out);
		for (size_t i = 0; i < NFORMATS; i++)
			help_usage(out, &formats[i]);
		nst_unit_help(out);
		putc('\n', out);
		return NST_OK;
	}
	f = format_named(name, strlen(name));
	if (!f)
		return unknown_format(name, strlen(name), err);
	putc('\n', out);
	help_usage(out, f);
	if (f->args & ARGS_UNITS)
		nst_unit_help(out);
	putc('\n', out);
	return NST_OK;
}
