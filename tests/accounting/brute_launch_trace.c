/* brute_launch_trace EXPORT [demangled|base|mangled] [START END]: what
 * `nstats stats -r cuda_gpu_kern_launch_trace[:base|:mangled] -f csv`
 * must print, computed the plain way from SQLite and libc alone:
 *  - every kernel row is one output row; with START END only the rows that
 *    overlap [START, END) as nsys's time filter says;
 *  - its launch is found by scanning every runtime row (never a backtrace
 *    record: callchainId set or eventClass 67) of the kernel's process with
 *    its correlationId, the lowest rowid winning, whatever the window;
 *  - its Instance is 1 + the number of kernels with the same process,
 *    device, stream, name text, grid and block that come before it in the
 *    output order (start, PID, device, stream, correlationId, rowid; NULL
 *    first);
 *  - csv as RFC 4180 writes it.
 * Quadratic on purpose: fixtures are small. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#define NUL INT64_MIN

struct kernel {
	int64_t rowid, start, end, device, stream, corr, gpid, dim[6];
	char *name;
	int64_t call; /* index into calls, -1 */
	int64_t instance;
};

struct call {
	int64_t rowid, start, gtid, corr;
	char *name;
	bool backtrace;
};

static sqlite3 *db;

static void die(const char *what)
{
	fprintf(stderr, "brute_launch_trace: %s: %s\n", what, sqlite3_errmsg(db));
	exit(2);
}

static bool has_column(const char *table, const char *column)
{
	char sql[256];
	snprintf(sql, sizeof sql, "SELECT 1 FROM pragma_table_info('%s') WHERE name = '%s'",
		 table, column);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		die(sql);
	bool yes = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return yes;
}

static int64_t col_i64(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NUL : sqlite3_column_int64(st, i);
}

static char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? strdup((const char *)s) : NULL;
}

/* "cudaLaunchKernel_v7000" -> "cudaLaunchKernel": the _vNNNN suffix goes. */
static char *strip_version(char *s)
{
	size_t n = s ? strlen(s) : 0;
	if (n >= 6 && s[n - 6] == '_' && s[n - 5] == 'v')
		s[n - 6] = '\0';
	return s;
}

static size_t load_calls(struct call **out)
{
	bool chain = has_column("CUPTI_ACTIVITY_KIND_RUNTIME", "callchainId");
	bool cls = has_column("CUPTI_ACTIVITY_KIND_RUNTIME", "eventClass");
	char sql[512];
	snprintf(sql, sizeof sql,
		 "SELECT r.rowid, r.start, r.globalTid, r.correlationId, s.value, %s, %s "
		 "FROM CUPTI_ACTIVITY_KIND_RUNTIME r LEFT JOIN StringIds s ON s.id = r.nameId "
		 "ORDER BY r.rowid",
		 chain ? "r.callchainId" : "NULL", cls ? "r.eventClass" : "NULL");
	sqlite3_stmt *st;
	size_t n = 0, cap = 0;
	*out = NULL;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return 0; /* no runtime table: no launches */
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			*out = realloc(*out, cap * sizeof **out);
		}
		struct call *c = &(*out)[n++];
		c->rowid = col_i64(st, 0);
		c->start = col_i64(st, 1);
		c->gtid = col_i64(st, 2);
		c->corr = col_i64(st, 3);
		c->name = strip_version(col_text(st, 4));
		c->backtrace = col_i64(st, 5) != NUL || col_i64(st, 6) == 67;
	}
	sqlite3_finalize(st);
	return n;
}

/* nsys's filter: (start >= S AND start < E) OR (end >= S AND end < E) OR
 * (start < S AND end >= E). */
static bool overlaps(int64_t s, int64_t e, int64_t S, int64_t E)
{
	return (s >= S && s < E) || (e >= S && e < E) || (s < S && e >= E);
}

static size_t load_kernels(const char *mode, bool window, int64_t S, int64_t E,
			   struct kernel **out)
{
	const char *name = "k.demangledName";
	if (strcmp(mode, "base") == 0)
		name = "k.shortName";
	else if (strcmp(mode, "mangled") == 0 && has_column("CUPTI_ACTIVITY_KIND_KERNEL", "mangledName"))
		name = "coalesce(k.mangledName, k.demangledName)";
	bool gpid = has_column("CUPTI_ACTIVITY_KIND_KERNEL", "globalPid");
	char sql[1024];
	snprintf(sql, sizeof sql,
		 "SELECT k.rowid, k.start, k.end, k.deviceId, k.streamId, k.correlationId, %s, "
		 "k.gridX, k.gridY, k.gridZ, k.blockX, k.blockY, k.blockZ, s.value "
		 "FROM CUPTI_ACTIVITY_KIND_KERNEL k LEFT JOIN StringIds s ON s.id = %s",
		 gpid ? "k.globalPid" : "NULL", name);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		die(sql);
	size_t n = 0, cap = 0;
	*out = NULL;
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (window && !overlaps(col_i64(st, 1), col_i64(st, 2), S, E))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			*out = realloc(*out, cap * sizeof **out);
		}
		struct kernel *k = &(*out)[n++];
		k->rowid = col_i64(st, 0);
		k->start = col_i64(st, 1);
		k->end = col_i64(st, 2);
		k->device = col_i64(st, 3);
		k->stream = col_i64(st, 4);
		k->corr = col_i64(st, 5);
		k->gpid = col_i64(st, 6);
		for (int d = 0; d < 6; d++)
			k->dim[d] = col_i64(st, 7 + d);
		k->name = col_text(st, 13);
	}
	sqlite3_finalize(st);
	return n;
}

static int64_t process_of_gtid(int64_t gtid) { return gtid & ~(int64_t)0xFFFFFF; }
static int64_t pid_of(int64_t g) { return g == NUL ? NUL : (g >> 24) & 0xFFFFFF; }

/* Without KERNEL.globalPid, the process that made every call, if one did. */
static int64_t sole_process(const struct call *c, size_t nc)
{
	int64_t p = NUL;
	for (size_t i = 0; i < nc; i++) {
		if (c[i].backtrace || c[i].gtid == NUL)
			continue;
		if (p != NUL && p != process_of_gtid(c[i].gtid))
			return NUL;
		p = process_of_gtid(c[i].gtid);
	}
	return p;
}

static int64_t launch_of(const struct kernel *k, const struct call *c, size_t nc)
{
	if (k->gpid == NUL || k->corr == NUL)
		return -1;
	for (size_t i = 0; i < nc; i++) /* rowid order: the first wins */
		if (!c[i].backtrace && c[i].gtid != NUL && c[i].corr == k->corr &&
		    process_of_gtid(c[i].gtid) == k->gpid)
			return (int64_t)i;
	return -1;
}

static int cmp_i64(int64_t a, int64_t b) { return (a > b) - (a < b); }

static int cmp_order(const void *pa, const void *pb)
{
	const struct kernel *a = pa, *b = pb;
	int c = cmp_i64(a->start, b->start);
	if (!c) c = cmp_i64(pid_of(a->gpid), pid_of(b->gpid));
	if (!c) c = cmp_i64(a->device, b->device);
	if (!c) c = cmp_i64(a->stream, b->stream);
	if (!c) c = cmp_i64(a->corr, b->corr);
	if (!c) c = cmp_i64(a->rowid, b->rowid);
	return c;
}

static bool same_text(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static bool same_launch(const struct kernel *a, const struct kernel *b)
{
	if (a->gpid != b->gpid || a->device != b->device || a->stream != b->stream ||
	    !same_text(a->name, b->name))
		return false;
	for (int d = 0; d < 6; d++)
		if (a->dim[d] != b->dim[d])
			return false;
	return true;
}

static void put_int(int64_t v, const char *sep)
{
	if (v != NUL)
		printf("%" PRId64, v);
	fputs(sep, stdout);
}

static void put_text(const char *s, const char *sep)
{
	if (s && strpbrk(s, ",\"\n\r")) {
		putchar('"');
		for (; *s; s++) {
			if (*s == '"')
				putchar('"');
			putchar(*s);
		}
		putchar('"');
	} else if (s) {
		fputs(s, stdout);
	}
	fputs(sep, stdout);
}

static void print_row(const struct kernel *k, const struct call *calls)
{
	const struct call *c = k->call >= 0 ? &calls[k->call] : NULL;
	put_int(pid_of(k->gpid), ",");
	put_int(k->device, ",");
	put_int(k->stream, ",");
	put_int(k->corr, ",");
	put_int(k->start, ",");
	put_int(k->end, ",");
	put_int(k->start == NUL || k->end == NUL ? NUL : k->end - k->start, ",");
	put_int(k->instance, ",");
	for (int d = 0; d < 6; d++)
		put_int(k->dim[d], ",");
	put_text(c ? c->name : NULL, ",");
	put_int(c ? c->start : NUL, ",");
	put_int(c && c->gtid != NUL ? c->gtid & 0xFFFFFF : NUL, ",");
	put_text(k->name, "\n");
}

int main(int argc, char **argv)
{
	if (argc != 2 && argc != 3 && argc != 5) {
		fprintf(stderr, "usage: brute_launch_trace EXPORT [demangled|base|mangled] [START END]\n");
		return 2;
	}
	if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		die(argv[1]);
	const char *mode = argc >= 3 ? argv[2] : "demangled";
	bool window = argc == 5;
	int64_t S = window ? strtoll(argv[3], NULL, 10) : 0, E = window ? strtoll(argv[4], NULL, 10) : 0;
	struct call *calls;
	size_t nc = load_calls(&calls);
	struct kernel *k;
	size_t nk = load_kernels(mode, window, S, E, &k);
	int64_t sole = has_column("CUPTI_ACTIVITY_KIND_KERNEL", "globalPid") ? NUL : sole_process(calls, nc);
	for (size_t i = 0; i < nk; i++) {
		if (k[i].gpid == NUL)
			k[i].gpid = sole;
		k[i].call = launch_of(&k[i], calls, nc);
	}
	for (size_t i = 0; i < nk; i++) {
		k[i].instance = 1;
		for (size_t j = 0; j < nk; j++)
			if (j != i && same_launch(&k[i], &k[j]) && cmp_order(&k[j], &k[i]) < 0)
				k[i].instance++;
	}
	if (nk)
		qsort(k, nk, sizeof *k, cmp_order);
	puts("PID,DevId,Strm,CorrId,Start (ns),End (ns),Duration (ns),Instance,GrdX,GrdY,GrdZ,"
	     "BlkX,BlkY,BlkZ,API Function,API Start (ns),TID,Name");
	for (size_t i = 0; i < nk; i++)
		print_row(&k[i], calls);
	for (size_t i = 0; i < nk; i++)
		free(k[i].name);
	for (size_t i = 0; i < nc; i++)
		free(calls[i].name);
	free(k);
	free(calls);
	sqlite3_close(db);
	return 0;
}
