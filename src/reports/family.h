/* Families of tables that one report reads together, found by name
 * (OPENMP_EVENT_KIND_*, CUPTI_ACTIVITY_KIND_OPENACC_*), and the
 * start/end/nameId rows they share. */
#ifndef NSTATS_REPORTS_FAMILY_H
#define NSTATS_REPORTS_FAMILY_H

#include "reports/common.h"

/* The tables and views whose names are prefix followed by at least one
 * character, in name order.  nsys's order of them is that of a Python
 * set, different from run to run; name order makes ties deterministic. */
struct nst_family {
	char **names;
	size_t n;
};
enum nst_status nst_family_find(struct nst_ctx *ctx, const char *prefix,
				struct nst_family *f, struct nst_error *err);
void nst_family_release(struct nst_family *f);

/* A family table's durations and names, in row order. */
struct nst_timed {
	size_t n;
	const int64_t *start, *end, *name_id;
};
enum nst_status nst_timed_load(struct nst_ctx *ctx, const char *table,
			       struct nst_timed *t, struct nst_error *err);


/* Summary rows built up table by table: a distribution and a name each. */
struct nst_named_dists {
	struct nst_dist *d;
	const char **name;
	size_t n, cap;
};
/* Appends the distribution of vals[0..n) (sorted in place) named name. */
enum nst_status nst_named_dists_add(struct nst_named_dists *nd, int64_t *vals, size_t n,
				    const char *name, struct nst_error *err);
/* Emits them as the usual duration summary, total time descending (the
 * sort is stable: equal totals keep the order they were added in). */
enum nst_status nst_named_dists_emit(const struct nst_named_dists *nd,
				     const struct nst_sink *out, const char *count_label,
				     struct nst_error *err);
void nst_named_dists_release(struct nst_named_dists *nd);

#endif
