/* Myers, "An O(ND) Difference Algorithm and Its Variations" (1986),
 * section 4b: the middle snake found from both ends at once, then each
 * half aligned the same way; O((N+M)D) time, O(N+M) space. */
#include "core/seqdiff.h"

#include <stdlib.h>

struct seq {
	const uint32_t *a, *b;
	int64_t *vf, *vb; /* furthest x on each diagonal, forward and backward */
	int64_t off;      /* diagonal k is at [off + k] */
	int64_t max_d;    /* 0: none */
	bool approx;
	nst_seq_fn fn;
	void *arg;
};

/* A snake of the forward path in a[a0..a1) x b[b0..b1), (x, y) to (u, v). */
struct snake {
	int64_t x, y, u, v;
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
		int64_t kb = delta - k;
		if ((delta & 1) && kb >= -(d - 1) && kb <= d - 1 && x + vb[kb] >= n) {
			*out = (struct snake){ a0 + sx, b0 + sy, a0 + x, b0 + y };
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
		int64_t kf = delta - k;
		if (!(delta & 1) && kf >= -d && kf <= d && x + vf[kf] >= n) {
			*out = (struct snake){ a0 + n - x, b0 + m - y, a0 + n - sx, b0 + m - sy };
			return true;
		}
	}
	return false;
}

/* The middle snake of a[a0..a1) x b[b0..b1); false when the edit script
 * is longer than max_d. */
static bool middle_snake(struct seq *s, int64_t a0, int64_t a1, int64_t b0, int64_t b1,
			 struct snake *out)
{
	int64_t n = a1 - a0, m = b1 - b0;
	s->vf[s->off + 1] = 0;
	s->vb[s->off + 1] = 0;
	for (int64_t d = 0; d <= (n + m + 1) / 2; d++) {
		if (s->max_d && 2 * d > s->max_d)
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

static int compare(struct seq *s, int64_t a0, int64_t a1, int64_t b0, int64_t b1)
{
	int64_t prefix = 0, suffix = 0;
	while (a0 + prefix < a1 && b0 + prefix < b1 && s->a[a0 + prefix] == s->b[b0 + prefix])
		prefix++;
	int rc = emit_run(s, NST_SEQ_SAME, a0, b0, prefix);
	a0 += prefix, b0 += prefix;
	while (a1 - suffix > a0 && b1 - suffix > b0 && s->a[a1 - 1 - suffix] == s->b[b1 - 1 - suffix])
		suffix++;
	a1 -= suffix, b1 -= suffix;
	struct snake sn;
	if (rc != 0) {
		return rc;
	} else if (a0 == a1) {
		rc = emit_run(s, NST_SEQ_ADD, a0, b0, b1 - b0);
	} else if (b0 == b1) {
		rc = emit_run(s, NST_SEQ_DEL, a0, b0, a1 - a0);
	} else if (middle_snake(s, a0, a1, b0, b1, &sn)) {
		/* both ends differ, so the script is at least 2 long and each
		 * half is shorter: the recursion ends */
		rc = compare(s, a0, sn.x, b0, sn.y);
		if (rc == 0)
			rc = emit_run(s, NST_SEQ_SAME, sn.x, sn.y, sn.u - sn.x);
		if (rc == 0)
			rc = compare(s, sn.u, a1, sn.v, b1);
	} else if (a1 - a0 > 1 && b1 - b0 > 1) {
		/* too different to search whole: each half on its own */
		int64_t am = a0 + (a1 - a0) / 2, bm = b0 + (b1 - b0) / 2;
		s->approx = true;
		rc = compare(s, a0, am, b0, bm);
		if (rc == 0)
			rc = compare(s, am, a1, bm, b1);
	} else {
		s->approx = true;
		rc = emit_run(s, NST_SEQ_DEL, a0, b0, a1 - a0);
		if (rc == 0)
			rc = emit_run(s, NST_SEQ_ADD, a1, b0, b1 - b0);
	}
	return rc == 0 ? emit_run(s, NST_SEQ_SAME, a1, b1, suffix) : rc;
}

int nst_seq_diff(const uint32_t *a, size_t n, const uint32_t *b, size_t m, size_t max_d,
		 nst_seq_fn fn, void *arg, bool *approx)
{
	int64_t reach = ((int64_t)n + (int64_t)m + 1) / 2 + 1;
	if (max_d && (int64_t)max_d / 2 + 1 < reach)
		reach = (int64_t)max_d / 2 + 1;
	struct seq s = { a, b, NULL, NULL, reach + 1, (int64_t)max_d, false, fn, arg };
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
