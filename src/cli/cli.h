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

/* ---- errors ------------------------------------------------------------ */

/* "nstats: error: <msg>" on stderr, once, at the top. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int exit_of(enum nst_status s);

/* ---- commands ---------------------------------------------------------- */

struct nst_report;

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
	const struct nst_report *(*find)(const char *name);
	const struct nst_report *const *(*all)(size_t *n);
	const char *const *(*default_set)(size_t *n);
};
int cli_run_catalog(const struct catalog *cat, int argc, char **argv);

int cmd_stats(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_check(int argc, char **argv);

#endif
