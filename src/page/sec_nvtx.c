/* NVTX: the top N ranges by total time (nvtx_sum) and, where their GPU
 * work was traced, the time of that work (nvtx_gpu_proj_sum). */
#include <stdio.h>

#include "page/page.h"

static const char *const columns[] = {
	"Time", "Total Time", "Instances", "Avg", "Med", "Min", "Max", "Style", "Range", NULL,
};
static const char *const proj_columns[] = {
	"Range", "Style", "Total Proj Time", "Total Range Time", "Range Instances", "Proj Avg",
	"Total GPU Ops", NULL,
};

static enum nst_status projection(struct page *p, struct nst_error *err)
{
	struct page_rows t = { 0 };
	enum nst_status s = page_run(p, 0, NST_REPORTS, "nvtx_gpu_proj_sum", &t, err);
	if (s == NST_OK && t.rows.nrows) {
		page_raw(p->out, "<h3>GPU projection</h3>\n<p class=\"from\">From nvtx_gpu_proj_sum: the "
			 "GPU work launched inside each range, projected onto the GPU's timeline.</p>\n");
		page_bars(p, &(struct page_bars){
			.title = "GPU time of the ranges (projected)", .axis = "projected GPU time",
			.t = &t, .label = "Range", .value = "Total Proj Time", .unit = "ns",
			.max = p->top
		});
		page_table(p, &t, proj_columns, p->top);
	} else if (s == NST_OK) {
		page_absent(p, "No GPU projection of the NVTX ranges (nvtx_gpu_proj_sum found no GPU "
			    "work inside them).");
	}
	page_rows_release(&t);
	return s;
}

enum nst_status page_nvtx(struct page *p, struct nst_error *err)
{
	struct page_rows t = { 0 };
	char spec[64], title[96];
	snprintf(spec, sizeof spec, "nvtx_sum:rows=%zu", p->top);
	page_section_open(p, "nvtx", "NVTX ranges", "nvtx_sum and nvtx_gpu_proj_sum");
	enum nst_status s = page_run(p, 0, NST_REPORTS, spec, &t, err);
	if (s == NST_OK && t.rows.nrows) {
		snprintf(title, sizeof title, "Top %zu NVTX ranges by total time", t.rows.nrows);
		page_bars(p, &(struct page_bars){
			.title = title, .axis = "total time in ranges", .t = &t, .label = "Range",
			.value = "Total Time", .unit = "ns", .max = t.rows.nrows
		});
		page_table(p, &t, columns, t.rows.nrows);
		s = projection(p, err);
	} else if (s == NST_OK) {
		page_absent(p, "No NVTX ranges in this capture.");
	}
	page_rows_release(&t);
	page_section_close(p);
	return s;
}
