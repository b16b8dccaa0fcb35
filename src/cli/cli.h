/* Private to the command-line program. */
#ifndef NSTATS_CLI_H
#define NSTATS_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "nstats/nstats.h"

/* Exit codes, documented in `nstats --help` and the README. */
enum nst_exit {
	EXIT_OK = 0,
	EXIT_FAILED = 1,   /* a report failed while running */
	EXIT_USAGE = 2,    /* bad option, report, format or argument */
	EXIT_INPUT = 3,    /* an export is missing, unreadable or not an export */
	EXIT_OUTPUT = 4,   /* output could not be written */
	EXIT_SKIPPED = 5,  /* --strict: a report could not run on an export */
	EXIT_CHECK_FOUND = 6, /* check --strict: a finding counted something */
	EXIT_GATE = 7,     /* diff --gate: the candidate grew beyond the gate */
	EXIT_INTERRUPTED = 130, /* SIGINT (Ctrl-C), as a shell reports it */
};

/* ---- options: declared in tables so that --help cannot drift ---------- */

enum opt_arg { OPT_NONE, OPT_REQUIRED, OPT_OPTIONAL };

struct opt {
	char shortname;      /* 0 when none */
	const char *longname;
	enum opt_arg arg;
	const char *metavar; /* shown in help */
	const char *help;
	int id;
};

/* Called for each option (opt != NULL) and each operand (opt == NULL).
 * Returns 0 to go on, or an exit code. */
typedef int (*opt_fn)(void *state, const struct opt *opt, const char *value);

/* Parses argv against opts[0..n); prints a one-line error and returns
 * EXIT_USAGE on an unknown option or a missing value. */
int opt_parse(const char *cmd, const struct opt *opts, size_t n, int argc,
	      char **argv, opt_fn fn, void *state);
void opt_help(FILE *out, const struct opt *opts, size_t n);

/* "true"/"false"/absent for options such as --force-overwrite. */
int opt_bool(const char *cmd, const struct opt *o, const char *value, bool *out);

/* ---- what --help and the manual say (help.c) --------------------------- */

#define CLI_MAX_OPTS 32

/* A command as its --help and the manual page describe it: both are made
 * from this, and the options from the table the parser reads. */
struct command_doc {
	const char *name;        /* "stats" */
	const char *synopsis;    /* after "nstats NAME " */
	const char *intro;       /* what it does, lines separated by '\n' */
	struct opt opts[CLI_MAX_OPTS];
	size_t nopts;
	const char *notes;       /* after the options; may be NULL */
	/* The catalog --help lists in full after the notes (check: its
	 * findings); -1 for none. */
	int lists;
	const char *lists_intro;
	const char *exit_status; /* "Exit status: ..." */
	/* What -r and the list option name, for the completion script
	 * (completion.c); a command without them leaves it 0. */
	enum nst_catalog catalog;
};

struct command {
	const char *name;
	const char *summary;     /* one line, for nstats --help */
	int (*run)(int argc, char **argv);
	void (*doc)(struct command_doc *d);
};

/* The commands, in the order nstats --help lists them (commands.c). */
extern const struct command cli_commands[];
extern const size_t cli_ncommands;
/* Commands that set nstats up rather than read exports: not in
 * nstats --help's list nor completed, described by the manual page. */
extern const struct command cli_setup_commands[];
extern const size_t cli_nsetup_commands;

/* `nstats NAME --help`. */
void cli_usage(FILE *out, const struct command_doc *d);
/* A command that got no export: the usage on stderr when it got no
 * argument at all (argc 1: someone exploring), else one line, since
 * options without an export are a mistake the usage would bury.
 * Returns EXIT_USAGE. */
int cli_no_input(const struct command_doc *d, int argc);
/* The manual page nstats(1), in roff, from the same tables (manual.c). */
void cli_manual(FILE *out);
/* The catalog entries as --help-reports NAME shows them: name, title,
 * then the help text indented (and the arguments, when it has any). */
void cli_about(FILE *out, const struct nst_about *a, bool whole);
/* The same for a report of --report-dir, marked "(from DIR)". */
void cli_about_from(FILE *out, const struct nst_about *a, bool whole, const char *dir);

/* How -r's arguments carry a ':' or ',' of their own (the job parser's
 * rule), said in every -r help and under the arguments of --help-reports. */
#define CLI_ARG_QUOTING \
	"In an argument \"::\" belongs to the value (nvtx=ns::op), and a value\n" \
	"in double quotes is taken whole (nvtx=\"a:b,c\")."

/* How a .nsys-rep becomes an export, said alike by every command that
 * takes --force-export and --sqlite (stats, analyze, export). */
#define CLI_FORCE_EXPORT_HELP \
	"Export a .nsys-rep again (nsys export) even when its SQLite export\n" \
	"is up to date.  Other inputs ignore it (nsys refuses it for them)."
#define CLI_SQLITE_HELP \
	"The SQLite export of the one .nsys-rep given: read when it is at\n" \
	"least as new as the .nsys-rep, else written by nsys export (default:\n" \
	"the .sqlite beside it).  Other inputs ignore it (nsys refuses it)."

/* ---- errors ------------------------------------------------------------ */

/* "nstats: error: <msg>" on stderr, once, at the top. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int exit_of(enum nst_status s);
/* "; did you mean ...?" (nst_suggest_names) into buf, or "" when no name
 * is close: among names[0..n), or among the names of catalogs. */
const char *cli_hint(const char *name, const char *const *names, size_t n, char *buf,
		     size_t size);
const char *cli_hint_catalogs(const char *name, const enum nst_catalog *cats, size_t ncats,
			      char *buf, size_t size);

/* ---- what the environment and the terminal set (env.c) ------------------ */

/* The library's options from the environment (cli_environment says
 * which); progress of big reads on a terminal on stderr, when stdout is
 * not that terminal (the Processing lines show it there) and not quiet. */
void cli_export_options(struct nst_options *o, bool quiet);
/* Whether the environment's values are ones nstats takes; says what is
 * wrong (cli_error) when not, so that a typo is not a silent default. */
bool cli_environment_ok(void);
/* LC_NUMERIC from the environment, which the column and table formats
 * group digits by (cli_format_options); nothing else follows the locale:
 * messages and character classes stay C's. */
void cli_numeric_locale(void);
/* The environment variables nstats reads, for the manual. */
struct cli_env {
	const char *name;
	const char *help;
};
extern const struct cli_env cli_environment[];
extern const size_t cli_nenvironment;

/* The width of standard output for text fitted to it: COLUMNS, else the
 * terminal's when it is one, else fallback; within [lo, hi]. */
size_t cli_terminal_width(size_t lo, size_t hi, size_t fallback);
/* Progress lines on stderr: a terminal that stdout is not, and not quiet. */
bool cli_progress_wanted(bool quiet);
/* Started by mpirun (or another MPI launcher). */
bool cli_under_mpi(void);
/* Colour by default: standard output is a terminal and NO_COLOR is unset
 * or empty. */
bool cli_color_wanted(void);

/* A format's options: its target, --timeunit and LC_NUMERIC's marks. */
void cli_format_options(struct nst_format_options *o, enum nst_target target,
			const char *timeunit);

/* ---- commands ---------------------------------------------------------- */

/* What a command runs and how it names it: `stats` runs reports, `analyze`
 * rules; both go through one driver (stats.c) with the same tuples of
 * -r/-f/-o, Processing lines, SKIPPED messages and output files. */
struct catalog {
	const char *cmd;          /* "stats" */
	const char *noun;         /* "report", in messages */
	const char *opt;          /* -r's long name: "report" */
	const char *opt_help;     /* -r's help */
	const char *list_opt;     /* "help-reports" */
	const char *list_help;    /* its help */
	const char *intro;        /* --help: what the command does */
	const char *pairing;      /* --help: how -r, -f and -o pair up */
	const char *exit_status;  /* --help: its exit statuses */
	const char *synopsis;     /* after "nstats CMD "; NULL: "[OPTION...] EXPORT..." */
	const struct opt *own;    /* options beyond the shared ones (tuples.h) */
	size_t nown;
	enum nst_catalog catalog;
};
int cli_run_catalog(const struct catalog *cat, int argc, char **argv);
/* stats's own options (stats.c); the first CLI_NEXPORT_OPTS of them say
 * how a .nsys-rep becomes an export, and analyze takes those too. */
extern const struct opt cli_stats_opts[];
extern const size_t cli_nstats_opts;
#define CLI_NEXPORT_OPTS 2
extern const char cli_report_exit_status[];

int cmd_stats(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_summary(int argc, char **argv);
int cmd_recipe(int argc, char **argv);
void doc_recipe(struct command_doc *d);
void doc_stats(struct command_doc *d);
void doc_analyze(struct command_doc *d);
void doc_check(struct command_doc *d);
void doc_diff(struct command_doc *d);
int cmd_completion(int argc, char **argv);
void doc_completion(struct command_doc *d);
void doc_summary(struct command_doc *d);
int cmd_export(int argc, char **argv);
void doc_export(struct command_doc *d);
int cmd_report(int argc, char **argv);
void doc_report(struct command_doc *d);
/* stats, analyze and diff: one doc from the catalog (tuples.c). */
void cli_catalog_doc(const struct catalog *cat, struct command_doc *d);

#endif
