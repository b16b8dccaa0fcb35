/* The longest stretches where a GPU ran nothing (the gpu_gaps rule, at
 * any length: gap=0). */
#include <stdio.h>

#include "page/page.h"

static const char *const columns[] = {
	"Duration", "Start", "PID", "Device ID", "Context ID", NULL,
};

enum nst_status page_gaps(struct page *p, struct nst_error *err)
{
	struct page_rows t = { 0 };
	char spec[64], title[96];
	snprintf(spec, sizeof spec, "gpu_gaps:gap=0:rows=%zu", p->top);
	page_section_open(p, "gaps", "Longest idle gaps", "the gpu_gaps rule (nstats analyze)");
	enum nst_status s = page_run(p, 0, NST_RULES, spec, &t, err);
	if (s == NST_OK && t.rows.nrows) {
		snprintf(title, sizeof title, "The %zu longest stretches with no GPU operation, by start",
			 t.rows.nrows);
		page_bars(p, &(struct page_bars){
			.title = title, .axis = "idle time", .t = &t, .label = "Start",
			.value = "Duration", .unit = "ns", .max = t.rows.nrows
		});
		page_table(p, &t, columns, t.rows.nrows);
	} else if (s == NST_OK) {
		page_absent(p, "No idle gaps: no GPU ran two operations apart in this capture.");
	}
	page_rows_release(&t);
	page_section_close(p);
	return s;
}
