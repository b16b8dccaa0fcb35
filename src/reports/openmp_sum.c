/* openmp_sum: time spent in OpenMP events, by event name within each
 * OPENMP_EVENT_KIND_* table (a name found in two tables gives two rows). */
#include <stdlib.h>

#include "reports/family.h"

#define OPENMP_PREFIX "OPENMP_EVENT_KIND_"

/* One table's rows by nameId, in id order (nsys groups each table by
 * nameId). */
static enum nst_status add_table(struct nst_ctx *ctx, const char *table,
				 struct nst_named_dists *nd, struct nst_error *err)
{
	struct nst_timed t;
	enum nst_status s = nst_timed_load(ctx, table, &t, err);
	if (s != NST_OK || t.n == 0)
		return s;
	uint32_t *idx = malloc(t.n * sizeof *idx);
	int64_t *vals = malloc(t.n * sizeof *vals);
	if (!idx || !vals)
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; s == NST_OK && i < t.n; i++)
		idx[i] = (uint32_t)i;
	if (s == NST_OK)
		s = nst_sort_by_key(idx, t.n, t.name_id, err);
	for (size_t i = 0, j; s == NST_OK && i < t.n; i = j) {
		int64_t id = t.name_id[idx[i]];
		for (j = i; j < t.n && t.name_id[idx[j]] == id; j++)
			vals[j - i] = t.end[idx[j]] - t.start[idx[j]];
		const char *name = id == NST_NULL_I64 ? NULL : nst_db_string(ctx->db, id);
		s = nst_named_dists_add(nd, vals, j - i, name, err);
	}
	free(idx);
	free(vals);
	return s;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	enum nst_status s = nst_require_strings(ctx, err);
	if (s != NST_OK)
		return s;
	struct nst_family f;
	if ((s = nst_family_find(ctx, OPENMP_PREFIX, &f, err)) != NST_OK)
		return s;
	if (f.n == 0)
		return nst_nodata(ctx, err, "OpenMP event data.");
	struct nst_named_dists nd = { 0 };
	for (size_t i = 0; s == NST_OK && i < f.n; i++)
		s = add_table(ctx, f.names[i], &nd, err);
	if (s == NST_OK)
		s = nst_named_dists_emit(&nd, out, "Count", err);
	nst_named_dists_release(&nd);
	nst_family_release(&f);
	return s;
}

const struct nst_report nst_report_openmp_sum = {
	.name = "openmp_sum",
	.title = "OpenMP Summary",
	.help = "Time spent in OpenMP events, by event name within each\n"
		"OPENMP_EVENT_KIND_* table: the number of events, their total time\n"
		"and its share, and the average, median, minimum, maximum and\n"
		"standard deviation of one event. Equal totals from different\n"
		"tables are listed in table name order (nsys lists them in an\n"
		"order that changes from run to run).\n"
		NST_TOP_ROWS_HELP,
	.args = (const char *const[]){ "rows", NULL },
	.needs = (const struct nst_need[]){ { NULL, NULL, false } },
	.run = run,
	.flags = NST_REPORT_CHECKS_AFTER_FILTER | NST_REPORT_TOP_ROWS,
};
