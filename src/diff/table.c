/* One side's report kept whole, rows paired by key, and the cells of a
 * comparison. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
#include "diff/diff.h"
#include "run/run.h"

/* ---- the sink that keeps a report --------------------------------------------- */

static enum nst_status keep_begin(void *ctx, const char *const *cols, size_t n,
				  struct nst_error *err)
{
	struct diff_table *t = ctx;
	t->ncols = n;
	t->cols = nst_arena_alloc(&t->arena, (n ? n : 1) * sizeof *t->cols);
	if (!t->cols)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		if (!(t->cols[i] = nst_arena_strndup(&t->arena, cols[i], strlen(cols[i]))))
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	return NST_OK;
}

static enum nst_status keep_row(void *ctx, const struct nst_cell *cells, struct nst_error *err)
{
	struct diff_table *t = ctx;
	if (t->nrows == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct nst_cell *c = realloc(t->cells, cap * t->ncols * sizeof *c);
		if (!c)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		t->cells = c;
		t->cap = cap;
	}
	struct nst_cell *row = &t->cells[t->nrows * t->ncols];
	for (size_t i = 0; i < t->ncols; i++) {
		row[i] = cells[i];
		if (cells[i].kind == NST_TEXT && cells[i].v.s &&
		    !(row[i].v.s = nst_arena_strndup(&t->arena, cells[i].v.s, strlen(cells[i].v.s))))
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	t->nrows++;
	return NST_OK;
}

enum nst_status diff_collect(struct nst_diff_ctx *d, int side, const char *spec,
			     struct diff_table *t, struct nst_error *err)
{
	struct nst_job *job = NULL;
	enum nst_status s = nst_job_parse(NST_REPORTS, spec, &job, err);
	if (s != NST_OK)
		return s;
	struct nst_sink keep = { keep_begin, keep_row, NULL, t };
	struct nst_run run = { .job = job, .filter = &d->filter, .sink = &keep };
	s = nst_run(d->side[side], &run, NULL, err);
	nst_job_free(job);
	t->status = s;
	if (s == NST_ERR_NODATA) {
		snprintf(t->why, sizeof t->why, "%s", err->msg);
		t->nrows = 0;
		return NST_OK;
	}
	return s;
}

struct side_call {
	struct nst_diff_ctx *d;
	diff_side_fn fn;
	void *arg;
	enum nst_status status;
	struct nst_error err;
};

static void *side_one(void *p)
{
	struct side_call *c = p;
	c->status = c->fn(c->d, 1, c->arg, &c->err);
	return NULL;
}

enum nst_status diff_both_sides(struct nst_diff_ctx *d, diff_side_fn fn, void *arg,
				struct nst_error *err)
{
	struct side_call one = { d, fn, arg, NST_OK, { 0 } };
	pthread_t t;
	bool apart = nst_export_threads(d->side[0]) > 1 && nst_export_threads(d->side[1]) > 1 &&
		     pthread_create(&t, NULL, side_one, &one) == 0;
	enum nst_status s = fn(d, 0, arg, err);
	if (apart)
		pthread_join(t, NULL);
	else if (s == NST_OK)
		side_one(&one);
	if (s == NST_OK && one.status != NST_OK) {
		*err = one.err;
		s = one.status;
	}
	return s;
}

void diff_table_release(struct diff_table *t)
{
	free(t->cells);
	nst_arena_release(&t->arena);
	memset(t, 0, sizeof *t);
}

int diff_col(const struct diff_table *t, const char *name)
{
	for (size_t i = 0; i < t->ncols; i++)
		if (strcmp(t->cols[i], name) == 0)
			return (int)i;
	return -1;
}

/* ---- pairing rows by key ------------------------------------------------------ */

/* The text of one row's key cells, numbers printed, NULL empty; cells
 * apart by a byte no key holds. */
static char *key_text(const struct diff_table *t, size_t row, const int *cols, size_t n,
		      struct nst_arena *a)
{
	size_t len = 0;
	char num[32];
	for (size_t k = 0; k < n; k++) {
		const struct nst_cell *c = diff_cell(t, row, cols[k]);
		len += (c->kind == NST_TEXT ? strlen(c->v.s) : sizeof num) + 1;
	}
	char *s = nst_arena_alloc(a, len + 1), *p = s;
	if (!s)
		return NULL;
	for (size_t k = 0; k < n; k++) {
		const struct nst_cell *c = diff_cell(t, row, cols[k]);
		const char *v = c->kind == NST_TEXT ? c->v.s : num;
		if (c->kind == NST_INT)
			snprintf(num, sizeof num, "%lld", (long long)c->v.i);
		else if (c->kind != NST_TEXT)
			num[0] = '\0';
		p += sprintf(p, "%s%c", v, '\x1f');
	}
	return s;
}

struct keyed {
	const char *key;
	int64_t row;
	int side;
};

static int by_key(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;
	int c = strcmp(a->key, b->key);
	return c ? c : (a->side - b->side);
}

static enum nst_status add_keys(const struct diff_table *t, int side, const char *const *keys,
				size_t nkeys, struct keyed *out, size_t *n, struct nst_arena *a,
				struct nst_error *err)
{
	int cols[8];
	for (size_t k = 0; k < nkeys; k++)
		if (t->nrows && (cols[k] = diff_col(t, keys[k])) < 0)
			return nst_fail(err, NST_ERR_INTERNAL, "no column '%s' to match rows by",
					keys[k]);
	for (size_t r = 0; r < t->nrows; r++) {
		const char *key = key_text(t, r, cols, nkeys, a);
		if (!key)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		out[(*n)++] = (struct keyed){ key, (int64_t)r, side };
	}
	return NST_OK;
}

enum nst_status diff_match(const struct diff_table *a, const struct diff_table *b,
			   const char *const *keys, size_t nkeys, struct diff_pair **out,
			   size_t *n, struct nst_error *err)
{
	struct nst_arena arena = { 0 };
	size_t total = a->nrows + b->nrows, nk = 0;
	struct keyed *k = malloc((total ? total : 1) * sizeof *k);
	*out = malloc((total ? total : 1) * sizeof **out);
	*n = 0;
	enum nst_status s = k && *out ? NST_OK : nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (s == NST_OK && nkeys > 8)
		s = nst_fail(err, NST_ERR_INTERNAL, "too many key columns");
	if (s == NST_OK)
		s = add_keys(a, 0, keys, nkeys, k, &nk, &arena, err);
	if (s == NST_OK)
		s = add_keys(b, 1, keys, nkeys, k, &nk, &arena, err);
	if (s == NST_OK)
		qsort(k, nk, sizeof *k, by_key);
	/* equal keys on one side (there should be none) pair in turn */
	for (size_t i = 0; s == NST_OK && i < nk; i++) {
		bool both = k[i].side == 0 && i + 1 < nk && k[i + 1].side == 1 &&
			    strcmp(k[i].key, k[i + 1].key) == 0;
		(*out)[(*n)++] = both ? (struct diff_pair){ k[i].row, k[i + 1].row }
			       : k[i].side == 0 ? (struct diff_pair){ k[i].row, -1 }
					       : (struct diff_pair){ -1, k[i].row };
		i += both;
	}
	free(k);
	nst_arena_release(&arena);
	if (s != NST_OK) {
		free(*out);
		*out = NULL;
	}
	return s;
}

/* ---- cells --------------------------------------------------------------------- */

int64_t diff_int(const struct nst_cell *c)
{
	return c->kind == NST_INT ? c->v.i : c->kind == NST_REAL ? (int64_t)c->v.r : 0;
}

double diff_real(const struct nst_cell *c)
{
	return c->kind == NST_REAL ? c->v.r : c->kind == NST_INT ? (double)c->v.i : 0;
}

struct nst_cell diff_side_cell(const struct diff_table *t, int64_t row, int col)
{
	if (row < 0 || col < 0)
		return nst_null();
	return *diff_cell(t, (size_t)row, col);
}

/* A REAL delta is of values the reports round to 0.1: rounded the same,
 * it shows no float noise (8.3 - 0.0 must not print 8.299999999999999). */
struct nst_cell diff_delta(const struct nst_cell *a, const struct nst_cell *b)
{
	if (a->kind == NST_NULL && b->kind == NST_NULL)
		return nst_null();
	if (a->kind == NST_REAL || b->kind == NST_REAL)
		return nst_round1(diff_real(b) - diff_real(a));
	return nst_int(diff_int(b) - diff_int(a));
}

struct nst_cell diff_change(const struct nst_cell *a, const struct nst_cell *b)
{
	double base = diff_real(a);
	if (a->kind == NST_NULL || b->kind == NST_NULL || base == 0)
		return nst_null();
	return nst_round1((diff_real(b) - base) * 100.0 / base);
}

int64_t diff_arg_i64(const struct nst_diff_ctx *d, const char *key, int64_t dflt)
{
	for (size_t i = d->nargs; i-- > 0;) {
		int64_t v;
		if (strcmp(d->args[i].key, key) == 0 && d->args[i].value &&
		    nst_parse_i64(d->args[i].value, &v))
			return v;
	}
	return dflt;
}

bool diff_names_base(const struct nst_diff_ctx *d)
{
	return d->run->names == NST_NAMES_BASE;
}

double diff_alpha(const struct nst_diff_ctx *d)
{
	double a = d->run->alpha;
	return a > 0 && a <= 1 ? a : 0.05;
}

enum nst_devices diff_devices(const struct nst_diff_ctx *d)
{
	return d->run->devices;
}

const char *diff_per(const struct nst_diff_ctx *d)
{
	return d->run->per;
}
