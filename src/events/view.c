/* Filtered views of the event tables: nsys's --filter-time/--filter-nvtx.
 *
 * nsys shadows every table that has start and end columns with a view
 * keeping the rows that overlap the window (and, for an NVTX range, its
 * thread or process); SQL over the other tables is untouched.  A view
 * here does the same to the columns read once from the export: the rows
 * to keep are found per table from its start, end, globalTid and
 * globalPid, and each column asked for is copied down to them once.
 * A column keeps rowid order, and the "rowid" column the rows' rowids,
 * as nsys's views do. */
#include <stdlib.h>
#include <string.h>

#include "core/big.h"
#include "events/events_int.h"

struct view_col {
	char *name;
	bool text;
	void *cells; /* int64_t[] or const char *[] of the kept rows */
	struct nst_col col; /* an integer column's cells, as nst_ev_col lends them */
	struct view_col *next;
};

struct view_table {
	char *name;
	bool whole;    /* not filtered: columns are the unfiltered ones */
	size_t n;      /* rows kept */
	uint32_t *keep; /* their indexes in the unfiltered table */
	struct view_col *cols;
	struct view_table *next;
};

struct ev_view {
	struct nst_events base;  /* first: a view is a struct nst_events */
	struct nst_ev_window w;
	struct view_table *tables;
};

static const struct ev_ops view_ops;

/* The columns a table's filter reads. */
static const char *const filter_cols[] = { "start", "end", "globalTid", "globalPid" };

struct nst_events *nst_ev_filter(struct nst_events *all, const struct nst_ev_window *w)
{
	struct ev_view *v = calloc(1, sizeof *v);
	if (!v)
		return NULL;
	all = all->all;
	v->w = *w;
	if (!ev_base_init(&v->base, &view_ops, all->db, all->hooks, all, &v->w)) {
		free(v);
		return NULL;
	}
	return &v->base;
}

static void view_free(struct nst_events *base)
{
	struct ev_view *v = (struct ev_view *)base;
	for (struct view_table *t = v->tables, *tn; t; t = tn) {
		tn = t->next;
		for (struct view_col *c = t->cols, *cn; c; c = cn) {
			cn = c->next;
			free(c->cells);
			free(c->name);
			free(c);
		}
		free(t->keep);
		free(t->name);
		free(t);
	}
	ev_base_release(&v->base);
	free(v);
}

enum nst_status nst_ev_want_filter(struct nst_events *ev, const char *table)
{
	enum nst_status s = NST_OK;
	ev = nst_ev_all(ev);
	for (size_t i = 0; s == NST_OK && i < sizeof filter_cols / sizeof *filter_cols; i++)
		s = nst_ev_want(ev, table, filter_cols[i], false);
	return s;
}

static enum nst_status view_want(struct nst_events *base, const char *table,
				 const char *column, bool text)
{
	enum nst_status s = nst_ev_want(base->all, table, column, text);
	return s == NST_OK ? nst_ev_want_filter(base->all, table) : s;
}

/* The store reads every table a view will cut. */
static enum nst_status view_preload(struct nst_events *base, struct nst_error *err)
{
	return nst_ev_preload(base->all, err);
}

/* ---- which rows stay ------------------------------------------------------ */

#define NUL NST_NULL_I64

/* SQL's three-valued overlap test: a row stays only when one of the
 * three terms is true, so a NULL start or end can only fail its terms. */
static bool overlaps(const struct nst_ev_window *w, int64_t start, int64_t end)
{
	if (start != NUL && start >= w->start && start < w->end)
		return true;
	if (end != NUL && end >= w->start && end < w->end)
		return true;
	return start != NUL && end != NUL && start < w->start && end >= w->end;
}

/* The process part of a globalTid or globalPid, as nsys shifts it. */
static int64_t process_of(int64_t g) { return g >> 24; }

static bool in_scope(const struct nst_ev_window *w, const struct nst_col *gtid_col,
		     const struct nst_col *gpid_col, size_t r)
{
	if (w->scope == NST_EV_ALL_THREADS)
		return true;
	if (gtid_col) {
		int64_t gtid = nst_col_at(gtid_col, r);
		if (gtid == NUL)
			return false;
		return w->scope == NST_EV_THREAD ? gtid == w->gtid
						 : process_of(gtid) == process_of(w->gtid);
	}
	if (gpid_col) {
		int64_t gpid = nst_col_at(gpid_col, r);
		return gpid != NUL && process_of(gpid) == process_of(w->gtid);
	}
	return true;
}

static enum nst_status select_rows(struct ev_view *v, struct view_table *t,
				   struct nst_error *err)
{
	const struct nst_col *c[4] = { NULL };
	size_t n = 0;
	enum nst_status s = nst_ev_rows(v->base.all, t->name, &n, err);
	for (size_t i = 0; s == NST_OK && i < 4; i++)
		s = nst_ev_col(v->base.all, t->name, filter_cols[i], &c[i], err);
	if (s != NST_OK)
		return s;
	if (!c[0] || !c[1]) {
		t->whole = true;
		t->n = n;
		return NST_OK;
	}
	if (n > UINT32_MAX)
		return nst_fail(err, NST_ERR_INTERNAL, "%s: too many rows to filter", t->name);
	t->keep = nst_big_alloc(n, sizeof *t->keep);
	if (!t->keep)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t r = 0; r < n; r++)
		if (overlaps(&v->w, nst_col_at(c[0], r), nst_col_at(c[1], r)) &&
		    in_scope(&v->w, c[2], c[3], r))
			t->keep[t->n++] = (uint32_t)r;
	return NST_OK;
}

static enum nst_status table_of(struct ev_view *v, const char *name,
				struct view_table **out, struct nst_error *err)
{
	for (struct view_table *t = v->tables; t; t = t->next)
		if (strcmp(t->name, name) == 0) {
			*out = t;
			return NST_OK;
		}
	struct view_table *t = calloc(1, sizeof *t);
	if (!t || !(t->name = strdup(name))) {
		free(t);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	enum nst_status s = select_rows(v, t, err);
	if (s != NST_OK) {
		free(t->keep);
		free(t->name);
		free(t);
		return s;
	}
	t->next = v->tables;
	v->tables = t;
	*out = t;
	return NST_OK;
}

static enum nst_status view_rows(struct nst_events *base, const char *table, size_t *n,
			     struct nst_error *err)
{
	struct ev_view *v = (struct ev_view *)base;
	struct view_table *t;
	enum nst_status s = table_of(v, table, &t, err);
	*n = s == NST_OK ? t->n : 0;
	return s;
}

/* ---- columns of the kept rows --------------------------------------------- */

/* The kept rows of a text column (all[]) or an integer column (ints). */
static struct view_col *copy_col(struct view_table *t, const char *name, bool text,
				 const char *const *all, const struct nst_col *ints)
{
	struct view_col *c = calloc(1, sizeof *c);
	size_t size = text ? sizeof(const char *) : sizeof(int64_t);
	if (!c || !(c->name = strdup(name)) ||
	    !(c->cells = nst_big_alloc(t->n, size))) {
		if (c)
			free(c->name);
		free(c);
		return NULL;
	}
	c->text = text;
	const char **s = c->cells;
	int64_t *i = c->cells;
	for (size_t k = 0; k < t->n; k++) {
		if (text)
			s[k] = all[t->keep[k]];
		else
			i[k] = nst_col_at(ints, t->keep[k]);
	}
	c->col.i64 = text ? NULL : i;
	c->next = t->cols;
	t->cols = c;
	return c;
}

/* The copy of a filtered table's column, made on first use; *out stays
 * NULL when the table is not filtered (*t says so: read the unfiltered
 * column) or the column does not exist. */
static enum nst_status kept_col(struct ev_view *v, const char *table,
				const char *column, bool text, struct view_table **t,
				struct view_col **out, struct nst_error *err)
{
	*out = NULL;
	enum nst_status s = table_of(v, table, t, err);
	if (s != NST_OK || (*t)->whole)
		return s;
	for (struct view_col *c = (*t)->cols; c; c = c->next)
		if (c->text == text && strcmp(c->name, column) == 0) {
			*out = c;
			return NST_OK;
		}
	const char *const *all = NULL;
	const struct nst_col *ints = NULL;
	s = text ? nst_ev_text(v->base.all, table, column, &all, err)
		 : nst_ev_col(v->base.all, table, column, &ints, err);
	if (s != NST_OK || (!all && !ints))
		return s;
	if (!(*out = copy_col(*t, column, text, all, ints)))
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	return NST_OK;
}

static enum nst_status view_i64(struct nst_events *base, const char *table,
			    const char *column, const int64_t **out,
			    struct nst_error *err)
{
	struct ev_view *v = (struct ev_view *)base;
	struct view_table *t = NULL;
	struct view_col *c;
	*out = NULL;
	enum nst_status s = kept_col(v, table, column, false, &t, &c, err);
	if (s == NST_OK && t->whole)
		return nst_ev_i64(v->base.all, table, column, out, err);
	*out = c ? c->cells : NULL;
	return s;
}

static enum nst_status view_col(struct nst_events *base, const char *table,
			    const char *column, const struct nst_col **out,
			    struct nst_error *err)
{
	struct ev_view *v = (struct ev_view *)base;
	struct view_table *t = NULL;
	struct view_col *c;
	*out = NULL;
	enum nst_status s = kept_col(v, table, column, false, &t, &c, err);
	if (s == NST_OK && t->whole)
		return nst_ev_col(v->base.all, table, column, out, err);
	*out = c ? &c->col : NULL;
	return s;
}

static enum nst_status view_text(struct nst_events *base, const char *table,
			     const char *column, const char *const **out,
			     struct nst_error *err)
{
	struct ev_view *v = (struct ev_view *)base;
	struct view_table *t = NULL;
	struct view_col *c;
	*out = NULL;
	enum nst_status s = kept_col(v, table, column, true, &t, &c, err);
	if (s == NST_OK && t->whole)
		return nst_ev_text(v->base.all, table, column, out, err);
	*out = c ? c->cells : NULL;
	return s;
}

/* A filtered table's start and end are at hand (the filter read them):
 * its durations come from them. */
static enum nst_status view_durations(struct nst_events *base, const char *table,
				      struct nst_span *out, struct nst_error *err)
{
	enum nst_status s = view_i64(base, table, "start", &out->start, err);
	if (s == NST_OK)
		s = view_i64(base, table, "end", &out->end, err);
	return s;
}

static const struct ev_ops view_ops = {
	.want = view_want, .preload = view_preload, .rows = view_rows, .i64 = view_i64,
	.col = view_col, .text = view_text, .durations = view_durations, .free = view_free,
};
