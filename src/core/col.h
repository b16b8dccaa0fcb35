/* An integer column as the events layer stores it: int64 values, or a
 * base and 32-bit offsets from it while every value of the column fits
 * (most ids, dimensions and counts do: half the memory per row), or no
 * array at all while every value is base + step * row. */
#ifndef NSTATS_CORE_COL_H
#define NSTATS_CORE_COL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NST_NULL_I64 INT64_MIN
#define NST_NULL_I32 INT32_MIN

/* Read it with nst_col_at(); a column lent by the events layer never
 * changes (nst_ev_i64 of a 32-bit column makes an int64 copy beside it):
 * reports on other threads may be reading it.  With neither array, row
 * r holds base + step * r, step 1 or 0: a table's rowids (1 to n as a
 * rule) and a column of one value (one device, one context, a NULL
 * callchainId everywhere) take no memory. */
struct nst_col {
	const int64_t *i64;
	const int32_t *i32; /* NULL when i64 is set; NST_NULL_I32 is NULL */
	int64_t base;       /* NST_NULL_I64 with step 0: every row NULL */
	int64_t step;
};

static inline int64_t nst_col_at(const struct nst_col *c, size_t row)
{
	if (c->i64)
		return c->i64[row];
	if (!c->i32)
		return (int64_t)((uint64_t)c->base + (uint64_t)c->step * row);
	int32_t v = c->i32[row];
	return v == NST_NULL_I32 ? NST_NULL_I64 : c->base + v;
}

/* A column's value, NST_NULL_I64 when the column is absent (NULL). */
static inline int64_t nst_col_or_null(const struct nst_col *c, size_t row)
{
	return c ? nst_col_at(c, row) : NST_NULL_I64;
}

/* Row i of a list of rows where NULL lists every row: rows[i], or i. */
static inline uint32_t nst_row_at(const uint32_t *rows, size_t i)
{
	return rows ? rows[i] : (uint32_t)i;
}

/* An int64 array seen as a column. */
static inline struct nst_col nst_col_of(const int64_t *values)
{
	return (struct nst_col){ .i64 = values, .i32 = NULL, .base = 0 };
}

/* Durations of rows: a column of them (end - start, read as one), or a
 * start and an end array.  NULL where end is NULL (an open range). */
struct nst_span {
	const struct nst_col *dur; /* NULL: from start and end */
	const int64_t *start, *end;
};

static inline int64_t nst_span_at(const struct nst_span *s, size_t row)
{
	if (s->dur)
		return nst_col_at(s->dur, row);
	int64_t end = s->end[row];
	return end == NST_NULL_I64 ? NST_NULL_I64 : end - s->start[row];
}

/* Neither a column nor both arrays: the table has no start or end. */
static inline bool nst_span_none(const struct nst_span *s)
{
	return !s->dur && (!s->start || !s->end);
}

#endif
