/* nstats: dispatch to a command (commands.c), and the one place that exits. */
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h> /* mallopt */
#endif

#include "cli/cli.h"

static void usage(FILE *out)
{
	fputs("usage: nstats COMMAND [OPTION...] EXPORT...\n\n"
	      "Reports from Nsight Systems SQLite exports, compatible with nsys stats.\n\n"
	      "Commands:\n", out);
	for (size_t i = 0; i < cli_ncommands; i++)
		fprintf(out, "  %-10s %s\n", cli_commands[i].name, cli_commands[i].summary);
	fputs("\n`nstats COMMAND --help` describes a command's options.\n"
	      "  nstats --version    the version\n"
	      "  nstats --manual     the manual page nstats(1), as roff (man -l - reads it)\n", out);
	for (size_t i = 0; i < cli_nsetup_commands; i++)
		fprintf(out, "  nstats %-12s %s\n", cli_setup_commands[i].name, cli_setup_commands[i].summary);
}

/* A full disk or a closed pipe must not pass for success; a command that
 * failed to write has said so already (errors are printed once). */
static int close_stdout(int rc)
{
	if ((fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) && rc != EXIT_OUTPUT) {
		fputs("nstats: error: standard output: write failed\n", stderr);
		return rc ? rc : EXIT_OUTPUT;
	}
	return rc;
}

static int unknown_command(const char *word)
{
	const char *names[16];
	size_t n = 0;
	char hint[300];
	for (size_t i = 0; i < cli_ncommands && n < sizeof names / sizeof *names; i++)
		names[n++] = cli_commands[i].name;
	cli_error("unknown command '%s'%s (see nstats --help)", word,
		  cli_hint(word, names, n, hint, sizeof hint));
	return EXIT_USAGE;
}

/* A run allocates and frees arrays of millions of rows one step after
 * another (columns, sort buffers, groups).  Served by mmap, each one is
 * handed back on free and faulted in again page by page by the next step,
 * which at 10M launches costs more than the work.  Kept in the heap, a freed
 * array is reused as it is.  Peak memory stays what the largest step holds. */
static void keep_freed_memory(void)
{
#ifdef M_MMAP_MAX
	mallopt(M_MMAP_MAX, 0);
	mallopt(M_TRIM_THRESHOLD, INT_MAX);
#endif
}

int main(int argc, char **argv)
{
	keep_freed_memory();
	/* A report of millions of rows into a pipe or file: big blocks. */
	static char stdout_buf[1 << 20];
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, stdout_buf, _IOFBF, sizeof stdout_buf);
	/* The column format groups digits as LC_NUMERIC says (cli_format_options). */
	setlocale(LC_ALL, "");
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
	if (strcmp(argv[1], "--manual") == 0) {
		cli_manual(stdout);
		return close_stdout(EXIT_OK);
	}
	if (!cli_environment_ok())
		return EXIT_USAGE;
	for (size_t i = 0; i < cli_nsetup_commands; i++)
		if (strcmp(argv[1], cli_setup_commands[i].name) == 0)
			return close_stdout(cli_setup_commands[i].run(argc - 1, argv + 1));
	for (size_t i = 0; i < cli_ncommands; i++)
		if (strcmp(argv[1], cli_commands[i].name) == 0)
			return close_stdout(cli_commands[i].run(argc - 1, argv + 1));
	return unknown_command(argv[1]);
}
