/* `nstats completion bash`: a bash completion script made from the tables
 * that --help prints (commands, each command's options, the catalogs and
 * the formats), so that a new command, option, report or format completes
 * without anyone editing a list.  `make install` writes it where
 * bash-completion looks for it. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* What an option's value completes to. */
enum value_kind {
	V_NONE,       /* a value with nothing to offer (a time, a number) */
	V_WORDS,      /* the words of its metavar: "text|json" */
	V_CATALOG,    /* the names of the command's catalog */
	V_FORMATS,    /* the format names */
	V_FILES,      /* any file or folder */
};

/* Options whose values are names from elsewhere, by their long name; the
 * list options take ALL as well (added by the script's words). */
static const struct {
	const char *longname;
	enum value_kind kind;
	bool all;
} value_roles[] = {
	{ "report", V_CATALOG, false },      { "rule", V_CATALOG, false },
	{ "help-reports", V_CATALOG, true }, { "help-rules", V_CATALOG, true },
	{ "format", V_FORMATS, false },      { "help-formats", V_FORMATS, true },
	{ "output", V_FILES, false },
};

/* The words of a metavar that lists them ("exact|base", "[true|false]");
 * false for one that names a kind of value ("TIME", "[NAME|ALL]"). */
static bool metavar_words(const char *m)
{
	if (!m)
		return false;
	size_t len = strlen(m);
	if (len > 2 && m[0] == '[' && m[len - 1] == ']')
		m++, len -= 2;
	size_t words = strspn(m, "abcdefghijklmnopqrstuvwxyz|");
	return words == len && strchr(m, '|') && m[0] != '|' && m[len - 1] != '|' &&
	       !strstr(m, "||");
}

static void print_metavar_words(FILE *out, const char *m)
{
	size_t len = strlen(m);
	if (m[0] == '[')
		m++, len -= 2;
	for (size_t i = 0; i < len; i++)
		fputc(m[i] == '|' ? ' ' : m[i], out);
}

/* A metavar that names a file or folder ("FILE", "DIR", "PATH"). */
static bool is_path(const char *m)
{
	return m && (strstr(m, "FILE") || strstr(m, "DIR") || strstr(m, "PATH"));
}

static enum value_kind kind_of(const struct opt *o, bool *all)
{
	*all = false;
	if (metavar_words(o->metavar))
		return V_WORDS;
	for (size_t i = 0; i < sizeof value_roles / sizeof *value_roles; i++)
		if (strcmp(o->longname, value_roles[i].longname) == 0) {
			*all = value_roles[i].all;
			return value_roles[i].kind;
		}
	return is_path(o->metavar) ? V_FILES : V_NONE;
}

static void print_catalog(FILE *out, enum nst_catalog c)
{
	struct nst_about a;
	for (size_t i = 0; nst_catalog_entry(c, i, &a); i++)
		fprintf(out, "%s%s", i ? " " : "", a.name);
}

/* The names --help-formats lists: each "  NAME  what (.ext)" line. */
static void print_formats(FILE *out)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	struct nst_error err = { 0 };
	if (mem && nst_format_help(mem, NULL, &err) == NST_OK && fclose(mem) == 0) {
		mem = NULL;
		const char *sep = "";
		for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
			if (line[0] == ' ' && line[1] == ' ' && line[2] != ' ') {
				fprintf(out, "%s%.*s", sep, (int)strcspn(line + 2, " "), line + 2);
				sep = " ";
			}
	}
	if (mem)
		fclose(mem);
	free(text);
}

/* One case of _nstats_value: "CMD -s|CMD --long) echo 'WHEN KIND WORDS';;"
 * where WHEN is "next" (a required value: the next word or after '=') or
 * "eq" (an optional one). */
static void option_case(FILE *out, const struct command_doc *d, const struct opt *o,
			enum nst_catalog catalog)
{
	bool all;
	enum value_kind kind = kind_of(o, &all);
	static const char *const kinds[] = { "none", "words", "words", "words", "files" };
	fputs("\t", out);
	if (o->shortname)
		fprintf(out, "'%s -%c'|", d->name, o->shortname);
	fprintf(out, "'%s --%s') echo '%s %s", d->name, o->longname,
		o->arg == OPT_REQUIRED ? "next" : "eq", kinds[kind]);
	if (all)
		fputs(" ALL", out);
	fputc(' ', out);
	if (kind == V_WORDS)
		print_metavar_words(out, o->metavar);
	else if (kind == V_CATALOG)
		print_catalog(out, catalog);
	else if (kind == V_FORMATS)
		print_formats(out);
	fputs("';;\n", out);
}

static void option_names(FILE *out, const struct command_doc *d)
{
	fprintf(out, "\t%s) echo '", d->name);
	for (size_t i = 0; i < d->nopts; i++) {
		if (d->opts[i].shortname)
			fprintf(out, "-%c ", d->opts[i].shortname);
		fprintf(out, "--%s%s", d->opts[i].longname, i + 1 < d->nopts ? " " : "");
	}
	fputs("';;\n", out);
}

/* The tables, as three shell functions the fixed part below reads. */
static void tables(FILE *out)
{
	fputs("_nstats_commands() { echo '", out);
	const char *sep = "";
	for (size_t i = 0; i < cli_ncommands; i++) {
		fprintf(out, "%s%s", sep, cli_commands[i].name);
		sep = " ";
	}
	fputs("'; }\n\n# the options of a command\n_nstats_options() {\n\tcase $1 in\n", out);
	for (size_t i = 0; i < cli_ncommands; i++) {
		struct command_doc d;
		cli_commands[i].doc(&d);
		option_names(out, &d);
	}
	fputs("\tesac\n}\n\n# what the value of option $2 of command $1 completes to\n"
	      "_nstats_value() {\n\tcase \"$1 $2\" in\n", out);
	for (size_t i = 0; i < cli_ncommands; i++) {
		struct command_doc d;
		cli_commands[i].doc(&d);
		for (size_t j = 0; j < d.nopts; j++)
			if (d.opts[j].arg != OPT_NONE)
				option_case(out, &d, &d.opts[j], d.catalog);
	}
	fputs("\tesac\n}\n", out);
}

/* The part that is the same whatever the tables say. */
static const char script[] =
	"\n"
	"# exports and traces: what every command reads\n"
	"_nstats_files() {\n"
	"\tlocal f\n"
	"\twhile IFS= read -r f; do\n"
	"\t\tcase $f in\n"
	"\t\t*.sqlite|*.nsys-rep|*.json|*.json.gz) COMPREPLY+=(\"$f\") ;;\n"
	"\t\t*) [[ -d $f ]] && COMPREPLY+=(\"$f/\") ;;\n"
	"\t\tesac\n"
	"\tdone < <(compgen -f -- \"$1\")\n"
	"}\n"
	"\n"
	"# the words of $1 (\"KIND WORD...\") that complete the last element of\n"
	"# the list $2 (a,b,c); a report's :ARG is left alone\n"
	"_nstats_words() {\n"
	"\tlocal kind=${1%% *} words=${1#* } head= last=$2\n"
	"\tif [[ $kind == files ]]; then\n"
	"\t\tcompopt -o filenames 2>/dev/null\n"
	"\t\tCOMPREPLY+=($(compgen -f -- \"$2\"))\n"
	"\t\treturn\n"
	"\tfi\n"
	"\t[[ $kind == words ]] || return\n"
	"\t[[ $last == *,* ]] && head=${last%,*}, last=${last##*,}\n"
	"\tCOMPREPLY+=($(compgen -P \"$head\" -W \"$words\" -- \"$last\"))\n"
	"}\n"
	"\n"
	"_nstats() {\n"
	"\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev= opt= value= spec\n"
	"\t((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
	"\tCOMPREPLY=()\n"
	"\tif ((COMP_CWORD == 1)); then\n"
	"\t\tCOMPREPLY=($(compgen -W \"$(_nstats_commands)\" -- \"$cur\"))\n"
	"\t\treturn\n"
	"\tfi\n"
	"\tlocal cmd=${COMP_WORDS[1]}\n"
	"\t# --opt=value, as bash splits it (--opt = value) or not\n"
	"\tif [[ $cur == = ]]; then\n"
	"\t\topt=$prev value= spec=eq\n"
	"\telif [[ $prev == = ]] && ((COMP_CWORD > 2)); then\n"
	"\t\topt=${COMP_WORDS[COMP_CWORD - 2]} value=$cur spec=eq\n"
	"\telif [[ $cur == --*=* ]]; then\n"
	"\t\topt=${cur%%=*} value=${cur#*=} spec=eq\n"
	"\telif [[ $prev == : || $cur == : ]]; then\n"
	"\t\treturn\n"
	"\telse\n"
	"\t\topt=$prev value=$cur spec=next\n"
	"\tfi\n"
	"\tlocal what\n"
	"\twhat=$(_nstats_value \"$cmd\" \"$opt\")\n"
	"\tif [[ -n $what && ( $spec == eq || ${what%% *} == next || $cur != -* ) ]]; then\n"
	"\t\t_nstats_words \"${what#* }\" \"$value\"\n"
	"\t\t[[ $cur == --*=* ]] && COMPREPLY=(\"${COMPREPLY[@]/#/$opt=}\")\n"
	"\t\t# an optional value may be left out: then the word is an export\n"
	"\t\t[[ $spec == next && ${what%% *} == eq ]] && _nstats_files \"$cur\"\n"
	"\t\treturn\n"
	"\tfi\n"
	"\tif [[ $cur == -* ]]; then\n"
	"\t\tCOMPREPLY=($(compgen -W \"$(_nstats_options \"$cmd\")\" -- \"$cur\"))\n"
	"\telse\n"
	"\t\tcompopt -o filenames 2>/dev/null\n"
	"\t\t_nstats_files \"$cur\"\n"
	"\tfi\n"
	"}\n"
	"complete -F _nstats nstats\n";

static void bash_script(FILE *out)
{
	fprintf(out, "# bash completion for nstats %s: made by `nstats completion bash` from\n"
		     "# the tables its --help prints; made again, it completes what nstats\n"
		     "# then knows.\n\n", NSTATS_VERSION);
	tables(out);
	fputs(script, out);
}

static const struct opt options[] = {
	{ 'h', "help", OPT_NONE, NULL, "This help.", 'h' },
};
#define NOPTIONS (sizeof options / sizeof *options)

void doc_completion(struct command_doc *d)
{
	*d = (struct command_doc){
		.name = "completion",
		.synopsis = "bash",
		.intro = "Prints a bash completion script for nstats: its commands, each\n"
			 "command's options, report, rule and format names, and exports.\n"
			 "make install puts it in share/bash-completion/completions; or\n"
			 "source <(nstats completion bash) in ~/.bashrc.",
		.nopts = NOPTIONS,
		.lists = -1,
		.exit_status = "Exit status: 0 printed, 2 usage error.\n",
	};
	memcpy(d->opts, options, sizeof options);
}

struct completion_cmd {
	bool help;
	const char *shell;
	int nshells;
};

static int on_option(void *state, const struct opt *o, const char *value)
{
	struct completion_cmd *c = state;
	if (o)
		c->help = true;
	else
		c->shell = value, c->nshells++;
	return 0;
}

int cmd_completion(int argc, char **argv)
{
	struct completion_cmd c = { 0 };
	struct command_doc doc;
	doc_completion(&doc);
	int rc = opt_parse("completion", options, NOPTIONS, argc, argv, on_option, &c);
	if (rc)
		return rc;
	if (c.help) {
		cli_usage(stdout, &doc);
		return EXIT_OK;
	}
	if (c.nshells != 1 || strcmp(c.shell, "bash") != 0) {
		cli_error("completion: one shell, bash (see nstats completion --help)");
		return EXIT_USAGE;
	}
	bash_script(stdout);
	return EXIT_OK;
}
