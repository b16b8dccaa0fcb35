/* cuda_kern_exec_trace: each kernel with the API call that launched it, in
 * the order of the calls: how long the call took, how long the kernel
 * waited in the queue after it, and how long the kernel ran. */
#include <stdlib.h>

#include "core/big.h"
#include "reports/kern_exec.h"
#include "reports/kernel_names.h"

static enum nst_status emit_launch(struct nst_ctx *ctx, const struct nst_sink *out,
				   struct nst_kexec *j, size_t i, struct nst_error *err)
{
	uint32_t k = j->krow[i], r = j->rrow[i];
	const struct nst_calls *c = j->calls;
	struct nst_kexec_times t = nst_kexec_times_of(j, i);
	int64_t gtid = nst_col_or_null(c->gtid, r);
	const char *grid = nst_kexec_grid(ctx, j, k), *block = nst_kexec_block(ctx, j, k);
	if (!grid || !block)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	struct nst_cell cells[14] = {
		nst_int(c->start[r]),
		nst_int(t.api),
		t.queue == NST_NULL_I64 ? nst_null() : nst_int(c->end[r]),
		nst_int_or_null(t.queue),
		nst_int(j->kstart[k]),
		nst_int(t.kernel),
		nst_int(t.total),
		gtid == NST_NULL_I64 ? nst_null() : nst_int(nst_pid(gtid)),
		gtid == NST_NULL_I64 ? nst_null() : nst_int(nst_tid(gtid)),
		nst_int_or_null(nst_col_or_null(j->device, k)),
		nst_text(nst_api_name(ctx, nst_col_at(c->name_id, r))),
		nst_text(grid),
		nst_text(block),
		nst_text(j->kname ? nst_kernel_name_text(ctx, nst_col_at(j->kname, k)) : NULL),
	};
	return out->row(out->ctx, cells, err);
}

static enum nst_status emit(struct nst_ctx *ctx, const struct nst_sink *out,
			    struct nst_kexec *j, const uint32_t *order,
			    struct nst_error *err)
{
	static const char *const cols[] = {
		"API Start:ts_ns", "API Dur:dur_ns", "Queue Start:ts_ns",
		"Queue Dur:dur_ns", "Kernel Start:ts_ns", "Kernel Dur:dur_ns",
		"Total Dur:dur_ns", "PID", "TID", "DevId", "API Function",
		"GridXYZ", "BlockXYZ", "Kernel Name",
	};
	enum nst_status s = out->begin(out->ctx, cols, 14, err);
	for (size_t i = 0; s == NST_OK && i < j->n; i++)
		s = emit_launch(ctx, out, j, order[i], err);
	return s;
}

/* By call start; launches of one call, and calls that start together,
 * stay in kernel order. */
static enum nst_status launch_order(const struct nst_kexec *j, uint32_t **order,
				    struct nst_error *err)
{
	*order = nst_big_alloc(j->n, sizeof **order);
	int64_t *start = nst_big_alloc(j->n, sizeof *start);
	if (!*order || !start) {
		free(*order);
		free(start);
		*order = NULL;
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < j->n; i++) {
		(*order)[i] = (uint32_t)i;
		start[i] = j->calls->start[j->rrow[i]];
	}
	enum nst_status s = nst_sort_by_key(*order, j->n, start, err);
	free(start);
	return s;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	enum nst_status s = nst_kexec_check(ctx, err);
	if (s != NST_OK)
		return s;
	struct nst_kexec j;
	if ((s = nst_kexec_join(ctx, &j, err)) != NST_OK)
		return s;
	uint32_t *order = NULL;
	s = launch_order(&j, &order, err);
	if (s == NST_OK)
		s = emit(ctx, out, &j, order, err);
	free(order);
	nst_kexec_release(&j);
	return s;
}

const struct nst_report nst_report_cuda_kern_exec_trace = {
	.name = "cuda_kern_exec_trace",
	.title = "CUDA Kernel Launch & Exec Time Trace",
	.help = "Each kernel with the API call that launched it, in the order of the\n"
		"calls: the call's start and duration, the time the kernel waited\n"
		"in the queue after the call returned (blank when it started\n"
		"before), the kernel's start and duration, and the total from call\n"
		"start to the later of call end and kernel end.\n"
		"`base` names kernels by their short names, `mangled` by their\n"
		"mangled names.\n"
		"A kernel is matched to its call by process and correlation id;\n"
		"CUDA backtrace records are not calls (nsys 2024.2.3 lists such\n"
		"kernels twice).  nvtx-name prefixes each kernel's name with the\n"
		"name of the innermost NVTX range around its launch, on the launching\n"
		"thread (\"range/kernel\").",
	.args = (const char *const[]){ "nvtx-name", "base", "mangled", NULL },
	.needs = nst_kexec_needs,
	.run = run,
	.flags = NST_REPORT_KERNELS | NST_REPORT_CALLS | NST_REPORT_EVENT_ROWS,
};
