/* Memory transfers by kind: their time (cuda_gpu_mem_time_sum), their
 * bytes (cuda_gpu_mem_size_sum), and the throughput of the two. */
#include <string.h>

#include "page/page.h"

static const char *const time_columns[] = {
	"Time", "Total Time", "Count", "Avg", "Med", "Min", "Max", "Operation", NULL,
};
static const char *const size_columns[] = {
	"Total", "Count", "Avg", "Med", "Min", "Max", "Operation", NULL,
};

/* The size row of the same operation, -1 when none. */
static long size_row(const struct page_rows *size, const char *op)
{
	int col = page_col(size, "Operation");
	for (size_t r = 0; r < size->rows.nrows; r++) {
		const struct nst_cell *c = page_cell(size, r, col);
		if (c->kind == NST_TEXT && strcmp(c->v.s, op) == 0)
			return (long)r;
	}
	return -1;
}

/* Bytes over the transfers' total time: bytes per ns are GB/s. */
static void throughput(struct page *p, const struct page_rows *time, const struct page_rows *size)
{
	int op = page_col(time, "Operation"), total = page_col(time, "Total Time");
	int mb = page_col(size, "Total");
	page_raw(p->out, "<div class=\"scroll\"><table class=\"rows\">\n<thead><tr>"
		 "<th>Operation</th><th>Total (MB)</th><th>Total Time (ns)</th><th>Throughput (GB/s)"
		 "</th></tr></thead>\n<tbody>\n");
	for (size_t r = 0; r < time->rows.nrows; r++) {
		const struct nst_cell *name = page_cell(time, r, op);
		long s = name->kind == NST_TEXT ? size_row(size, name->v.s) : -1;
		if (s < 0)
			continue;
		double bytes = page_real(page_cell(size, (size_t)s, mb));
		double ns = page_real(page_cell(time, r, total));
		page_raw(p->out, "<tr><td class=\"name\">");
		page_name_text(p->out, name->v.s);
		page_raw(p->out, "</td><td data-v=\"%.17g\">%.3f</td><td data-v=\"%.17g\">%.0f</td>"
			 "<td data-v=\"%.17g\">%.3f</td></tr>\n", bytes / 1e6, bytes / 1e6, ns, ns,
			 ns > 0 ? bytes / ns : 0, ns > 0 ? bytes / ns : 0);
	}
	page_raw(p->out, "</tbody>\n</table></div>\n");
}

enum nst_status page_memory(struct page *p, struct nst_error *err)
{
	struct page_rows time = { 0 }, size = { 0 };
	page_section_open(p, "memory", "Memory transfers",
			  "cuda_gpu_mem_time_sum and cuda_gpu_mem_size_sum");
	enum nst_status s = page_run(p, 0, NST_REPORTS, "cuda_gpu_mem_time_sum", &time, err);
	if (s == NST_OK)
		s = page_run(p, 0, NST_REPORTS, "cuda_gpu_mem_size_sum", &size, err);
	if (s == NST_OK && time.rows.nrows) {
		page_bars(p, &(struct page_bars){
			.title = "Time of memory operations by kind", .axis = "total time",
			.t = &time, .label = "Operation", .value = "Total Time", .unit = "ns",
			.max = 64
		});
		page_table(p, &time, time_columns, 64);
		page_table(p, &size, size_columns, 64);
		page_raw(p->out, "<h3>Throughput</h3>\n<p class=\"from\">Bytes (cuda_gpu_mem_size_sum) over "
			 "time (cuda_gpu_mem_time_sum) of each kind; memsets set bytes, they move none."
			 "</p>\n");
		throughput(p, &time, &size);
	} else if (s == NST_OK) {
		page_absent(p, "No memory copies or sets in this capture.");
	}
	page_rows_release(&time);
	page_rows_release(&size);
	page_section_close(p);
	return s;
}
