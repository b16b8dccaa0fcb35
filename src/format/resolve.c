/* A format as a run uses it (nstats.h's struct nst_format): the -f
 * element, the defaults of where it goes, --timeunit and the locale's
 * marks, resolved here once and nowhere else. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "format/format_int.h"

struct nst_format {
	struct nst_fmt_spec spec;
};

/* --timeunit: a time unit's spelling or the start of one, as nsys takes
 * a prefix of nsec, usec, msec or seconds; NULL when unknown or ambiguous. */
static const char *time_unit_of(const char *arg)
{
	enum nst_unit u = nst_time_unit_word(arg, strlen(arg), true);
	return u == NST_U_NONE ? NULL : nst_unit_name(u);
}

static enum nst_status bad_timeunit(const char *arg, struct nst_error *err)
{
	struct nst_suggest sg;
	char hint[128];
	nst_suggest_init(&sg, arg, strlen(arg));
	for (size_t i = 0; nst_time_word(i); i++)
		nst_suggest_offer(&sg, nst_time_word(i));
	nst_suggest_text(&sg, hint, sizeof hint);
	return nst_fail(err, NST_ERR_USAGE, "--timeunit: unknown unit '%s'%s%s (ns or nsec, us or"
			" usec, ms or msec, s, sec or seconds, or the start of one)", arg,
			*hint ? "; " : "", hint);
}

static enum nst_status resolve(const char *arg, const struct nst_format_options *o,
			       struct nst_fmt_spec *spec, struct nst_error *err)
{
	if (o->version < 1 || o->version > NST_API_VERSION)
		return nst_fail(err, NST_ERR_USAGE, "nst_format_options: version %d is not one this"
				" library (%s) knows", o->version, NSTATS_VERSION);
	const char *unit = o->timeunit ? time_unit_of(o->timeunit) : NULL;
	if (o->timeunit && !unit)
		return bad_timeunit(o->timeunit, err);
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
