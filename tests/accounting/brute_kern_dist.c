/* brute_kern_dist EXPORT NAMECOL [WSTART WEND] < nstats-tsv
 *
 * Checks the tsv of `nstats stats -r cuda_gpu_kern_dist` (NAMECOL
 * demangledName, or shortName for :base, mangledName for :mangled; with
 * `--filter-time WSTART/WEND` when given) against a brute-force reading of
 * the export: SQLite to read rows and names, nothing of nstats.
 *  - Pp is the smallest duration v of the kernel such that at least p% of
 *    its durations are <= v, found by counting for every candidate (O(n^2));
 *  - mean and sample standard deviation by the two-pass textbook formulas;
 *  - Busy (%) is the total over the busy time of the devices the kernel ran
 *    on, each device's busy time the length of the union of all its GPU
 *    operations (kernels, memcpy, memset, graphs), found piece by piece;
 *  - rows come by total descending, then instances ascending, then name.
 * Exit 0 when everything agrees; otherwise prints each disagreement. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "brute.h"

const char *const brute_name = "brute_kern_dist";

struct launch {
	int64_t dur, dev;
	int name; /* index into names */
};

struct gpu_op {
	int64_t s, e, dev;
};

static struct launch *launches;
static size_t nlaunch;
static struct gpu_op *gops;
static size_t ngops;
static char **names;
static size_t nnames;
static int failures;

static void *grow(void *p, size_t n, size_t size)
{
	/* one more than n, from empty, doubling at powers of two */
	if (n && (n & (n - 1)))
		return p;
	p = realloc(p, (n ? 2 * n : 1) * size);
	if (!p)
		die("out of memory");
	return p;
}

static int name_index(const char *text)
{
	for (size_t i = 0; i < nnames; i++)
		if (strcmp(names[i], text) == 0)
			return (int)i;
	names = grow(names, nnames, sizeof *names);
	names[nnames] = strdup(text);
	return (int)nnames++;
}

/* A device id, or INT64_MIN for none (NULL, or no such column): one more device. */
static int64_t device_at(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? INT64_MIN : sqlite3_column_int64(st, i);
}

static void read_kernels(sqlite3 *db, const char *namecol, bool window, int64_t ws, int64_t we)
{
	char sql[512];
	snprintf(sql, sizeof sql,
		 "SELECT k.start, k.end, %s, coalesce(n.value, d.value) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
		 "LEFT JOIN StringIds n ON n.id = k.%s LEFT JOIN StringIds d ON d.id = k.demangledName",
		 has_column(db, "CUPTI_ACTIVITY_KIND_KERNEL", "deviceId") ? "k.deviceId" : "NULL", namecol);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		die(sqlite3_errmsg(db));
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t s = sqlite3_column_int64(st, 0), e = sqlite3_column_int64(st, 1);
		if (!kept(s, e, window, ws, we))
			continue;
		const unsigned char *t = sqlite3_column_text(st, 3);
		launches = grow(launches, nlaunch, sizeof *launches);
		launches[nlaunch++] = (struct launch){ e - s, device_at(st, 2),
						       name_index(t ? (const char *)t : "") };
	}
	sqlite3_finalize(st);
}

static void read_ops(sqlite3 *db, const char *table, bool window, int64_t ws, int64_t we)
{
	char sql[256];
	snprintf(sql, sizeof sql, "SELECT start, end, %s FROM %s",
		 has_column(db, table, "deviceId") ? "deviceId" : "NULL", table);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return; /* no such table */
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t s = sqlite3_column_int64(st, 0), e = sqlite3_column_int64(st, 1);
		if (!kept(s, e, window, ws, we))
			continue;
		gops = grow(gops, ngops, sizeof *gops);
		gops[ngops++] = (struct gpu_op){ s, e, device_at(st, 2) };
	}
	sqlite3_finalize(st);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The length of the union of device dev's operations, piece by piece. */
static int64_t device_busy(int64_t dev)
{
	int64_t *pts = malloc((2 * ngops + 1) * sizeof *pts);
	size_t np = 0;
	for (size_t i = 0; i < ngops; i++)
		if (gops[i].dev == dev && gops[i].e > gops[i].s) {
			pts[np++] = gops[i].s;
			pts[np++] = gops[i].e;
		}
	qsort(pts, np, sizeof *pts, cmp_i64);
	int64_t busy = 0;
	for (size_t p = 0; p + 1 < np; p++) {
		bool covered = false;
		for (size_t i = 0; i < ngops && !covered; i++)
			covered = gops[i].dev == dev && gops[i].s <= pts[p] && pts[p + 1] <= gops[i].e &&
				  gops[i].e > gops[i].s;
		if (covered)
			busy += pts[p + 1] - pts[p];
	}
	free(pts);
	return busy;
}

/* Smallest v among the values with count(x <= v) * 100 >= p * n. */
static int64_t percentile(const int64_t *v, size_t n, int p)
{
	int64_t best = 0;
	bool found = false;
	for (size_t i = 0; i < n; i++) {
		size_t at_or_below = 0;
		for (size_t j = 0; j < n; j++)
			at_or_below += v[j] <= v[i];
		if (at_or_below * 100 >= (size_t)p * n && (!found || v[i] < best)) {
			best = v[i];
			found = true;
		}
	}
	return best;
}

struct stats {
	int name;
	size_t n;
	int64_t total, min, max, p50, p90, p99;
	double mean, sd;
	int64_t busy;
};

static void stats_of(int name, struct stats *st)
{
	memset(st, 0, sizeof *st);
	st->name = name;
	int64_t *v = malloc((nlaunch + 1) * sizeof *v), *devs = malloc((nlaunch + 1) * sizeof *devs);
	size_t ndev = 0;
	for (size_t i = 0; i < nlaunch; i++) {
		if (launches[i].name != name)
			continue;
		int64_t d = launches[i].dur;
		if (!st->n || d < st->min) st->min = d;
		if (!st->n || d > st->max) st->max = d;
		st->total += d;
		v[st->n++] = d;
		bool seen = false;
		for (size_t j = 0; j < ndev && !seen; j++)
			seen = devs[j] == launches[i].dev;
		if (!seen)
			devs[ndev++] = launches[i].dev;
	}
	st->mean = (double)st->total / (double)st->n;
	double ss = 0;
	for (size_t i = 0; i < st->n; i++)
		ss += ((double)v[i] - st->mean) * ((double)v[i] - st->mean);
	st->sd = st->n > 1 ? sqrt(ss / (double)(st->n - 1)) : 0.0;
	st->p50 = percentile(v, st->n, 50);
	st->p90 = percentile(v, st->n, 90);
	st->p99 = percentile(v, st->n, 99);
	for (size_t j = 0; j < ndev; j++)
		st->busy += device_busy(devs[j]);
	free(v);
	free(devs);
}

/* ---- the tsv to check ----------------------------------------------------------- */

#define MAXF 16

static int split_tsv(char *line, char **f)
{
	int n = 0;
	line[strcspn(line, "\r\n")] = '\0';
	for (char *p = line; n < MAXF;) {
		f[n++] = p;
		p = strchr(p, '\t');
		if (!p)
			break;
		*p++ = '\0';
	}
	return n;
}

static void bad(const char *name, const char *col, const char *got, const char *want)
{
	printf("%s, %s: nstats %s, brute force %s\n", name, col, got, want);
	failures++;
}

static void check_int(const char *name, char **f, char **hdr, int nh, const char *col, int64_t want)
{
	int i = find(hdr, nh, col);
	char w[32];
	snprintf(w, sizeof w, "%lld", (long long)want);
	if (i < 0 || strcmp(f[i], w) != 0)
		bad(name, col, i < 0 ? "(no column)" : f[i], w);
}

/* One decimal printed: within half a unit of the last place (and a hair). */
static void check_real(const char *name, char **f, char **hdr, int nh, const char *col, double want)
{
	int i = find(hdr, nh, col);
	char w[64];
	snprintf(w, sizeof w, "%.4f", want);
	if (i < 0 || !f[i][0] || fabs(atof(f[i]) - want) > 0.05 + 1e-9 * fabs(want))
		bad(name, col, i < 0 ? "(no column)" : f[i], w);
}

static void check_row(char **f, char **hdr, int nh, const struct stats *st)
{
	const char *name = names[st->name];
	check_int(name, f, hdr, nh, "Total Time (ns)", st->total);
	check_int(name, f, hdr, nh, "Instances", (int64_t)st->n);
	check_int(name, f, hdr, nh, "Min (ns)", st->min);
	check_int(name, f, hdr, nh, "Max (ns)", st->max);
	check_int(name, f, hdr, nh, "P50 (ns)", st->p50);
	check_int(name, f, hdr, nh, "P90 (ns)", st->p90);
	check_int(name, f, hdr, nh, "P99 (ns)", st->p99);
	check_real(name, f, hdr, nh, "Mean (ns)", st->mean);
	check_real(name, f, hdr, nh, "StdDev (ns)", st->sd);
	if (st->busy > 0)
		check_real(name, f, hdr, nh, "Busy (%)", 100.0 * (double)st->total / (double)st->busy);
	else if (find(hdr, nh, "Busy (%)") < 0 || f[find(hdr, nh, "Busy (%)")][0])
		bad(name, "Busy (%)", "a value", "(empty)");
}

/* Whether a comes before b in the report's order. */
static bool before(const struct stats *a, const struct stats *b)
{
	if (a->total != b->total)
		return a->total > b->total;
	if (a->n != b->n)
		return a->n < b->n;
	return strcmp(names[a->name], names[b->name]) < 0;
}

int main(int argc, char **argv)
{
	if (argc != 3 && argc != 5)
		die("usage: brute_kern_dist EXPORT demangledName|shortName|mangledName [WSTART WEND] < tsv");
	bool window = argc == 5;
	int64_t ws = window ? atoll(argv[3]) : 0, we = window ? atoll(argv[4]) : 0;
	sqlite3 *db;
	if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		die("cannot open the export");
	read_kernels(db, argv[2], window, ws, we);
	static const char *const tables[] = {
		"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
		"CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_GRAPH_TRACE",
	};
	for (int t = 0; t < 4; t++)
		read_ops(db, tables[t], window, ws, we);
	sqlite3_close(db);

	static char hline[1 << 16], line[1 << 16];
	char *hdr[MAXF], *f[MAXF];
	/* a report without rows prints nothing at all, not even its header */
	int nh = fgets(hline, sizeof hline, stdin) ? split_tsv(hline, hdr) : 0;
	int iname = nh ? find(hdr, nh, "Name") : 0;
	if (iname < 0)
		die("no Name column");
	struct stats prev = { 0 };
	bool *printed = calloc(nnames + 1, sizeof *printed);
	size_t rows = 0;
	while (nh && fgets(line, sizeof line, stdin)) {
		if (line[0] == '\n')
			continue;
		int nf = split_tsv(line, f);
		if (nf != nh) {
			printf("row %zu: %d fields, the header has %d\n", rows + 1, nf, nh);
			failures++;
			continue;
		}
		int k = -1;
		for (size_t i = 0; i < nnames && k < 0; i++)
			if (strcmp(names[i], f[iname]) == 0)
				k = (int)i;
		if (k < 0 || printed[k]) {
			bad(f[iname], "Name", k < 0 ? "a name" : "twice", k < 0 ? "no such kernel" : "once");
			continue;
		}
		printed[k] = true;
		struct stats st;
		stats_of(k, &st);
		check_row(f, hdr, nh, &st);
		if (rows > 0 && !before(&prev, &st)) {
			printf("%s comes after %s: out of order\n", names[st.name], names[prev.name]);
			failures++;
		}
		prev = st;
		rows++;
	}
	if (rows != nnames) {
		printf("nstats printed %zu kernels, brute force finds %zu\n", rows, nnames);
		failures++;
	}
	free(printed);
	for (size_t i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	free(launches);
	free(gops);
	if (!failures)
		printf("ok: %zu kernels agree\n", rows);
	return failures ? 1 : 0;
}
