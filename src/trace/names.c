/* The names a trace writer has met, interned once (trace.h). */
#include <stdint.h>
#include <string.h>

#include "trace/trace.h"

int64_t trace_name_id(struct trace_names *n, const char *s, bool *fresh)
{
	*fresh = false;
	size_t slot = ((uintptr_t)s >> 3) & (TRACE_NAME_CACHE - 1);
	size_t id1 = n->cache[slot].id1;
	if (id1 && n->cache[slot].p == s && strcmp(n->tab.text[id1 - 1], s) == 0)
		return (int64_t)id1 - 1;
	size_t before = n->tab.n;
	int64_t id = nst_strtab_intern(&n->tab, s);
	if (id < 0)
		return -1;
	if (n->tab.n != before) {
		char *copy = nst_arena_strndup(&n->arena, s, strlen(s));
		if (!copy)
			return -1;
		n->tab.text[id] = copy;
		*fresh = true;
	}
	n->cache[slot].p = s;
	n->cache[slot].id1 = (size_t)id + 1;
	return id;
}

void trace_names_release(struct trace_names *n)
{
	nst_strtab_release(&n->tab);
	nst_arena_release(&n->arena);
}
