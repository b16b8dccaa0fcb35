/* libFuzzer harness: the input is the argument list of `nstats stats`
 * (or analyze, check or diff, by its first byte), one argument per line or per
 * NUL.  Arguments with a '/' are dropped: a fuzzed -o must stay in the
 * harness's own directory. */
#include <stdlib.h>
#include <string.h>

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_setup();
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
