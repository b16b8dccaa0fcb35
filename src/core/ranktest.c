/* The Mann-Whitney U test (Mann and Whitney 1947; the exact distribution
 * with ties as in Lehmann, "Nonparametrics", 1975, chapter 1), the
 * Hodges-Lehmann shift with Lehmann's interval, and Holm's step-down
 * adjustment (Holm 1979).  Ranks are kept doubled, so that midranks stay
 * integers and the exact distribution is counted, not approximated. */
#include "core/ranktest.h"
#include "core/normal.h"
#include "core/pairdiff.h"

#include <math.h>
#include <stdlib.h>

/* What the merge of a and b gives. */
struct ranks {
	uint64_t u2;         /* twice U of B */
	long double ties;    /* the sum of t^3 - t over the groups of t equal values */
	size_t ngroups;
	/* each group's size in rank order, when n + m <= NST_RANK_EXACT_MAX */
	unsigned char size[NST_RANK_EXACT_MAX];
};

/* Midranks and tie groups in one merge, O(n + m). */
static void merge_ranks(const int64_t *a, size_t n, const int64_t *b, size_t m, struct ranks *r)
{
	size_t i = 0, j = 0;
	*r = (struct ranks){ 0 };
	while (i < n || j < m) {
		int64_t v = i < n && (j == m || a[i] <= b[j]) ? a[i] : b[j];
		size_t ta = 0, tb = 0;
		for (; i < n && a[i] == v; i++)
			ta++;
		for (; j < m && b[j] == v; j++)
			tb++;
		/* each of B's tb beats the i - ta smaller a's and ties the ta equal */
		r->u2 += (uint64_t)tb * (2 * (uint64_t)(i - ta) + ta);
		long double t = (long double)(ta + tb);
		r->ties += t * t * t - t;
		if (n + m <= NST_RANK_EXACT_MAX)
			r->size[r->ngroups] = (unsigned char)(ta + tb);
		r->ngroups++;
	}
}

/* ---- the exact distribution ------------------------------------------------ */

/* The ways to choose k of the N items, in tie groups of size[0..ngroups)
 * in rank order, whose doubled midranks sum to s, for s in 0..*len.  The
 * counts are integers below C(60, 30) < 2^63, exact in uint64_t: a group
 * of t items at doubled midrank d adds C(t, j) ways of taking j of them
 * for j * d.  Returns NULL when out of memory. */
static uint64_t *rank_sum_ways(const unsigned char *size, size_t ngroups, size_t k, size_t *len)
{
	size_t total = 0;
	for (size_t g = 0; g < ngroups; g++)
		total += size[g];
	size_t width = k * (2 * total - k + 1) + 1; /* the doubled sum of the top k ranks, + 1 */
	uint64_t *ways = calloc((k + 1) * width, sizeof *ways);
	if (!ways)
		return NULL;
	ways[0] = 1;
	size_t before = 0, reach = 0;
	for (size_t g = 0; g < ngroups; g++) {
		size_t t = size[g], d = 2 * before + t + 1;
		uint64_t choose[NST_RANK_EXACT_MAX + 1] = { 1 };
		for (size_t j = 1; j <= t; j++)
			choose[j] = choose[j - 1] * (t - j + 1) / j;
		/* rows from the top, so that the rows read are still the old ones */
		for (size_t kk = before + t < k ? before + t : k; kk >= 1; kk--)
			for (size_t j = 1; j <= t && j <= kk && j * d < width; j++) {
				uint64_t *to = ways + kk * width + j * d;
				const uint64_t *from = ways + (kk - j) * width;
				size_t end = reach + 1 < width - j * d ? reach + 1 : width - j * d;
				for (size_t s = 0; s < end; s++)
					to[s] += choose[j] * from[s];
			}
		before += t;
		reach += t * d;
	}
	*len = width;
	for (size_t s = 0; s < width; s++)
		ways[s] = ways[k * width + s];
	return ways;
}

static size_t smaller(size_t n, size_t m)
{
	return n < m ? n : m;
}

/* The smaller side's doubled rank sum, from twice U of B. */
static uint64_t smaller_rank_sum(size_t n, size_t m, uint64_t u2)
{
	uint64_t n_total = n + m, rb = u2 + (uint64_t)m * (m + 1);
	return m <= n ? rb : n_total * (n_total + 1) - rb;
}

/* P(|S - E[S]| >= |s - E[S]|), S the smaller side's rank sum. */
static int exact_p(size_t n, size_t m, const struct ranks *r, double *p)
{
	size_t k = smaller(n, m), len;
	uint64_t *ways = rank_sum_ways(r->size, r->ngroups, k, &len);
	if (!ways)
		return -1;
	int64_t mean2 = (int64_t)(k * (n + m + 1)), obs = (int64_t)smaller_rank_sum(n, m, r->u2);
	int64_t dev = llabs(obs - mean2);
	long double extreme = 0, all = 0;
	for (size_t s = 0; s < len; s++) {
		all += (long double)ways[s];
		if (llabs((int64_t)s - mean2) >= dev)
			extreme += (long double)ways[s];
	}
	free(ways);
	*p = (double)(extreme / all);
	return 0;
}

/* The largest c with P(U <= c) <= tail under the exact distribution
 * without ties; -1 when there is none. */
static int exact_u_below(size_t n, size_t m, double tail, int64_t *c)
{
	size_t k = smaller(n, m), len;
	unsigned char ones[NST_RANK_EXACT_MAX];
	for (size_t i = 0; i < n + m; i++)
		ones[i] = 1;
	uint64_t *ways = rank_sum_ways(ones, n + m, k, &len);
	if (!ways)
		return -1;
	long double all = 0, below = 0;
	for (size_t s = 0; s < len; s++)
		all += (long double)ways[s];
	size_t least = k * (k + 1); /* the doubled rank sum where U is 0 */
	*c = -1;
	for (size_t s = least; s < len; s += 2) {
		below += (long double)ways[s];
		if (below > (long double)tail * all)
			break;
		*c = (int64_t)(s - least) / 2;
	}
	free(ways);
	return 0;
}

/* ---- the normal approximation ---------------------------------------------- */

static double sigma_u(size_t n, size_t m, const struct ranks *r)
{
	long double nt = (long double)(n + m), nm = (long double)n * (long double)m;
	long double v = nm / 12 * ((nt + 1) - r->ties / (nt * (nt - 1)));
	return v > 0 ? (double)sqrtl(v) : 0;
}

static double normal_p(size_t n, size_t m, const struct ranks *r)
{
	double sigma = sigma_u(n, m, r);
	if (sigma == 0)
		return 1;
	double u = (double)r->u2 / 2, z = (fabs(u - (double)n * (double)m / 2) - 0.5) / sigma;
	return erfc((z > 0 ? z : 0) / sqrt(2));
}

/* ---- the shift and its interval -------------------------------------------- */

/* k - 1 of the interval's lower rank k: the largest c with P(U <= c) <=
 * (1 - conf) / 2; negative when there is none. */
static int interval_c(size_t n, size_t m, const struct ranks *r, double conf, int64_t *c)
{
	double tail = (1 - conf) / 2;
	if (n + m <= NST_RANK_EXACT_MAX)
		return exact_u_below(n, m, tail, c);
	double z = nst_normal_quantile((1 + conf) / 2);
	double v = floor((double)n * (double)m / 2 - z * sigma_u(n, m, r));
	*c = v < 0 ? -1 : (int64_t)v;
	return 0;
}

/* The shift and, when k >= 1, the differences of ranks k and n*m + 1 - k. */
static int shift_and_interval(const int64_t *a, size_t n, const int64_t *b, size_t m, int64_t c,
			      struct nst_rank_test *out)
{
	uint64_t nm = (uint64_t)n * m, rank[NST_PAIR_DIFF_MAX_RANKS];
	size_t nrank = 0, at_lo = 0, at_mid;
	uint64_t k = (uint64_t)(c + 1), lo = k < nm + 1 - k ? k : nm + 1 - k;
	if (c >= 0)
		rank[nrank++] = lo;
	at_mid = nrank;
	rank[nrank++] = (nm + 1) / 2;
	rank[nrank++] = nm / 2 + 1;
	if (c >= 0)
		rank[nrank++] = nm + 1 - lo;
	long double v[NST_PAIR_DIFF_MAX_RANKS];
	if (nst_pair_diff_ranks(a, n, b, m, rank, nrank, v) < 0)
		return -1;
	out->shift = (double)((v[at_mid] + v[at_mid + 1]) / 2);
	out->lo = c >= 0 ? (double)v[at_lo] : NAN;
	out->hi = c >= 0 ? (double)v[nrank - 1] : NAN;
	return 0;
}

int nst_rank_test(const int64_t *a, size_t n, const int64_t *b, size_t m, double conf,
		  struct nst_rank_test *out)
{
	*out = (struct nst_rank_test){ .p = 1, .shift = NAN, .lo = NAN, .hi = NAN };
	if (!n || !m)
		return 0;
	struct ranks r;
	merge_ranks(a, n, b, m, &r);
	out->u = (double)r.u2 / 2;
	out->exact = n + m <= NST_RANK_EXACT_MAX;
	if (out->exact ? exact_p(n, m, &r, &out->p) < 0 : (out->p = normal_p(n, m, &r), 0))
		return -1;
	if (out->p > 1)
		out->p = 1;
	int64_t c = -1;
	if (conf > 0 && conf < 1 && interval_c(n, m, &r, conf, &c) < 0)
		return -1;
	return shift_and_interval(a, n, b, m, c, out);
}

/* ---- Holm ------------------------------------------------------------------- */

struct ranked_p {
	double p;
	size_t at;
};

static int by_p(const void *x, const void *y)
{
	const struct ranked_p *a = x, *b = y;
	return a->p < b->p ? -1 : a->p > b->p ? 1 : (a->at > b->at) - (a->at < b->at);
}

int nst_holm(const double *p, size_t n, double *adj)
{
	struct ranked_p *r = malloc((n ? n : 1) * sizeof *r);
	if (!r)
		return -1;
	size_t tests = 0;
	for (size_t i = 0; i < n; i++) {
		adj[i] = p[i];
		if (!isnan(p[i]))
			r[tests++] = (struct ranked_p){ p[i], i };
	}
	qsort(r, tests, sizeof *r, by_p);
	double running = 0;
	for (size_t i = 0; i < tests; i++) {
		double v = (double)(tests - i) * r[i].p;
		running = v > running ? v : running;
		adj[r[i].at] = running < 1 ? running : 1;
	}
	free(r);
	return 0;
}
