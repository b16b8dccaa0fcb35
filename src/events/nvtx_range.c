/* The window of an NVTX range, as nsys's --filter-nvtx and nvtx= find it. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/suggest.h"
#include "events/events.h"

/* "NAME/3" is NAME's range 3; a suffix that is not a number is part of
 * the name.  *index is -1 for an index too big to exist. */
static size_t split_index(const char *spec, int64_t *index)
{
	const char *slash = strrchr(spec, '/');
	size_t len = strlen(spec);
	*index = 0;
	if (!slash || !slash[1] || strspn(slash + 1, "0123456789") != strlen(slash + 1))
		return len;
	errno = 0;
	long long i = strtoll(slash + 1, NULL, 10);
	*index = errno == ERANGE ? -1 : i;
	return (size_t)(slash - spec);
}

/* Appends text to sql[*used..size) with its "NAME" (at most one) spelled
 * as name. */
static void append_named(char *sql, size_t size, size_t *used, const char *text, const char *name)
{
	const char *at = strstr(text, "NAME");
	int n = snprintf(sql + *used, size - *used, "%.*s%s%s",
			 at ? (int)(at - text) : (int)strlen(text), text, at ? name : "",
			 at ? at + 4 : "");
	*used += n > 0 && (size_t)n < size - *used ? (size_t)n : 0;
}

/* Ranges by "name@domain", the domain being the DomainCreate row (75) of
 * the range's domainId in its process: `select` of the ranges, then
 * `tail`, where NAME stands for that name; malloc'd. */
static char *range_sql(struct nst_db *db, const char *select, const char *tail)
{
	bool text_id = nst_db_has_column(db, "NVTX_EVENTS", "textId") &&
		       nst_db_has_table(db, "StringIds");
	bool domain = nst_db_has_column(db, "NVTX_EVENTS", "domainId");
	char name[160], *sql = malloc(2048);
	if (!sql)
		return NULL;
	snprintf(name, sizeof name, "coalesce(e.text, %s) || coalesce('@' || d.text, '')",
		 text_id ? "(SELECT value FROM StringIds WHERE id = e.textId)" : "NULL");
	size_t used = 0;
	char with[256], join[256];
	snprintf(with, sizeof with, "WITH d AS MATERIALIZED (SELECT domainId AS id, globalTid &"
		 " 0x0000FFFFFF000000 AS p, text FROM NVTX_EVENTS WHERE eventType = 75 AND %s)"
		 " SELECT ", domain ? "1" : "0");
	snprintf(join, sizeof join, " FROM NVTX_EVENTS AS e LEFT JOIN d ON d.id = %s AND"
		 " d.p = e.globalTid & 0x0000FFFFFF000000 WHERE e.eventType IN (59, 60, 70, 71) ",
		 domain ? "e.domainId" : "NULL");
	append_named(sql, 2048, &used, with, name);
	append_named(sql, 2048, &used, select, name);
	append_named(sql, 2048, &used, join, name);
	append_named(sql, 2048, &used, tail, name);
	return sql;
}

static enum nst_status read_error(struct nst_db *db, struct nst_error *err)
{
	return nst_fail(err, NST_ERR_DB, "%s: cannot read NVTX_EVENTS: %s", nst_db_path(db),
			sqlite3_errmsg(nst_db_handle(db)));
}

static enum nst_status prepare(struct nst_db *db, const char *select, const char *tail,
			       sqlite3_stmt **st, struct nst_error *err)
{
	char *sql = range_sql(db, select, tail);
	if (!sql)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	int rc = sqlite3_prepare_v2(nst_db_handle(db), sql, -1, st, NULL);
	free(sql);
	return rc == SQLITE_OK ? NST_OK : read_error(db, err);
}

/* How many ranges have the name; -1 when it cannot be read. */
static int64_t count_named(struct nst_db *db, const char *name, size_t len)
{
	sqlite3_stmt *st;
	int64_t n = -1;
	if (prepare(db, "count(*)", "AND NAME = ?1", &st, NULL) != NST_OK)
		return -1;
	sqlite3_bind_text(st, 1, name, (int)len, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

struct names {
	char **item;
	size_t n, cap;
};

static void names_free(struct names *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->item[i]);
	free(l->item);
}

/* A PyTorch export has tens of thousands of names: the list doubles. */
static bool names_add(struct names *l, const char *s)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		char **p = realloc(l->item, cap * sizeof *p);
		if (!p)
			return false;
		l->item = p;
		l->cap = cap;
	}
	if (!(l->item[l->n] = strdup(s)))
		return false;
	l->n++;
	return true;
}

/* The ranges' names closest to the one not found: "did you mean ...?". */
static void closest_names(struct nst_db *db, const char *spec, size_t len, char *hint,
			  size_t size)
{
	struct names all = { 0 };
	sqlite3_stmt *st;
	hint[0] = '\0';
	if (prepare(db, "DISTINCT NAME", "ORDER BY 1", &st, NULL) != NST_OK)
		return;
	while (sqlite3_step(st) == SQLITE_ROW)
		if (sqlite3_column_text(st, 0) &&
		    !names_add(&all, (const char *)sqlite3_column_text(st, 0)))
			break;
	sqlite3_finalize(st);
	struct nst_suggest sg;
	nst_suggest_init(&sg, spec, len);
	for (size_t i = 0; i < all.n; i++)
		nst_suggest_offer(&sg, all.item[i]);
	nst_suggest_text(&sg, hint, size);
	names_free(&all);
}

/* What is there instead of a range not found: how many ranges the name
 * has when the index is past the last, else the closest names; "" when
 * nothing is close.  The name is spec's, or its printed form (alt, else
 * NULL). */
static void what_is_there(struct nst_db *db, const char *spec, size_t len, const char *alt,
			  size_t alt_len, char *hint, size_t size)
{
	const char *name[2] = { spec, alt };
	size_t nlen[2] = { len, alt_len };
	hint[0] = '\0';
	for (int i = 0; i < 2 && !*hint && name[i]; i++) {
		int64_t n = count_named(db, name[i], nlen[i]);
		if (n > 0)
			snprintf(hint, size, "there %s %lld range%s %.*s, /0 to /%lld",
				 n == 1 ? "is" : "are", (long long)n, n == 1 ? "" : "s",
				 (int)nlen[i], name[i], (long long)n - 1);
	}
	for (int i = 0; i < 2 && !*hint && name[i]; i++)
		closest_names(db, name[i], nlen[i], hint, size);
}

static void scope_of(int64_t gtid, struct nst_ev_window *w)
{
	/* A range on the main thread (tid == pid) stands for its process. */
	int64_t pid = (gtid >> 24) & 0xFFFFFF, tid = gtid & 0xFFFFFF;
	w->gtid = gtid;
	w->scope = gtid == NST_NULL_I64 ? NST_EV_ALL_THREADS
		 : tid == pid ? NST_EV_PROCESS : NST_EV_THREAD;
}

/* The index-th range named name[0..len): NST_OK, NST_ERR_NODATA when
 * there is none (err untouched), or a read error. */
static enum nst_status find_range(struct nst_db *db, const char *name, size_t len,
				  int64_t index, struct nst_ev_window *w, bool *open,
				  struct nst_error *err)
{
	sqlite3_stmt *st;
	enum nst_status s = prepare(db, "e.start, e.end, e.globalTid",
				    "AND NAME = ?1 ORDER BY e.start, e.rowid LIMIT 1 OFFSET ?2", &st, err);
	if (s != NST_OK)
		return s;
	sqlite3_bind_text(st, 1, name, (int)len, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, index);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		w->start = sqlite3_column_int64(st, 0);
		*open = sqlite3_column_type(st, 1) == SQLITE_NULL;
		w->end = *open ? INT64_MAX : sqlite3_column_int64(st, 1);
		scope_of(sqlite3_column_type(st, 2) == SQLITE_NULL ? NST_NULL_I64
				 : sqlite3_column_int64(st, 2), w);
	}
	s = rc == SQLITE_ROW ? NST_OK : rc == SQLITE_DONE ? NST_ERR_NODATA : read_error(db, err);
	sqlite3_finalize(st);
	return s;
}

/* "DOMAIN:RANGE", as nvtx_sum prints a range of a named domain, as
 * "RANGE@DOMAIN": split at the first ':' that is not half of a "::" (C++
 * and PyTorch names).  Empty when there is no such ':'.  Malloc'd. */
static char *printed_form(const char *spec, size_t len, size_t *out_len)
{
	const char *p = spec, *end = spec + len;
	while (p < end && !(*p == ':' && (p + 1 == end || p[1] != ':')))
		p += p + 1 < end && p[0] == ':' && p[1] == ':' ? 2 : 1;
	if (p == spec || p >= end - 1)
		return NULL;
	char *alt = malloc(len + 1);
	if (!alt)
		return NULL;
	*out_len = (size_t)snprintf(alt, len + 1, "%.*s@%.*s", (int)(end - p - 1), p + 1,
				    (int)(p - spec), spec);
	return alt;
}

/* The range of spec, by its name or its printed form: NST_ERR_NODATA
 * (err untouched) when there is none; *alt is the printed form, if any
 * (malloc'd). */
static enum nst_status find_either(struct nst_db *db, const char *spec, size_t len,
				   int64_t index, struct nst_ev_window *w, bool *open, char **alt,
				   size_t *alt_len, struct nst_error *err)
{
	enum nst_status s = index < 0 ? NST_ERR_NODATA
				      : find_range(db, spec, len, index, w, open, err);
	*alt = s == NST_ERR_NODATA ? printed_form(spec, len, alt_len) : NULL;
	if (*alt && index >= 0)
		s = find_range(db, *alt, *alt_len, index, w, open, err);
	return s;
}

enum nst_status nst_ev_nvtx_window(struct nst_db *db, const char *spec,
				   struct nst_ev_window *w, bool *open,
				   struct nst_error *err)
{
	int64_t index;
	size_t len = split_index(spec, &index), alt_len = 0;
	char *alt;
	*open = false;
	if (!nst_db_has_table(db, "NVTX_EVENTS"))
		return nst_fail(err, NST_ERR_NODATA,
				"%s does not contain NV Tools Extension (NVTX) data.", nst_db_path(db));
	enum nst_status s = find_either(db, spec, len, index, w, open, &alt, &alt_len, err);
	free(alt);
	if (s == NST_ERR_NODATA)
		s = nst_fail(err, NST_ERR_NODATA, "NVTX range '%s' could not be found in %s.", spec,
			     nst_db_path(db));
	return s;
}

enum nst_status nst_ev_nvtx_hint(struct nst_db *db, const char *spec, char *hint, size_t size,
				 struct nst_error *err)
{
	int64_t index;
	size_t len = split_index(spec, &index), alt_len = 0;
	char *alt = NULL;
	struct nst_ev_window w;
	bool open;
	hint[0] = '\0';
	if (!nst_db_has_table(db, "NVTX_EVENTS"))
		return NST_OK;
	enum nst_status s = find_either(db, spec, len, index, &w, &open, &alt, &alt_len, err);
	if (s == NST_ERR_NODATA) {
		what_is_there(db, spec, len, alt, alt_len, hint, size);
		s = NST_OK;
	}
	free(alt);
	return s;
}
