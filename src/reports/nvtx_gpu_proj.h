/* NVTX ranges projected onto the GPU (nvtx_gpu_proj_trace and
 * nvtx_gpu_proj_sum): each range that starts and ends on one thread, with
 * the GPU operations (kernels, memcpys, memsets) launched inside it on
 * that thread, becomes the span from the first operation's start to the
 * last one's end.  A start/end range ended by another thread (endGlobalTid
 * set) is left out.  Ranges without operations are dropped; the rest nest
 * by their original times on their thread, outermost first; a range that
 * never ended holds operations up to the last NVTX timestamp but takes no
 * part in the nesting. */
#ifndef NSTATS_REPORTS_NVTX_GPU_PROJ_H
#define NSTATS_REPORTS_NVTX_GPU_PROJ_H

#include "reports/nvtx_gpu.h"

struct nst_proj {
	struct nst_nvtx nv;
	struct nst_nvtx_named named;
	const struct nst_col *rowid; /* RangeId: the NVTX_EVENTS rowid, kept by the filter */
	size_t n;         /* projected ranges, in NVTX row order */
	uint32_t *entry;  /* index into named */
	int64_t *pstart, *pend, *nops;
	/* 32 bits: projected indexes are (entry), and at a million ranges the
	 * three are 12 MB rather than 24 at nvtx_gpu_proj_sum's peak */
	uint32_t *lvl, *nchild; /* lvl NST_PROJ_NONE: not reached from the top */
	uint32_t *parent;  /* projected index, or NST_PROJ_NONE */
	const char **stack; /* ":id:id", with stacks; NULL where lvl is */
};

#define NST_PROJ_NONE UINT32_MAX

/* NST_ERR_NODATA with nsys's message when the export lacks a table. */
enum nst_status nst_proj_check(struct nst_ctx *ctx, struct nst_error *err);
enum nst_status nst_proj_build(struct nst_ctx *ctx, bool stacks, struct nst_proj *p,
			       struct nst_error *err);
void nst_proj_release(struct nst_proj *p);

/* The range's NVTX_EVENTS rowid, its original start and end. */
int64_t nst_proj_range_id(const struct nst_proj *p, size_t i);
int64_t nst_proj_start(const struct nst_proj *p, size_t i);
int64_t nst_proj_end(const struct nst_proj *p, size_t i);

extern const struct nst_need nst_proj_needs[];

#endif
