/* Kernels that overlap on one stream.  A stream runs its work in order, so
 * an overlap there means a wrong timestamp or a row written twice; busy
 * time taken as a sum then counts the overlap twice. */
#include <stdlib.h>

#include "check/launches.h"

struct kern {
	int64_t proc, dev, stream, start, end;
	uint32_t row;
};

static int by_stream_start(const void *a, const void *b)
{
	const struct kern *x = a, *y = b;
	if (x->proc != y->proc) return x->proc < y->proc ? -1 : 1;
	if (x->dev != y->dev) return x->dev < y->dev ? -1 : 1;
	if (x->stream != y->stream) return x->stream < y->stream ? -1 : 1;
	if (x->start != y->start) return x->start < y->start ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

static bool same_stream(const struct kern *x, const struct kern *y)
{
	return x->proc == y->proc && x->dev == y->dev && x->stream == y->stream;
}

static enum nst_status collect(struct chk_ctx *ctx, struct kern **out, size_t *n,
			       struct nst_error *err)
{
	size_t rows;
	const int64_t *pid, *dev, *stream, *start, *end;
	enum nst_status s = chk_rows(ctx, CHK_KERNEL, &rows, err);
	if (!s) s = chk_col(ctx, CHK_KERNEL, "globalPid", &pid, err);
	if (!s) s = chk_col(ctx, CHK_KERNEL, "deviceId", &dev, err);
	if (!s) s = chk_col(ctx, CHK_KERNEL, "streamId", &stream, err);
	if (!s) s = chk_col(ctx, CHK_KERNEL, "start", &start, err);
	if (!s) s = chk_col(ctx, CHK_KERNEL, "end", &end, err);
	*n = 0;
	*out = NULL;
	if (s || !start || !end)
		return s;
	if (!(*out = malloc((rows ? rows : 1) * sizeof **out)))
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < rows; i++)
		if (start[i] != NST_NULL_I64 && end[i] != NST_NULL_I64)
			(*out)[(*n)++] = (struct kern){ chk_gpid(chk_at(pid, i)), chk_at(dev, i),
							chk_at(stream, i), start[i], end[i],
							(uint32_t)i };
	return NST_OK;
}

static void note_kernel(struct chk_ctx *ctx, struct chk_result *r, const struct kern *k,
			int64_t open_until)
{
	const int64_t *rowid = NULL;
	struct nst_error ignored;
	chk_col(ctx, CHK_KERNEL, "rowid", &rowid, &ignored);
	r->count++;
	struct chk_example *e = chk_example(r, CHK_KERNEL, chk_at(rowid, k->row));
	chk_num(e, "globalPid", k->proc);
	chk_num(e, "deviceId", k->dev);
	chk_num(e, "streamId", k->stream);
	chk_num(e, "start", k->start);
	chk_num(e, "overlap", (open_until < k->end ? open_until : k->end) - k->start);
}

/* A kernel overlaps when it starts before a kernel that comes earlier on
 * its stream (by start, then row) has ended. */
static void sweep(struct chk_ctx *ctx, struct chk_result *r, const struct kern *k, size_t n)
{
	int64_t open_until = INT64_MIN;
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || !same_stream(&k[i], &k[i - 1]))
			open_until = INT64_MIN;
		else if (k[i].start < open_until)
			note_kernel(ctx, r, &k[i], open_until);
		if (k[i].end > open_until)
			open_until = k[i].end;
	}
}

static enum nst_status run(struct chk_ctx *ctx, struct chk_result *r,
			   struct nst_error *err)
{
	static const char *const kernels[] = { CHK_KERNEL };
	if (chk_lacks_all(ctx, r, kernels, 1))
		return NST_OK;
	struct kern *k = NULL;
	size_t n = 0;
	enum nst_status s = collect(ctx, &k, &n, err);
	if (s == NST_OK && n > 1)
		qsort(k, n, sizeof *k, by_stream_start);
	if (s == NST_OK)
		sweep(ctx, r, k, n);
	free(k);
	return s;
}

const struct chk_finding chk_stream_overlap = {
	.name = "stream_overlap",
	.title = "kernels that start before an earlier kernel on their stream ended",
	.help = "Kernel rows of one stream (globalPid, deviceId, streamId), in order of\n"
		"start then row: a kernel is counted when it starts before the latest end\n"
		"of the kernels before it.  Exact duplicates count here too.",
	.affects = "gpu_gaps,gpu_time_util,cuda_gpu_kern_sum,nvtx_gpu_proj_sum",
	.want = chk_want_gpu,
	.run = run,
};
