/* Ranks of a job (three inputs or more, one rank each): when each rank's
 * GPUs were busy (gpu_time_util's heat map), how evenly (busy time per
 * rank and device, with the spread), which rank is the straggler of each
 * iteration (stragglers), and how much NCCL time no other work hid
 * (nccl_overlap).  The recipes of `nstats recipe`, on the same parts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "page/page.h"

static const char *const rank_columns[] = {
	"Rank", "Device", "GPU Span", "Busy", "Kernel Sum", "Idle", "GPU Span Util", "Gap Time", NULL,
};

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* One sentence: the slowest and the median of the busy times. */
static void imbalance(struct page *p, const struct page_rows *t)
{
	int busy = page_col(t, "Busy");
	double *v = malloc((t->rows.nrows ? t->rows.nrows : 1) * sizeof *v);
	if (!v || busy < 0 || t->rows.nrows == 0) {
		free(v);
		return;
	}
	for (size_t r = 0; r < t->rows.nrows; r++)
		v[r] = page_real(page_cell(t, r, busy));
	qsort(v, t->rows.nrows, sizeof *v, by_value);
	char hi[48], med[48], lo[48];
	page_raw(p->out, "<p>Imbalance: busy time per rank and GPU from %s (least) to %s (most), "
		 "median %s; the most is %.1f%% above the median.</p>\n",
		 page_show_ns(v[0], lo, sizeof lo), page_show_ns(v[t->rows.nrows - 1], hi, sizeof hi),
		 page_show_ns(v[(t->rows.nrows - 1) / 2], med, sizeof med),
		 v[(t->rows.nrows - 1) / 2] > 0 ? 100 * (v[t->rows.nrows - 1] / v[(t->rows.nrows - 1) / 2] - 1) : 0);
	free(v);
}

static enum nst_status utilisation(struct page *p, struct nst_error *err)
{
	static const char *const tables[] = { "rank", "util", NULL };
	struct page_rows t[2] = { 0 };
	enum nst_status s = page_run_recipe(p, "gpu_time_util:buckets=100", tables, t, err);
	if (s == NST_OK && t[1].rows.nrows) {
		page_heat(p, "GPU utilisation per rank over time (100 buckets of each GPU's span)", &t[1],
			  true);
		imbalance(p, &t[0]);
		page_bars(p, &(struct page_bars){
			.title = "Busy time per rank and GPU", .axis = "busy time", .t = &t[0],
			.label = "Rank", .value = "Busy", .unit = "ns", .max = 256,
			.device = "Device"
		});
		page_table(p, &t[0], rank_columns, 256);
	} else if (s == NST_OK) {
		page_absent(p, "No GPU operations on any rank.");
	}
	page_rows_release(&t[0]);
	page_rows_release(&t[1]);
	return s;
}

/* A recipe's table alone, under a heading. */
static enum nst_status recipe_table(struct page *p, const char *spec, const char *table,
				    const char *title, const char *none, struct nst_error *err)
{
	const char *const tables[] = { table, NULL };
	struct page_rows t = { 0 };
	enum nst_status s = page_run_recipe(p, spec, tables, &t, err);
	page_raw(p->out, "<h3>");
	page_escz(p->out, title);
	page_raw(p->out, "</h3>\n<p class=\"from\">From the %s recipe, table %s.</p>\n", spec, table);
	if (s == NST_OK && t.rows.nrows)
		page_table(p, &t, NULL, 256);
	else if (s == NST_OK)
		page_absent(p, none);
	page_rows_release(&t);
	return s;
}

enum nst_status page_ranks(struct page *p, struct nst_error *err)
{
	page_section_open(p, "ranks", "Ranks", "the recipes gpu_time_util, stragglers and nccl_overlap "
			  "(nstats recipe), one rank an input");
	enum nst_status s = utilisation(p, err);
	if (s == NST_OK)
		s = recipe_table(p, "stragglers", "iterations", "Stragglers: the slowest rank of each "
				 "iteration", "No iterations (no NCCL kernels on the ranks).", err);
	if (s == NST_OK)
		s = recipe_table(p, "nccl_overlap", "rank", "Exposed communication: NCCL time no other "
				 "GPU work hid", "No NCCL kernels on any rank.", err);
	page_section_close(p);
	return s;
}
