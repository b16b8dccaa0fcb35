/* gpu_gaps: stretches where a GPU did nothing for at least gap= ms
 * (default 500) between the first and the last operation a process ran
 * on it, longest first. */
#include <stdlib.h>

#include "rules/gpu_busy.h"

static const char *const cols[] = {
	"Row#", "Duration:dur_ns", "Start:ts_ns", "PID", "Device ID", "Context ID",
};
#define NCOLS (sizeof cols / sizeof *cols)

/* One idle stretch: from the end of the operation that ended last so far
 * (whose context it names) to the start of the next one. */
struct gaps {
	size_t n;
	int64_t *dur, *start;
	uint32_t *before; /* the operation that ended last */
};

static void find_gaps(const struct nst_busy *b, int64_t min_ns, struct gaps *gp)
{
	for (size_t k = 0; k < b->g.n; k++) {
		const uint32_t *row = b->g.order + b->g.start[k];
		size_t n = b->g.start[k + 1] - b->g.start[k];
		uint32_t last = row[0];
		for (size_t i = 1; i < n; i++) {
			uint32_t r = row[i];
			int64_t idle = b->start[r] - b->end[last];
			if (idle > 0 && idle >= min_ns) {
				gp->dur[gp->n] = idle;
				gp->start[gp->n] = b->end[last];
				gp->before[gp->n++] = last;
			}
			if (b->end[r] > b->end[last])
				last = r;
		}
	}
}

static void set_texts(struct nst_ctx *ctx, int64_t gap_ms, struct nst_rule_notes *notes)
{
	nst_busy_notes(ctx, nst_arena_printf(ctx->arena,
		"The following are ranges where a GPU is idle for more than %lldms. Addressing "
		"these gaps might improve application performance.", (long long)gap_ms),
		nst_arena_printf(ctx->arena,
		"There were no problems detected with GPU utilization. GPU was not found to be "
		"idle for more than %lldms.", (long long)gap_ms), notes);
}

static enum nst_status emit(const struct nst_sink *out, const struct nst_rule_notes *notes,
			    const struct nst_busy *b, const struct gaps *gp,
			    const uint32_t *idx, size_t n, struct nst_error *err)
{
	enum nst_status s = nst_rule_begin(out, notes, cols, NCOLS, err);
	for (size_t k = 0; s == NST_OK && k < n; k++) {
		uint32_t g = idx[k], op = gp->before[g];
		struct nst_cell row[NCOLS] = {
			nst_int((int64_t)k + 1), nst_int(gp->dur[g]), nst_int(gp->start[g]),
			nst_int_or_null(b->pid[op]), nst_int_or_null(b->device[op]),
			nst_int_or_null(b->context[op]),
		};
		s = out->row(out->ctx, row, err);
	}
	return s;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	int64_t gap_ms = nst_rule_int(ctx, "gap", 500);
	struct nst_busy b;
	enum nst_status s = nst_busy_load(ctx, &b, err);
	size_t cap = b.n ? b.n : 1;
	struct gaps gp = { 0 };
	uint32_t *idx = NULL;
	if (s == NST_OK) {
		gp.dur = malloc(cap * sizeof *gp.dur);
		gp.start = malloc(cap * sizeof *gp.start);
		gp.before = malloc(cap * sizeof *gp.before);
		idx = malloc(cap * sizeof *idx);
		if (!gp.dur || !gp.start || !gp.before || !idx)
			s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	if (s == NST_OK) {
		find_gaps(&b, gap_ms * 1000000, &gp);
		for (size_t k = 0; k < gp.n; k++)
			idx[k] = (uint32_t)k;
		/* equal durations: the earlier gap first, whatever its device */
		s = nst_sort_by_key(idx, gp.n, gp.start, err);
	}
	if (s == NST_OK) {
		struct nst_rule_notes notes = { 0 };
		size_t n = nst_rule_top(ctx, idx, gp.n, gp.dur, &notes);
		set_texts(ctx, gap_ms, &notes);
		s = emit(out, &notes, &b, &gp, idx, n, err);
	}
	free(gp.dur);
	free(gp.start);
	free(gp.before);
	free(idx);
	nst_busy_release(&b);
	return s;
}

static const char *const args[] = { "rows", "gap", NULL };

static const struct nst_need needs[] = {
	NST_BUSY_NEEDS,
	{ NULL, NULL, false },
};

const struct nst_report nst_rule_gpu_gaps = {
	.name = "gpu_gaps",
	.title = "GPU Gaps",
	.help = "Stretches where a GPU ran nothing, between the first and the last\n"
		"kernel, memcpy or memset that a process ran on it, longest first:\n"
		"duration, start (the end of the operation before), process, device\n"
		"and context. CUDA profiling flush/stop overhead inside that span\n"
		"counts as busy; Vulkan, D3D12 and OpenGL workloads are timelines of\n"
		"their own.\n"
		"gap=MS shows only stretches of at least MS milliseconds (default\n"
		"500); rows=N shows N of them (default 50, -1 all).",
	.args = args,
	.needs = needs,
	.run = run,
	.check = nst_rule_check,
};
