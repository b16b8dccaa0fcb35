/* nvtx_gpu_proj_trace: each NVTX range with GPU work, projected onto the
 * GPU, with its place in the range nesting of its thread. */
#include "reports/nvtx_gpu_proj.h"

static enum nst_status emit(struct nst_ctx *ctx, const struct nst_sink *out,
			    const struct nst_proj *p, struct nst_error *err)
{
	enum nst_status s;
	static const char *const cols[] = {
		"Name", "Projected Start:ts_ns", "Projected Duration:dur_ns",
		"Orig Start:ts_ns", "Orig Duration:dur_ns", "Style", "PID", "TID",
		"NumGPUOps", "Lvl", "NumChild", "RangeId", "ParentId", "RangeStack",
	};
	(void)ctx;
	if ((s = out->begin(out->ctx, cols, 14, err)) != NST_OK)
		return s;
	for (size_t i = 0; i < p->n; i++) {
		uint32_t e = p->entry[i];
		int64_t gtid = nst_col_or_null(p->nv.gtid, p->named.row[e]);
		bool has_tid = gtid != NST_NULL_I64;
		struct nst_cell c[14] = {
			nst_text(nst_nvtx_name_text(&p->named, e)),
			nst_int(p->pstart[i]),
			nst_int(p->pend[i] - p->pstart[i]),
			nst_int(nst_proj_start(p, i)),
			nst_int(nst_proj_end(p, i) - nst_proj_start(p, i)),
			nst_text(nst_nvtx_style_name(p->named.style[e])),
			has_tid ? nst_int(nst_pid(gtid)) : nst_null(),
			has_tid ? nst_int(nst_tid(gtid)) : nst_null(),
			nst_int(p->nops[i]),
			p->lvl[i] == NST_PROJ_NONE ? nst_null() : nst_int(p->lvl[i]),
			nst_int(p->nchild[i]),
			nst_int(nst_proj_range_id(p, i)),
			p->parent[i] == NST_PROJ_NONE || p->lvl[i] == NST_PROJ_NONE
				? nst_null() : nst_int(nst_proj_range_id(p, p->parent[i])),
			nst_text(p->stack[i]),
		};
		if ((s = out->row(out->ctx, c, err)) != NST_OK)
			return s;
	}
	return NST_OK;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	struct nst_proj p;
	enum nst_status s = nst_proj_check(ctx, err);
	if (s != NST_OK)
		return s;
	s = nst_proj_build(ctx, true, &p, err);
	if (s == NST_OK)
		s = emit(ctx, out, &p, err);
	nst_proj_release(&p);
	return s;
}

const struct nst_report nst_report_nvtx_gpu_proj_trace = {
	.name = "nvtx_gpu_proj_trace",
	.title = "NVTX GPU Projection Trace",
	.help = "NVTX ranges projected from the CPU onto the GPU: each range that\n"
		"starts and ends on one thread and holds the API calls of GPU\n"
		"operations (kernels, memory copies, memsets) launched on that\n"
		"thread becomes the span from the start of its first operation to\n"
		"the end of its last.  Per range: name, projected start and\n"
		"duration, original start and duration, style, PID, TID, number of\n"
		"operations, nesting level (from 0), number of children, its id,\n"
		"its parent's id and the ids of its stack.  Ranges without GPU\n"
		"operations are left out, also from the nesting.",
	.args = (const char *const[]){ NULL },
	.needs = nst_proj_needs,
	.run = run,
	.flags = NST_REPORT_EVENT_ROWS,
};
