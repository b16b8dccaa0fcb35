/* A part as bytes, for a worker process or another machine of the same
 * byte order and back: a header, the ranks, then the records, each cell
 * and value as it is in memory.  Loading checks every length against
 * what is left, so that bytes that are no part are an error, never a
 * read past the end. */
#include <stdlib.h>
#include <string.h>

#include "recipe/part.h"

static const char MAGIC[8] = "NSTPART1";
static const uint32_t ORDER = 0x01020304u;

/* ---- writing ---------------------------------------------------------------------- */

struct out {
	unsigned char *b;
	size_t n, cap;
	bool oom;
};

static void put(struct out *o, const void *p, size_t n)
{
	if (o->oom || n == 0)
		return;
	if (o->n + n > o->cap) {
		size_t c = o->cap ? o->cap : 4096;
		while (c < o->n + n)
			c *= 2;
		unsigned char *b = realloc(o->b, c);
		if (!b) {
			o->oom = true;
			return;
		}
		o->b = b;
		o->cap = c;
	}
	memcpy(o->b + o->n, p, n);
	o->n += n;
}

static void put_u64(struct out *o, uint64_t v) { put(o, &v, sizeof v); }

static void put_text(struct out *o, const char *s)
{
	uint64_t n = strlen(s);
	put_u64(o, n);
	put(o, s, n);
}

static void put_cell(struct out *o, const struct nst_cell *c)
{
	unsigned char k = (unsigned char)c->kind;
	put(o, &k, 1);
	if (c->kind == NST_INT)
		put(o, &c->v.i, sizeof c->v.i);
	else if (c->kind == NST_REAL)
		put(o, &c->v.r, sizeof c->v.r);
	else if (c->kind == NST_TEXT)
		put_text(o, c->v.s);
}

static void put_rec(struct out *o, const struct rec *r)
{
	unsigned char head[4] = { r->kind, r->tab, (unsigned char)(r->ncells & 0xFF),
				  (unsigned char)(r->ncells >> 8) };
	put(o, head, sizeof head);
	put(o, &r->uid, sizeof r->uid);
	put_u64(o, r->nvals);
	for (size_t i = 0; i < r->ncells; i++)
		put_cell(o, &r->cells[i]);
	put(o, r->vals, r->nvals * sizeof *r->vals);
}

enum nst_status nst_part_save(const struct nst_part *p, void **buf, size_t *len,
			      struct nst_error *err)
{
	struct out o = { 0 };
	put(&o, MAGIC, sizeof MAGIC);
	put(&o, &ORDER, sizeof ORDER);
	put_text(&o, p->spec);
	put(&o, &p->mode, 1);
	put_u64(&o, p->nranks);
	for (size_t i = 0; i < p->nranks; i++) {
		put(&o, &p->ranks[i].uid, sizeof p->ranks[i].uid);
		put(&o, &p->ranks[i].rank, sizeof p->ranks[i].rank);
		put(&o, &p->ranks[i].input, sizeof p->ranks[i].input);
	}
	put_u64(&o, p->n);
	for (size_t i = 0; i < p->n; i++)
		put_rec(&o, &p->rec[i]);
	if (o.oom) {
		free(o.b);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	*buf = o.b;
	*len = o.n;
	return NST_OK;
}

/* ---- reading ---------------------------------------------------------------------- */

struct in {
	const unsigned char *b;
	size_t n, at;
	bool bad;
};

static bool get(struct in *in, void *p, size_t n)
{
	if (in->bad || n > in->n - in->at) {
		in->bad = true;
		return false;
	}
	memcpy(p, in->b + in->at, n);
	in->at += n;
	return true;
}

static uint64_t get_u64(struct in *in)
{
	uint64_t v = 0;
	get(in, &v, sizeof v);
	return v;
}

/* A count of items of at least `size` bytes each that the rest can hold. */
static uint64_t get_count(struct in *in, size_t size)
{
	uint64_t n = get_u64(in);
	if (!in->bad && n > (in->n - in->at) / size)
		in->bad = true;
	return in->bad ? 0 : n;
}

static const char *get_text(struct in *in, struct nst_arena *a)
{
	uint64_t n = get_count(in, 1);
	if (in->bad)
		return NULL;
	const char *s = (const char *)in->b + in->at;
	if (memchr(s, 0, n)) {
		in->bad = true;
		return NULL;
	}
	in->at += n;
	char *t = nst_arena_strndup(a, s, n);
	if (!t)
		in->bad = true;
	return t;
}

static bool get_cell(struct in *in, struct nst_arena *a, struct nst_cell *c)
{
	unsigned char k = 0;
	if (!get(in, &k, 1))
		return false;
	c->kind = (enum nst_kind)k;
	switch (k) {
	case NST_NULL: return true;
	case NST_INT: return get(in, &c->v.i, sizeof c->v.i);
	case NST_REAL: return get(in, &c->v.r, sizeof c->v.r);
	case NST_TEXT: return (c->v.s = get_text(in, a)) != NULL;
	default: in->bad = true; return false;
	}
}

static enum nst_status get_rec(struct in *in, struct nst_part *p, struct nst_error *err)
{
	unsigned char head[4];
	recipe_uid uid = 0;
	if (!get(in, head, sizeof head) || !get(in, &uid, sizeof uid))
		return NST_ERR_DB;
	uint64_t nvals = get_u64(in);
	size_t ncells = head[2] | (size_t)head[3] << 8;
	if (in->bad || head[0] > REC_ROW || ncells > RECIPE_MAX_COLS)
		return NST_ERR_DB;
	struct nst_cell cells[RECIPE_MAX_COLS];
	for (size_t i = 0; i < ncells; i++)
		if (!get_cell(in, &p->arena, &cells[i]))
			return NST_ERR_DB;
	if (nvals > (in->n - in->at) / sizeof(int64_t))
		return NST_ERR_DB;
	struct rec *r;
	enum nst_status s = part_add_rec(p, (enum rec_kind)head[0], head[1], uid, cells, ncells, &r,
					 err);
	if (s == NST_OK && nvals)
		s = rec_push(r, in->b + in->at, nvals, err);
	in->at += nvals * sizeof(int64_t);
	return s;
}

static enum nst_status load(struct in *in, struct nst_part **out, struct nst_error *err)
{
	char magic[sizeof MAGIC];
	uint32_t order = 0;
	struct nst_arena a = { 0 };
	if (!get(in, magic, sizeof magic) || memcmp(magic, MAGIC, sizeof magic) ||
	    !get(in, &order, sizeof order) || order != ORDER)
		return NST_ERR_DB;
	const char *spec = get_text(in, &a);
	uint8_t mode = 0;
	if (spec && get(in, &mode, 1) && mode > NST_RANKS_PROCESS)
		in->bad = true;
	struct nst_part *p = spec && !in->bad ? part_new(spec, (enum nst_ranks)mode) : NULL;
	nst_arena_release(&a);
	if (!p)
		return in->bad ? NST_ERR_DB : nst_fail(err, NST_ERR_NOMEM, "out of memory");
	enum nst_status s = NST_OK;
	for (uint64_t i = 0, n = get_count(in, 20); s == NST_OK && i < n; i++) {
		struct part_rank r = { 0 };
		if (!get(in, &r.uid, sizeof r.uid) || !get(in, &r.rank, sizeof r.rank) ||
		    !get(in, &r.input, sizeof r.input))
			s = NST_ERR_DB;
		else
			s = part_add_rank(p, r.uid, r.rank, r.input, err);
	}
	for (uint64_t i = 0, n = s == NST_OK ? get_count(in, 20) : 0; s == NST_OK && i < n; i++)
		s = get_rec(in, p, err);
	if (s == NST_OK && (in->bad || in->at != in->n))
		s = NST_ERR_DB;
	if (s != NST_OK) {
		nst_part_free(p);
		return s;
	}
	*out = p;
	return NST_OK;
}

enum nst_status nst_part_load(const void *buf, size_t len, struct nst_part **out,
			      struct nst_error *err)
{
	struct in in = { buf, len, 0, false };
	*out = NULL;
	enum nst_status s = load(&in, out, err);
	if (s == NST_ERR_DB)
		return nst_fail(err, s, "not a recipe part: %zu bytes, broken at byte %zu", len,
				in.at);
	return s;
}
