#include "reports/kernel_names.h"
#include "reports/kern_exec.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/resize.h"

const struct nst_need nst_kexec_needs[] = {
	NST_CALL_NEEDS,
	NST_CALL_ID_NEEDS,
	{ KERNEL, "start", false }, { KERNEL, "end", false },
	{ KERNEL, "deviceId", false }, { KERNEL, "correlationId", false },
	{ KERNEL, "globalPid", false }, { KERNEL, "demangledName", false },
	{ KERNEL, "gridX", false }, { KERNEL, "gridY", false }, { KERNEL, "gridZ", false },
	{ KERNEL, "blockX", false }, { KERNEL, "blockY", false }, { KERNEL, "blockZ", false },
	{ NULL, NULL, false },
};

enum nst_status nst_kexec_check(struct nst_ctx *ctx, struct nst_error *err)
{
	enum nst_status strings = nst_require_strings(ctx, err);
	if (strings != NST_OK)
		return strings;
	if (!nst_db_has_table(ctx->db, KERNEL))
		return nst_nodata(ctx, err, "CUDA kernel data.");
	if (!nst_db_has_table(ctx->db, RUNTIME))
		return nst_nodata(ctx, err, "CUDA API data.");
	return NST_OK;
}

static enum nst_status load_kernels(struct nst_ctx *ctx, struct nst_kexec *j,
				    size_t *nk, const struct nst_col **corr,
				    const struct nst_col **gpid, struct nst_error *err)
{
	static const char *const gcol[3] = { "gridX", "gridY", "gridZ" };
	static const char *const bcol[3] = { "blockX", "blockY", "blockZ" };
	enum nst_status s = nst_ev_rows(ctx->ev, KERNEL, nk, err);
	if (!s) s = nst_ev_i64(ctx->ev, KERNEL, "start", &j->kstart, err);
	if (!s) s = nst_ev_i64(ctx->ev, KERNEL, "end", &j->kend, err);
	if (!s) s = nst_ev_col(ctx->ev, KERNEL, "deviceId", &j->device, err);
	if (!s) s = nst_ev_col(ctx->ev, KERNEL, "correlationId", corr, err);
	if (!s) s = nst_ev_col(ctx->ev, KERNEL, "globalPid", gpid, err);
	for (int d = 0; d < 3 && !s; d++) {
		s = nst_ev_col(ctx->ev, KERNEL, gcol[d], &j->grid[d], err);
		if (!s)
			s = nst_ev_col(ctx->ev, KERNEL, bcol[d], &j->block[d], err);
	}
	if (!s)
		s = nst_report_kernel_name_ids(ctx, &j->kname, err);
	if (s == NST_OK && (!j->kstart || !j->kend || !*corr))
		return nst_fail(err, NST_ERR_DB, "%s: %s lacks start, end or correlationId",
				nst_db_path(ctx->db), KERNEL);
	return s;
}

/* Exports that predate KERNEL.globalPid (or fixtures that drop it) still
 * name their process when every call comes from one process. */
static enum nst_status sole_process(struct nst_ctx *ctx, const struct nst_calls *c,
				    int64_t *gpid, struct nst_error *err)
{
	*gpid = NST_NULL_I64;
	for (size_t k = 0; c->gtid && k < c->ncalls; k++) {
		int64_t g = nst_col_at(c->gtid, nst_call_row(c, k));
		if (g == NST_NULL_I64)
			continue;
		if (*gpid != NST_NULL_I64 && *gpid != nst_gpid(g))
			return nst_fail(err, NST_ERR_NODATA,
					"%s does not contain 'globalPid' column in %s.",
					nst_db_path(ctx->db), KERNEL);
		*gpid = nst_gpid(g);
	}
	return NST_OK;
}

/* The call of kernel k (-1: none): the first of its chain. */
static int64_t call_of(struct nst_ctx *ctx, size_t k, const struct nst_col *corr,
		       const struct nst_col *gpid, int64_t sole)
{
	return nst_calls_find(ctx, gpid ? nst_col_at(gpid, k) : sole, nst_col_at(corr, k));
}

/* Appends a pair for each call of kernel row k; arrays sized to the
 * kernels first (a kernel has one call as a rule) grow where calls share
 * a key. */
static int add_pairs(struct nst_ctx *ctx, struct nst_kexec *j, size_t *cap, size_t k,
		     const struct nst_col *corr, const struct nst_col *gpid, int64_t sole,
		     const uint32_t *next)
{
	for (int64_t r = call_of(ctx, k, corr, gpid, sole); r >= 0; r = nst_calls_next(next, r)) {
		if (j->n == *cap) {
			*cap *= 2;
			if (NST_RESIZE(j->krow, *cap) || NST_RESIZE(j->rrow, *cap))
				return -1;
		}
		j->krow[j->n] = (uint32_t)k;
		j->rrow[j->n++] = (uint32_t)r;
	}
	return 0;
}

enum nst_status nst_kexec_join(struct nst_ctx *ctx, struct nst_kexec *j,
			       struct nst_error *err)
{
	memset(j, 0, sizeof *j);
	size_t nk;
	const struct nst_col *corr, *gpid;
	const uint32_t *next;
	int64_t sole = NST_NULL_I64;
	enum nst_status s = nst_calls_ids(ctx, &j->calls, err);
	if (!s) s = nst_calls_chain(ctx, &next, err);
	if (!s) s = load_kernels(ctx, j, &nk, &corr, &gpid, err);
	if (!s && !gpid) s = sole_process(ctx, j->calls, &sole, err);
	if (s != NST_OK)
		return s;
	size_t cap = nk ? nk : 1;
	int rc = NST_RESIZE(j->krow, cap) || NST_RESIZE(j->rrow, cap) ||
		 nst_map_init(&j->dims_index, 16) != 0;
	for (size_t k = 0; !rc && k < nk; k++)
		rc = add_pairs(ctx, j, &cap, k, corr, gpid, sole, next);
	if (rc) {
		nst_kexec_release(j);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory joining kernels to calls");
	}
	return NST_OK;
}

void nst_kexec_release(struct nst_kexec *j)
{
	free(j->krow);
	free(j->rrow);
	free(j->dims_text);
	nst_map_release(&j->dims_index);
	memset(j, 0, sizeof *j);
}

struct nst_kexec_times nst_kexec_times_of(const struct nst_kexec *j, size_t i)
{
	uint32_t k = j->krow[i], r = j->rrow[i];
	int64_t rstart = j->calls->start[r], rend = j->calls->end[r];
	int64_t queue = j->kstart[k] - rend;
	return (struct nst_kexec_times){
		.api = rend - rstart,
		.queue = queue >= 0 ? queue : NST_NULL_I64,
		.kernel = j->kend[k] - j->kstart[k],
		.total = (rend > j->kend[k] ? rend : j->kend[k]) - rstart,
	};
}

/* printf('%d') of SQL NULL prints 0. */
static int64_t dim_at(const struct nst_col *col, uint32_t row)
{
	int64_t v = nst_col_or_null(col, row);
	return v != NST_NULL_I64 ? v : 0;
}

static const char *dims_text(struct nst_ctx *ctx, struct nst_kexec *j,
			     const struct nst_col *const col[3], uint32_t krow)
{
	int64_t x = dim_at(col[0], krow), y = dim_at(col[1], krow), z = dim_at(col[2], krow);
	/* Dimensions fit 32 bits, so (x, y) packs into one key and z is the other. */
	int64_t a = (int64_t)(((uint64_t)x << 32) ^ (uint64_t)(uint32_t)y);
	uint32_t idx;
	bool fresh;
	if (nst_map_get_or_put(&j->dims_index, a, z, (uint32_t)j->ndims, &idx, &fresh))
		return NULL;
	if (!fresh)
		return j->dims_text[idx];
	const char **p = realloc(j->dims_text, (j->ndims + 1) * sizeof *p);
	if (!p)
		return NULL;
	j->dims_text = p;
	p[j->ndims] = nst_arena_printf(ctx->arena, "%4" PRId64 " %4" PRId64 " %4" PRId64,
				       x, y, z);
	return p[j->ndims++];
}

const char *nst_kexec_grid(struct nst_ctx *ctx, struct nst_kexec *j, uint32_t krow)
{
	return dims_text(ctx, j, j->grid, krow);
}

const char *nst_kexec_block(struct nst_ctx *ctx, struct nst_kexec *j, uint32_t krow)
{
	return dims_text(ctx, j, j->block, krow);
}
