/* gpu_time_util: the share of time each GPU was busy, per process and
 * device, in chunks= equal chunks of the span from its first to its last
 * operation; chunks under threshold= percent are shown, neighbours merged,
 * least used first. */
#include <stdlib.h>

#include "core/big.h"
#include "rules/gpu_busy.h"

static const char *const cols[] = {
	"Row#", "In-Use:ratio_%", "Duration:dur_ns", "Start:ts_ns", "PID", "Device ID",
	"Context ID",
};
#define NCOLS (sizeof cols / sizeof *cols)

/* Low-use regions: runs of consecutive chunks under the threshold. */
struct regions {
	size_t n, cap;
	int64_t *start, *dur;
	double *pct;
	uint32_t *group;
};

static int add_region(struct regions *rg, uint32_t group, int64_t start, int64_t dur,
		      double busy)
{
	if (rg->n == rg->cap) {
		size_t cap = rg->cap ? 2 * rg->cap : 64;
		int64_t *a = realloc(rg->start, cap * sizeof *a);
		if (a) rg->start = a;
		int64_t *d = realloc(rg->dur, cap * sizeof *d);
		if (d) rg->dur = d;
		double *p = realloc(rg->pct, cap * sizeof *p);
		if (p) rg->pct = p;
		uint32_t *g = realloc(rg->group, cap * sizeof *g);
		if (g) rg->group = g;
		if (!a || !d || !p || !g)
			return -1;
		rg->cap = cap;
	}
	rg->start[rg->n] = start;
	rg->dur[rg->n] = dur;
	rg->pct[rg->n] = 100.0 * busy / (double)dur;
	rg->group[rg->n++] = group;
	return 0;
}

static void regions_release(struct regions *rg)
{
	free(rg->start);
	free(rg->dur);
	free(rg->pct);
	free(rg->group);
}

/* Busy time of each chunk of one group: every operation adds its overlap
 * with each chunk it touches (concurrent ones add up).  In double: it only
 * makes a percentage, is exact below 2^53 ns (104 days) as the integers
 * were, and cannot overflow where many concurrent operations of a corrupt
 * export span 2^62 ns. */
static void chunk_busy(const struct nst_busy *b, const uint32_t *row, size_t n, int64_t first,
		       int64_t len, size_t nchunks, double *busy)
{
	for (size_t c = 0; c < nchunks; c++)
		busy[c] = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t s = b->start[row[i]], e = b->end[row[i]];
		if (e <= s)
			continue;
		size_t c = (size_t)((s - first) / len);
		for (; c < nchunks; c++) {
			int64_t cs = first + (int64_t)c * len, ce = cs + len;
			if (cs >= e)
				break;
			busy[c] += (double)((e < ce ? e : ce) - (s > cs ? s : cs));
		}
	}
}

/* The group's low chunks, merged into regions. */
static int group_regions(const struct nst_busy *b, uint32_t k, int64_t chunks, double threshold,
			 struct regions *rg, double **scratch, size_t *scap)
{
	const uint32_t *row = b->g.order + b->g.start[k];
	size_t n = b->g.start[k + 1] - b->g.start[k];
	int64_t first = b->start[row[0]], last = b->end[row[0]];
	for (size_t i = 1; i < n; i++)
		last = b->end[row[i]] > last ? b->end[row[i]] : last;
	int64_t span = last - first;
	if (span <= 0)
		return 0;
	int64_t len = (span + chunks - 1) / chunks;
	size_t nchunks = (size_t)((span + len - 1) / len);
	if (nchunks > *scap) {
		double *p = realloc(*scratch, nchunks * sizeof *p);
		if (!p)
			return -1;
		*scratch = p;
		*scap = nchunks;
	}
	double *busy = *scratch, run_busy = 0;
	chunk_busy(b, row, n, first, len, nchunks, busy);
	int64_t run_start = 0, run_dur = 0;
	for (size_t c = 0; c <= nchunks; c++) {
		int64_t cs = first + (int64_t)c * len;
		int64_t cd = c < nchunks ? (cs + len < last ? len : last - cs) : 0;
		bool low = c < nchunks && 100.0 * busy[c] / (double)cd < threshold;
		if (low) {
			if (!run_dur)
				run_start = cs;
			run_dur += cd;
			run_busy += busy[c];
		} else if (run_dur) {
			if (add_region(rg, k, run_start, run_dur, run_busy))
				return -1;
			run_dur = 0;
			run_busy = 0;
		}
	}
	return 0;
}

/* nsys orders by the percent as shown (one decimal), then the shorter,
 * then the earlier region first. */
static int less_used(uint32_t a, uint32_t b, void *arg)
{
	const struct regions *rg = arg;
	double pa = nst_sql_round(rg->pct[a], 1), pb = nst_sql_round(rg->pct[b], 1);
	if (pa != pb)
		return (pa > pb) - (pa < pb);
	if (rg->dur[a] != rg->dur[b])
		return (rg->dur[a] > rg->dur[b]) - (rg->dur[a] < rg->dur[b]);
	return (rg->start[a] > rg->start[b]) - (rg->start[a] < rg->start[b]);
}

static void set_texts(struct nst_ctx *ctx, int64_t threshold, struct nst_rule_notes *notes)
{
	/* nsys prints the percent sign doubled. */
	nst_busy_notes(ctx, nst_arena_printf(ctx->arena,
		"The following are time regions with an average GPU utilization below %lld%%%%. "
		"Addressing the gaps might improve application performance.", (long long)threshold),
		nst_arena_printf(ctx->arena,
		"There were no problems detected with GPU utilization. No time regions have an "
		"average GPU utilization below %lld%%%%.", (long long)threshold), notes);
}

static enum nst_status emit(struct nst_ctx *ctx, const struct nst_sink *out,
			    struct nst_rule_notes *notes, const struct nst_busy *b,
			    const struct regions *rg, struct nst_error *err)
{
	uint32_t *idx = nst_big_alloc(rg->n, sizeof *idx);
	if (!idx)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t k = 0; k < rg->n; k++)
		idx[k] = (uint32_t)k;
	nst_stable_sort(idx, rg->n, less_used, (void *)rg);
	size_t n = nst_rule_cut(ctx, rg->n, notes);
	enum nst_status s = nst_rule_begin(out, notes, cols, NCOLS, err);
	for (size_t k = 0; s == NST_OK && k < n; k++) {
		uint32_t r = idx[k], g = rg->group[r], op = b->g.first[g];
		struct nst_cell row[NCOLS] = {
			nst_int((int64_t)k + 1), nst_round1(rg->pct[r]), nst_int(rg->dur[r]),
			nst_int(rg->start[r]), nst_int_or_null(nst_busy_pid(b, op)),
			nst_int_or_null(nst_busy_device(b, op)),
			nst_int_or_null(nst_busy_context(b, nst_busy_last_ending(b, g))),
		};
		s = out->row(out->ctx, row, err);
	}
	free(idx);
	return s;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	int64_t chunks = nst_rule_int(ctx, "chunks", 30);
	int64_t threshold = nst_rule_int(ctx, "threshold", 50);
	struct nst_busy b;
	struct regions rg = { 0 };
	double *scratch = NULL;
	size_t scap = 0;
	enum nst_status s = nst_busy_load(ctx, &b, err);
	for (uint32_t k = 0; s == NST_OK && k < b.g.n; k++)
		if (group_regions(&b, k, chunks, (double)threshold, &rg, &scratch, &scap))
			s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (s == NST_OK) {
		struct nst_rule_notes notes = { 0 };
		set_texts(ctx, threshold, &notes);
		s = emit(ctx, out, &notes, &b, &rg, err);
	}
	free(scratch);
	regions_release(&rg);
	nst_busy_release(&b);
	return s;
}

static const char *const args[] = { "rows", "threshold", "chunks", NULL };

static const struct nst_need needs[] = {
	NST_BUSY_NEEDS,
	{ NULL, NULL, false },
};

const struct nst_report nst_rule_gpu_time_util = {
	.name = "gpu_time_util",
	.title = "GPU Time Utilization",
	.help = "How much of the time each GPU was busy, per process and device: the\n"
		"span from the first to the last kernel, memcpy or memset is cut into\n"
		"equal chunks (the last one may be shorter) and each chunk's busy\n"
		"time summed (concurrent operations add up, so it can pass 100%).\n"
		"Chunks under the threshold are shown, consecutive ones merged, least\n"
		"used first: in-use percent, duration, start, process, device, context.\n"
		"CUDA profiling flush/stop overhead inside the span counts as busy;\n"
		"Vulkan, D3D12 and OpenGL workloads are timelines of their own.\n"
		"chunks=N cuts N chunks (1..1000, default 30); threshold=P shows\n"
		"chunks under P percent (default 50); rows=N shows N of them (default\n"
		"50, -1 all).",
	.args = args,
	.needs = needs,
	.run = run,
	.check = nst_rule_check,
};
