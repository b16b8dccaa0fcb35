/* libFuzzer harness: the text parsers one at a time, chosen by the first
 * byte: --filter-time values with units, --filter-nvtx specs, format
 * specs (column:time=us:nofmt), and report specs with their arguments
 * (name:arg=value:...), the last through `stats` on an export that does
 * not exist, which parses everything before it opens the file. */
#include <stdlib.h>
#include <string.h>

#include "format/format.h"
#include "fuzz.h"

static void filter_time(const char *s)
{
	struct nst_filter f = { 0 };
	struct nst_error err = { 0 };
	nst_filter_parse_time(s, &f, &err);
}

static void filter_nvtx(const char *s)
{
	const char *argv[] = { "-q", "-r", "nvtx_sum", "--filter-nvtx", s, "none.sqlite" };
	fuzz_run("stats", 6, argv);
}

static void format_spec(const char *s)
{
	struct nst_fmt_spec spec;
	struct nst_error err = { 0 };
	nst_fmt_parse(s, &spec, &err);
}

static void report_spec(const char *s)
{
	const char *argv[] = { "-q", "-r", s, "none.sqlite" };
	fuzz_run(s[0] == 'r' ? "analyze" : "stats", 4, argv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_setup();
	if (size == 0 || size > 4096)
		return 0;
	char *s = malloc(size);
	if (!s)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	static void (*const parsers[])(const char *) = { filter_time, filter_nvtx,
							 format_spec, report_spec };
	parsers[data[0] % 4](s);
	free(s);
	return 0;
}
