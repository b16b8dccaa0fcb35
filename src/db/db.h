/* An export opened read-only and immutable, with its schema probed once:
 * which tables exist, which columns each has, the string table, the ENUM
 * labels (with built-in labels for exports older than the ENUM tables).
 * Reports on several threads may share one: its lazy parts fill under a
 * lock, its connection is serialised by SQLite. */
#ifndef NSTATS_DB_H
#define NSTATS_DB_H

#include <stdbool.h>
#include <stdint.h>

#include <sqlite3.h>

#include "nstats/nstats.h"

struct nst_db;

/* Opens path read-only (the file is never written, not even a journal).
 * Fails with NST_ERR_DB and a message naming the file when it is missing,
 * unreadable, not SQLite, or not an Nsight Systems export. */
/* An input file that is there, not a directory and not empty; the
 * message names path and what is wrong. */
enum nst_status nst_input_file(const char *path, struct nst_error *err);

enum nst_status nst_db_open(const char *path, struct nst_db **out,
			    struct nst_error *err);
/* An export built in memory from another format (src/input), checked as
 * nst_db_open checks a file; path names it in every message.  The db
 * owns h from here on, and closes it on failure too; h must be opened
 * SQLITE_OPEN_FULLMUTEX, as reports on several threads may share it.
 * nst_db_connect() gives no second connection to it. */
enum nst_status nst_db_adopt(sqlite3 *h, const char *path, struct nst_db **out,
			     struct nst_error *err);
void nst_db_close(struct nst_db *db);

const char *nst_db_path(const struct nst_db *db);
sqlite3 *nst_db_handle(const struct nst_db *db);
/* Another connection to the same export, for a second thread; the caller
 * closes it with sqlite3_close().  NULL when it cannot be opened, or for
 * an export built in memory (nst_db_adopt). */
sqlite3 *nst_db_connect(struct nst_db *db);

/* Whether StringIds may be read from the file's pages (pages.c), as it
 * is by default; false reads it through SQLite, as NSTATS_READER=sqlite
 * reads every table, so that the two readers can be compared. */
void nst_db_set_page_reader(struct nst_db *db, bool on);

bool nst_db_has_table(const struct nst_db *db, const char *table);
bool nst_db_has_column(struct nst_db *db, const char *table,
		       const char *column);

/* StringIds value for id, or NULL when the id points nowhere. */
const char *nst_db_string(struct nst_db *db, int64_t id);
/* A small number for a string id, below nst_db_string_slots(), or -1 when
 * the id names no string: what is derived from a string is cached in an
 * array by slot, as long as StringIds has rows, whatever its ids (a real
 * export has 126 strings with ids up to 3.4 million). */
int64_t nst_db_string_slot(struct nst_db *db, int64_t id);
size_t nst_db_string_slots(struct nst_db *db);
/* Loads StringIds; nst_db_string() calls it on first use. */
enum nst_status nst_db_load_strings(struct nst_db *db, struct nst_error *err);

/* ENUM_<name>.label for id: from the export when it has the table, else
 * from the labels nsys 2024.2.3 ships.  NULL for an unknown id. */
const char *nst_db_enum_label(struct nst_db *db, const char *enum_table,
			      int64_t id);

/* "EXPORT_SCHEMA_VERSION" etc. from META_DATA_EXPORT (or the older
 * EXPORT_META_DATA); NULL when absent.  Borrowed. */
const char *nst_db_meta(struct nst_db *db, const char *name);

/* ---- a table read from its pages (pages.c) ------------------------------ */

/* One value of a record, as stored: TEXT is n bytes at s (UTF-8, not
 * NUL-terminated, valid during the callback), OTHER a BLOB. */
struct nst_page_cell {
	enum { NST_CELL_NULL, NST_CELL_INT, NST_CELL_REAL, NST_CELL_TEXT, NST_CELL_OTHER } kind;
	int64_t i;
	double r;
	const char *s;
	size_t n;
};

enum { NST_PAGES_OK = 0, NST_PAGES_UNSUPPORTED = -1 };

/* Called with each row's cells[0..n), in rowid order; non-zero stops. */
typedef int (*nst_page_row_fn)(void *arg, const struct nst_page_cell *cells);

/* Reads columns cols[0..n) ("rowid" for the rowid) of every row of table
 * straight from the export's file, where the schema db read once says
 * they are.  NST_PAGES_OK when every row was read; the
 * callback's value when it stopped; NST_PAGES_UNSUPPORTED, maybe after
 * some rows, when the file or the table is not what this reads (WAL, an
 * export built in memory, overflow pages, a page against the format...):
 * read the table through SQLite then. */
int nst_db_scan_pages(struct nst_db *db, const char *table, const char *const *cols, size_t n,
		      nst_page_row_fn fn, void *arg);

/* A table's b-tree cut into parts for readers on several threads: each
 * part is a run of sibling subtrees, in rowid order, whose rowids all lie
 * in (lo, hi] (no bound below for the first part, none above for the
 * last).  Planning reads only interior pages near the root. */
struct nst_page_part {
	size_t first, n; /* its subtrees: pages[first .. first + n) */
	int64_t lo, hi;
	bool has_lo, has_hi;
};
struct nst_page_plan {
	uint32_t *pages; /* subtree roots, in rowid order, all `depth` levels down */
	int depth;
	struct nst_page_part *parts;
	size_t nparts;
};

/* Cuts table into at most `parts` parts (fewer for a small tree, one
 * for a tree that is a single leaf); NST_PAGES_UNSUPPORTED when its pages
 * are not what nst_db_scan_pages reads. */
int nst_db_plan_pages(struct nst_db *db, const char *table, size_t parts,
		      struct nst_page_plan *plan);
void nst_page_plan_free(struct nst_page_plan *plan);
/* nst_db_scan_pages of part k of plan alone: its rows, in rowid order; a
 * row outside the part's bounds makes it NST_PAGES_UNSUPPORTED. */
int nst_db_scan_part(struct nst_db *db, const char *table, const char *const *cols, size_t n,
		     const struct nst_page_plan *plan, size_t k, nst_page_row_fn fn, void *arg);

#endif
