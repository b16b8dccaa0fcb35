/* The store: columns read from the export, each table in one scan, two
 * tables at a time on two threads.  mmap(MAP_POPULATE) is Linux's;
 * elsewhere columns come from malloc. */
#define _DEFAULT_SOURCE

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#include <time.h>

#include "core/arena.h"
#include "core/big.h"
#include "core/clock.h"
#include "events/events_int.h"

/* An integer column is read into 32-bit offsets from its first value
 * (i32) until a value does not fit; it is then widened to int64 (i) for
 * good.  Readers see it through pub, which nst_ev_col() hands out and
 * which follows a widening; nst_ev_i64() widens it first. */
struct ev_col {
	char *name;
	bool text, wanted, loaded, present;
	bool has_base; /* base is set: a value that is not NULL was read */
	/* Every value so far was base + step * row (rowids, one device, a
	 * NULL everywhere): none is stored, and the array, mapped but never
	 * written, costs no memory.  The step, 1 or 0, is row 1's. */
	bool seq, step_known;
	bool is_time;  /* start or end: checked as a timestamp when read */
	bool null_ok;  /* an end that the schema lets be NULL (open ranges) */
	int64_t *i;
	int32_t *i32;
	const char **s;
	struct text_memo *memo; /* while a text column is read (intern_text) */
	size_t mapped; /* bytes of i or i32 when it came from mmap, else 0 */
	struct nst_col pub;
	/* The int64 copy nst_ev_i64() asked of a 32-bit column once it was
	 * lent: pub and its cells stay as they were, as a report on another
	 * thread may be reading them. */
	int64_t *wide;
	size_t wide_mapped;
};

struct ev_table {
	char *name;
	bool loaded, present;
	size_t nrows;
	struct ev_col **cols; /* each column at a fixed address: pub is lent */
	size_t ncols;
	bool sized;           /* expected is known (rows_to_expect) */
	size_t expected;
	bool empty;           /* sized, and no row at all: nothing to read */
	bool planned;         /* a job declared it: last_user is known */
	size_t last_user;     /* the last job to declare it (nst_ev_plan) */
	struct ev_table *next;
};

/* What one thread reads a table with: its own connection and arena;
 * only the calling thread's reader reports progress. */
struct reader {
	sqlite3 *h;
	struct nst_arena *arena;
	bool progress;
};

struct ev_store {
	struct nst_events base;      /* first: a store is a struct nst_events */
	pthread_mutex_t timing_lock; /* one timing line at a time */
	struct ev_table *tables;
	size_t job;             /* the job whose columns are being declared */
	struct nst_arena arena; /* names and text values */
	/* The store's own connection for scans through SQLite, opened on the
	 * first: the db's is shared by reports on several threads and pays
	 * SQLite's mutex on every call, where a scan makes one a cell.  NULL:
	 * the db's (an export in memory has no other). */
	sqlite3 *own;
	bool own_tried;
};

static const struct ev_ops store_ops;

/* The connection a scan through SQLite on the db's connection uses
 * instead (the store's lock held). */
static sqlite3 *scan_handle(struct ev_store *ev)
{
	if (!ev->own_tried) {
		ev->own_tried = true;
		ev->own = nst_db_connect(ev->base.db);
	}
	return ev->own ? ev->own : nst_db_handle(ev->base.db);
}

const struct nst_options ev_no_hooks = { .version = NST_API_VERSION };

struct nst_events *nst_ev_new(struct nst_db *db, const struct nst_options *o)
{
	struct ev_store *ev = calloc(1, sizeof *ev);
	if (!ev)
		return NULL;
	ev->job = NST_EV_NO_JOB;
	if (pthread_mutex_init(&ev->timing_lock, NULL) != 0) {
		free(ev);
		return NULL;
	}
	if (!ev_base_init(&ev->base, &store_ops, db, o ? o : &ev_no_hooks, NULL, NULL)) {
		pthread_mutex_destroy(&ev->timing_lock);
		free(ev);
		return NULL;
	}
	return &ev->base;
}

/* Tables of at least 4M rows whose size is known tell how far their read
 * is, every 2^20 rows and once at the end. */
static bool shows_progress(const struct ev_store *ev, const struct reader *rd,
			   size_t expected)
{
	return rd->progress && ev->base.hooks->progress && expected >= (4u << 20);
}

static void show_progress(const struct ev_store *ev, const struct reader *rd,
			  const struct ev_table *t, size_t row, size_t expected)
{
	if ((row & ((1u << 20) - 1)) == 0 && shows_progress(ev, rd, expected))
		ev->base.hooks->progress(ev->base.hooks->arg, t->name, row, expected, false);
}

static void end_progress(const struct ev_store *ev, const struct reader *rd,
			 const struct ev_table *t, size_t rows, size_t expected)
{
	if (shows_progress(ev, rd, expected))
		ev->base.hooks->progress(ev->base.hooks->arg, t->name, rows, expected, true);
}

/* A timing line to the hook, from whichever reader thread. */
static void say_timing(struct ev_store *ev, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void say_timing(struct ev_store *ev, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	ev_store_timing(&ev->base, line);
}

void ev_store_timing(struct nst_events *all, const char *line)
{
	struct ev_store *ev = (struct ev_store *)all;
	pthread_mutex_lock(&ev->timing_lock);
	ev->base.hooks->timing(ev->base.hooks->arg, line);
	pthread_mutex_unlock(&ev->timing_lock);
}

/* Frees the integer array of c, whichever width it has. */
static void release_cells(void *p, size_t mapped)
{
	if (mapped)
		munmap(p, mapped);
	else
		free(p);
}

static void release_ints(struct ev_col *c)
{
	release_cells(c->i ? (void *)c->i : (void *)c->i32, c->mapped);
	c->i = NULL;
	c->i32 = NULL;
	c->mapped = 0;
}

/* c as it was before its first read. */
static void forget_col(struct ev_col *c)
{
	release_ints(c);
	release_cells(c->wide, c->wide_mapped);
	free(c->s);
	c->wide = NULL;
	c->wide_mapped = 0;
	c->s = NULL;
	c->loaded = false;
	c->has_base = false;
	c->seq = false;
	c->step_known = false;
	c->pub = (struct nst_col){ 0 };
}

static void store_free(struct nst_events *base)
{
	struct ev_store *ev = (struct ev_store *)base;
	if (!ev)
		return;
	for (struct ev_table *t = ev->tables, *next; t; t = next) {
		next = t->next;
		for (size_t c = 0; c < t->ncols; c++) {
			forget_col(t->cols[c]);
			free(t->cols[c]);
		}
		free(t->cols);
		free(t);
	}
	nst_arena_release(&ev->arena);
	pthread_mutex_destroy(&ev->timing_lock);
	ev_base_release(&ev->base);
	sqlite3_close(ev->own);
	free(ev);
}

static struct ev_table *table_of(struct ev_store *ev, const char *name)
{
	for (struct ev_table *t = ev->tables; t; t = t->next)
		if (strcmp(t->name, name) == 0)
			return t;
	struct ev_table *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->name = nst_arena_strndup(&ev->arena, name, strlen(name));
	if (!t->name) {
		free(t);
		return NULL;
	}
	t->present = nst_db_has_table(ev->base.db, name);
	t->next = ev->tables;
	ev->tables = t;
	return t;
}

/* The tables whose end the schema lets be NULL (a range never closed);
 * start is NOT NULL in every table, end in every other one. */
static bool end_may_be_null(const char *table)
{
	return strcmp(table, "NVTX_EVENTS") == 0 || strcmp(table, "KHR_DEBUG_EVENTS") == 0 ||
	       strncmp(table, "MPI_", 4) == 0 || strncmp(table, "UCP_", 4) == 0;
}

static struct ev_col *col_of(struct ev_store *ev, struct ev_table *t,
			     const char *name, bool text)
{
	for (size_t c = 0; c < t->ncols; c++)
		if (strcmp(t->cols[c]->name, name) == 0)
			return t->cols[c];
	struct ev_col **cols = realloc(t->cols, (t->ncols + 1) * sizeof *cols);
	if (!cols)
		return NULL;
	t->cols = cols;
	struct ev_col *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->text = text;
	c->name = nst_arena_strndup(&ev->arena, name, strlen(name));
	if (!c->name) {
		free(c);
		return NULL;
	}
	cols[t->ncols] = c;
	c->is_time = !text && (strcmp(name, "start") == 0 || strcmp(name, "end") == 0);
	c->null_ok = c->is_time && strcmp(name, "end") == 0 && end_may_be_null(t->name);
	/* "rowid" reads SQLite's rowid where no column has that name. */
	c->present = t->present && (strcmp(name, "rowid") == 0 ||
				    nst_db_has_column(ev->base.db, t->name, name));
	t->ncols++;
	return c;
}

static enum nst_status store_want(struct nst_events *base, const char *table,
			    const char *column, bool text)
{
	struct ev_store *ev = (struct ev_store *)base;
	struct ev_table *t = table_of(ev, table);
	struct ev_col *c = t ? col_of(ev, t, column, text) : NULL;
	if (!c)
		return NST_ERR_NOMEM;
	c->wanted = true;
	if (ev->job != NST_EV_NO_JOB) {
		t->planned = true;
		t->last_user = ev->job;
	}
	return NST_OK;
}

/* A REAL read as an integer only when it is a whole number in range. */
static bool whole(double d, int64_t *out)
{
	if (!(d >= -9.2e18 && d <= 9.2e18 && d == (double)(int64_t)d))
		return false;
	*out = (int64_t)d;
	return true;
}

/* The value of an integer cell; a cell that is not an integer is an error
 * rather than a silently converted number.  (Through sqlite3_value: one
 * lookup per cell instead of two.) */
static int int_cell(sqlite3_stmt *st, int i, int64_t *out)
{
	sqlite3_value *v = sqlite3_column_value(st, i);
	switch (sqlite3_value_type(v)) {
	case SQLITE_INTEGER:
		*out = sqlite3_value_int64(v);
		return 0;
	case SQLITE_NULL:
		*out = NST_NULL_I64;
		return 0;
	case SQLITE_FLOAT:
		return whole(sqlite3_value_double(v), out) ? 0 : -1;
	default:
		return -1;
	}
}

/* Bytes of one cell of c as it is stored now. */
static size_t cell_size(const struct ev_col *c)
{
	if (c->text)
		return sizeof *c->s;
	return c->i ? sizeof *c->i : sizeof *c->i32;
}

/* cap cells of `size` bytes; a big array is mapped on its own, in huge
 * pages where the system has them (core/big.h: faulting 4 KiB pages in
 * one by one while storing costs more than reading the table).  *mapped
 * is its size then, else 0 and the array comes from malloc. */
static void *alloc_cells(size_t cap, size_t size, size_t *mapped)
{
	size_t bytes = (cap ? cap : 1) * size;
	*mapped = 0;
#ifdef MAP_ANONYMOUS
	if (bytes >= (1u << 20)) {
		void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED) {
			nst_big_hint(p, bytes);
			*mapped = bytes;
			return p;
		}
	}
#endif
	return malloc(bytes);
}

/* What readers see of c: its array at its width now. */
static void publish(struct ev_col *c)
{
	struct nst_col was = c->pub;
	c->pub = (struct nst_col){ .i64 = c->i, .i32 = c->i || c->seq ? NULL : c->i32,
				   .base = was.base, .step = was.step };
}

/* Moves c's integers to an int64 array of cap cells, keeping `used`. */
/* The first used values of c as int64, in room for cap; NULL when out
 * of memory. */
static int64_t *wide_copy(const struct ev_col *c, size_t used, size_t cap, size_t *mapped)
{
	int64_t *i = alloc_cells(cap > used ? cap : used, sizeof *i, mapped);
	for (size_t r = 0; i && r < used; r++)
		i[r] = nst_col_at(&c->pub, r);
	return i;
}

static int widen(struct ev_col *c, size_t used, size_t cap)
{
	if (c->i)
		return 0;
	size_t mapped;
	int64_t *i = wide_copy(c, used, cap, &mapped);
	if (!i)
		return -1;
	release_ints(c);
	c->i = i;
	c->mapped = mapped;
	publish(c);
	return 0;
}

/* Makes room for cap integers in c; `used` are kept. */
static int grow_ints(struct ev_col *c, size_t cap, size_t used)
{
	size_t size = cell_size(c), mapped;
	void *old = c->i ? (void *)c->i : (void *)c->i32;
	if (old && c->mapped >= cap * size)
		return 0;
	void *p = alloc_cells(cap, size, &mapped);
	if (!p)
		return -1;
	if (used && !c->seq)
		memcpy(p, old, used * size);
	bool wide = c->i != NULL;
	release_ints(c);
	if (wide)
		c->i = p;
	else
		c->i32 = p;
	c->mapped = mapped;
	publish(c);
	return 0;
}

/* Makes room for cap rows in each column; `used` rows are kept. */
static int grow(struct ev_col **load, size_t nload, size_t cap, size_t used)
{
	for (size_t k = 0; k < nload; k++) {
		struct ev_col *c = load[k];
		if (!c->text) {
			if (grow_ints(c, cap, used))
				return -1;
			continue;
		}
		const char **s = realloc(c->s, cap * sizeof *s);
		if (!s)
			return -1;
		c->s = s;
	}
	return 0;
}

/* c's rows before `row` written out as the offsets they were (0, 1, ...
 * or 0, 0, ..., or NULLs): the value at row breaks the run. */
static int end_seq(struct ev_col *c, size_t row, size_t cap)
{
	if (row > (size_t)INT32_MAX) {
		int rc = widen(c, row, cap); /* reads the rows as base + step * r: still a run */
		c->seq = false;
		return rc;
	}
	c->seq = false;
	int32_t step = (int32_t)c->pub.step;
	for (size_t r = 0; r < row; r++)
		c->i32[r] = c->has_base ? step * (int32_t)r : NST_NULL_I32;
	if (!c->has_base)
		c->pub.base = 0; /* NULLs so far: the first value sets it */
	publish(c);
	return 0;
}

/* Whether v at row continues c's run: row 0 starts it (NULL too), row 1
 * sets the step, 0 or 1 (none from a NULL). */
static inline bool in_run(struct ev_col *c, size_t row, int64_t v)
{
	if (row == 0) {
		c->pub.base = v;
		c->pub.step = 0;
		c->step_known = false;
		c->has_base = v != NST_NULL_I64;
		return true;
	}
	if (!c->step_known) {
		c->step_known = true;
		c->pub.step = v == c->pub.base ? 0 : 1;
		if (v == c->pub.base)
			return true;
	}
	if (c->pub.step == 0)
		return v == c->pub.base;
	return v != NST_NULL_I64 && c->has_base &&
	       (uint64_t)v == (uint64_t)c->pub.base + row;
}

/* Whether v is stored as v - base in 32 bits: INT32_MIN is NULL. */
static inline bool fits_32(int64_t base, int64_t v)
{
	return v >= base ? (uint64_t)v - (uint64_t)base <= INT32_MAX
			 : (uint64_t)base - (uint64_t)v < (uint64_t)1 << 31;
}

/* store_int's every case: a run's first rows and its end, a first
 * value, widening, NULL. */
static int store_int_slow(struct ev_col *c, size_t row, size_t cap, int64_t v)
{
	if (c->seq && in_run(c, row, v))
		return 0;
	if (c->seq && end_seq(c, row, cap))
		return -1;
	if (!c->i && v != NST_NULL_I64 && !c->has_base) {
		c->pub.base = v;
		c->has_base = true;
	}
	if (!c->i && v != NST_NULL_I64) {
		if (fits_32(c->pub.base, v)) {
			c->i32[row] = (int32_t)(v - c->pub.base);
			return 0;
		}
		if (widen(c, row, cap))
			return -1;
	}
	if (c->i)
		c->i[row] = v;
	else
		c->i32[row] = NST_NULL_I32;
	return 0;
}

/* Stores v (NST_NULL_I64 for NULL) at row, widening c when v is too far
 * from the column's first value for 32 bits.  Inline, for it runs once a
 * cell: the cases of nearly every cell here, the rest in store_int_slow. */
static inline int store_int(struct ev_col *c, size_t row, size_t cap, int64_t v)
{
	if (c->seq) {
		/* past row 1 in_run only compares */
		return row > 1 && c->step_known && in_run(c, row, v) ? 0
								     : store_int_slow(c, row, cap, v);
	}
	if (c->i) {
		c->i[row] = v;
		return 0;
	}
	return c->has_base && v != NST_NULL_I64 && fits_32(c->pub.base, v)
		       ? (c->i32[row] = (int32_t)(v - c->pub.base), 0)
		       : store_int_slow(c, row, cap, v);
}

/* Timestamps beyond +-2^61 ns (73 years; epoch nanoseconds stay below it
 * until 2043) are refused as they are read, so that every difference of
 * two times, a duration or a gap, fits int64 in every report with room
 * for one more (a span plus a chunk length): a number that does not fit
 * would be printed wrapped.  A NULL where the schema says NOT NULL is
 * refused too, so that no report computes with the NULL sentinel. */
static enum nst_status check_time(const struct ev_store *ev, const struct ev_table *t,
				  const struct ev_col *c, size_t row, int64_t v, bool null,
				  struct nst_error *err)
{
	const int64_t limit = (int64_t)1 << 61;
	if (null && !c->null_ok)
		return nst_fail(err, NST_ERR_DB, "%s: %s.%s, row %zu: expected an integer, found NULL",
				nst_db_path(ev->base.db), t->name, c->name, row + 1);
	if (!null && (v < -limit || v >= limit))
		return nst_fail(err, NST_ERR_DB,
				"%s: %s.%s, row %zu: %" PRId64 " ns is beyond +-2^61 ns, where"
				" durations no longer fit 64 bits",
				nst_db_path(ev->base.db), t->name, c->name, row + 1, v);
	return NST_OK;
}

/* What check_time refuses, asked of every time cell before it is stored. */
static inline bool time_fits(const struct ev_col *c, int64_t v, bool null)
{
	const int64_t limit = (int64_t)1 << 61;
	return null ? c->null_ok : v >= -limit && v < limit;
}

/* Why a cell could not be stored. */
static enum nst_status cell_error(const struct ev_store *ev, const struct ev_table *t,
				  const struct ev_col *c, size_t row, bool ok, int64_t v,
				  bool null, struct nst_error *err)
{
	if (!ok)
		return nst_fail(err, NST_ERR_DB, "%s: %s.%s, row %zu: expected an integer",
				nst_db_path(ev->base.db), t->name, c->name, row + 1);
	enum nst_status s = c->is_time ? check_time(ev, t, c, row, v, null, err) : NST_OK;
	return s ? s : nst_fail(err, NST_ERR_NOMEM, "out of memory");
}

/* Whether an integer cell, read (ok false: it was not an integer), was
 * stored; cell_error says why not.  Inline and short, for it runs once a
 * cell of every table read. */
static inline bool stored(struct ev_col *c, size_t row, size_t cap, bool ok, int64_t v,
			  bool null)
{
	return ok && (!c->is_time || time_fits(c, v, null)) && store_int(c, row, cap, v) == 0;
}

/* The text values a column met lately, by their slot (text_slot): NVTX
 * ranges repeat a few names millions of times (10M ranges: 80 MB of
 * copies), and each is copied once while it stays in its slot.  A memo,
 * not a table of every value: memory does not grow with distinct ones. */
#define TEXT_MEMO 4096
struct text_memo {
	const char *s;
	size_t len;
};

/* A value's slot from its length and its first and last 8 bytes: enough
 * to spread names, which memcmp then tells apart, at a few instructions
 * where a hash of every byte cost more than the copy it saves. */
static size_t text_slot(const char *v, size_t len)
{
	uint64_t a = 0, b = 0;
	memcpy(&a, v, len < 8 ? len : 8);
	if (len > 8)
		memcpy(&b, v + len - 8, 8);
	uint64_t h = a * 0x9E3779B97F4A7C15ull ^ b * 0xC2B2AE3D27D4EB4Full ^ len;
	h ^= h >> 29;
	h *= 0xBF58476D1CE4E5B9ull;
	return (size_t)(h >> 32) % TEXT_MEMO;
}

static const char *intern_text(struct ev_col *c, struct nst_arena *arena, const char *v,
			       size_t len)
{
	if (!c->memo && !(c->memo = calloc(TEXT_MEMO, sizeof *c->memo)))
		return nst_arena_strndup(arena, v, len);
	struct text_memo *m = &c->memo[text_slot(v, len)];
	if (m->s && m->len == len && memcmp(m->s, v, len) == 0)
		return m->s;
	const char *copy = nst_arena_strndup(arena, v, len);
	if (copy)
		*m = (struct text_memo){ copy, len };
	return copy;
}

static void forget_texts(struct ev_col **load, size_t nload)
{
	for (size_t k = 0; k < nload; k++) {
		free(load[k]->memo);
		load[k]->memo = NULL;
	}
}

/* A text cell (v NULL for NULL), in the reader's arena. */
static enum nst_status store_text_cell(struct ev_col *c, size_t row, struct nst_arena *arena,
				  const char *v, size_t len, struct nst_error *err)
{
	c->s[row] = v ? intern_text(c, arena, v, len) : NULL;
	if (v && !c->s[row])
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	return NST_OK;
}

static enum nst_status store_row(struct ev_store *ev, const struct reader *rd,
				 struct ev_table *t, sqlite3_stmt *st, struct ev_col **load,
				 size_t nload, size_t row, size_t cap, struct nst_error *err)
{
	for (size_t k = 0; k < nload; k++) {
		struct ev_col *c = load[k];
		if (!c->text) {
			int64_t v = 0;
			bool ok = int_cell(st, (int)k, &v) == 0;
			/* INT64_MIN is the NULL sentinel and a value: the cell says which */
			bool null = ok && v == NST_NULL_I64 &&
				    sqlite3_column_type(st, (int)k) == SQLITE_NULL;
			if (!stored(c, row, cap, ok, v, null))
				return cell_error(ev, t, c, row, ok, v, null, err);
			continue;
		}
		const char *v = (const char *)sqlite3_column_text(st, (int)k);
		enum nst_status s = store_text_cell(c, row, rd->arena, v,
						    v ? (size_t)sqlite3_column_bytes(st, (int)k) : 0, err);
		if (s != NST_OK)
			return s;
	}
	return NST_OK;
}

static char *select_sql(const struct ev_table *t, struct ev_col **load, size_t nload)
{
	size_t len = strlen(t->name) + 32;
	for (size_t k = 0; k < nload; k++)
		len += strlen(load[k]->name) + 4;
	char *sql = malloc(len), *p = sql;
	if (!sql)
		return NULL;
	p += sprintf(p, "SELECT ");
	for (size_t k = 0; k < nload; k++)
		p += sprintf(p, "%s\"%s\"", k ? "," : "", load[k]->name);
	if (nload == 0)
		p += sprintf(p, "1");
	sprintf(p, " FROM \"%s\"", t->name);
	return sql;
}

/* Rows to allocate for t before its scan: the rowid span, which is the
 * row count in every export nsys writes (rows are never deleted).  Sizing
 * up front avoids growing (and copying) every column while reading.
 * A span that is absurd for the file falls back to growing. */
static size_t expected_rows(const struct reader *rd, const struct ev_table *t, bool *empty)
{
	char sql[256];
	/* Two subqueries: SQLite finds a lone min() or max() of the rowid at
	 * the b-tree's ends, but scans the whole table for the pair. */
	snprintf(sql, sizeof sql, "SELECT (SELECT min(rowid) FROM \"%s\"), (SELECT max(rowid) FROM \"%s\")",
		 t->name, t->name);
	sqlite3_stmt *st;
	size_t n = 0;
	if (sqlite3_prepare_v2(rd->h, sql, -1, &st, NULL) != SQLITE_OK)
		return 0;
	int rc = sqlite3_step(st);
	/* a rowid table without rows has neither a least nor a greatest rowid
	 * (SQLite finds them at the two ends of the tree) */
	*empty = rc == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_NULL &&
		 sqlite3_column_type(st, 1) == SQLITE_NULL;
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_INTEGER) {
		int64_t lo = sqlite3_column_int64(st, 0), hi = sqlite3_column_int64(st, 1);
		if (lo >= 0 && hi >= lo && hi - lo < ((int64_t)1 << 28))
			n = (size_t)(hi - lo + 1);
	}
	sqlite3_finalize(st);
	return n;
}

/* expected_rows, asked once a table: the preload weighs its split and
 * checks the memory with it (before the reader threads start), each scan
 * sizes its columns with it. */
static size_t rows_to_expect(const struct reader *rd, struct ev_table *t)
{
	if (!t->sized) {
		t->empty = false;
		t->expected = strchr(t->name, '"') ? 0 : expected_rows(rd, t, &t->empty);
		t->sized = true;
	}
	return t->expected;
}

/* The time, and what a row of the columns just read costs: the memory
 * budget of docs/internals.md's Memory layout is measured with it. */
static void note_timing(struct ev_store *ev, const struct ev_table *t, struct ev_col **load,
			size_t ncols, const char *how, double t0)
{
	if (!ev->base.hooks->timing)
		return;
	size_t narrow = 0, none = 0, bytes = 0, used = 0;
	char names[512] = "";
	for (size_t k = 0; k < ncols; k++) {
		narrow += !load[k]->text && !load[k]->i && !load[k]->seq;
		none += load[k]->seq;
		bytes += load[k]->seq ? 0 : cell_size(load[k]);
		if (used < sizeof names)
			used += (size_t)snprintf(names + used, sizeof names - used, "%s%s",
						 k ? " " : "", load[k]->name);
	}
	say_timing(ev, "read %s %s (%zu rows, %zu columns, %zu of them 32-bit, %zu a sequence or constant: %zu"
		   " bytes a row: %s) in %.3f s", t->name, how,
		   t->nrows, ncols, narrow, none, bytes, names, nst_seconds() - t0);
}

/* Which reader still asks for a 32-bit column as int64, and what it costs. */
static void note_widening(struct ev_store *ev, const char *table, const struct ev_col *c,
			  size_t rows)
{
	if (ev->base.hooks->timing)
		say_timing(ev, "widened %s.%s to 64 bits (%zu rows)", table, c->name, rows);
}

/* The caller's Ctrl-C (nst_options.interrupted), asked every 65536 rows:
 * a table of millions of rows stops within milliseconds. */
static bool interrupted(const struct ev_store *ev)
{
	const struct nst_options *o = ev->base.hooks;
	return o->version >= 2 && o->interrupted && o->interrupted(o->arg);
}

/* Where one scan of t stands: rows read, and room for them. */
struct scan_state {
	struct ev_store *ev;
	const struct reader *rd;
	struct ev_table *t;
	struct ev_col **load;
	size_t nload, n, cap, expected;
	struct nst_error *err;
	enum nst_status s;
};

/* Room for one more row; after it, progress and the caller's Ctrl-C. */
static enum nst_status make_room(struct scan_state *sc)
{
	if (sc->n < sc->cap)
		return NST_OK;
	sc->cap = sc->cap ? sc->cap * 2 : 1024;
	if (grow(sc->load, sc->nload, sc->cap, sc->n))
		return nst_fail(sc->err, NST_ERR_NOMEM, "%s: out of memory reading %s",
				nst_db_path(sc->ev->base.db), sc->t->name);
	return NST_OK;
}

static enum nst_status row_done(struct scan_state *sc)
{
	sc->n++;
	show_progress(sc->ev, sc->rd, sc->t, sc->n, sc->expected);
	if ((sc->n & 0xFFFF) == 0 && interrupted(sc->ev))
		return nst_fail(sc->err, NST_ERR_INTERRUPTED, "%s: interrupted reading %s",
				nst_db_path(sc->ev->base.db), sc->t->name);
	return NST_OK;
}

static enum nst_status scan_sqlite(struct scan_state *sc)
{
	struct ev_store *ev = sc->ev;
	char *sql = select_sql(sc->t, sc->load, sc->nload);
	if (!sql)
		return nst_fail(sc->err, NST_ERR_NOMEM, "out of memory");
	sqlite3 *h = sc->rd->h == nst_db_handle(ev->base.db) ? scan_handle(ev) : sc->rd->h;
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(h, sql, -1, &st, NULL);
	free(sql);
	if (rc != SQLITE_OK)
		return nst_fail(sc->err, NST_ERR_DB, "%s: cannot read %s: %s",
				nst_db_path(ev->base.db), sc->t->name, sqlite3_errmsg(h));
	enum nst_status s = NST_OK;
	while (s == NST_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		s = make_room(sc);
		if (s == NST_OK)
			s = store_row(ev, sc->rd, sc->t, st, sc->load, sc->nload, sc->n, sc->cap,
				      sc->err);
		if (s == NST_OK)
			s = row_done(sc);
	}
	if (s == NST_OK && rc != SQLITE_DONE)
		s = nst_fail(sc->err, NST_ERR_DB, "%s: cannot read %s: %s",
			     nst_db_path(ev->base.db), sc->t->name, sqlite3_errmsg(h));
	sqlite3_finalize(st);
	return s;
}

/* A page cell as int_cell reads an SQLite one: a REAL only when whole. */
static bool page_int(const struct nst_page_cell *c, int64_t *v)
{
	*v = c->kind == NST_CELL_INT ? c->i : NST_NULL_I64;
	if (c->kind != NST_CELL_REAL)
		return c->kind == NST_CELL_INT || c->kind == NST_CELL_NULL;
	return whole(c->r, v);
}

/* A text cell is TEXT or NULL; SQLite would show a number or a BLOB in
 * a text column as text, which is left to it (-1). */
static int page_text(struct scan_state *sc, struct ev_col *c, const struct nst_page_cell *cell)
{
	if (cell->kind != NST_CELL_TEXT && cell->kind != NST_CELL_NULL)
		return -1;
	sc->s = store_text_cell(c, sc->n, sc->rd->arena,
				cell->kind == NST_CELL_TEXT ? cell->s : NULL, cell->n, sc->err);
	return 0;
}

static int page_row(void *arg, const struct nst_page_cell *cells)
{
	struct scan_state *sc = arg;
	sc->s = make_room(sc);
	for (size_t k = 0; sc->s == NST_OK && k < sc->nload; k++) {
		struct ev_col *c = sc->load[k];
		int64_t v;
		if (c->text) {
			if (page_text(sc, c, &cells[k]))
				return NST_PAGES_UNSUPPORTED;
			continue;
		}
		bool ok = page_int(&cells[k], &v), null = cells[k].kind == NST_CELL_NULL;
		if (!stored(c, sc->n, sc->cap, ok, v, null))
			sc->s = cell_error(sc->ev, sc->t, c, sc->n, ok, v, null, sc->err);
	}
	if (sc->s == NST_OK)
		sc->s = row_done(sc);
	return sc->s != NST_OK;
}

/* The table from its pages when the file allows; false when it must be
 * read through SQLite (from its first row: what the pages gave is
 * overwritten). */
static bool scan_pages(struct scan_state *sc)
{
	const struct nst_options *o = sc->ev->base.hooks;
	if (o->version >= 4 && o->sqlite_reader)
		return false;
	const char **cols = malloc((sc->nload ? sc->nload : 1) * sizeof *cols);
	for (size_t k = 0; cols && k < sc->nload; k++)
		cols[k] = sc->load[k]->name;
	int rc = cols ? nst_db_scan_pages(sc->ev->base.db, sc->t->name, cols,
					  sc->nload, page_row, sc)
		      : NST_PAGES_UNSUPPORTED;
	free(cols);
	if (rc == NST_PAGES_UNSUPPORTED) {
		sc->n = 0;
		sc->s = NST_OK;
		return false;
	}
	return true;
}

/* One scan of t reading the columns in load[]. */
static enum nst_status scan(struct ev_store *ev, const struct reader *rd,
			    struct ev_table *t, struct ev_col **load, size_t nload,
			    struct nst_error *err)
{
	double t0 = nst_seconds();
	size_t expected = rows_to_expect(rd, t);
	struct scan_state sc = {
		.ev = ev, .rd = rd, .t = t, .load = load, .nload = nload,
		.cap = expected, .expected = expected, .err = err,
	};
	/* A scan that failed before (a bad cell) left its columns as far as
	 * it got, perhaps widened: every one starts over. */
	for (size_t k = 0; k < nload; k++) {
		forget_col(load[k]);
		if (!load[k]->text) {
			load[k]->seq = true;
			publish(load[k]);
		}
	}
	if (sc.cap && grow(load, nload, sc.cap, 0))
		sc.cap = 0;
	/* An empty table (most of an export's 200 are) costs its page reader
	 * two statements on the schema and SQLite a prepared scan: neither is
	 * needed to read no row. */
	bool paged = !t->empty && scan_pages(&sc);
	enum nst_status s = t->empty ? NST_OK : paged ? sc.s : scan_sqlite(&sc);
	forget_texts(load, nload);
	size_t n = sc.n, cap = sc.cap;
	end_progress(ev, rd, t, n, expected);
	/* An empty column is still a column: never leave it NULL. */
	if (s == NST_OK && cap == 0 && grow(load, nload, 1, 0))
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (s != NST_OK)
		return s;
	if (t->loaded && n != t->nrows)
		return nst_fail(err, NST_ERR_DB, "%s: %s changed while it was read",
				nst_db_path(ev->base.db), t->name);
	t->nrows = n;
	for (size_t k = 0; k < nload; k++)
		load[k]->loaded = true;
	note_timing(ev, t, load, nload,
		    t->empty ? "(empty)" : paged ? "from its pages" : "through SQLite", t0);
	return NST_OK;
}

/* Loads every wanted column of t not loaded yet, plus `extra`. */
static enum nst_status load_with(struct ev_store *ev, const struct reader *rd,
				 struct ev_table *t, struct ev_col *extra,
				 struct nst_error *err)
{
	struct ev_col **todo = malloc((t->ncols + 1) * sizeof *todo);
	if (!todo)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	size_t n = 0;
	for (size_t c = 0; c < t->ncols; c++) {
		struct ev_col *col = t->cols[c];
		if (!col->loaded && col->present && (col->wanted || col == extra))
			todo[n++] = col;
	}
	enum nst_status s = NST_OK;
	if (n > 0 || !t->loaded)
		s = scan(ev, rd, t, todo, n, err);
	t->loaded = s == NST_OK;
	free(todo);
	return s;
}

static enum nst_status load(struct ev_store *ev, struct ev_table *t,
			    struct ev_col *extra, struct nst_error *err)
{
	struct reader rd = { nst_db_handle(ev->base.db), &ev->arena, true };
	return load_with(ev, &rd, t, extra, err);
}

/* ---- reading every wanted table up front, two at a time ------------------ */

struct batch {
	struct ev_store *ev;
	struct reader rd;
	struct ev_table **tables;
	size_t n;
	struct nst_error err;
	enum nst_status status;
};

static bool needs_read(const struct ev_table *t)
{
	if (!t->present)
		return false;
	for (size_t c = 0; c < t->ncols; c++)
		if (t->cols[c]->wanted && t->cols[c]->present && !t->cols[c]->loaded)
			return true;
	return !t->loaded && t->ncols > 0;
}

static void *read_batch(void *arg)
{
	struct batch *b = arg;
	b->status = NST_OK;
	for (size_t i = 0; i < b->n && b->status == NST_OK; i++)
		b->status = load_with(b->ev, &b->rd, b->tables[i], NULL, &b->err);
	return NULL;
}

/* What reading t takes, roughly: its cells. */
static uint64_t weight_of(struct ev_store *ev, struct ev_table *t)
{
	struct reader rd = { nst_db_handle(ev->base.db), NULL, false };
	return (uint64_t)rows_to_expect(&rd, t) * t->ncols + 1;
}

/* A second reader costs a connection (its schema parsed) and a thread,
 * about half a millisecond: it pays from about this many cells. */
#define SECOND_READER_CELLS (1u << 18)

static bool worth_two(struct ev_store *ev, struct ev_table **all, size_t n)
{
	uint64_t cells = 0;
	for (size_t i = 0; i < n; i++)
		cells += weight_of(ev, all[i]);
	return cells >= SECOND_READER_CELLS;
}

/* The bigger tables first, each to the thread with less to read. */
static void split(struct ev_store *ev, struct ev_table **all, size_t n,
		  struct batch *a, struct batch *b)
{
	uint64_t weight[2] = { 0, 0 };
	uint64_t *w = malloc((n ? n : 1) * sizeof *w);
	for (size_t i = 0; w && i < n; i++)
		w[i] = weight_of(ev, all[i]);
	for (size_t done = 0; done < n; done++) {
		size_t best = done;
		for (size_t i = done; w && i < n; i++)
			best = w[i] > w[best] ? i : best;
		struct ev_table *t = all[best];
		uint64_t tw = w ? w[best] : 1;
		all[best] = all[done];
		all[done] = t;
		if (w) {
			w[best] = w[done];
			w[done] = tw;
		}
		int to = weight[1] < weight[0];
		weight[to] += tw;
		struct batch *bt = to ? b : a;
		bt->tables[bt->n++] = t;
	}
	free(w);
}

static const char *show_bytes(double v, char *buf, size_t size)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB" };
	size_t u = 0;
	for (v /= 1024; v >= 1024 && u < 3; u++)
		v /= 1024;
	snprintf(buf, size, "%.1f %s", v, unit[u]);
	return buf;
}

/* What the process may take: the caller's limit, else this machine's
 * memory or the address-space limit (ulimit -v) when lower; 0 unknown. */
static double memory_limit(const struct nst_options *o)
{
	if (o->version >= 4 && o->memory_limit)
		return (double)o->memory_limit;
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	double have = pages > 0 && size > 0 ? (double)pages * (double)size : 0;
	struct rlimit rl;
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (have <= 0 || (double)rl.rlim_cur < have))
		have = (double)rl.rlim_cur;
	return have;
}

/* The least the columns about to be read take (integers at 32 bits but
 * times, a pointer a text), against the limit: a capture too big for the
 * machine is refused in one line before its first row, not killed by the
 * system after minutes of reading. */
static enum nst_status fits_memory(struct ev_store *ev, struct ev_table **all, size_t n,
				   struct nst_error *err)
{
	struct reader rd = { nst_db_handle(ev->base.db), NULL, false };
	double need = 0, limit = memory_limit(ev->base.hooks);
	uint64_t rows = 0;
	for (size_t i = 0; limit > 0 && i < n; i++) {
		size_t r = rows_to_expect(&rd, all[i]), bytes = 0;
		for (size_t c = 0; c < all[i]->ncols; c++) {
			const struct ev_col *col = all[i]->cols[c];
			if (col->wanted && col->present && !col->loaded)
				bytes += col->text || col->is_time ? 8 : 4;
		}
		rows += r;
		need += (double)r * (double)bytes;
	}
	if (limit <= 0 || need <= limit)
		return NST_OK;
	char a[32], b[32];
	return nst_fail(err, NST_ERR_NOMEM, "%s: its tables take at least %s of memory to read "
			"(%" PRIu64 " rows), more than the %s there are", nst_db_path(ev->base.db),
			show_bytes(need, a, sizeof a), rows, show_bytes(limit, b, sizeof b));
}

static enum nst_status store_preload(struct nst_events *base, struct nst_error *err)
{
	struct ev_store *ev = (struct ev_store *)base;
	size_t n = 0;
	for (struct ev_table *t = ev->tables; t; t = t->next)
		n += needs_read(t);
	struct ev_table **all = malloc((n ? n : 1) * sizeof *all);
	struct ev_table **lists = malloc((n ? n : 1) * 2 * sizeof *lists);
	sqlite3 *second = NULL;
	struct nst_arena worker_arena = { 0 };
	struct batch a = { .ev = ev, .rd = { nst_db_handle(ev->base.db), &ev->arena, true } };
	struct batch b = { .ev = ev, .rd = { second, &worker_arena, false } };
	enum nst_status s = NST_OK;
	if (!all || !lists) {
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
		goto out;
	}
	n = 0;
	for (struct ev_table *t = ev->tables; t; t = t->next)
		if (needs_read(t))
			all[n++] = t;
	if ((s = fits_memory(ev, all, n, err)) != NST_OK)
		goto out;
	/* One thread asked for, or one table: the lazy path reads each table
	 * when it is asked for. */
	if (n < 2 || ev->base.hooks->read_threads == 1)
		goto out;
	if (worth_two(ev, all, n))
		second = nst_db_connect(ev->base.db);
	a.tables = lists;
	b.tables = lists + n;
	split(ev, all, n, &a, &b);
	/* Too little to read for a second thread: the two batches one after
	 * the other, so that the first table found broken is the same. */
	pthread_t worker;
	b.rd.h = second ? second : nst_db_handle(ev->base.db);
	bool together = second && pthread_create(&worker, NULL, read_batch, &b) == 0;
	read_batch(&a);
	if (together)
		pthread_join(worker, NULL);
	else if (a.status == NST_OK)
		read_batch(&b);
	nst_arena_adopt(&ev->arena, &worker_arena);
	if (a.status != NST_OK)
		s = (*err = a.err, a.status);
	else if (b.status != NST_OK)
		s = (*err = b.err, b.status);
out:
	nst_arena_release(&worker_arena);
	if (second)
		sqlite3_close(second);
	free(all);
	free(lists);
	return s;
}

static enum nst_status store_rows(struct nst_events *base, const char *table,
			    size_t *n, struct nst_error *err)
{
	struct ev_store *ev = (struct ev_store *)base;
	*n = 0;
	struct ev_table *t = table_of(ev, table);
	if (!t)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (!t->present)
		return NST_OK;
	if (!t->loaded) {
		enum nst_status s = load(ev, t, NULL, err);
		if (s != NST_OK)
			return s;
	}
	*n = t->nrows;
	return NST_OK;
}

static enum nst_status get_col(struct ev_store *ev, const char *table,
			       const char *column, bool text,
			       struct ev_col **out, struct nst_error *err)
{
	*out = NULL;
	struct ev_table *t = table_of(ev, table);
	struct ev_col *c = t ? col_of(ev, t, column, text) : NULL;
	if (!c)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (!c->present)
		return NST_OK;
	if (c->text != text)
		return nst_fail(err, NST_ERR_INTERNAL, "%s.%s read both as text and integer",
				table, column);
	if (!c->loaded) {
		enum nst_status s = load(ev, t, c, err);
		if (s != NST_OK)
			return s;
	}
	*out = c;
	return NST_OK;
}

static enum nst_status store_i64(struct nst_events *base, const char *table,
			   const char *column, const int64_t **out,
			   struct nst_error *err)
{
	struct ev_store *ev = (struct ev_store *)base;
	struct ev_col *c;
	enum nst_status s = get_col(ev, table, column, false, &c, err);
	if (s == NST_OK && c && !c->i && !c->wide) {
		size_t rows = table_of(ev, table)->nrows;
		note_widening(ev, table, c, rows);
		if (!(c->wide = wide_copy(c, rows, rows, &c->wide_mapped)))
			s = nst_fail(err, NST_ERR_NOMEM, "out of memory widening %s.%s",
				     table, column);
	}
	*out = c ? (c->i ? c->i : c->wide) : NULL;
	return s;
}

static enum nst_status store_col(struct nst_events *base, const char *table,
			   const char *column, const struct nst_col **out,
			   struct nst_error *err)
{
	struct ev_store *ev = (struct ev_store *)base;
	struct ev_col *c;
	enum nst_status s = get_col(ev, table, column, false, &c, err);
	*out = c ? &c->pub : NULL;
	return s;
}

static enum nst_status store_text(struct nst_events *base, const char *table,
			    const char *column, const char *const **out,
			    struct nst_error *err)
{
	struct ev_store *ev = (struct ev_store *)base;
	struct ev_col *c;
	enum nst_status s = get_col(ev, table, column, true, &c, err);
	*out = c ? c->s : NULL;
	return s;
}

static void store_plan(struct nst_events *base, size_t j)
{
	((struct ev_store *)base)->job = j;
}

/* Bytes of c's cells as loaded (text: the pointers; the strings stay in
 * the store's arena). */
static size_t col_bytes(const struct ev_col *c, size_t rows)
{
	size_t cell = c->text ? sizeof *c->s : c->i ? sizeof *c->i : c->seq ? 0 : sizeof *c->i32;
	return rows * (cell + (c->wide ? sizeof *c->wide : 0));
}

/* Frees t's columns: as they were before the first read. */
static size_t drop_table(struct ev_table *t)
{
	size_t freed = 0;
	for (size_t k = 0; k < t->ncols; k++) {
		struct ev_col *c = t->cols[k];
		if (!c->loaded)
			continue;
		freed += col_bytes(c, t->nrows);
		forget_col(c);
	}
	t->loaded = false;
	t->nrows = 0;
	return freed;
}

static size_t store_drop_after(struct nst_events *base, size_t j)
{
	struct ev_store *ev = (struct ev_store *)base;
	size_t freed = 0;
	for (struct ev_table *t = ev->tables; t; t = t->next)
		if (t->loaded && t->planned && t->last_user <= j)
			freed += drop_table(t);
	return freed;
}

static const struct ev_ops store_ops = {
	.want = store_want, .preload = store_preload, .rows = store_rows, .i64 = store_i64,
	.col = store_col, .text = store_text, .free = store_free,
	.plan = store_plan, .drop_after = store_drop_after,
};
