/* `nstats summary`: what each report gave, as rows kept for layout
 * (summary.c collects them through the run engine, summary_show.c lays
 * them out). */
#ifndef NSTATS_CLI_SUMMARY_H
#define NSTATS_CLI_SUMMARY_H

#include "cli/cli.h"
#include "cli/layout.h"

/* One report's rows as its sink gave them; text is owned. */
struct sum_rows {
	char **cols;
	size_t ncols;
	struct nst_cell *cells; /* nrows * ncols */
	size_t nrows, cap;
	bool ran;               /* false: skipped (the export lacks its data) */
};

/* What a page shows, one per export. */
enum sum_part { SUM_CAPTURE, SUM_DEVICES, SUM_KERNELS, SUM_MEM_TIME, SUM_MEM_SIZE, SUM_API,
		SUM_NVTX, SUM_AUDIT, SUM_NPARTS };

struct sum_page {
	const char *path;
	struct sum_rows part[SUM_NPARTS];
};

struct sum_settings {
	struct lay_out out;
	size_t top;
	/* ns per unit of every time column, 0: each column its own */
	int64_t time_unit;
};

/* The column labelled `label` (its name up to any ':'), -1 when none. */
int sum_col(const struct sum_rows *t, const char *label);
const struct nst_cell *sum_cell(const struct sum_rows *t, size_t row, int col);

/* The page, laid out; false when out of memory. */
bool sum_show(const struct sum_settings *s, const struct sum_page *p);

#endif
