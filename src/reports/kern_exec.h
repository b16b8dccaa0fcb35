/* The kernel-to-launch join of cuda_kern_exec_trace and cuda_kern_exec_sum:
 * each kernel paired with the API call that launched it, matched on
 * (globalPid, correlationId).  CUDA backtrace records are not calls, so a
 * kernel is never paired with one (nsys 2024.2.3 pairs it with both). */
#ifndef NSTATS_REPORTS_KERN_EXEC_H
#define NSTATS_REPORTS_KERN_EXEC_H

#include "core/hashmap.h"
#include "reports/common.h"

/* The columns both reports read. */
extern const struct nst_need nst_kexec_needs[];

/* Launches in kernel row order; a kernel that several calls match comes
 * once per call, in runtime row order, as in an SQL join. */
struct nst_kexec {
	size_t n;
	uint32_t *krow; /* CUPTI_ACTIVITY_KIND_KERNEL row */
	uint32_t *rrow; /* CUPTI_ACTIVITY_KIND_RUNTIME row */
	const struct nst_calls *calls;
	const int64_t *kstart, *kend;
	const struct nst_col *kname, *device, *grid[3], *block[3]; /* as stored */
	/* "%4d %4d %4d" texts, one per distinct triple */
	struct nst_map dims_index;
	const char **dims_text;
	size_t ndims;
};

/* The times of one launch.  The queue is the gap from the end of the call
 * to the start of the kernel, NST_NULL_I64 when the kernel started first. */
struct nst_kexec_times {
	int64_t api, queue, kernel, total;
};

/* NST_ERR_NODATA with nsys's message when the export lacks a table. */
enum nst_status nst_kexec_check(struct nst_ctx *ctx, struct nst_error *err);

enum nst_status nst_kexec_join(struct nst_ctx *ctx, struct nst_kexec *j,
			       struct nst_error *err);
void nst_kexec_release(struct nst_kexec *j);

struct nst_kexec_times nst_kexec_times_of(const struct nst_kexec *j, size_t i);

/* The kernel's grid or block as nsys's printf('%4d %4d %4d') writes it;
 * NULL when out of memory.  Lives as long as the run's arena. */
const char *nst_kexec_grid(struct nst_ctx *ctx, struct nst_kexec *j, uint32_t krow);
const char *nst_kexec_block(struct nst_ctx *ctx, struct nst_kexec *j, uint32_t krow);

#endif
