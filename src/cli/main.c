/* nstats: the command table and the one place that exits. */
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "format/format.h"

static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *help;
} commands[] = {
	{ "stats", cmd_stats, "statistics and trace reports, as `nsys stats` prints them" },
	{ "analyze", cmd_analyze, "expert-system rules, as `nsys analyze` prints them" },
	{ "check", cmd_check, "an audit of the export itself: rows that hide or double work (nstats addition)" },
};

static void usage(FILE *out)
{
	fputs("usage: nstats COMMAND [OPTION...] EXPORT...\n\n"
	      "Reports from Nsight Systems SQLite exports, compatible with nsys stats.\n\n"
	      "Commands:\n", out);
	for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].help);
	fputs("\n`nstats COMMAND --help` describes a command's options.\n"
	      "  nstats --version    the version\n", out);
}

/* A full disk or a closed pipe must not pass for success. */
static int close_stdout(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		fputs("nstats: error: standard output: write failed\n", stderr);
		return rc ? rc : EXIT_OUTPUT;
	}
	return rc;
}

int main(int argc, char **argv)
{
	/* A report of millions of rows into a pipe or file: big blocks. */
	static char stdout_buf[1 << 20];
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, stdout_buf, _IOFBF, sizeof stdout_buf);
	setlocale(LC_ALL, "");
	nst_fmt_use_locale();
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return close_stdout(EXIT_OK);
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("nstats %s\n", NSTATS_VERSION);
		return close_stdout(EXIT_OK);
	}
	for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return close_stdout(commands[i].run(argc - 1, argv + 1));
	cli_error("unknown command '%s' (see nstats --help)", argv[1]);
	return EXIT_USAGE;
}
