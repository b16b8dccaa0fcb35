/* Kernel name ids by name mode, with nvtx-name's "range/kernel" names. */
#include "reports/kernel_names.h"

#include <stdlib.h>

#include "reports/common.h"
#include "reports/nvtx_gpu.h"
#include "reports/shared.h"

enum nst_kname nst_kname_mode(const struct nst_ctx *ctx)
{
	if (nst_ctx_flag(ctx, "base"))
		return NST_KNAME_SHORT;
	if (nst_ctx_flag(ctx, "mangled"))
		return NST_KNAME_MANGLED;
	return NST_KNAME_DEMANGLED;
}

/* Where the ids of "range/kernel" names start, for each name mode: far
 * above any StringIds id. */
static int64_t nvtx_kname_base(int mode)
{
	return (INT64_C(1) << 40) * (mode + 1);
}

const char *nst_kernel_name_text(struct nst_ctx *ctx, int64_t id)
{
	struct nst_shared *sh = ctx->shared;
	if (id == NST_NULL_I64)
		return NULL;
	for (int m = 0; m < 3; m++) {
		int64_t i = id - nvtx_kname_base(m);
		if (i >= 0 && (uint64_t)i < atomic_load_explicit(&sh->nkname_nvtx_text[m],
								 memory_order_acquire))
			return sh->kname_nvtx_text[m][i];
	}
	return nst_db_string(ctx->db, id);
}

static enum nst_status kernel_name_ids_locked(struct nst_ctx *ctx, enum nst_kname mode,
					      const struct nst_col **ids, struct nst_error *err);

/* The ids of nvtx-name: the mode's ids with range names prefixed. */
static enum nst_status nvtx_kernel_name_ids_locked(struct nst_ctx *ctx, enum nst_kname mode,
					    const struct nst_col **ids, struct nst_error *err)
{
	struct nst_shared *sh = ctx->shared;
	if (!sh->kname_nvtx_ids[mode]) {
		const struct nst_col *base;
		size_t ntext = 0;
		enum nst_status s = kernel_name_ids_locked(ctx, mode, &base, err);
		if (s == NST_OK && base)
			s = nst_nvtx_kernel_names(ctx, base, nvtx_kname_base(mode), &sh->arena,
						  &sh->kname_nvtx_ids[mode],
						  &sh->kname_nvtx_text[mode], &ntext, err);
		atomic_store_explicit(&sh->nkname_nvtx_text[mode], ntext, memory_order_release);
		if (s != NST_OK || !base) {
			*ids = base;
			return s;
		}
		/* set once: what a getter handed out is read without the lock */
		sh->kname_nvtx_col[mode] = nst_col_of(sh->kname_nvtx_ids[mode]);
	}
	*ids = &sh->kname_nvtx_col[mode];
	return NST_OK;
}

static enum nst_status kernel_name_ids_locked(struct nst_ctx *ctx, enum nst_kname mode,
					      const struct nst_col **ids, struct nst_error *err)
{
	static const char *const col[] = { "demangledName", "shortName", "mangledName" };
	const struct nst_col *dem, *chosen;
	enum nst_status s = nst_ev_col(ctx->ev, KERNEL, "demangledName", &dem, err);
	if (s == NST_OK)
		s = nst_ev_col(ctx->ev, KERNEL, col[mode], &chosen, err);
	if (s != NST_OK)
		return s;
	if (mode == NST_KNAME_DEMANGLED || !chosen || !dem) {
		*ids = chosen ? chosen : dem;
		return NST_OK;
	}
	if (ctx->shared->kname_ids[mode]) {
		*ids = &ctx->shared->kname_col[mode];
		return NST_OK;
	}
	size_t n;
	if ((s = nst_ev_rows(ctx->ev, KERNEL, &n, err)) != NST_OK)
		return s;
	int64_t *out = malloc((n ? n : 1) * sizeof *out);
	if (!out)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		int64_t v = nst_col_at(chosen, i);
		out[i] = v != NST_NULL_I64 ? v : nst_col_at(dem, i);
	}
	ctx->shared->kname_ids[mode] = out;
	ctx->shared->kname_col[mode] = nst_col_of(out);
	*ids = &ctx->shared->kname_col[mode];
	return NST_OK;
}

/* Under the shared lock (shared.h). */
enum nst_status nst_kernel_name_ids(struct nst_ctx *ctx, enum nst_kname mode,
				    const struct nst_col **ids, struct nst_error *err)
{
	pthread_mutex_lock(&ctx->shared->lock);
	enum nst_status s = kernel_name_ids_locked(ctx, mode, ids, err);
	pthread_mutex_unlock(&ctx->shared->lock);
	return s;
}

enum nst_status nst_report_kernel_name_ids(struct nst_ctx *ctx, const struct nst_col **ids,
					   struct nst_error *err)
{
	enum nst_kname mode = nst_kname_mode(ctx);
	pthread_mutex_lock(&ctx->shared->lock);
	enum nst_status s = nst_ctx_flag(ctx, "nvtx-name")
				    ? nvtx_kernel_name_ids_locked(ctx, mode, ids, err)
				    : kernel_name_ids_locked(ctx, mode, ids, err);
	pthread_mutex_unlock(&ctx->shared->lock);
	return s;
}
