/* um_sum: unified memory migrations and page faults per virtual address,
 * by migration throughput. */
#include <errno.h>
#include <stdlib.h>

#include "reports/um.h"

#define DEFAULT_ROWS 10

/* One output row: an address and what each source holds for it. */
struct um_row {
	int64_t addr;
	const struct nst_um_addr *of[NST_UM_SOURCES];
	struct nst_cell thru;
};

static int64_t sum_of(const struct nst_um_addr *a) { return a ? a->sum : 0; }
static int64_t dur_of(const struct nst_um_addr *a) { return a ? a->dur : 0; }

/* Bytes migrated times whole nanosecond periods per second: nsys divides
 * 1e9 by the total duration in integers first.  No duration, no value;
 * a product beyond 64 bits becomes a REAL, as in SQLite. */
static struct nst_cell throughput(const struct um_row *r)
{
	int64_t bytes = sum_of(r->of[NST_UM_H2D]) + sum_of(r->of[NST_UM_D2H]);
	int64_t dur = dur_of(r->of[NST_UM_H2D]) + dur_of(r->of[NST_UM_D2H]);
	if (dur == 0)
		return nst_null();
	int64_t per = 1000000000 / dur, v;
	if (__builtin_mul_overflow(bytes, per, &v))
		return nst_real((double)bytes * (double)per);
	return nst_int(v);
}

static double as_double(struct nst_cell c)
{
	return c.kind == NST_INT ? (double)c.v.i : c.v.r;
}

/* Throughput descending, NULL last; the sort is stable. */
static int cmp_thru(uint32_t a, uint32_t b, void *arg)
{
	const struct um_row *r = arg;
	struct nst_cell x = r[a].thru, y = r[b].thru;
	if (x.kind == NST_NULL || y.kind == NST_NULL)
		return (x.kind == NST_NULL) - (y.kind == NST_NULL);
	if (x.kind == NST_INT && y.kind == NST_INT)
		return (x.v.i < y.v.i) - (x.v.i > y.v.i);
	double dx = as_double(x), dy = as_double(y);
	return (dx < dy) - (dx > dy);
}

/* Whether an earlier source already gave the address its row (a NULL
 * address never matches one). */
static bool seen_before(const struct nst_um *um, int src, int64_t addr)
{
	for (int k = 0; k < src; k++)
		if (nst_um_find(&um->src[k], addr))
			return true;
	return false;
}

/* nsys emulates a full outer join of the four sources: each address gets
 * one row, from the first source that has it, in that source's address
 * order. */
static size_t collect_rows(const struct nst_um *um, struct um_row *rows)
{
	size_t n = 0;
	for (int src = 0; src < NST_UM_SOURCES; src++) {
		for (size_t i = 0; i < um->src[src].n; i++) {
			int64_t addr = um->src[src].a[i].addr;
			if (seen_before(um, src, addr))
				continue;
			struct um_row *r = &rows[n++];
			r->addr = addr;
			for (int k = 0; k < NST_UM_SOURCES; k++)
				r->of[k] = k == src ? &um->src[src].a[i] : nst_um_find(&um->src[k], addr);
			r->thru = throughput(r);
		}
	}
	return n;
}

static struct nst_cell sum_cell(const struct nst_um_addr *a, bool count)
{
	if (!a)
		return nst_null();
	return nst_int(count ? a->rows : a->sum);
}

static enum nst_status emit(const struct nst_sink *out, const struct um_row *rows,
			    const uint32_t *order, size_t n, struct nst_error *err)
{
	enum nst_status s;
	static const char *const cols[] = {
		"Virtual Address:addr_uint", "HtoD Migration size:mem_B",
		"DtoH Migration size:mem_B", "CPU Page Faults", " GPU Page Faults",
		"Migration Throughput:thru_B",
	};
	if ((s = out->begin(out->ctx, cols, 6, err)) != NST_OK)
		return s;
	for (size_t k = 0; k < n; k++) {
		const struct um_row *r = &rows[order[k]];
		struct nst_cell c[6] = {
			nst_int_or_null(r->addr),
			sum_cell(r->of[NST_UM_H2D], false),
			sum_cell(r->of[NST_UM_D2H], false),
			sum_cell(r->of[NST_UM_CPU], true),
			sum_cell(r->of[NST_UM_GPU], false),
			r->thru,
		};
		if ((s = out->row(out->ctx, c, err)) != NST_OK)
			return s;
	}
	return NST_OK;
}

/* rows=N as nsys's LIMIT takes it: a negative limit is none. */
static enum nst_status row_limit(const struct nst_ctx *ctx, int64_t *limit,
				 struct nst_error *err)
{
	const char *v = nst_ctx_value(ctx, "rows");
	*limit = DEFAULT_ROWS;
	if (nst_ctx_flag(ctx, "rows"))
		return nst_fail(err, NST_ERR_USAGE,
				"report 'um_sum': argument rows: expected one argument");
	if (!v)
		return NST_OK;
	char *end;
	errno = 0;
	long long n = strtoll(v, &end, 10);
	if (*v == '\0' || *end != '\0' || errno)
		return nst_fail(err, NST_ERR_USAGE,
				"report 'um_sum': argument rows: invalid int value: '%s'", v);
	*limit = n;
	return NST_OK;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	int64_t limit;
	struct nst_um um;
	enum nst_status s = row_limit(ctx, &limit, err);
	if (!s) s = nst_um_load(ctx, &um, err);
	if (s != NST_OK)
		return s;
	size_t cap = 1;
	for (int k = 0; k < NST_UM_SOURCES; k++)
		cap += um.src[k].n;
	struct um_row *rows = malloc(cap * sizeof *rows);
	uint32_t *order = malloc(cap * sizeof *order);
	if (!rows || !order) {
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	} else {
		size_t n = collect_rows(&um, rows);
		for (size_t k = 0; k < n; k++)
			order[k] = (uint32_t)k;
		nst_stable_sort(order, n, cmp_thru, rows);
		if (limit >= 0 && (uint64_t)limit < n)
			n = (size_t)limit;
		s = emit(out, rows, order, n, err);
	}
	free(rows);
	free(order);
	nst_um_release(&um);
	return s;
}

static const struct nst_need needs[] = {
	NST_UM_NEEDS,
	{ NULL, NULL, false },
};

const struct nst_report nst_report_um_sum = {
	.name = "um_sum",
	.title = "Unified Memory Analysis Summary",
	.help = "Unified memory per virtual address: bytes migrated host to device\n"
		"and device to host, CPU page faults, GPU page faults, and the\n"
		"migration throughput (bytes times whole periods of the total\n"
		"migration time per second), highest throughput first.\n"
		"rows=N keeps the first N rows (default 10; a negative N keeps all).",
	.args = (const char *const[]){ "rows", NULL },
	.needs = needs,
	.requires = nst_um_tables,
	.run = run,
};
