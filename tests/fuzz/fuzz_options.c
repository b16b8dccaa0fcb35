/* libFuzzer harness: the input is the argument list of `nstats stats`
 * (or analyze, check or diff, by its first byte), one argument per line or per
 * NUL.  Arguments with a '/' are dropped: a fuzzed -o must stay in the
 * harness's own directory.  That directory holds rd/, reports of one's own
 * for --report-dir rd: a good one, a refused one, a .py. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

#define MAX_ARGS 64

static size_t split(char *s, size_t size, const char *argv[MAX_ARGS])
{
	size_t n = 0, start = 0;
	for (size_t i = 0; i <= size && n < MAX_ARGS; i++) {
		if (i < size && s[i] != '\n' && s[i] != '\0')
			continue;
		s[i] = '\0';
		if (!strchr(s + start, '/'))
			argv[n++] = s + start;
		start = i + 1;
	}
	return n;
}

static void make_report_dir(void)
{
	static int done;
	if (done++)
		return;
	static const char good[] = "-- Mine\n-- One row.\nSELECT 1 AS \"N\", 2 AS \"T:dur_ns\"\n";
	static const char bad[] = "-- Bad\nINSERT INTO StringIds VALUES (1, 'x')\n";
	if (mkdir("rd", 0755) != 0 ||
	    fuzz_write("rd/mine.sql", (const uint8_t *)good, sizeof good - 1) != 0 ||
	    fuzz_write("rd/bad.sql", (const uint8_t *)bad, sizeof bad - 1) != 0 ||
	    fuzz_write("rd/legacy.py", (const uint8_t *)"#\n", 2) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_setup();
	make_report_dir();
	if (size == 0 || size > 4096)
		return 0;
	static const char *const cmds[] = { "stats", "stats", "analyze", "check", "diff" };
	const char *cmd = cmds[data[0] % 5];
	char *s = malloc(size);
	if (!s)
		return 0;
	memcpy(s, data + 1, size - 1);
	const char *argv[MAX_ARGS];
	size_t n = split(s, size - 1, argv);
	fuzz_run(cmd, (int)n, argv);
	free(s);
	return 0;
}
