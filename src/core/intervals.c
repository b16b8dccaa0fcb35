#include "core/intervals.h"

#include <stdbool.h>
#include <stdlib.h>

#include "core/sqlstat.h"

static int cmp_interval(const void *a, const void *b)
{
	const struct nst_interval *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->end > y->end) - (x->end < y->end);
}

static void count_gap(struct nst_coverage *c, int64_t gap, int64_t threshold)
{
	if (gap > threshold) {
		c->gaps++;
		c->gap_time += gap;
	}
}

void nst_intervals_sort(struct nst_interval *iv, size_t n)
{
	if (n > 1)
		qsort(iv, n, sizeof *iv, cmp_interval);
}

struct nst_coverage nst_coverage_of(const struct nst_interval *iv, size_t n,
				    int64_t gap_threshold)
{
	struct nst_coverage c = { .n = n };
	if (n == 0)
		return c;
	c.first = iv[0].start;
	c.last = iv[0].start;
	bool any = false;
	int64_t piece_start = 0, piece_end = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t s = iv[i].start, e = iv[i].end < s ? s : iv[i].end;
		if (e > c.last)
			c.last = e;
		if (e == s)
			continue; /* covers nothing, so it splits no gap */
		if (!c.sum_overflow && !nst_add_i64(&c.sum, e - s))
			c.sum_overflow = true;
		if (!any || s > piece_end) {
			if (any) {
				c.covered += piece_end - piece_start;
				count_gap(&c, s - piece_end, gap_threshold);
			}
			piece_start = s;
			piece_end = e;
			any = true;
		} else if (e > piece_end) {
			piece_end = e;
		}
	}
	if (any)
		c.covered += piece_end - piece_start;
	return c;
}

size_t nst_intervals_union(struct nst_interval *iv, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (iv[i].end <= iv[i].start)
			continue;
		if (k && iv[i].start <= iv[k - 1].end) {
			if (iv[i].end > iv[k - 1].end)
				iv[k - 1].end = iv[i].end;
		} else
			iv[k++] = iv[i];
	}
	return k;
}
