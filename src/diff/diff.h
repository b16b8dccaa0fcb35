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
#include "core/ranktest.h"
#include "reports/common.h"

struct nst_export;
struct nst_run;

struct nst_diff_ctx {
	struct nst_export *side[2];
	const struct nst_run *run;   /* names, output */
	struct nst_filter filter;    /* the run's and the job's, each side on its own clock */
	/* A side's events under the filter, as a report's context has them,
	 * with the side's own arena as scratch (the two sides may be read on
	 * two threads: diff_both_sides); NST_ERR_NODATA when the filter's NVTX
	 * range is not on that side. */
	enum nst_status (*events)(struct nst_diff_ctx *d, int side, struct nst_ctx *ctx,
				  struct nst_error *err);
	const struct nst_arg *args;  /* the diff report's own */
	size_t nargs;
	struct nst_arena *arena;     /* text of this diff's rows */
	struct nst_arena side_arena[2]; /* each side's scratch (events), until the diff ends */
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

/* ---- the instances behind a row (samples.c) ---------------------------------- */

/* For each key (a kernel's name, an API function...), the values of its
 * instances on one side, sorted ascending. */
struct diff_samples {
	size_t n;               /* keys */
	const char **key;       /* in byte order; a NULL key is "" */
	size_t *start;          /* key k's values: val[start[k] .. start[k + 1]) */
	int64_t *val;
	struct diff_table keep; /* the report the texts are from, if any */
};

/* The durations of each kernel, by name (the diff's --names), from the
 * side's events under the diff's filter: what cuda_gpu_kern_sum sums. */
enum nst_status diff_kernel_samples(struct nst_diff_ctx *d, int side, struct diff_samples *out,
				    struct nst_error *err);
/* The durations of each NVTX range by name and style, as nvtx_sum groups
 * them, under the key "NAME\x1fSTYLE" (as keyed.c joins nvtx_diff's Range
 * and Style cells). */
enum nst_status diff_range_samples(struct nst_diff_ctx *d, int side, struct diff_samples *out,
				   struct nst_error *err);
/* The values of column val_col of the stats report `spec`'s rows on the
 * side, by the text of column key_col (a trace: cuda_api_trace's calls). */
enum nst_status diff_report_samples(struct nst_diff_ctx *d, int side, const char *spec,
				    const char *key_col, const char *val_col,
				    struct diff_samples *out, struct nst_error *err);
/* Key's sorted values and their count; NULL (and 0) when the side has none. */
const int64_t *diff_samples_of(const struct diff_samples *s, const char *key, size_t *n);
void diff_samples_release(struct diff_samples *s);

/* ---- a key's instances compared (shift.c) ------------------------------------ */

/* B's instances against A's: the rank test of the two samples (p), and
 * how far B moved: the Hodges-Lehmann estimate of the ratio of B's
 * durations to A's, as a change in percent with its 95% interval
 * (shift.c says why a ratio).  The medians are nsys's Med: the mean of
 * the two middle values. */
struct diff_shift {
	bool tested;            /* both sides have instances */
	size_t na, nb;
	double a_med, b_med;
	double pct, lo, hi;     /* NaN: no interval at 95% (too few instances) */
	double p;
	double p_adj;           /* Holm-adjusted over one report's tested rows */
};

#define DIFF_SHIFT_NCOLS 7
/* A Med (ns), B Med (ns), Shift (%), Shift CI Low (%), Shift CI High (%),
 * P-Value, Holm P-Value: the columns diff_shift_cells fills. */
extern const char *const diff_shift_cols[DIFF_SHIFT_NCOLS];

/* a[0..na) and b[0..nb) sorted.  -1 when out of memory. */
int diff_shift_of(const int64_t *a, size_t na, const int64_t *b, size_t nb,
		  struct diff_shift *out);
/* Sets p_adj by Holm's method over the tested ones of n shifts kept in
 * the caller's rows: row i's at (char *)rows + i * size + offset (size
 * and offsetof of the row's struct). */
int diff_shift_adjust(void *rows, size_t n, size_t size, size_t offset);
/* p_adj below alpha, or alpha 1 (no test): a change, not noise. */
bool diff_shift_significant(const struct diff_shift *s, double alpha);
/* added, removed, ~ (no significant change at alpha), same (significant
 * but within tolerance percent), slower or faster. */
const char *diff_shift_status(const struct diff_shift *s, bool in_a, bool in_b, double alpha,
			      int64_t tolerance);
void diff_shift_cells(const struct diff_shift *s, struct nst_cell *out);

/* ---- iterations (iters.c) ------------------------------------------------------ */

/* A side's iterations: NVTX ranges named as the diff's --per says
 * (diff_per; PyTorch's ProfilerStep#<number> without it, emit_nvtx's
 * ", op_id = <n>" after it or not), push/pop or
 * start/end, on any thread, in start order.  An iteration's GPU work is
 * the kernels, memcpys and memsets whose launching call (the runtime call
 * of the same correlationId) started in [start, end) of one of its
 * process's iterations (the latest to start, where they overlap): the
 * backward pass of PyTorch launches from a thread of its own.  Fewer than
 * two iterations are none: nothing per iteration is claimed. */
struct diff_iters {
	size_t n;           /* iterations */
	const char *name;   /* what the ranges are named: "ProfilerStep#N" or --per's */
	size_t ndev;
	int64_t *dev;       /* the devices with work in some iteration, ascending */
	/* device k's busy time (the union of its operations, each ns once) in
	 * each iteration of the processes that used it (all, where one process
	 * marks them; a rank's, where a capture holds a job's ranks), sorted:
	 * busy[busy_start[k] .. busy_start[k + 1]) */
	int64_t *busy;
	size_t *busy_start;
	/* each kernel's total in each iteration of the processes that ran it,
	 * 0 where it did not run, by name (the diff's --names), sorted */
	struct diff_samples kern;
};

enum nst_status diff_iterations(struct nst_diff_ctx *d, int side, struct diff_iters *out,
				struct nst_error *err);
/* Device dev's busy times and their count *n, sorted; NULL (and 0) where
 * it had no work in any iteration. */
const int64_t *diff_iters_busy(const struct diff_iters *it, int64_t dev, size_t *n);
void diff_iters_release(struct diff_iters *it);

/* ---- comparisons by key (keyed.c) ------------------------------------------ */

/* A value compared: a column of one of the sources, shown as "A <label>",
 * "B <label>", with delta "Diff <label>" (B - A), with change "<label>
 * Change (%)".  A side without the row is empty there (not 0: a kernel
 * that did not run has no total, and its Diff is the other side's). */
struct diff_measure {
	int source;        /* 0 or 1 */
	const char *col;   /* the source's tagged column name */
	const char *label; /* "Total" */
	const char *unit;  /* the tag's unit part: ":dur_ns", or "" */
	bool delta, change;
};

/* One side's instances of every key, for a comparison that tests them. */
typedef enum nst_status (*diff_samples_fn)(struct nst_diff_ctx *d, int side,
					   struct diff_samples *out, struct nst_error *err);

/* Rows of two sides paired otherwise than by equal key text. */
typedef enum nst_status (*diff_match_fn)(struct nst_diff_ctx *d, const struct diff_table *a,
					 const struct diff_table *b, struct diff_pair **out,
					 size_t *n, const char **note, struct nst_error *err);

/* One or two `nstats stats` reports on each side (spec[1], when set, is
 * the report under --names base), rows matched by the key columns (the
 * second source's rows join the first's by the same keys), one line a
 * key.  With has_order, lines come largest |B - A| of measure `order`
 * first; with status, a Status column.  With samples, each key's
 * instances on the two sides are compared (diff_test_columns) and the
 * status is the test's (diff_tested_status); without, it is measure
 * `order`'s change against tolerance= (nst_diff_status). */
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
	diff_samples_fn samples;
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

/* The diff report's argument key (the last one given) as a whole number,
 * or dflt when it is not given (its check() has refused a bad one). */
int64_t diff_arg_i64(const struct nst_diff_ctx *d, const char *key, int64_t dflt);
/* The diff's `names` (nstats diff --names): exact or base. */
bool diff_names_base(const struct nst_diff_ctx *d);
/* The level of the diff's tests (nstats diff --alpha): 0.05 unless set;
 * 1 means no test. */
double diff_alpha(const struct nst_diff_ctx *d);
/* How the diff pairs devices (nstats diff --devices). */
enum nst_devices diff_devices(const struct nst_diff_ctx *d);
/* The name of the NVTX ranges that are iterations (nstats diff --per), or
 * NULL: PyTorch's ProfilerStep#<number>. */
const char *diff_per(const struct nst_diff_ctx *d);

#endif
