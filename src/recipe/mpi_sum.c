/* mpi_sum: every MPI call's duration on every rank, by function: the
 * events of the MPI event tables that `stats -r mpi_event_sum` reads, or,
 * in an export without those tables, the NVTX ranges that MPI
 * interposers leave (the domain "MPI", or names starting "MPI_"). */
#include <string.h>

#include "recipe/shape.h"
#include "reports/mpi.h"
#include "reports/nvtx.h"

/* ---- the MPI event tables ----------------------------------------------------------- */

static const char *const tables_read[] = { MPI_P2P, MPI_COLL, MPI_START_WAIT, MPI_OTHER };
#define NTABLES (sizeof tables_read / sizeof *tables_read)

static void string_key(void *arg, int64_t id, struct nst_cell *key)
{
	const char *s = id == NST_NULL_I64 ? NULL : nst_db_string(arg, id);
	key[0] = s ? nst_text(s) : nst_null();
}

/* An event without an end has no duration: it is left out. */
static enum nst_status add_events(struct nst_ctx *ctx, struct shape_groups *sg,
				  const char *table, struct nst_error *err)
{
	size_t n = 0;
	const int64_t *start = NULL, *end = NULL, *gtid = NULL, *text = NULL;
	enum nst_status s = nst_ev_rows(ctx->ev, table, &n, err);
	if (!s) s = nst_ev_i64(ctx->ev, table, "start", &start, err);
	if (!s) s = nst_ev_i64(ctx->ev, table, "end", &end, err);
	if (!s) s = nst_ev_i64(ctx->ev, table, "globalTid", &gtid, err);
	if (!s) s = nst_ev_i64(ctx->ev, table, "textId", &text, err);
	if (s != NST_OK || !start || !end)
		return s;
	for (size_t i = 0; s == NST_OK && i < n; i++) {
		if (start[i] == NST_NULL_I64 || end[i] == NST_NULL_I64)
			continue;
		recipe_uid uid = recipe_rank_of(sg->rp, gtid ? gtid[i] : NST_NULL_I64);
		s = shape_add(sg, text ? text[i] : NST_NULL_I64, uid, end[i] - start[i],
			      string_key, 1, ctx->db, err);
	}
	return s;
}

static bool has_event_tables(struct nst_ctx *ctx)
{
	for (size_t i = 0; i < NTABLES; i++)
		if (nst_db_has_table(ctx->db, tables_read[i]))
			return true;
	return false;
}

static enum nst_status part_events(struct nst_ctx *ctx, struct shape_groups *sg,
				   struct nst_error *err)
{
	enum nst_status s = nst_require_strings(ctx, err);
	for (size_t i = 0; s == NST_OK && i < NTABLES; i++)
		if (nst_db_has_table(ctx->db, tables_read[i]))
			s = add_events(ctx, sg, tables_read[i], err);
	return s;
}

/* ---- NVTX ranges ------------------------------------------------------------------------ */

struct mpi_ranges {
	struct nst_ctx *ctx;
	const struct nst_nvtx *nv;
	struct nst_nvtx_named named;
};

/* The function a range names: its own name when its domain is "MPI" (its
 * full name is "MPI:" and its own) or its own name starts with "MPI_";
 * else NULL. */
static const char *mpi_function(const struct mpi_ranges *m, size_t k)
{
	int64_t id = nst_nvtx_name_of(&m->named, k);
	const char *base = nst_nvtx_base_name(m->ctx, m->nv, m->named.row[k]);
	if (!base || id == NST_NULL_I64)
		return NULL;
	const char *full = m->named.text[id];
	if (strncmp(base, "MPI_", 4) == 0 ||
	    (strncmp(full, "MPI:", 4) == 0 && strcmp(full + 4, base) == 0))
		return base;
	return NULL;
}

static void function_key(void *arg, int64_t k, struct nst_cell *key)
{
	key[0] = nst_text(mpi_function(arg, (size_t)k));
}

/* Keyed by the range's entry k: its function is found again from it. */
static enum nst_status add_ranges(struct shape_groups *sg, struct mpi_ranges *m,
				  struct nst_error *err)
{
	enum nst_status s = NST_OK;
	for (size_t k = 0; s == NST_OK && k < m->named.n; k++) {
		uint32_t row = m->named.row[k];
		if (!mpi_function(m, k))
			continue;
		recipe_uid uid = recipe_rank_of(sg->rp, nst_col_or_null(m->nv->gtid, row));
		s = shape_add(sg, (int64_t)k, uid, nst_nvtx_end(m->nv, row) - m->nv->start[row],
			      function_key, 1, m, err);
	}
	return s;
}

/* A range named by two domain rows (a domain created on two threads) is
 * one call: it counts once. */
static enum nst_status part_nvtx(struct nst_ctx *ctx, struct shape_groups *sg,
				 struct nst_error *err)
{
	struct nst_nvtx nv;
	struct mpi_ranges m = { .ctx = ctx, .nv = &nv };
	enum nst_status s = nst_nvtx_check(ctx, err);
	if (!s) s = nst_nvtx_load(ctx, &nv, err);
	if (!s) s = nst_nvtx_name_ranges(ctx, &nv, NST_NVTX_ALL_STYLES, &m.named, err);
	if (s != NST_OK)
		return s;
	nst_nvtx_named_once(&m.named);
	s = add_ranges(sg, &m, err);
	nst_nvtx_named_release(&m.named);
	return s;
}

/* ---- the recipe ----------------------------------------------------------------------------- */

static enum nst_status part(struct nst_ctx *ctx, struct recipe_part *rp, const void *args,
			    struct nst_error *err)
{
	(void)args;
	struct shape_groups sg;
	enum nst_status s = shape_groups_init(&sg, rp, err);
	if (s != NST_OK)
		return s;
	s = has_event_tables(ctx) ? part_events(ctx, &sg, err) : part_nvtx(ctx, &sg, err);
	shape_groups_release(&sg);
	return s;
}

SHAPE_RECIPE(recipe, part, "Function");

#define EVENT_NEEDS(table)                                                              \
	{ table, "start", false }, { table, "end", false }, { table, "globalTid", false }, \
	{ table, "textId", false }

static const struct nst_need needs[] = {
	EVENT_NEEDS(MPI_P2P), EVENT_NEEDS(MPI_COLL), EVENT_NEEDS(MPI_START_WAIT),
	EVENT_NEEDS(MPI_OTHER),
	{ NVTX, "start", false }, { NVTX, "end", false },
	{ NVTX, "eventType", false }, { NVTX, "globalTid", false },
	{ NVTX, "textId", false }, { NVTX, "domainId", false },
	{ NVTX, "text", true },
	{ NULL, NULL, false },
};

const struct nst_report nst_recipe_mpi_sum = {
	.name = "mpi_sum",
	.title = "MPI Summary",
	.help = "Every MPI function's calls on every rank, by function: instances,\n"
		"total, average, median, minimum, maximum and standard deviation of\n"
		"one call over all ranks, how many ranks called it, and the\n"
		"imbalance (the largest rank's total over the mean rank's); then the\n"
		"same per rank.  A value is one call's duration: an event of the MPI\n"
		"event tables (one without an end is left out), or, in an export\n"
		"without those tables, an NVTX range of the domain MPI or named\n"
		"MPI_* (one that never ended runs to the last NVTX timestamp).",
	.needs = needs,
	.recipe = &recipe,
};
