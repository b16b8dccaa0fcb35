/* The manual page nstats(1), in roff: the commands' docs (the tables their
 * --help prints and their parsers read), the reports, rules and findings
 * of the library's catalog, the formats' help and the environment, so the
 * page cannot say other than the program. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* A UTF-8 sequence as roff's \[uXXXX], so that the page is ASCII; returns
 * the bytes it took (1 for a byte that starts no valid sequence: '?'). */
static size_t roff_utf8(FILE *out, const unsigned char *p)
{
	size_t n = *p >= 0xF0 ? 4 : *p >= 0xE0 ? 3 : *p >= 0xC0 ? 2 : 1;
	unsigned long cp = n == 1 ? 0 : *p & (0x7F >> n);
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xC0) != 0x80)
			n = 1;
		else
			cp = cp << 6 | (p[i] & 0x3F);
	}
	if (n == 1)
		fputc('?', out);
	else
		fprintf(out, "\\[u%04lX]", cp);
	return n;
}

/* Text as roff reads it literally: backslashes escaped, a line never
 * starting with a control character, every line its own. */
static void roff_text(FILE *out, const char *text)
{
	bool line_start = true;
	for (const char *p = text; *p; p++) {
		if (line_start && (*p == '.' || *p == '\''))
			fputs("\\&", out);
		if (*p == '\\')
			fputs("\\e", out);
		else if (*p == '-')
			fputs("\\-", out);
		else if ((unsigned char)*p >= 0x80)
			p += roff_utf8(out, (const unsigned char *)p) - 1;
		else
			fputc(*p, out);
		line_start = *p == '\n';
	}
	if (!line_start)
		fputc('\n', out);
}

/* A paragraph whose lines break where the text breaks them. */
static void roff_lines(FILE *out, const char *text)
{
	fputs(".nf\n", out);
	roff_text(out, text);
	fputs(".fi\n", out);
}

static void option_entry(FILE *out, const struct opt *o)
{
	fputs(".TP\n", out);
	if (o->shortname)
		fprintf(out, "\\fB\\-%c\\fR, ", o->shortname);
	fprintf(out, "\\fB\\-\\-%s\\fR", o->longname);
	if (o->metavar) {
		fputs(" \\fI", out);
		for (const char *p = o->metavar; *p; p++)
			fputs(*p == '-' ? "\\-" : *p == '\\' ? "\\e" : (char[]){ *p, 0 }, out);
		fputs("\\fR", out);
	}
	fputc('\n', out);
	roff_lines(out, o->help);
}

static void command_section(FILE *out, const struct command *c)
{
	struct command_doc d;
	c->doc(&d);
	fprintf(out, ".SS \"nstats %s %s\"\n", d.name, d.synopsis);
	roff_lines(out, d.intro);
	for (size_t i = 0; i < d.nopts; i++)
		option_entry(out, &d.opts[i]);
	if (d.notes) {
		fputs(".PP\n", out);
		roff_lines(out, d.notes);
	}
	fputs(".PP\n", out);
	roff_lines(out, d.exit_status);
}

static void catalog_section(FILE *out, const char *title, enum nst_catalog c,
			    const char *intro)
{
	struct nst_about a;
	fprintf(out, ".SH %s\n", title);
	roff_lines(out, intro);
	for (size_t i = 0; nst_catalog_entry(c, i, &a); i++) {
		fprintf(out, ".TP\n\\fB%s\\fR \\(em ", a.name);
		roff_text(out, a.title);
		if (a.addition || a.informational)
			fprintf(out, "(%s)\n", a.addition ? "nstats addition" : "informational");
		roff_lines(out, a.help);
		if (a.args && a.args[0]) {
			fputs(".br\nArguments:", out);
			for (const char *const *arg = a.args; *arg; arg++)
				fprintf(out, " \\fI%s\\fR", *arg);
			fputc('\n', out);
		}
	}
}

/* --help-formats ALL, captured and set as it prints. */
static void formats_section(FILE *out)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	struct nst_error err = { 0 };
	fputs(".SH FORMATS\n", out);
	if (mem && nst_format_help(mem, "ALL", &err) == NST_OK && fclose(mem) == 0) {
		mem = NULL;
		roff_lines(out, text);
	}
	if (mem)
		fclose(mem);
	free(text);
}

void cli_manual(FILE *out)
{
	fprintf(out, ".TH NSTATS 1 \"\" \"nstats %s\" \"User Commands\"\n", NSTATS_VERSION);
	fputs(".SH NAME\nnstats \\- statistics and trace reports from Nsight Systems SQLite"
	      " exports\n.SH SYNOPSIS\n", out);
	for (size_t i = 0; i < cli_ncommands; i++) {
		struct command_doc d;
		cli_commands[i].doc(&d);
		fprintf(out, "%s\\fBnstats %s\\fR ", i ? ".br\n" : "", d.name);
		roff_text(out, d.synopsis);
	}
	fputs(".SH DESCRIPTION\n", out);
	roff_lines(out, "nstats reads the SQLite exports of NVIDIA Nsight Systems and prints the\n"
			"reports of `nsys stats` and `nsys analyze` with the same names, options,\n"
			"columns and formats, and an audit of the export itself.  The commands:\n");
	for (size_t i = 0; i < cli_ncommands; i++) {
		fprintf(out, ".TP\n\\fB%s\\fR\n", cli_commands[i].name);
		roff_text(out, cli_commands[i].summary);
	}
	fputs(".SH COMMANDS\n", out);
	for (size_t i = 0; i < cli_ncommands; i++)
		command_section(out, &cli_commands[i]);
	for (size_t i = 0; i < cli_nsetup_commands; i++)
		command_section(out, &cli_setup_commands[i]);
	catalog_section(out, "REPORTS", NST_REPORTS, "What nstats stats -r runs (the default set"
			" is nsys's); every report also takes start=NS, end=NS and nvtx=RANGE.");
	catalog_section(out, "RULES", NST_RULES, "What nstats analyze -r runs.");
	catalog_section(out, "FINDINGS", NST_FINDINGS, "What nstats check looks for, in order.");
	formats_section(out);
	fputs(".SH ENVIRONMENT\n", out);
	for (size_t i = 0; i < cli_nenvironment; i++) {
		fprintf(out, ".TP\n\\fB%s\\fR\n", cli_environment[i].name);
		roff_lines(out, cli_environment[i].help);
	}
	fputs(".SH SEE ALSO\n\\fBnsys\\fR(1), \\fBsqlite3\\fR(1)\n", out);
}
