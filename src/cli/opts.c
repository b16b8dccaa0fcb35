/* A small option parser driven by a table: --long, --long=value,
 * --long value, -s value, -svalue; "--" ends the options. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

void cli_error(const char *fmt, ...)
{
	va_list ap;
	fflush(stdout);
	fputs("nstats: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

const char *cli_hint(const char *name, const char *const *names, size_t n, char *buf,
		     size_t size)
{
	char text[256];
	nst_suggest_names(name, names, n, text, sizeof text);
	snprintf(buf, size, "%s%s", *text ? "; " : "", text);
	return buf;
}

const char *cli_hint_catalogs(const char *name, const enum nst_catalog *cats, size_t ncats,
			      char *buf, size_t size)
{
	size_t n = 0;
	for (size_t c = 0; c < ncats; c++)
		n += nst_catalog_size(cats[c]);
	const char **names = malloc((n ? n : 1) * sizeof *names);
	if (!names) {
		buf[0] = '\0'; /* a message without a hint beats none */
		return buf;
	}
	n = 0;
	struct nst_about a;
	for (size_t c = 0; c < ncats; c++)
		for (size_t i = 0; nst_catalog_entry(cats[c], i, &a); i++)
			names[n++] = a.name;
	cli_hint(name, names, n, buf, size);
	free(names);
	return buf;
}

int exit_of(enum nst_status s)
{
	switch (s) {
	case NST_OK: return EXIT_OK;
	case NST_ERR_USAGE:
	case NST_ERR_UNKNOWN: return EXIT_USAGE;
	case NST_ERR_DB: return EXIT_INPUT;
	case NST_ERR_NODATA: return EXIT_SKIPPED;
	case NST_ERR_IO: return EXIT_OUTPUT;
	case NST_ERR_INTERRUPTED: return EXIT_INTERRUPTED;
	default: return EXIT_FAILED;
	}
}

static const struct opt *find_long(const struct opt *opts, size_t n,
				   const char *name, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(opts[i].longname) == len &&
		    strncmp(opts[i].longname, name, len) == 0)
			return &opts[i];
	return NULL;
}

static const struct opt *find_short(const struct opt *opts, size_t n, char c)
{
	for (size_t i = 0; i < n; i++)
		if (opts[i].shortname && opts[i].shortname == c)
			return &opts[i];
	return NULL;
}

/* An optional value is taken from the next word only when it does not
 * look like an option or an input file. */
static bool takes_next(const struct opt *o, const char *next)
{
	if (!next)
		return false;
	if (o->arg == OPT_REQUIRED)
		return true;
	return o->arg == OPT_OPTIONAL && next[0] != '-' &&
	       (strcmp(next, "true") == 0 || strcmp(next, "false") == 0 ||
		strcmp(next, "ALL") == 0 || !strchr(next, '.'));
}

/* The option's spellings closest to the word, "--" and all. */
static int unknown_long(const char *cmd, const struct opt *opts, size_t n, const char *word,
			size_t len)
{
	char spelled[CLI_MAX_OPTS][64], typo[64], hint[300];
	const char *names[CLI_MAX_OPTS];
	size_t k = 0;
	for (size_t i = 0; i < n && k < CLI_MAX_OPTS; i++, k++) {
		snprintf(spelled[k], sizeof spelled[k], "--%s", opts[i].longname);
		names[k] = spelled[k];
	}
	snprintf(typo, sizeof typo, "%.*s", (int)len, word);
	cli_error("%s: unknown option '%.*s'%s (see nstats %s --help)", cmd, (int)len, word,
		  cli_hint(typo, names, k, hint, sizeof hint), cmd);
	return EXIT_USAGE;
}

static int parse_long(const char *cmd, const struct opt *opts, size_t n,
		      char **argv, int *i, opt_fn fn, void *state)
{
	const char *name = argv[*i] + 2;
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct opt *o = find_long(opts, n, name, len);
	if (!o)
		return unknown_long(cmd, opts, n, argv[*i], len + 2);
	const char *value = NULL;
	if (eq) {
		if (o->arg == OPT_NONE) {
			cli_error("%s: option '--%s' takes no value", cmd, o->longname);
			return EXIT_USAGE;
		}
		value = eq + 1;
	} else if (takes_next(o, argv[*i + 1])) {
		value = argv[++*i];
	} else if (o->arg == OPT_REQUIRED) {
		cli_error("%s: option '--%s' needs a value", cmd, o->longname);
		return EXIT_USAGE;
	}
	return fn(state, o, value);
}

static int parse_short(const char *cmd, const struct opt *opts, size_t n,
		       char **argv, int *i, opt_fn fn, void *state)
{
	const char *word = argv[*i];
	const struct opt *o = find_short(opts, n, word[1]);
	if (!o) {
		cli_error("%s: unknown option '-%c' (see nstats %s --help)", cmd,
			  word[1], cmd);
		return EXIT_USAGE;
	}
	const char *value = NULL;
	if (o->arg != OPT_NONE && word[2]) {
		value = word + 2;
	} else if (o->arg == OPT_NONE && word[2]) {
		cli_error("%s: option '-%c' takes no value", cmd, word[1]);
		return EXIT_USAGE;
	} else if (takes_next(o, argv[*i + 1])) {
		value = argv[++*i];
	} else if (o->arg == OPT_REQUIRED) {
		cli_error("%s: option '-%c' needs a value", cmd, word[1]);
		return EXIT_USAGE;
	}
	return fn(state, o, value);
}

int opt_parse(const char *cmd, const struct opt *opts, size_t n, int argc,
	      char **argv, opt_fn fn, void *state)
{
	bool operands_only = false;
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i];
		int rc;
		if (operands_only || w[0] != '-' || w[1] == '\0')
			rc = fn(state, NULL, w);
		else if (strcmp(w, "--") == 0) {
			operands_only = true;
			continue;
		} else if (w[1] == '-')
			rc = parse_long(cmd, opts, n, argv, &i, fn, state);
		else
			rc = parse_short(cmd, opts, n, argv, &i, fn, state);
		if (rc)
			return rc;
	}
	return 0;
}

int opt_bool(const char *cmd, const struct opt *o, const char *value, bool *out)
{
	if (!value || strcmp(value, "true") == 0) {
		*out = true;
		return 0;
	}
	if (strcmp(value, "false") == 0) {
		*out = false;
		return 0;
	}
	cli_error("%s: option '--%s' takes true or false, not '%s'", cmd,
		  o->longname, value);
	return EXIT_USAGE;
}

void opt_help(FILE *out, const struct opt *opts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct opt *o = &opts[i];
		if (o->shortname)
			fprintf(out, "  -%c, --%s", o->shortname, o->longname);
		else
			fprintf(out, "      --%s", o->longname);
		fprintf(out, "%s%s\n", o->metavar ? " " : "", o->metavar ? o->metavar : "");
		for (const char *p = o->help; *p;) {
			const char *nl = strchr(p, '\n');
			size_t l = nl ? (size_t)(nl - p) : strlen(p);
			fprintf(out, "          %.*s\n", (int)l, p);
			p += l + (nl ? 1 : 0);
		}
	}
}
