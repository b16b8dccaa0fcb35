/* The k-th smallest difference b_j - a_i is found by counting, never by
 * forming the n*m differences: for a threshold x, row i holds the b_j <=
 * a_i + x, a prefix of b whose end only moves forward as a_i grows, so one
 * pass over a and b counts the differences <= x.  Each target rank keeps a
 * bracket (lo, hi] of thresholds, fewer than k differences <= lo and at
 * least k <= hi, and every count narrows the bracket of every target.  A
 * threshold is first guessed from the samples' quartiles (the differences
 * taken as normal), then interpolated between the bracket's counts, two at
 * a time just either side of the rank so that one pass closes the bracket
 * from both ends, falling back to halving where that stops paying.  Once a
 * bracket holds few enough differences they are listed and the rank
 * selected among them. */
#include "core/pairdiff.h"
#include "core/normal.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

/* A difference, or a threshold between differences: b_j - a_i needs 65
 * bits, so these are 128 (a GCC and Clang extension, as the overflow
 * built-ins are). */
typedef __int128 wide;

struct pairs {
	const int64_t *a, *b;
	size_t n, m;
	uint64_t total; /* n * m */
	/* The distinct values of a with how many times each is there, and of
	 * b with how many values of b are at or below each: durations in
	 * whole ns (or their logarithms) repeat, and a count then runs over
	 * the distinct values alone.  NULL where they would not pay. */
	struct runs *ra, *rb;
};

struct runs {
	size_t n;
	int64_t *v;
	uint64_t *count; /* a: of v[i]; b: of values <= v[i] */
};

/* A threshold with its count: c differences are <= x. */
struct probe {
	wide x;
	uint64_t c;
};

struct target {
	uint64_t k;
	struct probe lo, hi;  /* lo.c < k <= hi.c */
	uint64_t error;       /* how far the last guess's count missed its aim */
	bool halve;           /* the last round narrowed too little: bisect */
	bool done;
	long double value;
};

enum { MAX_PROBES = 2 * NST_PAIR_DIFF_MAX_RANKS };

/* The b_j <= a_i + x, from *pos (that of a smaller a_i or x) on. */
static inline size_t row_count(const struct pairs *s, int64_t ai, wide x, size_t *pos)
{
	wide limit = (wide)ai + x;
	if (limit < INT64_MIN)
		return 0;
	if (limit >= INT64_MAX)
		return *pos = s->m;
	int64_t l = (int64_t)limit;
	size_t p = *pos;
	while (p < s->m && s->b[p] <= l)
		p++;
	return *pos = p;
}

/* The distinct values of b at or below ai + x, from *pos on; the number
 * of values of b they are. */
static inline uint64_t run_count(const struct runs *rb, int64_t ai, wide x, size_t *pos)
{
	wide limit = (wide)ai + x;
	if (limit < INT64_MIN)
		return 0;
	size_t p = *pos;
	while (p < rb->n && (wide)rb->v[p] <= limit)
		p++;
	*pos = p;
	return p ? rb->count[p - 1] : 0;
}

/* pr[t].c for every probe, in one pass over a (over the distinct values
 * of a and b, where they were kept). */
static void count_probes(const struct pairs *s, struct probe *pr, size_t np)
{
	size_t pos[MAX_PROBES] = { 0 };
	for (size_t t = 0; t < np; t++)
		pr[t].c = 0;
	if (s->ra) {
		for (size_t i = 0; i < s->ra->n; i++)
			for (size_t t = 0; t < np; t++)
				pr[t].c += s->ra->count[i] *
					   run_count(s->rb, s->ra->v[i], pr[t].x, &pos[t]);
		return;
	}
	for (size_t i = 0; i < s->n; i++)
		for (size_t t = 0; t < np; t++)
			pr[t].c += row_count(s, s->a[i], pr[t].x, &pos[t]);
}

/* ---- guesses ------------------------------------------------------------- */

/* The differences taken as normal: centre and spread from the medians and
 * quartiles of a and b (a quartile range of 1.349 standard deviations). */
struct model {
	long double centre, spread;
};

static long double quantile(const int64_t *x, size_t n, double f)
{
	return (long double)x[(size_t)(f * (double)(n - 1) + 0.5)];
}

static struct model model_of(const struct pairs *s)
{
	long double qa = quantile(s->a, s->n, 0.75) - quantile(s->a, s->n, 0.25);
	long double qb = quantile(s->b, s->m, 0.75) - quantile(s->b, s->m, 0.25);
	return (struct model){
		.centre = quantile(s->b, s->m, 0.5) - quantile(s->a, s->n, 0.5),
		.spread = sqrtl(qa * qa + qb * qb) / 1.349L,
	};
}

static double fraction(const struct pairs *s, long double rank)
{
	double f = (double)(rank / (long double)s->total);
	return f < 1e-12 ? 1e-12 : f > 1 - 1e-12 ? 1 - 1e-12 : f;
}

/* The model's threshold for a rank. */
static long double model_guess(const struct pairs *s, const struct model *md, long double rank)
{
	return md->centre + md->spread * nst_normal_quantile(fraction(s, rank));
}

/* From a counted threshold to a rank along the model's slope there. */
static long double newton_guess(const struct pairs *s, const struct model *md,
				const struct probe *from, long double rank)
{
	double z = nst_normal_quantile(fraction(s, rank));
	long double density = (long double)s->total * exp(-0.5 * z * z) / sqrt(2 * M_PI) / md->spread;
	return (long double)from->x + (rank - (long double)from->c) / density;
}

static long double interpolated(const struct target *t, long double rank)
{
	long double dx = (long double)(t->hi.x - t->lo.x), dc = (long double)(t->hi.c - t->lo.c);
	return (long double)t->lo.x + (rank - (long double)t->lo.c) * dx / dc;
}

/* A guess moved strictly inside the bracket. */
static wide inside(const struct target *t, long double guess)
{
	long double lo = (long double)t->lo.x, hi = (long double)t->hi.x;
	if (!(guess > lo))
		return t->lo.x + 1;
	if (!(guess < hi))
		return t->hi.x - 1;
	wide x = (wide)floorl(guess);
	return x <= t->lo.x ? t->lo.x + 1 : x >= t->hi.x ? t->hi.x - 1 : x;
}

/* ---- the search ------------------------------------------------------------ */

/* Whether the bracket's differences are few enough to list. */
static bool listable(const struct pairs *s, const struct target *t)
{
	uint64_t limit = (s->n + s->m) / 4 + 64;
	return t->hi.c - t->lo.c <= limit && t->hi.x - t->lo.x <= (wide)UINT64_MAX;
}

static bool settled(const struct pairs *s, struct target *t)
{
	if (t->hi.x - t->lo.x == 1) {
		t->value = (long double)t->hi.x;
		t->done = true;
	}
	return t->done || listable(s, t);
}

static bool ends_counted(const struct pairs *s, const struct target *t)
{
	return t->lo.c > 0 && t->hi.c < s->total;
}

/* Thresholds for targets t[0..nt), all in one bracket, into pr; how many. */
static size_t propose(const struct pairs *s, const struct model *md, struct target *t,
		      size_t nt, bool first, struct probe *pr)
{
	const struct target *g = &t[0];
	long double k1 = (long double)t[0].k, k2 = (long double)t[nt - 1].k;
	pr[0].c = (uint64_t)((k1 + k2) / 2); /* the aim, until counted */
	if (first && md->spread > 0) {
		pr[0].x = inside(g, model_guess(s, md, (k1 + k2) / 2));
		return 1;
	}
	if (g->halve || (!ends_counted(s, g) && !(md->spread > 0))) {
		pr[0].x = g->lo.x + (g->hi.x - g->lo.x) / 2;
		return 1;
	}
	long double margin = (long double)g->error, floor = (long double)((s->n + s->m) / 16 + 16);
	if (margin < floor)
		margin = floor;
	long double aim[2] = { k1 - margin, k2 + margin };
	for (int e = 0; e < 2; e++) {
		long double guess;
		if (ends_counted(s, g))
			guess = interpolated(g, aim[e]);
		else
			guess = newton_guess(s, md, g->lo.c > 0 ? &g->lo : &g->hi, aim[e]);
		pr[e].x = inside(g, guess);
		pr[e].c = (uint64_t)(aim[e] < 0 ? 0 : aim[e]); /* the aim, until counted */
	}
	return pr[0].x == pr[1].x ? 1 : 2;
}

/* Narrows every target's bracket by the counted probes. */
static void narrow(struct target *t, size_t nt, const struct probe *pr, size_t np)
{
	for (size_t i = 0; i < nt; i++) {
		uint64_t before = t[i].hi.c - t[i].lo.c;
		for (size_t p = 0; p < np; p++) {
			if (pr[p].c >= t[i].k && pr[p].x < t[i].hi.x)
				t[i].hi = pr[p];
			if (pr[p].c < t[i].k && pr[p].x > t[i].lo.x)
				t[i].lo = pr[p];
		}
		t[i].halve = !t[i].halve && (t[i].hi.c - t[i].lo.c) > before / 2;
	}
}

static bool same_bracket(const struct target *x, const struct target *y)
{
	return x->lo.x == y->lo.x && x->hi.x == y->hi.x;
}

/* One round: every unsettled group of targets proposes, the proposals are
 * counted in one pass, every bracket narrows.  False when all are settled. */
static bool round_once(const struct pairs *s, const struct model *md, struct target *t,
		       size_t nt, bool first)
{
	struct probe pr[MAX_PROBES];
	uint64_t aim[MAX_PROBES];
	size_t owner[MAX_PROBES], np = 0;
	for (size_t i = 0; i < nt;) {
		size_t j = i + 1;
		while (j < nt && same_bracket(&t[i], &t[j]))
			j++;
		bool open = false;
		for (size_t q = i; q < j; q++)
			open |= !settled(s, &t[q]);
		if (open) {
			size_t got = propose(s, md, &t[i], j - i, first, &pr[np]);
			for (size_t q = 0; q < got; q++)
				aim[np + q] = pr[np + q].c, owner[np + q] = i;
			np += got;
		}
		i = j;
	}
	if (!np)
		return false;
	count_probes(s, pr, np);
	for (size_t p = 0; p < np; p++) {
		uint64_t miss = pr[p].c > aim[p] ? pr[p].c - aim[p] : aim[p] - pr[p].c;
		bool first_of_group = p == 0 || owner[p - 1] != owner[p];
		struct target *g = &t[owner[p]];
		for (size_t q = owner[p] + 1; q < nt && same_bracket(&t[q], g); q++)
			t[q].error = first_of_group || miss > t[q].error ? miss : t[q].error;
		g->error = first_of_group || miss > g->error ? miss : g->error;
	}
	narrow(t, nt, pr, np);
	return true;
}

/* ---- listing a bracket ------------------------------------------------------ */

static void swap(uint64_t *v, size_t i, size_t j)
{
	uint64_t x = v[i];
	v[i] = v[j];
	v[j] = x;
}

/* Reorders v[lo..hi) so that v[k] is its (k - lo)-th smallest, the smaller
 * before it and the larger after; pivots from a generator of its own, so
 * that no input is slow every time. */
static void select_kth(uint64_t *v, size_t lo, size_t hi, size_t k, uint64_t *seed)
{
	while (hi - lo > 1) {
		*seed = *seed * 6364136223846793005u + 1442695040888963407u;
		uint64_t pivot = v[lo + (size_t)((*seed >> 33) % (hi - lo))];
		size_t lt = lo, gt = hi, i = lo;
		while (i < gt) { /* three ways: < pivot, == pivot, > pivot */
			if (v[i] < pivot)
				swap(v, lt++, i++);
			else if (v[i] > pivot)
				swap(v, i, --gt);
			else
				i++;
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return;
	}
}

/* The differences in (lo, hi], each as its distance above lo less one. */
static uint64_t *list_bracket(const struct pairs *s, const struct target *t)
{
	size_t count = (size_t)(t->hi.c - t->lo.c), at = 0, plo = 0, phi = 0;
	uint64_t *v = malloc((count ? count : 1) * sizeof *v);
	if (!v)
		return NULL;
	for (size_t i = 0; i < s->n; i++) {
		size_t from = row_count(s, s->a[i], t->lo.x, &plo);
		size_t to = row_count(s, s->a[i], t->hi.x, &phi);
		for (size_t j = from; j < to; j++)
			v[at++] = (uint64_t)((wide)s->b[j] - s->a[i] - t->lo.x - 1);
	}
	return v;
}

/* Settles the targets t[0..nt) that share t[0]'s bracket by listing it. */
static int settle_by_listing(const struct pairs *s, struct target *t, size_t nt)
{
	uint64_t *v = list_bracket(s, &t[0]), seed = t[0].k;
	if (!v)
		return -1;
	size_t from = 0, count = (size_t)(t[0].hi.c - t[0].lo.c);
	for (size_t q = 0; q < nt && same_bracket(&t[q], &t[0]); q++) {
		if (t[q].done)
			continue;
		size_t k = (size_t)(t[q].k - t[0].lo.c - 1);
		select_kth(v, from, count, k, &seed);
		t[q].value = (long double)(t[0].lo.x + 1 + (wide)v[k]);
		t[q].done = true;
		from = k;
	}
	free(v);
	return 0;
}

static size_t distinct(const int64_t *x, size_t n)
{
	size_t d = 0;
	for (size_t i = 0; i < n; i++)
		d += i == 0 || x[i] != x[i - 1];
	return d;
}

/* The d distinct values of x[0..n) (sorted) and their counts: of each
 * value, or cumulative. */
static int runs_of(const int64_t *x, size_t n, size_t d, bool cumulative, struct runs *r)
{
	r->v = malloc((d ? d : 1) * sizeof *r->v);
	r->count = malloc((d ? d : 1) * sizeof *r->count);
	if (!r->v || !r->count)
		return -1;
	r->n = 0;
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || x[i] != x[i - 1]) {
			r->v[r->n] = x[i];
			r->count[r->n] = cumulative && r->n ? r->count[r->n - 1] : 0;
			r->n++;
		}
		r->count[r->n - 1]++;
	}
	return 0;
}

static void runs_release(struct runs *r)
{
	free(r->v);
	free(r->count);
}

static int search(const struct pairs *s, const uint64_t *rank, size_t nrank, long double *value)
{
	struct probe lo = { (wide)s->b[0] - s->a[s->n - 1] - 1, 0 };
	struct probe hi = { (wide)s->b[s->m - 1] - s->a[0], s->total };
	struct target t[NST_PAIR_DIFF_MAX_RANKS];
	for (size_t i = 0; i < nrank; i++)
		t[i] = (struct target){ .k = rank[i], .lo = lo, .hi = hi, .error = s->total };
	struct model md = model_of(s);
	for (bool first = true; round_once(s, &md, t, nrank, first); first = false)
		;
	for (size_t i = 0; i < nrank; i++) {
		if (!t[i].done && settle_by_listing(s, &t[i], nrank - i) < 0)
			return -1;
		value[i] = t[i].value;
	}
	return 0;
}

int nst_pair_diff_ranks(const int64_t *a, size_t n, const int64_t *b, size_t m,
			const uint64_t *rank, size_t nrank, long double *value)
{
	struct pairs s = { a, b, n, m, (uint64_t)n * m, NULL, NULL };
	struct runs ra = { 0 }, rb = { 0 };
	size_t da = distinct(a, n), db = distinct(b, m);
	int rc = 0;
	/* the distinct values pay where they are at most half the values */
	if (2 * (da + db) <= n + m) {
		rc = runs_of(a, n, da, false, &ra) < 0 || runs_of(b, m, db, true, &rb) < 0 ? -1 : 0;
		s.ra = &ra;
		s.rb = &rb;
	}
	if (rc == 0)
		rc = search(&s, rank, nrank, value);
	runs_release(&ra);
	runs_release(&rb);
	return rc;
}
