/* CUDA API: the top N calls by total time (cuda_api_sum). */
#include <stdio.h>

#include "page/page.h"

static const char *const columns[] = {
	"Time", "Total Time", "Num Calls", "Avg", "Med", "Min", "Max", "Name", NULL,
};

enum nst_status page_api(struct page *p, struct nst_error *err)
{
	struct page_rows t = { 0 };
	char spec[64], title[96];
	snprintf(spec, sizeof spec, "cuda_api_sum:rows=%zu", p->top);
	page_section_open(p, "api", "CUDA API", "cuda_api_sum");
	enum nst_status s = page_run(p, 0, NST_REPORTS, spec, &t, err);
	if (s == NST_OK && t.rows.nrows) {
		snprintf(title, sizeof title, "Top %zu CUDA API functions by total time", t.rows.nrows);
		page_bars(p, &(struct page_bars){
			.title = title, .axis = "total time in calls", .t = &t, .label = "Name",
			.value = "Total Time", .unit = "ns", .max = t.rows.nrows
		});
		page_table(p, &t, columns, t.rows.nrows);
	} else if (s == NST_OK) {
		page_absent(p, "No CUDA API calls in this capture.");
	}
	page_rows_release(&t);
	page_section_close(p);
	return s;
}
