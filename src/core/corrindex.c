#include "core/corrindex.h"
#include "core/big.h"
#include "core/resize.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct corr_proc {
	int64_t process;
	int64_t lo, hi; /* id range */
	size_t count;
	uint32_t *row;  /* hi - lo + 1 entries; NULL when sparse */
};

enum { NONE = UINT32_MAX };

static struct corr_proc *proc_of(struct nst_corrindex *x, int64_t process)
{
	size_t last = atomic_load_explicit(&x->last, memory_order_relaxed);
	if (last < x->nprocs && x->procs[last].process == process)
		return &x->procs[last];
	for (size_t p = 0; p < x->nprocs; p++)
		if (x->procs[p].process == process) {
			atomic_store_explicit(&x->last, p, memory_order_relaxed);
			return &x->procs[p];
		}
	return NULL;
}

static struct corr_proc *add_proc(struct nst_corrindex *x, int64_t process, int64_t id)
{
	struct corr_proc *p = realloc(x->procs, (x->nprocs + 1) * sizeof *p);
	if (!p)
		return NULL;
	x->procs = p;
	size_t at = x->nprocs++;
	atomic_store_explicit(&x->last, at, memory_order_relaxed);
	p[at] = (struct corr_proc){ .process = process, .lo = id, .hi = id };
	return &p[at];
}

/* What the rows are indexed by. */
struct keys {
	const struct nst_col *process, *id;
	uint64_t mask;
};

/* Row r's process and id, or false when either is NULL. */
static bool key_of(const struct keys *k, uint32_t r, int64_t *proc, int64_t *id)
{
	int64_t p = nst_col_at(k->process, r);
	*id = nst_col_at(k->id, r);
	if (p == NST_NULL_I64 || *id == NST_NULL_I64)
		return false;
	*proc = (int64_t)((uint64_t)p & k->mask);
	return true;
}

/* First pass: the processes and the id range and count of each. */
static int survey(struct nst_corrindex *x, const struct keys *k,
		  const uint32_t *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t r = nst_row_at(rows, i);
		int64_t proc, id;
		if (!key_of(k, r, &proc, &id))
			continue;
		struct corr_proc *p = proc_of(x, proc);
		if (!p && !(p = add_proc(x, proc, id)))
			return -1;
		p->lo = id < p->lo ? id : p->lo;
		p->hi = id > p->hi ? id : p->hi;
		p->count++;
	}
	return 0;
}

/* A dense array is used when it costs at most a few slots per row. */
static int allocate(struct nst_corrindex *x)
{
	size_t sparse = 0;
	for (size_t k = 0; k < x->nprocs; k++) {
		struct corr_proc *p = &x->procs[k];
		uint64_t span = (uint64_t)p->hi - (uint64_t)p->lo + 1; /* 0: all of int64 */
		if (span != 0 && span <= 4 * (uint64_t)p->count + 4096) {
			p->row = nst_big_alloc(span, sizeof *p->row);
			if (!p->row)
				return -1;
			memset(p->row, 0xff, span * sizeof *p->row);
		} else {
			sparse += p->count;
		}
	}
	return sparse ? nst_map_init(&x->sparse, sparse) : 0;
}

static int add_dup(struct nst_corrindex *x, uint32_t row, uint32_t first)
{
	if (x->ndups == x->dups_cap) {
		size_t cap = x->dups_cap ? 2 * x->dups_cap : 64;
		if (NST_RESIZE(x->dup_row, cap) || NST_RESIZE(x->dup_first, cap))
			return -1;
		x->dups_cap = cap;
	}
	x->dup_row[x->ndups] = row;
	x->dup_first[x->ndups++] = first;
	return 0;
}

int nst_corrindex_build(struct nst_corrindex *x, const struct nst_col *process,
			uint64_t mask, const struct nst_col *id, const uint32_t *rows,
			size_t n)
{
	memset(x, 0, sizeof *x);
	const struct keys k = { process, id, mask };
	if (survey(x, &k, rows, n) || allocate(x))
		return -1;
	for (size_t i = 0; i < n; i++) {
		uint32_t r = nst_row_at(rows, i);
		int64_t proc, idr;
		if (!key_of(&k, r, &proc, &idr))
			continue;
		struct corr_proc *p = proc_of(x, proc);
		if (p->row) {
			uint32_t *slot = &p->row[(uint64_t)idr - (uint64_t)p->lo];
			if (*slot == NONE)
				*slot = r;
			else if (add_dup(x, r, *slot))
				return -1;
			continue;
		}
		uint32_t have;
		bool fresh;
		if (nst_map_get_or_put(&x->sparse, proc, idr, r, &have, &fresh) ||
		    (!fresh && add_dup(x, r, have)))
			return -1;
	}
	return 0;
}

/* Each duplicate joins the end of its first row's chain (a map from first
 * row to chain end keeps that O(1) when many rows share one key). */
int nst_corrindex_chain(const struct nst_corrindex *x, size_t nrows, uint32_t **next)
{
	size_t nfirst = 0;
	*next = NULL;
	if (x->ndups == 0)
		return 0;
	uint32_t *nx = nst_big_alloc(nrows, sizeof *nx);
	uint32_t *end = malloc(x->ndups * sizeof *end);
	struct nst_map chains = { 0 }; /* (first row, 0) -> end[] */
	int rc = !nx || !end || nst_map_init(&chains, x->ndups) ? -1 : 0;
	if (rc == 0)
		memset(nx, 0xff, (nrows ? nrows : 1) * sizeof *nx);
	for (size_t k = 0; rc == 0 && k < x->ndups; k++) {
		uint32_t at;
		bool fresh;
		rc = nst_map_get_or_put(&chains, x->dup_first[k], 0, (uint32_t)nfirst, &at, &fresh);
		if (rc == 0 && fresh)
			end[nfirst++] = x->dup_first[k];
		if (rc == 0) {
			nx[end[at]] = x->dup_row[k];
			end[at] = x->dup_row[k];
		}
	}
	nst_map_release(&chains);
	free(end);
	if (rc != 0)
		free(nx);
	else
		*next = nx;
	return rc;
}

bool nst_corrindex_dense(const struct nst_corrindex *x, size_t k, int64_t *process, int64_t *lo,
			 int64_t *hi, const uint32_t **row)
{
	const struct corr_proc *p = &x->procs[k];
	*process = p->process;
	*lo = p->lo;
	*hi = p->hi;
	*row = p->row;
	return p->row != NULL;
}

int64_t nst_corrindex_find(struct nst_corrindex *x, int64_t process, int64_t id)
{
	struct corr_proc *p = proc_of(x, process);
	if (!p || id < p->lo || id > p->hi)
		return -1;
	if (p->row) {
		uint32_t r = p->row[(uint64_t)id - (uint64_t)p->lo];
		return r == NONE ? -1 : (int64_t)r;
	}
	uint32_t r;
	return nst_map_get(&x->sparse, process, id, &r) ? (int64_t)r : -1;
}

void nst_corrindex_release(struct nst_corrindex *x)
{
	for (size_t k = 0; k < x->nprocs; k++)
		free(x->procs[k].row);
	free(x->procs);
	free(x->dup_row);
	free(x->dup_first);
	nst_map_release(&x->sparse);
	memset(x, 0, sizeof *x);
}
