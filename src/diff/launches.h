/* The kernel launches of both sides of a diff, as launch_diff and agree
 * compare them.  A launch is its kernel's name (by the diff's --names),
 * grid and block: its key, shared by both sides.  Each side's launches
 * run on streams (device, stream), in start order.  Streams keep their
 * numbers from run to run and from nsys to Kineto as a rule (both number
 * them as CUPTI does), but not always: diff_launch_pair_streams() pairs a
 * stream of A with the stream of B that has its device and stream number
 * when the two share a launch, and the streams left by content, the pair
 * with the most launches in common first (ties: the lower device and
 * stream of A, then of B), until no pair has one in common. */
#ifndef NSTATS_DIFF_LAUNCHES_H
#define NSTATS_DIFF_LAUNCHES_H

#include "core/hashmap.h"
#include "core/strtab.h"
#include "diff/diff.h"

/* What makes two launches the same, shared by both sides. */
struct diff_launch_keys {
	struct nst_strtab names;
	struct nst_map ids;        /* (name << 32 | block, grid) -> key */
	const char **name;         /* by key */
	int64_t (*dims)[6];        /* by key */
	size_t n, cap;
	struct nst_arena arena;
};

struct diff_launch_stream {
	int64_t device, stream;
	size_t first, n;           /* rows order[first .. first + n) */
	int64_t paired;            /* the other side's stream, or -1 */
};

struct diff_launch_side {
	size_t n;
	const int64_t *start, *end;
	uint32_t *key;             /* by row */
	uint32_t *order;           /* rows by stream, then start */
	uint32_t *seq;             /* keys in that order */
	struct diff_launch_stream *streams;
	size_t nstreams;
	int64_t origin;            /* the first launch's start */
};

/* k empty, ready for both sides; released by diff_launch_keys_release()
 * whatever it returns. */
enum nst_status diff_launch_keys_init(struct diff_launch_keys *k, struct nst_error *err);
void diff_launch_keys_release(struct diff_launch_keys *k);

/* The launches of one side of d under its filter into s (zeroed by the
 * caller), their keys added to k.  A side without the filter's NVTX
 * range has no launches. */
enum nst_status diff_launch_load_side(struct nst_diff_ctx *d, int side, struct diff_launch_keys *k,
				      struct diff_launch_side *s, struct nst_error *err);
void diff_launch_release_side(struct diff_launch_side *s);

/* Sets each stream's paired (see the top). */
enum nst_status diff_launch_pair_streams(struct diff_launch_side *a, struct diff_launch_side *b,
					 struct nst_error *err);

/* Takes out of s's streams every launch that repeats an earlier one of
 * its stream (the same start and end), calling fn(arg, row) for each;
 * s->order and s->seq keep the rest.  Returns fn's first nonzero value,
 * else 0. */
int diff_launch_drop_repeats(struct diff_launch_side *s, int (*fn)(void *arg, uint32_t row),
			     void *arg);

/* The work (word operations, or steps of Myers's search) allowed to align
 * one pair of streams as a shortest edit script by default (work=): a few
 * seconds.  Past it, a pair is aligned on anchors, and said to be so
 * (core/seqdiff.h). */
#define DIFF_LAUNCH_WORK INT64_C(1000000000)

#endif
