/* Cells, API names and nsys's messages; struct nst_shared's life. */
#include "reports/common.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/lock.h"
#include "reports/shared.h"

struct nst_shared *nst_shared_new(void)
{
	struct nst_shared *sh = calloc(1, sizeof *sh);
	if (sh && nst_lock_init(&sh->lock) != 0) {
		free(sh);
		return NULL;
	}
	return sh;
}

static void shared_release(struct nst_shared *sh)
{
	free(sh->calls.rows);
	nst_corrindex_release(&sh->call_index);
	free((void *)sh->api_names);
	for (int i = 0; i < 3; i++) {
		free(sh->kname_ids[i]);
		free(sh->kname_nvtx_ids[i]);
		free(sh->kname_nvtx_text[i]);
	}
	nst_arena_release(&sh->arena);
	free(sh->call_next);
	for (int i = 0; i < 2; i++) {
		nst_gt_release(&sh->gt[i]);
		free(sh->gt_by_device[i]);
		free(sh->gt_dev[i]);
	}
}

void nst_shared_free(struct nst_shared *sh)
{
	if (!sh)
		return;
	shared_release(sh);
	pthread_mutex_destroy(&sh->lock);
	free(sh);
}

void nst_shared_reset(struct nst_shared *sh)
{
	shared_release(sh);
	/* all but the lock, as nst_shared_new left it */
	size_t from = offsetof(struct nst_shared, calls_loaded);
	memset((char *)sh + from, 0, sizeof *sh - from);
}

struct nst_cell nst_mid_cell(struct nst_mid m)
{
	return m.is_int ? nst_int(m.i) : nst_real(m.r);
}

/* ---- names --------------------------------------------------------------- */

static const char *strip_version(struct nst_arena *arena, const char *name)
{
	size_t len = strlen(name);
	if (len >= 6 && name[len - 6] == '_' && name[len - 5] == 'v')
		return nst_arena_strndup(arena, name, len - 6);
	return name;
}

/* The name in its slot, filled now when empty; sh's lock held. */
static const char *api_name_locked(struct nst_ctx *ctx, struct nst_shared *sh, int64_t slot,
				   int64_t id)
{
	_Atomic(const char *) *names = sh->api_names;
	if (!names) {
		size_t n = nst_db_string_slots(ctx->db);
		if (!(names = calloc(n ? n : 1, sizeof *names)))
			return strip_version(ctx->arena, nst_db_string(ctx->db, id));
		sh->napi_names = n;
		atomic_store_explicit(&sh->api_names, names, memory_order_release);
	}
	if ((size_t)slot >= sh->napi_names)
		return strip_version(ctx->arena, nst_db_string(ctx->db, id));
	const char *name = atomic_load_explicit(&names[slot], memory_order_relaxed);
	if (!name) {
		name = strip_version(&sh->arena, nst_db_string(ctx->db, id));
		atomic_store_explicit(&names[slot], name, memory_order_release);
	}
	return name;
}

const char *nst_api_name(struct nst_ctx *ctx, int64_t id)
{
	struct nst_shared *sh = ctx->shared;
	int64_t slot = nst_db_string_slot(ctx->db, id);
	if (slot < 0)
		return NULL;
	_Atomic(const char *) *names = atomic_load_explicit(&sh->api_names, memory_order_acquire);
	if (names && (size_t)slot < sh->napi_names) {
		const char *name = atomic_load_explicit(&names[slot], memory_order_acquire);
		if (name)
			return name;
	}
	pthread_mutex_lock(&sh->lock);
	const char *name = api_name_locked(ctx, sh, slot, id);
	pthread_mutex_unlock(&sh->lock);
	return name;
}

const char *nst_raw_name(struct nst_ctx *ctx, int64_t name_id)
{
	return nst_db_string(ctx->db, name_id);
}

enum nst_status nst_nodata(struct nst_ctx *ctx, struct nst_error *err,
			   const char *what)
{
	return nst_fail(err, NST_ERR_NODATA, "%s does not contain %s",
			nst_db_path(ctx->db), what);
}

enum nst_status nst_no_table(struct nst_ctx *ctx, struct nst_error *err,
			     const char *table)
{
	return nst_fail(err, NST_ERR_NODATA, "%s file does not contain %s table.",
			nst_db_path(ctx->db), table);
}

enum nst_status nst_require_strings(struct nst_ctx *ctx, struct nst_error *err)
{
	if (nst_db_has_table(ctx->db, "StringIds"))
		return NST_OK;
	return nst_no_table(ctx, err, "StringIds");
}
