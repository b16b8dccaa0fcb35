/* GPU rows that repeat another's (device, stream, start, end): a stream runs
 * one operation at a time, so a second row with the same span is the same
 * work written twice, and every sum over GPU rows counts it twice. */
#include <stdlib.h>

#include "check/launches.h"

struct span {
	int64_t dev, stream, start, end;
	uint32_t table, row; /* table: index in chk_gpu_tables */
};

static int by_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	if (x->dev != y->dev) return x->dev < y->dev ? -1 : 1;
	if (x->stream != y->stream) return x->stream < y->stream ? -1 : 1;
	if (x->start != y->start) return x->start < y->start ? -1 : 1;
	if (x->end != y->end) return x->end < y->end ? -1 : 1;
	if (x->table != y->table) return x->table < y->table ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

static bool same_span(const struct span *x, const struct span *y)
{
	return x->dev == y->dev && x->stream == y->stream && x->start == y->start &&
	       x->end == y->end;
}

/* Every row of the three tables with its whole span known. */
static enum nst_status collect(struct chk_ctx *ctx, struct span **out, size_t *n,
			       struct nst_error *err)
{
	size_t total = 0, rows[3] = { 0 };
	enum nst_status s = NST_OK;
	for (size_t t = 0; s == NST_OK && t < 3; t++)
		s = chk_rows(ctx, chk_gpu_tables[t], &rows[t], err);
	for (size_t t = 0; t < 3; t++)
		total += rows[t];
	*n = 0;
	*out = s == NST_OK ? malloc((total ? total : 1) * sizeof **out) : NULL;
	if (s == NST_OK && !*out)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t t = 0; s == NST_OK && t < 3; t++) {
		const int64_t *dev, *stream, *start, *end;
		const char *tb = chk_gpu_tables[t];
		s = chk_col(ctx, tb, "deviceId", &dev, err);
		if (!s) s = chk_col(ctx, tb, "streamId", &stream, err);
		if (!s) s = chk_col(ctx, tb, "start", &start, err);
		if (!s) s = chk_col(ctx, tb, "end", &end, err);
		for (size_t i = 0; s == NST_OK && start && end && i < rows[t]; i++)
			(*out)[(*n)++] = (struct span){ chk_at(dev, i), chk_at(stream, i),
							start[i], end[i], (uint32_t)t, (uint32_t)i };
	}
	return s;
}

static void note_extra(struct chk_ctx *ctx, struct chk_result *r, const struct span *first,
		       const struct span *dup, struct nst_error *err)
{
	const char *tb = chk_gpu_tables[dup->table];
	const int64_t *rowid = NULL;
	chk_col(ctx, tb, "rowid", &rowid, err);
	r->count++;
	chk_part_add(r, first->table == dup->table ? tb : "across tables", 1);
	struct chk_example *e = chk_example(r, tb, chk_at(rowid, dup->row));
	chk_num(e, "deviceId", dup->dev);
	chk_num(e, "streamId", dup->stream);
	chk_num(e, "start", dup->start);
	chk_num(e, "end", dup->end);
	chk_text(e, "same as", chk_gpu_tables[first->table]);
}

/* In each group of equal spans, every row after the first is an extra:
 * within its table when an earlier row of the group is of its table,
 * across tables otherwise. */
static void count_extras(struct chk_ctx *ctx, struct chk_result *r, const struct span *sp,
			 size_t n, struct nst_error *err)
{
	for (size_t g = 0; g < n;) {
		size_t end = g + 1;
		while (end < n && same_span(&sp[g], &sp[end]))
			end++;
		for (size_t i = g + 1; i < end; i++) {
			const struct span *first = &sp[g];
			for (size_t j = g; j < i; j++)
				if (sp[j].table == sp[i].table) {
					first = &sp[j];
					break;
				}
			note_extra(ctx, r, first, &sp[i], err);
		}
		g = end;
	}
}

static enum nst_status run(struct chk_ctx *ctx, struct chk_result *r,
			   struct nst_error *err)
{
	if (chk_lacks_all(ctx, r, chk_gpu_tables, 3))
		return NST_OK;
	struct span *sp = NULL;
	size_t n = 0;
	enum nst_status s = collect(ctx, &sp, &n, err);
	if (s == NST_OK && n > 1)
		qsort(sp, n, sizeof *sp, by_span);
	if (s == NST_OK)
		count_extras(ctx, r, sp, n, err);
	free(sp);
	return s;
}

const struct chk_finding chk_duplicate_gpu_rows = {
	.name = "duplicate_gpu_rows",
	.title = "GPU rows with the same device, stream, start and end as another",
	.help = "Kernel, memcpy and memset rows grouped by (deviceId, streamId, start,\n"
		"end): every row of a group after its first is counted once, under its\n"
		"table when the group already has a row of that table, else under\n"
		"\"across tables\".",
	.affects = "cuda_gpu_kern_sum,cuda_gpu_mem_time_sum,cuda_gpu_mem_size_sum,cuda_gpu_sum,"
		   "cuda_gpu_trace,cuda_kern_exec_sum,cuda_kern_exec_trace,gpu_gaps,gpu_time_util",
	.want = chk_want_gpu,
	.run = run,
};
