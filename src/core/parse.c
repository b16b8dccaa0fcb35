#include "core/parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

bool nst_parse_i64(const char *s, int64_t *out)
{
	char digits[32];
	size_t n = 0;
	while (isspace((unsigned char)*s))
		s++;
	if (*s == '+' || *s == '-')
		digits[n++] = *s++;
	if (!isdigit((unsigned char)*s))
		return false;
	for (; *s && !isspace((unsigned char)*s); s++) {
		if (*s == '_' && isdigit((unsigned char)s[1]) && isdigit((unsigned char)s[-1]))
			continue;
		if (!isdigit((unsigned char)*s) || n + 1 >= sizeof digits)
			return false;
		digits[n++] = *s;
	}
	while (isspace((unsigned char)*s))
		s++;
	if (*s)
		return false;
	digits[n] = '\0';
	errno = 0;
	long long v = strtoll(digits, NULL, 10);
	if (errno == ERANGE)
		return false;
	*out = v;
	return true;
}
