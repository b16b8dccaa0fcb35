/* ENUM labels for exports made before the ENUM_* tables existed (schema
 * < 3.0).  The values are those nsys 2024.2.3 writes into its exports. */
#include "db/db_int.h"

#include <string.h>

static const char *const memcpy_oper[] = {
	"Unknown", "Host-to-Device", "Device-to-Host", "Host-to-Array",
	"Array-to-Host", "Array-to-Array", "Array-to-Device",
	"Device-to-Array", "Device-to-Device", "Host-to-Host",
	"Peer-to-Peer", "Unified Host-to-Device", "Unified Device-to-Host",
	"Unified Device-to-Device",
};

static const char *const mem_kind[] = {
	"Pageable", "Pinned", "Device", "Array", "Managed", "Device Static",
	"Managed Static", "Unknown",
};

static const struct builtin_enum {
	const char *table;
	const char *const *labels;
	size_t n;
} builtin[] = {
	{ "ENUM_CUDA_MEMCPY_OPER", memcpy_oper,
	  sizeof memcpy_oper / sizeof *memcpy_oper },
	{ "ENUM_CUDA_MEM_KIND", mem_kind, sizeof mem_kind / sizeof *mem_kind },
};

const char *nst_builtin_enum_label(const char *table, int64_t id)
{
	for (size_t i = 0; i < sizeof builtin / sizeof *builtin; i++) {
		if (strcmp(builtin[i].table, table) != 0)
			continue;
		if (id < 0 || (uint64_t)id >= builtin[i].n)
			return NULL;
		return builtin[i].labels[id];
	}
	return NULL;
}
