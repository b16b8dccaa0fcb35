/* Opening an export and probing its schema. */
#include "core/lock.h"
#include "db/db_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

enum nst_status nst_input_file(const char *path, struct nst_error *err)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return nst_fail(err, NST_ERR_DB, "%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return nst_fail(err, NST_ERR_DB, "%s: is a directory", path);
	/* reading a FIFO or a terminal would wait for a writer forever */
	if (!S_ISREG(st.st_mode))
		return nst_fail(err, NST_ERR_DB, "%s: not a regular file", path);
	if (st.st_size == 0)
		return nst_fail(err, NST_ERR_DB, "%s: file is empty", path);
	return NST_OK;
}

/* A readable regular file that starts with the SQLite header: checked
 * before SQLite sees it, so that the message says what is wrong. */
static enum nst_status check_file(const char *path, struct nst_error *err)
{
	enum nst_status s = nst_input_file(path, err);
	if (s != NST_OK)
		return s;
	FILE *f = fopen(path, "rb");
	if (!f)
		return nst_fail(err, NST_ERR_DB, "%s: %s", path, strerror(errno));
	char head[16];
	size_t n = fread(head, 1, sizeof head, f);
	fclose(f);
	if (n < sizeof head || memcmp(head, "SQLite format 3", 16) != 0)
		return nst_fail(err, NST_ERR_DB,
				"%s: not an SQLite database (nsys export --type=sqlite makes one)",
				path);
	return NST_OK;
}

/* "file:" URI of path with the characters that URIs reserve escaped. */
static char *uri_of(const char *path)
{
	char *abs = realpath(path, NULL);
	if (!abs)
		return NULL;
	size_t n = strlen(abs);
	char *uri = malloc(n * 3 + 64);
	if (uri) {
		char *p = uri + sprintf(uri, "file:");
		for (const char *s = abs; *s; s++) {
			unsigned char c = (unsigned char)*s;
			if (c == '%' || c == '?' || c == '#' || c < 0x20 || c >= 0x7f)
				p += sprintf(p, "%%%02X", c);
			else
				*p++ = (char)c;
		}
		strcpy(p, "?mode=ro&immutable=1");
	}
	free(abs);
	return uri;
}

static enum nst_status load_tables(struct nst_db *db, struct nst_error *err)
{
	sqlite3_stmt *st;
	/* a WITHOUT ROWID table is an index b-tree: no root the page reader reads */
	const char *sql = "SELECT name, CASE WHEN type = 'table' AND sql NOT LIKE '%without rowid%'"
			  " THEN rootpage ELSE 0 END FROM sqlite_master WHERE type IN ('table','view')";
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return nst_fail(err, NST_ERR_DB, "%s: cannot read the schema: %s",
				db->path, sqlite3_errmsg(db->h));
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (db->ntables == cap) {
			cap = cap ? cap * 2 : 128;
			struct db_table *t = realloc(db->tables, cap * sizeof *t);
			if (!t) {
				sqlite3_finalize(st);
				return nst_fail(err, NST_ERR_NOMEM, "out of memory");
			}
			db->tables = t;
		}
		const char *name = (const char *)sqlite3_column_text(st, 0);
		char *copy = nst_arena_strndup(&db->arena, name ? name : "",
					       name ? strlen(name) : 0);
		if (!copy) {
			sqlite3_finalize(st);
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		}
		db->tables[db->ntables++] = (struct db_table){ .name = copy,
							       .root = sqlite3_column_int64(st, 1) };
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return nst_fail(err, NST_ERR_DB, "%s: cannot read the schema: %s",
				db->path, sqlite3_errmsg(db->h));
	return NST_OK;
}

/* Every export nsys writes has at least one of these. */
static bool looks_like_export(const struct nst_db *db)
{
	static const char *const marks[] = {
		"StringIds", "META_DATA_EXPORT", "EXPORT_META_DATA",
		"TARGET_INFO_SESSION_START_TIME",
	};
	for (size_t i = 0; i < sizeof marks / sizeof *marks; i++)
		if (nst_db_has_table(db, marks[i]))
			return true;
	return false;
}

static enum nst_status check_schema_version(struct nst_db *db,
					    struct nst_error *err)
{
	const char *v = nst_db_meta(db, "EXPORT_SCHEMA_VERSION");
	if (!v)
		return NST_OK;
	long major = strtol(v, NULL, 10);
	if (major > 3)
		return nst_fail(err, NST_ERR_DB,
				"%s: export schema version %s is newer than nstats reads (major version 3)",
				db->path, v);
	return NST_OK;
}

/* Read-only and immutable: SQLite takes no lock and writes nothing, not
 * even a journal.  The db's own connection is shared by reports on
 * several threads (FULLMUTEX); one from nst_db_connect() by one thread. */
static int connect(const char *uri, sqlite3 **h, int threads)
{
	int rc = sqlite3_open_v2(uri, h, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | threads, NULL);
	/* Tables are read in one scan each: a small page cache is enough, and
	 * plain reads keep the file's pages out of our resident memory. */
	if (rc == SQLITE_OK)
		sqlite3_exec(*h, "PRAGMA mmap_size=0; PRAGMA cache_size=-2048",
			     NULL, NULL, NULL);
	return rc;
}

sqlite3 *nst_db_connect(struct nst_db *db)
{
	sqlite3 *h = NULL;
	if (!db->uri)
		return NULL;
	if (connect(db->uri, &h, SQLITE_OPEN_NOMUTEX) != SQLITE_OK) {
		sqlite3_close(h);
		return NULL;
	}
	return h;
}

/* What every export must show once its handle is open: its tables, the
 * mark of an Nsight Systems export, a schema version nstats reads. */
static enum nst_status probe(struct nst_db *db, struct nst_error *err)
{
	enum nst_status s = load_tables(db, err);
	if (s == NST_OK && !looks_like_export(db))
		s = nst_fail(err, NST_ERR_DB,
			     "%s: not an Nsight Systems export (no StringIds or export metadata table)",
			     db->path);
	if (s == NST_OK)
		s = check_schema_version(db, err);
	return s;
}

static struct nst_db *db_new(void)
{
	struct nst_db *db = calloc(1, sizeof *db);
	if (db && nst_lock_init(&db->lock) != 0) {
		free(db);
		return NULL;
	}
	if (db)
		db->page_reader = true;
	return db;
}

void nst_db_set_page_reader(struct nst_db *db, bool on)
{
	db->page_reader = on;
}

enum nst_status nst_db_open(const char *path, struct nst_db **out,
			    struct nst_error *err)
{
	*out = NULL;
	enum nst_status s = check_file(path, err);
	if (s != NST_OK)
		return s;
	struct nst_db *db = db_new();
	char *uri = uri_of(path);
	if (!db || !uri) {
		nst_db_close(db);
		free(uri);
		return nst_fail(err, NST_ERR_NOMEM, "%s: out of memory", path);
	}
	db->path = nst_arena_strndup(&db->arena, path, strlen(path));
	db->uri = nst_arena_strndup(&db->arena, uri, strlen(uri));
	int rc = connect(uri, &db->h, SQLITE_OPEN_FULLMUTEX);
	free(uri);
	if (rc != SQLITE_OK || !db->path || !db->uri) {
		s = nst_fail(err, NST_ERR_DB, "%s: cannot open: %s", path,
			     db->h ? sqlite3_errmsg(db->h) : "out of memory");
		nst_db_close(db);
		return s;
	}
	if ((s = probe(db, err)) != NST_OK) {
		nst_db_close(db);
		return s;
	}
	*out = db;
	return NST_OK;
}

enum nst_status nst_db_adopt(sqlite3 *h, const char *path, struct nst_db **out,
			     struct nst_error *err)
{
	*out = NULL;
	struct nst_db *db = db_new();
	if (!db) {
		sqlite3_close(h);
		return nst_fail(err, NST_ERR_NOMEM, "%s: out of memory", path);
	}
	db->h = h;
	db->path = nst_arena_strndup(&db->arena, path, strlen(path));
	enum nst_status s = db->path ? probe(db, err)
				     : nst_fail(err, NST_ERR_NOMEM, "%s: out of memory", path);
	if (s != NST_OK) {
		nst_db_close(db);
		return s;
	}
	*out = db;
	return NST_OK;
}

void nst_db_close(struct nst_db *db)
{
	if (!db)
		return;
	sqlite3_close(db->h);
	for (size_t i = 0; i < db->ntables; i++)
		free(db->tables[i].cols);
	free(db->tables);
	free(db->dense);
	free(db->sparse);
	for (struct db_enum *e = db->enums, *next; e; e = next) {
		next = e->next;
		free(e->labels);
		free(e);
	}
	free(db->meta);
	nst_arena_release(&db->arena);
	pthread_mutex_destroy(&db->lock);
	free(db);
}

const char *nst_db_path(const struct nst_db *db) { return db->path; }
sqlite3 *nst_db_handle(const struct nst_db *db) { return db->h; }

static struct db_table *find_table(const struct nst_db *db, const char *name)
{
	for (size_t i = 0; i < db->ntables; i++)
		if (strcmp(db->tables[i].name, name) == 0)
			return &db->tables[i];
	return NULL;
}

bool nst_db_has_table(const struct nst_db *db, const char *table)
{
	return find_table(db, table) != NULL;
}

/* One column of pragma_table_xinfo's row: name, type, pk, hidden,
 * dflt_value IS NULL. */
static bool add_column(struct nst_db *db, struct db_table *t, size_t *cap, sqlite3_stmt *st)
{
	const char *name = (const char *)sqlite3_column_text(st, 0);
	if (!name)
		return false;
	if (t->ncols == *cap) {
		*cap = *cap ? *cap * 2 : 32;
		struct db_column *cols = realloc(t->cols, *cap * sizeof *cols);
		if (!cols)
			return false;
		t->cols = cols;
	}
	const char *type = (const char *)sqlite3_column_text(st, 1);
	char *copy = nst_arena_strndup(&db->arena, name, strlen(name));
	if (!copy)
		return false;
	t->cols[t->ncols++] = (struct db_column){
		.name = copy,
		.rowid = sqlite3_column_int(st, 2) == 1 && type && strcasecmp(type, "INTEGER") == 0,
		.hidden = sqlite3_column_int(st, 3) != 0,
		.no_default = sqlite3_column_int(st, 4) != 0,
	};
	return true;
}

/* The columns of t: what nst_db_has_column asks and how the page reader
 * finds each column's field, from one statement a table. */
static void probe_columns(struct nst_db *db, struct db_table *t)
{
	t->probed = 1;
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db->h, "SELECT name, type, pk, hidden, dflt_value IS NULL"
			       " FROM pragma_table_xinfo(?1)", -1, &st, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_text(st, 1, t->name, -1, SQLITE_STATIC);
	size_t cap = 0, keys = 0;
	bool all = true;
	int rc = SQLITE_ERROR;
	while (all && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		keys += sqlite3_column_int(st, 2) > 0;
		all = add_column(db, t, &cap, st);
	}
	sqlite3_finalize(st);
	/* the INTEGER PRIMARY KEY is the rowid only as the table's one key */
	for (size_t i = 0; keys != 1 && i < t->ncols; i++)
		t->cols[i].rowid = false;
	t->complete = all && rc == SQLITE_DONE && t->ncols > 0;
}

const struct db_table *nst_db_probed_table(struct nst_db *db, const char *table)
{
	struct db_table *t = find_table(db, table);
	if (!t)
		return NULL;
	pthread_mutex_lock(&db->lock);
	if (!t->probed)
		probe_columns(db, t);
	pthread_mutex_unlock(&db->lock);
	return t;
}

bool nst_db_has_column(struct nst_db *db, const char *table,
		       const char *column)
{
	struct db_table *t = find_table(db, table);
	if (!t)
		return false;
	bool has = false;
	pthread_mutex_lock(&db->lock);
	if (!t->probed)
		probe_columns(db, t);
	/* as pragma_table_info lists them: no hidden or generated column */
	for (size_t i = 0; !has && i < t->ncols; i++)
		has = !t->cols[i].hidden && strcmp(t->cols[i].name, column) == 0;
	pthread_mutex_unlock(&db->lock);
	return has;
}
