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

bool nst_union_add(struct nst_union *u, int64_t start, int64_t end, struct nst_interval *closed)
{
	if (end <= start)
		return false;
	if (u->open && start <= u->piece.end) {
		if (end > u->piece.end)
			u->piece.end = end;
		return false;
	}
	bool had = u->open;
	if (had)
		*closed = u->piece;
	u->piece = (struct nst_interval){ start, end };
	u->open = true;
	return had;
}

bool nst_union_last(const struct nst_union *u, struct nst_interval *piece)
{
	if (u->open)
		*piece = u->piece;
	return u->open;
}

void nst_coverage_start(struct nst_coverage_acc *a, int64_t gap_threshold)
{
	*a = (struct nst_coverage_acc){ .threshold = gap_threshold };
}

void nst_coverage_add(struct nst_coverage_acc *a, int64_t s, int64_t end)
{
	struct nst_coverage *c = &a->c;
	int64_t e = end < s ? s : end;
	struct nst_interval closed;
	if (c->n++ == 0)
		c->first = c->last = s;
	if (e > c->last)
		c->last = e;
	if (e == s)
		return; /* covers nothing, so it splits no gap */
	if (!c->sum_overflow && !nst_add_i64(&c->sum, e - s))
		c->sum_overflow = true;
	if (nst_union_add(&a->u, s, e, &closed)) {
		c->covered += closed.end - closed.start;
		count_gap(c, s - closed.end, a->threshold);
	}
}

struct nst_coverage nst_coverage_end(const struct nst_coverage_acc *a)
{
	struct nst_coverage c = a->c;
	struct nst_interval last;
	if (nst_union_last(&a->u, &last))
		c.covered += last.end - last.start;
	return c;
}

struct nst_coverage nst_coverage_of(const struct nst_interval *iv, size_t n,
				    int64_t gap_threshold)
{
	struct nst_coverage_acc a;
	nst_coverage_start(&a, gap_threshold);
	for (size_t i = 0; i < n; i++)
		nst_coverage_add(&a, iv[i].start, iv[i].end);
	return nst_coverage_end(&a);
}

size_t nst_intervals_union(struct nst_interval *iv, size_t n)
{
	struct nst_union u = { .open = false };
	struct nst_interval piece;
	size_t k = 0;
	/* a closed piece is made of intervals before i: iv[k] is free */
	for (size_t i = 0; i < n; i++)
		if (nst_union_add(&u, iv[i].start, iv[i].end, &piece))
			iv[k++] = piece;
	if (nst_union_last(&u, &piece))
		iv[k++] = piece;
	return k;
}
