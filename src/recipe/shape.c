/* The summary shape: a group's durations on each rank, reduced to one row
 * over every rank and a row per rank, with the statistics of `stats`'s
 * summaries (core/sqlstat.h), so a rank's row is what `stats` prints for
 * that rank. */
#include <stdlib.h>
#include <string.h>

#include "core/sqlstat.h"
#include "recipe/shape.h"
#include "reports/common.h"

/* Total descending, then the key; per rank, by rank first. */
const int8_t shape_order_all[] = { -2, 11, 12, 0 };
const int8_t shape_order_rank[] = { 1, -3, 10, 11, 0 };

enum { ALL_TIME, ALL_TOTAL, ALL_N, ALL_AVG, ALL_MED, ALL_MIN, ALL_MAX, ALL_STDEV, ALL_RANKS,
       ALL_IMBALANCE, ALL_KEY };
enum { RANK_RANK, RANK_TIME, RANK_TOTAL, RANK_STATS, RANK_KEY = RANK_STATS + 6 };

/* Total, Instances, Avg, Med, Min, Max, StdDev of d into c[0..7). */
static void stats_cells(const struct nst_dist *d, struct nst_cell *c)
{
	c[0] = nst_int(d->sum);
	c[1] = nst_int((int64_t)d->n);
	c[2] = nst_round1(d->avg);
	c[3] = nst_round1(nst_mid_value(d->med));
	c[4] = nst_int(d->min);
	c[5] = nst_int(d->max);
	c[6] = nst_round1(d->stdev);
}

static enum nst_status rank_row(const struct recipe_group *g, const struct recipe_member *m,
				int64_t *buf, struct recipe_out *o, struct nst_dist *d,
				struct nst_error *err)
{
	memcpy(buf, m->vals, m->nvals * sizeof *buf);
	if (!nst_dist_of(buf, m->nvals, d))
		return nst_fail(err, NST_ERR_DB, "a total of one rank does not fit 64 bits");
	struct nst_cell c[RECIPE_MAX_COLS];
	c[RANK_RANK] = nst_int(m->uid);
	c[RANK_TIME] = nst_null();
	stats_cells(d, &c[RANK_TOTAL]);
	memcpy(&c[RANK_KEY], g->key, g->nkey * sizeof *g->key);
	return recipe_emit(o, 1, c, err);
}

enum nst_status shape_reduce(const struct recipe_group *g, struct recipe_out *o,
			     const void *args, struct nst_error *err)
{
	(void)args;
	if (g->nkey > RECIPE_MAX_KEYS)
		return nst_fail(err, NST_ERR_INTERNAL, "a group of %zu key cells", g->nkey);
	size_t total = 0, ranks = 0;
	for (size_t i = 0; i < g->n; i++)
		total += g->m[i].nvals;
	int64_t *buf = malloc((total ? total : 1) * sizeof *buf);
	if (!buf)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	enum nst_status s = NST_OK;
	int64_t most = 0;
	for (size_t i = 0; s == NST_OK && i < g->n; i++) {
		struct nst_dist d;
		if (!g->m[i].nvals)
			continue;
		ranks++;
		s = rank_row(g, &g->m[i], buf, o, &d, err);
		most = d.sum > most || ranks == 1 ? d.sum : most;
	}
	/* every rank's values, in rank order, for the statistics over all */
	size_t at = 0;
	for (size_t i = 0; i < g->n; i++) {
		if (!g->m[i].nvals) /* a part from elsewhere may hold an empty group */
			continue;
		memcpy(buf + at, g->m[i].vals, g->m[i].nvals * sizeof *buf);
		at += g->m[i].nvals;
	}
	struct nst_dist d;
	if (s == NST_OK && total) {
		if (!nst_dist_of(buf, total, &d))
			s = nst_fail(err, NST_ERR_DB, "a total over every rank does not fit 64 bits");
	}
	if (s == NST_OK && total) {
		struct nst_cell c[RECIPE_MAX_COLS];
		c[ALL_TIME] = nst_null();
		stats_cells(&d, &c[ALL_TOTAL]);
		c[ALL_RANKS] = nst_int((int64_t)ranks);
		c[ALL_IMBALANCE] = nst_null();
		memcpy(&c[ALL_KEY], g->key, g->nkey * sizeof *g->key);
		c[ALL_KEY + g->nkey] = nst_int(most);
		s = recipe_emit(o, 0, c, err);
	}
	free(buf);
	return s;
}

static double sum_col(const struct recipe_rows *rows, size_t col)
{
	double t = 0;
	for (size_t i = 0; i < rows->n; i++)
		t += (double)rows->row[i][col].v.i;
	return t;
}

enum nst_status shape_finish_all(struct recipe_rows *rows, const void *args,
				 struct nst_error *err)
{
	(void)args, (void)err;
	double total = sum_col(rows, ALL_TOTAL);
	for (size_t i = 0; i < rows->n; i++) {
		struct nst_cell *c = rows->row[i];
		double t = (double)c[ALL_TOTAL].v.i;
		double most = (double)c[rows->ncols - 1].v.i;
		c[ALL_TIME] = total ? nst_round1(t * 100.0 / total) : nst_null();
		c[ALL_IMBALANCE] = t && rows->nranks
			? nst_real(nst_sql_round(most * (double)rows->nranks / t, 2)) : nst_null();
	}
	return NST_OK;
}

/* Each row's share of its rank's total: totals summed per rank number. */
enum nst_status shape_finish_rank(struct recipe_rows *rows, const void *args,
				  struct nst_error *err)
{
	(void)args;
	struct nst_map by_rank;
	double *sum = calloc(rows->n ? rows->n : 1, sizeof *sum);
	uint32_t *at = malloc((rows->n ? rows->n : 1) * sizeof *at);
	if (!sum || !at || nst_map_init(&by_rank, rows->n) < 0) {
		free(sum);
		free(at);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	uint32_t next = 0;
	for (size_t i = 0; i < rows->n; i++) {
		bool inserted;
		const struct nst_cell *c = rows->row[i];
		int64_t rank = c[RANK_RANK].kind == NST_INT ? c[RANK_RANK].v.i : -1;
		nst_map_get_or_put(&by_rank, rank, 0, next, &at[i], &inserted);
		next += inserted;
		sum[at[i]] += (double)c[RANK_TOTAL].v.i;
	}
	for (size_t i = 0; i < rows->n; i++) {
		struct nst_cell *c = rows->row[i];
		c[RANK_TIME] = sum[at[i]] ? nst_round1((double)c[RANK_TOTAL].v.i * 100.0 / sum[at[i]])
					  : nst_null();
	}
	nst_map_release(&by_rank);
	free(sum);
	free(at);
	return NST_OK;
}

/* ---- the groups of a part ---------------------------------------------------------------- */

enum nst_status shape_groups_init(struct shape_groups *sg, struct recipe_part *rp,
				  struct nst_error *err)
{
	sg->rp = rp;
	return nst_map_init(&sg->handles, 256) < 0 ? nst_fail(err, NST_ERR_NOMEM, "out of memory")
						    : NST_OK;
}

void shape_groups_release(struct shape_groups *sg)
{
	nst_map_release(&sg->handles);
}

enum nst_status shape_add(struct shape_groups *sg, int64_t id, recipe_uid uid, int64_t value,
			  shape_key_fn key, size_t nkey, void *arg, struct nst_error *err)
{
	uint32_t h;
	if (!nst_map_get(&sg->handles, id, uid, &h)) {
		struct nst_cell k[RECIPE_MAX_KEYS];
		size_t handle;
		bool inserted;
		key(arg, id, k);
		enum nst_status s = recipe_group(sg->rp, 0, k, nkey, uid, &handle, err);
		if (s != NST_OK)
			return s;
		if (nst_map_get_or_put(&sg->handles, id, uid, (uint32_t)handle, &h, &inserted) < 0)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	return recipe_push(sg->rp, h, &value, 1, err);
}
