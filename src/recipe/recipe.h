/* Recipes: statistics over the exports of every rank of a job
 * (docs/recipes.md), computed in three steps that give the same rows
 * however the inputs are split among processes and machines.
 *
 *   1. part: one export read through the events layer as a report reads
 *      it; the recipe's part() adds groups of values (a kernel's
 *      durations on this rank), keyed by cells, and finished rows.
 *   2. reduce: the members of one group over every rank (in rank order,
 *      whichever process read them) become rows.
 *   3. finish: the rows of each table, ranks numbered, derived columns
 *      (shares of a total) filled in, sorted.
 *
 * Adding a recipe: write src/recipe/<name>.c defining `const struct
 * nst_report nst_recipe_<name>` whose .recipe says what its three steps
 * do, add it to src/recipe/registry.c, document it in docs/recipes.md and
 * check it in tests/recipe/brute.py.
 *
 *   part.c     a part: its records, its ranks, as bytes and back
 *   merge.c    parts merged, groups reduced, tables finished and written
 *   shape.c    the summary shape most recipes share
 *   registry.c the recipes by name */
#ifndef NSTATS_RECIPE_H
#define NSTATS_RECIPE_H

#include <stdint.h>
#include <stdlib.h>

#include "core/arena.h"
#include "reports/report.h"

/* A rank as the parts know it before ranks are numbered: the input's
 * number and its unit in it (a rank number from MPI_RANKS, a process id,
 * or none), ordered as they will be numbered.  0 is no rank. */
typedef int64_t recipe_uid;
#define RECIPE_UNIT_NONE (-1)
recipe_uid recipe_uid_make(uint32_t input, int64_t unit);

/* ---- step 1: one export ------------------------------------------------------ */

struct recipe_part;

/* The rank of the thread or process gtid (a globalTid or globalPid) of the
 * export, as the run's rank mode tells them apart; 0 when out of memory. */
recipe_uid recipe_rank_of(struct recipe_part *rp, int64_t gtid);
/* The one rank of an export read as one rank (for events of no process). */
recipe_uid recipe_rank_any(struct recipe_part *rp);

/* The group of class cls with key cells key[0..nkey) on rank uid: its
 * handle, made when new.  Texts are copied. */
enum nst_status recipe_group(struct recipe_part *rp, unsigned cls, const struct nst_cell *key,
			     size_t nkey, recipe_uid uid, size_t *handle, struct nst_error *err);
/* Appends vals[0..n) to a group's values. */
enum nst_status recipe_push(struct recipe_part *rp, size_t handle, const int64_t *vals, size_t n,
			    struct nst_error *err);
/* A finished row of table tab (its rank columns hold uids); texts copied. */
enum nst_status recipe_row(struct recipe_part *rp, unsigned tab, recipe_uid uid,
			   const struct nst_cell *cells, struct nst_error *err);

/* ---- step 2: one group over every rank ----------------------------------------- */

struct recipe_member {
	recipe_uid uid;
	const int64_t *vals;
	size_t nvals;
};

struct recipe_group {
	unsigned cls;
	const struct nst_cell *key;
	size_t nkey;
	const struct recipe_member *m; /* by uid ascending, one per rank */
	size_t n;
};

struct recipe_out;
/* A row of table tab made from a group (texts copied). */
enum nst_status recipe_emit(struct recipe_out *o, unsigned tab, const struct nst_cell *cells,
			    struct nst_error *err);

/* ---- step 3: a table ------------------------------------------------------------- */

/* Every row of one table, ranks numbered, for the table's finish(), which
 * may change cells in place (texts it makes go to arena). */
struct recipe_rows {
	struct nst_cell **row;
	size_t n, ncols;
	size_t nranks;         /* ranks of the job */
	struct nst_arena *arena;
};

#define RECIPE_MAX_COLS 2048
#define RECIPE_MAX_CLASSES 4
#define RECIPE_MAX_KEYS 8

struct recipe_table {
	const char *name;        /* "all": the file is NAME_all.csv */
	const char *title;       /* after the recipe's: "(all ranks)" */
	const char *const *cols; /* tagged as struct nst_sink's */
	size_t ncols;            /* 0: cols is NULL-terminated */
	/* Columns holding a rank's uid, shown as its number: a bit each. */
	uint64_t rank_cols;
	/* Sort keys: column + 1 ascending, -(column + 1) descending, ended
	 * by 0; rows equal on them are ordered by every column in turn. */
	const int8_t *order;
	enum nst_status (*finish)(struct recipe_rows *rows, const void *args,
				  struct nst_error *err);
};

/* A recipe's arguments, parsed once by its args() into its own struct. */
struct nst_recipe {
	const struct recipe_table *tables;
	size_t ntables;
	/* The key cells of each class of groups (0: no such class): what a
	 * part from elsewhere must hold before reduce() sees it. */
	uint8_t nkeys[RECIPE_MAX_CLASSES];
	/* Columns a table's own may name: the job's arguments read (NULL:
	 * none).  Returns NST_ERR_USAGE on a bad value; *out is what part,
	 * reduce and finish get as args (freed by the caller with free()). */
	enum nst_status (*args)(const struct nst_arg *args, size_t nargs, void **out,
				struct nst_error *err);
	enum nst_status (*part)(struct nst_ctx *ctx, struct recipe_part *rp, const void *args,
				struct nst_error *err);
	enum nst_status (*reduce)(const struct recipe_group *g, struct recipe_out *o,
				  const void *args, struct nst_error *err);
	/* Tables whose column list depends on the arguments (buckets=N):
	 * fills cols[0..*n) (names may point into args). */
	void (*columns)(unsigned tab, const void *args, const char **cols, size_t *n);
};

/* qsort, but of nothing too: an empty array may have no storage, which
 * qsort must not be given. */
static inline void recipe_sort(void *base, size_t n, size_t size,
			       int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

/* ---- registry.c ---- */
const struct nst_report *nst_recipe_find(const char *name);
const struct nst_report *const *nst_recipe_all(size_t *n);

/* ---- merge.c ---- */
/* The columns of table tab under the job's arguments. */
size_t recipe_columns(const struct nst_recipe *r, unsigned tab, const void *args,
		      const char **cols);

#endif
