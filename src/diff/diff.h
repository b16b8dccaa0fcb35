/* Comparing two exports (`nstats diff`): one file per diff report, one
 * row each in registry.c.  A diff report reads each side through the
 * reports of `nstats stats` (kept whole in a diff_table, so that its
 * numbers are the ones stats prints for that side) or, for launch_diff,
 * through the events; it merges the two by key and sends rows like any
 * report.  Side 0 is the baseline (A), side 1 the candidate (B); deltas
 * are B - A.
 *
 * To add one: write src/diff/<name>.c defining `const struct nst_report
 * nst_diff_<name>` with .diff set (and .needs listing what its stats
 * reports read), and add it to registry.c. */
#ifndef NSTATS_DIFF_H
#define NSTATS_DIFF_H

#include "core/arena.h"
#include "reports/common.h"

struct nst_export;
struct nst_run;

struct nst_diff_ctx {
	struct nst_export *side[2];
	const struct nst_run *run;   /* names, output */
	struct nst_filter filter;    /* the run's and the job's, each side on its own clock */
	/* A side's events under the filter, as a report's context has them;
	 * NST_ERR_NODATA when the filter's NVTX range is not on that side. */
	enum nst_status (*events)(struct nst_diff_ctx *d, int side, struct nst_ctx *ctx,
				  struct nst_error *err);
	const struct nst_arg *args;  /* the diff report's own */
	size_t nargs;
	struct nst_arena *arena;     /* text of this diff's rows */
	struct nst_diff_result *res; /* the verdict's outcome */
};

/* The registry. */
const struct nst_report *nst_diff_find(const char *name);
const struct nst_report *const *nst_diff_all(size_t *n);
const char *const *nst_diff_default_set(size_t *n);

/* ---- one side's report, kept (table.c) ---------------------------------- */

struct diff_table {
	size_t ncols, nrows, cap;
	const char **cols;        /* the report's tagged column names */
	struct nst_cell *cells;   /* nrows * ncols; text in arena */
	struct nst_arena arena;
	enum nst_status status;   /* NST_ERR_NODATA: the side lacks what it needs */
	char why[sizeof ((struct nst_error *)0)->msg]; /* its message then */
};

/* Runs the `nstats stats` report `spec` on one side under the run's
 * filter into t.  A side that lacks what the report needs leaves t empty
 * with status NST_ERR_NODATA (a kernel report on an export without
 * kernels compares as no kernels); other failures are returned. */
enum nst_status diff_collect(struct nst_diff_ctx *d, int side, const char *spec,
			     struct diff_table *t, struct nst_error *err);
void diff_table_release(struct diff_table *t);
/* fn(d, 0, arg, err) and fn(d, 1, arg, err): the two sides at once, on a
 * second thread, when the exports may use more than one processor (each
 * side's export is used by one thread only); side 0's failure is told
 * first. fn may only use its side's export and what it is given. */
typedef enum nst_status (*diff_side_fn)(struct nst_diff_ctx *d, int side, void *arg,
					struct nst_error *err);
enum nst_status diff_both_sides(struct nst_diff_ctx *d, diff_side_fn fn, void *arg,
				struct nst_error *err);
/* Column by its tagged name ("Total Time:dur_ns"), or -1. */
int diff_col(const struct diff_table *t, const char *name);
static inline const struct nst_cell *diff_cell(const struct diff_table *t, size_t row, int col)
{
	return &t->cells[row * t->ncols + (size_t)col];
}

/* ---- matching rows by key (table.c) --------------------------------------- */

/* A row of A, of B, or of both (-1 where a side has none). */
struct diff_pair {
	int64_t a, b;
};

/* The rows of a and b paired by the text of their key columns (the same
 * names on both sides), in key order; *out is malloc'ed. */
enum nst_status diff_match(const struct diff_table *a, const struct diff_table *b,
			   const char *const *keys, size_t nkeys, struct diff_pair **out,
			   size_t *n, struct nst_error *err);

/* ---- devices paired (devices.c) ----------------------------------------------- */

/* The kernels one device ran, as a multiset: name keys (the same text has
 * the same key on both sides) ascending, each with its launches. */
struct diff_device_work {
	int64_t id;              /* deviceId; NST_NULL_I64 for NULL */
	const uint32_t *name;
	const int64_t *launches;
	size_t n;
};

/* Pairs the devices of two sides: for each pair of devices the launches
 * they share (the size of the multisets' intersection), the pairs chosen
 * greedily, most launches shared first (ties: the same id first, then
 * the lower id of side 0, then of side 1), each device at most once; the
 * devices left, those that share no launch (no kernels: only memory
 * copies or sets), pair by equal id where both are free.
 * partner[s][i] is the index of side s's device i's partner on the other
 * side, -1 where it has none. */
enum nst_status diff_devices_pair(const struct diff_device_work *const dev[2],
				  const size_t ndev[2], int64_t *const partner[2],
				  struct nst_error *err);

/* The rows of two gpu_time_sum tables (by device: a "Device" column)
 * paired by device as diff_devices(d) says: NST_DEVICES_AUTO by the
 * kernels each device ran under the diff's filter (names by --names;
 * diff_devices_pair), NST_DEVICES_ID by equal id.  Pairs in the order of
 * a's rows, then b's rows that have no partner; *out is malloc'ed.  With
 * note not NULL, *note is the pairing in words when a pair joins two
 * different ids (text in d->arena, a line), else NULL.  The reports whose
 * columns the kernels' names need (cuda_gpu_kern_sum's) belong in the
 * caller's sources. */
enum nst_status diff_match_devices(struct nst_diff_ctx *d, const struct diff_table *a,
				   const struct diff_table *b, struct diff_pair **out,
				   size_t *n, const char **note, struct nst_error *err);

/* ---- cells ------------------------------------------------------------------ */

/* The integer of a cell (a REAL is truncated; NULL and text are 0). */
int64_t diff_int(const struct nst_cell *c);
double diff_real(const struct nst_cell *c);
/* side's cell of column `col` (by name) for the pair, NULL where the side
 * has no such row. */
struct nst_cell diff_side_cell(const struct diff_table *t, int64_t row, int col);
/* B - A of two integer cells, NULL when either side has no row. */
struct nst_cell diff_delta(const struct nst_cell *a, const struct nst_cell *b);
/* (B - A) * 100 / A rounded to 0.1, NULL when A is 0 or a side is NULL. */
struct nst_cell diff_change(const struct nst_cell *a, const struct nst_cell *b);

/* ---- comparisons by key (keyed.c) ------------------------------------------ */

/* A value compared: a column of one of the sources, shown as "A <label>",
 * "B <label>", with delta "Diff <label>" (B - A), with change "<label>
 * Change (%)".  zero_absent: a side without the row counts 0 (counts,
 * totals), else it is NULL (averages). */
struct diff_measure {
	int source;        /* 0 or 1 */
	const char *col;   /* the source's tagged column name */
	const char *label; /* "Total" */
	const char *unit;  /* the tag's unit part: ":dur_ns", or "" */
	bool delta, change, zero_absent;
};

/* Rows of two sides paired otherwise than by equal key text. */
typedef enum nst_status (*diff_match_fn)(struct nst_diff_ctx *d, const struct diff_table *a,
					 const struct diff_table *b, struct diff_pair **out,
					 size_t *n, const char **note, struct nst_error *err);

/* One or two `nstats stats` reports on each side (spec[1], when set, is
 * the report under --names base), rows matched by the key columns (the
 * second source's rows join the first's by the same keys), one line a
 * key.  With has_order, lines come largest |B - A| of measure `order`
 * first; with status, a Status column from that measure (added, removed,
 * slower, faster, same within tolerance=). */
struct diff_keyed {
	struct { const char *spec[2]; } source[2];
	const char *const *keys;
	size_t nkeys;
	/* How the first source's rows of the two sides pair: NULL, by equal
	 * keys; else by this (diff_match_devices), each side's keys shown
	 * apart ("Device A", "Device B") and *note, when set, heading the
	 * output. */
	diff_match_fn match;
	const struct diff_measure *m;
	size_t nm;
	size_t order;
	bool has_order, status;
};
enum nst_status diff_keyed_run(struct nst_diff_ctx *d, const struct diff_keyed *k,
			       const struct nst_sink *out, struct nst_error *err);

/* kern_diff's tolerance= (percent), and the status of a kernel: added,
 * removed, slower, faster, or same when |B - A| is at most tolerance
 * percent of A. */
int64_t nst_diff_tolerance(const struct nst_diff_ctx *d);
const char *nst_diff_status(int64_t a_total, int64_t b_total, bool in_a, bool in_b,
			    int64_t tolerance);
/* The check() of a comparison with tolerance=: a whole percent >= 0. */
enum nst_status diff_check_tolerance(const struct nst_arg *args, size_t nargs,
				     struct nst_error *err);

/* The diff's `names` (nstats diff --names): exact or base. */
bool diff_names_base(const struct nst_diff_ctx *d);
/* The level of the diff's tests (nstats diff --alpha): 0.05 unless set;
 * 1 means no test. */
double diff_alpha(const struct nst_diff_ctx *d);
/* How the diff pairs devices (nstats diff --devices). */
enum nst_devices diff_devices(const struct nst_diff_ctx *d);

#endif
