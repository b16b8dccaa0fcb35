/* A part: what one export gives a recipe, its records and its ranks, made
 * from the export and sent between processes as bytes. */
#include <stdlib.h>
#include <string.h>

#include "core/strtab.h"
#include "recipe/part.h"
#include "run/run.h"

/* ---- ranks ------------------------------------------------------------------------ */

/* Inputs and units in 24 and 40 bits: a million inputs, any process id
 * or rank; +1 so that no rank is 0. */
recipe_uid recipe_uid_make(uint32_t input, int64_t unit)
{
	return (recipe_uid)((uint64_t)(input + 1u) << 40 | ((uint64_t)(unit + 1) & ((1ull << 40) - 1)));
}

/* ---- records ------------------------------------------------------------------------ */

struct nst_part *part_new(const char *spec, enum nst_ranks mode)
{
	struct nst_part *p = calloc(1, sizeof *p);
	if (p)
		p->mode = (uint8_t)mode;
	if (p && !(p->spec = strdup(spec))) {
		free(p);
		p = NULL;
	}
	return p;
}

void nst_part_free(struct nst_part *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		free(p->rec[i].vals);
	free(p->rec);
	free(p->ranks);
	free(p->spec);
	nst_arena_release(&p->arena);
	free(p);
}

bool recipe_grow(void **arr, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return true;
	size_t c = *cap ? *cap * 2 : 16;
	while (c < need)
		c *= 2;
	void *a = realloc(*arr, c * size);
	if (!a)
		return false;
	*arr = a;
	*cap = c;
	return true;
}

enum nst_status part_add_rank(struct nst_part *p, recipe_uid uid, int64_t rank, uint32_t input,
			      struct nst_error *err)
{
	for (size_t i = 0; i < p->nranks; i++)
		if (p->ranks[i].uid == uid)
			return NST_OK;
	if (!recipe_grow((void **)&p->ranks, &p->rcap, p->nranks + 1, sizeof *p->ranks))
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	p->ranks[p->nranks++] = (struct part_rank){ uid, rank, input };
	return NST_OK;
}

enum nst_status part_add_rec(struct nst_part *p, enum rec_kind kind, unsigned tab,
			     recipe_uid uid, const struct nst_cell *cells, size_t ncells,
			     struct rec **out, struct nst_error *err)
{
	if (!recipe_grow((void **)&p->rec, &p->cap, p->n + 1, sizeof *p->rec))
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	struct nst_cell *c = nst_arena_alloc(&p->arena, (ncells ? ncells : 1) * sizeof *c);
	if (!c)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < ncells; i++) {
		c[i] = cells[i];
		if (c[i].kind == NST_TEXT &&
		    !(c[i].v.s = nst_arena_strndup(&p->arena, c[i].v.s, strlen(c[i].v.s))))
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	struct rec *r = &p->rec[p->n++];
	*r = (struct rec){ .kind = (uint8_t)kind, .tab = (uint8_t)tab, .ncells = (uint16_t)ncells,
			   .uid = uid, .cells = c };
	if (kind == REC_GROUP)
		r->hash = recipe_key_hash(tab, c, ncells);
	*out = r;
	return NST_OK;
}

enum nst_status rec_push(struct rec *r, const void *vals, size_t n, struct nst_error *err)
{
	if (n == 0)
		return NST_OK;
	if (!recipe_grow((void **)&r->vals, &r->cap, r->nvals + n, sizeof *r->vals))
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	memcpy(r->vals + r->nvals, vals, n * sizeof *r->vals);
	r->nvals += n;
	return NST_OK;
}

/* ---- keys ------------------------------------------------------------------------------ */

/* Integers as little-endian bytes whatever the machine's order. */
static uint64_t fnv_i64(uint64_t h, int64_t v)
{
	unsigned char b[8];
	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)((uint64_t)v >> (8 * i));
	return nst_fnv(h, b, 8);
}

uint64_t recipe_key_hash(unsigned cls, const struct nst_cell *key, size_t nkey)
{
	uint64_t h = fnv_i64(NST_FNV_START, cls);
	for (size_t i = 0; i < nkey; i++) {
		h = fnv_i64(h, key[i].kind);
		if (key[i].kind == NST_INT)
			h = fnv_i64(h, key[i].v.i);
		else if (key[i].kind == NST_REAL) {
			int64_t bits;
			memcpy(&bits, &key[i].v.r, sizeof bits);
			h = fnv_i64(h, bits);
		} else if (key[i].kind == NST_TEXT)
			h = nst_fnv(h, key[i].v.s, strlen(key[i].v.s) + 1);
	}
	return h;
}

/* NULL, then numbers by value, then texts by their bytes. */
int recipe_cell_cmp(const struct nst_cell *a, const struct nst_cell *b)
{
	int ra = a->kind == NST_NULL ? 0 : a->kind == NST_TEXT ? 2 : 1;
	int rb = b->kind == NST_NULL ? 0 : b->kind == NST_TEXT ? 2 : 1;
	if (ra != rb)
		return ra < rb ? -1 : 1;
	if (ra == 2)
		return strcmp(a->v.s, b->v.s);
	if (ra == 0)
		return 0;
	if (a->kind == NST_INT && b->kind == NST_INT)
		return (a->v.i > b->v.i) - (a->v.i < b->v.i);
	double x = a->kind == NST_INT ? (double)a->v.i : a->v.r;
	double y = b->kind == NST_INT ? (double)b->v.i : b->v.r;
	return (x > y) - (x < y);
}

bool recipe_cells_equal(const struct nst_cell *a, const struct nst_cell *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i].kind != b[i].kind || recipe_cell_cmp(&a[i], &b[i]) != 0)
			return false;
	return true;
}

/* ---- building a part ---------------------------------------------------------------------- */

struct recipe_part {
	struct nst_part *p;
	const struct nst_recipe *recipe;
	void *args;             /* the recipe's, parsed */
	uint32_t input;
	enum nst_ranks mode;
	/* MPI_RANKS: processes (globalTid >> 24) and their ranks, by process */
	int64_t *proc, *rank;
	size_t nproc;
	/* (hash of class and key, probe) -> record: the groups of this part */
	struct nst_map groups;
	/* the last process asked for and its rank: rows come in runs */
	int64_t last_proc;
	recipe_uid last_uid;
};

const struct nst_need recipe_part_needs[] = {
	{ "MPI_RANKS", "globalTid", false }, { "MPI_RANKS", "rank", false },
	{ NULL, NULL, false },
};

struct recipe_part *recipe_part_begin(const struct nst_job *job, uint32_t input,
				      enum nst_ranks mode, struct nst_error *err)
{
	struct recipe_part *rp = calloc(1, sizeof *rp);
	if (!rp || !(rp->p = part_new(job->spec, mode)) || nst_map_init(&rp->groups, 64) < 0) {
		recipe_part_abort(rp);
		nst_fail(err, NST_ERR_NOMEM, "out of memory");
		return NULL;
	}
	rp->recipe = job->report->recipe;
	enum nst_status s = rp->recipe->args ? rp->recipe->args(job->args, job->nargs, &rp->args, err)
					     : NST_OK;
	if (s != NST_OK) {
		recipe_part_abort(rp);
		return NULL;
	}
	rp->input = input;
	rp->mode = mode;
	rp->last_proc = -1;
	return rp;
}

void recipe_part_abort(struct recipe_part *rp)
{
	if (!rp)
		return;
	nst_part_free(recipe_part_end(rp));
}

struct nst_part *recipe_part_end(struct recipe_part *rp)
{
	struct nst_part *p = rp->p;
	nst_map_release(&rp->groups);
	free(rp->args);
	free(rp->proc);
	free(rp->rank);
	free(rp);
	return p;
}

/* MPI_RANKS sorted by process; a process listed with two ranks keeps the
 * lowest. */
static void sort_ranks(int64_t *proc, int64_t *rank, size_t n)
{
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && (proc[j - 1] > proc[j] ||
					     (proc[j - 1] == proc[j] && rank[j - 1] > rank[j]));
		     j--) {
			int64_t t = proc[j];
			proc[j] = proc[j - 1], proc[j - 1] = t;
			t = rank[j];
			rank[j] = rank[j - 1], rank[j - 1] = t;
		}
}

enum nst_status recipe_part_read_ranks(struct recipe_part *rp, struct nst_events *ev_all,
				       struct nst_error *err)
{
	size_t n = 0, k = 0;
	const int64_t *gtid = NULL, *rank = NULL;
	enum nst_status s = nst_ev_rows(ev_all, "MPI_RANKS", &n, err);
	if (s == NST_OK && n)
		s = nst_ev_i64(ev_all, "MPI_RANKS", "globalTid", &gtid, err);
	if (s == NST_OK && n)
		s = nst_ev_i64(ev_all, "MPI_RANKS", "rank", &rank, err);
	if (s != NST_OK || !n || !gtid || !rank || rp->mode != NST_RANKS_AUTO)
		return s;
	rp->proc = malloc(n * sizeof *rp->proc);
	rp->rank = malloc(n * sizeof *rp->rank);
	if (!rp->proc || !rp->rank)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		if (gtid[i] != NST_NULL_I64 && rank[i] != NST_NULL_I64 && rank[i] >= 0) {
			rp->proc[k] = gtid[i] >> 24;
			rp->rank[k++] = rank[i];
		}
	sort_ranks(rp->proc, rp->rank, k);
	rp->nproc = k;
	/* every rank the export lists is a rank of the job, with rows or not */
	for (size_t i = 0; i < k; i++)
		if ((i == 0 || rp->proc[i] != rp->proc[i - 1]) &&
		    (s = part_add_rank(rp->p, recipe_uid_make(rp->input, rp->rank[i]), rp->rank[i],
				       rp->input, err)) != NST_OK)
			return s;
	return NST_OK;
}

recipe_uid recipe_rank_any(struct recipe_part *rp)
{
	recipe_uid uid = recipe_uid_make(rp->input, RECIPE_UNIT_NONE);
	struct nst_error ignored;
	return part_add_rank(rp->p, uid, RANK_NONE, rp->input, &ignored) == NST_OK ? uid : 0;
}

enum nst_status recipe_part_finish_ranks(struct recipe_part *rp, struct nst_error *err)
{
	if (rp->mode == NST_RANKS_PROCESS || (rp->mode == NST_RANKS_AUTO && rp->nproc))
		return NST_OK;
	return recipe_rank_any(rp) ? NST_OK : nst_fail(err, NST_ERR_NOMEM, "out of memory");
}

static int64_t mpi_rank_of(const struct recipe_part *rp, int64_t proc)
{
	size_t lo = 0, hi = rp->nproc;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (rp->proc[mid] < proc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < rp->nproc && rp->proc[lo] == proc ? rp->rank[lo] : RANK_NONE;
}

recipe_uid recipe_rank_of(struct recipe_part *rp, int64_t gtid)
{
	int64_t proc = gtid == NST_NULL_I64 ? -1 : gtid >> 24;
	if (proc == rp->last_proc && rp->last_uid)
		return rp->last_uid;
	recipe_uid uid = 0;
	struct nst_error ignored;
	int64_t rank = rp->mode == NST_RANKS_AUTO && proc >= 0 ? mpi_rank_of(rp, proc) : RANK_NONE;
	if (rank != RANK_NONE)
		uid = recipe_uid_make(rp->input, rank);
	else if (rp->mode == NST_RANKS_PROCESS && proc >= 0) {
		int64_t pid = proc & 0xFFFFFF;
		uid = recipe_uid_make(rp->input, pid);
		if (part_add_rank(rp->p, uid, RANK_NONE, rp->input, &ignored) != NST_OK)
			uid = 0;
	} else
		uid = recipe_rank_any(rp);
	rp->last_proc = proc;
	rp->last_uid = uid;
	return uid;
}

enum nst_status recipe_group(struct recipe_part *rp, unsigned cls, const struct nst_cell *key,
			     size_t nkey, recipe_uid uid, size_t *handle, struct nst_error *err)
{
	uint64_t h = recipe_key_hash(cls, key, nkey) ^ (uint64_t)uid * 0x9E3779B97F4A7C15ull;
	for (int64_t probe = 0;; probe++) {
		uint32_t at;
		bool inserted;
		if (nst_map_get_or_put(&rp->groups, (int64_t)h, probe, (uint32_t)rp->p->n, &at,
				       &inserted) < 0)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		if (inserted) {
			struct rec *r;
			enum nst_status s = part_add_rec(rp->p, REC_GROUP, cls, uid, key, nkey, &r, err);
			*handle = at;
			return s;
		}
		const struct rec *r = &rp->p->rec[at];
		if (r->tab == cls && r->uid == uid && r->ncells == nkey &&
		    recipe_cells_equal(r->cells, key, nkey)) {
			*handle = at;
			return NST_OK;
		}
	}
}

enum nst_status recipe_push(struct recipe_part *rp, size_t handle, const int64_t *vals, size_t n,
			    struct nst_error *err)
{
	return rec_push(&rp->p->rec[handle], vals, n, err);
}

enum nst_status recipe_row(struct recipe_part *rp, unsigned tab, recipe_uid uid,
			   const struct nst_cell *cells, struct nst_error *err)
{
	const char *cols[RECIPE_MAX_COLS];
	size_t ncols = recipe_columns(rp->recipe, tab, rp->args, cols);
	struct rec *rec;
	return part_add_rec(rp->p, REC_ROW, tab, uid, cells, ncols, &rec, err);
}

const void *recipe_part_args(const struct recipe_part *rp)
{
	return rp->args;
}
