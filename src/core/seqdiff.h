/* The alignment of two sequences of ids: a shortest edit script, whose
 * matches are a longest common subsequence.  Myers's O((N+M)D) difference
 * algorithm in linear space (the middle-snake recursion) while the
 * sequences differ in few places; Hyyrö's bit-parallel LCS (O(NM/64) word
 * operations, core/lcsrow.h) inside Hirschberg's divide and conquer where
 * they differ in many; past a stated amount of work, an alignment on
 * anchors that is valid but not proven shortest. */
#ifndef NSTATS_CORE_SEQDIFF_H
#define NSTATS_CORE_SEQDIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum nst_seq_op { NST_SEQ_SAME, NST_SEQ_DEL, NST_SEQ_ADD };

/* Called in sequence order: SAME pairs a[i] with b[j]; DEL is a[i] only
 * (j is the position in b it falls before); ADD is b[j] only (i is the
 * position in a it falls before).  Every element of a and of b comes
 * once; SAME only for equal ids.  Returns 0 to go on. */
typedef int (*nst_seq_fn)(void *arg, enum nst_seq_op op, size_t i, size_t j);

/* Aligns a[0..n) and b[0..m) with Myers's algorithm alone and calls fn
 * for every element, in order.  Memory is O(n + m).  max_d 0: the script
 * is a shortest one, in O((n + m) D) time (D its length).  Otherwise,
 * when the sequences differ in more than max_d places between two
 * matches, the piece between them is split in the middle instead of
 * searched whole (the script stays valid, but may be longer than the
 * shortest there): *approx says so.  Returns -1 when out of memory, or
 * what fn returned when not 0. */
int nst_seq_diff(const uint32_t *a, size_t n, const uint32_t *b, size_t m, size_t max_d,
		 nst_seq_fn fn, void *arg, bool *approx);

/* Aligns a[0..n) and b[0..m) and calls fn for every element, in order.
 * After the common prefix and suffix are taken off (n', m' left), the
 * script is a shortest one, and *shortest is set, when either
 *   - n' * m' / 64 <= work: then it takes at most about 2.5 n' m' / 64
 *     word operations (bit-parallel rows, Myers's search where D is
 *     small enough to be cheaper), or
 *   - Myers's search for the middle of the script ends within `work`
 *     steps (a diagonal visited or an element compared), as it does
 *     when D is small: then it takes O((n' + m') D) in all.
 * Otherwise *shortest is false and the script is built on anchors: the
 * ids found once in a and once in b, the longest chain of them in the
 * same order in both (patience diff) matched, and each gap between
 * anchors, allowed its share of `work` by its length, aligned the same
 * way: shortest where its share covers it, else on its own anchors, else
 * along the diagonal (a and b halved together until each block's
 * shortest alignment fits its share).  It is valid, but may be longer
 * than a shortest one.  The work then stays within about 2 `work` plus
 * O((n + m) log(n + m)).
 * Memory is O(n + m + distinct ids) words, plus at most 8.4 MB of match
 * masks (core/lcsrow.h).  work 0: no limit (always shortest).  Returns
 * -1 when out of memory, or what fn returned when not 0. */
int nst_seq_align(const uint32_t *a, size_t n, const uint32_t *b, size_t m, uint64_t work,
		  nst_seq_fn fn, void *arg, bool *shortest);

#endif
