/* GPU time: each device's busy, idle and overlapping time (gpu_time_sum)
 * and when it was busy, a strip of the gpu_time_util recipe's buckets. */
#include "page/page.h"

static const char *const columns[] = {
	"Device", "Capture Span", "GPU Span", "Busy", "Kernel Union", "Kernel Sum", "Overlap",
	"Graph", "Idle", "Capture Util", "GPU Span Util", "Idle Gaps", "Gap Time", NULL,
};

static enum nst_status strip(struct page *p, struct nst_error *err)
{
	static const char *const tables[] = { "util", NULL };
	struct page_rows util = { 0 };
	enum nst_status s = page_run_recipe(p, "gpu_time_util:buckets=100", tables, &util, err);
	if (s == NST_OK)
		page_heat(p, "GPU utilisation over time, 100 buckets of each GPU's span", &util, false);
	page_rows_release(&util);
	return s;
}

enum nst_status page_gpu(struct page *p, struct nst_error *err)
{
	struct page_rows t = { 0 };
	page_section_open(p, "gpu", "GPU time", "gpu_time_sum, and the gpu_time_util recipe");
	enum nst_status s = page_run(p, 0, NST_REPORTS, "gpu_time_sum", &t, err);
	if (s == NST_OK && t.nrows) {
		page_bars(p, &(struct page_bars){
			.title = "Busy time per GPU (some operation running)", .axis = "busy time",
			.t = &t, .label = "Device", .value = "Busy", .unit = "ns", .max = 64
		});
		page_table(p, &t, columns, 64);
		page_raw(p->out, "<p class=\"sub\">Busy: the union of the GPU's kernels, memory copies and "
			 "sets; Overlap: time during which two or more ran at once; Idle: the capture "
			 "span less Busy.</p>\n");
		s = strip(p, err);
	} else if (s == NST_OK) {
		page_absent(p, "No GPU operations (kernels, memory copies or sets) in this capture.");
	}
	page_rows_release(&t);
	page_section_close(p);
	return s;
}
