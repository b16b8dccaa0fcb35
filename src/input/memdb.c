/* The export a reader builds in memory; see memdb.h. */
#include "input/memdb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/arena.h"
#include "core/hashmap.h"
#include "core/strtab.h"

/* src/db/schema.sql, made into a C string by the Makefile. */
extern const char nst_schema_sql[];

/* memdb's own tables follow the readers' (enum md_table). */
enum { T_STRINGS = MD_ROWS, T_META, T_ANALYSIS, T_SESSION, T_PROCESSES, T_THREADS, T_RANKS,
       T_COUNT };

/* A table and the columns its rows give, in order.  The CREATE TABLE text
 * is the real one, less the lines of the NOT NULL columns rows do not
 * give: the export has no such column rather than a made-up value in it.
 * A table left without rows is dropped, as nsys exports only what it
 * recorded, except those every export has. */
static const struct table_def {
	const char *name, *cols;
	bool always;
} TABLES[T_COUNT] = {
	[MD_KERNEL] = { "CUPTI_ACTIVITY_KIND_KERNEL",
			"start end deviceId contextId streamId correlationId demangledName shortName "
			"registersPerThread gridX gridY gridZ blockX blockY blockZ", false },
	[MD_MEMCPY] = { "CUPTI_ACTIVITY_KIND_MEMCPY",
			"start end deviceId contextId streamId correlationId bytes copyKind srcKind "
			"dstKind srcDeviceId srcContextId dstDeviceId dstContextId", false },
	[MD_MEMSET] = { "CUPTI_ACTIVITY_KIND_MEMSET",
			"start end deviceId contextId streamId correlationId bytes memKind", false },
	[MD_RUNTIME] = { "CUPTI_ACTIVITY_KIND_RUNTIME",
			 "start end eventClass globalTid correlationId nameId", false },
	[MD_NVTX] = { "NVTX_EVENTS", "start end eventType text globalTid domainId", false },
	[MD_GPU] = { "TARGET_INFO_GPU",
		     "id name totalMemory smCount maxRegistersPerBlock maxShmemPerBlock "
		     "maxShmemPerBlockOptin maxShmemPerSm maxRegistersPerSm threadsPerWarp "
		     "maxThreadsPerBlock computeMajor computeMinor", false },
	[T_STRINGS] = { "StringIds", "id value", true },
	[T_META] = { "META_DATA_EXPORT", "name value", true },
	[T_ANALYSIS] = { "ANALYSIS_DETAILS", "duration startTime stopTime", true },
	[T_SESSION] = { "TARGET_INFO_SESSION_START_TIME", "utcEpochNs utcTime", false },
	[T_PROCESSES] = { "PROCESSES", "globalPid pid name", false },
	[T_THREADS] = { "ThreadNames", "nameId globalTid", false },
	[T_RANKS] = { "MPI_RANKS", "globalTid rank", false },
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

struct memdb {
	sqlite3 *h;
	const char *path;
	sqlite3_stmt *insert[T_COUNT];
	int ncols[T_COUNT];
	uint64_t rows[T_COUNT];
	/* the row being given */
	int cur, next;
	int bind_rc;
	/* StringIds: the strings, copied into the arena */
	struct nst_strtab strings;
	struct nst_arena arena;
	struct names processes, threads;
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

/* "NOT NULL" in line[0..len) before its "--" comment. */
static bool declared_not_null(const char *line, size_t len)
{
	for (size_t i = 0; i + 8 <= len; i++) {
		if (line[i] == '-' && line[i + 1] == '-')
			return false;
		if (memcmp(line + i, "NOT NULL", 8) == 0)
			return true;
	}
	return false;
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
		if (!column || gives || !declared_not_null(line, n))
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

enum nst_status memdb_new(const char *path, struct memdb **out, struct nst_error *err)
{
	*out = NULL;
	struct memdb *m = calloc(1, sizeof *m);
	if (!m)
		return nst_fail(err, NST_ERR_NOMEM, "%s: out of memory", path);
	m->path = path;
	enum nst_status s = NST_OK;
	/* One connection, one thread: no mutexes; no journal, no temporary
	 * file: nothing of it touches a disk. */
	if (sqlite3_open_v2(":memory:", &m->h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		s = m->h ? sql_fail(m, err) : nst_fail(err, NST_ERR_NOMEM, "%s: out of memory", path);
	if (s == NST_OK)
		s = exec(m, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA temp_store=MEMORY;"
			 " BEGIN", err);
	for (int t = 0; s == NST_OK && t < T_COUNT; t++)
		s = create_table(m, t, err);
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
	for (int t = 0; t < T_COUNT; t++)
		sqlite3_finalize(m->insert[t]);
	sqlite3_close(m->h);
	nst_strtab_release(&m->strings);
	nst_arena_release(&m->arena);
	nst_map_release(&m->processes.rows);
	nst_map_release(&m->threads.rows);
	free(m->processes.v);
	free(m->threads.v);
	free(m);
}

sqlite3 *memdb_take(struct memdb *m)
{
	for (int t = 0; t < T_COUNT; t++) {
		sqlite3_finalize(m->insert[t]);
		m->insert[t] = NULL;
	}
	sqlite3 *h = m->h;
	m->h = NULL;
	return h;
}

/* ---- rows ---------------------------------------------------------------------- */

static void begin(struct memdb *m, int t)
{
	m->cur = t;
	m->next = 1;
	m->bind_rc = SQLITE_OK;
}

void md_begin(struct memdb *m, enum md_table t)
{
	begin(m, (int)t);
}

static void bound(struct memdb *m, int rc)
{
	if (rc != SQLITE_OK && m->bind_rc == SQLITE_OK)
		m->bind_rc = rc;
	m->next++;
}

void md_int(struct memdb *m, int64_t v)
{
	bound(m, sqlite3_bind_int64(m->insert[m->cur], m->next, v));
}

void md_null(struct memdb *m)
{
	bound(m, sqlite3_bind_null(m->insert[m->cur], m->next));
}

void md_text(struct memdb *m, const char *s, size_t len)
{
	bound(m, sqlite3_bind_text64(m->insert[m->cur], m->next, s, len, SQLITE_STATIC, SQLITE_UTF8));
}

enum nst_status md_end(struct memdb *m, struct nst_error *err)
{
	sqlite3_stmt *st = m->insert[m->cur];
	if (m->next - 1 != m->ncols[m->cur])
		return internal(m, err, "a row with the wrong number of values");
	if (m->bind_rc == SQLITE_NOMEM)
		return nst_fail(err, NST_ERR_NOMEM, "%s: out of memory", m->path);
	if (m->bind_rc != SQLITE_OK)
		return internal(m, err, sqlite3_errstr(m->bind_rc));
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return sql_fail(m, err);
	m->rows[m->cur]++;
	return NST_OK;
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

/* The process of the only process that made calls, or none. */
static enum nst_status only_caller(struct memdb *m, bool *one, int64_t *gpid, struct nst_error *err)
{
	sqlite3_stmt *st;
	*one = false;
	if (!m->rows[MD_RUNTIME])
		return NST_OK;
	if (sqlite3_prepare_v2(m->h, "SELECT min(g), count(DISTINCT g) FROM (SELECT globalTid & "
			       "-16777216 AS g FROM CUPTI_ACTIVITY_KIND_RUNTIME)", -1, &st, NULL) != SQLITE_OK)
		return sql_fail(m, err);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 1) == 1) {
		*one = true;
		*gpid = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	return NST_OK;
}

/* Each GPU row, in one pass (a pass rewrites every row: 1M kernels take a
 * second each): its times from the session's start, and the process whose
 * calls have its correlationId; none when calls of several processes have
 * it (a trace that merges processes: which one launched it is not known);
 * without such a call, the only process that made calls, if there is one,
 * which then is every row's. */
static enum nst_status gpu_rows(struct memdb *m, const struct md_session *s, struct nst_error *err)
{
	bool one;
	int64_t gpid = 0, origin = s->has_span ? s->origin : 0;
	enum nst_status st = only_caller(m, &one, &gpid, err);
	if (st != NST_OK)
		return st;
	if (one || !m->rows[MD_RUNTIME])
		return each_table(m, "UPDATE %s SET start = start - ?1, end = end - ?1, globalPid = ?2",
				  GPU_ROWS, sizeof GPU_ROWS / sizeof *GPU_ROWS, &origin,
				  one ? &gpid : NULL, err);
	/* the collisions' g is -1, which no process is (a globalPid is >= 0) */
	st = exec(m, "CREATE TEMP TABLE nstats_corr (c INTEGER PRIMARY KEY, g INTEGER); "
		  "INSERT INTO nstats_corr SELECT correlationId, CASE WHEN count(DISTINCT globalTid & "
		  "-16777216) = 1 THEN min(globalTid & -16777216) ELSE -1 END FROM "
		  "CUPTI_ACTIVITY_KIND_RUNTIME WHERE correlationId IS NOT NULL GROUP BY 1", err);
	if (st == NST_OK)
		st = each_table(m, "UPDATE %s SET start = start - ?1, end = end - ?1, globalPid = "
				"nullif((SELECT g FROM nstats_corr WHERE c = %s.correlationId), -1)",
				GPU_ROWS, sizeof GPU_ROWS / sizeof *GPU_ROWS, &origin, NULL, err);
	if (st == NST_OK)
		st = exec(m, "DROP TABLE temp.nstats_corr", err);
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
	enum nst_status st = NST_OK;
	if (s->has_span)
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
