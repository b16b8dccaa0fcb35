/* GPU time: each device's busy, idle and doubly counted kernel time (gpu_time_sum)
 * and when it was busy, a strip of a bucket a pixel: both from the gpu_time_util
 * recipe on the one input, whose rank table is gpu_time_sum's numbers
 * (docs/recipes.md), so that they are computed once. */
#include <stdio.h>

#include "page/page.h"

static const char *const columns[] = {
	"Device", "Capture Span", "GPU Span", "Busy", "Overlap", "Idle", "Capture Util",
	"GPU Span Util", "Idle Gaps", "Gap Time", NULL,
};

enum nst_status page_gpu(struct page *p, struct nst_error *err)
{
	static const char *const tables[] = { "rank", "util", NULL };
	struct page_rows t[2] = { 0 };
	page_section_open(p, "gpu", "GPU time", "gpu_time_sum (as the gpu_time_util recipe gives it), "
			  "and the gpu_time_util recipe's buckets");
	enum nst_status s = page_run_recipe(p, "gpu_time_util:buckets=" PAGE_STRIP_BUCKETS, tables, t,
					    err);
	snprintf(t[0].spec, sizeof t[0].spec, "gpu_time_sum");
	t[0].table[0] = '\0';
	if (s == NST_OK && t[0].rows.nrows) {
		page_bars(p, &(struct page_bars){
			.title = "Busy time per GPU (some operation running)", .axis = "busy time",
			.t = &t[0], .label = "Device", .value = "Busy", .unit = "ns", .max = 64,
			.prefix = "GPU ",
		});
		page_table(p, &t[0], columns, 64);
		page_raw(p->out, "<p class=\"sub\">Busy: the union of the GPU's kernels, memory copies and "
			 "sets; Overlap: kernel time counted more than once, the sum of kernel durations "
			 "minus their union (concurrent kernels, or duplicated rows: see nstats check); "
			 "Idle: the capture span less Busy.</p>\n");
		page_heat(p, "GPU utilisation over time, " PAGE_STRIP_BUCKETS " buckets of each GPU's span",
			  &t[1], false);
	} else if (s == NST_OK) {
		page_absent(p, "No GPU operations (kernels, memory copies or sets) in this capture.");
	}
	page_rows_release(&t[0]);
	page_rows_release(&t[1]);
	page_section_close(p);
	return s;
}
