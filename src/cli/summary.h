/* `nstats summary`: what each report gave, as rows kept for layout
 * (summary.c collects them through the run engine, summary_show.c lays
 * them out). */
#ifndef NSTATS_CLI_SUMMARY_H
#define NSTATS_CLI_SUMMARY_H

#include "cli/cli.h"
#include "cli/layout.h"

/* What a page shows, one per export. */
enum sum_part { SUM_CAPTURE, SUM_DEVICES, SUM_KERNELS, SUM_MEM_TIME, SUM_MEM_SIZE, SUM_API,
		SUM_NVTX, SUM_AUDIT, SUM_NPARTS };

struct sum_page {
	const char *path;
	struct nst_rows part[SUM_NPARTS];
};

struct sum_settings {
	struct lay_out out;
	size_t top;
	/* ns per unit of every time column, 0: each column its own */
	int64_t time_unit;
};

/* The page, laid out; false when out of memory. */
bool sum_show(const struct sum_settings *s, const struct sum_page *p);

#endif
