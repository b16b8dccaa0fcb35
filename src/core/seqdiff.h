/* The alignment of two sequences of ids: Myers's O((N+M)D) difference
 * algorithm in linear space (the middle-snake recursion), the shortest
 * edit script, which is a longest common subsequence. */
#ifndef NSTATS_CORE_SEQDIFF_H
#define NSTATS_CORE_SEQDIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum nst_seq_op { NST_SEQ_SAME, NST_SEQ_DEL, NST_SEQ_ADD };

/* Called in sequence order: SAME pairs a[i] with b[j]; DEL is a[i] only
 * (j is the position in b it falls before); ADD is b[j] only.  Returns 0
 * to go on. */
typedef int (*nst_seq_fn)(void *arg, enum nst_seq_op op, size_t i, size_t j);

/* Aligns a[0..n) and b[0..m) and calls fn for every element, in order.
 * Memory is O(n + m).  When the sequences differ in more than max_d
 * places between two matches, the piece between them is split in the
 * middle instead of searched whole (the script stays valid, but may be
 * longer than the shortest there): *approx says so.  max_d 0: no limit.
 * Returns -1 when out of memory, or what fn returned when not 0. */
int nst_seq_diff(const uint32_t *a, size_t n, const uint32_t *b, size_t m, size_t max_d,
		 nst_seq_fn fn, void *arg, bool *approx);

#endif
