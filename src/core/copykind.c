#include "core/copykind.h"

#include <string.h>

static const char *const words[NST_COPY_KINDS] = {
	"Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD", "DtoA", "DtoD", "HtoH", "PtoP",
	"UVM HtoD", "UVM DtoH", "UVM DtoD",
};

const char *nst_copy_kind_word(int64_t id, int64_t known)
{
	return id >= 0 && id < known && id < NST_COPY_KINDS ? words[id] : words[0];
}

int64_t nst_copy_kind_id(const char *s, size_t len)
{
	for (int64_t i = 1; i < NST_COPY_KINDS; i++)
		if (strlen(words[i]) == len && memcmp(words[i], s, len) == 0)
			return i;
	return 0;
}
