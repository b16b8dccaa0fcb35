/* nstats: dispatch to a command (commands.c), and the one place that exits. */
#define _DEFAULT_SOURCE /* sbrk, madvise */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
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
#define STDOUT_BUF ((size_t)256 << 10)
static char *stdout_buf;

static int close_stdout(int rc)
{
	bool failed = fflush(stdout) != 0 || ferror(stdout);
	failed = fclose(stdout) != 0 || failed;
	free(stdout_buf);
	stdout_buf = NULL;
	if (failed && rc != EXIT_OUTPUT) {
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
 * array is reused as it is.  Peak memory stays what the largest step holds.
 * One heap for every thread (the readers and the page's sections): memory
 * one thread freed serves the next, and the heap's huge pages serve all. */
static void keep_freed_memory(void)
{
#ifdef M_MMAP_MAX
	mallopt(M_MMAP_MAX, 0);
	mallopt(M_TRIM_THRESHOLD, INT_MAX);
	mallopt(M_ARENA_MAX, 1);
#endif
}

/* Fresh memory is dear in 4 KiB pages: the kernel faults each one in on
 * its first touch (10 us a page on a virtual machine: 20 ms for the 8 MB
 * that the default set takes on a 2 MB export), where a 2 MiB page is one
 * fault.  The heap grows by HEAP_STEP at a time and its first step asks
 * for 2 MiB pages; arrays beyond it ask for their own (core/big.h).  A
 * hint: where the kernel has none to give, nothing changes. */
#define HEAP_STEP ((size_t)64 << 20)
#define HUGE_PAGE ((uintptr_t)2 << 20)
#define SMALL_PAGE ((uintptr_t)4096)

static void heap_in_huge_pages(void)
{
#if defined(M_TOP_PAD) && defined(MADV_HUGEPAGE)
	/* The heap starts a page below a 2 MiB boundary: growing it writes
	 * malloc's headers in that page only, for a 2 MiB page that was
	 * touched before the advice stays in small pages for good. */
	uintptr_t before = (uintptr_t)sbrk(0);
	uintptr_t lo = (before + SMALL_PAGE + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	if (before == (uintptr_t)-1 || sbrk((intptr_t)(lo - SMALL_PAGE - before)) == (void *)-1)
		return;
	mallopt(M_TOP_PAD, (int)HEAP_STEP);
	void *volatile grow = malloc(1); /* a step of heap, kept: nothing is trimmed */
	free(grow);
	uintptr_t hi = (uintptr_t)sbrk(0) & ~(HUGE_PAGE - 1);
	/* only the step (under valgrind or a sanitizer, malloc is not the heap) */
	if (hi > lo && hi - lo <= 2 * HEAP_STEP)
		(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#endif
}

int main(int argc, char **argv)
{
	keep_freed_memory();
	heap_in_huge_pages();
	/* A report of millions of rows into a pipe or file: big blocks, in
	 * the heap's huge pages.  256 KiB writes cost no more a byte than
	 * larger ones; a larger buffer pushed a small export's arrays past
	 * the heap's first 2 MiB page, and one more page is 0.1 ms to clear. */
	if (!isatty(STDOUT_FILENO) && (stdout_buf = malloc(STDOUT_BUF)))
		setvbuf(stdout, stdout_buf, _IOFBF, STDOUT_BUF);
	cli_numeric_locale();
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
