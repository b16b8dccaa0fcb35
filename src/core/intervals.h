/* Time covered by a set of intervals: the union that busy and kernel time
 * are made of, and the idle gaps between its pieces.  A sum of durations
 * counts concurrent work twice; the union counts each nanosecond once. */
#ifndef NSTATS_CORE_INTERVALS_H
#define NSTATS_CORE_INTERVALS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nst_interval {
	int64_t start, end; /* ns; end <= start: empty, covers nothing */
};

struct nst_coverage {
	size_t n;             /* intervals */
	int64_t first, last;  /* earliest start, latest end; 0 when n == 0 */
	int64_t sum;          /* plain sum of durations (empty ones as 0) */
	bool sum_overflow;    /* sum does not fit int64 (a corrupt export): not a number */
	int64_t covered;      /* length of the union */
	size_t gaps;          /* holes in the union longer than the threshold */
	int64_t gap_time;     /* their total length */
};

/* Sorts by start, then end: nst_coverage_of wants them so. */
void nst_intervals_sort(struct nst_interval *iv, size_t n);

/* iv[0..n), sorted by start, merged in place into the pieces of their
 * union, empty intervals dropped; returns how many pieces. */
size_t nst_intervals_union(struct nst_interval *iv, size_t n);

/* The coverage of iv[0..n), sorted by start.  A gap is a hole between two
 * pieces of the union, never the time before the first or after the last
 * interval; it counts when longer than gap_threshold ns.  Empty intervals
 * widen first..last but split no gap. */
struct nst_coverage nst_coverage_of(const struct nst_interval *iv, size_t n,
				    int64_t gap_threshold);

/* The union of intervals given one at a time in start order, a piece
 * at a time: no array of them (16 bytes an interval) need exist. */
struct nst_union {
	bool open;
	struct nst_interval piece; /* the piece still growing, when open */
};
/* Adds [start, end) (an empty one adds nothing); true when it starts a
 * new piece, with the one it closed in *closed. */
bool nst_union_add(struct nst_union *u, int64_t start, int64_t end, struct nst_interval *closed);
/* The last piece, false when there is none. */
bool nst_union_last(const struct nst_union *u, struct nst_interval *piece);

/* nst_coverage_of, given one interval at a time in start order. */
struct nst_coverage_acc {
	struct nst_coverage c;
	int64_t threshold;
	struct nst_union u;
};
void nst_coverage_start(struct nst_coverage_acc *a, int64_t gap_threshold);
void nst_coverage_add(struct nst_coverage_acc *a, int64_t start, int64_t end);
struct nst_coverage nst_coverage_end(const struct nst_coverage_acc *a);

#endif
