/* --help: a command's doc (struct command_doc) as text. */
#include <string.h>

#include "cli/cli.h"

/* Each line of text behind `indent` spaces. */
static void indented(FILE *out, const char *text, int indent)
{
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n");
		fprintf(out, "%*s%.*s\n", indent, "", (int)len, p);
		p += len + (p[len] == '\n');
	}
}

void cli_about(FILE *out, const struct nst_about *a, bool whole)
{
	cli_about_from(out, a, whole, NULL);
}

void cli_about_from(FILE *out, const struct nst_about *a, bool whole, const char *dir)
{
	char mark[1024] = "";
	if (dir)
		snprintf(mark, sizeof mark, " (from %s)", dir);
	else if (a->addition)
		snprintf(mark, sizeof mark, " (nstats addition)");
	if (!whole) {
		fprintf(out, "  %s -- %s%s\n", a->name, a->title, mark);
		return;
	}
	fprintf(out, "  %s -- %s%s\n\n", a->name, a->title, mark);
	indented(out, a->help, 6);
	if (!a->args)
		return;
	if (a->args[0]) {
		fputs("\n      Arguments:", out);
		for (const char *const *arg = a->args; *arg; arg++)
			fprintf(out, " %s", *arg);
		fputc('\n', out);
	}
	/* findings have no arguments at all: reports and rules have these */
	fputs("\n      All also take start=NS, end=NS and nvtx=RANGE[@DOMAIN][/INDEX].\n", out);
	indented(out, CLI_ARG_QUOTING, 6);
}

void cli_usage(FILE *out, const struct command_doc *d)
{
	fprintf(out, "usage: nstats %s %s\n\n%s\n\n", d->name, d->synopsis, d->intro);
	opt_help(out, d->opts, d->nopts);
	if (d->notes)
		fprintf(out, "\n%s", d->notes);
	if (d->lists >= 0) {
		struct nst_about a;
		fprintf(out, "\n%s\n", d->lists_intro);
		for (size_t i = 0; nst_catalog_entry((enum nst_catalog)d->lists, i, &a); i++) {
			fprintf(out, "\n  %s%s -- %s\n", a.name,
				a.informational ? " (informational)" : "", a.title);
			indented(out, a.help, 6);
		}
	}
	fprintf(out, "\n%s", d->exit_status);
}

int cli_no_input(const struct command_doc *d, int argc)
{
	if (argc <= 1)
		cli_usage(stderr, d);
	else
		cli_error("%s: no export given (nstats %s --help shows the options)", d->name,
			  d->name);
	return EXIT_USAGE;
}
