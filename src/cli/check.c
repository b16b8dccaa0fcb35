/* `nstats check EXPORT...`: the audit of exports (nst_audit_run), with
 * its options, its output and its exit status. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

enum { O_FORMAT, O_STRICT, O_REPORT, O_QUIET, O_OUTPUT, O_FORCE, O_HELP };

static const struct opt options[] = {
	{ 'f', "format", OPT_REQUIRED, "text|json",
	  "text (default): one line per finding, with examples under the ones\n"
	  "that found something; json: one object per export (an array of them\n"
	  "for several exports), stable keys, counts as numbers.", O_FORMAT },
	{ 0, "strict", OPT_NONE, NULL,
	  "Exit 6 when a finding that is not informational counted something.",
	  O_STRICT },
	{ 'r', "report", OPT_REQUIRED, "NAME[,NAME...]",
	  "Reports or rules (as stats and analyze name them; arguments after ':'\n"
	  "are ignored) whose tables the schema finding looks for, and that\n"
	  "skipped_reports runs to name those that print SKIPPED on the export,\n"
	  "with their reason.  Repeatable.  Default: nsys's default report set.",
	  O_REPORT },
	{ 'q', "quiet", OPT_NONE, NULL,
	  "Print nothing but errors: the exit status tells (with --strict).", O_QUIET },
	{ 'o', "output", OPT_REQUIRED, "FILE",
	  "Write to FILE instead of standard output (\"-\": standard output).", O_OUTPUT },
	{ 0, "force-overwrite", OPT_OPTIONAL, "[true|false]",
	  "Replace the -o file when it exists (refused otherwise).", O_FORCE },
	{ 'h', "help", OPT_NONE, NULL, "This help.", O_HELP },
};
#define NOPTIONS (sizeof options / sizeof *options)

struct check_cmd {
	bool json, strict, quiet, force, help;
	const char *output;
	const char **reports, **inputs;
	size_t nreports, ninputs;
	char **owned; /* the -r words split at commas */
	size_t nowned;
};

static int push(const char ***list, size_t *n, const char *s)
{
	const char **p = realloc(*list, (*n + 1) * sizeof *p);
	if (!p)
		return -1;
	p[(*n)++] = s;
	*list = p;
	return 0;
}

static int add_reports(struct check_cmd *c, const char *v)
{
	char *copy = strdup(v);
	char **owned = copy ? realloc(c->owned, (c->nowned + 1) * sizeof *owned) : NULL;
	if (!owned) {
		free(copy);
		return -1;
	}
	c->owned = owned;
	c->owned[c->nowned++] = copy;
	for (char *save, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (push(&c->reports, &c->nreports, tok))
			return -1;
	return 0;
}

static int set_format(struct check_cmd *c, const char *v)
{
	if (strcmp(v, "text") == 0 || strcmp(v, "json") == 0) {
		c->json = v[0] == 'j';
		return 0;
	}
	cli_error("check: unknown format '%s' (text or json)", v);
	return EXIT_USAGE;
}

static int on_option(void *state, const struct opt *o, const char *v)
{
	struct check_cmd *c = state;
	int bad = 0;
	if (!o)
		bad = push(&c->inputs, &c->ninputs, v);
	else switch (o->id) {
	case O_FORMAT: return set_format(c, v);
	case O_STRICT: c->strict = true; break;
	case O_REPORT: bad = add_reports(c, v); break;
	case O_QUIET: c->quiet = true; break;
	case O_OUTPUT: c->output = v; break;
	case O_FORCE: return opt_bool("check", o, v, &c->force);
	case O_HELP: c->help = true; break;
	}
	if (bad) {
		cli_error("out of memory");
		return EXIT_FAILED;
	}
	return 0;
}

void doc_check(struct command_doc *d)
{
	_Static_assert(NOPTIONS <= CLI_MAX_OPTS, "struct command_doc holds the options");
	*d = (struct command_doc){
		.name = "check",
		.synopsis = "[OPTION...] EXPORT...",
		.intro = "Audits Nsight Systems SQLite exports and PyTorch profiler traces\n"
			 "(nstats addition; nsys has no such command): is something in the\n"
			 "capture hiding or doubling work?",
		.nopts = NOPTIONS,
		.lists = NST_FINDINGS,
		.lists_intro = "Findings, in the order they print (status FOUND, info, ok, or n/a when\n"
			       "the export lacks what a finding reads):",
		.exit_status =
			"Exit status: 0 checked (whatever was found), 2 usage error, 3 an export\n"
			"cannot be read or holds values nstats cannot compute with, 4 output\n"
			"cannot be written, 6 --strict and a finding\n"
			"that is not informational counted something; over several exports,\n"
			"the highest.\n",
	};
	memcpy(d->opts, options, sizeof options);
}

static int check_reports(const struct check_cmd *c)
{
	for (size_t i = 0; i < c->nreports; i++) {
		char name[128];
		snprintf(name, sizeof name, "%.*s", (int)strcspn(c->reports[i], ":"), c->reports[i]);
		struct nst_about about;
		if (!nst_catalog_find(NST_REPORTS, name, &about) &&
		    !nst_catalog_find(NST_RULES, name, &about)) {
			static const enum nst_catalog both[] = { NST_REPORTS, NST_RULES };
			char hint[300];
			cli_error("check: report or rule '%s' could not be found%s (see nstats stats "
				  "--help-reports, nstats analyze --help-rules)", name,
				  cli_hint_catalogs(name, both, 2, hint, sizeof hint));
			return EXIT_USAGE;
		}
	}
	return 0;
}

/* Checks one export and prints it; returns its exit code. */
static int check_one(const struct check_cmd *c, FILE *out, const char *input,
		     size_t *printed)
{
	struct nst_error err = { 0 };
	struct nst_options o;
	cli_export_options(&o, c->quiet);
	struct nst_export *x = NULL;
	struct nst_audit *a = NULL;
	enum nst_status s = nst_export_open(input, &o, &x, &err);
	if (s == NST_OK)
		s = nst_audit_run(x, c->reports, c->nreports, &a, &err);
	if (s == NST_OK && !c->quiet) {
		if (c->json)
			fputs(*printed ? ",\n" : "", out);
		s = nst_audit_write(a, c->json, out, &err);
		++*printed;
	}
	int rc = exit_of(s);
	if (s != NST_OK)
		cli_error("%s", err.msg);
	else if (c->strict && nst_audit_found(a))
		rc = EXIT_CHECK_FOUND;
	nst_audit_free(a);
	nst_export_close(x);
	return rc;
}

static FILE *open_output(const struct check_cmd *c)
{
	if (!c->output || strcmp(c->output, "-") == 0)
		return stdout;
	FILE *f = fopen(c->output, c->force ? "w" : "wx");
	if (!f)
		cli_error("%s: %s%s", c->output, strerror(errno),
			  errno == EEXIST ? " (use --force-overwrite to replace it)" : "");
	return f;
}

static int close_output(FILE *f, const char *name)
{
	if (f == stdout)
		return 0;
	if (ferror(f) | fclose(f)) {
		cli_error("%s: write failed", name);
		return EXIT_OUTPUT;
	}
	return 0;
}

static int max_rc(int a, int b) { return a > b ? a : b; }

static int run_check(struct check_cmd *c)
{
	size_t ndef;
	const char *const *def = nst_catalog_defaults(NST_REPORTS, &ndef);
	bool none_given = c->nreports == 0;
	for (size_t i = 0; none_given && i < ndef; i++)
		if (push(&c->reports, &c->nreports, def[i]))
			return EXIT_FAILED;
	int rc = check_reports(c);
	FILE *out = rc ? NULL : open_output(c);
	if (rc || !out)
		return rc ? rc : EXIT_OUTPUT;
	bool array = c->json && c->ninputs > 1 && !c->quiet;
	size_t printed = 0;
	if (array)
		fputs("[", out);
	for (size_t i = 0; i < c->ninputs; i++)
		rc = max_rc(rc, check_one(c, out, c->inputs[i], &printed));
	if (array)
		fputs("]", out);
	if (c->json && !c->quiet && (printed || array))
		fputc('\n', out);
	return max_rc(rc, close_output(out, c->output));
}

int cmd_check(int argc, char **argv)
{
	struct check_cmd c = { 0 };
	int rc = opt_parse("check", options, NOPTIONS, argc, argv, on_option, &c);
	struct command_doc doc;
	doc_check(&doc);
	if (rc == 0 && c.help) {
		cli_usage(stdout, &doc);
	} else if (rc == 0 && c.ninputs == 0) {
		rc = cli_no_input(&doc, argc);
	} else if (rc == 0) {
		rc = run_check(&c);
	}
	for (size_t i = 0; i < c.nowned; i++)
		free(c.owned[i]);
	free(c.owned);
	free(c.reports);
	free(c.inputs);
	return rc;
}
