/* Two captures compared (nst_diff): per GPU the busy time of each side,
 * then the kernels that changed most, with bars of the change (B - A),
 * and the transfers, API calls and NVTX ranges that changed. */
#include <stdio.h>

#include "page/page.h"

static const char *const gpu_columns[] = {
	"Device A", "Device B", "A Busy", "B Busy", "Diff Busy", "A Idle", "B Idle", "Diff Idle",
	"A GPU Span Util", "B GPU Span Util", NULL,
};
/* The instances compared first (the status's grounds), then the totals. */
static const char *const kern_columns[] = {
	"Status", "Shift", "Shift CI Low", "Shift CI High", "Holm P-Value", "A Instances",
	"B Instances", "A Total", "B Total", "Total Change", "A Med", "B Med", "Name", NULL,
};
static const char *const mem_columns[] = {
	"Status", "Shift", "Holm P-Value", "A Count", "B Count", "A Time", "B Time", "Time Change",
	"A Size", "B Size", "Operation", NULL,
};
static const char *const nvtx_columns[] = {
	"Status", "Shift", "Holm P-Value", "A Instances", "B Instances", "A Total", "B Total",
	"Total Change", "A GPU Proj", "B GPU Proj", "Style", "Range", NULL,
};
static const char *const api_columns[] = {
	"Status", "Shift", "Shift CI Low", "Shift CI High", "Holm P-Value", "A Calls", "B Calls",
	"A Total", "B Total", "Total Change", "Name", NULL,
};

/* A comparison whose table alone is shown, capped at top rows: the
 * columns cols names (NULL: all). */
static enum nst_status table_only(struct page *p, const char *spec, const char *title,
				  const char *const *cols, const char *none,
				  struct nst_error *err)
{
	struct page_rows t = { 0 };
	enum nst_status s = page_run_diff(p, spec, &t, err);
	page_raw(p->out, "<h3>");
	page_escz(p->out, title);
	page_raw(p->out, "</h3>\n<p class=\"from\">From ");
	page_escz(p->out, spec);
	page_raw(p->out, ".</p>\n");
	if (s == NST_OK && t.rows.nrows)
		page_table(p, &t, cols, p->top);
	else if (s == NST_OK)
		page_absent(p, none);
	page_rows_release(&t);
	return s;
}

static enum nst_status kernels(struct page *p, struct nst_error *err)
{
	struct page_rows t = { 0 };
	char title[96];
	enum nst_status s = page_run_diff(p, "kern_diff", &t, err);
	page_raw(p->out, "<h3>Kernels</h3>\n<p class=\"from\">From kern_diff: added (only in B), "
		 "removed (only in A), ~ (no significant change: the instances' Holm p-value at "
		 "least alpha), same (within the tolerance), slower or faster by the shift of the "
		 "instances (the Hodges-Lehmann ratio, with its 95%% interval); largest change of "
		 "the total first.</p>\n");
	if (s == NST_OK && t.rows.nrows) {
		snprintf(title, sizeof title, "Change of total time, the %zu kernels that changed most "
			 "(B - A)", t.rows.nrows < p->top ? t.rows.nrows : p->top);
		page_bars(p, &(struct page_bars){
			.title = title, .axis = "change of total time", .t = &t, .label = "Name",
			.value = "Diff Total", .unit = "ns", .max = p->top
		});
		page_table(p, &t, kern_columns, p->top);
	} else if (s == NST_OK) {
		page_absent(p, "No CUDA kernels in either capture.");
	}
	page_rows_release(&t);
	return s;
}

static enum nst_status gpus(struct page *p, struct nst_error *err)
{
	struct page_rows t = { 0 };
	enum nst_status s = page_run_diff(p, "gpu_time_diff", &t, err);
	page_raw(p->out, "<h3>GPU time</h3>\n<p class=\"from\">From gpu_time_diff.</p>\n");
	if (s == NST_OK && t.rows.nrows) {
		page_bars(p, &(struct page_bars){
			.title = "Change of busy time per GPU (B - A)",
			.axis = "change of busy time", .t = &t, .label = "Device A",
			.value = "Diff Busy", .unit = "ns", .max = 64,
			.prefix = "GPU "
		});
		page_table(p, &t, gpu_columns, 64);
	} else if (s == NST_OK) {
		page_absent(p, "No GPU operations in either capture.");
	}
	page_rows_release(&t);
	return s;
}

enum nst_status page_diff(struct page *p, struct nst_error *err)
{
	page_section_open(p, "diff", "What changed: B (candidate) against A (baseline)",
			  "nstats diff: gpu_time_diff, kern_diff, mem_diff, api_diff, nvtx_diff");
	enum nst_status s = gpus(p, err);
	if (s == NST_OK)
		s = kernels(p, err);
	if (s == NST_OK)
		s = table_only(p, "mem_diff", "Memory transfers", mem_columns, "No memory copies or "
			       "sets in either capture.", err);
	if (s == NST_OK)
		s = table_only(p, "api_diff", "CUDA API", api_columns, "No CUDA API calls in either "
			       "capture.", err);
	if (s == NST_OK)
		s = table_only(p, "nvtx_diff", "NVTX ranges", nvtx_columns, "No NVTX ranges in either "
			       "capture.", err);
	page_section_close(p);
	return s;
}
