/* Parts merged: groups of values met from every rank, reduced to rows;
 * ranks numbered; each table finished, sorted and written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recipe/part.h"
#include "run/run.h"

/* A group over every part added: its members point into the parts. */
struct mgroup {
	unsigned cls;
	const struct nst_cell *key;
	size_t nkey;
	uint64_t hash;
	struct recipe_member *m;
	size_t n, cap;
	bool done; /* taken or reduced */
};

struct mrow {
	unsigned tab;
	const struct nst_cell *cells;
};

struct nst_merge {
	const struct nst_job *job;
	const struct nst_recipe *recipe;
	void *args;
	struct nst_part **parts; /* what the groups and rows point into */
	size_t nparts, pcap;
	struct mgroup *g;
	size_t ng, gcap;
	struct nst_map index;    /* (hash of class and key, probe) -> group */
	struct mrow *rows;
	size_t nrows, rcap;
	struct part_rank *ranks; /* by uid once numbered */
	size_t nranks, rkcap;
	int64_t *number;         /* by rank, once numbered */
	struct nst_arena arena;  /* rows made by reduce */
	int mode;                /* the parts' enum nst_ranks, -1 before the first */
	char note[512];
};

enum nst_status nst_merge_new(const struct nst_job *job, struct nst_merge **out,
			      struct nst_error *err)
{
	*out = NULL;
	if (!job || job->cat != NST_RECIPES || !job->report->recipe)
		return nst_fail(err, NST_ERR_USAGE, "nst_merge_new: %s is no recipe",
				job ? job->name : "(no job)");
	struct nst_merge *m = calloc(1, sizeof *m);
	if (!m || nst_map_init(&m->index, 64) < 0) {
		free(m);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	m->job = job;
	m->mode = -1;
	m->recipe = job->report->recipe;
	enum nst_status s = m->recipe->args ? m->recipe->args(job->args, job->nargs, &m->args, err)
					    : NST_OK;
	if (s != NST_OK) {
		nst_merge_free(m);
		return s;
	}
	*out = m;
	return NST_OK;
}

void nst_merge_free(struct nst_merge *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nparts; i++)
		nst_part_free(m->parts[i]);
	for (size_t i = 0; i < m->ng; i++)
		free(m->g[i].m);
	free(m->parts);
	free(m->g);
	nst_map_release(&m->index);
	free(m->rows);
	free(m->ranks);
	free(m->number);
	free(m->args);
	nst_arena_release(&m->arena);
	free(m);
}

/* ---- adding ---------------------------------------------------------------------------- */

static enum nst_status group_of(struct nst_merge *m, const struct rec *r, struct mgroup **out,
				struct nst_error *err)
{
	for (int64_t probe = 0;; probe++) {
		uint32_t at;
		bool inserted;
		if (nst_map_get_or_put(&m->index, (int64_t)r->hash, probe, (uint32_t)m->ng, &at,
				       &inserted) < 0 ||
		    (inserted && !recipe_grow((void **)&m->g, &m->gcap, m->ng + 1, sizeof *m->g)))
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		if (inserted) {
			m->g[m->ng] = (struct mgroup){ .cls = r->tab, .key = r->cells,
						       .nkey = r->ncells, .hash = r->hash };
			*out = &m->g[m->ng++];
			return NST_OK;
		}
		struct mgroup *g = &m->g[at];
		if (g->cls == r->tab && g->nkey == r->ncells &&
		    recipe_cells_equal(g->key, r->cells, r->ncells)) {
			*out = g;
			return NST_OK;
		}
	}
}

/* A record from elsewhere (a worker, another machine) has the shape the
 * recipe gives its own: reduce() and finish() trust it. */
static bool rec_fits(const struct nst_merge *m, const struct rec *r)
{
	const char *cols[RECIPE_MAX_COLS];
	if (r->kind == REC_ROW)
		return r->tab < m->recipe->ntables &&
		       r->ncells == recipe_columns(m->recipe, r->tab, m->args, cols);
	return r->tab < RECIPE_MAX_CLASSES && m->recipe->nkeys[r->tab] &&
	       r->ncells == m->recipe->nkeys[r->tab] && r->uid > 0;
}

static enum nst_status add_rec(struct nst_merge *m, const struct rec *r, struct nst_error *err)
{
	if (!rec_fits(m, r))
		return nst_fail(err, NST_ERR_DB, "a part of %s holds a record of another shape",
				m->job->name);
	if (r->kind == REC_ROW) {
		if (!recipe_grow((void **)&m->rows, &m->rcap, m->nrows + 1, sizeof *m->rows))
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		m->rows[m->nrows++] = (struct mrow){ r->tab, r->cells };
		return NST_OK;
	}
	struct mgroup *g = NULL;
	enum nst_status s = group_of(m, r, &g, err);
	if (s != NST_OK)
		return s;
	if (g->done)
		return nst_fail(err, NST_ERR_USAGE, "a part of a group already reduced or taken");
	if (!recipe_grow((void **)&g->m, &g->cap, g->n + 1, sizeof *g->m))
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	g->m[g->n++] = (struct recipe_member){ r->uid, r->vals, r->nvals };
	return NST_OK;
}

static enum nst_status add_rank(struct nst_merge *m, const struct part_rank *r,
				struct nst_error *err)
{
	for (size_t i = 0; i < m->nranks; i++)
		if (m->ranks[i].uid == r->uid)
			return NST_OK;
	if (!recipe_grow((void **)&m->ranks, &m->rkcap, m->nranks + 1, sizeof *m->ranks))
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	m->ranks[m->nranks++] = *r;
	free(m->number);
	m->number = NULL;
	return NST_OK;
}

enum nst_status nst_merge_add(struct nst_merge *m, struct nst_part *p, struct nst_error *err)
{
	if (m->mode >= 0 && p->mode != m->mode) {
		nst_part_free(p);
		return nst_fail(err, NST_ERR_USAGE, "parts of ranks told apart in two ways");
	}
	m->mode = p->mode;
	if (strcmp(p->spec, m->job->spec) != 0) {
		nst_fail(err, NST_ERR_USAGE, "a part of %s cannot be merged into %s", p->spec,
			 m->job->spec);
		nst_part_free(p);
		return NST_ERR_USAGE;
	}
	if (!recipe_grow((void **)&m->parts, &m->pcap, m->nparts + 1, sizeof *m->parts)) {
		nst_part_free(p);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	m->parts[m->nparts++] = p;
	enum nst_status s = NST_OK;
	for (size_t i = 0; s == NST_OK && i < p->nranks; i++)
		s = add_rank(m, &p->ranks[i], err);
	for (size_t i = 0; s == NST_OK && i < p->n; i++)
		s = add_rec(m, &p->rec[i], err);
	return s;
}

/* ---- taking ------------------------------------------------------------------------------ */

static enum nst_status take_group(struct nst_part *p, struct mgroup *g, struct nst_error *err)
{
	enum nst_status s = NST_OK;
	for (size_t i = 0; s == NST_OK && i < g->n; i++) {
		struct rec *r;
		s = part_add_rec(p, REC_GROUP, g->cls, g->m[i].uid, g->key, g->nkey, &r, err);
		if (s == NST_OK)
			s = rec_push(r, g->m[i].vals, g->m[i].nvals, err);
	}
	g->done = true;
	return s;
}

static enum nst_status take_rows(struct nst_merge *m, struct nst_part *p, struct nst_error *err)
{
	enum nst_status s = NST_OK;
	const char *cols[RECIPE_MAX_COLS];
	for (size_t i = 0; s == NST_OK && i < m->nrows; i++) {
		struct rec *r;
		size_t n = recipe_columns(m->recipe, m->rows[i].tab, m->args, cols);
		s = part_add_rec(p, REC_ROW, m->rows[i].tab, 0, m->rows[i].cells, n, &r, err);
	}
	for (size_t i = 0; s == NST_OK && i < m->nranks; i++)
		s = part_add_rank(p, m->ranks[i].uid, m->ranks[i].rank, m->ranks[i].input, err);
	m->nrows = 0;
	m->nranks = 0;
	return s;
}

enum nst_status nst_merge_take(struct nst_merge *m, size_t owner, size_t owners,
			       struct nst_part **out, struct nst_error *err)
{
	*out = NULL;
	if (owners == 0 || owner >= owners)
		return nst_fail(err, NST_ERR_USAGE, "nst_merge_take: owner %zu of %zu", owner,
				owners);
	struct nst_part *p = part_new(m->job->spec, m->mode < 0 ? NST_RANKS_AUTO
								 : (enum nst_ranks)m->mode);
	if (!p)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	enum nst_status s = NST_OK;
	for (size_t i = 0; s == NST_OK && i < m->ng; i++)
		if (!m->g[i].done && m->g[i].hash % owners == owner)
			s = take_group(p, &m->g[i], err);
	if (s == NST_OK && owner == 0)
		s = take_rows(m, p, err);
	if (s != NST_OK) {
		nst_part_free(p);
		return s;
	}
	*out = p;
	return NST_OK;
}

/* ---- reducing ------------------------------------------------------------------------------ */

struct recipe_out {
	struct nst_merge *m;
};

enum nst_status recipe_emit(struct recipe_out *o, unsigned tab, const struct nst_cell *cells,
			    struct nst_error *err)
{
	struct nst_merge *m = o->m;
	const char *cols[RECIPE_MAX_COLS];
	size_t n = recipe_columns(m->recipe, tab, m->args, cols);
	struct nst_cell *c = nst_arena_alloc(&m->arena, (n ? n : 1) * sizeof *c);
	if (!c || !recipe_grow((void **)&m->rows, &m->rcap, m->nrows + 1, sizeof *m->rows))
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		c[i] = cells[i];
		if (c[i].kind == NST_TEXT &&
		    !(c[i].v.s = nst_arena_strndup(&m->arena, c[i].v.s, strlen(c[i].v.s))))
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	m->rows[m->nrows++] = (struct mrow){ tab, c };
	return NST_OK;
}

static int cmp_member(const void *a, const void *b)
{
	recipe_uid x = ((const struct recipe_member *)a)->uid;
	recipe_uid y = ((const struct recipe_member *)b)->uid;
	return (x > y) - (x < y);
}

static enum nst_status reduce_group(struct nst_merge *m, struct mgroup *g, struct nst_error *err)
{
	recipe_sort(g->m, g->n, sizeof *g->m, cmp_member);
	for (size_t i = 1; i < g->n; i++)
		if (g->m[i].uid == g->m[i - 1].uid)
			return nst_fail(err, NST_ERR_USAGE, "one rank's part was merged twice");
	struct recipe_group rg = { g->cls, g->key, g->nkey, g->m, g->n };
	g->done = true;
	return m->recipe->reduce(&rg, &(struct recipe_out){ m }, m->args, err);
}

enum nst_status nst_merge_reduce(struct nst_merge *m, struct nst_error *err)
{
	enum nst_status s = NST_OK;
	for (size_t i = 0; s == NST_OK && i < m->ng; i++)
		if (!m->g[i].done)
			s = reduce_group(m, &m->g[i], err);
	return s;
}

/* ---- ranks ------------------------------------------------------------------------------------ */

static int cmp_rank(const void *a, const void *b)
{
	recipe_uid x = ((const struct part_rank *)a)->uid, y = ((const struct part_rank *)b)->uid;
	return (x > y) - (x < y);
}

static const char *ordinal(uint32_t n, char *buf, size_t size)
{
	const char *suf = n % 100 / 10 == 1 ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd"
			: n % 10 == 3 ? "rd" : "th";
	snprintf(buf, size, "%u%s", n, suf);
	return buf;
}

/* Each rank's own number when every rank has one and no two share it;
 * else 0, 1, ... in uid order (input, then unit), and why, unless the
 * ranks were asked to be inputs or processes. */
static enum nst_status number_ranks(struct nst_merge *m, struct nst_error *err)
{
	if (m->number)
		return NST_OK;
	recipe_sort(m->ranks, m->nranks, sizeof *m->ranks, cmp_rank);
	m->number = malloc((m->nranks ? m->nranks : 1) * sizeof *m->number);
	if (!m->number)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	m->note[0] = '\0';
	char a[16], b[16];
	for (size_t i = 0; i < m->nranks && !m->note[0]; i++) {
		const struct part_rank *r = &m->ranks[i];
		if (r->rank == RANK_NONE)
			snprintf(m->note, sizeof m->note,
				 "ranks numbered in input order: the %s input has %s",
				 ordinal(r->input + 1, a, sizeof a),
				 (r->uid & ((1ll << 40) - 1)) == 0 ? "no MPI_RANKS"
								    : "processes without a rank");
		for (size_t j = 0; j < i && !m->note[0]; j++)
			if (m->ranks[j].rank == r->rank)
				snprintf(m->note, sizeof m->note,
					 "ranks numbered in input order: the %s and %s inputs are "
					 "both rank %lld",
					 ordinal(m->ranks[j].input + 1, a, sizeof a),
					 ordinal(r->input + 1, b, sizeof b), (long long)r->rank);
	}
	bool own = !m->note[0] && m->mode <= NST_RANKS_AUTO;
	if (m->mode > NST_RANKS_AUTO)
		m->note[0] = '\0';
	for (size_t i = 0; i < m->nranks; i++)
		m->number[i] = own ? m->ranks[i].rank : (int64_t)i;
	return NST_OK;
}

static struct nst_cell rank_cell(const struct nst_merge *m, int64_t uid)
{
	size_t lo = 0, hi = m->nranks;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->ranks[mid].uid < uid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < m->nranks && m->ranks[lo].uid == uid)
		return (struct nst_cell){ .kind = NST_INT, .v.i = m->number[lo] };
	return (struct nst_cell){ .kind = NST_NULL };
}

size_t nst_merge_ranks(const struct nst_merge *m)
{
	return m->nranks;
}

const char *nst_merge_note(const struct nst_merge *m)
{
	return m->note;
}

const char *nst_merge_table(const struct nst_merge *m, size_t i)
{
	return i < m->recipe->ntables ? m->recipe->tables[i].name : NULL;
}

size_t recipe_columns(const struct nst_recipe *r, unsigned tab, const void *args,
		      const char **cols)
{
	size_t n = 0;
	if (r->columns) {
		r->columns(tab, args, cols, &n);
		return n;
	}
	const struct recipe_table *t = &r->tables[tab];
	for (n = 0; t->ncols ? n < t->ncols : t->cols[n] != NULL; n++)
		cols[n] = t->cols[n];
	return n;
}

/* ---- finishing a table --------------------------------------------------------------------- */

struct sorting {
	const int8_t *order;
	size_t ncols;
};

static int cmp_rows(const void *a, const void *b, void *arg)
{
	const struct sorting *s = arg;
	const struct nst_cell *x = *(struct nst_cell *const *)a, *y = *(struct nst_cell *const *)b;
	for (const int8_t *o = s->order; o && *o; o++) {
		size_t c = (size_t)(*o > 0 ? *o - 1 : -*o - 1);
		if (c >= s->ncols)
			continue;
		int d = recipe_cell_cmp(&x[c], &y[c]);
		if (d)
			return *o > 0 ? d : -d;
	}
	for (size_t c = 0; c < s->ncols; c++) {
		int d = recipe_cell_cmp(&x[c], &y[c]);
		if (d)
			return d;
	}
	return 0;
}

/* A merge sort: qsort has no argument and need not be stable. */
static void sort_rows(struct nst_cell **row, struct nst_cell **tmp, size_t n,
		      const struct sorting *s)
{
	if (n < 2)
		return;
	size_t h = n / 2;
	sort_rows(row, tmp, h, s);
	sort_rows(row + h, tmp, n - h, s);
	size_t i = 0, j = h, k = 0;
	while (i < h && j < n)
		tmp[k++] = cmp_rows(&row[j], &row[i], (void *)s) < 0 ? row[j++] : row[i++];
	while (i < h)
		tmp[k++] = row[i++];
	while (j < n)
		tmp[k++] = row[j++];
	memcpy(row, tmp, n * sizeof *row);
}

struct table_out {
	const char *const *cols;
	struct recipe_rows *rows;
};

static enum nst_status table_body(void *arg, const struct nst_sink *out, struct nst_error *err)
{
	struct table_out *t = arg;
	enum nst_status s = out->begin(out->ctx, t->cols, t->rows->ncols, err);
	for (size_t i = 0; s == NST_OK && i < t->rows->n; i++)
		s = out->row(out->ctx, t->rows->row[i], err);
	return s;
}

/* The rows of table tab, copied, ranks numbered, finished and sorted. */
static enum nst_status table_rows(struct nst_merge *m, unsigned tab, struct recipe_rows *rows,
				  struct nst_error *err)
{
	const struct recipe_table *t = &m->recipe->tables[tab];
	size_t n = 0;
	for (size_t i = 0; i < m->nrows; i++)
		n += m->rows[i].tab == tab;
	rows->n = 0;
	rows->nranks = m->nranks;
	rows->row = nst_arena_alloc(rows->arena, (n ? n : 1) * sizeof *rows->row);
	struct nst_cell **tmp = malloc((n ? n : 1) * sizeof *tmp);
	if (!rows->row || !tmp) {
		free(tmp);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < m->nrows; i++) {
		if (m->rows[i].tab != tab)
			continue;
		struct nst_cell *c = nst_arena_alloc(rows->arena, rows->ncols * sizeof *c);
		if (!c) {
			free(tmp);
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		}
		memcpy(c, m->rows[i].cells, rows->ncols * sizeof *c);
		for (size_t k = 0; k < rows->ncols && k < 64; k++)
			if (t->rank_cols >> k & 1 && c[k].kind == NST_INT)
				c[k] = rank_cell(m, c[k].v.i);
		rows->row[rows->n++] = c;
	}
	enum nst_status s = t->finish ? t->finish(rows, m->args, err) : NST_OK;
	if (s == NST_OK)
		sort_rows(rows->row, tmp, rows->n, &(struct sorting){ t->order, rows->ncols });
	free(tmp);
	return s;
}

enum nst_status nst_merge_run(struct nst_merge *m, size_t table, const struct nst_run *run,
			      struct nst_error *err)
{
	if (table >= m->recipe->ntables)
		return nst_fail(err, NST_ERR_USAGE, "%s has no table %zu", m->job->name, table);
	if (!run || run->job != m->job || (!run->sink && (!run->format || (!run->out && !run->open))))
		return nst_fail(err, NST_ERR_USAGE,
				"nst_merge_run: the merge's job, and a sink or a format and a stream");
	enum nst_status s = nst_merge_reduce(m, err);
	if (s == NST_OK)
		s = number_ranks(m, err);
	if (s != NST_OK)
		return s;
	const struct recipe_table *t = &m->recipe->tables[table];
	const char *cols[RECIPE_MAX_COLS];
	struct nst_arena arena = { 0 };
	struct recipe_rows rows = { .arena = &arena };
	rows.ncols = recipe_columns(m->recipe, (unsigned)table, m->args, cols);
	s = table_rows(m, (unsigned)table, &rows, err);
	char title[256], name[128];
	snprintf(title, sizeof title, "%s %s", m->job->report->title, t->title);
	snprintf(name, sizeof name, "%s_%s", m->job->name, t->name);
	if (s == NST_OK)
		s = run_output_as(run, title, name, table_body,
				  &(struct table_out){ cols, &rows }, NULL, err);
	nst_arena_release(&arena);
	return s;
}
