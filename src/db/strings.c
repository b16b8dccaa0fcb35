/* StringIds, ENUM labels and export metadata: small lookup tables loaded
 * once per export. */
#include "db/db_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_sparse(const void *a, const void *b)
{
	int64_t x = ((const struct sparse_string *)a)->id;
	int64_t y = ((const struct sparse_string *)b)->id;
	return (x > y) - (x < y);
}

/* Ids are dense in real exports; a hostile one may use any int64, and
 * those few go to a sorted side array instead of a huge dense one. */
static int put_string(struct nst_db *db, int64_t id, const char *s,
		      size_t *sparse_cap)
{
	if (id >= 0 && (uint64_t)id < db->ndense) {
		db->dense[id] = s;
		return 0;
	}
	if (db->nsparse == *sparse_cap) {
		*sparse_cap = *sparse_cap ? *sparse_cap * 2 : 64;
		void *p = realloc(db->sparse, *sparse_cap * sizeof *db->sparse);
		if (!p)
			return -1;
		db->sparse = p;
	}
	db->sparse[db->nsparse++] = (struct sparse_string){ id, s };
	return 0;
}

static int64_t count_strings(struct nst_db *db)
{
	sqlite3_stmt *st;
	int64_t n = 0;
	if (sqlite3_prepare_v2(db->h, "SELECT count(*) FROM StringIds", -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			n = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	return n;
}

/* Room for ids below twice the rows (and 1024 more): real exports number
 * their strings from 0 or 1. */
static bool alloc_dense(struct nst_db *db, size_t rows)
{
	db->ndense = rows * 2 + 1024;
	db->dense = calloc(db->ndense, sizeof *db->dense);
	return db->dense != NULL;
}

static enum nst_status no_memory(const struct nst_db *db, struct nst_error *err)
{
	return nst_fail(err, NST_ERR_NOMEM, "%s: out of memory loading StringIds", db->path);
}

static enum nst_status load_through_sqlite(struct nst_db *db, struct nst_error *err)
{
	if (!alloc_dense(db, (size_t)count_strings(db)))
		return no_memory(db, err);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db->h, "SELECT id, value FROM StringIds", -1, &st, NULL) != SQLITE_OK)
		return nst_fail(err, NST_ERR_DB, "%s: cannot read StringIds: %s",
				db->path, sqlite3_errmsg(db->h));
	size_t sparse_cap = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(st, 1);
		if (!v)
			continue;
		size_t len = (size_t)sqlite3_column_bytes(st, 1);
		char *copy = nst_arena_strndup(&db->arena, v, len);
		if (!copy || put_string(db, sqlite3_column_int64(st, 0), copy, &sparse_cap)) {
			sqlite3_finalize(st);
			return no_memory(db, err);
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return nst_fail(err, NST_ERR_DB, "%s: cannot read StringIds: %s",
				db->path, sqlite3_errmsg(db->h));
	return NST_OK;
}

/* StringIds from its pages: each id and its copied text, in id order. */
struct page_strings {
	struct nst_db *db;
	struct sparse_string *all;
	size_t n, cap, rows;
};

static int page_string(void *arg, const struct nst_page_cell *c)
{
	struct page_strings *ps = arg;
	ps->rows++;
	if (c[1].kind == NST_CELL_NULL)
		return 0;
	/* SQLite shows a number or a BLOB as text: left to it */
	if (c[0].kind != NST_CELL_INT || c[1].kind != NST_CELL_TEXT)
		return NST_PAGES_UNSUPPORTED;
	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? 2 * ps->cap : 1024;
		struct sparse_string *all = realloc(ps->all, cap * sizeof *all);
		if (!all)
			return 1;
		ps->all = all;
		ps->cap = cap;
	}
	const char *copy = nst_arena_strndup(&ps->db->arena, c[1].s, c[1].n);
	if (!copy)
		return 1;
	ps->all[ps->n++] = (struct sparse_string){ c[0].i, copy };
	return 0;
}

/* SQLite's statements cost 160 ns a string (0.41 ms for the 2,495 of a
 * small export, a tenth of its run); from the pages, the probe of the
 * table's columns included, 0.16 ms.  -1 when they are not what the
 * page reader reads. */
static int load_from_pages(struct nst_db *db, struct nst_error *err, enum nst_status *s)
{
	static const char *const cols[] = { "id", "value" };
	struct page_strings ps = { .db = db };
	int rc = nst_db_scan_pages(db, "StringIds", cols, 2, page_string, &ps);
	*s = NST_OK;
	if (rc == NST_PAGES_OK) {
		size_t sparse_cap = 0;
		if (!alloc_dense(db, ps.rows))
			*s = no_memory(db, err);
		for (size_t i = 0; *s == NST_OK && i < ps.n; i++)
			if (put_string(db, ps.all[i].id, ps.all[i].s, &sparse_cap))
				*s = no_memory(db, err);
	} else if (rc > 0) {
		*s = no_memory(db, err);
	}
	free(ps.all);
	return rc == NST_PAGES_UNSUPPORTED ? -1 : 0;
}

static enum nst_status load_strings_locked(struct nst_db *db, struct nst_error *err)
{
	if (!nst_db_has_table(db, "StringIds"))
		return NST_OK;
	enum nst_status s;
	if (!db->page_reader || load_from_pages(db, err, &s) != 0)
		s = load_through_sqlite(db, err);
	/* ids placed sparse in the order either reader met them */
	if (db->nsparse)
		qsort(db->sparse, db->nsparse, sizeof *db->sparse, cmp_sparse);
	return s;
}

/* Tried once; what came of it is every caller's answer (the strings read
 * before a failure stay), whichever thread tried.  The flag is set last,
 * so that a reader that sees it without the lock sees the strings too. */
enum nst_status nst_db_load_strings(struct nst_db *db, struct nst_error *err)
{
	if (!atomic_load_explicit(&db->strings_loaded, memory_order_acquire)) {
		pthread_mutex_lock(&db->lock);
		if (!atomic_load_explicit(&db->strings_loaded, memory_order_relaxed)) {
			load_strings_locked(db, &db->strings_err);
			atomic_store_explicit(&db->strings_loaded, 1, memory_order_release);
		}
		pthread_mutex_unlock(&db->lock);
	}
	if (db->strings_err.status != NST_OK && err)
		*err = db->strings_err;
	return db->strings_err.status;
}

static bool strings_ready(struct nst_db *db)
{
	return nst_db_load_strings(db, NULL) == NST_OK;
}

static const struct sparse_string *find_sparse(const struct nst_db *db, int64_t id)
{
	struct sparse_string key = { id, NULL };
	return db->nsparse ? bsearch(&key, db->sparse, db->nsparse, sizeof key, cmp_sparse) : NULL;
}

const char *nst_db_string(struct nst_db *db, int64_t id)
{
	if (!strings_ready(db))
		return NULL;
	if (id >= 0 && (uint64_t)id < db->ndense)
		return db->dense[id];
	const struct sparse_string *hit = find_sparse(db, id);
	return hit ? hit->s : NULL;
}

/* Dense ids are their own slots; the sparse ones follow, in id order. */
int64_t nst_db_string_slot(struct nst_db *db, int64_t id)
{
	if (!strings_ready(db))
		return -1;
	if (id >= 0 && (uint64_t)id < db->ndense)
		return db->dense[id] ? id : -1;
	const struct sparse_string *hit = find_sparse(db, id);
	return hit ? (int64_t)(db->ndense + (size_t)(hit - db->sparse)) : -1;
}

size_t nst_db_string_slots(struct nst_db *db)
{
	if (!strings_ready(db))
		return 0;
	return db->ndense + db->nsparse;
}

static struct db_enum *load_enum(struct nst_db *db, const char *table)
{
	struct db_enum *e = calloc(1, sizeof *e);
	if (!e)
		return NULL;
	e->table = nst_arena_strndup(&db->arena, table, strlen(table));
	e->next = db->enums;
	db->enums = e;
	if (!e->table || !nst_db_has_table(db, table) || strchr(table, '"'))
		return e;
	char sql[256];
	snprintf(sql, sizeof sql, "SELECT id, label FROM \"%s\"", table);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return e;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		const char *label = (const char *)sqlite3_column_text(st, 1);
		if (id < 0 || id > 4096 || !label)
			continue;
		if ((size_t)id >= e->n) {
			size_t n = (size_t)id + 1;
			const char **l = realloc(e->labels, n * sizeof *l);
			if (!l)
				break;
			memset(l + e->n, 0, (n - e->n) * sizeof *l);
			e->labels = l;
			e->n = n;
		}
		e->labels[id] = nst_arena_strndup(&db->arena, label, strlen(label));
	}
	sqlite3_finalize(st);
	return e;
}

const char *nst_db_enum_label(struct nst_db *db, const char *table, int64_t id)
{
	pthread_mutex_lock(&db->lock);
	struct db_enum *e = db->enums;
	while (e && strcmp(e->table, table) != 0)
		e = e->next;
	if (!e)
		e = load_enum(db, table);
	pthread_mutex_unlock(&db->lock);
	if (!e)
		return NULL;
	if (!nst_db_has_table(db, table))
		return nst_builtin_enum_label(table, id);
	return id >= 0 && (uint64_t)id < e->n ? e->labels[id] : NULL;
}

static void load_meta_from(struct nst_db *db, const char *table, size_t *cap)
{
	if (!nst_db_has_table(db, table))
		return;
	char sql[128];
	snprintf(sql, sizeof sql, "SELECT name, value FROM %s", table);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *n = (const char *)sqlite3_column_text(st, 0);
		const char *v = (const char *)sqlite3_column_text(st, 1);
		if (!n || !v)
			continue;
		if (db->nmeta == *cap) {
			*cap = *cap ? *cap * 2 : 32;
			void *p = realloc(db->meta, *cap * sizeof *db->meta);
			if (!p)
				break;
			db->meta = p;
		}
		db->meta[db->nmeta++] = (struct db_meta){
			nst_arena_strndup(&db->arena, n, strlen(n)),
			nst_arena_strndup(&db->arena, v, strlen(v)),
		};
	}
	sqlite3_finalize(st);
}

const char *nst_db_meta(struct nst_db *db, const char *name)
{
	const char *value = NULL;
	pthread_mutex_lock(&db->lock);
	if (!db->meta_loaded) {
		size_t cap = 0;
		db->meta_loaded = 1;
		load_meta_from(db, "META_DATA_EXPORT", &cap);
		load_meta_from(db, "EXPORT_META_DATA", &cap);
	}
	for (size_t i = 0; !value && i < db->nmeta; i++)
		if (db->meta[i].name && strcmp(db->meta[i].name, name) == 0)
			value = db->meta[i].value;
	pthread_mutex_unlock(&db->lock);
	return value;
}
