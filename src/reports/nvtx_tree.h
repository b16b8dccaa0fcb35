/* How NVTX ranges nest, as nsys's range traces show it (Lvl, NumChild,
 * RangeId, ParentId, RangeStack): nvtx_pushpop_trace, and any report that
 * prints the same columns for its own set of ranges.
 *
 * The rule, learnt from nsys 2024.2.3's output:
 *   - a range's parent is, among the other ranges of the same thread that
 *     contain it (parent.start <= start and end <= parent.end, equal
 *     timestamps included), the shortest one; among equally short ones
 *     the one with the smallest id (RangeId);
 *   - two or more ranges of one thread with equal start and end are each
 *     other's parents, so no chain from them reaches a top-level range:
 *     nsys leaves them out, with everything nested in them ("dropped");
 *   - the level is the number of ancestors; NumChild and DurChild count
 *     the direct children (dropped ranges are nobody's children);
 *   - rows come by start, then end, then in breadth-first order from the
 *     top-level ranges (taken by id, children by id).
 * A range without a thread (NST_NULL_I64) nests in nothing and holds
 * nothing, as SQL equality on NULL never matches.
 *
 * Cost: sorting (radix, O(n)) and one stack sweep per thread, O(n) more;
 * a thread whose ranges cross (start/end ranges can; push/pop ranges
 * cannot) is solved exactly by an O(m log m) sweep instead.  Nothing is
 * allocated per range.
 *
 * Usage:
 *     struct nst_nvtx_tree_in in = { n, start, end, thread, id };
 *     struct nst_nvtx_tree t;
 *     if (nst_nvtx_tree_build(&in, &t, err) != NST_OK) ...
 *     uint32_t *order; size_t nrows;
 *     nst_nvtx_tree_order(&in, &t, &order, &nrows, err);   (optional)
 *     uint32_t stack[t.max_level + 1];  -- or malloc'd once
 *     size_t depth = nst_nvtx_tree_stack(&t, i, stack);   (indexes, root first)
 *     ... in.id[stack[k]] are the RangeStack ids ...
 *     free(order); nst_nvtx_tree_release(&t); */
#ifndef NSTATS_REPORTS_NVTX_TREE_H
#define NSTATS_REPORTS_NVTX_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nstats/nstats.h"

#define NST_NVTX_NO_PARENT UINT32_MAX

/* The ranges, by index 0..n-1; the arrays are borrowed. */
struct nst_nvtx_tree_in {
	size_t n;
	const int64_t *start;
	const int64_t *end;    /* already closed: open ranges end where the caller says */
	const int64_t *thread; /* globalTid; ranges nest only within one */
	const int64_t *id;     /* RangeId (NVTX_EVENTS rowid): breaks ties, orders siblings */
};

/* Per range index; a dropped range's other fields mean nothing. */
struct nst_nvtx_tree {
	size_t n;
	uint32_t *parent;    /* index of the parent, or NST_NVTX_NO_PARENT */
	uint32_t *level;     /* Lvl: 0 at the top */
	uint32_t *nchild;    /* NumChild */
	int64_t *child_dur;  /* DurChild: the children's summed durations */
	bool *dropped;       /* left out by nsys (see above) */
	uint32_t max_level;  /* the deepest level of a kept range */
};

enum nst_status nst_nvtx_tree_build(const struct nst_nvtx_tree_in *in,
				    struct nst_nvtx_tree *t, struct nst_error *err);
void nst_nvtx_tree_release(struct nst_nvtx_tree *t);

/* Writes the indexes of range i's ancestors, top-level first, then i
 * itself, into stack (room for max_level + 1); returns how many. */
size_t nst_nvtx_tree_stack(const struct nst_nvtx_tree *t, uint32_t i, uint32_t *stack);

/* The kept ranges in nsys's row order (start, end, breadth first); *order
 * is malloc'd, *nrows long. */
enum nst_status nst_nvtx_tree_order(const struct nst_nvtx_tree_in *in,
				    const struct nst_nvtx_tree *t, uint32_t **order,
				    size_t *nrows, struct nst_error *err);

#endif
