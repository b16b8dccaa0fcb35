/* Rows kept in memory (nst_rows_sink): a report's rows for a caller that
 * lays them out itself, text copied out of the sink's borrowed cells. */
#include <stdlib.h>
#include <string.h>

#include "nstats/nstats.h"

static enum nst_status rows_begin(void *ctx, const char *const *cols, size_t n,
				  struct nst_error *err)
{
	struct nst_rows *t = ctx;
	t->cols = calloc(n ? n : 1, sizeof *t->cols);
	if (!t->cols)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	t->ncols = n;
	for (size_t i = 0; i < n; i++)
		if (!(t->cols[i] = strdup(cols[i])))
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	t->begun = true;
	return NST_OK;
}

static enum nst_status rows_row(void *ctx, const struct nst_cell *cells, struct nst_error *err)
{
	struct nst_rows *t = ctx;
	if (t->nrows == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		struct nst_cell *p = realloc(t->cells, cap * (t->ncols ? t->ncols : 1) * sizeof *p);
		if (!p)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		t->cells = p;
		t->cap = cap;
	}
	struct nst_cell *row = t->cells + t->nrows++ * t->ncols;
	for (size_t i = 0; i < t->ncols; i++) {
		row[i] = cells[i];
		if (cells[i].kind == NST_TEXT && !(row[i].v.s = strdup(cells[i].v.s))) {
			for (size_t j = i; j < t->ncols; j++)
				row[j].kind = NST_NULL; /* what nst_rows_release frees */
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		}
	}
	return NST_OK;
}

struct nst_sink nst_rows_sink(struct nst_rows *r)
{
	return (struct nst_sink){ rows_begin, rows_row, NULL, r };
}

void nst_rows_release(struct nst_rows *t)
{
	for (size_t i = 0; t->cells && i < t->nrows * t->ncols; i++)
		if (t->cells[i].kind == NST_TEXT)
			free((char *)t->cells[i].v.s);
	for (size_t i = 0; t->cols && i < t->ncols; i++)
		free(t->cols[i]);
	free(t->cols);
	free(t->cells);
	*t = (struct nst_rows){ 0 };
}

int nst_rows_col(const struct nst_rows *t, const char *label)
{
	size_t n = strlen(label);
	for (size_t i = 0; i < t->ncols; i++)
		if (strncmp(t->cols[i], label, n) == 0 && (t->cols[i][n] == '\0' || t->cols[i][n] == ':'))
			return (int)i;
	return -1;
}

const struct nst_cell *nst_rows_cell(const struct nst_rows *t, size_t row, int col)
{
	static const struct nst_cell null = { .kind = NST_NULL };
	return col < 0 || (size_t)col >= t->ncols || row >= t->nrows
		       ? &null : &t->cells[row * t->ncols + (size_t)col];
}
