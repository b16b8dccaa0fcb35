/* gpu_gaps: stretches where a GPU did nothing for at least gap= ms
 * (default 500) between the first and the last operation a process ran
 * on it, longest first. */
#include <stdlib.h>

#include "core/big.h"
#include "core/hashmap.h"
#include "reports/gpu_time.h"
#include "rules/gpu_busy.h"

static const char *const cols[] = {
	"Row#", "Duration:dur_ns", "Start:ts_ns", "PID", "Device ID", "Context ID",
};
#define NCOLS (sizeof cols / sizeof *cols)

/* What a gap's row names of the operation before it. */
struct where {
	int64_t pid, device, context;
};

/* One idle stretch: from the end of the operation that ended last so far
 * (whose context it names) to the start of the next one. */
struct gap {
	int64_t dur, start;
	uint64_t seq;    /* the order found in: groups in turn, each in start order */
	uint32_t before; /* the operation that ended last */
	struct where at; /* of before, set once the gaps kept are known */
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
	size_t at = gp->n++;
	if (at < gp->cap) {
		gp->g[at] = g;
		sift_up(gp->g, at);
	} else if (gp->cap && ranks_above(&g, &gp->g[0])) {
		gp->g[0] = g;
		sift_down(gp->g, gp->cap, 0);
	}
}

/* Operation r, the next of its group in start order: the gap before it
 * when there is one (kept with seq), and *last, the operation that ended
 * last so far, moved on.  True when a gap was found.  Both ways of
 * finding the gaps step through a group with this. */
static bool step(struct gaps *gp, const int64_t *start, const int64_t *end, uint32_t *last,
		 uint32_t r, int64_t min_ns, uint64_t seq)
{
	int64_t idle = start[r] - end[*last];
	bool found = idle > 0 && idle >= min_ns;
	if (found)
		keep(gp, (struct gap){ .dur = idle, .start = end[*last], .seq = seq, .before = *last });
	if (end[r] > end[*last])
		*last = r;
	return found;
}

static void find_gaps(const struct nst_busy *b, int64_t min_ns, struct gaps *gp)
{
	for (size_t k = 0; k < b->g.n; k++) {
		const uint32_t *row = b->g.order + b->g.start[k];
		size_t n = b->g.start[k + 1] - b->g.start[k];
		uint32_t last = row[0];
		for (size_t i = 1; i < n; i++)
			step(gp, b->start, b->end, &last, row[i], min_ns, gp->n);
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
			    const struct gap *g, size_t n, struct nst_error *err)
{
	enum nst_status s = nst_rule_begin(out, notes, cols, NCOLS, err);
	for (size_t k = 0; s == NST_OK && k < n; k++) {
		struct nst_cell row[NCOLS] = {
			nst_int((int64_t)k + 1), nst_int(g[k].dur), nst_int(g[k].start),
			nst_int_or_null(g[k].at.pid), nst_int_or_null(g[k].at.device),
			nst_int_or_null(g[k].at.context),
		};
		s = out->row(out->ctx, row, err);
	}
	return s;
}

static enum nst_status keep_room(struct gaps *gp, size_t limit, size_t ops, struct nst_error *err)
{
	gp->cap = limit < ops ? limit : ops;
	gp->g = nst_big_alloc(gp->cap, sizeof *gp->g);
	return gp->g ? NST_OK : nst_fail(err, NST_ERR_NOMEM, "out of memory");
}

/* ---- from the busy operations (gpu_busy.h) ------------------------------------ */

static enum nst_status gaps_of_busy(struct nst_ctx *ctx, int64_t min_ns, size_t limit,
				    struct gaps *gp, struct nst_error *err)
{
	struct nst_busy b;
	enum nst_status s = nst_busy_load(ctx, &b, err);
	if (s == NST_OK)
		s = keep_room(gp, limit, b.n, err);
	if (s == NST_OK)
		find_gaps(&b, min_ns, gp);
	for (size_t k = 0; s == NST_OK && k < gp->n && k < gp->cap; k++) {
		uint32_t op = gp->g[k].before;
		gp->g[k].at = (struct where){ nst_busy_pid(&b, op), nst_busy_device(&b, op),
					      nst_busy_context(&b, op) };
	}
	nst_busy_release(&b);
	return s;
}

/* ---- from the operations that gpu_time_sum measures ----------------------------- */

/* The CUDA tables, in the order nst_gt_load gathers them. */
static const char *const cuda_tables[] = { KERNEL, MEMCPY, MEMSET };
#define NCUDA 3

/* Whether the tables hold only what nst_gt_load and nst_busy_load both
 * take alike: rows of the three CUDA tables, each with a globalPid column,
 * and no other busy time (graph executions, graphics workloads, profiler
 * overhead). */
static bool tables_alike(struct nst_ctx *ctx, size_t rows[NCUDA])
{
	static const char *const others[] = {
		GRAPH_TRACE, NST_BUSY_OVERHEAD, NST_BUSY_VULKAN, NST_BUSY_DX12, NST_BUSY_OPENGL,
	};
	struct nst_error ignored;
	bool any = false;
	for (size_t k = 0; k < sizeof others / sizeof *others; k++) {
		size_t n = 0;
		if (nst_db_has_table(ctx->db, others[k]) &&
		    (nst_ev_rows(ctx->ev, others[k], &n, &ignored) != NST_OK || n > 0))
			return false;
	}
	for (size_t t = 0; t < NCUDA; t++) {
		const struct nst_col *gpid = NULL;
		rows[t] = 0;
		if (!nst_db_has_table(ctx->db, cuda_tables[t]))
			continue;
		any = true;
		if (nst_ev_rows(ctx->ev, cuda_tables[t], &rows[t], &ignored) != NST_OK ||
		    nst_ev_col(ctx->ev, cuda_tables[t], "globalPid", &gpid, &ignored) != NST_OK ||
		    (rows[t] > 0 && !gpid))
			return false;
	}
	return any;
}

/* Whether the operations are every row (none left out for a NULL time)
 * and none ends before it starts. */
static bool ops_alike(const struct nst_gt_ops *ops, const size_t rows[NCUDA])
{
	if (ops->n != rows[0] + rows[1] + rows[2])
		return false;
	for (size_t i = 0; i < ops->n; i++)
		if (ops->end[i] < ops->start[i])
			return false;
	return true;
}

static int64_t pid_of(const struct nst_gt_lane *l)
{
	return l->gpid == NST_NULL_I64 ? NST_NULL_I64 : nst_pid(l->gpid);
}

/* The groups by (pid, device), numbered by the first operation of each,
 * as nst_busy_load numbers them: group[lane], rank[group]. */
struct op_groups {
	uint32_t *group, *rank;
	size_t n;
};

static int op_groups_make(const struct nst_gt_ops *ops, struct op_groups *g)
{
	struct nst_map ids = { 0 };
	uint32_t *first = malloc((ops->nlanes ? ops->nlanes : 1) * sizeof *first);
	g->group = malloc((ops->nlanes ? ops->nlanes : 1) * sizeof *g->group);
	g->rank = malloc((ops->nlanes ? ops->nlanes : 1) * sizeof *g->rank);
	g->n = 0;
	int rc = !first || !g->group || !g->rank || nst_map_init(&ids, 64) ? -1 : 0;
	for (size_t l = 0; rc == 0 && l < ops->nlanes; l++) {
		bool fresh;
		rc = nst_map_get_or_put(&ids, pid_of(&ops->lanes[l]), ops->lanes[l].device,
					(uint32_t)g->n, &g->group[l], &fresh);
		g->n += rc == 0 && fresh;
	}
	for (size_t k = 0; rc == 0 && k < g->n; k++)
		first[k] = UINT32_MAX;
	for (size_t i = 0; rc == 0 && i < ops->n; i++) {
		uint32_t k = g->group[ops->lane[i]];
		first[k] = first[k] == UINT32_MAX ? (uint32_t)i : first[k];
	}
	/* the rank of a group: how many groups begin before it */
	for (size_t k = 0; rc == 0 && k < g->n; k++) {
		g->rank[k] = 0;
		for (size_t j = 0; j < g->n; j++)
			g->rank[k] += first[j] < first[k];
	}
	nst_map_release(&ids);
	free(first);
	return rc;
}

static void op_groups_release(struct op_groups *g)
{
	free(g->group);
	free(g->rank);
}

/* Each group's operations come in start order, the groups of a device
 * interleaved (by_device): the gaps of each group are found as
 * find_gaps finds them, in its order within the group. */
static enum nst_status sweep_ops(const struct nst_gt_ops *ops, const uint32_t *by_device,
				 const struct op_groups *g, int64_t min_ns, struct gaps *gp,
				 struct nst_error *err)
{
	uint32_t *last = malloc((g->n ? g->n : 1) * sizeof *last);
	uint64_t *found = calloc(g->n ? g->n : 1, sizeof *found);
	if (!last || !found) {
		free(last);
		free(found);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	for (size_t k = 0; k < g->n; k++)
		last[k] = UINT32_MAX;
	for (size_t i = 0; i < ops->n; i++) {
		uint32_t r = by_device[i], k = g->group[ops->lane[r]];
		if (last[k] == UINT32_MAX)
			last[k] = r;
		else
			found[k] += step(gp, ops->start, ops->end, &last[k], r, min_ns,
					 (uint64_t)g->rank[k] << 40 | found[k]);
	}
	free(last);
	free(found);
	return NST_OK;
}

/* The operation's context: its table's contextId at its row (operations
 * are the tables' rows, one table after another). */
static int64_t context_of(const struct nst_col *const context[NCUDA], const size_t rows[NCUDA],
			  uint32_t op)
{
	size_t t = 0, row = op;
	while (t + 1 < NCUDA && row >= rows[t])
		row -= rows[t++];
	return context[t] ? nst_col_at(context[t], row) : NST_NULL_I64;
}

/* The gaps from the shared operations where a report loaded them (a
 * page's GPU section) and they are the busy ones (tables_alike,
 * ops_alike): found without loading and grouping the operations again.
 * *done false: not so.  Either way gives the same rows (the accounting
 * suite's case_gaps); alone, the rule loads only its own. */
static enum nst_status gaps_of_ops(struct nst_ctx *ctx, int64_t min_ns, size_t limit,
				   struct gaps *gp, bool *done, struct nst_error *err)
{
	size_t rows[NCUDA];
	const struct nst_gt_ops *ops;
	const uint32_t *by_device;
	struct op_groups g = { 0 };
	*done = false;
	if (!tables_alike(ctx, rows))
		return NST_OK;
	if (!nst_gt_shared_loaded(ctx, NST_GT_WHOLE, &ops, &by_device) || !ops_alike(ops, rows))
		return NST_OK;
	*done = true;
	enum nst_status s = NST_OK;
	if (op_groups_make(ops, &g))
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (s == NST_OK)
		s = keep_room(gp, limit, ops->n, err);
	if (s == NST_OK)
		s = sweep_ops(ops, by_device, &g, min_ns, gp, err);
	const struct nst_col *context[NCUDA] = { NULL };
	for (size_t t = 0; s == NST_OK && t < NCUDA; t++)
		s = nst_ev_col(ctx->ev, cuda_tables[t], "contextId", &context[t], err);
	for (size_t k = 0; s == NST_OK && k < gp->n && k < gp->cap; k++) {
		const struct nst_gt_lane *l = nst_gt_lane_of(ops, gp->g[k].before);
		gp->g[k].at = (struct where){ pid_of(l), l->device,
					      context_of(context, rows, gp->g[k].before) };
	}
	op_groups_release(&g);
	return s;
}

/* ---- the rule ------------------------------------------------------------------ */

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	int64_t gap_ms = nst_rule_int(ctx, "gap", 500);
	size_t limit = nst_rule_limit(ctx);
	struct gaps gp = { 0, 0, NULL };
	bool done;
	enum nst_status s = gaps_of_ops(ctx, gap_ms * 1000000, limit, &gp, &done, err);
	if (s == NST_OK && !done)
		s = gaps_of_busy(ctx, gap_ms * 1000000, limit, &gp, err);
	if (s == NST_OK) {
		size_t kept = rank_kept(&gp);
		struct nst_rule_notes notes = { 0 };
		size_t n = nst_rule_cut(ctx, gp.n, &notes);
		set_texts(ctx, gap_ms, &notes);
		s = emit(out, &notes, gp.g, n < kept ? n : kept, err);
	}
	free(gp.g);
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
