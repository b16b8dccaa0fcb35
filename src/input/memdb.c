/* The export a reader builds in memory; see memdb.h. */
#include "input/memdb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/arena.h"
#include "core/hashmap.h"
#include "core/pipe.h"
#include "core/strtab.h"
#include "core/search.h"

/* src/db/schema.sql, made into a C string by the Makefile. */
extern const char nst_schema_sql[];

/* memdb's own tables follow the readers' (enum md_table). */
enum { T_STRINGS = MD_ROWS, T_META, T_ANALYSIS, T_SESSION, T_PROCESSES, T_THREADS, T_RANKS,
       T_COUNT };

/* A table and the columns its rows give, in order.  The CREATE TABLE text
 * is the real one, less the lines of the NOT NULL columns rows do not
 * give: the export has no such column rather than a made-up value in it.
 * A table left without rows is dropped, as nsys exports only what it
 * recorded, except those every export has.  Columns of `nullable` are
 * given, but some traces have no value for them (Kineto writes one shared
 * memory size, nstats's own traces the static and dynamic ones): they are
 * kept without their NOT NULL, NULL where the trace is silent. */
static const struct table_def {
	const char *name, *cols;
	bool always;
	const char *nullable;
} TABLES[T_COUNT] = {
	[MD_KERNEL] = { "CUPTI_ACTIVITY_KIND_KERNEL",
			"start end deviceId contextId streamId correlationId demangledName shortName "
			"registersPerThread gridX gridY gridZ blockX blockY blockZ staticSharedMemory "
			"dynamicSharedMemory greenContextId", false,
			"staticSharedMemory dynamicSharedMemory" },
	[MD_MEMCPY] = { "CUPTI_ACTIVITY_KIND_MEMCPY",
			"start end deviceId contextId streamId correlationId bytes copyKind srcKind "
			"dstKind srcDeviceId srcContextId dstDeviceId dstContextId greenContextId", false, NULL },
	[MD_MEMSET] = { "CUPTI_ACTIVITY_KIND_MEMSET",
			"start end deviceId contextId streamId correlationId bytes memKind greenContextId",
			false, NULL },
	[MD_RUNTIME] = { "CUPTI_ACTIVITY_KIND_RUNTIME",
			 "start end eventClass globalTid correlationId nameId", false, NULL },
	[MD_NVTX] = { "NVTX_EVENTS", "start end eventType text globalTid domainId", false, NULL },
	[MD_GPU] = { "TARGET_INFO_GPU",
		     "id name totalMemory smCount maxRegistersPerBlock maxShmemPerBlock "
		     "maxShmemPerBlockOptin maxShmemPerSm maxRegistersPerSm threadsPerWarp "
		     "maxThreadsPerBlock computeMajor computeMinor", false, NULL },
	[T_STRINGS] = { "StringIds", "id value", true, NULL },
	[T_META] = { "META_DATA_EXPORT", "name value", true, NULL },
	[T_ANALYSIS] = { "ANALYSIS_DETAILS", "duration startTime stopTime", true, NULL },
	[T_SESSION] = { "TARGET_INFO_SESSION_START_TIME", "utcEpochNs utcTime", false, NULL },
	[T_PROCESSES] = { "PROCESSES", "globalPid pid name", false, NULL },
	[T_THREADS] = { "ThreadNames", "nameId globalTid", false, NULL },
	[T_RANKS] = { "MPI_RANKS", "globalTid rank", false, NULL },
};

/* A process's or thread's name, as it stands. */
struct named {
	int64_t id;
	const char *name;
	size_t len;
};

/* Names by id, in order of first sight. */
struct names {
	struct nst_map rows; /* id -> index in v */
	struct named *v;
	size_t n, cap;
};

/* Rows given and not yet inserted: their values in order, texts copied. */
struct batch {
	struct brow {
		int table;
		size_t first, n; /* its values: vals[first..first+n) */
	} *rows;
	struct bval {
		enum { V_INT, V_NULL, V_TEXT } kind;
		int64_t i;       /* V_TEXT: the offset of its bytes in text */
		size_t len;
	} *vals;
	char *text;
	size_t nrows, caprows, nvals, capvals, ntext, captext;
	bool nomem;              /* a value could not be kept */
};

/* Rows are inserted by a second thread while the reader parses: SQLite's
 * work (about a third of reading a trace) then runs beside the JSON's.
 * The reader fills a batch and hands it over a pipe (core/pipe.h); the
 * writer inserts it and gives it back.  After memdb_flush the writer is
 * gone and the connection the caller's. */

/* Every call's process, and the correlationIds of those that have one. */
struct calls {
	struct call_corr {
		int64_t corr;
		uint32_t proc;       /* index in gpids */
	} *v;
	size_t n, cap;
	struct nst_map procs;        /* globalPid -> index in gpids */
	int64_t *gpids;
	size_t nprocs, capprocs;
};

struct memdb {
	sqlite3 *h;
	const char *path;
	sqlite3_stmt *insert[T_COUNT];
	int ncols[T_COUNT];
	uint64_t rows[T_COUNT];
	/* the row being given, into fill */
	int cur;
	struct batch *fill;
	struct nst_pipe writer;
	/* StringIds: the strings, copied into the arena */
	struct nst_strtab strings;
	struct nst_arena arena;
	struct names processes, threads;
	struct calls calls;
};

static enum nst_status internal(const struct memdb *m, struct nst_error *err, const char *what)
{
	return nst_fail(err, NST_ERR_INTERNAL, "%s: internal error building the export in memory: %s",
			m->path, what);
}

static enum nst_status sql_fail(const struct memdb *m, struct nst_error *err)
{
	int rc = sqlite3_errcode(m->h);
	if (rc == SQLITE_NOMEM)
		return nst_fail(err, NST_ERR_NOMEM, "%s: out of memory", m->path);
	return internal(m, err, sqlite3_errmsg(m->h));
}

static enum nst_status exec(struct memdb *m, const char *sql, struct nst_error *err)
{
	return sqlite3_exec(m->h, sql, NULL, NULL, NULL) == SQLITE_OK ? NST_OK : sql_fail(m, err);
}

/* ---- tables from schema.sql ------------------------------------------------- */

static bool is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Whether name[0..len) is one of the space-separated words of cols. */
static bool has_word(const char *cols, const char *name, size_t len)
{
	for (const char *w = cols; *w;) {
		size_t n = strcspn(w, " ");
		if (n == len && memcmp(w, name, len) == 0)
			return true;
		w += n + (w[n] == ' ');
	}
	return false;
}

static size_t count_words(const char *cols)
{
	size_t n = 0;
	for (const char *w = cols; *w; w += strcspn(w, " "), w += *w == ' ')
		n++;
	return n;
}

/* Where "NOT NULL" is in line[0..len) before its "--" comment; len when
 * it is not. */
static size_t not_null_at(const char *line, size_t len)
{
	for (size_t i = 0; i + 8 <= len; i++) {
		if (line[i] == '-' && line[i + 1] == '-')
			return len;
		if (memcmp(line + i, "NOT NULL", 8) == 0)
			return i;
	}
	return len;
}

/* A column's line of CREATE TABLE, its NOT NULL blanked out. */
static void append_nullable(sqlite3_str *create, const char *line, size_t len)
{
	size_t at = not_null_at(line, len);
	sqlite3_str_append(create, line, (int)at);
	if (at < len) {
		sqlite3_str_appendchar(create, 8, ' ');
		sqlite3_str_append(create, line + at + 8, (int)(len - at - 8));
	}
}

/* The statement "CREATE TABLE <name> (" ... ")" of schema.sql, which
 * starts with comment lines: every statement starts a line. */
static const char *find_create(const char *name, size_t *len)
{
	char needle[128];
	if ((size_t)snprintf(needle, sizeof needle, "\nCREATE TABLE %s (\n", name) >= sizeof needle)
		return NULL;
	const char *s = strstr(nst_schema_sql, needle);
	const char *close = s ? strstr(s, "\n);") : NULL;
	if (!close)
		return NULL;
	*len = (size_t)(close + 2 - (s + 1));
	return s + 1;
}

static enum nst_status create_table(struct memdb *m, int t, struct nst_error *err)
{
	const struct table_def *d = &TABLES[t];
	size_t len;
	const char *text = find_create(d->name, &len);
	if (!text)
		return internal(m, err, "a table is missing from schema.sql");
	sqlite3_str *create = sqlite3_str_new(m->h), *cols = sqlite3_str_new(m->h),
		    *vals = sqlite3_str_new(m->h);
	size_t given = 0;
	for (const char *line = text, *end = text + len; line < end;) {
		const char *eol = memchr(line, '\n', (size_t)(end - line));
		size_t n = eol ? (size_t)(eol + 1 - line) : (size_t)(end - line);
		const char *p = line;
		while (p < line + n && *p == ' ')
			p++;
		size_t name_len = 0;
		while (line != text && p + name_len < line + n && is_ident(p[name_len]))
			name_len++;
		bool column = name_len > 0 && !(name_len == 7 && memcmp(p, "PRIMARY", 7) == 0);
		bool gives = column && has_word(d->cols, p, name_len);
		if (gives) {
			sqlite3_str_appendf(cols, "%s%.*s", given ? ", " : "", (int)name_len, p);
			sqlite3_str_appendall(vals, given++ ? ", ?" : "?");
		}
		if (gives && d->nullable && has_word(d->nullable, p, name_len))
			append_nullable(create, line, n);
		else if (!column || gives || not_null_at(line, n) == n)
			sqlite3_str_append(create, line, (int)n);
		line += n;
	}
	char *create_sql = sqlite3_str_finish(create), *col_list = sqlite3_str_finish(cols);
	char *val_list = sqlite3_str_finish(vals), *insert_sql = NULL;
	enum nst_status s = NST_OK;
	if (!create_sql || !col_list || !val_list)
		s = nst_fail(err, NST_ERR_NOMEM, "%s: out of memory", m->path);
	else if (given != count_words(d->cols))
		s = internal(m, err, "a column is missing from schema.sql");
	if (s == NST_OK)
		s = exec(m, create_sql, err);
	if (s == NST_OK) {
		insert_sql = sqlite3_mprintf("INSERT INTO %s (%s) VALUES (%s)", d->name, col_list,
					     val_list);
		if (!insert_sql)
			s = nst_fail(err, NST_ERR_NOMEM, "%s: out of memory", m->path);
		else if (sqlite3_prepare_v3(m->h, insert_sql, -1, SQLITE_PREPARE_PERSISTENT,
					    &m->insert[t], NULL) != SQLITE_OK)
			s = sql_fail(m, err);
	}
	m->ncols[t] = (int)given;
	sqlite3_free(create_sql);
	sqlite3_free(col_list);
	sqlite3_free(val_list);
	sqlite3_free(insert_sql);
	return s;
}

static enum nst_status consume_batch(void *self, void *batch, bool drop, struct nst_error *err);
static void calls_release(struct calls *c);
static void writer_release(struct memdb *m);
static enum nst_status memdb_flush(struct memdb *m, struct nst_error *err);

enum nst_status memdb_new(const char *path, struct memdb **out, struct nst_error *err)
{
	*out = NULL;
	struct memdb *m = calloc(1, sizeof *m);
	if (!m)
		return nst_fail(err, NST_ERR_NOMEM, "%s: out of memory", path);
	m->path = path;
	enum nst_status s = NST_OK;
	/* One connection: the writer's, then the export's, which reports on
	 * several threads may share (FULLMUTEX, as nst_db_open's); no journal,
	 * no temporary file: nothing of it touches a disk. */
	if (sqlite3_open_v2(":memory:", &m->h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_FULLMUTEX, NULL) != SQLITE_OK)
		s = m->h ? sql_fail(m, err) : nst_fail(err, NST_ERR_NOMEM, "%s: out of memory", path);
	if (s == NST_OK)
		s = exec(m, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA temp_store=MEMORY;"
			 " BEGIN", err);
	for (int t = 0; s == NST_OK && t < T_COUNT; t++)
		s = create_table(m, t, err);
	if (s == NST_OK) {
		nst_pipe_start(&m->writer, sizeof *m->fill, consume_batch, m);
		if (!(m->fill = nst_pipe_empty(&m->writer)))
			s = nst_fail(err, NST_ERR_NOMEM, "%s: out of memory", path);
	}
	if (s != NST_OK) {
		memdb_free(m);
		return s;
	}
	*out = m;
	return NST_OK;
}

void memdb_free(struct memdb *m)
{
	if (!m)
		return;
	writer_release(m);
	for (int t = 0; t < T_COUNT; t++)
		sqlite3_finalize(m->insert[t]);
	sqlite3_close(m->h);
	nst_strtab_release(&m->strings);
	nst_arena_release(&m->arena);
	nst_map_release(&m->processes.rows);
	nst_map_release(&m->threads.rows);
	calls_release(&m->calls);
	free(m->processes.v);
	free(m->threads.v);
	free(m);
}

sqlite3 *memdb_take(struct memdb *m)
{
	writer_release(m);
	for (int t = 0; t < T_COUNT; t++) {
		sqlite3_finalize(m->insert[t]);
		m->insert[t] = NULL;
	}
	sqlite3 *h = m->h;
	m->h = NULL;
	return h;
}

/* ---- rows ---------------------------------------------------------------------- */

#define BATCH_ROWS 4096

static void batch_free(void *batch)
{
	struct batch *b = batch;
	if (!b)
		return;
	free(b->rows);
	free(b->vals);
	free(b->text);
	free(b);
}

/* Room for need elements of size bytes in the array that *arr (a pointer
 * to any pointer type, passed as void *) points to. */
static bool grow(void *arr, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return true;
	size_t c = *cap ? *cap : 256;
	while (c < need)
		c *= 2;
	void *p;
	memcpy(&p, arr, sizeof p);
	void *q = realloc(p, c * size);
	if (!q)
		return false;
	memcpy(arr, &q, sizeof q);
	*cap = c;
	return true;
}

static struct bval *add_val(struct memdb *m)
{
	struct batch *b = m->fill;
	if (b->nomem || !grow(&b->vals, &b->capvals, b->nvals + 1, sizeof *b->vals)) {
		b->nomem = true;
		return NULL;
	}
	return &b->vals[b->nvals++];
}

static void begin(struct memdb *m, int t)
{
	struct batch *b = m->fill;
	m->cur = t;
	if (b->nomem || !grow(&b->rows, &b->caprows, b->nrows + 1, sizeof *b->rows)) {
		b->nomem = true;
		return;
	}
	b->rows[b->nrows] = (struct brow){ t, b->nvals, 0 };
}

void md_begin(struct memdb *m, enum md_table t)
{
	begin(m, (int)t);
}

void md_int(struct memdb *m, int64_t v)
{
	struct bval *x = add_val(m);
	if (x)
		*x = (struct bval){ V_INT, v, 0 };
}

void md_null(struct memdb *m)
{
	struct bval *x = add_val(m);
	if (x)
		*x = (struct bval){ V_NULL, 0, 0 };
}

void md_text(struct memdb *m, const char *s, size_t len)
{
	struct batch *b = m->fill;
	struct bval *x = add_val(m);
	if (!x)
		return;
	if (!grow(&b->text, &b->captext, b->ntext + len + 1, 1)) {
		b->nomem = true;
		return;
	}
	memcpy(b->text + b->ntext, s, len);
	*x = (struct bval){ V_TEXT, (int64_t)b->ntext, len };
	b->ntext += len + 1;
}

/* Inserts the rows of b; the first failure in *err. */
static enum nst_status insert_batch(struct memdb *m, const struct batch *b, struct nst_error *err)
{
	for (size_t r = 0; r < b->nrows; r++) {
		const struct brow *row = &b->rows[r];
		sqlite3_stmt *st = m->insert[row->table];
		int rc = SQLITE_OK;
		for (size_t i = 0; rc == SQLITE_OK && i < row->n; i++) {
			const struct bval *v = &b->vals[row->first + i];
			int col = (int)i + 1;
			rc = v->kind == V_INT    ? sqlite3_bind_int64(st, col, v->i)
			     : v->kind == V_NULL ? sqlite3_bind_null(st, col)
						 : sqlite3_bind_text64(st, col, b->text + v->i, v->len,
								       SQLITE_STATIC, SQLITE_UTF8);
		}
		if (rc == SQLITE_OK)
			rc = sqlite3_step(st);
		sqlite3_reset(st);
		if (rc == SQLITE_NOMEM)
			return nst_fail(err, NST_ERR_NOMEM, "%s: out of memory", m->path);
		if (rc != SQLITE_DONE)
			return internal(m, err, sqlite3_errmsg(m->h));
	}
	return NST_OK;
}

static void batch_clear(struct batch *b)
{
	b->nrows = b->nvals = b->ntext = 0;
	b->nomem = false;
}

static enum nst_status consume_batch(void *self, void *batch, bool drop, struct nst_error *err)
{
	enum nst_status s = drop ? NST_OK : insert_batch(self, batch, err);
	batch_clear(batch);
	return s;
}

/* Hands m->fill over and takes an empty batch to fill; the writer's
 * failure, if it had one. */
static enum nst_status hand_over(struct memdb *m, struct nst_error *err)
{
	enum nst_status s = nst_pipe_give(&m->writer, m->fill, err);
	m->fill = nst_pipe_empty(&m->writer);
	if (!m->fill && s == NST_OK)
		s = nst_fail(err, NST_ERR_NOMEM, "%s: out of memory", m->path);
	return s;
}

enum nst_status md_end(struct memdb *m, struct nst_error *err)
{
	struct batch *b = m->fill;
	if (!b)
		return nst_pipe_failure(&m->writer, err);
	if (b->nomem)
		return nst_fail(err, NST_ERR_NOMEM, "%s: out of memory", m->path);
	struct brow *row = &b->rows[b->nrows];
	row->n = b->nvals - row->first;
	if (row->n != (size_t)m->ncols[m->cur])
		return internal(m, err, "a row with the wrong number of values");
	b->nrows++;
	m->rows[m->cur]++;
	if (b->nrows < BATCH_ROWS && m->writer.running)
		return NST_OK;
	return hand_over(m, err);
}

/* Every row given inserted, and the writer stopped: the connection is the
 * caller's again. */
static enum nst_status memdb_flush(struct memdb *m, struct nst_error *err)
{
	enum nst_status s = m->fill && m->fill->nrows ? hand_over(m, err) : NST_OK;
	enum nst_status end = nst_pipe_end(&m->writer, s == NST_OK ? err : NULL);
	return s != NST_OK ? s : end;
}

static void writer_release(struct memdb *m)
{
	nst_pipe_release(&m->writer, batch_free);
	batch_free(m->fill);
	m->fill = NULL;
}

int64_t md_string(struct memdb *m, const char *s, size_t len, enum nst_status *status,
		  struct nst_error *err)
{
	size_t before = m->strings.n;
	int64_t id = nst_strtab_intern(&m->strings, s);
	char *copy = NULL;
	if (id >= 0 && m->strings.n == before)
		return id;
	/* new: the table keeps a copy, the caller's text is only borrowed */
	if (id >= 0 && (copy = nst_arena_strndup(&m->arena, s, len)) != NULL) {
		m->strings.text[id] = copy;
		begin(m, T_STRINGS);
		md_int(m, id);
		md_text(m, copy, len);
		*status = md_end(m, err);
		return *status == NST_OK ? id : -1;
	}
	*status = nst_fail(err, NST_ERR_NOMEM, "%s: out of memory", m->path);
	return -1;
}

static enum nst_status set_name(struct memdb *m, struct names *t, int64_t id, const char *text,
			    size_t len, bool replace, struct nst_error *err)
{
	uint32_t row;
	bool fresh;
	if (nst_map_get_or_put(&t->rows, id, 0, (uint32_t)t->n, &row, &fresh) != 0)
		return nst_fail(err, NST_ERR_NOMEM, "%s: out of memory", m->path);
	if (!fresh && !replace)
		return NST_OK;
	if (fresh && t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct named *v = realloc(t->v, cap * sizeof *v);
		if (!v)
			return nst_fail(err, NST_ERR_NOMEM, "%s: out of memory", m->path);
		t->v = v;
		t->cap = cap;
	}
	const char *copy = nst_arena_strndup(&m->arena, text, len);
	if (!copy)
		return nst_fail(err, NST_ERR_NOMEM, "%s: out of memory", m->path);
	if (fresh)
		row = (uint32_t)t->n++;
	t->v[row] = (struct named){ id, copy, len };
	return NST_OK;
}

enum nst_status md_process(struct memdb *m, int64_t pid, const char *text, size_t len,
			   bool replace, struct nst_error *err)
{
	return set_name(m, &m->processes, pid, text, len, replace, err);
}

enum nst_status md_thread(struct memdb *m, int64_t gtid, const char *text, size_t len,
			  bool replace, struct nst_error *err)
{
	return set_name(m, &m->threads, gtid, text, len, replace, err);
}

/* ---- the end ------------------------------------------------------------------ */

/* sql with %s for each table of a list that has rows, run with the integers
 * ?1 and ?2 (NULL where absent). */
static enum nst_status each_table(struct memdb *m, const char *fmt, const int *tables, size_t n,
				  const int64_t *arg1, const int64_t *arg2, struct nst_error *err)
{
	enum nst_status s = NST_OK;
	for (size_t i = 0; s == NST_OK && i < n; i++) {
		if (!m->rows[tables[i]])
			continue;
		char *sql = sqlite3_mprintf(fmt, TABLES[tables[i]].name, TABLES[tables[i]].name);
		sqlite3_stmt *st;
		if (!sql)
			return nst_fail(err, NST_ERR_NOMEM, "%s: out of memory", m->path);
		if (sqlite3_prepare_v2(m->h, sql, -1, &st, NULL) != SQLITE_OK)
			s = sql_fail(m, err);
		else {
			if (arg1)
				sqlite3_bind_int64(st, 1, *arg1);
			if (arg2)
				sqlite3_bind_int64(st, 2, *arg2);
			if (sqlite3_step(st) != SQLITE_DONE)
				s = sql_fail(m, err);
			sqlite3_finalize(st);
		}
		sqlite3_free(sql);
	}
	return s;
}

static const int CPU_ROWS[] = { MD_RUNTIME, MD_NVTX };
static const int GPU_ROWS[] = { MD_KERNEL, MD_MEMCPY, MD_MEMSET };

/* ---- the process of each GPU row -------------------------------------------- */

#define COLLIDED UINT32_MAX

enum nst_status md_call(struct memdb *m, bool has_corr, int64_t corr, int64_t gpid,
			struct nst_error *err)
{
	struct calls *c = &m->calls;
	uint32_t proc;
	bool fresh;
	if (nst_map_get_or_put(&c->procs, gpid, 0, (uint32_t)c->nprocs, &proc, &fresh) != 0 ||
	    (fresh && !grow(&c->gpids, &c->capprocs, c->nprocs + 1, sizeof *c->gpids)) ||
	    (has_corr && !grow(&c->v, &c->cap, c->n + 1, sizeof *c->v)))
		return nst_fail(err, NST_ERR_NOMEM, "%s: out of memory", m->path);
	if (fresh)
		c->gpids[c->nprocs++] = gpid;
	if (has_corr)
		c->v[c->n++] = (struct call_corr){ corr, proc };
	return NST_OK;
}

static int by_corr(const void *x, const void *y)
{
	const struct call_corr *a = x, *b = y;
	return a->corr < b->corr ? -1 : a->corr > b->corr ? 1 : (a->proc > b->proc) - (a->proc < b->proc);
}

/* One entry per correlationId, COLLIDED where calls of several processes
 * have it. */
static void calls_index(struct calls *c)
{
	if (c->n > 1) /* none: v is NULL, which qsort may not take */
		qsort(c->v, c->n, sizeof *c->v, by_corr);
	size_t n = 0;
	for (size_t i = 0; i < c->n; i++) {
		if (n && c->v[n - 1].corr == c->v[i].corr) {
			if (c->v[n - 1].proc != c->v[i].proc)
				c->v[n - 1].proc = COLLIDED;
			continue;
		}
		c->v[n++] = c->v[i];
	}
	c->n = n;
}

/* nstats_gpid(correlationId): the globalPid of the process whose calls have
 * it, NULL when none or several do. */
static void gpid_of(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const struct calls *c = sqlite3_user_data(ctx);
	(void)argc;
	if (sqlite3_value_type(argv[0]) != SQLITE_INTEGER)
		return;
	int64_t corr = sqlite3_value_int64(argv[0]);
	size_t lo = nst_lower_bound(c->v, c->n, sizeof *c->v, offsetof(struct call_corr, corr), corr);
	if (lo < c->n && c->v[lo].corr == corr && c->v[lo].proc != COLLIDED)
		sqlite3_result_int64(ctx, c->gpids[c->v[lo].proc]);
}

static void calls_release(struct calls *c)
{
	free(c->v);
	free(c->gpids);
	nst_map_release(&c->procs);
	memset(c, 0, sizeof *c);
}

/* Each GPU row, in one pass (a pass rewrites every row: 1M kernels take
 * about a second): its times from the session's start, and the process
 * whose calls have its correlationId; none when calls of several processes
 * have it (a trace that merges processes: which one launched it is not
 * known); without such a call, the only process that made calls, if there
 * is one, which then is every row's. Kineto writes GPU rows before the
 * calls that launched them: the process is known only at the end. */
static enum nst_status gpu_rows(struct memdb *m, const struct md_session *s, struct nst_error *err)
{
	struct calls *c = &m->calls;
	int64_t origin = s->has_span ? s->origin : 0;
	enum nst_status st;
	if (c->nprocs <= 1) {
		st = each_table(m, "UPDATE %s SET start = start - ?1, end = end - ?1, globalPid = ?2",
				GPU_ROWS, sizeof GPU_ROWS / sizeof *GPU_ROWS, &origin,
				c->nprocs ? &c->gpids[0] : NULL, err);
	} else {
		calls_index(c);
		if (sqlite3_create_function_v2(m->h, "nstats_gpid", 1,
					       SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY,
					       c, gpid_of, NULL, NULL, NULL) != SQLITE_OK)
			return sql_fail(m, err);
		st = each_table(m, "UPDATE %s SET start = start - ?1, end = end - ?1, globalPid = "
				"nstats_gpid(correlationId)",
				GPU_ROWS, sizeof GPU_ROWS / sizeof *GPU_ROWS, &origin, NULL, err);
		/* the function points into m, which the database outlives */
		sqlite3_create_function_v2(m->h, "nstats_gpid", 1, SQLITE_UTF8, NULL, NULL, NULL, NULL,
					   NULL);
	}
	calls_release(c);
	return st;
}

static enum nst_status meta_row(struct memdb *m, const char *name, const char *value,
				struct nst_error *err)
{
	if (!value)
		return NST_OK;
	begin(m, T_META);
	md_text(m, name, strlen(name));
	md_text(m, value, strlen(value));
	return md_end(m, err);
}

static enum nst_status meta(struct memdb *m, const struct md_session *s, struct nst_error *err)
{
	static const char *const fixed[][2] = {
		/* no EXPORT_PRODUCT_VERSION: no version of nsys made it */
		{ "EXPORT_PRODUCT_NAME", "nstats" },
		{ "EXPORT_NSTATS_VERSION", NSTATS_VERSION },
		/* the CREATE TABLE texts are nsys 2024.2.3's */
		{ "EXPORT_SCHEMA_VERSION", "3.11.0" },
		{ "EXPORT_SCHEMA_VERSION_MAJOR", "3" },
		{ "EXPORT_SCHEMA_VERSION_MINOR", "11" },
		{ "EXPORT_SCHEMA_VERSION_MICRO", "0" },
	};
	enum nst_status st = NST_OK;
	for (size_t i = 0; st == NST_OK && i < sizeof fixed / sizeof *fixed; i++)
		st = meta_row(m, fixed[i][0], fixed[i][1], err);
	if (st == NST_OK)
		st = meta_row(m, "EXPORT_PARAM_INPUT_PATH", m->path, err);
	if (st == NST_OK)
		st = meta_row(m, "EXPORT_INPUT_FORMAT", s->format, err);
	if (st == NST_OK)
		st = meta_row(m, "EXPORT_INPUT_FORMAT_VERSION", s->format_version, err);
	return st;
}

static enum nst_status session(struct memdb *m, const struct md_session *s, struct nst_error *err)
{
	begin(m, T_ANALYSIS);
	md_int(m, s->has_span ? s->end - s->origin : 0);
	md_int(m, s->has_span ? s->origin : 0);
	md_int(m, s->has_span ? s->end : 0);
	enum nst_status st = md_end(m, err);
	if (st != NST_OK || !s->has_epoch)
		return st;
	/* the start as nsys writes it, in UTC: the local time would need the
	 * environment's time zone */
	time_t secs = (time_t)(s->epoch / 1000000000 - (s->epoch % 1000000000 < 0));
	struct tm tm;
	char utc[64];
	begin(m, T_SESSION);
	md_int(m, s->epoch);
	if (gmtime_r(&secs, &tm) && strftime(utc, sizeof utc, "%Y-%m-%dT%H:%M:%S", &tm))
		md_text(m, utc, strlen(utc));
	else
		md_null(m);
	return md_end(m, err);
}

static enum nst_status write_names(struct memdb *m, struct nst_error *err)
{
	enum nst_status s = NST_OK;
	for (size_t i = 0; s == NST_OK && i < m->processes.n; i++) {
		const struct named *p = &m->processes.v[i];
		begin(m, T_PROCESSES);
		md_int(m, p->id << 24);
		md_int(m, p->id);
		md_text(m, p->name, p->len);
		s = md_end(m, err);
	}
	for (size_t i = 0; s == NST_OK && i < m->threads.n; i++) {
		const struct named *t = &m->threads.v[i];
		enum nst_status st = NST_OK;
		int64_t id = md_string(m, t->name, t->len, &st, err);
		if (id < 0)
			return st;
		begin(m, T_THREADS);
		md_int(m, id);
		md_int(m, t->id);
		s = md_end(m, err);
	}
	return s;
}

/* A DomainCreate row (eventType 75) of MD_DOMAIN for each process with
 * ranges in it, at time 0; MPI_RANKS: the rank for every thread that made
 * a call or a range of its own. */
static enum nst_status nvtx_and_ranks(struct memdb *m, const struct md_session *s,
				      struct nst_error *err)
{
	enum nst_status st = NST_OK;
	sqlite3_stmt *q;
	if (m->rows[MD_NVTX] && s->domain) {
		if (sqlite3_prepare_v2(m->h, "INSERT INTO NVTX_EVENTS (start, eventType, text, globalTid, "
				       "domainId) SELECT DISTINCT 0, 75, ?1, globalTid & -16777216, domainId "
				       "FROM NVTX_EVENTS WHERE domainId = ?2 AND eventType = 59 ORDER BY 4",
				       -1, &q, NULL) != SQLITE_OK)
			return sql_fail(m, err);
		sqlite3_bind_text(q, 1, s->domain, -1, SQLITE_STATIC);
		sqlite3_bind_int(q, 2, MD_DOMAIN);
		if (sqlite3_step(q) != SQLITE_DONE)
			st = sql_fail(m, err);
		sqlite3_finalize(q);
	}
	if (st == NST_OK && s->has_rank) {
		if (sqlite3_prepare_v2(m->h, "INSERT INTO MPI_RANKS (globalTid, rank) SELECT DISTINCT "
				       "globalTid, ?1 FROM (SELECT globalTid FROM CUPTI_ACTIVITY_KIND_RUNTIME "
				       "UNION SELECT globalTid FROM NVTX_EVENTS WHERE domainId IS NULL) WHERE "
				       "globalTid IS NOT NULL ORDER BY 1", -1, &q, NULL) != SQLITE_OK)
			return sql_fail(m, err);
		sqlite3_bind_int64(q, 1, s->rank);
		if (sqlite3_step(q) != SQLITE_DONE)
			st = sql_fail(m, err);
		else
			m->rows[T_RANKS] += (uint64_t)sqlite3_changes64(m->h);
		sqlite3_finalize(q);
	}
	return st;
}

enum nst_status memdb_finish(struct memdb *m, const struct md_session *s, struct nst_error *err)
{
	enum nst_status st = memdb_flush(m, err);
	if (st == NST_OK && s->has_span)
		st = each_table(m, "UPDATE %s SET start = start - ?1, end = end - ?1", CPU_ROWS,
				sizeof CPU_ROWS / sizeof *CPU_ROWS, &s->origin, NULL, err);
	if (st == NST_OK)
		st = gpu_rows(m, s, err);
	if (st == NST_OK)
		st = nvtx_and_ranks(m, s, err);
	if (st == NST_OK)
		st = write_names(m, err);
	if (st == NST_OK)
		st = session(m, s, err);
	if (st == NST_OK)
		st = meta(m, s, err);
	for (int t = 0; st == NST_OK && t < T_COUNT; t++) {
		sqlite3_finalize(m->insert[t]);
		m->insert[t] = NULL;
		if (m->rows[t] || TABLES[t].always)
			continue;
		char sql[128];
		snprintf(sql, sizeof sql, "DROP TABLE %s", TABLES[t].name);
		st = exec(m, sql, err);
	}
	if (st == NST_OK)
		st = exec(m, "COMMIT; PRAGMA query_only=1", err);
	return st;
}
