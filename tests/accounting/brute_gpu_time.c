/* brute_gpu_time EXPORT BY GAP [WSTART WEND] < nstats-csv
 *
 * Checks the csv of `nstats stats -r gpu_time_sum:by=BY:gap=GAP` (with
 * `--filter-time WSTART/WEND` when given) against a brute-force count over
 * the export: SQLite to read rows, nothing of nstats.  Each group's busy
 * and kernel time is found by cutting the time line at every start and end
 * of its operations and asking, for each elementary piece, whether any
 * operation covers it (O(n^2)); holes are runs of uncovered pieces.  Exit
 * 0 when every row agrees; otherwise prints each disagreement. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "brute.h"

const char *const brute_name = "brute_gpu_time";

#define NUL INT64_MIN

struct op {
	int64_t s, e;     /* cut to the window */
	int64_t dev, gpid, stream;
	int kind;         /* 0 kernel, 1 memcpy, 2 memset, 3 graph */
};

static struct op *ops;
static size_t nops, capops;
static int failures;

static int64_t col_or_null(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NUL : sqlite3_column_int64(st, i);
}

struct extent {
	bool any;
	int64_t lo, hi;
};

static void extend(struct extent *x, int64_t s, int64_t e)
{
	int64_t hi = e > s ? e : s;
	if (!x->any || s < x->lo)
		x->lo = s;
	if (!x->any || hi > x->hi)
		x->hi = hi;
	x->any = true;
}

static void read_table(sqlite3 *db, const char *table, int kind, bool window, int64_t ws, int64_t we,
		       struct extent *gpu)
{
	char sql[512];
	snprintf(sql, sizeof sql, "SELECT start, end, %s, %s, %s FROM %s",
		 has_column(db, table, "deviceId") ? "deviceId" : "NULL",
		 has_column(db, table, "globalPid") ? "globalPid" : "NULL",
		 has_column(db, table, "streamId") ? "streamId" : "NULL", table);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return; /* no such table */
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (sqlite3_column_type(st, 0) == SQLITE_NULL || sqlite3_column_type(st, 1) == SQLITE_NULL)
			continue;
		int64_t s = sqlite3_column_int64(st, 0), e = sqlite3_column_int64(st, 1);
		if (!kept(s, e, window, ws, we))
			continue;
		extend(gpu, s, e);
		if (window && s < ws)
			s = ws;
		if (window && e > we)
			e = we;
		if (nops == capops) {
			capops = capops ? 2 * capops : 256;
			ops = realloc(ops, capops * sizeof *ops);
			if (!ops)
				die("out of memory");
		}
		ops[nops++] = (struct op){ s, e, col_or_null(st, 2), col_or_null(st, 3), col_or_null(st, 4), kind };
	}
	sqlite3_finalize(st);
}

static int64_t query_int(sqlite3 *db, const char *sql, bool *found)
{
	sqlite3_stmt *st;
	*found = false;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return 0;
	int64_t v = 0;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
		v = sqlite3_column_int64(st, 0);
		*found = true;
	}
	sqlite3_finalize(st);
	return v;
}

/* The session [0, duration], else the CUDA calls that are not backtrace
 * records; then widened to the GPU rows and cut to the window. */
static void capture(sqlite3 *db, const struct extent *gpu, bool window, int64_t ws, int64_t we,
		    int64_t *lo, int64_t *hi)
{
	struct extent x = { 0 };
	bool f1, f2;
	int64_t d = query_int(db, "SELECT max(duration) FROM ANALYSIS_DETAILS WHERE duration >= 0", &f1);
	if (f1) {
		extend(&x, 0, d);
	} else {
		const char *bt = has_column(db, "CUPTI_ACTIVITY_KIND_RUNTIME", "callchainId")
					 ? " AND callchainId IS NULL" : "";
		const char *ec = has_column(db, "CUPTI_ACTIVITY_KIND_RUNTIME", "eventClass")
					 ? " AND eventClass IS NOT 67" : "";
		char sql[512];
		snprintf(sql, sizeof sql, "SELECT min(start) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE "
			 "start IS NOT NULL AND end IS NOT NULL%s%s", bt, ec);
		int64_t a = query_int(db, sql, &f1);
		snprintf(sql, sizeof sql, "SELECT max(max(start, end)) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE "
			 "start IS NOT NULL AND end IS NOT NULL%s%s", bt, ec);
		int64_t b = query_int(db, sql, &f2);
		if (f1 && f2)
			extend(&x, a, b);
	}
	if (gpu->any)
		extend(&x, gpu->lo, gpu->hi);
	*lo = x.lo;
	*hi = x.hi;
	if (window && *lo < ws)
		*lo = ws;
	if (window && *hi > we)
		*hi = we;
	if (*hi < *lo)
		*hi = *lo;
}

/* ---- groups --------------------------------------------------------------- */

enum { BY_DEVICE, BY_PROCESS, BY_STREAM };

struct key {
	int64_t gpid, dev, stream;
};

static struct key key_of(const struct op *o, int by)
{
	return (struct key){ by == BY_DEVICE ? NUL : o->gpid, o->dev, by == BY_STREAM ? o->stream : NUL };
}

static bool same_key(struct key a, struct key b)
{
	return a.gpid == b.gpid && a.dev == b.dev && a.stream == b.stream;
}

static int cmp_i64(int64_t a, int64_t b) { return (a > b) - (a < b); }

static int cmp_key(const void *pa, const void *pb)
{
	const struct key *a = pa, *b = pb;
	int c = cmp_i64(a->gpid, b->gpid);
	if (!c) c = cmp_i64(a->dev, b->dev);
	if (!c) c = cmp_i64(a->stream, b->stream);
	return c;
}

static int cmp_plain(const void *a, const void *b)
{
	return cmp_i64(*(const int64_t *)a, *(const int64_t *)b);
}

struct result {
	struct key k;
	int64_t gpu_span, busy, kunion, ksum, graph, gaps, gap_time;
};

static bool covers(const struct op *o, int64_t a, int64_t b, bool kernels_only)
{
	if (kernels_only && o->kind != 0 && o->kind != 3)
		return false;
	return o->e > o->s && o->s <= a && b <= o->e;
}

static void measure(struct key k, int by, int64_t gap, struct result *r)
{
	memset(r, 0, sizeof *r);
	r->k = k;
	int64_t *pts = malloc((2 * nops + 1) * sizeof *pts);
	size_t np = 0;
	bool any = false;
	int64_t first = 0, last = 0;
	for (size_t i = 0; i < nops; i++) {
		const struct op *o = &ops[i];
		if (!same_key(key_of(o, by), k))
			continue;
		int64_t hi = o->e > o->s ? o->e : o->s;
		if (!any || o->s < first) first = o->s;
		if (!any || hi > last) last = hi;
		any = true;
		if (o->e > o->s) {
			pts[np++] = o->s;
			pts[np++] = o->e;
			if (o->kind == 0 || o->kind == 3)
				r->ksum += o->e - o->s;
			if (o->kind == 3)
				r->graph += o->e - o->s;
		}
	}
	r->gpu_span = last - first;
	qsort(pts, np, sizeof *pts, cmp_plain);
	int64_t hole = 0;
	bool seen_covered = false;
	for (size_t p = 0; p + 1 < np; p++) {
		int64_t a = pts[p], b = pts[p + 1];
		if (a == b)
			continue;
		bool all = false, kern = false;
		for (size_t i = 0; i < nops; i++) {
			if (!same_key(key_of(&ops[i], by), k))
				continue;
			all = all || covers(&ops[i], a, b, false);
			kern = kern || covers(&ops[i], a, b, true);
		}
		if (all) {
			r->busy += b - a;
			if (seen_covered && hole > gap) {
				r->gaps++;
				r->gap_time += hole;
			}
			hole = 0;
			seen_covered = true;
		} else {
			hole += b - a;
		}
		if (kern)
			r->kunion += b - a;
	}
	free(pts);
}

/* ---- the csv to check -------------------------------------------------------- */

#define MAXF 32

/* Splits a csv line in place (quotes allowed); returns the field count. */
static int split_csv(char *line, char **f)
{
	int n = 0;
	char *p = line;
	line[strcspn(line, "\r\n")] = '\0';
	while (n < MAXF) {
		char *w = p;
		f[n++] = w;
		if (*p == '"') {
			p++;
			for (;;) {
				if (*p == '"' && p[1] == '"') { *w++ = '"'; p += 2; }
				else if (*p == '"') { p++; break; }
				else if (!*p) break;
				else *w++ = *p++;
			}
		} else {
			while (*p && *p != ',')
				*w++ = *p++;
		}
		char c = *p;
		*w = '\0';
		if (c != ',')
			break;
		p++;
	}
	return n;
}

static void bad(int row, const char *col, const char *got, const char *want)
{
	printf("row %d, %s: nstats %s, brute force %s\n", row, col, got, want);
	failures++;
}

static void check_int(int row, char **f, int nf, char **hdr, const char *col, int64_t want)
{
	int i = find(hdr, nf, col);
	char w[32];
	snprintf(w, sizeof w, "%lld", (long long)want);
	if (i < 0)
		bad(row, col, "(no column)", w);
	else if (strcmp(f[i], w) != 0)
		bad(row, col, f[i], w);
}

static void check_key(int row, char **f, int nf, char **hdr, const char *col, int64_t want)
{
	if (want == NUL) {
		int i = find(hdr, nf, col);
		if (i < 0 || f[i][0])
			bad(row, col, i < 0 ? "(no column)" : f[i], "(empty)");
		return;
	}
	check_int(row, f, nf, hdr, col, want);
}

/* A percentage printed to one decimal: within half a unit of the last place. */
static void check_pct(int row, char **f, int nf, char **hdr, const char *col, int64_t part, int64_t whole)
{
	int i = find(hdr, nf, col);
	char w[64];
	if (whole <= 0) {
		if (i < 0 || f[i][0])
			bad(row, col, i < 0 ? "(no column)" : f[i], "(empty)");
		return;
	}
	double want = 100.0 * (double)part / (double)whole;
	snprintf(w, sizeof w, "%.4f", want);
	if (i < 0 || !f[i][0] || fabs(atof(f[i]) - want) > 0.05 + 1e-9)
		bad(row, col, i < 0 ? "(no column)" : f[i], w);
}

static void check_row(int row, char **f, int nf, char **hdr, int by, const struct result *r, int64_t capture)
{
	if (by != BY_DEVICE)
		check_key(row, f, nf, hdr, "PID", r->k.gpid == NUL ? NUL : (r->k.gpid >> 24) & 0xFFFFFF);
	check_key(row, f, nf, hdr, "Device", r->k.dev);
	if (by == BY_STREAM)
		check_key(row, f, nf, hdr, "Stream", r->k.stream);
	check_int(row, f, nf, hdr, "Capture Span (ns)", capture);
	check_int(row, f, nf, hdr, "GPU Span (ns)", r->gpu_span);
	check_int(row, f, nf, hdr, "Busy (ns)", r->busy);
	check_int(row, f, nf, hdr, "Kernel Union (ns)", r->kunion);
	check_int(row, f, nf, hdr, "Kernel Sum (ns)", r->ksum);
	check_int(row, f, nf, hdr, "Overlap (ns)", r->ksum - r->kunion);
	check_int(row, f, nf, hdr, "Graph (ns)", r->graph);
	check_int(row, f, nf, hdr, "Idle (ns)", capture - r->busy);
	check_pct(row, f, nf, hdr, "Capture Util (%)", r->busy, capture);
	check_pct(row, f, nf, hdr, "GPU Span Util (%)", r->busy, r->gpu_span);
	check_int(row, f, nf, hdr, "Idle Gaps", r->gaps);
	check_int(row, f, nf, hdr, "Gap Time (ns)", r->gap_time);
}

int main(int argc, char **argv)
{
	if (argc != 4 && argc != 6)
		die("usage: brute_gpu_time EXPORT device|process|stream GAP [WSTART WEND] < csv");
	int by = !strcmp(argv[2], "device") ? BY_DEVICE : !strcmp(argv[2], "process") ? BY_PROCESS : BY_STREAM;
	int64_t gap = atoll(argv[3]);
	bool window = argc == 6;
	int64_t ws = window ? atoll(argv[4]) : 0, we = window ? atoll(argv[5]) : 0;
	sqlite3 *db;
	if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		die("cannot open the export");
	static const char *const tables[] = {
		"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
		"CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_GRAPH_TRACE",
	};
	struct extent gpu = { 0 };
	for (int t = 0; t < 4; t++)
		read_table(db, tables[t], t, window, ws, we, &gpu);
	int64_t lo, hi;
	capture(db, &gpu, window, ws, we, &lo, &hi);
	sqlite3_close(db);

	/* the distinct keys, in order */
	struct key *keys = malloc((nops + 1) * sizeof *keys);
	size_t nk = 0;
	for (size_t i = 0; i < nops; i++) {
		struct key k = key_of(&ops[i], by);
		bool seen = false;
		for (size_t j = 0; j < nk && !seen; j++)
			seen = same_key(keys[j], k);
		if (!seen)
			keys[nk++] = k;
	}
	qsort(keys, nk, sizeof *keys, cmp_key);

	static char line[1 << 16], hline[1 << 16];
	char *hdr[MAXF], *f[MAXF];
	/* a report without rows prints nothing at all, not even its header */
	int nh = fgets(hline, sizeof hline, stdin) ? split_csv(hline, hdr) : 0;
	size_t row = 0;
	while (nh && fgets(line, sizeof line, stdin)) {
		if (line[0] == '\n' || line[0] == '\r')
			continue;
		int nf = split_csv(line, f);
		if (nf != nh) {
			printf("row %zu: %d fields, the header has %d\n", row + 1, nf, nh);
			failures++;
		} else if (row < nk) {
			struct result r;
			measure(keys[row], by, gap, &r);
			check_row((int)row + 1, f, nf, hdr, by, &r, hi - lo);
		}
		row++;
	}
	if (row != nk) {
		printf("nstats printed %zu rows, brute force finds %zu groups\n", row, nk);
		failures++;
	}
	free(keys);
	free(ops);
	if (!failures)
		printf("ok: %zu groups by %s agree\n", nk, argv[2]);
	return failures ? 1 : 0;
}
