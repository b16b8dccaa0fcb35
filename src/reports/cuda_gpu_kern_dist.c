/* cuda_gpu_kern_dist: the distribution of each kernel's durations --
 * percentiles, not only the average and median -- and its share of the
 * busy time of the devices it ran on. */
#include <stdlib.h>
#include <string.h>

#include "core/big.h"
#include "core/search.h"
#include "reports/gpu_ops.h"
#include "reports/gpu_time.h"

/* Nearest rank: the smallest value with at least pct% of the values at or
 * below it, the (ceil(pct * n / 100) - 1)-th smallest.  An element of the
 * data, so a P99 of integer ns is an integer ns that some launch took. */
static size_t nearest_rank(size_t n, int pct)
{
	size_t rank = ((size_t)pct * n + 99) / 100;
	return rank ? rank - 1 : 0;
}

/* What a kernel group needs beyond its nst_dist. */
struct dist_extra {
	int64_t p50, p90, p99;
	int64_t busy; /* the busy time of the devices its launches ran on */
};

/* Busy time by device, in device order, and which of them a group used. */
struct devices {
	const struct nst_gt_group *dg;
	size_t n;
	bool *used;
};

/* Marks the device of each row; a device without busy time adds none. */
static void mark_devices(struct devices *d, const struct nst_col *device, const uint32_t *rows,
			 size_t n)
{
	memset(d->used, 0, d->n ? d->n : 1);
	int64_t last = 0;
	for (size_t i = 0; i < n; i++) {
		/* a kernel-only set collects row i of the table as row i */
		int64_t dev = nst_col_or_null(device, rows[i]);
		if (i > 0 && dev == last)
			continue;
		last = dev;
		size_t at = nst_lower_bound(d->dg, d->n, sizeof *d->dg,
					    offsetof(struct nst_gt_group, device), dev);
		if (at < d->n && d->dg[at].device == dev)
			d->used[at] = true;
	}
}

static int64_t busy_of_used(const struct devices *d)
{
	int64_t busy = 0;
	for (size_t k = 0; k < d->n; k++)
		busy += d->used[k] ? d->dg[k].busy.covered : 0;
	return busy;
}

/* One group's percentiles and busy time; vals is scratch. */
static void group_extra(const struct nst_op_set *set, uint32_t grp, const struct nst_col *device,
			struct devices *devs, int64_t *vals, struct dist_extra *x)
{
	const struct nst_groups *g = &set->sum.g;
	size_t n = g->start[grp + 1] - g->start[grp];
	const uint32_t *rows = g->order + g->start[grp];
	for (size_t i = 0; i < n; i++)
		vals[i] = nst_op_value(&set->rows, rows[i]);
	size_t at[3] = { nearest_rank(n, 50), nearest_rank(n, 90), nearest_rank(n, 99) };
	nst_select_ranks(vals, n, at, 3); /* ascending already: at keeps its order */
	x->p50 = vals[at[0]];
	x->p90 = vals[at[1]];
	x->p99 = vals[at[2]];
	mark_devices(devs, device, rows, n);
	x->busy = busy_of_used(devs);
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
	size_t n = nst_group_largest(&set->sum.g); /* one group's scratch */
	size_t kept = ctx->rows_kept ? ctx->rows_kept : SIZE_MAX;
	enum nst_status s = nst_ev_col(ctx->ev, KERNEL, "deviceId", &device, err);
	if (s)
		return s;
	int64_t *vals = nst_big_alloc(n, sizeof *vals);
	struct devices devs = { dg, ndev, malloc(ndev ? ndev : 1) };
	if (!vals || !devs.used)
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	else s = out->begin(out->ctx, cols, NCOLS, err);
	for (size_t k = 0; !s && k < set->sum.n && k < kept; k++) {
		uint32_t grp = set->sum.order[k];
		struct dist_extra x;
		group_extra(set, grp, device, &devs, vals, &x);
		s = emit_row(out, &set->sum.d[grp], &x, nst_op_group_name(set, grp), err);
	}
	free(vals);
	free(devs.used);
	return s;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out, struct nst_error *err)
{
	struct nst_op_set set;
	/* no median or quartiles: its percentiles are selected per group below */
	enum nst_status s = nst_kernels_by_name(ctx, false, &set, err);
	if (s != NST_OK)
		return s;
	struct nst_gt_group *dg = NULL;
	size_t ndev = 0;
	/* busy time by device: every GPU operation the filter keeps, whole */
	s = nst_gt_shared_by_device(ctx, NST_GT_WHOLE, NST_GT_ANY_GAP, &dg, &ndev, err);
	if (!s)
		s = emit(ctx, out, &set, dg, ndev, err);
	free(dg);
	nst_op_set_release(&set);
	return s;
}

static const struct nst_need needs[] = {
	NST_GPU_SPAN_NEEDS(KERNEL), NST_KERNEL_NAME_NEEDS, NST_GT_NEEDS,
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
