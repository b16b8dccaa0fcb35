/* The store: columns read from the export, each table in one scan, or a
 * big one in parts (docs/internals.md, A big table in parts), on as many
 * reader threads as there are processors.  mmap(MAP_POPULATE) is Linux's;
 * elsewhere columns come from malloc. */
#define _DEFAULT_SOURCE

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#include <time.h>

#include "core/arena.h"
#include "core/big.h"
#include "core/clock.h"
#include "core/cpus.h"
#include "events/events_int.h"

/* An integer column is read into 32-bit offsets from its first value
 * (i32) until a value does not fit; it is then widened to int64 (i) for
 * good.  Readers see it through pub, which nst_ev_col() hands out and
 * which follows a widening; nst_ev_i64() widens it first. */
struct ev_col {
	const char *name;
	const char *cell; /* the export's column it reads: name but for a flag */
	bool text, wanted, loaded, present;
	bool has_base; /* base is set: a value that is not NULL was read */
	/* Every value so far was base + step * row (rowids, one device, a
	 * NULL everywhere): none is stored, and the array, mapped but never
	 * written, costs no memory.  The step, 1 or 0, is row 1's. */
	bool seq, step_known;
	bool is_time;  /* start or end: checked as a timestamp when read */
	bool null_ok;  /* an end that the schema lets be NULL (open ranges) */
	/* NST_EV_DURATION: each row's end less its start, read from the two
	 * cells (each checked as a time) and stored as one value */
	bool span;
	/* NST_EV_FLAG: 1 where cell holds flag_of, else 0 */
	bool flag;
	int64_t flag_of;
	int64_t *i;
	int32_t *i32;
	const char **s;
	struct text_memo *memo; /* while a text column is read (intern_text) */
	/* A part's column of a table read in parts (read_part): where widen
	 * puts its int64 cells, in the table's array. */
	int64_t *wide_room;
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
	int64_t first_rowid;  /* sized and expected: its least rowid */
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
	if (!(c->name = nst_arena_strndup(&ev->arena, name, strlen(name)))) {
		free(c);
		return NULL;
	}
	c->cell = c->name;
	c->span = !text && strcmp(name, NST_EV_DURATION) == 0;
	const char *eq = text || c->span ? NULL : strchr(name, '=');
	if (eq) {
		c->flag = true;
		c->flag_of = strtoll(eq + 1, NULL, 10);
		if (!(c->cell = nst_arena_strndup(&ev->arena, name, (size_t)(eq - name)))) {
			free(c);
			return NULL;
		}
	}
	cols[t->ncols] = c;
	c->is_time = !text && (strcmp(name, "start") == 0 || strcmp(name, "end") == 0);
	c->null_ok = (c->span || (c->is_time && strcmp(name, "end") == 0)) &&
		     end_may_be_null(t->name);
	/* "rowid" reads SQLite's rowid where no column has that name. */
	c->present = t->present &&
		     (c->span ? nst_db_has_column(ev->base.db, t->name, "start") &&
					nst_db_has_column(ev->base.db, t->name, "end")
			      : strcmp(c->cell, "rowid") == 0 ||
					nst_db_has_column(ev->base.db, t->name, c->cell));
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

/* Whether t's column `name` is or will be in memory: declared or read. */
static bool at_hand(const struct ev_table *t, const char *name)
{
	for (size_t c = 0; c < t->ncols; c++)
		if (strcmp(t->cols[c]->name, name) == 0)
			return t->cols[c]->present && (t->cols[c]->wanted || t->cols[c]->loaded);
	return false;
}

/* Whether t's durations come from its start and end (store_durations):
 * no column of their own then. */
static bool span_from_times(const struct ev_table *t)
{
	return at_hand(t, "start") && at_hand(t, "end");
}

/* Whether the next scan of t reads c. */
static bool to_read(const struct ev_table *t, const struct ev_col *c)
{
	return c->wanted && c->present && !c->loaded && !(c->span && span_from_times(t));
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

/* The first used values of c as int64, into i. */
static void fill_wide(const struct ev_col *c, size_t used, int64_t *i)
{
	for (size_t r = 0; r < used; r++)
		i[r] = nst_col_at(&c->pub, r);
}

/* The first used values of c as int64, in room for cap; NULL when out
 * of memory. */
static int64_t *wide_copy(const struct ev_col *c, size_t used, size_t cap, size_t *mapped)
{
	int64_t *i = alloc_cells(cap > used ? cap : used, sizeof *i, mapped);
	if (i)
		fill_wide(c, used, i);
	return i;
}

static int widen(struct ev_col *c, size_t used, size_t cap)
{
	if (c->i)
		return 0;
	if (c->wide_room) { /* its 32-bit cells are the table's too: kept */
		fill_wide(c, used, c->wide_room);
		c->i = c->wide_room;
		publish(c);
		return 0;
	}
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
				nst_db_path(ev->base.db), t->name, c->cell, row + 1);
	if (!null && (v < -limit || v >= limit))
		return nst_fail(err, NST_ERR_DB,
				"%s: %s.%s, row %zu: %" PRId64 " ns is beyond +-2^61 ns, where"
				" durations no longer fit 64 bits",
				nst_db_path(ev->base.db), t->name, c->cell, row + 1, v);
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
				nst_db_path(ev->base.db), t->name, c->cell, row + 1);
	enum nst_status s = c->is_time ? check_time(ev, t, c, row, v, null, err) : NST_OK;
	return s ? s : nst_fail(err, NST_ERR_NOMEM, "out of memory");
}

/* Whether an integer cell, read (ok false: it was not an integer), was
 * stored; cell_error says why not.  Inline and short, for it runs once a
 * cell of every table read. */
static inline bool stored(struct ev_col *c, size_t row, size_t cap, bool ok, int64_t v,
			  bool null)
{
	if (c->flag)
		v = !null && v == c->flag_of;
	return ok && (!c->is_time || time_fits(c, v, null)) && store_int(c, row, cap, v) == 0;
}

/* A row's start and end cells, as a span column reads them (ok false:
 * not an integer). */
struct time_pair {
	int64_t v[2];
	bool ok[2], null[2];
};

/* Whether a span's cell, the pair's end less its start, was stored;
 * span_error says why not.  Each is checked as its own column would be,
 * so the duration of two times in range fits int64. */
static inline bool stored_span(struct ev_col *c, size_t row, size_t cap,
			       const struct time_pair *p)
{
	static const struct ev_col start = { .name = "start", .is_time = true };
	struct ev_col end = { .name = "end", .is_time = true, .null_ok = c->null_ok };
	if (!p->ok[0] || !p->ok[1] || !time_fits(&start, p->v[0], p->null[0]) ||
	    !time_fits(&end, p->v[1], p->null[1]))
		return false;
	return store_int(c, row, cap, p->null[1] ? NST_NULL_I64 : p->v[1] - p->v[0]) == 0;
}

static enum nst_status span_error(const struct ev_store *ev, const struct ev_table *t,
				  const struct ev_col *c, size_t row, const struct time_pair *p,
				  struct nst_error *err)
{
	for (int i = 0; i < 2; i++) {
		struct ev_col part = { .name = i ? "end" : "start", .cell = i ? "end" : "start",
				       .is_time = true, .null_ok = i && c->null_ok };
		if (!p->ok[i] || !time_fits(&part, p->v[i], p->null[i]))
			return cell_error(ev, t, &part, row, p->ok[i], p->v[i], p->null[i], err);
	}
	return nst_fail(err, NST_ERR_NOMEM, "out of memory");
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

/* Result column i of st as an integer (ok false: it is not one). */
static void sql_int(sqlite3_stmt *st, int i, int64_t *v, bool *ok, bool *null)
{
	*ok = int_cell(st, i, v) == 0;
	/* INT64_MIN is the NULL sentinel and a value: the cell says which */
	*null = *ok && *v == NST_NULL_I64 && sqlite3_column_type(st, i) == SQLITE_NULL;
}

static enum nst_status store_row(struct ev_store *ev, const struct reader *rd,
				 struct ev_table *t, sqlite3_stmt *st, struct ev_col **load,
				 size_t nload, size_t row, size_t cap, struct nst_error *err)
{
	int i = 0; /* the result column: a span reads two */
	for (size_t k = 0; k < nload; k++) {
		struct ev_col *c = load[k];
		if (c->span) {
			struct time_pair p;
			sql_int(st, i, &p.v[0], &p.ok[0], &p.null[0]);
			sql_int(st, i + 1, &p.v[1], &p.ok[1], &p.null[1]);
			i += 2;
			if (!stored_span(c, row, cap, &p))
				return span_error(ev, t, c, row, &p, err);
		} else if (!c->text) {
			int64_t v;
			bool ok, null;
			sql_int(st, i++, &v, &ok, &null);
			if (!stored(c, row, cap, ok, v, null))
				return cell_error(ev, t, c, row, ok, v, null, err);
		} else {
			const char *v = (const char *)sqlite3_column_text(st, i);
			size_t len = v ? (size_t)sqlite3_column_bytes(st, i) : 0;
			i++;
			enum nst_status s = store_text_cell(c, row, rd->arena, v, len, err);
			if (s != NST_OK)
				return s;
		}
	}
	return NST_OK;
}

/* The cells a scan of load[] reads, into names (room for 2 * nload): a
 * column's own, or a span's start and end; how many. */
static size_t cell_names(struct ev_col **load, size_t nload, const char **names)
{
	size_t n = 0;
	for (size_t k = 0; k < nload; k++) {
		if (load[k]->span) {
			names[n++] = "start";
			names[n++] = "end";
		} else {
			names[n++] = load[k]->cell;
		}
	}
	return n;
}

static char *select_sql(const struct ev_table *t, struct ev_col **load, size_t nload)
{
	const char **names = malloc((2 * nload + 1) * sizeof *names);
	if (!names)
		return NULL;
	size_t n = cell_names(load, nload, names);
	size_t len = strlen(t->name) + 32;
	for (size_t k = 0; k < n; k++)
		len += strlen(names[k]) + 4;
	char *sql = malloc(len), *p = sql;
	if (sql) {
		p += sprintf(p, "SELECT ");
		for (size_t k = 0; k < n; k++)
			p += sprintf(p, "%s\"%s\"", k ? "," : "", names[k]);
		if (n == 0)
			p += sprintf(p, "1");
		sprintf(p, " FROM \"%s\"", t->name);
	}
	free(names);
	return sql;
}

/* Rows to allocate for t before its scan: the rowid span, which is the
 * row count in every export nsys writes (rows are never deleted).  Sizing
 * up front avoids growing (and copying) every column while reading.
 * A span that is absurd for the file falls back to growing. */
static size_t expected_rows(const struct reader *rd, struct ev_table *t, bool *empty)
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
		if (lo >= 0 && hi >= lo && hi - lo < ((int64_t)1 << 28)) {
			n = (size_t)(hi - lo + 1);
			t->first_rowid = lo;
		}
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
		   " bytes a row: %s) in %.6f s", t->name, how,
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

/* A table of this many rows is cut into parts of at least PART_ROWS. */
#define SPLIT_ROWS (1u << 20)
#define PART_ROWS (1u << 19)

/* A column of a table read in parts: the arrays each part writes its own
 * rows of, at both widths until the merge knows which the column needs
 * (a part's rows are placed by their rowids: part k's first row goes
 * where its least possible rowid would). */
struct room {
	int32_t *i32;
	int64_t *i64;
	const char **s;
	size_t m32, m64;
};

struct part {
	size_t row0, slot, n;  /* its rows go to row0 .. row0 + slot; n were read */
	struct ev_col *cols;   /* its own columns over the rooms */
	enum nst_status s;
	bool paged;            /* read from its pages to the end */
	struct nst_error err;
};

struct split {
	struct ev_table *t;
	struct ev_col **load; /* the table's columns being read */
	size_t nload;
	struct room *rooms;
	struct nst_page_plan plan;
	struct part *parts;
	size_t left;          /* parts not read yet (the pool's lock): the last merges */
	size_t task;          /* the pool's task of its first part */
	_Atomic size_t read;  /* rows read by every part, for progress */
	double t0;
};

/* Where one scan of t stands: rows read, and room for them. */
struct scan_state {
	struct ev_store *ev;
	const struct reader *rd;
	struct ev_table *t;
	struct ev_col **load;
	size_t nload, n, cap, expected;
	struct nst_error *err;
	enum nst_status s;
	struct split *split; /* part `part` of a table read in parts, else NULL */
	size_t part, shown;  /* rows of the table read when progress last showed */
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

/* The table's rows read so far, shown by the thread that may show them. */
static void part_progress(struct scan_state *sc)
{
	size_t all = atomic_fetch_add(&sc->split->read, 0x10000) + 0x10000;
	if (all >> 20 != sc->shown >> 20 && shows_progress(sc->ev, sc->rd, sc->expected)) {
		sc->shown = all;
		sc->ev->base.hooks->progress(sc->ev->base.hooks->arg, sc->t->name, all, sc->expected,
					     false);
	}
}

static enum nst_status row_done(struct scan_state *sc)
{
	sc->n++;
	if (!sc->split)
		show_progress(sc->ev, sc->rd, sc->t, sc->n, sc->expected);
	else if ((sc->n & 0xFFFF) == 0)
		part_progress(sc);
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
	/* a part's room is the rowids it may hold: never more rows */
	if (sc->split && sc->n >= sc->cap)
		return NST_PAGES_UNSUPPORTED;
	sc->s = make_room(sc);
	const struct nst_page_cell *cell = cells; /* a span reads two */
	for (size_t k = 0; sc->s == NST_OK && k < sc->nload; k++) {
		struct ev_col *c = sc->load[k];
		if (c->span) {
			struct time_pair p;
			for (int i = 0; i < 2; i++, cell++) {
				p.ok[i] = page_int(cell, &p.v[i]);
				p.null[i] = cell->kind == NST_CELL_NULL;
			}
			if (!stored_span(c, sc->n, sc->cap, &p))
				sc->s = span_error(sc->ev, sc->t, c, sc->n, &p, sc->err);
			continue;
		}
		if (c->text) {
			if (page_text(sc, c, cell++))
				return NST_PAGES_UNSUPPORTED;
			continue;
		}
		int64_t v;
		bool ok = page_int(cell, &v), null = cell->kind == NST_CELL_NULL;
		cell++;
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
	const char **cols = malloc((2 * sc->nload + 1) * sizeof *cols);
	size_t ncols = cols ? cell_names(sc->load, sc->nload, cols) : 0;
	struct nst_db *db = sc->ev->base.db;
	int rc = !cols ? NST_PAGES_UNSUPPORTED
		 : sc->split ? nst_db_scan_part(db, sc->t->name, cols, ncols,
						&sc->split->plan, sc->part, page_row, sc)
			     : nst_db_scan_pages(db, sc->t->name, cols, ncols, page_row, sc);
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
		if (to_read(t, col) || (col == extra && !col->loaded && col->present))
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

/* ---- a big table read in parts, on several threads ------------------------------ */

static void release_rooms(struct split *sp)
{
	for (size_t k = 0; sp->rooms && k < sp->nload; k++) {
		struct room *r = &sp->rooms[k];
		if (r->i32)
			release_cells(r->i32, r->m32);
		if (r->i64)
			release_cells(r->i64, r->m64);
		free(r->s);
		*r = (struct room){ 0 };
	}
}

static void split_free(struct split *sp)
{
	if (!sp)
		return;
	release_rooms(sp);
	for (size_t p = 0; sp->parts && p < sp->plan.nparts; p++)
		free(sp->parts[p].cols);
	nst_page_plan_free(&sp->plan);
	free(sp->parts);
	free(sp->rooms);
	free(sp->load);
	free(sp);
}

/* Where part p's rows go: the rowids it may hold, (lo, hi] of the plan
 * within the table's, from row first_rowid on.  The bounds become the
 * table's, so that the reader refuses a row outside them. */
static void place_part(struct split *sp, size_t p)
{
	struct nst_page_part *b = &sp->plan.parts[p];
	int64_t first = sp->t->first_rowid, last = first + (int64_t)sp->t->expected - 1;
	int64_t lo = b->has_lo && b->lo > first - 1 ? b->lo : first - 1;
	int64_t hi = b->has_hi && b->hi < last ? b->hi : last;
	*b = (struct nst_page_part){ .first = b->first, .n = b->n, .lo = lo, .hi = hi,
				     .has_lo = true, .has_hi = true };
	size_t row0 = (size_t)(lo + 1 - first);
	sp->parts[p].row0 = row0 < sp->t->expected ? row0 : sp->t->expected;
	sp->parts[p].slot = hi > lo ? (size_t)(hi - lo) : 0;
}

/* The rooms, and each part's columns over them. */
static bool make_rooms(struct split *sp)
{
	size_t rows = sp->t->expected, nparts = sp->plan.nparts;
	if (!(sp->rooms = calloc(sp->nload, sizeof *sp->rooms)) ||
	    !(sp->parts = calloc(nparts, sizeof *sp->parts)))
		return false;
	for (size_t k = 0; k < sp->nload; k++) {
		struct room *r = &sp->rooms[k];
		bool ok = sp->load[k]->text
				  ? (r->s = malloc(rows * sizeof *r->s)) != NULL
				  : (r->i32 = alloc_cells(rows, sizeof *r->i32, &r->m32)) &&
					    (r->i64 = alloc_cells(rows, sizeof *r->i64, &r->m64));
		if (!ok)
			return false;
	}
	for (size_t p = 0; p < nparts; p++) {
		struct part *pt = &sp->parts[p];
		place_part(sp, p);
		if (!(pt->cols = calloc(sp->nload, sizeof *pt->cols)))
			return false;
		for (size_t k = 0; k < sp->nload; k++) {
			const struct ev_col *c = sp->load[k];
			struct room *r = &sp->rooms[k];
			pt->cols[k] = (struct ev_col){
				.name = c->name, .cell = c->cell, .text = c->text,
				.is_time = c->is_time, .null_ok = c->null_ok, .span = c->span,
				.flag = c->flag, .flag_of = c->flag_of, .seq = !c->text,
				.i32 = r->i32 ? r->i32 + pt->row0 : NULL,
				.wide_room = r->i64 ? r->i64 + pt->row0 : NULL,
				.s = r->s ? r->s + pt->row0 : NULL,
			};
		}
	}
	return true;
}

/* t in `parts` parts when it is big enough and its pages allow, its
 * columns to read emptied; NULL to read it whole. */
static struct split *plan_split(struct ev_store *ev, struct ev_table *t, size_t parts)
{
	const struct nst_options *o = ev->base.hooks;
	struct reader rd = { nst_db_handle(ev->base.db), NULL, false };
	size_t rows = rows_to_expect(&rd, t);
	if (rows / PART_ROWS < parts)
		parts = rows / PART_ROWS;
	if (parts < 2 || rows < SPLIT_ROWS || (o->version >= 4 && o->sqlite_reader))
		return NULL;
	struct split *sp = calloc(1, sizeof *sp);
	if (!sp || !(sp->load = malloc(t->ncols * sizeof *sp->load))) {
		free(sp);
		return NULL;
	}
	sp->t = t;
	for (size_t c = 0; c < t->ncols; c++) {
		if (to_read(t, t->cols[c]))
			sp->load[sp->nload++] = t->cols[c];
	}
	if (sp->nload == 0 || nst_db_plan_pages(ev->base.db, t->name, parts, &sp->plan) ||
	    sp->plan.nparts < 2 || !make_rooms(sp)) {
		split_free(sp);
		return NULL;
	}
	for (size_t k = 0; k < sp->nload; k++)
		forget_col(sp->load[k]);
	sp->left = sp->plan.nparts;
	return sp;
}

static void read_part(struct ev_store *ev, const struct reader *rd, struct split *sp, size_t p)
{
	struct part *pt = &sp->parts[p];
	struct ev_col **load = malloc(sp->nload * sizeof *load);
	if (!load) {
		pt->s = nst_fail(&pt->err, NST_ERR_NOMEM, "out of memory");
		return;
	}
	for (size_t k = 0; k < sp->nload; k++)
		load[k] = &pt->cols[k];
	struct scan_state sc = {
		.ev = ev, .rd = rd, .t = sp->t, .load = load, .nload = sp->nload,
		.cap = pt->slot, .expected = sp->t->expected, .err = &pt->err,
		.split = sp, .part = p,
	};
	pt->paged = scan_pages(&sc);
	pt->s = sc.s;
	pt->n = sc.n;
	forget_texts(load, sp->nload);
	free(load);
	if (sc.shown)
		end_progress(ev, rd, sp->t, sp->t->expected, sp->t->expected);
}

/* Row r of part p's column k. */
static int64_t part_at(const struct split *sp, size_t p, size_t k, size_t r)
{
	return nst_col_at(&sp->parts[p].cols[k].pub, r);
}

/* Whether column k is one run over the whole table, as a single scan
 * would have kept it (store_int's in_run): *base, *step when so. */
static bool one_run(const struct split *sp, size_t k, int64_t *base, int64_t *step)
{
	size_t g = 0;
	bool first = true, second = true;
	for (size_t p = 0; p < sp->plan.nparts; p++) {
		const struct part *pt = &sp->parts[p];
		if (pt->n == 0)
			continue;
		if (!pt->cols[k].seq)
			return false;
		if (first)
			*base = part_at(sp, p, k, 0);
		if (second && g + pt->n > 1) {
			int64_t v = part_at(sp, p, k, first ? 1 : 0);
			*step = v == *base ? 0 : 1;
			second = false;
		}
		first = false;
		/* a run part is linear: right at its two ends, right throughout */
		for (size_t r = 0; r < pt->n; r += pt->n - 1 ? pt->n - 1 : 1) {
			int64_t want = second ? *base : (int64_t)((uint64_t)*base + (uint64_t)*step * (g + r));
			if (part_at(sp, p, k, r) != want ||
			    (!second && *step && (*base == NST_NULL_I64 || want == NST_NULL_I64)))
				return false;
		}
		g += pt->n;
	}
	if (second)
		*step = 0;
	return true;
}

/* The first value of column k that is not NULL; false when every one is. */
static bool first_value(const struct split *sp, size_t k, int64_t *v)
{
	for (size_t p = 0; p < sp->plan.nparts; p++)
		for (size_t r = 0; r < sp->parts[p].n; r++)
			if ((*v = part_at(sp, p, k, r)) != NST_NULL_I64)
				return true;
	return false;
}

/* Whether part p's column k, at 32 bits or a run, fits 32 bits from base. */
static bool part_fits_32(const struct split *sp, size_t p, size_t k, int64_t base)
{
	const struct ev_col *c = &sp->parts[p].cols[k];
	size_t n = sp->parts[p].n;
	if (c->seq) {
		int64_t a = part_at(sp, p, k, 0), b = part_at(sp, p, k, n - 1);
		return (a == NST_NULL_I64 || fits_32(base, a)) && (b == NST_NULL_I64 || fits_32(base, b));
	}
	if (!c->has_base) /* NULLs only */
		return true;
	int32_t lo = INT32_MAX, hi = INT32_MIN;
	for (size_t r = 0; r < n; r++) {
		int32_t v = c->i32[r];
		if (v == NST_NULL_I32)
			continue;
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	return lo > hi || (fits_32(base, c->pub.base + lo) && fits_32(base, c->pub.base + hi));
}

/* Part p's column k as 32-bit offsets from base (it fits). */
static void rebase_32(struct split *sp, size_t p, size_t k, int64_t base)
{
	struct ev_col *c = &sp->parts[p].cols[k];
	size_t n = sp->parts[p].n;
	if (c->seq) {
		for (size_t r = 0; r < n; r++) {
			int64_t v = part_at(sp, p, k, r);
			c->i32[r] = v == NST_NULL_I64 ? NST_NULL_I32 : (int32_t)(v - base);
		}
		return;
	}
	int64_t d = c->pub.base - base;
	for (size_t r = 0; c->has_base && d && r < n; r++)
		if (c->i32[r] != NST_NULL_I32)
			c->i32[r] = (int32_t)(c->i32[r] + d);
}

/* The parts' rows made one run from row 0, where some part held fewer
 * rows than its rowids left room for. */
static void close_gaps(const struct split *sp, void *cells, size_t size)
{
	size_t g = 0;
	for (size_t p = 0; p < sp->plan.nparts; p++) {
		const struct part *pt = &sp->parts[p];
		if (pt->row0 != g && pt->n)
			memmove((char *)cells + g * size, (char *)cells + pt->row0 * size, pt->n * size);
		g += pt->n;
	}
}

/* Column k as one column: a run, 32-bit offsets from its first value
 * when every value fits, else int64 (what one scan would have made). */
static void merge_ints(struct split *sp, size_t k)
{
	struct ev_col *c = sp->load[k];
	struct room *r = &sp->rooms[k];
	int64_t base = 0, step = 0;
	if (one_run(sp, k, &base, &step)) {
		c->seq = true;
		c->step_known = true;
		c->has_base = base != NST_NULL_I64;
		c->pub.base = base;
		c->pub.step = step;
	} else {
		c->has_base = first_value(sp, k, &base);
		c->pub.base = base;
		bool narrow = true;
		for (size_t p = 0; p < sp->plan.nparts; p++)
			narrow = narrow && (sp->parts[p].n == 0 || (!sp->parts[p].cols[k].i &&
								   part_fits_32(sp, p, k, base)));
		for (size_t p = 0; p < sp->plan.nparts; p++) {
			struct ev_col *pc = &sp->parts[p].cols[k];
			if (narrow)
				rebase_32(sp, p, k, base);
			else if (!pc->i)
				widen(pc, sp->parts[p].n, sp->parts[p].n);
		}
		close_gaps(sp, narrow ? (void *)r->i32 : (void *)r->i64,
			   narrow ? sizeof *r->i32 : sizeof *r->i64);
		if (!narrow) {
			c->i = r->i64;
			c->mapped = r->m64;
			r->i64 = NULL;
		}
	}
	if (!c->i) {
		c->i32 = r->i32;
		c->mapped = r->m32;
		r->i32 = NULL;
	}
	publish(c);
}

static void merge_texts(struct split *sp, size_t k)
{
	close_gaps(sp, (void *)sp->rooms[k].s, sizeof *sp->rooms[k].s);
	sp->load[k]->s = sp->rooms[k].s;
	sp->rooms[k].s = NULL;
}

/* The parts, read, as the table's columns; the table read whole instead
 * when a part could not be (it says what is wrong as one scan does). */
static enum nst_status finish_split(struct ev_store *ev, const struct reader *rd,
				    struct split *sp, struct nst_error *err)
{
	struct ev_table *t = sp->t;
	size_t rows = 0;
	bool whole = true;
	for (size_t p = 0; p < sp->plan.nparts; p++) {
		const struct part *pt = &sp->parts[p];
		if (pt->s == NST_ERR_INTERRUPTED)
			return (*err = pt->err, pt->s);
		whole = whole && pt->paged && pt->s == NST_OK;
		rows += pt->n;
	}
	if (!whole) {
		release_rooms(sp);
		return load_with(ev, rd, t, NULL, err);
	}
	if (t->loaded && rows != t->nrows)
		return nst_fail(err, NST_ERR_DB, "%s: %s changed while it was read",
				nst_db_path(ev->base.db), t->name);
	double m0 = nst_seconds();
	for (size_t k = 0; k < sp->nload; k++) {
		if (sp->load[k]->text)
			merge_texts(sp, k);
		else
			merge_ints(sp, k);
		sp->load[k]->loaded = true;
	}
	release_rooms(sp);
	t->nrows = rows;
	t->loaded = true;
	char how[96];
	snprintf(how, sizeof how, "from its pages in %zu parts (merged in %.6f s)", sp->plan.nparts,
		 nst_seconds() - m0);
	note_timing(ev, t, sp->load, sp->nload, how, sp->t0);
	return NST_OK;
}

/* ---- reading every wanted table up front, on several threads -------------------- */

/* A table to read whole, or one part of a table read in parts. */
struct task {
	struct ev_table *t;
	struct split *sp;
	size_t part;
	uint64_t weight;
	size_t order;
};

/* The tasks, taken in order by every reader; the first to fail (in task
 * order, whatever the threads' timing) is the read's error, and no task
 * after it starts. */
struct pool {
	struct ev_store *ev;
	struct task *tasks;
	size_t n, next;
	pthread_mutex_t lock;
	size_t failed_at;
	enum nst_status status;
	struct nst_error err;
};

struct worker {
	struct pool *pool;
	struct reader rd;
	struct nst_arena arena;
	pthread_t thread;
	bool started;
};

static void fail_task(struct pool *pl, size_t at, enum nst_status s, const struct nst_error *err)
{
	pthread_mutex_lock(&pl->lock);
	if (at < pl->failed_at) {
		pl->failed_at = at;
		pl->status = s;
		pl->err = *err;
	}
	pthread_mutex_unlock(&pl->lock);
}

static enum nst_status run_task(struct worker *w, struct task *tk, struct nst_error *err)
{
	struct pool *pl = w->pool;
	if (!tk->sp)
		return load_with(pl->ev, &w->rd, tk->t, NULL, err);
	read_part(pl->ev, &w->rd, tk->sp, tk->part);
	pthread_mutex_lock(&pl->lock);
	bool last = --tk->sp->left == 0;
	pthread_mutex_unlock(&pl->lock);
	return last ? finish_split(pl->ev, &w->rd, tk->sp, err) : NST_OK;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct pool *pl = w->pool;
	for (;;) {
		pthread_mutex_lock(&pl->lock);
		size_t i = pl->next;
		bool take = i < pl->n && i < pl->failed_at;
		pl->next += take;
		pthread_mutex_unlock(&pl->lock);
		if (!take)
			return NULL;
		struct task *tk = &pl->tasks[i];
		struct nst_error err = { 0 };
		enum nst_status s = run_task(w, tk, &err);
		if (s != NST_OK)
			fail_task(pl, tk->sp ? tk->sp->task : i, s, &err);
	}
}

static bool needs_read(const struct ev_table *t)
{
	if (!t->present)
		return false;
	for (size_t c = 0; c < t->ncols; c++)
		if (to_read(t, t->cols[c]))
			return true;
	return !t->loaded && t->ncols > 0;
}

/* What reading t takes, roughly: its cells. */
static uint64_t weight_of(struct ev_store *ev, struct ev_table *t)
{
	struct reader rd = { nst_db_handle(ev->base.db), NULL, false };
	return (uint64_t)rows_to_expect(&rd, t) * t->ncols + 1;
}

/* One reader a processor this process may run on, at most 16, unless
 * the caller said how many. */
static size_t reader_threads(const struct nst_options *o)
{
	size_t n = nst_cpus();
	return o->read_threads > 0 ? (size_t)o->read_threads : n > 16 ? 16 : n;
}

/* A reader beyond the first costs a connection (its schema parsed) and a
 * thread, about half a millisecond: one pays from about this many cells. */
#define READER_CELLS (1u << 18)

/* Readers for these tables: at most `want`, one per READER_CELLS. */
static size_t readers_for(struct ev_store *ev, struct ev_table **all, size_t n, size_t want)
{
	uint64_t cells = 0;
	for (size_t i = 0; i < n; i++)
		cells += weight_of(ev, all[i]);
	return cells / READER_CELLS + 1 < want ? (size_t)(cells / READER_CELLS + 1) : want;
}

/* The biggest first (a stable order: ties keep the tables' order). */
static int heavier_first(const void *a, const void *b)
{
	const struct task *x = a, *y = b;
	if (x->weight != y->weight)
		return x->weight < y->weight ? 1 : -1;
	return (x->order > y->order) - (x->order < y->order);
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
			if (to_read(all[i], col))
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

/* Every table to read as tasks, the big ones in parts, heaviest first. */
static struct task *plan_tasks(struct ev_store *ev, struct ev_table **all, size_t n,
			       size_t readers, size_t *ntasks)
{
	size_t cap = n * (readers > 1 ? readers : 1), k = 0;
	struct task *tasks = malloc((cap ? cap : 1) * sizeof *tasks);
	for (size_t i = 0; tasks && i < n; i++) {
		uint64_t w = weight_of(ev, all[i]);
		struct split *sp = readers > 1 ? plan_split(ev, all[i], readers) : NULL;
		size_t parts = sp ? sp->plan.nparts : 1;
		if (sp)
			sp->t0 = nst_seconds();
		for (size_t p = 0; p < parts; p++, k++)
			tasks[k] = (struct task){ .t = all[i], .sp = sp, .part = p,
						  .weight = w / parts, .order = k };
	}
	if (tasks)
		qsort(tasks, k, sizeof *tasks, heavier_first);
	for (size_t i = 0; tasks && i < k; i++)
		if (tasks[i].sp && tasks[i].part == 0)
			tasks[i].sp->task = i;
	*ntasks = k;
	return tasks;
}

static void free_tasks(struct task *tasks, size_t n)
{
	for (size_t i = 0; tasks && i < n; i++)
		if (tasks[i].sp && tasks[i].part == 0)
			split_free(tasks[i].sp);
	free(tasks);
}

/* The tasks on `readers` threads, this one among them; the first failure. */
static enum nst_status run_pool(struct ev_store *ev, struct task *tasks, size_t n, size_t readers,
				struct nst_error *err)
{
	struct pool pl = { .ev = ev, .tasks = tasks, .n = n, .failed_at = SIZE_MAX };
	struct worker *w = calloc(readers, sizeof *w);
	if (!w || pthread_mutex_init(&pl.lock, NULL) != 0) {
		free(w);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	w[0] = (struct worker){ .pool = &pl, .rd = { nst_db_handle(ev->base.db), &ev->arena, true } };
	for (size_t i = 1; i < readers; i++) {
		w[i].pool = &pl;
		w[i].rd = (struct reader){ nst_db_connect(ev->base.db), &w[i].arena, false };
		w[i].started = w[i].rd.h && pthread_create(&w[i].thread, NULL, work, &w[i]) == 0;
	}
	work(&w[0]);
	for (size_t i = 1; i < readers; i++) {
		if (w[i].started)
			pthread_join(w[i].thread, NULL);
		sqlite3_close(w[i].rd.h);
		nst_arena_adopt(&ev->arena, &w[i].arena);
		nst_arena_release(&w[i].arena);
	}
	pthread_mutex_destroy(&pl.lock);
	free(w);
	return pl.status == NST_OK ? NST_OK : (*err = pl.err, pl.status);
}

static enum nst_status store_preload(struct nst_events *base, struct nst_error *err)
{
	struct ev_store *ev = (struct ev_store *)base;
	size_t n = 0, ntasks = 0;
	for (struct ev_table *t = ev->tables; t; t = t->next)
		n += needs_read(t);
	struct ev_table **all = malloc((n ? n : 1) * sizeof *all);
	if (!all)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	n = 0;
	for (struct ev_table *t = ev->tables; t; t = t->next)
		if (needs_read(t))
			all[n++] = t;
	enum nst_status s = fits_memory(ev, all, n, err);
	/* One thread asked for, or one table too small to cut: the lazy path
	 * reads each table when it is asked for. */
	size_t want = reader_threads(ev->base.hooks);
	size_t readers = s == NST_OK ? readers_for(ev, all, n, want) : 1;
	if (s == NST_OK && (n > 1 || readers > 1) && want > 1) {
		struct task *tasks = plan_tasks(ev, all, n, readers, &ntasks);
		s = tasks ? run_pool(ev, tasks, ntasks, readers < ntasks ? readers : ntasks, err)
			  : nst_fail(err, NST_ERR_NOMEM, "out of memory");
		free_tasks(tasks, ntasks);
	}
	free(all);
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

static enum nst_status store_durations(struct nst_events *base, const char *table,
				       struct nst_span *out, struct nst_error *err)
{
	struct ev_store *ev = (struct ev_store *)base;
	struct ev_table *t = table_of(ev, table);
	struct ev_col *c = t ? col_of(ev, t, NST_EV_DURATION, false) : NULL;
	if (!c)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (c->loaded || !span_from_times(t))
		return store_col(base, table, NST_EV_DURATION, &out->dur, err);
	enum nst_status s = store_i64(base, table, "start", &out->start, err);
	return s == NST_OK ? store_i64(base, table, "end", &out->end, err) : s;
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
	.col = store_col, .text = store_text, .durations = store_durations, .free = store_free,
	.plan = store_plan, .drop_after = store_drop_after,
};
