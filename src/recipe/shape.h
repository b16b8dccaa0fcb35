/* The summary shape most recipes share (docs/recipes.md): groups of
 * durations keyed by name, as an "all" table over every rank and a
 * "rank" table per rank. */
#ifndef NSTATS_RECIPE_SHAPE_H
#define NSTATS_RECIPE_SHAPE_H

#include "core/hashmap.h"
#include "recipe/recipe.h"

#define SHAPE_ALL_COLS                                                                \
	"Time:ratio_%", "Total Time:dur_ns", "Instances", "Avg:dur_ns", "Med:dur_ns",   \
	"Min:dur_ns", "Max:dur_ns", "StdDev:dur_ns", "Ranks", "Imbalance"
#define SHAPE_RANK_COLS                                                               \
	"Rank", "Time:ratio_%", "Total Time:dur_ns", "Instances", "Avg:dur_ns",         \
	"Med:dur_ns", "Min:dur_ns", "Max:dur_ns", "StdDev:dur_ns"
/* After the key columns of "all": the largest total of one rank. */
#define SHAPE_HIDDEN_COL "_Max Rank Total"

extern const int8_t shape_order_all[], shape_order_rank[];
enum nst_status shape_finish_all(struct recipe_rows *rows, const void *args,
				 struct nst_error *err);
enum nst_status shape_finish_rank(struct recipe_rows *rows, const void *args,
				  struct nst_error *err);

/* The two tables, given each one's columns (the key's after the shape's,
 * NULL-terminated). */
#define SHAPE_TABLES(all_cols, rank_cols)                                             \
	{ "all", "(all ranks)", all_cols, 0, 0, shape_order_all, shape_finish_all },     \
	{ "rank", "(per rank)", rank_cols, 0, 1, shape_order_rank, shape_finish_rank }

/* The recipe `name` of the summary shape: groups of class 0 made by part,
 * keyed by the columns named after it ("Name", or "Style", "Range"). */
#define SHAPE_RECIPE(name, part_fn, ...)                                              \
	static const char *const name##_all[] = { SHAPE_ALL_COLS, __VA_ARGS__,           \
						  SHAPE_HIDDEN_COL, NULL };              \
	static const char *const name##_rank[] = { SHAPE_RANK_COLS, __VA_ARGS__, NULL }; \
	static const struct recipe_table name##_tables[] = {                             \
		SHAPE_TABLES(name##_all, name##_rank)                                    \
	};                                                                               \
	static const struct nst_recipe name = {                                          \
		.tables = name##_tables, .ntables = 2,                                   \
		.nkeys = { sizeof((const char *[]){ __VA_ARGS__ }) / sizeof(const char *) }, \
		.part = part_fn, .reduce = shape_reduce,                                 \
	}

/* Groups of class 0: their members' values become the two tables' rows. */
enum nst_status shape_reduce(const struct recipe_group *g, struct recipe_out *o,
			     const void *args, struct nst_error *err);

/* The groups of one part, each found once per (key id, rank): */
struct shape_groups {
	struct nst_map handles; /* (key id, uid) -> handle */
	struct recipe_part *rp;
};
enum nst_status shape_groups_init(struct shape_groups *sg, struct recipe_part *rp,
				  struct nst_error *err);
void shape_groups_release(struct shape_groups *sg);
/* Adds value to the group of key id on rank uid; key() gives the key's
 * cells the first time (nkey of them). */
typedef void (*shape_key_fn)(void *arg, int64_t id, struct nst_cell *key);
enum nst_status shape_add(struct shape_groups *sg, int64_t id, recipe_uid uid, int64_t value,
			  shape_key_fn key, size_t nkey, void *arg, struct nst_error *err);

#endif
