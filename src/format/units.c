/* Column tags ("Label:category_unit") and unit conversion.
 *
 * Conversion works on the text of a value, as nsys's does: a number is
 * scaled and printed with the display unit's decimals; anything else
 * passes through.  Integer times scaled up stay integers (and wrap like
 * nsys's int64), sizes always become decimals ("7 KB" is "7000.0" B). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "format/format_int.h"

enum family { FAM_TIME, FAM_BYTES, FAM_GID, FAM_ADDR, FAM_RATIO };

static const struct {
	const char *name;
	enum family family;
	double scale;        /* in ns or bytes */
	int decimals;        /* after a conversion into this unit */
	const char *help;
} units[NST_U_COUNT] = {
	[NST_U_NONE]      = { "", FAM_RATIO, 1, 0, "" },
	[NST_U_NS]        = { "ns", FAM_TIME, 1, 1, "nanoseconds" },
	[NST_U_US]        = { "us", FAM_TIME, 1e3, 3, "microseconds" },
	[NST_U_MS]        = { "ms", FAM_TIME, 1e6, 4, "milliseconds" },
	[NST_U_SEC]       = { "sec", FAM_TIME, 1e9, 4, "seconds" },
	[NST_U_B]         = { "B", FAM_BYTES, 1, 1, "bytes" },
	[NST_U_KB]        = { "KB", FAM_BYTES, 1e3, 2, "kilobytes, 1000 bytes" },
	[NST_U_KIB]       = { "KiB", FAM_BYTES, 1024.0, 2, "kibibytes, 1024 bytes" },
	[NST_U_MB]        = { "MB", FAM_BYTES, 1e6, 3, "megabytes, 1000^2 bytes" },
	[NST_U_MIB]       = { "MiB", FAM_BYTES, 1048576.0, 3, "mebibytes, 1024^2 bytes" },
	[NST_U_GB]        = { "GB", FAM_BYTES, 1e9, 3, "gigabytes, 1000^3 bytes" },
	[NST_U_GIB]       = { "GiB", FAM_BYTES, 1073741824.0, 3, "gibibytes, 1024^3 bytes" },
	[NST_U_GIDINT]    = { "gidint", FAM_GID, 1, 0, "the id as one decimal integer" },
	[NST_U_GIDHEX]    = { "gidhex", FAM_GID, 1, 0, "the id as one hex integer" },
	[NST_U_GIDSUBINT] = { "gidsubint", FAM_GID, 1, 0, "the id's fields, in decimal" },
	[NST_U_GIDSUBHEX] = { "gidsubhex", FAM_GID, 1, 0, "the id's fields, in hex" },
	[NST_U_UINT]      = { "uint", FAM_ADDR, 1, 0, "the address as a decimal integer" },
	[NST_U_HEX]       = { "hex", FAM_ADDR, 1, 0, "the address in hex, 0x..." },
	[NST_U_PCT]       = { "%", FAM_RATIO, 1, 0, "percent" },
};

static const struct {
	const char *name;
	enum family family;
	enum nst_unit shown;     /* default display unit */
	enum nst_unit untagged;  /* what "Label:cat" without a unit holds */
	bool header_unit;        /* addresses and ids have no unit to show */
	const char *suffix;
	const char *help;
} cats[] = {
	[NST_CAT_NONE]  = { "", FAM_RATIO, NST_U_NONE, NST_U_NONE, false, "", "" },
	[NST_CAT_TS]    = { "ts", FAM_TIME, NST_U_NS, NST_U_NS, true, "",
			    "timestamps, points in time" },
	[NST_CAT_DUR]   = { "dur", FAM_TIME, NST_U_NS, NST_U_NS, true, "",
			    "durations, lengths of time" },
	[NST_CAT_MEM]   = { "mem", FAM_BYTES, NST_U_MB, NST_U_B, true, "",
			    "sizes of memory" },
	[NST_CAT_THRU]  = { "thru", FAM_BYTES, NST_U_MB, NST_U_B, true, "/s",
			    "throughput, amounts per second" },
	[NST_CAT_GID]   = { "gid", FAM_GID, NST_U_GIDINT, NST_U_GIDINT, false, "",
			    "global ids of processes and threads" },
	[NST_CAT_ADDR]  = { "addr", FAM_ADDR, NST_U_HEX, NST_U_HEX, false, "",
			    "memory addresses" },
	[NST_CAT_RATIO] = { "ratio", FAM_RATIO, NST_U_PCT, NST_U_PCT, true, "",
			    "shares of a whole" },
};

#define NCATS (sizeof cats / sizeof cats[0])

/* Every spelling of a time unit: the format's (ns, us, ms, sec) and
 * --timeunit's (nsec, usec, msec, seconds), so that either works in both
 * places, and the long names. */
static const struct {
	const char *word;
	enum nst_unit unit;
} time_words[] = {
	{ "ns", NST_U_NS }, { "nsec", NST_U_NS }, { "nanoseconds", NST_U_NS },
	{ "us", NST_U_US }, { "usec", NST_U_US }, { "microseconds", NST_U_US },
	{ "ms", NST_U_MS }, { "msec", NST_U_MS }, { "milliseconds", NST_U_MS },
	{ "s", NST_U_SEC }, { "sec", NST_U_SEC }, { "seconds", NST_U_SEC },
};

#define NTIME_WORDS (sizeof time_words / sizeof *time_words)

enum nst_unit nst_time_unit_word(const char *word, size_t len, bool prefix)
{
	enum nst_unit hit = NST_U_NONE;
	for (size_t i = 0; i < NTIME_WORDS && len; i++) {
		size_t wl = strlen(time_words[i].word);
		if (prefix ? wl < len : wl != len)
			continue;
		if (strncasecmp(time_words[i].word, word, len) != 0)
			continue;
		if (hit != NST_U_NONE && hit != time_words[i].unit)
			return NST_U_NONE;
		hit = time_words[i].unit;
	}
	return hit;
}

const char *nst_time_word(size_t i)
{
	return i < NTIME_WORDS ? time_words[i].word : NULL;
}

enum nst_unit nst_unit_lookup(const char *name, size_t len)
{
	for (int u = NST_U_NS; u < NST_U_COUNT; u++)
		if (strlen(units[u].name) == len &&
		    !strncasecmp(units[u].name, name, len))
			return (enum nst_unit)u;
	return nst_time_unit_word(name, len, false);
}

void nst_unit_offer(struct nst_suggest *sg, enum nst_cat cat)
{
	for (int u = NST_U_NS; u < NST_U_COUNT; u++)
		if (nst_unit_allowed(cat, (enum nst_unit)u))
			nst_suggest_offer(sg, units[u].name);
	for (size_t i = 0; i < NTIME_WORDS; i++)
		if (nst_unit_allowed(cat, time_words[i].unit))
			nst_suggest_offer(sg, time_words[i].word);
}

void nst_cat_offer(struct nst_suggest *sg)
{
	nst_suggest_offer(sg, "time");
	nst_suggest_offer(sg, "bytes");
	for (size_t c = NST_CAT_TS; c < NCATS; c++)
		nst_suggest_offer(sg, cats[c].name);
}

const char *nst_unit_name(enum nst_unit u)
{
	return units[u].name;
}

bool nst_unit_allowed(enum nst_cat cat, enum nst_unit u)
{
	return cat != NST_CAT_NONE && u != NST_U_NONE &&
	       units[u].family == cats[cat].family;
}

enum nst_cat nst_cat_lookup(const char *name, size_t len)
{
	for (size_t c = NST_CAT_TS; c < NCATS; c++)
		if (strlen(cats[c].name) == len &&
		    !strncasecmp(cats[c].name, name, len))
			return (enum nst_cat)c;
	return NST_CAT_NONE;
}

void nst_tag_parse(const char *name, struct nst_tag *tag)
{
	const char *colon = strchr(name, ':'), *t, *us;
	size_t catlen;

	tag->label = name;
	tag->label_len = colon ? (size_t)(colon - name) : strlen(name);
	tag->cat = NST_CAT_NONE;
	tag->src = NST_U_NONE;
	if (!colon)
		return;
	t = colon + 1;
	us = strchr(t, '_');
	catlen = us ? (size_t)(us - t) : strlen(t);
	tag->cat = nst_cat_lookup(t, catlen);
	if (tag->cat == NST_CAT_NONE)
		return;
	if (!us || !us[1]) {
		tag->src = cats[tag->cat].untagged;
		return;
	}
	tag->src = nst_unit_lookup(us + 1, strlen(us + 1));
	/* a unit nsys does not know drops the whole tag */
	if (!nst_unit_allowed(tag->cat, tag->src))
		tag->cat = NST_CAT_NONE;
}

static enum nst_unit resolve(enum nst_cat cat, const char *first,
			     const char *second)
{
	const char *name = first ? first : second;
	enum nst_unit u;

	if (!name)
		return cats[cat].shown;
	u = nst_unit_lookup(name, strlen(name));
	return nst_unit_allowed(cat, u) ? u : cats[cat].shown;
}

enum nst_unit nst_unit_display(const struct nst_fmt_spec *spec,
			       enum nst_cat cat)
{
	switch (cat) {
	case NST_CAT_TS:
		return resolve(cat, spec->only.ts, spec->time_unit);
	case NST_CAT_DUR:
		return resolve(cat, spec->only.dur, spec->time_unit);
	case NST_CAT_MEM:
		return resolve(cat, spec->only.mem, spec->mem_unit);
	case NST_CAT_THRU:
		return resolve(cat, spec->only.thru, spec->mem_unit);
	case NST_CAT_GID:
		return resolve(cat, spec->gid_unit, NULL);
	case NST_CAT_ADDR:
		return resolve(cat, spec->addr_unit, NULL);
	case NST_CAT_RATIO:
		return NST_U_PCT;
	case NST_CAT_NONE:
		break;
	}
	return NST_U_NONE;
}

char *nst_tag_header(const struct nst_tag *tag, enum nst_unit shown,
		     bool with_unit)
{
	bool unit = with_unit && tag->cat != NST_CAT_NONE &&
		    cats[tag->cat].header_unit;
	size_t size = tag->label_len + 32;
	char *h = malloc(size);

	if (!h)
		return NULL;
	if (unit)
		snprintf(h, size, "%.*s (%s%s)", (int)tag->label_len,
			 tag->label, units[shown].name, cats[tag->cat].suffix);
	else
		snprintf(h, size, "%.*s", (int)tag->label_len, tag->label);
	return h;
}

/* ---- conversion ---- */

static const char *scale_time(enum nst_unit src, enum nst_unit dst,
			      const char *s, enum nst_numkind k, char *out)
{
	double from = units[src].scale, to = units[dst].scale;

	if (k == NST_NUM_INT && from > to) {
		/* nsys multiplies in int64 and lets it wrap */
		uint64_t v = (uint64_t)strtoll(s, NULL, 10);
		nst_num_itoa((int64_t)(v * (uint64_t)(from / to)), out);
		return out;
	}
	/* times scale by one factor, sizes multiply then divide: that is
	 * how nsys rounds (x * 0.001 and x / 1000 can differ) */
	nst_num_fixed(strtod(s, NULL) * (from / to), units[dst].decimals, out);
	return out;
}

static const char *scale_bytes(enum nst_unit src, enum nst_unit dst,
			       const char *s, char *out)
{
	nst_num_fixed(strtod(s, NULL) * units[src].scale / units[dst].scale,
		      units[dst].decimals, out);
	return out;
}

static const char *gid_text(enum nst_unit dst, const char *s, char *out)
{
	uint64_t v = (uint64_t)strtoll(s, NULL, 10);
	unsigned hw = (unsigned)(v >> 56), vm = (unsigned)(v >> 48) & 0xFF;
	unsigned pid = (unsigned)(v >> 24) & 0xFFFFFF, tid = v & 0xFFFFFF;

	if (dst == NST_U_GIDHEX)
		snprintf(out, NST_NUMBUF, "0x%llX", (unsigned long long)v);
	else if (dst == NST_U_GIDSUBINT)
		snprintf(out, NST_NUMBUF, "%03u:%03u:%08u:%08u", hw, vm, pid,
			 tid);
	else
		snprintf(out, NST_NUMBUF, "%02X:%02X:%06X:%06X", hw, vm, pid,
			 tid);
	return out;
}

/* A hex address ("7f00", "0x7F00") as decimal; s itself when it is not
 * one. */
static const char *hex_to_uint(const char *s, char *out)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return s;
	v = strtoull(s, &end, 16);
	if (*end)
		return s;
	snprintf(out, NST_NUMBUF, "%llu", v);
	return out;
}

static const char *convert_addr(enum nst_unit src, const char *s,
				enum nst_numkind k, char *out)
{
	if (src == NST_U_HEX)
		return hex_to_uint(s, out);
	if (k != NST_NUM_INT || *s == '-')
		return s;
	snprintf(out, NST_NUMBUF, "0x%llX", strtoull(s, NULL, 10));
	return out;
}

const char *nst_unit_convert(enum nst_cat cat, enum nst_unit src,
			     enum nst_unit dst, const char *s, size_t *len,
			     char *out)
{
	enum nst_numkind k;
	const char *r = s;

	if (src == dst || cat == NST_CAT_NONE)
		return s;
	k = nst_num_kind(s, *len);
	if (cat == NST_CAT_ADDR)
		r = convert_addr(src, s, k, out);
	else if (k == NST_NUM_NONE)
		return s;
	else if (cats[cat].family == FAM_TIME)
		r = scale_time(src, dst, s, k, out);
	else if (cats[cat].family == FAM_BYTES)
		r = scale_bytes(src, dst, s, out);
	else if (cat == NST_CAT_GID && src == NST_U_GIDINT &&
		 k == NST_NUM_INT)
		r = gid_text(dst, s, out);
	if (r != s)
		*len = strlen(r);
	return r;
}

/* ---- help ---- */

static void help_units_of(FILE *out, enum nst_cat cat)
{
	for (int u = NST_U_NS; u < NST_U_COUNT; u++)
		if (nst_unit_allowed(cat, (enum nst_unit)u))
			fprintf(out, " %s", units[u].name);
}

/* A time unit's other spellings, which --timeunit takes too. */
static void help_spellings(FILE *out, enum nst_unit u)
{
	const char *sep = " (also";
	for (size_t i = 0; i < NTIME_WORDS; i++) {
		if (time_words[i].unit != u || !strcmp(time_words[i].word, units[u].name))
			continue;
		fprintf(out, "%s %s", sep, time_words[i].word);
		sep = ",";
	}
	if (*sep == ',')
		fputc(')', out);
}

void nst_unit_help(FILE *out)
{
	fputs("Units\n\n"
	      "    Reports tag some columns with a category of data.  The\n"
	      "    argument <category>=<unit> picks the unit such columns are\n"
	      "    shown in; values are converted and the header names the\n"
	      "    unit.  Several may be given; a later one wins.\n\n"
	      "    category  default    units\n", out);
	for (size_t c = NST_CAT_TS; c < NCATS; c++) {
		fprintf(out, "    %-8s  %-9s ", cats[c].name,
			units[cats[c].shown].name);
		help_units_of(out, (enum nst_cat)c);
		fprintf(out, "\n              (%s)\n", cats[c].help);
	}
	fputs("\n    time=<unit> sets ts and dur; bytes=<unit> sets mem and"
	      " thru.\n\n    unit       meaning\n", out);
	for (int u = NST_U_NS; u < NST_U_COUNT; u++) {
		fprintf(out, "    %-9s  %s", units[u].name, units[u].help);
		help_spellings(out, (enum nst_unit)u);
		fputc('\n', out);
	}
	fputs("\n    Converted values keep a fixed number of decimals for\n"
	      "    the unit (3 for us, 4 for ms and sec, 2 for KB and KiB, 3\n"
	      "    for the larger byte units), so a smaller unit shows more\n"
	      "    precision.\n\n"
	      "    noconv     show values as the report wrote them, with\n"
	      "               that unit in the header\n"
	      "    nohdrunit  leave the unit out of the header\n", out);
}
