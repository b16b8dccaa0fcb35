/* Kernels: the top N by total time (cuda_gpu_kern_dist, which orders them
 * so) as bars, their table, and the spread of their durations. */
#include <stdio.h>

#include "page/page.h"

static const char *const columns[] = {
	"Busy", "Total Time", "Instances", "Mean", "Min", "P50", "P90", "P99", "Max", "Name", NULL,
};

/* Kernels the report cannot count: those of CUDA graphs traced whole. */
static void hidden(struct page *p, const struct nst_run_result *res)
{
	char ns[48];
	if (res->hidden_graph_launches)
		page_raw(p->out, "<p class=\"absent\" data-hidden-graph-launches=\"%llu\">Not shown: "
			 "%llu CUDA graph launches (%s of GPU time) whose kernels were traced at "
			 "graph level (--cuda-graph-trace=graph), in no kernel row.</p>\n",
			 (unsigned long long)res->hidden_graph_launches,
			 (unsigned long long)res->hidden_graph_launches,
			 page_show_ns((double)res->hidden_graph_ns, ns, sizeof ns));
}

enum nst_status page_kernels(struct page *p, struct nst_error *err)
{
	struct page_rows t = { 0 };
	char spec[64], title[96];
	snprintf(spec, sizeof spec, "cuda_gpu_kern_dist:rows=%zu", p->top);
	page_section_open(p, "kernels", "Kernels", "cuda_gpu_kern_dist");
	enum nst_status s = page_run(p, 0, NST_REPORTS, spec, &t, err);
	if (s == NST_OK)
		hidden(p, &t.res);
	if (s == NST_OK && t.rows.nrows) {
		snprintf(title, sizeof title, "Top %zu kernels by total time", t.rows.nrows);
		page_bars(p, &(struct page_bars){
			.title = title, .axis = "total time", .t = &t, .label = "Name",
			.value = "Total Time", .unit = "ns", .max = t.rows.nrows
		});
		page_table(p, &t, columns, t.rows.nrows);
		snprintf(title, sizeof title, "Duration of each instance, top %zu kernels", t.rows.nrows);
		page_boxes(p, title, &t, t.rows.nrows);
	} else if (s == NST_OK) {
		page_absent(p, "No CUDA kernels in this capture.");
	}
	page_rows_release(&t);
	page_section_close(p);
	return s;
}
