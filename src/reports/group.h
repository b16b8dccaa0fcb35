/* Rows grouped by key tuples, distributions over groups, and orders:
 * what every summary and trace sorts and groups with. */
#ifndef NSTATS_REPORTS_GROUP_H
#define NSTATS_REPORTS_GROUP_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/col.h"
#include "core/sqlstat.h"
#include "nstats/nstats.h"

/* ---- grouping ---------------------------------------------------------- */

/* Rows grouped by equal key tuples: group g holds rows
 * order[start[g] .. start[g+1]), in row order.  Groups are numbered in
 * order of first appearance; first[g] is the group's first row. */
struct nst_groups {
	size_t n;
	size_t *start;
	uint32_t *order;
	uint32_t *first;
};

/* Groups rows[0..nrows) by the values of keys[0..nkeys) at each row
 * (at most NST_GROUP_MAX_KEYS keys); rows NULL is rows 0..nrows). */
#define NST_GROUP_MAX_KEYS 16
enum nst_status nst_group(const int64_t *const *keys, size_t nkeys,
			  const uint32_t *rows, size_t nrows,
			  struct nst_groups *g, struct nst_error *err);
/* The same over columns as the events layer stores them. */
enum nst_status nst_group_cols(const struct nst_col *const *keys, size_t nkeys,
			       const uint32_t *rows, size_t nrows,
			       struct nst_groups *g, struct nst_error *err);
/* The rest of a grouping whose ids the caller assigned: with g->n and
 * g->first set and gid[i] the group of rows[i] (of row i where rows is
 * NULL), fills start and order. */
enum nst_status nst_group_by_ids(const uint32_t *gid, const uint32_t *rows, size_t nrows,
				 struct nst_groups *g, struct nst_error *err);
void nst_groups_release(struct nst_groups *g);
/* The rows of the largest group, at least 1: a size for per-group scratch. */
size_t nst_group_largest(const struct nst_groups *g);

/* The error of a sum that does not fit int64 (nst_dist_of, nst_add_i64),
 * raised where the export is not known: the run names it. */
enum nst_status nst_fail_sum(struct nst_error *err);

/* The distribution of val over each group; out has g->n entries. */
enum nst_status nst_group_dists(const struct nst_groups *g, const int64_t *val,
				struct nst_dist **out, struct nst_error *err);
/* The same without the median (zero): cheaper where a
 * report prints none of them. */
enum nst_status nst_group_moments(const struct nst_groups *g, const int64_t *val,
				  struct nst_dist **out, struct nst_error *err);
/* Either of the durations of the rows (nst_span_at), without an array
 * of them (8 bytes a row: 107 MB for the calls of a 10M-launch capture). */
enum nst_status nst_group_durations(const struct nst_groups *g, const struct nst_span *dur,
				    bool median, struct nst_dist **out, struct nst_error *err);

/* Texts in SQL's ORDER BY of a TEXT column: NULL first, then BINARY
 * (byte) order. */
static inline int nst_cmp_sql_text(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

/* Sorts idx[0..n) stably with cmp(a, b, arg). */
void nst_stable_sort(uint32_t *idx, size_t n,
		     int (*cmp)(uint32_t a, uint32_t b, void *arg), void *arg);

/* ---- ordering rows by a key ------------------------------------------------ */

/* Sorts idx[0..n) by key[idx[i]] ascending; equal keys keep their order
 * in idx (an LSD radix sort: traces of millions of rows sort in O(n);
 * rows in a few runs already in key order are merged instead). */
enum nst_status nst_sort_by_key(uint32_t *idx, size_t n, const int64_t *key,
				struct nst_error *err);
/* The same by key descending, equal keys still in idx's order. */
enum nst_status nst_sort_by_key_desc(uint32_t *idx, size_t n, const int64_t *key,
				     struct nst_error *err);
/* Sorts idx[0..n) in a summary's order: d[idx[i]].sum descending (a
 * radix sort), equal totals by ties(a, b, arg) and then in idx's order
 * (ties NULL: idx's order alone).  Equal totals are few, so ties runs
 * among them only. */
enum nst_status nst_sort_by_total(uint32_t *idx, size_t n, const struct nst_dist *d,
				  int (*ties)(uint32_t a, uint32_t b, void *arg), void *arg,
				  struct nst_error *err);

#endif
