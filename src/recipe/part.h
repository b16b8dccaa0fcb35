/* A part's insides, for merge.c and the run engine (src/run/recipe.c). */
#ifndef NSTATS_RECIPE_PART_H
#define NSTATS_RECIPE_PART_H

#include "core/arena.h"
#include "core/hashmap.h"
#include "events/events.h"
#include "recipe/recipe.h"

enum rec_kind { REC_GROUP, REC_ROW };

/* A group's values on one rank, or a finished row. */
struct rec {
	uint8_t kind;  /* enum rec_kind */
	uint8_t tab;   /* a group's class, a row's table */
	uint16_t ncells;
	recipe_uid uid;
	struct nst_cell *cells; /* a group's key, a row's cells */
	int64_t *vals;          /* malloc'd */
	size_t nvals, cap;
	uint64_t hash;          /* a group's: of (class, key), as merge.c keys it */
};

/* A rank of the job, and its number in the input when it has one. */
#define RANK_NONE INT64_MIN
struct part_rank {
	recipe_uid uid;
	int64_t rank;
	uint32_t input;
};

struct nst_part {
	char *spec;             /* the job: recipe and arguments */
	uint8_t mode;           /* enum nst_ranks it was made with */
	struct nst_arena arena; /* the cells' texts */
	struct rec *rec;
	size_t n, cap;
	struct part_rank *ranks;
	size_t nranks, rcap;
};

/* *arr, of *cap items of size bytes, made room for need (doubling). */
bool recipe_grow(void **arr, size_t *cap, size_t need, size_t size);
struct nst_part *part_new(const char *spec, enum nst_ranks mode);
enum nst_status part_add_rank(struct nst_part *p, recipe_uid uid, int64_t rank, uint32_t input,
			      struct nst_error *err);
/* A new record, its cells copied (texts into p's arena). */
enum nst_status part_add_rec(struct nst_part *p, enum rec_kind kind, unsigned tab,
			     recipe_uid uid, const struct nst_cell *cells, size_t ncells,
			     struct rec **out, struct nst_error *err);
/* Appends n values (maybe unaligned bytes) to r's. */
enum nst_status rec_push(struct rec *r, const void *vals, size_t n, struct nst_error *err);

/* The hash of a group's class and key: the same bytes on every machine. */
uint64_t recipe_key_hash(unsigned cls, const struct nst_cell *key, size_t nkey);
bool recipe_cells_equal(const struct nst_cell *a, const struct nst_cell *b, size_t n);
int recipe_cell_cmp(const struct nst_cell *a, const struct nst_cell *b);

/* ---- building a part from one export (src/run/recipe.c) ---- */

/* job's recipe on the input numbered `input`: a builder, then the part. */
struct recipe_part *recipe_part_begin(const struct nst_job *job, uint32_t input,
				      enum nst_ranks mode, struct nst_error *err);
/* The export's MPI_RANKS (ev_all, unfiltered; the columns declared by
 * recipe_part_needs), for recipe_rank_of(). */
enum nst_status recipe_part_read_ranks(struct recipe_part *rp, struct nst_events *ev_all,
				       struct nst_error *err);
extern const struct nst_need recipe_part_needs[];
/* Once the recipe has run: an input read as one rank is one even without
 * rows. */
enum nst_status recipe_part_finish_ranks(struct recipe_part *rp, struct nst_error *err);
/* The recipe's arguments as its args() parsed them. */
const void *recipe_part_args(const struct recipe_part *rp);
struct nst_part *recipe_part_end(struct recipe_part *rp);
void recipe_part_abort(struct recipe_part *rp);

#endif
