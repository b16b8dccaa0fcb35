/* What a file holds, from its first bytes, then its name: an export
 * named .json is still an export, a trace named .sqlite still a trace. */
#include <stdio.h>
#include <string.h>

#include "input/input.h"

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static bool blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

enum nst_input_kind nst_input_sniff(const char *path)
{
	unsigned char head[4096];
	size_t n = 0;
	FILE *f = fopen(path, "rb");
	bool opened = f != NULL;
	if (opened) {
		n = fread(head, 1, sizeof head, f);
		fclose(f);
	}
	if (n >= 16 && memcmp(head, "SQLite format 3", 16) == 0)
		return NST_INPUT_EXPORT;
	if (n >= 2 && head[0] == 0x1f && head[1] == 0x8b)
		return NST_INPUT_KINETO;
	size_t i = 0;
	while (i < n && blank(head[i]))
		i++;
	if (i < n && head[i] == '{')
		return NST_INPUT_KINETO;
	/* a name says a trace, the text does not: its reader says what is wrong */
	if (opened && (ends_with(path, ".json") || ends_with(path, ".json.gz")))
		return NST_INPUT_KINETO;
	return NST_INPUT_EXPORT;
}
