/* The shape of most comparisons: one or two `nstats stats` reports on each
 * side, their rows matched by key, and for each measure the A and B value,
 * B - A and the change in percent of A. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
#include "diff/diff.h"

#define MAX_KEYS 4
#define MAX_COLS 64

/* One side: its source reports, and for each row of the first the row of
 * the second with the same key (-1: none). */
struct side {
	struct diff_table t[2];
	int64_t *joined;
	struct diff_samples smp; /* with k->samples */
};

/* A row of the comparison: rows of source 0 on each side, and the key
 * cells from whichever side has the row (with a match function, side A's
 * then side B's). */
struct line {
	struct diff_pair p;
	int64_t order; /* |B - A| of the ordering measure */
	struct nst_cell key[2 * MAX_KEYS];
	struct diff_shift shift; /* with k->samples */
};

/* Key cells of a line: one set, or one for each side. */
static size_t nkey_cells(const struct diff_keyed *k)
{
	return k->match ? 2 * k->nkeys : k->nkeys;
}

static enum nst_status load_side(struct nst_diff_ctx *d, const struct diff_keyed *k, int s,
				 struct side *sd, struct nst_error *err)
{
	bool base = diff_names_base(d);
	enum nst_status st = NST_OK;
	for (int i = 0; st == NST_OK && i < 2 && k->source[i].spec[0]; i++) {
		const char *spec = base && k->source[i].spec[1] ? k->source[i].spec[1]
								 : k->source[i].spec[0];
		st = diff_collect(d, s, spec, &sd->t[i], err);
	}
	if (st == NST_OK && k->samples)
		st = k->samples(d, s, &sd->smp, err);
	if (st != NST_OK || !k->source[1].spec[0])
		return st;
	/* the second report's rows, by the first's */
	struct diff_pair *p = NULL;
	size_t n = 0;
	st = diff_match(&sd->t[0], &sd->t[1], k->keys, k->nkeys, &p, &n, err);
	sd->joined = st == NST_OK ? malloc((sd->t[0].nrows ? sd->t[0].nrows : 1) * sizeof *sd->joined)
				  : NULL;
	if (st == NST_OK && !sd->joined)
		st = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t r = 0; st == NST_OK && r < sd->t[0].nrows; r++)
		sd->joined[r] = -1;
	for (size_t i = 0; st == NST_OK && i < n; i++)
		if (p[i].a >= 0)
			sd->joined[p[i].a] = p[i].b;
	free(p);
	return st;
}

struct sides {
	const struct diff_keyed *k;
	struct side *sd;
};

static enum nst_status load_one(struct nst_diff_ctx *d, int s, void *arg, struct nst_error *err)
{
	struct sides *both = arg;
	return load_side(d, both->k, s, &both->sd[s], err);
}

static void release_side(struct side *sd)
{
	diff_table_release(&sd->t[0]);
	diff_table_release(&sd->t[1]);
	free(sd->joined);
	diff_samples_release(&sd->smp);
}

/* The value of measure m on a side for its row r of the first report. */
static struct nst_cell value(const struct side *sd, const struct diff_measure *m, int64_t r)
{
	if (r >= 0 && m->source == 1)
		r = sd->joined ? sd->joined[r] : -1;
	const struct diff_table *t = &sd->t[m->source];
	return diff_side_cell(t, r, diff_col(t, m->col));
}

/* The output's column names: keys, Status, then each measure's. */
static size_t columns(const struct diff_keyed *k, struct nst_arena *a, const char **cols)
{
	size_t n = 0;
	for (int s = 0; k->match && s < 2; s++)
		for (size_t i = 0; i < k->nkeys; i++)
			cols[n++] = nst_arena_printf(a, "%s %c", k->keys[i], "AB"[s]);
	for (size_t i = 0; !k->match && i < k->nkeys; i++)
		cols[n++] = k->keys[i];
	if (k->status)
		cols[n++] = "Status";
	for (size_t i = 0; k->samples && i < DIFF_SHIFT_NCOLS; i++)
		cols[n++] = diff_shift_cols[i];
	for (size_t i = 0; i < k->nm; i++) {
		const struct diff_measure *m = &k->m[i];
		cols[n++] = nst_arena_printf(a, "A %s%s", m->label, m->unit);
		cols[n++] = nst_arena_printf(a, "B %s%s", m->label, m->unit);
		if (m->delta)
			cols[n++] = nst_arena_printf(a, "Diff %s%s", m->label, m->unit);
		if (m->change)
			cols[n++] = nst_arena_printf(a, "%s Change:ratio_%%", m->label);
	}
	return n;
}

static struct nst_cell status_of(struct nst_diff_ctx *d, const struct diff_keyed *k,
				 const struct side *sd, const struct line *l)
{
	if (k->samples)
		return nst_text(diff_shift_status(&l->shift, l->p.a >= 0, l->p.b >= 0,
						  diff_alpha(d), nst_diff_tolerance(d)));
	struct nst_cell a = value(&sd[0], &k->m[k->order], l->p.a);
	struct nst_cell b = value(&sd[1], &k->m[k->order], l->p.b);
	return nst_text(nst_diff_status(diff_int(&a), diff_int(&b), l->p.a >= 0, l->p.b >= 0,
					nst_diff_tolerance(d)));
}

static enum nst_status emit_line(struct nst_diff_ctx *d, const struct diff_keyed *k,
				 const struct side *sd, const struct line *l,
				 const struct nst_sink *out, struct nst_error *err)
{
	struct nst_cell row[MAX_COLS];
	size_t n = 0;
	for (size_t i = 0; i < nkey_cells(k); i++)
		row[n++] = l->key[i];
	if (k->status)
		row[n++] = status_of(d, k, sd, l);
	if (k->samples) {
		diff_shift_cells(&l->shift, row + n);
		n += DIFF_SHIFT_NCOLS;
	}
	for (size_t i = 0; i < k->nm; i++) {
		struct nst_cell a = value(&sd[0], &k->m[i], l->p.a);
		struct nst_cell b = value(&sd[1], &k->m[i], l->p.b);
		row[n++] = a;
		row[n++] = b;
		if (k->m[i].delta)
			row[n++] = diff_delta(&a, &b);
		if (k->m[i].change)
			row[n++] = diff_change(&a, &b);
	}
	return out->row(out->ctx, row, err);
}

static int bigger_change(uint32_t x, uint32_t y, void *arg)
{
	const struct line *l = arg;
	return (l[x].order < l[y].order) - (l[x].order > l[y].order);
}

/* Each side's key cells, NULL where a side has no row. */
static void side_key_cells(const struct diff_keyed *k, const struct side *sd, struct line *l)
{
	for (int s = 0; s < 2; s++) {
		const struct diff_table *t = &sd[s].t[0];
		for (size_t i = 0; i < k->nkeys; i++)
			l->key[s * k->nkeys + i] =
				diff_side_cell(t, s ? l->p.b : l->p.a, diff_col(t, k->keys[i]));
	}
}

static void key_cells(const struct diff_keyed *k, const struct side *sd, struct line *l)
{
	if (k->match) {
		side_key_cells(k, sd, l);
		return;
	}
	int side = l->p.a >= 0 ? 0 : 1;
	const struct diff_table *t = &sd[side].t[0];
	int64_t r = side ? l->p.b : l->p.a;
	for (size_t i = 0; i < k->nkeys; i++)
		l->key[i] = diff_side_cell(t, r, diff_col(t, k->keys[i]));
}

/* Each line's instances on the two sides compared, and the p-values
 * adjusted over the lines together. */
/* The text a line's instances are kept under: its key cells' texts, "\x1f"
 * between them (a NULL cell as ""). */
static const char *key_text(const struct diff_keyed *k, const struct line *l,
			    struct nst_arena *a)
{
	if (k->nkeys == 1)
		return l->key[0].kind == NST_TEXT ? l->key[0].v.s : "";
	const char *s = "";
	for (size_t i = 0; s && i < k->nkeys; i++)
		s = nst_arena_printf(a, "%s%s%s", s, i ? "\x1f" : "",
				     l->key[i].kind == NST_TEXT ? l->key[i].v.s : "");
	return s;
}

static enum nst_status test_lines(const struct diff_keyed *k, const struct side *sd,
				  struct line *l, size_t n, struct nst_error *err)
{
	struct nst_arena arena = { 0 };
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		const char *key = key_text(k, &l[i], &arena);
		if (!key) {
			rc = -1;
			break;
		}
		size_t na = 0, nb = 0;
		const int64_t *a = diff_samples_of(&sd[0].smp, key, &na);
		const int64_t *b = diff_samples_of(&sd[1].smp, key, &nb);
		rc = diff_shift_of(a, l[i].p.a >= 0 ? na : 0, b, l[i].p.b >= 0 ? nb : 0, &l[i].shift);
	}
	if (rc == 0)
		rc = diff_shift_adjust(l, n, sizeof *l, offsetof(struct line, shift));
	nst_arena_release(&arena);
	return rc == 0 ? NST_OK : nst_fail(err, NST_ERR_NOMEM, "out of memory");
}

/* The comparison's lines, in key order (or the match function's), then
 * by the ordering measure's change when the comparison has one (a stable
 * sort keeps that order among equals); *idx is the order to print them
 * in. */
static enum nst_status lines_of(struct nst_diff_ctx *d, const struct diff_keyed *k,
				const struct side *sd, struct line **out, uint32_t **idx,
				size_t *n, const char **note, struct nst_error *err)
{
	struct diff_pair *p = NULL;
	enum nst_status st = k->match
		? k->match(d, &sd[0].t[0], &sd[1].t[0], &p, n, note, err)
		: diff_match(&sd[0].t[0], &sd[1].t[0], k->keys, k->nkeys, &p, n, err);
	struct line *l = st == NST_OK ? malloc((*n ? *n : 1) * sizeof *l) : NULL;
	*idx = st == NST_OK ? malloc((*n ? *n : 1) * sizeof **idx) : NULL;
	if (st == NST_OK && (!l || !*idx))
		st = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; st == NST_OK && i < *n; i++) {
		l[i] = (struct line){ .p = p[i] };
		key_cells(k, sd, &l[i]);
		(*idx)[i] = (uint32_t)i;
		if (k->has_order) {
			struct nst_cell a = value(&sd[0], &k->m[k->order], p[i].a);
			struct nst_cell b = value(&sd[1], &k->m[k->order], p[i].b);
			l[i].order = llabs(diff_int(&b) - diff_int(&a));
		}
	}
	free(p);
	if (st == NST_OK && k->samples)
		st = test_lines(k, sd, l, *n, err);
	if (st == NST_OK && k->has_order)
		nst_stable_sort(*idx, *n, bigger_change, l);
	*out = l;
	return st;
}

enum nst_status diff_keyed_run(struct nst_diff_ctx *d, const struct diff_keyed *k,
			       const struct nst_sink *out, struct nst_error *err)
{
	struct side sd[2];
	memset(sd, 0, sizeof sd);
	struct line *l = NULL;
	uint32_t *idx = NULL;
	size_t n = 0;
	const char *cols[MAX_COLS], *note = NULL;
	enum nst_status st = diff_both_sides(d, load_one, &(struct sides){ k, sd }, err);
	if (st == NST_OK)
		st = lines_of(d, k, sd, &l, &idx, &n, &note, err);
	size_t ncols = st == NST_OK ? columns(k, d->arena, cols) : 0;
	for (size_t i = 0; i < ncols; i++)
		if (!cols[i])
			st = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (st == NST_OK && note && out->note)
		st = out->note(out->ctx, NST_NOTE_ADVICE, note, err);
	if (st == NST_OK)
		st = out->begin(out->ctx, cols, ncols, err);
	for (size_t i = 0; st == NST_OK && i < n; i++)
		st = emit_line(d, k, sd, &l[idx[i]], out, err);
	free(l);
	free(idx);
	release_side(&sd[0]);
	release_side(&sd[1]);
	return st;
}

/* ---- status --------------------------------------------------------------------- */

#define DEFAULT_TOLERANCE 2

int64_t nst_diff_tolerance(const struct nst_diff_ctx *d)
{
	return diff_arg_i64(d, "tolerance", DEFAULT_TOLERANCE);
}

const char *nst_diff_status(int64_t a_total, int64_t b_total, bool in_a, bool in_b,
			    int64_t tolerance)
{
	if (!in_a)
		return "added";
	if (!in_b)
		return "removed";
	int64_t diff = b_total - a_total;
	/* within tolerance: |B - A| * 100 <= tolerance * A, in integers */
	double lim = (double)tolerance * (double)a_total, d100 = (double)llabs(diff) * 100.0;
	if (d100 <= lim)
		return "same";
	return diff > 0 ? "slower" : "faster";
}

enum nst_status diff_check_tolerance(const struct nst_arg *args, size_t nargs,
				     struct nst_error *err)
{
	for (size_t i = 0; i < nargs; i++) {
		int64_t v;
		if (strcmp(args[i].key, "tolerance") == 0 &&
		    (!args[i].value || !nst_parse_i64(args[i].value, &v) || v < 0))
			return nst_fail(err, NST_ERR_USAGE, "tolerance=%s: not a whole percent >= 0",
					args[i].value ? args[i].value : "");
	}
	return NST_OK;
}

