/* Private to src/db. */
#ifndef NSTATS_DB_INT_H
#define NSTATS_DB_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "db/db.h"

/* A column as the table declares it (pragma_table_xinfo). */
struct db_column {
	char *name;
	bool rowid;      /* the INTEGER PRIMARY KEY: the rowid itself, no field */
	bool hidden;     /* generated or hidden: no field of its own either */
	bool no_default; /* a record too short to hold it reads NULL */
};

struct db_table {
	char *name;
	int64_t root;           /* its b-tree's first page; 0: a view or WITHOUT ROWID */
	struct db_column *cols; /* in declaration order; NULL until probed */
	size_t ncols;
	int probed;
	bool complete;          /* probed, and every column was kept */
};

/* t's columns, probed on the first call (under db->lock); NULL when t is
 * not a table of the export. */
const struct db_table *nst_db_probed_table(struct nst_db *db, const char *table);

/* A loaded ENUM_* table: labels by id. */
struct db_enum {
	char *table;
	const char **labels;
	size_t n;
	struct db_enum *next;
};

struct db_meta {
	char *name, *value;
};

struct nst_db {
	sqlite3 *h;
	char *uri; /* how h was opened, for nst_db_connect(); NULL when adopted */
	bool page_reader; /* StringIds from its pages (nst_db_set_page_reader) */
	char *path;
	struct db_table *tables;
	size_t ntables;

	/* Held while the lazy parts below (columns, strings, enums, meta)
	 * are filled: reports on several threads share one db.  Its SQLite
	 * connection serialises itself (SQLITE_OPEN_FULLMUTEX). */
	pthread_mutex_t lock;

	/* StringIds: ids below ndense index dense[]; the rest are sorted.
	 * Read without the lock once strings_loaded says so. */
	atomic_int strings_loaded;
	struct nst_error strings_err; /* why they could not be read, if so */
	const char **dense;
	size_t ndense;
	struct sparse_string { int64_t id; const char *s; } *sparse;
	size_t nsparse;

	struct db_enum *enums;
	struct db_meta *meta;
	size_t nmeta;
	int meta_loaded;
	struct nst_arena arena; /* every string above */
};

const char *nst_builtin_enum_label(const char *table, int64_t id);

#endif
