#include "core/kname.h"

#include <stdbool.h>
#include <string.h>

static bool opens(char c) { return c == '<' || c == '(' || c == '[' || c == '{'; }
static bool closes(char c) { return c == '>' || c == ')' || c == ']' || c == '}'; }

/* "operator()", "operator<", "operator->": the characters after
 * "operator" that belong to the name, not to a group. */
static size_t operator_len(const char *s)
{
	static const char *const ops[] = { "()", "[]", "->*", "->", "<<=", ">>=", "<<", ">>",
					   "<=>", "<=", ">=", "<", ">", NULL };
	if (strncmp(s, "operator", 8) != 0)
		return 0;
	const char *p = s + 8;
	while (*p == ' ')
		p++;
	for (const char *const *o = ops; *o; o++)
		if (strncmp(p, *o, strlen(*o)) == 0)
			return (size_t)(p - s) + strlen(*o);
	return 8;
}

/* Where the group opening at s[i] closes, or n. */
static size_t group_end(const char *s, size_t n, size_t i)
{
	int depth = 0;
	for (; i < n; i++) {
		if (opens(s[i]))
			depth++;
		else if (closes(s[i]) && --depth == 0)
			return i;
	}
	return n;
}

/* The end of the function's own name: the first '<' or '(' at depth 0
 * that is not a qualifier's (a class template's arguments, "(anonymous
 * namespace)", both followed by "::") nor part of an operator's name. */
static size_t name_end(const char *s, size_t n, size_t *start)
{
	int depth = 0;
	*start = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (depth == 0) {
			size_t op = operator_len(s + i);
			if (op && (i == 0 || s[i - 1] == ':' || s[i - 1] == ' ')) {
				i += op - 1;
				continue;
			}
			if (c == ' ' && i + 1 < n && !closes(s[i + 1]))
				*start = i + 1; /* after a return type */
			if (c == ':' && i + 1 < n && s[i + 1] == ':') {
				*start = i + 2;
				i++;
				continue;
			}
			if (c == '<' || c == '(') {
				size_t close = group_end(s, n, i);
				bool qualifier = close + 2 < n && s[close + 1] == ':' && s[close + 2] == ':';
				if (!qualifier && i > *start)
					return i;
				/* a group where a name should be ("Memset (Device)"):
				 * no C++ signature, the whole text is the name */
				if (!qualifier) {
					*start = 0;
					return n;
				}
			}
		}
		if (opens(c))
			depth++;
		else if (closes(c) && depth > 0)
			depth--;
	}
	return n;
}

size_t nst_kname_base(const char *name, size_t *len)
{
	size_t n = strlen(name), start;
	size_t end = name_end(name, n, &start);
	if (start >= end) { /* nothing after the last qualifier: the whole text */
		*len = n;
		return 0;
	}
	*len = end - start;
	return start;
}
