#include "reports/um.h"

#include <stdlib.h>

#include "core/sqlstat.h"
#include "core/search.h"

static int cmp_addr(const void *a, const void *b)
{
	int64_t x = ((const struct nst_um_addr *)a)->addr;
	int64_t y = ((const struct nst_um_addr *)b)->addr;
	return (x > y) - (x < y);
}

/* Sorts the n entries of src by address (NST_NULL_I64, the smallest
 * value, puts NULL first as SQL does), folds equal addresses and totals
 * them; false when a sum does not fit 64 bits. */
static bool fold(struct nst_um_source *src)
{
	if (src->n == 0)
		return true;
	qsort(src->a, src->n, sizeof *src->a, cmp_addr);
	size_t k = 0;
	for (size_t i = 1; i < src->n; i++) {
		struct nst_um_addr *g = &src->a[k], *e = &src->a[i];
		if (e->addr != g->addr) {
			src->a[++k] = *e;
			continue;
		}
		g->rows += e->rows;
		if (!nst_add_i64(&g->sum, e->sum) || !nst_add_i64(&g->dur, e->dur))
			return false;
	}
	src->n = k + 1;
	for (size_t i = 0; i < src->n; i++)
		if (!nst_add_i64(&src->total, src->a[i].sum))
			return false;
	return true;
}

static enum nst_status alloc_sources(struct nst_um *um, const size_t *cap,
				     struct nst_error *err)
{
	for (int s = 0; s < NST_UM_SOURCES; s++) {
		um->src[s].a = malloc((cap[s] ? cap[s] : 1) * sizeof *um->src[s].a);
		if (!um->src[s].a)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	return NST_OK;
}

static void add(struct nst_um_source *src, int64_t addr, int64_t sum, int64_t dur)
{
	src->a[src->n++] = (struct nst_um_addr){ addr, 1, sum, dur };
}

/* A column the export lacks (virtualAddress before it existed) reads as
 * NULL. */
static int64_t at(const int64_t *col, size_t i)
{
	return col ? col[i] : NST_NULL_I64;
}

static enum nst_status read_migrations(struct nst_ctx *ctx, struct nst_um *um,
				       struct nst_error *err)
{
	size_t n;
	const int64_t *bytes, *kind, *addr;
	struct nst_span dur;
	enum nst_status s = nst_ev_rows(ctx->ev, MEMCPY, &n, err);
	if (!s) s = nst_ev_durations(ctx->ev, MEMCPY, &dur, err);
	if (!s) s = nst_ev_i64(ctx->ev, MEMCPY, "bytes", &bytes, err);
	if (!s) s = nst_ev_i64(ctx->ev, MEMCPY, "copyKind", &kind, err);
	if (!s) s = nst_ev_i64(ctx->ev, MEMCPY, "virtualAddress", &addr, err);
	if (s != NST_OK)
		return s;
	if (nst_span_none(&dur) || !bytes || !kind)
		return nst_fail(err, NST_ERR_DB, "%s: %s lacks start, end, bytes or copyKind",
				nst_db_path(ctx->db), MEMCPY);
	for (size_t i = 0; i < n; i++) {
		if (kind[i] == NST_UM_HTOD)
			add(&um->src[NST_UM_H2D], at(addr, i), bytes[i], nst_span_at(&dur, i));
		else if (kind[i] == NST_UM_DTOH)
			add(&um->src[NST_UM_D2H], at(addr, i), bytes[i], nst_span_at(&dur, i));
	}
	return NST_OK;
}

static enum nst_status read_faults(struct nst_ctx *ctx, struct nst_um *um,
				   struct nst_error *err)
{
	size_t ncpu, ngpu;
	const int64_t *cpu_addr, *gpu_addr, *faults;
	enum nst_status s = nst_ev_rows(ctx->ev, UM_CPU_FAULTS, &ncpu, err);
	if (!s) s = nst_ev_i64(ctx->ev, UM_CPU_FAULTS, "address", &cpu_addr, err);
	if (!s) s = nst_ev_rows(ctx->ev, UM_GPU_FAULTS, &ngpu, err);
	if (!s) s = nst_ev_i64(ctx->ev, UM_GPU_FAULTS, "address", &gpu_addr, err);
	if (!s) s = nst_ev_i64(ctx->ev, UM_GPU_FAULTS, "numberOfPageFaults", &faults, err);
	if (s != NST_OK)
		return s;
	for (size_t i = 0; i < ncpu; i++)
		add(&um->src[NST_UM_CPU], at(cpu_addr, i), 1, 0);
	for (size_t i = 0; i < ngpu; i++)
		add(&um->src[NST_UM_GPU], at(gpu_addr, i), faults && faults[i] != NST_NULL_I64 ? faults[i] : 0, 0);
	return NST_OK;
}

const char *const nst_um_tables[] = { MEMCPY, UM_CPU_FAULTS, UM_GPU_FAULTS, NULL };

static enum nst_status check_tables(struct nst_ctx *ctx, struct nst_error *err)
{
	if (!nst_db_has_table(ctx->db, MEMCPY))
		return nst_nodata(ctx, err, "CUDA memory transfers data.");
	if (!nst_db_has_table(ctx->db, UM_CPU_FAULTS))
		return nst_nodata(ctx, err, "CUDA Unified Memory CPU page faults data.");
	if (!nst_db_has_table(ctx->db, UM_GPU_FAULTS))
		return nst_nodata(ctx, err, "CUDA Unified Memory GPU page faults data.");
	return NST_OK;
}

enum nst_status nst_um_load(struct nst_ctx *ctx, struct nst_um *um, struct nst_error *err)
{
	*um = (struct nst_um){ 0 };
	enum nst_status s = check_tables(ctx, err);
	size_t nmem = 0, ncpu = 0, ngpu = 0;
	if (!s) s = nst_ev_rows(ctx->ev, MEMCPY, &nmem, err);
	if (!s) s = nst_ev_rows(ctx->ev, UM_CPU_FAULTS, &ncpu, err);
	if (!s) s = nst_ev_rows(ctx->ev, UM_GPU_FAULTS, &ngpu, err);
	const size_t cap[NST_UM_SOURCES] = { ncpu, ngpu, nmem, nmem };
	if (!s) s = alloc_sources(um, cap, err);
	if (!s) s = read_migrations(ctx, um, err);
	if (!s) s = read_faults(ctx, um, err);
	if (s != NST_OK) {
		nst_um_release(um);
		return s;
	}
	for (int k = 0; k < NST_UM_SOURCES; k++) {
		if (!fold(&um->src[k])) {
			nst_um_release(um);
			return nst_fail_sum(err);
		}
	}
	return NST_OK;
}

void nst_um_release(struct nst_um *um)
{
	for (int k = 0; k < NST_UM_SOURCES; k++)
		free(um->src[k].a);
	*um = (struct nst_um){ 0 };
}

const struct nst_um_addr *nst_um_find(const struct nst_um_source *src, int64_t addr)
{
	if (addr == NST_NULL_I64)
		return NULL;
	size_t lo = nst_lower_bound(src->a, src->n, sizeof *src->a,
				    offsetof(struct nst_um_addr, addr), addr);
	return lo < src->n && src->a[lo].addr == addr ? &src->a[lo] : NULL;
}
