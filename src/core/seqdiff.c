/* Myers, "An O(ND) Difference Algorithm and Its Variations" (1986),
 * section 4b: the middle snake found from both ends at once, then each
 * half aligned the same way; O((N+M)D) time, O(N+M) space.  Where D is
 * large, Hirschberg's split (1975) instead: the LCS of a with the first
 * half of b and of a's suffixes with the second half (core/lcsrow.h) say
 * where a shortest script crosses the middle of b, and each side's LCS
 * there is its script's length, so that each half takes whichever of the
 * two is cheaper for it.  Past the work allowed, anchors as in patience
 * diff (Cohen): ids unique on both sides, in the same order. */
#include "core/seqdiff.h"

#include <stdlib.h>
#include <string.h>

#include "core/lcsrow.h"

/* nst_seq_align's room beside Myers's. */
struct room {
	struct nst_lcs_space lcs; /* allocated on the first split */
	int64_t *fwd, *bwd;       /* LCS rows, n + 1 */
	uint32_t *ra, *rb;        /* a piece of a and of b reversed */
	uint8_t *count_a, *count_b; /* by id: 0, 1 or 2 for more; zero between uses */
	size_t *pos_a;            /* by id: where it was last seen in a */
	size_t n, m, nsym;
	int depth;                /* of gaps between anchors within gaps */
	bool anchored;
};

struct seq {
	const uint32_t *a, *b;
	int64_t *vf, *vb; /* furthest x on each diagonal, forward and backward */
	int64_t off;      /* diagonal k is at [off + k] */
	int64_t max_d;    /* 0: none */
	uint64_t work;    /* steps of Myers's search and word operations so far */
	uint64_t give_up; /* the work at which a search stops; 0: never */
	bool approx;
	nst_seq_fn fn;
	void *arg;
	struct room *room; /* NULL for nst_seq_diff */
};

/* A snake of the forward path in a[a0..a1) x b[b0..b1), (x, y) to (u, v),
 * on a shortest script d long. */
struct snake {
	int64_t x, y, u, v, d;
};

/* Forward round d; true when its snake on diagonal k meets a backward path
 * of round d - 1 (delta odd). */
static bool forward(struct seq *s, int64_t a0, int64_t b0, int64_t n, int64_t m, int64_t d,
		    struct snake *out)
{
	int64_t delta = n - m, *vf = s->vf + s->off, *vb = s->vb + s->off;
	for (int64_t k = -d; k <= d; k += 2) {
		int64_t x = k == -d || (k != d && vf[k - 1] < vf[k + 1]) ? vf[k + 1] : vf[k - 1] + 1;
		int64_t y = x - k, sx = x, sy = y;
		while (x < n && y < m && s->a[a0 + x] == s->b[b0 + y])
			x++, y++;
		vf[k] = x;
		s->work += (uint64_t)(x - sx) + 1;
		int64_t kb = delta - k;
		if ((delta & 1) && kb >= -(d - 1) && kb <= d - 1 && x + vb[kb] >= n) {
			*out = (struct snake){ a0 + sx, b0 + sy, a0 + x, b0 + y, 2 * d - 1 };
			return true;
		}
	}
	return false;
}

/* Backward round d, on the sequences read from their ends; true when it
 * meets a forward path of round d (delta even). */
static bool backward(struct seq *s, int64_t a1, int64_t b1, int64_t n, int64_t m, int64_t d,
		     struct snake *out)
{
	int64_t delta = n - m, *vf = s->vf + s->off, *vb = s->vb + s->off;
	int64_t a0 = a1 - n, b0 = b1 - m;
	for (int64_t k = -d; k <= d; k += 2) {
		int64_t x = k == -d || (k != d && vb[k - 1] < vb[k + 1]) ? vb[k + 1] : vb[k - 1] + 1;
		int64_t y = x - k, sx = x, sy = y;
		while (x < n && y < m && s->a[a1 - 1 - x] == s->b[b1 - 1 - y])
			x++, y++;
		vb[k] = x;
		s->work += (uint64_t)(x - sx) + 1;
		int64_t kf = delta - k;
		if (!(delta & 1) && kf >= -d && kf <= d && x + vf[kf] >= n) {
			*out = (struct snake){ a0 + n - x, b0 + m - y, a0 + n - sx, b0 + m - sy, 2 * d };
			return true;
		}
	}
	return false;
}

/* The middle snake of a[a0..a1) x b[b0..b1); false when the edit script
 * is longer than max_d, or the search reaches give_up. */
static bool middle_snake(struct seq *s, int64_t a0, int64_t a1, int64_t b0, int64_t b1,
			 struct snake *out)
{
	int64_t n = a1 - a0, m = b1 - b0;
	s->vf[s->off + 1] = 0;
	s->vb[s->off + 1] = 0;
	for (int64_t d = 0; d <= (n + m + 1) / 2; d++) {
		if ((s->max_d && 2 * d > s->max_d) || (s->give_up && s->work > s->give_up))
			return false;
		if (forward(s, a0, b0, n, m, d, out) || backward(s, a1, b1, n, m, d, out))
			return true;
	}
	return false; /* not reached: the paths meet by round (n + m + 1) / 2 */
}

static int emit_run(struct seq *s, enum nst_seq_op op, int64_t i, int64_t j, int64_t n)
{
	int rc = 0;
	for (int64_t k = 0; rc == 0 && k < n; k++)
		rc = s->fn(s->arg, op, (size_t)(i + (op != NST_SEQ_ADD ? k : 0)),
			   (size_t)(j + (op != NST_SEQ_DEL ? k : 0)));
	return rc;
}

/* Aligns a piece whose both ends differ and both sides are not empty;
 * arg as the caller of trimmed() gives it. */
typedef int (*middle_fn)(struct seq *s, int64_t a0, int64_t a1, int64_t b0, int64_t b1,
			 int64_t arg);

/* a[a0..a1) x b[b0..b1): the common prefix and suffix matched, what is
 * left of one side when the other is used up removed or added, the rest
 * by middle. */
static int trimmed(struct seq *s, int64_t a0, int64_t a1, int64_t b0, int64_t b1, int64_t arg,
		   middle_fn middle)
{
	int64_t prefix = 0, suffix = 0;
	while (a0 + prefix < a1 && b0 + prefix < b1 && s->a[a0 + prefix] == s->b[b0 + prefix])
		prefix++;
	int rc = emit_run(s, NST_SEQ_SAME, a0, b0, prefix);
	a0 += prefix, b0 += prefix;
	while (a1 - suffix > a0 && b1 - suffix > b0 && s->a[a1 - 1 - suffix] == s->b[b1 - 1 - suffix])
		suffix++;
	a1 -= suffix, b1 -= suffix;
	if (rc != 0)
		return rc;
	if (a0 == a1)
		rc = emit_run(s, NST_SEQ_ADD, a0, b0, b1 - b0);
	else if (b0 == b1)
		rc = emit_run(s, NST_SEQ_DEL, a0, b0, a1 - a0);
	else
		rc = middle(s, a0, a1, b0, b1, arg);
	return rc == 0 ? emit_run(s, NST_SEQ_SAME, a1, b1, suffix) : rc;
}

/* ---- Myers's algorithm alone, in pieces past max_d ------------------------------ */

static int pieces(struct seq *s, int64_t a0, int64_t a1, int64_t b0, int64_t b1, int64_t unused);

static int compare(struct seq *s, int64_t a0, int64_t a1, int64_t b0, int64_t b1)
{
	return trimmed(s, a0, a1, b0, b1, 0, pieces);
}

static int pieces(struct seq *s, int64_t a0, int64_t a1, int64_t b0, int64_t b1, int64_t unused)
{
	(void)unused;
	struct snake sn;
	int rc;
	if (middle_snake(s, a0, a1, b0, b1, &sn)) {
		/* both ends differ, so the script is at least 2 long and each
		 * half is shorter: the recursion ends */
		rc = compare(s, a0, sn.x, b0, sn.y);
		if (rc == 0)
			rc = emit_run(s, NST_SEQ_SAME, sn.x, sn.y, sn.u - sn.x);
		return rc == 0 ? compare(s, sn.u, a1, sn.v, b1) : rc;
	}
	s->approx = true;
	if (a1 - a0 > 1 && b1 - b0 > 1) {
		/* too different to search whole: each half on its own */
		int64_t am = a0 + (a1 - a0) / 2, bm = b0 + (b1 - b0) / 2;
		rc = compare(s, a0, am, b0, bm);
		return rc == 0 ? compare(s, am, a1, bm, b1) : rc;
	}
	rc = emit_run(s, NST_SEQ_DEL, a0, b0, a1 - a0);
	return rc == 0 ? emit_run(s, NST_SEQ_ADD, a1, b0, b1 - b0) : rc;
}

int nst_seq_diff(const uint32_t *a, size_t n, const uint32_t *b, size_t m, size_t max_d,
		 nst_seq_fn fn, void *arg, bool *approx)
{
	int64_t reach = ((int64_t)n + (int64_t)m + 1) / 2 + 1;
	if (max_d && (int64_t)max_d / 2 + 1 < reach)
		reach = (int64_t)max_d / 2 + 1;
	struct seq s = { a, b, NULL, NULL, reach + 1, (int64_t)max_d, 0, 0, false, fn, arg, NULL };
	size_t size = (size_t)(2 * reach + 3);
	s.vf = malloc(size * sizeof *s.vf);
	s.vb = malloc(size * sizeof *s.vb);
	int rc = s.vf && s.vb ? compare(&s, 0, (int64_t)n, 0, (int64_t)m) : -1;
	free(s.vf);
	free(s.vb);
	if (approx)
		*approx = s.approx;
	return rc;
}

/* ---- shortest: Myers's search or Hirschberg's split, the cheaper ----------------- */

static uint64_t product(uint64_t x, uint64_t y)
{
	return x && y > UINT64_MAX / x ? UINT64_MAX : x * y;
}

/* The word operations of one split by LCS rows (both halves of b). */
static uint64_t rows_cost(int64_t n, int64_t m)
{
	return product((uint64_t)n, (uint64_t)m) / 64 + (uint64_t)(2 * n + m);
}

static int shortest_middle(struct seq *s, int64_t a0, int64_t a1, int64_t b0, int64_t b1,
			   int64_t d);

/* A shortest script of a[a0..a1) x b[b0..b1), which is at most d long
 * (d < 0: not known). */
static int shortest(struct seq *s, int64_t a0, int64_t a1, int64_t b0, int64_t b1, int64_t d)
{
	return trimmed(s, a0, a1, b0, b1, d, shortest_middle);
}

/* Each side of a middle snake, as short as can be. */
static int around(struct seq *s, int64_t a0, int64_t a1, int64_t b0, int64_t b1,
		  const struct snake *sn)
{
	int rc = shortest(s, a0, sn->x, b0, sn->y, sn->d);
	if (rc == 0)
		rc = emit_run(s, NST_SEQ_SAME, sn->x, sn->y, sn->u - sn->x);
	return rc == 0 ? shortest(s, sn->u, a1, sn->v, b1, sn->d) : rc;
}

/* Myers's middle snake where it is the cheaper way.  With the script's
 * length d known: not at all when its rounds alone, (d/2)^2 diagonals,
 * cost more than a split; to the end when (n + m) d, its worst, costs
 * less.  Else it is tried until an eighth of a split's cost is spent (its
 * worst is seldom reached: where few launches differ it ends long
 * before). */
static bool by_myers(struct seq *s, int64_t a0, int64_t a1, int64_t b0, int64_t b1, int64_t d,
		     struct snake *sn)
{
	int64_t n = a1 - a0, m = b1 - b0;
	uint64_t rows = rows_cost(n, m);
	if (m < 2) /* no middle of b to split at; Myers's search is O(n) here */
		return middle_snake(s, a0, a1, b0, b1, sn);
	if (d >= 0 && product((uint64_t)d, (uint64_t)d) / 4 > rows)
		return false;
	bool cheap = d >= 0 && product((uint64_t)(n + m), (uint64_t)d) <= rows;
	s->give_up = cheap ? 0 : s->work + rows / 8 + 1;
	bool found = middle_snake(s, a0, a1, b0, b1, sn);
	s->give_up = 0;
	return found;
}

static int room_for_rows(struct room *r)
{
	if (r->fwd)
		return 0;
	r->fwd = malloc((r->n + 1) * sizeof *r->fwd);
	r->bwd = malloc((r->n + 1) * sizeof *r->bwd);
	r->ra = malloc((r->n + 1) * sizeof *r->ra);
	r->rb = malloc((r->m + 1) * sizeof *r->rb);
	if (!r->fwd || !r->bwd || !r->ra || !r->rb)
		return -1;
	return nst_lcs_space_init(&r->lcs, r->nsym, r->n, r->m);
}

static void reversed(uint32_t *to, const uint32_t *from, int64_t n)
{
	for (int64_t i = 0; i < n; i++)
		to[i] = from[n - 1 - i];
}

/* Hirschberg's split at the middle of b: the i where LCS(a[..i), b's
 * first half) + LCS(a[i..), b's second half) is largest. */
static int by_rows(struct seq *s, int64_t a0, int64_t a1, int64_t b0, int64_t b1)
{
	struct room *r = s->room;
	if (room_for_rows(r) < 0)
		return -1;
	int64_t n = a1 - a0, bm = b0 + (b1 - b0) / 2, at = 0, best = -1;
	s->work += nst_lcs_row(&r->lcs, s->a + a0, (size_t)n, s->b + b0, (size_t)(bm - b0), r->fwd);
	reversed(r->ra, s->a + a0, n);
	reversed(r->rb, s->b + bm, b1 - bm);
	s->work += nst_lcs_row(&r->lcs, r->ra, (size_t)n, r->rb, (size_t)(b1 - bm), r->bwd);
	for (int64_t i = 0; i <= n; i++)
		if (r->fwd[i] + r->bwd[n - i] > best)
			best = r->fwd[i] + r->bwd[n - i], at = i;
	int64_t left = at + (bm - b0) - 2 * r->fwd[at];
	int64_t right = (n - at) + (b1 - bm) - 2 * r->bwd[n - at];
	int rc = shortest(s, a0, a0 + at, b0, bm, left);
	return rc == 0 ? shortest(s, a0 + at, a1, bm, b1, right) : rc;
}

static int shortest_middle(struct seq *s, int64_t a0, int64_t a1, int64_t b0, int64_t b1,
			   int64_t d)
{
	struct snake sn;
	if (by_myers(s, a0, a1, b0, b1, d, &sn))
		return around(s, a0, a1, b0, b1, &sn);
	return by_rows(s, a0, a1, b0, b1);
}

/* ---- past the work allowed: anchors ---------------------------------------------- */

/* Gaps nested past this many are aligned along the diagonal. */
#define ANCHOR_DEPTH 8

struct anchors {
	int64_t *i, *j; /* a[i[t]] == b[j[t]], both increasing */
	size_t n;
};

static void count_ids(struct room *r, const uint32_t *a, int64_t a0, int64_t a1,
		      const uint32_t *b, int64_t b0, int64_t b1)
{
	for (int64_t i = a0; i < a1; i++) {
		r->count_a[a[i]] += r->count_a[a[i]] < 2;
		r->pos_a[a[i]] = (size_t)i;
	}
	for (int64_t j = b0; j < b1; j++)
		r->count_b[b[j]] += r->count_b[b[j]] < 2;
}

static void uncount_ids(struct room *r, const uint32_t *a, int64_t a0, int64_t a1,
			const uint32_t *b, int64_t b0, int64_t b1)
{
	for (int64_t i = a0; i < a1; i++)
		r->count_a[a[i]] = 0;
	for (int64_t j = b0; j < b1; j++)
		r->count_b[b[j]] = 0;
}

/* The longest chain of the pairs (i[t], j[t]), j increasing, with i
 * increasing too (patience sorting), kept in place. */
static int longest_chain(struct anchors *an)
{
	size_t *tail = malloc((an->n + 1) * sizeof *tail), *prev = malloc((an->n + 1) * sizeof *prev);
	size_t len = 0;
	for (size_t t = 0; tail && prev && t < an->n; t++) {
		size_t lo = 0, hi = len;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (an->i[tail[mid]] < an->i[t])
				lo = mid + 1;
			else
				hi = mid;
		}
		prev[t] = lo ? tail[lo - 1] : SIZE_MAX;
		tail[lo] = t;
		len += lo == len;
	}
	int rc = tail && prev ? 0 : -1;
	/* the chain's pairs by walking back, then moved down to the front
	 * (the k-th is at k or later) */
	for (size_t k = len, t = len ? tail[len - 1] : 0; rc == 0 && k-- > 0; t = prev[t])
		tail[k] = t;
	for (size_t k = 0; rc == 0 && k < len; k++) {
		an->i[k] = an->i[tail[k]];
		an->j[k] = an->j[tail[k]];
	}
	an->n = rc == 0 ? len : 0;
	free(tail);
	free(prev);
	return rc;
}

/* The ids once in a[a0..a1) and once in b[b0..b1), in the longest chain
 * of the same order on both sides. */
static int find_anchors(struct seq *s, int64_t a0, int64_t a1, int64_t b0, int64_t b1,
			struct anchors *an)
{
	struct room *r = s->room;
	size_t most = (size_t)(a1 - a0 < b1 - b0 ? a1 - a0 : b1 - b0);
	an->i = malloc((most + 1) * sizeof *an->i);
	an->j = malloc((most + 1) * sizeof *an->j);
	an->n = 0;
	if (!an->i || !an->j)
		return -1;
	count_ids(r, s->a, a0, a1, s->b, b0, b1);
	for (int64_t j = b0; j < b1; j++)
		if (r->count_a[s->b[j]] == 1 && r->count_b[s->b[j]] == 1) {
			an->i[an->n] = (int64_t)r->pos_a[s->b[j]];
			an->j[an->n++] = j;
		}
	uncount_ids(r, s->a, a0, a1, s->b, b0, b1);
	s->work += (uint64_t)(a1 - a0 + b1 - b0);
	return longest_chain(an);
}

static int anchored_middle(struct seq *s, int64_t a0, int64_t a1, int64_t b0, int64_t b1,
			   int64_t allowed);

/* a[a0..a1) x b[b0..b1) on anchors, with that much work allowed. */
static int anchored(struct seq *s, int64_t a0, int64_t a1, int64_t b0, int64_t b1,
		    int64_t allowed)
{
	return trimmed(s, a0, a1, b0, b1, allowed, anchored_middle);
}

/* Each gap is allowed its share of the work by its length. */
static int between_anchors(struct seq *s, int64_t a0, int64_t a1, int64_t b0, int64_t b1,
			   int64_t allowed, const struct anchors *an)
{
	double per = (double)allowed / (double)(a1 - a0 + b1 - b0);
	int rc = 0;
	s->room->depth++;
	for (size_t t = 0; rc == 0 && t < an->n; t++) {
		int64_t gap = an->i[t] - a0 + an->j[t] - b0;
		rc = anchored(s, a0, an->i[t], b0, an->j[t], (int64_t)(per * (double)gap));
		if (rc == 0)
			rc = emit_run(s, NST_SEQ_SAME, an->i[t], an->j[t], 1);
		a0 = an->i[t] + 1, b0 = an->j[t] + 1;
	}
	if (rc == 0)
		rc = anchored(s, a0, a1, b0, b1, (int64_t)(per * (double)(a1 - a0 + b1 - b0)));
	s->room->depth--;
	return rc;
}

/* The cost of shortest_middle at most: a split's, and an eighth more for
 * Myers's try. */
static uint64_t shortest_cost(int64_t n, int64_t m)
{
	uint64_t cost = rows_cost(n, m);
	return cost + cost / 8;
}

static int banded_middle(struct seq *s, int64_t a0, int64_t a1, int64_t b0, int64_t b1,
			 int64_t allowed);

/* Shortest if it fits the work allowed, else each half of a with the same
 * half of b, each allowed half: past the work, a band along the diagonal
 * (halving both sides halves the cost, two quarters). */
static int banded(struct seq *s, int64_t a0, int64_t a1, int64_t b0, int64_t b1, int64_t allowed)
{
	return trimmed(s, a0, a1, b0, b1, allowed, banded_middle);
}

static int banded_middle(struct seq *s, int64_t a0, int64_t a1, int64_t b0, int64_t b1,
			 int64_t allowed)
{
	if (shortest_cost(a1 - a0, b1 - b0) <= (uint64_t)allowed || a1 - a0 < 2 || b1 - b0 < 2)
		return shortest_middle(s, a0, a1, b0, b1, -1);
	int64_t am = a0 + (a1 - a0) / 2, bm = b0 + (b1 - b0) / 2;
	int rc = banded(s, a0, am, b0, bm, allowed / 2);
	return rc == 0 ? banded(s, am, a1, bm, b1, allowed / 2) : rc;
}

/* A gap: as short as can be where the work allowed covers it, else on
 * its own anchors, else along the diagonal. */
static int anchored_middle(struct seq *s, int64_t a0, int64_t a1, int64_t b0, int64_t b1,
			   int64_t allowed)
{
	if (shortest_cost(a1 - a0, b1 - b0) <= (uint64_t)allowed)
		return shortest_middle(s, a0, a1, b0, b1, -1);
	struct anchors an = { 0 };
	int rc = s->room->depth < ANCHOR_DEPTH ? find_anchors(s, a0, a1, b0, b1, &an) : 0;
	if (rc == 0 && an.n)
		rc = between_anchors(s, a0, a1, b0, b1, allowed, &an);
	else if (rc == 0)
		rc = banded_middle(s, a0, a1, b0, b1, allowed);
	free(an.i);
	free(an.j);
	return rc;
}

/* The whole: shortest when a split fits the work or Myers's search ends
 * within it, else anchored. */
static int align_middle(struct seq *s, int64_t a0, int64_t a1, int64_t b0, int64_t b1,
			int64_t work)
{
	struct room *r = s->room;
	if (!work || product((uint64_t)(a1 - a0), (uint64_t)(b1 - b0)) / 64 <= (uint64_t)work)
		return shortest_middle(s, a0, a1, b0, b1, -1);
	struct snake sn;
	s->give_up = s->work + (uint64_t)work;
	bool found = middle_snake(s, a0, a1, b0, b1, &sn);
	s->give_up = 0;
	if (found)
		return around(s, a0, a1, b0, b1, &sn);
	r->anchored = true;
	r->count_a = calloc(r->nsym, sizeof *r->count_a);
	r->count_b = calloc(r->nsym, sizeof *r->count_b);
	r->pos_a = malloc(r->nsym * sizeof *r->pos_a);
	if (!r->count_a || !r->count_b || !r->pos_a)
		return -1;
	return anchored_middle(s, a0, a1, b0, b1, work);
}

/* ---- ids made dense, for tables by id -------------------------------------------- */

static int ascending(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	return (a > b) - (a < b);
}

/* to[i] = the rank of from[i] among the sorted distinct ids. */
static void rank_ids(uint32_t *to, const uint32_t *from, size_t n, const uint32_t *ids,
		     size_t nids)
{
	for (size_t i = 0; i < n; i++) {
		size_t lo = 0, hi = nids;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (ids[mid] < from[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		to[i] = (uint32_t)lo;
	}
}

/* The ranks of ids no larger than top (few next to n + m): a table by id. */
static int rank_small_ids(const uint32_t *a, size_t n, const uint32_t *b, size_t m, uint32_t top,
			  uint32_t *to, size_t *nsym)
{
	uint32_t *rank = calloc((size_t)top + 1, sizeof *rank);
	if (!rank)
		return -1;
	for (size_t i = 0; i < n + m; i++)
		rank[i < n ? a[i] : b[i - n]] = 1;
	uint32_t k = 0;
	for (size_t v = 0; v <= top; v++) {
		uint32_t seen = rank[v];
		rank[v] = k;
		k += seen;
	}
	for (size_t i = 0; i < n + m; i++)
		to[i] = rank[i < n ? a[i] : b[i - n]];
	*nsym = k ? k : 1;
	free(rank);
	return 0;
}

static int rank_any_ids(const uint32_t *a, size_t n, const uint32_t *b, size_t m, uint32_t *to,
			size_t *nsym)
{
	uint32_t *ids = malloc((n + m + 1) * sizeof *ids);
	if (!ids)
		return -1;
	/* a or b is NULL where it is empty (a stream only one side has) */
	if (n)
		memcpy(ids, a, n * sizeof *ids);
	if (m)
		memcpy(ids + n, b, m * sizeof *ids);
	qsort(ids, n + m, sizeof *ids, ascending);
	size_t k = 0;
	for (size_t i = 0; i < n + m; i++)
		if (k == 0 || ids[i] != ids[k - 1])
			ids[k++] = ids[i];
	rank_ids(to, a, n, ids, k);
	rank_ids(to + n, b, m, ids, k);
	*nsym = k ? k : 1;
	free(ids);
	return 0;
}

/* a and b with their ids numbered 0..*nsym in sorted order; *da holds
 * both (a's, then b's), malloc'ed. */
static int dense_ids(const uint32_t *a, size_t n, const uint32_t *b, size_t m, uint32_t **da,
		     size_t *nsym)
{
	uint32_t top = 0;
	for (size_t i = 0; i < n + m; i++)
		top = (i < n ? a[i] : b[i - n]) > top ? (i < n ? a[i] : b[i - n]) : top;
	*da = malloc((n + m + 1) * sizeof **da);
	if (!*da)
		return -1;
	if (top / 4 <= n + m)
		return rank_small_ids(a, n, b, m, top, *da, nsym);
	return rank_any_ids(a, n, b, m, *da, nsym);
}

static void room_release(struct room *r)
{
	nst_lcs_space_release(&r->lcs);
	free(r->fwd);
	free(r->bwd);
	free(r->ra);
	free(r->rb);
	free(r->count_a);
	free(r->count_b);
	free(r->pos_a);
}

int nst_seq_align(const uint32_t *a, size_t n, const uint32_t *b, size_t m, uint64_t work,
		  nst_seq_fn fn, void *arg, bool *shortest)
{
	int64_t reach = ((int64_t)n + (int64_t)m + 1) / 2 + 1;
	struct room r = { .n = n, .m = m };
	struct seq s = { .off = reach + 1, .fn = fn, .arg = arg, .room = &r };
	uint32_t *ids = NULL;
	size_t size = (size_t)(2 * reach + 3);
	s.vf = malloc(size * sizeof *s.vf);
	s.vb = malloc(size * sizeof *s.vb);
	int rc = s.vf && s.vb ? dense_ids(a, n, b, m, &ids, &r.nsym) : -1;
	if (rc == 0) {
		s.a = ids, s.b = ids + n;
		rc = trimmed(&s, 0, (int64_t)n, 0, (int64_t)m,
			     work > INT64_MAX ? INT64_MAX : (int64_t)work, align_middle);
	}
	free(s.vf);
	free(s.vb);
	free(ids);
	room_release(&r);
	if (shortest)
		*shortest = !r.anchored;
	return rc;
}
