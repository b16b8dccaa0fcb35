/* The SQLite image mutator; see sqlite_mutator.h. Row edits go through an
 * in-memory copy of the database (sqlite3_deserialize), so the result is
 * still a database that the readers open, with values that the schema of
 * a real export allows but nsys never writes. */
#include "sqlite_mutator.h"

#include <limits.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

/* libFuzzer's own mutation of a buffer. */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max);

/* ---- randomness: from libFuzzer's seed only, so a run can be replayed */

struct rng {
	uint64_t s;
};

static uint64_t next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static uint64_t below(struct rng *r, uint64_t n)
{
	return n ? next(r) % n : 0;
}

static size_t min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

/* ---- page level */

/* The header's page size (offset 16, big-endian, 1 for 65536); an image
 * whose header says nothing sensible is cut in 512-byte pages. */
static size_t page_size(const uint8_t *data, size_t size)
{
	if (size < 100)
		return 512;
	size_t p = (size_t)data[16] << 8 | data[17];
	if (p == 1)
		return 65536;
	return p >= 512 && (p & (p - 1)) == 0 ? p : 512;
}

static size_t page_count(size_t size, size_t ps)
{
	return (size + ps - 1) / ps;
}

static size_t page_mutate(uint8_t *data, size_t size, struct rng *r)
{
	size_t ps = page_size(data, size), pages = page_count(size, ps);
	size_t i = below(r, pages), off = i * ps, len = min_size(ps, size - off);
	size_t j = below(r, pages), from = j * ps;
	switch (below(r, 4)) {
	case 0: /* a page's bytes only: the others stay consistent */
		LLVMFuzzerMutate(data + off, len, len);
		return size;
	case 1: /* a page where another belongs: b-tree pages that lie */
		memmove(data + off, data + from, min_size(len, size - from));
		return size;
	case 2: /* a file cut short, as by a job killed while exporting */
		return pages > 1 ? (1 + below(r, pages - 1)) * ps : size;
	default:
		memset(data + off, 0, len);
		return size;
	}
}

/* ---- row level: an in-memory copy of the database */

/* A corrupt image may make a statement loop long; a mutation must be quick. */
static int too_long(void *steps)
{
	return ++*(int *)steps > 2000;
}

struct mdb {
	sqlite3 *db;
	struct rng *r;
	size_t budget; /* bytes a long string may take */
	int steps;
	char *table;
	char *cols[64];
	int pk[64];
	int ncols;
	int64_t rows, rowid;
};

static sqlite3 *open_image(const uint8_t *data, size_t size, int *steps)
{
	sqlite3 *db = NULL;
	if (size < 512 || sqlite3_open(":memory:", &db) != SQLITE_OK) {
		sqlite3_close(db);
		return NULL;
	}
	unsigned char *copy = sqlite3_malloc64(size);
	if (copy)
		memcpy(copy, data, size);
	/* FREEONCLOSE frees copy even when deserializing fails */
	if (!copy || sqlite3_deserialize(db, "main", copy, (sqlite3_int64)size, (sqlite3_int64)size,
					 SQLITE_DESERIALIZE_FREEONCLOSE |
						 SQLITE_DESERIALIZE_RESIZEABLE) != SQLITE_OK) {
		sqlite3_close(db);
		return NULL;
	}
	sqlite3_progress_handler(db, 1000, too_long, steps);
	return db;
}

static sqlite3_stmt *prepare(struct mdb *m, const char *sql)
{
	sqlite3_stmt *st = NULL;
	if (!sql || sqlite3_prepare_v2(m->db, sql, -1, &st, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return NULL;
	}
	return st;
}

/* The first column of the first row of sql (an integer), or fallback. */
static int64_t query_int(struct mdb *m, char *sql, int64_t fallback)
{
	sqlite3_stmt *st = prepare(m, sql);
	sqlite3_free(sql);
	int64_t v = fallback;
	if (st && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_INTEGER)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static int exec(struct mdb *m, char *sql)
{
	int rc = sql ? sqlite3_exec(m->db, sql, NULL, NULL, NULL) : SQLITE_NOMEM;
	sqlite3_free(sql);
	return rc == SQLITE_OK;
}

static int64_t row_count(struct mdb *m, const char *table)
{
	return query_int(m, sqlite3_mprintf("SELECT count(*) FROM \"%w\"", table), 0);
}

/* A user table, the bigger of two chosen at random: event tables and
 * StringIds, the ones the reports read, are the big ones. */
static int pick_table(struct mdb *m)
{
	sqlite3_stmt *st = prepare(m, "SELECT name FROM sqlite_master WHERE type = 'table' "
				      "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'");
	char *names[256];
	int n = 0;
	while (st && n < 256 && sqlite3_step(st) == SQLITE_ROW)
		names[n++] = sqlite3_mprintf("%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	int best = -1;
	for (int tries = 0; tries < 6 && n > 0 && (tries < 2 || m->rows == 0); tries++) {
		int i = (int)below(m->r, (uint64_t)n);
		int64_t rows = names[i] ? row_count(m, names[i]) : 0;
		if (best < 0 || rows > m->rows)
			best = i, m->rows = rows;
	}
	if (best >= 0) {
		m->table = names[best];
		names[best] = NULL;
	}
	for (int i = 0; i < n; i++)
		sqlite3_free(names[i]);
	return m->table != NULL;
}

static int load_columns(struct mdb *m)
{
	sqlite3_stmt *st = prepare(m, "SELECT name, pk FROM pragma_table_info(?)");
	if (st)
		sqlite3_bind_text(st, 1, m->table, -1, SQLITE_STATIC);
	while (st && m->ncols < 64 && sqlite3_step(st) == SQLITE_ROW) {
		m->cols[m->ncols] = sqlite3_mprintf("%s", (const char *)sqlite3_column_text(st, 0));
		m->pk[m->ncols++] = sqlite3_column_int(st, 1) != 0;
	}
	sqlite3_finalize(st);
	return m->ncols > 0;
}

static int64_t nth_rowid(struct mdb *m, int64_t n)
{
	return query_int(m, sqlite3_mprintf("SELECT rowid FROM \"%w\" LIMIT 1 OFFSET %lld",
					    m->table, (long long)n),
			 INT64_MIN);
}

static void close_mdb(struct mdb *m)
{
	for (int i = 0; i < m->ncols; i++)
		sqlite3_free(m->cols[i]);
	sqlite3_free(m->table);
	sqlite3_close(m->db);
}

/* ---- row level: values */

static const int64_t EDGE_INTS[] = {
	0, -1, 1, 2, INT64_MIN, INT64_MAX, INT32_MIN, INT32_MAX, UINT32_MAX,
	(int64_t)1 << 53, ((int64_t)1 << 53) + 1, INT64_MAX - 1, INT64_MIN + 1, 1000000000,
};

static const char *const HOSTILE_TEXTS[] = {
	"12", "-1", "1e3", " 7", "0x10", "", "9223372036854775808", "NaN", "1.5",
	"a\"b", "a,b", "a\tb", "a\nb", "a\r\nb", "<script>alert(1)</script>", "&amp;<b>",
	"\xff\xfe", "\xc3", "\xed\xa0\x80", "%s%n%x", "'; DROP TABLE x; --", "a\\b", "\x01\x7f",
};

static const double EDGE_REALS[] = { 0.5, -0.0, 1e300, -1e300, HUGE_VAL, 9.3e18, -2.5 };

#define COUNT(a) (sizeof(a) / sizeof *(a))

/* The value of column col in a random row, moved by -2..2 if an integer. */
static void bind_near(struct mdb *m, sqlite3_stmt *up, int col)
{
	char *sql = sqlite3_mprintf("SELECT \"%w\" FROM \"%w\" LIMIT 1 OFFSET %lld", m->cols[col],
				    m->table, (long long)below(m->r, (uint64_t)m->rows));
	sqlite3_stmt *st = prepare(m, sql);
	sqlite3_free(sql);
	if (st && sqlite3_step(st) == SQLITE_ROW) {
		if (sqlite3_column_type(st, 0) == SQLITE_INTEGER) {
			uint64_t v = (uint64_t)sqlite3_column_int64(st, 0) + below(m->r, 5) - 2;
			sqlite3_bind_int64(up, 1, (int64_t)v);
		} else {
			sqlite3_bind_value(up, 1, sqlite3_column_value(st, 0));
		}
	}
	sqlite3_finalize(st);
}

static void bind_blob(struct mdb *m, sqlite3_stmt *up)
{
	unsigned char b[16];
	size_t n = below(m->r, sizeof b + 1);
	for (size_t i = 0; i < n; i++)
		b[i] = (unsigned char)next(m->r);
	sqlite3_bind_blob(up, 1, b, (int)n, SQLITE_TRANSIENT);
}

/* A string of up to the budget, made of hostile pieces over and over. */
static void bind_long(struct mdb *m, sqlite3_stmt *up)
{
	size_t n = below(m->r, m->budget + 1);
	char *s = malloc(n + 1);
	if (!s)
		return;
	const char *piece = HOSTILE_TEXTS[below(m->r, COUNT(HOSTILE_TEXTS))];
	size_t plen = strlen(piece);
	for (size_t i = 0; i < n; i++)
		s[i] = plen && below(m->r, 64) == 0 ? piece[i % plen] : (char)('A' + i % 26);
	sqlite3_bind_text64(up, 1, s, n, free, SQLITE_UTF8);
}

static void bind_interesting(struct mdb *m, sqlite3_stmt *up, int col)
{
	switch (below(m->r, 8)) {
	case 0: /* unbound: NULL */
		break;
	case 1:
	case 2:
		sqlite3_bind_int64(up, 1, EDGE_INTS[below(m->r, COUNT(EDGE_INTS))]);
		break;
	case 3:
		bind_near(m, up, col);
		break;
	case 4:
		sqlite3_bind_text(up, 1, HOSTILE_TEXTS[below(m->r, COUNT(HOSTILE_TEXTS))], -1,
				  SQLITE_STATIC);
		break;
	case 5:
		bind_blob(m, up);
		break;
	case 6:
		bind_long(m, up);
		break;
	default:
		sqlite3_bind_double(up, 1, EDGE_REALS[below(m->r, COUNT(EDGE_REALS))]);
		break;
	}
}

/* ---- row level: edits */

static int col_named(const struct mdb *m, const char *name)
{
	for (int i = 0; i < m->ncols; i++)
		if (strcmp(m->cols[i], name) == 0)
			return i;
	return -1;
}

static int ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), e = strlen(end);
	return n >= e && strcmp(s + n - e, end) == 0;
}

/* Columns that refer to another row: StringIds ids, processes, threads,
 * correlations (nameId, shortName, globalPid, correlationId, id, ...). */
static int is_id(const char *name)
{
	return strcmp(name, "id") == 0 || ends_with(name, "Id") || ends_with(name, "Pid") ||
	       ends_with(name, "Tid") || ends_with(name, "Name");
}

static int update_col(struct mdb *m, int col, sqlite3_stmt **up)
{
	char *sql = sqlite3_mprintf("UPDATE \"%w\" SET \"%w\" = ? WHERE rowid = %lld", m->table,
				    m->cols[col], (long long)m->rowid);
	*up = prepare(m, sql);
	sqlite3_free(sql);
	return *up != NULL;
}

static int run_update(sqlite3_stmt *up)
{
	int rc = sqlite3_step(up);
	sqlite3_finalize(up);
	return rc == SQLITE_DONE;
}

static int set_value(struct mdb *m)
{
	int col = (int)below(m->r, (uint64_t)m->ncols);
	sqlite3_stmt *up;
	if (!update_col(m, col, &up))
		return 0;
	bind_interesting(m, up, col);
	return run_update(up);
}

/* Points an id column at another row's id, a string's id, or at nothing. */
static int repoint_id(struct mdb *m)
{
	int ids[64], n = 0;
	for (int i = 0; i < m->ncols; i++)
		if (is_id(m->cols[i]))
			ids[n++] = i;
	if (n == 0)
		return set_value(m);
	int col = ids[below(m->r, (uint64_t)n)];
	sqlite3_stmt *up;
	if (!update_col(m, col, &up))
		return 0;
	int64_t strings = query_int(m, sqlite3_mprintf("SELECT count(*) FROM StringIds"), 0);
	switch (below(m->r, 4)) {
	case 0:
		bind_near(m, up, col);
		break;
	case 1:
		sqlite3_bind_int64(up, 1, query_int(m, sqlite3_mprintf("SELECT id FROM StringIds LIMIT 1 OFFSET %lld",
								   (long long)below(m->r, (uint64_t)strings)), 0));
		break;
	case 2: {
		char *sql = sqlite3_mprintf("SELECT max(\"%w\") FROM \"%w\"", m->cols[col], m->table);
		int64_t top = query_int(m, sql, 0);
		sqlite3_bind_int64(up, 1, top < INT64_MAX - 1000 ? top + 1 + (int64_t)below(m->r, 1000) : -7);
		break;
	}
	default:
		sqlite3_bind_int64(up, 1, -1 - (int64_t)below(m->r, 3));
		break;
	}
	return run_update(up);
}

/* start and end swapped: an operation that ends before it starts. */
static int swap_start_end(struct mdb *m)
{
	if (col_named(m, "start") < 0 || col_named(m, "end") < 0)
		return set_value(m);
	return exec(m, sqlite3_mprintf("UPDATE \"%w\" SET start = \"end\", \"end\" = start "
				       "WHERE rowid = %lld",
				       m->table, (long long)m->rowid));
}

/* The row again (all but its primary key), then maybe edited: twins and
 * near-twins are where sorting, dedup and overlap code goes wrong. */
static int duplicate_row(struct mdb *m)
{
	sqlite3_str *cols = sqlite3_str_new(m->db);
	for (int i = 0; i < m->ncols; i++)
		if (!m->pk[i])
			sqlite3_str_appendf(cols, "%s\"%w\"", sqlite3_str_length(cols) ? "," : "",
					    m->cols[i]);
	int empty = sqlite3_str_length(cols) == 0;
	char *list = sqlite3_str_finish(cols);
	int ok = !empty && list &&
		 exec(m, sqlite3_mprintf("INSERT INTO \"%w\" (%s) SELECT %s FROM \"%w\" WHERE rowid = %lld",
					 m->table, list, list, m->table, (long long)m->rowid));
	sqlite3_free(list);
	if (ok && below(m->r, 2)) {
		m->rowid = sqlite3_last_insert_rowid(m->db);
		set_value(m);
	}
	return ok;
}

static int delete_rows(struct mdb *m)
{
	if (below(m->r, 4))
		return exec(m, sqlite3_mprintf("DELETE FROM \"%w\" WHERE rowid = %lld", m->table,
					       (long long)m->rowid));
	return exec(m, sqlite3_mprintf("DELETE FROM \"%w\"", m->table));
}

/* A column missing, as in an export from another nsys version. */
static int drop_column(struct mdb *m)
{
	const char *col = m->cols[below(m->r, (uint64_t)m->ncols)];
	return exec(m, sqlite3_mprintf("ALTER TABLE \"%w\" DROP COLUMN \"%w\"", m->table, col));
}

static int edit_row(struct mdb *m)
{
	m->rowid = nth_rowid(m, (int64_t)below(m->r, (uint64_t)m->rows));
	if (m->rowid == INT64_MIN)
		return 0;
	uint64_t k = below(m->r, 20);
	if (k < 9)
		return set_value(m);
	if (k < 13)
		return repoint_id(m);
	if (k < 15)
		return swap_start_end(m);
	if (k < 17)
		return duplicate_row(m);
	if (k < 19)
		return delete_rows(m);
	return drop_column(m);
}

/* The database back into data if it fits; 0 if not. */
static size_t serialize_into(struct mdb *m, uint8_t *data, size_t max)
{
	sqlite3_int64 n = 0;
	unsigned char *img = sqlite3_serialize(m->db, "main", &n, 0);
	size_t size = img && n > 0 && (uint64_t)n <= max ? (size_t)n : 0;
	if (size)
		memcpy(data, img, size);
	sqlite3_free(img);
	return size;
}

/* One to three edits of rows of one table; 0 if the image is not a
 * database or nothing could be edited. */
static size_t row_mutate(uint8_t *data, size_t size, size_t max, struct rng *r)
{
	struct mdb m = { .r = r };
	m.budget = max > size + 8192 ? min_size(max - size - 8192, 1 << 20) : 0;
	m.db = open_image(data, size, &m.steps);
	int edited = 0;
	if (m.db && pick_table(&m) && load_columns(&m) && m.rows > 0)
		for (uint64_t i = 1 + below(r, 3); i > 0; i--)
			edited |= edit_row(&m);
	size_t out = edited ? serialize_into(&m, data, max) : 0;
	close_mdb(&m);
	return out;
}

/* ---- the entry points */

size_t sqlite_mutate(uint8_t *data, size_t size, size_t max, unsigned seed)
{
	struct rng r = { seed };
	uint64_t level = below(&r, 20);
	size_t out = 0;
	if (level < 14)
		out = row_mutate(data, size, max, &r);
	if (!out && level < 19 && size > 0)
		out = page_mutate(data, size, &r);
	if (!out)
		out = LLVMFuzzerMutate(data, size, max);
	return out ? out : size;
}

size_t sqlite_cross_over(const uint8_t *a, size_t asize, const uint8_t *b, size_t bsize,
			 uint8_t *out, size_t max, unsigned seed)
{
	struct rng r = { seed };
	size_t n = min_size(asize, max);
	if (n)
		memcpy(out, a, n);
	size_t ps = page_size(a, n), common = min_size(n, bsize);
	size_t pages = page_count(common, ps);
	if (pages == 0)
		return n;
	size_t first = below(&r, pages), run = 1 + below(&r, 4);
	size_t from = first * ps, len = min_size(run * ps, common - from);
	memcpy(out + from, b + from, len);
	return n;
}

/* libFuzzer's hooks, for every harness built with this file (fuzz_export,
 * fuzz_pages). */
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned seed);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned seed)
{
	return sqlite_mutate(data, size, max, seed);
}

size_t LLVMFuzzerCustomCrossOver(const uint8_t *a, size_t asize, const uint8_t *b, size_t bsize,
				 uint8_t *out, size_t max, unsigned seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *a, size_t asize, const uint8_t *b, size_t bsize,
				 uint8_t *out, size_t max, unsigned seed)
{
	return sqlite_cross_over(a, asize, b, bsize, out, max, seed);
}
