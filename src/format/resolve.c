/* A format as a run uses it (nstats.h's struct nst_format): the -f
 * element, the defaults of where it goes, --timeunit and the locale's
 * marks, resolved here once and nowhere else. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "format/format.h"

struct nst_format {
	struct nst_fmt_spec spec;
};

/* --timeunit by longest prefix, as nsys accepts it; NULL when unknown or
 * ambiguous. */
static const char *time_unit_of(const char *arg)
{
	static const struct { const char *word, *unit; } units[] = {
		{ "nsec", "ns" }, { "nanoseconds", "ns" }, { "usec", "us" },
		{ "microseconds", "us" }, { "msec", "ms" }, { "milliseconds", "ms" },
		{ "seconds", "sec" },
	};
	size_t len = strlen(arg);
	const char *hit = NULL;
	for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
		if (len == 0 || strncasecmp(units[i].word, arg, len) != 0)
			continue;
		if (hit && strcmp(hit, units[i].unit) != 0)
			return NULL;
		hit = units[i].unit;
	}
	return hit;
}

static enum nst_status resolve(const char *arg, const struct nst_format_options *o,
			       struct nst_fmt_spec *spec, struct nst_error *err)
{
	if (o->version < 1 || o->version > NST_API_VERSION)
		return nst_fail(err, NST_ERR_USAGE, "nst_format_options: version %d is not one this"
				" library (%s) knows", o->version, NSTATS_VERSION);
	const char *unit = o->timeunit ? time_unit_of(o->timeunit) : NULL;
	if (o->timeunit && !unit)
		return nst_fail(err, NST_ERR_USAGE,
				"--timeunit: unknown unit '%s' (nsec, usec, msec, seconds)", o->timeunit);
	if (!arg || strcmp(arg, ".") == 0)
		arg = o->target == NST_TO_CONSOLE ? "column" : "csv";
	enum nst_status s = nst_fmt_parse(arg, spec, err);
	if (s != NST_OK)
		return s;
	/* The format's own time= wins over --timeunit. */
	if (unit && !spec->time_unit)
		spec->time_unit = unit;
	spec->console = o->target != NST_TO_FILE;
	nst_fmt_set_numeric(spec, o->thousands_sep, o->grouping, o->decimal_point);
	return NST_OK;
}

enum nst_status nst_format_parse(const char *arg, const struct nst_format_options *o,
				 struct nst_format **out, struct nst_error *err)
{
	static const struct nst_format_options defaults = { .version = NST_API_VERSION };
	*out = NULL;
	struct nst_format *f = calloc(1, sizeof *f);
	if (!f)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	enum nst_status s = resolve(arg, o ? o : &defaults, &f->spec, err);
	if (s != NST_OK) {
		free(f);
		return s;
	}
	*out = f;
	return NST_OK;
}

void nst_format_free(struct nst_format *f) { free(f); }

const char *nst_format_ext(const struct nst_format *f) { return nst_fmt_ext(f->spec.style); }

const struct nst_fmt_spec *nst_format_spec(const struct nst_format *f) { return &f->spec; }

bool nst_format_typed_json(const struct nst_format *f)
{
	return f->spec.style == NST_STYLE_JSON && f->spec.typed;
}
