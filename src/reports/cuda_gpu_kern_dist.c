/* cuda_gpu_kern_dist: the distribution of each kernel's durations --
 * percentiles, not only the average and median -- and its share of the
 * busy time of the devices it ran on. */
#include <stdlib.h>
#include <string.h>

#include "reports/gpu_ops.h"
#include "reports/gpu_time.h"
#include "core/search.h"

/* Nearest rank: the smallest value with at least pct% of the values at or
 * below it, sorted[ceil(pct * n / 100) - 1].  An element of the data, so
 * a P99 of integer ns is an integer ns that some launch took. */
static int64_t nearest_rank(const int64_t *sorted, size_t n, int pct)
{
	size_t rank = ((size_t)pct * n + 99) / 100;
	return sorted[rank ? rank - 1 : 0];
}

/* What a kernel group needs beyond its nst_dist. */
struct dist_extra {
	int64_t p50, p90, p99;
	int64_t busy; /* the busy time of the devices its launches ran on */
};

/* The busy time of device dev (groups by device, in device order). */
static int64_t device_busy(const struct nst_gt_group *dg, size_t ndev, int64_t dev)
{
	size_t lo = nst_lower_bound(dg, ndev, sizeof *dg, offsetof(struct nst_gt_group, device), dev);
	return lo < ndev && dg[lo].device == dev ? dg[lo].busy.covered : 0;
}

/* Busy time summed over the distinct devices in devs[0..n) (sorted here). */
static int64_t busy_of_devices(int64_t *devs, size_t n, const struct nst_gt_group *dg, size_t ndev)
{
	nst_sort_i64(devs, n);
	int64_t busy = 0;
	for (size_t i = 0; i < n; i++)
		if (i == 0 || devs[i] != devs[i - 1])
			busy += device_busy(dg, ndev, devs[i]);
	return busy;
}

/* One group's percentiles and busy time; vals and devs are scratch. */
static void group_extra(const struct nst_op_set *set, uint32_t grp, const struct nst_col *device,
			const struct nst_gt_group *dg, size_t ndev, int64_t *vals, int64_t *devs,
			struct dist_extra *x)
{
	const struct nst_groups *g = &set->sum.g;
	size_t n = g->start[grp + 1] - g->start[grp];
	const uint32_t *rows = g->order + g->start[grp];
	for (size_t i = 0; i < n; i++) {
		vals[i] = set->rows.value[rows[i]];
		/* a kernel-only set collects row i of the table as row i */
		devs[i] = nst_col_or_null(device, rows[i]);
	}
	nst_sort_i64(vals, n);
	x->p50 = nearest_rank(vals, n, 50);
	x->p90 = nearest_rank(vals, n, 90);
	x->p99 = nearest_rank(vals, n, 99);
	x->busy = busy_of_devices(devs, n, dg, ndev);
}

static const char *const cols[] = {
	"Busy:ratio_%", "Total Time:dur_ns", "Instances", "Mean:dur_ns", "Min:dur_ns",
	"P50:dur_ns", "P90:dur_ns", "P99:dur_ns", "Max:dur_ns", "StdDev:dur_ns", "Name",
};
#define NCOLS (sizeof cols / sizeof *cols)

static enum nst_status emit_row(const struct nst_sink *out, const struct nst_dist *d,
				const struct dist_extra *x, const char *name,
				struct nst_error *err)
{
	struct nst_cell c[NCOLS] = {
		x->busy > 0 ? nst_round1((double)d->sum * 100.0 / (double)x->busy) : nst_null(),
		nst_int(d->sum),
		nst_int((int64_t)d->n),
		nst_round1(d->avg),
		nst_int(d->min),
		nst_int(x->p50),
		nst_int(x->p90),
		nst_int(x->p99),
		nst_int(d->max),
		nst_round1(d->stdev),
		nst_text(name),
	};
	return out->row(out->ctx, c, err);
}

static enum nst_status emit(struct nst_ctx *ctx, const struct nst_sink *out,
			    const struct nst_op_set *set, const struct nst_gt_group *dg, size_t ndev,
			    struct nst_error *err)
{
	const struct nst_col *device = NULL;
	size_t n = set->rows.n ? set->rows.n : 1;
	size_t kept = ctx->rows_kept ? ctx->rows_kept : SIZE_MAX;
	enum nst_status s = nst_ev_col(ctx->ev, KERNEL, "deviceId", &device, err);
	if (s)
		return s;
	int64_t *vals = malloc(n * sizeof *vals), *devs = malloc(n * sizeof *devs);
	if (!vals || !devs)
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	else s = out->begin(out->ctx, cols, NCOLS, err);
	for (size_t k = 0; !s && k < set->sum.n && k < kept; k++) {
		uint32_t grp = set->sum.order[k];
		struct dist_extra x;
		group_extra(set, grp, device, dg, ndev, vals, devs, &x);
		s = emit_row(out, &set->sum.d[grp], &x, nst_op_group_name(set, grp), err);
	}
	free(vals);
	free(devs);
	return s;
}

/* Busy time by device: every GPU operation the filter keeps, whole. */
static enum nst_status device_groups(struct nst_ctx *ctx, struct nst_gt_group **dg, size_t *n,
				     struct nst_error *err)
{
	const struct nst_gt_ops *ops;
	const uint32_t *by_device;
	enum nst_status s = nst_gt_shared(ctx, NST_GT_WHOLE, &ops, &by_device, err);
	if (!s)
		s = nst_gt_measure(ops, NST_GT_BY_DEVICE, 0, by_device, dg, n, err);
	return s;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out, struct nst_error *err)
{
	struct nst_op_set set;
	enum nst_status s = nst_kernels_by_name(ctx, &set, err);
	if (s != NST_OK)
		return s;
	struct nst_gt_group *dg = NULL;
	size_t ndev = 0;
	s = device_groups(ctx, &dg, &ndev, err);
	if (!s)
		s = emit(ctx, out, &set, dg, ndev, err);
	free(dg);
	nst_op_set_release(&set);
	return s;
}

static const struct nst_need needs[] = {
	NST_GPU_TIMES_NEEDS(KERNEL), NST_KERNEL_NAME_NEEDS, NST_GT_NEEDS,
	{ NULL, NULL, false },
};

const struct nst_report nst_report_cuda_gpu_kern_dist = {
	.name = "cuda_gpu_kern_dist",
	.title = "CUDA GPU Kernel Distribution",
	.help = "The distribution of each CUDA kernel's execution times, grouped by\n"
		"kernel name as cuda_gpu_kern_sum groups them (same base, mangled and\n"
		"nvtx-name arguments, same order: total time descending, then fewer\n"
		"instances, then name), so its Total Time and Instances are that\n"
		"report's.  Mean and StdDev (sample standard deviation) are computed as\n"
		"there too.  P50, P90 and P99 are nearest-rank percentiles: Pp is the\n"
		"smallest duration with at least p% of the kernel's durations at or\n"
		"below it, the ceil(p*n/100)-th of the n durations sorted ascending;\n"
		"always a duration some launch took (P50 is not the Med of\n"
		"cuda_gpu_kern_sum, which averages the middle two of an even count).\n"
		"Busy (%) is Total Time as a share of the busy time of the devices the\n"
		"kernel ran on: the sum, over each distinct deviceId of its launches,\n"
		"of that device's busy time as gpu_time_sum computes it (the union of\n"
		"all its kernels, memcpys, memsets and graph executions, every\n"
		"process together).  It exceeds 100 when launches of the kernel run\n"
		"concurrently with each other.  Kernels inside CUDA graphs traced at\n"
		"graph level are in no kernel row, so in no row here; their graphs'\n"
		"time is in the busy time.  Under a filter, launches are those it\n"
		"keeps, whole, and busy time is that of the operations it keeps.\n"
		NST_TOP_ROWS_HELP,
	.args = (const char *const[]){ "nvtx-name", "base", "mangled", "rows", NULL },
	.needs = needs,
	.run = run,
	.flags = NST_REPORT_ADDITION | NST_REPORT_KERNELS | NST_REPORT_TOP_ROWS,
};
