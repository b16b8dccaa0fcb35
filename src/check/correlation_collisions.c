/* correlationIds that calls of two or more processes use.  CUPTI numbers
 * calls per process, so in a capture of several processes the same id
 * comes back; a join on correlationId alone (as some scripts do) then
 * pairs a GPU row with another process's call.  nstats joins on (process,
 * correlationId). */
#include <stdlib.h>
#include <string.h>

#include "check/launches.h"
#include "core/big.h"
#include "core/search.h"

struct use {
	int64_t corr, proc;
	uint32_t row;
};

/* The runtime rows that are calls with an id and a process. */
struct calls {
	size_t n;
	const struct nst_col *cls, *chain, *gtid, *corr, *rowid;
};

static bool is_use(const struct calls *c, size_t i)
{
	int64_t id = nst_col_at(c->corr, i);
	return !chk_is_backtrace(c->cls, c->chain, i) && id != NST_NULL_I64 && id != 0 &&
	       nst_col_at(c->gtid, i) != NST_NULL_I64;
}

#define SHARING "calls sharing those ids"
#define NOTE "nstats pairs calls and GPU rows by (process, correlationId); a join on " \
	     "correlationId alone pairs these wrong"

/* An id that collides as an example row (chk_example keeps the first). */
static void note_example(const struct calls *c, struct chk_result *r, int64_t corr, uint32_t row,
			 int64_t procs, int64_t calls, int64_t first, int64_t other)
{
	struct chk_example *e = chk_example(r, CHK_RUNTIME, chk_at(c->rowid, row));
	chk_num(e, "correlationId", corr);
	chk_num(e, "processes", procs);
	chk_num(e, "calls", calls);
	chk_num(e, "first globalPid", first);
	if (other != NST_NULL_I64)
		chk_num(e, "other globalPid", other);
}

static void note_id(const struct calls *c, struct chk_result *r, int64_t corr, uint32_t row,
		    int64_t procs, int64_t calls, int64_t first, int64_t other)
{
	r->count++;
	chk_part_add(r, SHARING, calls);
	note_example(c, r, corr, row, procs, calls, first, other);
}

/* ---- any ids and processes: every call sorted by (id, process, row) ---- */

static int by_corr_proc(const void *a, const void *b)
{
	const struct use *x = a, *y = b;
	if (x->corr != y->corr) return x->corr < y->corr ? -1 : 1;
	if (x->proc != y->proc) return x->proc < y->proc ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

static void count_group(const struct calls *c, struct chk_result *r, const struct use *u,
			size_t n)
{
	int64_t procs = 1, other = NST_NULL_I64;
	for (size_t i = 1; i < n; i++)
		if (u[i].proc != u[i - 1].proc) {
			procs++;
			if (other == NST_NULL_I64)
				other = u[i].proc;
		}
	if (procs > 1)
		note_id(c, r, u[0].corr, u[0].row, procs, (int64_t)n, u[0].proc, other);
}

static enum nst_status sorted_ids(struct chk_result *r, const struct calls *c,
				  struct nst_error *err)
{
	struct use *u = nst_big_alloc(c->n, sizeof *u);
	if (!u)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	size_t n = 0;
	for (size_t i = 0; i < c->n; i++)
		if (is_use(c, i))
			u[n++] = (struct use){ nst_col_at(c->corr, i),
					       chk_gpid(nst_col_at(c->gtid, i)), (uint32_t)i };
	qsort(u, n, sizeof *u, by_corr_proc);
	for (size_t g = 0, end; g < n; g = end) {
		for (end = g + 1; end < n && u[end].corr == u[g].corr; end++)
			;
		count_group(c, r, &u[g], end - g);
	}
	free(u);
	return NST_OK;
}

/* ---- the usual capture: a few processes, ids dense over a range ---------- */

#define MAX_PROCS 64

/* Ids over [lo, lo + span): per id, the set of processes (bit p for the
 * p-th smallest process; a byte for up to 8 processes, the usual capture,
 * else 8) and the number of calls in a byte, SATURATED from 255 on (then
 * counted again row by row): 2 bytes an id, where 12 were 160 MB of
 * fresh memory at 10M launches.  proc[i] is row i's process as that
 * bit's index, NOT_USE for a row that is no use: the columns are read
 * once, for the range, and the later passes read ids and these bytes only. */
#define NOT_USE 0xFF
#define SATURATED 0xFF

struct dense {
	int64_t procs[MAX_PROCS];
	size_t nprocs;
	int64_t lo;
	size_t span;
	uint8_t *proc;
	uint8_t *mask8;   /* nprocs <= 8 */
	uint64_t *mask64; /* otherwise */
	uint8_t *calls;
};

static uint64_t mask_at(const struct dense *d, size_t at)
{
	return d->mask8 ? d->mask8[at] : d->mask64[at];
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* The slot of process p among those seen (in order of first sight), or
 * NOT_USE when there are MAX_PROCS already. */
static uint8_t proc_slot(struct dense *d, int64_t p, int64_t *last, uint8_t *last_slot)
{
	if (p == *last)
		return *last_slot;
	size_t k = 0;
	while (k < d->nprocs && d->procs[k] != p)
		k++;
	if (k == d->nprocs) {
		if (d->nprocs == MAX_PROCS)
			return NOT_USE;
		d->procs[d->nprocs++] = p;
	}
	*last = p;
	*last_slot = (uint8_t)k;
	return (uint8_t)k;
}

/* Slots renumbered so that slot k is the k-th smallest process. */
static void sort_procs(struct dense *d, size_t n)
{
	int64_t seen[MAX_PROCS];
	uint8_t rank[MAX_PROCS];
	memcpy(seen, d->procs, d->nprocs * sizeof *seen);
	qsort(d->procs, d->nprocs, sizeof *d->procs, cmp_i64);
	for (size_t k = 0; k < d->nprocs; k++)
		rank[k] = (uint8_t)nst_lower_bound(d->procs, d->nprocs, sizeof *d->procs, 0, seen[k]);
	for (size_t i = 0; i < n; i++)
		if (d->proc[i] != NOT_USE)
			d->proc[i] = rank[d->proc[i]];
}

/* The processes and the id range; false when they do not fit the dense
 * arrays (too many processes, or ids spread over more than 4 slots a call). */
static bool dense_fits(const struct calls *c, struct dense *d)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN, last = NST_NULL_I64;
	uint8_t last_slot = 0;
	size_t uses = 0;
	for (size_t i = 0; i < c->n; i++) {
		d->proc[i] = NOT_USE;
		if (!is_use(c, i))
			continue;
		int64_t id = nst_col_at(c->corr, i);
		uint8_t slot = proc_slot(d, chk_gpid(nst_col_at(c->gtid, i)), &last, &last_slot);
		if (slot == NOT_USE)
			return false;
		d->proc[i] = slot;
		lo = id < lo ? id : lo;
		hi = id > hi ? id : hi;
		uses++;
	}
	if (uses == 0 || (uint64_t)hi - (uint64_t)lo >= 4 * (uint64_t)uses + 1024)
		return false;
	sort_procs(d, c->n);
	d->lo = lo;
	d->span = (size_t)((uint64_t)hi - (uint64_t)lo) + 1;
	return true;
}

static size_t id_at(const struct calls *c, const struct dense *d, size_t i)
{
	return (size_t)((uint64_t)nst_col_at(c->corr, i) - (uint64_t)d->lo);
}

/* The examples: the first ids that collide; for each, its number of
 * calls and its first call (by row) in the process that the sort by (id,
 * process, row) would put first, its lowest. */
struct examples {
	size_t n;
	int64_t id[CHK_MAX_EXAMPLES], calls[CHK_MAX_EXAMPLES];
	uint32_t row[CHK_MAX_EXAMPLES];
};

static bool collides(const struct dense *d, size_t at)
{
	return __builtin_popcountll(mask_at(d, at)) >= 2;
}

/* The example whose id is at (x->id[k] == lo + at), or x->n. */
static size_t example_of(const struct examples *x, const struct dense *d, size_t at)
{
	size_t k = 0;
	while (k < x->n && x->id[k] != d->lo + (int64_t)at)
		k++;
	return k;
}

/* The examples' rows; ids past the examples' (the smallest colliding
 * ones) are skipped, and the pass ends when each has its row. */
static void example_rows(const struct calls *c, const struct dense *d, struct examples *x)
{
	size_t found = 0, top = x->n ? (size_t)(x->id[x->n - 1] - d->lo) : 0;
	for (size_t k = 0; k < x->n; k++)
		x->row[k] = UINT32_MAX;
	for (size_t i = 0; i < c->n && found < x->n; i++) {
		size_t at = d->proc[i] == NOT_USE ? SIZE_MAX : id_at(c, d, i);
		size_t k = at <= top ? example_of(x, d, at) : x->n;
		if (k < x->n && x->row[k] == UINT32_MAX &&
		    d->proc[i] == __builtin_ctzll(mask_at(d, at))) {
			x->row[k] = (uint32_t)i;
			found++;
		}
	}
}

/* The calls on colliding ids, and the examples', counted row by row:
 * where an id had SATURATED calls its byte does not say how many. */
static int64_t recount(const struct calls *c, const struct dense *d, struct examples *x)
{
	int64_t calls = 0;
	for (size_t k = 0; k < x->n; k++)
		x->calls[k] = 0;
	for (size_t i = 0; i < c->n; i++) {
		size_t at = d->proc[i] == NOT_USE ? SIZE_MAX : id_at(c, d, i);
		if (at == SIZE_MAX || !collides(d, at))
			continue;
		calls++;
		size_t k = example_of(x, d, at);
		if (k < x->n)
			x->calls[k]++;
	}
	return calls;
}

/* Every id collides in a capture of two processes that each number
 * their calls from 1: the ids are counted in one pass over the range and
 * only the first, the examples, are noted. */
static void count_dense(struct chk_result *r, const struct calls *c, const struct dense *d)
{
	struct examples x = { .n = 0 };
	int64_t colliding = 0, calls = 0;
	bool saturated = false;
	for (size_t at = 0; at < d->span; at++) {
		if (!collides(d, at))
			continue;
		if (x.n < CHK_MAX_EXAMPLES) {
			x.id[x.n] = d->lo + (int64_t)at;
			x.calls[x.n++] = d->calls[at];
		}
		colliding++;
		calls += d->calls[at];
		saturated |= d->calls[at] == SATURATED;
	}
	if (saturated)
		calls = recount(c, d, &x);
	example_rows(c, d, &x);
	for (size_t k = 0; k < x.n; k++) {
		uint64_t m = mask_at(d, (size_t)(x.id[k] - d->lo));
		note_example(c, r, x.id[k], x.row[k], __builtin_popcountll(m), x.calls[k],
			     d->procs[__builtin_ctzll(m)], d->procs[__builtin_ctzll(m & (m - 1))]);
	}
	r->count += colliding;
	if (colliding > 0)
		chk_part_add(r, SHARING, calls);
}

static enum nst_status dense_ids(struct chk_result *r, const struct calls *c, struct dense *d,
				 struct nst_error *err)
{
	if (d->nprocs <= 8)
		d->mask8 = nst_big_zalloc(d->span, sizeof *d->mask8);
	else
		d->mask64 = nst_big_zalloc(d->span, sizeof *d->mask64);
	d->calls = nst_big_zalloc(d->span, sizeof *d->calls);
	enum nst_status s = NST_OK;
	if ((!d->mask8 && !d->mask64) || !d->calls) {
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	} else {
		for (size_t i = 0; i < c->n; i++) {
			if (d->proc[i] == NOT_USE)
				continue;
			size_t at = id_at(c, d, i);
			if (d->mask8)
				d->mask8[at] |= (uint8_t)(1u << d->proc[i]);
			else
				d->mask64[at] |= 1ull << d->proc[i];
			d->calls[at] += d->calls[at] != SATURATED;
		}
		count_dense(r, c, d);
	}
	free(d->mask8);
	free(d->mask64);
	free(d->calls);
	return s;
}

/* ---- from the pairing's index of calls -------------------------------------- */

/* A process of the index of calls by (process, correlationId) that the
 * pairing of GPU rows keeps (check/launches.h), its ids dense. */
struct indexed {
	int64_t process, lo, hi;
	const uint32_t *row;
};

static bool has_id(const struct indexed *p, int64_t id)
{
	return id >= p->lo && id <= p->hi && p->row[(uint64_t)id - (uint64_t)p->lo] != UINT32_MAX;
}

static int by_process(const void *a, const void *b)
{
	const struct indexed *x = a, *y = b;
	return (x->process > y->process) - (x->process < y->process);
}

/* A colliding id: its processes, its call in the lowest of them, and
 * the two lowest. */
struct found {
	int64_t id, procs, first, other;
	uint32_t row;
};

/* Keeps the CHK_MAX_EXAMPLES smallest ids, in order. */
static void keep_smallest(struct found *ex, size_t *n, struct found f)
{
	size_t at = *n < CHK_MAX_EXAMPLES ? (*n)++ : CHK_MAX_EXAMPLES;
	for (; at > 0 && ex[at - 1].id > f.id; at--)
		if (at < CHK_MAX_EXAMPLES)
			ex[at] = ex[at - 1];
	if (at < CHK_MAX_EXAMPLES)
		ex[at] = f;
}

/* The id at of process k, when it collides and k is its lowest process. */
static bool collision_at(const struct indexed *p, size_t n, size_t k, uint64_t at,
			 struct found *f)
{
	int64_t id = (int64_t)((uint64_t)p[k].lo + at);
	if (id == 0 || p[k].row[at] == UINT32_MAX)
		return false;
	for (size_t j = 0; j < k; j++)
		if (has_id(&p[j], id))
			return false; /* met at its lowest process */
	*f = (struct found){ .id = id, .procs = 1, .first = p[k].process, .other = NST_NULL_I64,
			     .row = p[k].row[at] };
	for (size_t q = k + 1; q < n; q++)
		if (has_id(&p[q], id)) {
			f->procs++;
			if (f->other == NST_NULL_I64)
				f->other = p[q].process;
		}
	return f->procs > 1;
}

/* Where the pairing was built already (the findings before this one)
 * with every call of a process on an id of its own and each process's
 * ids dense, its index answers in one pass over each process's ids, the
 * columns unread.  false when it does not apply. */
static bool from_index(const struct chk_ctx *ctx, struct chk_result *r, const struct calls *c)
{
	const struct chk_launches *l = ctx->launches;
	if (!l || !l->calls_by_process || l->calls.ndups || l->calls.nprocs > MAX_PROCS)
		return false;
	struct indexed p[MAX_PROCS];
	size_t n = l->calls.nprocs;
	for (size_t k = 0; k < n; k++)
		if (!nst_corrindex_dense(&l->calls, k, &p[k].process, &p[k].lo, &p[k].hi, &p[k].row))
			return false;
	qsort(p, n, sizeof *p, by_process);
	struct found ex[CHK_MAX_EXAMPLES], f;
	size_t nex = 0;
	int64_t colliding = 0, calls = 0;
	for (size_t k = 0; n > 1 && k < n; k++)
		for (uint64_t at = 0; at <= (uint64_t)p[k].hi - (uint64_t)p[k].lo; at++)
			if (collision_at(p, n, k, at, &f)) {
				colliding++;
				calls += f.procs;
				keep_smallest(ex, &nex, f);
			}
	for (size_t i = 0; i < nex; i++)
		note_example(c, r, ex[i].id, ex[i].row, ex[i].procs, ex[i].procs, ex[i].first,
			     ex[i].other);
	r->count += colliding;
	if (colliding > 0)
		chk_part_add(r, SHARING, calls);
	return true;
}

static enum nst_status run(struct chk_ctx *ctx, struct chk_result *r,
			   struct nst_error *err)
{
	if (chk_lacks(ctx, r, CHK_RUNTIME))
		return NST_OK;
	struct calls c;
	enum nst_status s = chk_rows(ctx, CHK_RUNTIME, &c.n, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "eventClass", &c.cls, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "callchainId", &c.chain, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "globalTid", &c.gtid, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "correlationId", &c.corr, err);
	if (!s) s = chk_col(ctx, CHK_RUNTIME, "rowid", &c.rowid, err);
	if (s || !c.corr || !c.gtid)
		return s;
	if (from_index(ctx, r, &c)) {
		if (r->count > 0)
			r->note = NOTE;
		return NST_OK;
	}
	struct dense d = { .nprocs = 0, .proc = nst_big_alloc(c.n, 1) };
	if (!d.proc)
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	else if (!dense_fits(&c, &d))
		s = sorted_ids(r, &c, err);
	else if (d.nprocs > 1)
		s = dense_ids(r, &c, &d, err);
	free(d.proc);
	if (r->count > 0)
		r->note = NOTE;
	return s;
}

const struct chk_finding chk_correlation_collisions = {
	.name = "correlation_collisions",
	.title = "correlationIds used by calls of two or more processes",
	.help = "Distinct non-zero correlationIds of runtime rows (backtrace records are\n"
		"not calls) whose globalTids belong to 2 or more processes.  Harmless to\n"
		"nstats, which keys on (process, correlationId); wrong in any tool that\n"
		"joins on correlationId alone.",
	.affects = "joins on correlationId alone (outside nstats)",
	.informational = true,
	.want = chk_want_calls,
	.run = run,
};
