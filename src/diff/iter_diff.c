/* iter_diff: the two runs compared iteration by iteration (diff.h, struct
 * diff_iters): each device's busy time and each kernel's total in an
 * iteration, as distributions over the iterations of each side.  A run
 * of half the iterations does the same work in each, and reads as no
 * change, where its totals halve. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff/diff.h"

#define NKEYS 4
static const char *const key_cols[NKEYS] = { "Kind", "Name", "A Iterations", "B Iterations" };
#define NCOLS (NKEYS + 1 + DIFF_SHIFT_NCOLS)

/* A row: a pair of devices, or a kernel; the values of a side that lacks
 * it are NULL. */
struct line {
	const char *kind, *name;
	const int64_t *a, *b;
	size_t na, nb; /* the iterations of the processes that did it */
	struct diff_shift shift;
	const char *status;
	double size; /* the larger median: the order of the kernels */
};

static enum nst_status load(struct nst_diff_ctx *d, int side, void *arg, struct nst_error *err)
{
	struct diff_iters *it = arg;
	return diff_iterations(d, side, &it[side], err);
}

/* Which devices meet: the one place that decides it, by id.  Each pair
 * holds an index into each side's devices, -1 where that side has none. */
static size_t pair_devices(const struct diff_iters *it, struct diff_pair *out)
{
	size_t i = 0, j = 0, n = 0;
	while (i < it[0].ndev || j < it[1].ndev) {
		int c = i == it[0].ndev ? 1 : j == it[1].ndev ? -1
		      : (it[0].dev[i] > it[1].dev[j]) - (it[0].dev[i] < it[1].dev[j]);
		out[n++] = (struct diff_pair){ c <= 0 ? (int64_t)i++ : -1, c >= 0 ? (int64_t)j++ : -1 };
	}
	return n;
}

static const char *device_name(struct nst_diff_ctx *d, const struct diff_iters *it,
			       const struct diff_pair *p)
{
	if (p->a >= 0 && p->b >= 0 && it[0].dev[p->a] != it[1].dev[p->b])
		return nst_arena_printf(d->arena, "%lld / %lld", (long long)it[0].dev[p->a],
					(long long)it[1].dev[p->b]);
	int64_t dev = p->a >= 0 ? it[0].dev[p->a] : it[1].dev[p->b];
	return nst_arena_printf(d->arena, "%lld", (long long)dev);
}

static size_t device_lines(struct nst_diff_ctx *d, const struct diff_iters *it,
			   struct diff_pair *pairs, struct line *l)
{
	size_t n = pair_devices(it, pairs);
	for (size_t i = 0; i < n; i++) {
		l[i] = (struct line){ .kind = "device", .name = device_name(d, it, &pairs[i]) };
		if (pairs[i].a >= 0)
			l[i].a = diff_iters_busy(&it[0], it[0].dev[pairs[i].a], &l[i].na);
		if (pairs[i].b >= 0)
			l[i].b = diff_iters_busy(&it[1], it[1].dev[pairs[i].b], &l[i].nb);
	}
	return n;
}

/* The kernels of either side, in name order: both key lists are sorted. */
static size_t kernel_lines(const struct diff_iters *it, struct line *l)
{
	const struct diff_samples *s[2] = { &it[0].kern, &it[1].kern };
	size_t i = 0, j = 0, n = 0;
	while (i < s[0]->n || j < s[1]->n) {
		int c = i == s[0]->n ? 1 : j == s[1]->n ? -1 : strcmp(s[0]->key[i], s[1]->key[j]);
		struct line x = { .kind = "kernel", .name = c <= 0 ? s[0]->key[i] : s[1]->key[j] };
		if (c <= 0) {
			x.na = s[0]->start[i + 1] - s[0]->start[i];
			x.a = s[0]->val + s[0]->start[i++];
		}
		if (c >= 0) {
			x.nb = s[1]->start[j + 1] - s[1]->start[j];
			x.b = s[1]->val + s[1]->start[j++];
		}
		l[n++] = x;
	}
	return n;
}

/* Each line's iterations compared, the p-values adjusted over them all. */
static enum nst_status compare(struct nst_diff_ctx *d, struct line *l, size_t n,
			       struct nst_error *err)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = diff_shift_of(l[i].a, l[i].na, l[i].b, l[i].nb, &l[i].shift);
	if (rc == 0)
		rc = diff_shift_adjust(l, n, sizeof *l, offsetof(struct line, shift));
	for (size_t i = 0; rc == 0 && i < n; i++) {
		l[i].status = diff_shift_status(&l[i].shift, l[i].na > 0, l[i].nb > 0,
						diff_alpha(d), nst_diff_tolerance(d));
		l[i].size = fmax(l[i].shift.a_med, l[i].shift.b_med);
	}
	return rc == 0 ? NST_OK : nst_fail(err, NST_ERR_NOMEM, "out of memory");
}

/* Devices first, in pairing order; then the kernels, the largest median
 * first, so that the work of an iteration reads from the top. */
static int by_order(const void *x, const void *y)
{
	const struct line *a = x, *b = y;
	bool da = strcmp(a->kind, "device") == 0, db = strcmp(b->kind, "device") == 0;
	if (da || db)
		return da && db ? 0 : da ? -1 : 1;
	double sa = isnan(a->size) ? -1 : a->size, sb = isnan(b->size) ? -1 : b->size;
	if (sa != sb)
		return sa > sb ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* ---- output ------------------------------------------------------------------------------ */

static enum nst_status no_iterations(struct nst_diff_ctx *d, const struct diff_iters *it,
				     struct nst_error *err)
{
	int side = it[0].n ? 1 : 0;
	return nst_fail(err, NST_ERR_NODATA, "%s has no iterations to compare: fewer than two"
			" NVTX ranges named %s%s", nst_export_path(d->side[side]), it[side].name,
			diff_per(d) ? "" : " (nstats diff --per NAME takes ranges of another name)");
}

static enum nst_status heading(struct nst_diff_ctx *d, const struct diff_iters *it,
			       const struct nst_sink *out, struct nst_error *err)
{
	const char *cols[NCOLS];
	size_t n = 0;
	for (size_t i = 0; i < NKEYS; i++)
		cols[n++] = key_cols[i];
	cols[n++] = "Status";
	for (size_t i = 0; i < DIFF_SHIFT_NCOLS; i++)
		cols[n++] = diff_shift_cols[i];
	const char *note = nst_arena_printf(d->arena, "Iterations: A %zu (%s), B %zu (%s)", it[0].n,
					    it[0].name, it[1].n, it[1].name);
	enum nst_status s = note ? NST_OK : nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (s == NST_OK && out->note)
		s = out->note(out->ctx, NST_NOTE_ADVICE, note, err);
	return s == NST_OK ? out->begin(out->ctx, cols, NCOLS, err) : s;
}

static enum nst_status emit(const struct line *l, const struct nst_sink *out,
			    struct nst_error *err)
{
	struct nst_cell row[NCOLS] = {
		nst_text(l->kind), l->name ? nst_text(l->name) : nst_null(),
		nst_int((int64_t)l->na), nst_int((int64_t)l->nb), nst_text(l->status),
	};
	diff_shift_cells(&l->shift, row + NKEYS + 1);
	return out->row(out->ctx, row, err);
}

static enum nst_status compare_and_emit(struct nst_diff_ctx *d, const struct diff_iters *it,
					const struct nst_sink *out, struct nst_error *err)
{
	size_t most = it[0].ndev + it[1].ndev + it[0].kern.n + it[1].kern.n;
	struct line *l = malloc((most ? most : 1) * sizeof *l);
	struct diff_pair *pairs = malloc((most ? most : 1) * sizeof *pairs);
	enum nst_status s = l && pairs ? NST_OK : nst_fail(err, NST_ERR_NOMEM, "out of memory");
	size_t n = 0;
	if (s == NST_OK) {
		n = device_lines(d, it, pairs, l);
		n += kernel_lines(it, l + n);
		s = compare(d, l, n, err);
	}
	for (size_t i = 0; s == NST_OK && i < n; i++)
		if (!l[i].name)
			s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (s == NST_OK) {
		qsort(l, n, sizeof *l, by_order);
		s = heading(d, it, out, err);
	}
	for (size_t i = 0; s == NST_OK && i < n; i++)
		s = emit(&l[i], out, err);
	free(l);
	free(pairs);
	return s;
}

static enum nst_status diff(struct nst_diff_ctx *d, const struct nst_sink *out,
			    struct nst_error *err)
{
	struct diff_iters it[2];
	memset(it, 0, sizeof it);
	enum nst_status s = diff_both_sides(d, load, it, err);
	if (s == NST_OK && (!it[0].n || !it[1].n))
		s = no_iterations(d, it, err);
	if (s == NST_OK)
		s = compare_and_emit(d, it, out, err);
	diff_iters_release(&it[0]);
	diff_iters_release(&it[1]);
	return s;
}

static const char *const args[] = { "tolerance", NULL };
static const char *const sources[] = { "nvtx_gpu_proj_sum", "gpu_time_sum", "cuda_gpu_kern_sum",
				       NULL };

const struct nst_report nst_diff_iter_diff = {
	.name = "iter_diff",
	.title = "Iterations Compared",
	.help = "The two runs compared iteration by iteration, where both mark their\n"
		"iterations: NVTX ranges named ProfilerStep#N (PyTorch's steps), or those\n"
		"named exactly as nstats diff --per NAME says.  An iteration's work is\n"
		"the kernels, memcpys and memsets whose launching call started inside one\n"
		"of its process's ranges, on any thread.  A row a device (paired by id):\n"
		"its busy time in each iteration (the union of that work on it, each ns\n"
		"once); and a row a kernel: its total in each iteration (0 where it did\n"
		"not run).  Where a capture holds several processes (the ranks of a job),\n"
		"a device or kernel counts in the iterations of the processes that used\n"
		"it.  A and B Iterations are how many on each side (all of each side's\n"
		"are in the note above the table); A Med and B Med the medians over them;\n"
		"Shift the Hodges-Lehmann estimate of B's values as a ratio to A's, in\n"
		"percent, with its 95% interval; P-Value the Mann-Whitney test's, Holm\n"
		"P-Value adjusted over the rows.  Status as kern_diff's: ~ (no significant\n"
		"change at --alpha), same (within tolerance=, default 2), slower, faster,\n"
		"added or removed.  So a run of half the iterations reads ~ where its\n"
		"totals halve.  Devices first, then the kernels, the largest median\n"
		"first.  SKIPPED where a side has fewer than two iterations.",
	.args = args,
	.flags = NST_REPORT_ADDITION,
	.check = diff_check_tolerance,
	.diff = diff,
	.sources = sources,
};
