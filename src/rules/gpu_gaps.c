/* gpu_gaps: stretches where a GPU did nothing for at least gap= ms
 * (default 500) between the first and the last operation a process ran
 * on it, longest first. */
#include <stdlib.h>

#include "core/big.h"
#include "rules/gpu_busy.h"

static const char *const cols[] = {
	"Row#", "Duration:dur_ns", "Start:ts_ns", "PID", "Device ID", "Context ID",
};
#define NCOLS (sizeof cols / sizeof *cols)

/* One idle stretch: from the end of the operation that ended last so far
 * (whose context it names) to the start of the next one. */
struct gap {
	int64_t dur, start;
	size_t seq;      /* found seq-th: groups in turn, each in start order */
	uint32_t before; /* the operation that ended last */
};

/* The `cap` longest found so far, not all of them: a page asks for ten
 * of what may be millions at gap=0. */
struct gaps {
	size_t n, cap; /* found; kept at most */
	struct gap *g; /* a heap: g[0] ranks lowest of those kept */
};

/* The reports' order: longer first, then earlier, then found first. */
static bool ranks_above(const struct gap *a, const struct gap *b)
{
	if (a->dur != b->dur)
		return a->dur > b->dur;
	return a->start != b->start ? a->start < b->start : a->seq < b->seq;
}

static void sift_down(struct gap *h, size_t k, size_t i)
{
	for (size_t c; (c = 2 * i + 1) < k; i = c) {
		if (c + 1 < k && ranks_above(&h[c], &h[c + 1]))
			c++;
		if (!ranks_above(&h[i], &h[c]))
			break;
		struct gap t = h[i];
		h[i] = h[c];
		h[c] = t;
	}
}

static void sift_up(struct gap *h, size_t i)
{
	for (size_t p; i > 0 && ranks_above(&h[p = (i - 1) / 2], &h[i]); i = p) {
		struct gap t = h[i];
		h[i] = h[p];
		h[p] = t;
	}
}

static void keep(struct gaps *gp, struct gap g)
{
	size_t seq = gp->n++;
	g.seq = seq;
	if (seq < gp->cap) {
		gp->g[seq] = g;
		sift_up(gp->g, seq);
	} else if (gp->cap && ranks_above(&g, &gp->g[0])) {
		gp->g[0] = g;
		sift_down(gp->g, gp->cap, 0);
	}
}

static void find_gaps(const struct nst_busy *b, int64_t min_ns, struct gaps *gp)
{
	for (size_t k = 0; k < b->g.n; k++) {
		const uint32_t *row = b->g.order + b->g.start[k];
		size_t n = b->g.start[k + 1] - b->g.start[k];
		uint32_t last = row[0];
		for (size_t i = 1; i < n; i++) {
			uint32_t r = row[i];
			int64_t idle = b->start[r] - b->end[last];
			if (idle > 0 && idle >= min_ns)
				keep(gp, (struct gap){ idle, b->end[last], 0, last });
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

/* The heap in rank order, the highest first. */
static size_t rank_kept(struct gaps *gp)
{
	size_t k = gp->n < gp->cap ? gp->n : gp->cap;
	for (size_t m = k; m > 1; m--) {
		struct gap t = gp->g[0];
		gp->g[0] = gp->g[m - 1];
		gp->g[m - 1] = t;
		sift_down(gp->g, m - 1, 0);
	}
	return k;
}

static enum nst_status emit(const struct nst_sink *out, const struct nst_rule_notes *notes,
			    const struct nst_busy *b, const struct gap *g, size_t n,
			    struct nst_error *err)
{
	enum nst_status s = nst_rule_begin(out, notes, cols, NCOLS, err);
	for (size_t k = 0; s == NST_OK && k < n; k++) {
		uint32_t op = g[k].before;
		struct nst_cell row[NCOLS] = {
			nst_int((int64_t)k + 1), nst_int(g[k].dur), nst_int(g[k].start),
			nst_int_or_null(nst_busy_pid(b, op)), nst_int_or_null(nst_busy_device(b, op)),
			nst_int_or_null(nst_busy_context(b, op)),
		};
		s = out->row(out->ctx, row, err);
	}
	return s;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	int64_t gap_ms = nst_rule_int(ctx, "gap", 500);
	size_t limit = nst_rule_limit(ctx);
	struct nst_busy b;
	enum nst_status s = nst_busy_load(ctx, &b, err);
	struct gaps gp = { 0, limit < b.n ? limit : b.n, NULL };
	if (s == NST_OK && !(gp.g = nst_big_alloc(gp.cap, sizeof *gp.g)))
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (s == NST_OK) {
		find_gaps(&b, gap_ms * 1000000, &gp);
		size_t kept = rank_kept(&gp);
		struct nst_rule_notes notes = { 0 };
		size_t n = nst_rule_cut(ctx, gp.n, &notes);
		set_texts(ctx, gap_ms, &notes);
		s = emit(out, &notes, &b, gp.g, n < kept ? n : kept, err);
	}
	free(gp.g);
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
