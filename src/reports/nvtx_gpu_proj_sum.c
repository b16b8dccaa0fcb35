/* nvtx_gpu_proj_sum: the projected NVTX ranges of nvtx_gpu_proj_trace,
 * summarised by name and style. */
#include <stdlib.h>
#include <string.h>

#include "core/big.h"
#include "reports/nvtx_gpu_proj.h"

struct sums {
	struct nst_groups g;
	struct nst_dist *d;    /* of projected durations */
	int64_t *key;          /* by projected range: nst_nvtx_range_key */
};

static void sums_release(struct sums *m)
{
	nst_groups_release(&m->g);
	free(m->d);
	free(m->key);
}

static enum nst_status group(const struct nst_proj *p, struct sums *m, struct nst_error *err)
{
	m->key = nst_big_alloc(p->n, sizeof *m->key);
	if (!m->key)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < p->n; i++) {
		uint32_t e = p->entry[i];
		m->key[i] = nst_nvtx_range_key(nst_nvtx_name_of(&p->named, e),
					      (enum nst_nvtx_style)p->named.style[e]);
	}
	const int64_t *keys[] = { m->key };
	enum nst_status s = nst_group(keys, 1, NULL, p->n, &m->g, err);
	/* the projected durations, pend - pstart, without an array of them */
	const struct nst_span dur = { NULL, p->pstart, p->pend };
	if (s == NST_OK)
		s = nst_group_durations(&m->g, &dur, true, &m->d, err);
	return s;
}

struct sorter {
	const struct nst_proj *p;
	const struct sums *m;
};

static const char *name_text(const struct nst_proj *p, int64_t name)
{
	return name == NST_NULL_I64 ? NULL : p->named.text[name];
}

/* Equal total projected times by name, then style. */
static int cmp_ties(uint32_t a, uint32_t b, void *arg)
{
	const struct sorter *t = arg;
	const struct sums *m = t->m;
	int64_t ka = m->key[m->g.first[a]], kb = m->key[m->g.first[b]];
	int c = nst_cmp_sql_text(name_text(t->p, nst_nvtx_key_name(ka)), name_text(t->p, nst_nvtx_key_name(kb)));
	return c ? c : (int)nst_nvtx_key_style(ka) - (int)nst_nvtx_key_style(kb);
}

/* Sums over group g of the range times, GPU ops, levels and children. */
struct extra {
	int64_t range_time, ops, lvl, nlvl, nchild; /* nlvl: ranges with a level */
};

static struct extra extra_of(const struct nst_proj *p, const struct sums *m, size_t g)
{
	struct extra x = { 0, 0, 0, 0, 0 };
	for (size_t k = m->g.start[g]; k < m->g.start[g + 1]; k++) {
		uint32_t i = m->g.order[k];
		x.range_time += nst_proj_end(p, i) - nst_proj_start(p, i);
		x.ops += p->nops[i];
		if (p->lvl[i] != NST_PROJ_NONE) {
			x.lvl += p->lvl[i];
			x.nlvl++;
		}
		x.nchild += p->nchild[i];
	}
	return x;
}

static enum nst_status emit_row(const struct nst_sink *out, const struct nst_proj *p,
				const struct sums *m, uint32_t g, struct nst_error *err)
{
	const struct nst_dist *d = &m->d[g];
	struct extra x = extra_of(p, m, g);
	uint32_t f = m->g.first[g];
	double n = (double)d->n;
	struct nst_cell c[14] = {
		nst_text(name_text(p, nst_nvtx_key_name(m->key[f]))),
		nst_text(nst_nvtx_style_name(nst_nvtx_key_style(m->key[f]))),
		nst_int(d->sum),
		nst_int(x.range_time),
		nst_int((int64_t)d->n),
		nst_round1(d->avg),
		nst_round1(nst_mid_value(d->med)),
		nst_int(d->min),
		nst_int(d->max),
		nst_round1(d->stdev),
		nst_int(x.ops),
		nst_round1((double)x.ops / n),
		x.nlvl ? nst_round1((double)x.lvl / (double)x.nlvl) : nst_null(), /* SQL avg skips NULL */
		nst_round1((double)x.nchild / n),
	};
	return out->row(out->ctx, c, err);
}

static enum nst_status emit(const struct nst_sink *out, const struct nst_proj *p,
			    const struct sums *m, struct nst_error *err)
{
	static const char *const cols[] = {
		"Range", "Style", "Total Proj Time:dur_ns", "Total Range Time:dur_ns",
		"Range Instances", "Proj Avg:dur_ns", "Proj Med:dur_ns", "Proj Min:dur_ns",
		"Proj Max:dur_ns", "Proj StdDev:dur_ns", "Total GPU Ops", "Avg GPU Ops",
		"Avg Range Lvl", "Avg Num Child",
	};
	uint32_t *order = nst_big_alloc(m->g.n, sizeof *order);
	if (!order)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t g = 0; g < m->g.n; g++)
		order[g] = (uint32_t)g;
	enum nst_status s = nst_sort_by_total(order, m->g.n, m->d, cmp_ties,
					      &(struct sorter){ p, m }, err);
	if (s == NST_OK)
		s = out->begin(out->ctx, cols, 14, err);
	for (size_t k = 0; s == NST_OK && k < m->g.n; k++)
		s = emit_row(out, p, m, order[k], err);
	free(order);
	return s;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	struct nst_proj p;
	struct sums m = { 0 };
	enum nst_status s = nst_proj_check(ctx, err);
	if (s != NST_OK)
		return s;
	s = nst_proj_build(ctx, false, &p, err);
	if (s == NST_OK)
		s = group(&p, &m, err);
	if (s == NST_OK)
		s = emit(out, &p, &m, err);
	sums_release(&m);
	nst_proj_release(&p);
	return s;
}

const struct nst_report nst_report_nvtx_gpu_proj_sum = {
	.name = "nvtx_gpu_proj_sum",
	.title = "NVTX GPU Projection Summary",
	.help = "The projected NVTX ranges of nvtx_gpu_proj_trace summarised by\n"
		"name and style: total projected time, total original range time,\n"
		"number of instances, average, median, minimum, maximum and\n"
		"standard deviation of the projected time, total and average number\n"
		"of GPU operations, average nesting level and average number of\n"
		"children.  A child's time is not taken from its parent's.\n"
		NST_TOP_ROWS_HELP,
	.args = (const char *const[]){ "rows", NULL },
	.needs = nst_proj_needs,
	.run = run,
	.flags = NST_REPORT_TOP_ROWS,
};
