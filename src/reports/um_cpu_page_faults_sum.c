/* um_cpu_page_faults_sum: CPU page faults on unified memory, by the CPU
 * instruction that caused them. */
#include <stdlib.h>

#include "reports/um.h"

struct by_instr {
	int64_t id; /* StringIds id of the instruction's address */
	int64_t faults;
};

/* Fault count descending; the sort is stable over instruction id order,
 * the order nsys's GROUP BY leaves them in. */
static int cmp_faults(uint32_t a, uint32_t b, void *arg)
{
	const struct by_instr *g = arg;
	return (g[a].faults < g[b].faults) - (g[a].faults > g[b].faults);
}

/* ids sorted; returns the number of groups written to g. */
static size_t count_by_id(const int64_t *ids, size_t n, struct by_instr *g)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (k && g[k - 1].id == ids[i])
			g[k - 1].faults++;
		else
			g[k++] = (struct by_instr){ ids[i], 1 };
	}
	return k;
}

static enum nst_status emit(struct nst_ctx *ctx, const struct nst_sink *out,
			    const struct by_instr *g, const uint32_t *order, size_t n,
			    struct nst_error *err)
{
	enum nst_status s;
	static const char *const cols[] = { "CPU Page Faults", "CPU Instruction Address" };
	if ((s = out->begin(out->ctx, cols, 2, err)) != NST_OK)
		return s;
	for (size_t k = 0; k < n; k++) {
		const struct by_instr *e = &g[order[k]];
		struct nst_cell c[2] = {
			nst_int(e->faults),
			nst_text(e->id == NST_NULL_I64 ? NULL : nst_db_string(ctx->db, e->id)),
		};
		if ((s = out->row(out->ctx, c, err)) != NST_OK)
			return s;
	}
	return NST_OK;
}

static enum nst_status summarise(struct nst_ctx *ctx, const struct nst_sink *out,
				 const int64_t *instr, size_t n, struct nst_error *err)
{
	int64_t *ids = malloc((n ? n : 1) * sizeof *ids);
	struct by_instr *g = malloc((n ? n : 1) * sizeof *g);
	uint32_t *order = malloc((n ? n : 1) * sizeof *order);
	enum nst_status s;
	if (!ids || !g || !order) {
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	} else {
		for (size_t i = 0; i < n; i++)
			ids[i] = instr ? instr[i] : NST_NULL_I64;
		nst_sort_i64(ids, n);
		size_t ng = count_by_id(ids, n, g);
		for (size_t k = 0; k < ng; k++)
			order[k] = (uint32_t)k;
		nst_stable_sort(order, ng, cmp_faults, g);
		s = emit(ctx, out, g, order, ng, err);
	}
	free(ids);
	free(g);
	free(order);
	return s;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	enum nst_status s = nst_require_strings(ctx, err);
	if (s != NST_OK)
		return s;
	if (!nst_db_has_table(ctx->db, UM_CPU_FAULTS))
		return nst_nodata(ctx, err, "CUDA Unified Memory CPU page faults data.");
	size_t n;
	const int64_t *instr;
	if (!s) s = nst_ev_rows(ctx->ev, UM_CPU_FAULTS, &n, err);
	if (!s) s = nst_ev_i64(ctx->ev, UM_CPU_FAULTS, "CpuInstruction", &instr, err);
	if (s != NST_OK)
		return s;
	return summarise(ctx, out, instr, n, err);
}

static const struct nst_need needs[] = {
	{ UM_CPU_FAULTS, "CpuInstruction", false },
	{ NULL, NULL, false },
};

const struct nst_report nst_report_um_cpu_page_faults_sum = {
	.name = "um_cpu_page_faults_sum",
	.title = "Unified Memory CPU Page Faults Summary",
	.help = "CPU page faults on unified memory, by the address of the CPU\n"
		"instruction that caused them, most faults first.\n"
		NST_TOP_ROWS_HELP,
	.args = (const char *const[]){ "rows", NULL },
	.needs = needs,
	.run = run,
	.flags = NST_REPORT_TOP_ROWS,
};
