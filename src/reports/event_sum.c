/* The summary of named events kept in several tables (see event_sum.h). */
#include <stdlib.h>

#include "reports/event_sum.h"

/* One output row: the events of one name in one source table. */
struct event_group {
	size_t src;
	int64_t name_id;
	size_t count;  /* rows, with or without an end */
	bool timed;    /* at least one row has a duration */
	struct nst_dist d;
};

struct group_list {
	struct event_group *g;
	size_t n, cap;
};

static enum nst_status push_group(struct group_list *l, const struct event_group *g,
				  struct nst_error *err)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		struct event_group *p = realloc(l->g, cap * sizeof *p);
		if (!p)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		l->g = p;
		l->cap = cap;
	}
	l->g[l->n++] = *g;
	return NST_OK;
}

/* The distribution of one group's durations, NULLs left out; false when
 * their sum does not fit. */
static bool group_dist(const struct nst_groups *gr, size_t k, const int64_t *start,
		       const int64_t *end, int64_t *buf, struct event_group *out)
{
	size_t m = 0;
	for (size_t i = gr->start[k]; i < gr->start[k + 1]; i++) {
		uint32_t row = gr->order[i];
		if (end[row] != NST_NULL_I64 && start[row] != NST_NULL_I64)
			buf[m++] = end[row] - start[row];
	}
	out->count = gr->start[k + 1] - gr->start[k];
	out->timed = m > 0;
	return m == 0 || nst_dist_of(buf, m, &out->d);
}

/* Groups one source table's rows by name id. */
static enum nst_status summarise_source(struct nst_ctx *ctx, const struct nst_event_source *s,
					size_t src, struct group_list *l, struct nst_error *err)
{
	size_t n;
	const int64_t *start, *end, *name;
	enum nst_status st = nst_ev_rows(ctx->ev, s->table, &n, err);
	if (!st) st = nst_ev_i64(ctx->ev, s->table, "start", &start, err);
	if (!st) st = nst_ev_i64(ctx->ev, s->table, "end", &end, err);
	if (!st) st = nst_ev_i64(ctx->ev, s->table, s->name_col, &name, err);
	if (st != NST_OK || n == 0)
		return st;
	if (!start || !end || !name)
		return nst_fail(err, NST_ERR_DB, "%s: %s lacks start, end or %s",
				nst_db_path(ctx->db), s->table, s->name_col);
	uint32_t *rows = malloc(n * sizeof *rows);
	int64_t *buf = malloc(n * sizeof *buf);
	struct nst_groups gr = { 0 };
	if (!rows || !buf) {
		st = nst_fail(err, NST_ERR_NOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		rows[i] = (uint32_t)i;
	const int64_t *keys[] = { name };
	st = nst_group(keys, 1, rows, n, &gr, err);
	for (size_t k = 0; st == NST_OK && k < gr.n; k++) {
		struct event_group g = { .src = src, .name_id = name[gr.first[k]] };
		st = group_dist(&gr, k, start, end, buf, &g) ? push_group(l, &g, err)
							      : nst_fail_sum(err);
	}
out:
	nst_groups_release(&gr);
	free(rows);
	free(buf);
	return st;
}

/* Total descending with NULL totals last; then source, then name id. */
static int cmp_group(const void *pa, const void *pb)
{
	const struct event_group *a = pa, *b = pb;
	if (a->timed != b->timed)
		return a->timed ? -1 : 1;
	if (a->timed && a->d.sum != b->d.sum)
		return a->d.sum > b->d.sum ? -1 : 1;
	if (a->src != b->src)
		return a->src < b->src ? -1 : 1;
	return (a->name_id > b->name_id) - (a->name_id < b->name_id);
}

static void fill_row(struct nst_ctx *ctx, const struct nst_event_source *src,
		     const struct event_group *g, double total, struct nst_cell *c)
{
	const struct nst_dist *d = &g->d;
	c[2] = nst_int((int64_t)g->count);
	c[7] = nst_real(0.0); /* stdev() of no values is 0, not NULL */
	c[8] = nst_text(src[g->src].label);
	c[9] = nst_text(g->name_id == NST_NULL_I64 ? NULL
						    : nst_db_string(ctx->db, g->name_id));
	if (!g->timed) {
		c[0] = c[1] = c[3] = c[4] = c[5] = c[6] = nst_null();
		return;
	}
	/* SQL divides by zero into NULL */
	c[0] = total != 0 ? nst_round1((double)d->sum * 100.0 / total) : nst_null();
	c[1] = nst_int(d->sum);
	c[3] = nst_round1(d->avg);
	c[4] = nst_round1(nst_mid_value(d->med));
	c[5] = nst_int(d->min);
	c[6] = nst_int(d->max);
	c[7] = nst_round1(d->stdev);
}

static enum nst_status emit(struct nst_ctx *ctx, const struct nst_sink *out,
			    const struct nst_event_source *src, const struct group_list *l,
			    const char *count_label, const char *source_col,
			    struct nst_error *err)
{
	enum nst_status s;
	const char *cols[10] = {
		"Time:ratio_%", "Total Time:dur_ns", count_label, "Avg:dur_ns",
		"Med:dur_ns", "Min:dur_ns", "Max:dur_ns", "StdDev:dur_ns",
		source_col, "Name",
	};
	if ((s = out->begin(out->ctx, cols, 10, err)) != NST_OK)
		return s;
	double total = 0;
	for (size_t k = 0; k < l->n; k++)
		if (l->g[k].timed)
			total += (double)l->g[k].d.sum;
	for (size_t k = 0; k < l->n; k++) {
		struct nst_cell c[10];
		fill_row(ctx, src, &l->g[k], total, c);
		if ((s = out->row(out->ctx, c, err)) != NST_OK)
			return s;
	}
	return NST_OK;
}

enum nst_status nst_event_summary(struct nst_ctx *ctx, const struct nst_sink *out,
				  const struct nst_event_source *src, size_t nsrc,
				  const char *count_label, const char *source_col,
				  struct nst_error *err)
{
	struct group_list l = { 0 };
	enum nst_status s = nst_db_load_strings(ctx->db, err);
	for (size_t i = 0; s == NST_OK && i < nsrc; i++)
		if (nst_db_has_table(ctx->db, src[i].table))
			s = summarise_source(ctx, &src[i], i, &l, err);
	if (s == NST_OK) {
		if (l.n)
			qsort(l.g, l.n, sizeof *l.g, cmp_group);
		s = emit(ctx, out, src, &l, count_label, source_col, err);
	}
	free(l.g);
	return s;
}
