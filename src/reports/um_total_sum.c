/* um_total_sum: unified memory totals: bytes migrated each way, page
 * faults, and the range of virtual addresses involved. */
#include "reports/um.h"

/* What SQL's sum() gives: NULL over no rows. */
static struct nst_cell total(const struct nst_um_source *src)
{
	return src->n == 0 ? nst_null() : nst_int(src->total);
}

static int64_t count(const struct nst_um_source *src)
{
	int64_t rows = 0;
	for (size_t i = 0; i < src->n; i++)
		rows += src->a[i].rows;
	return rows;
}

/* The lowest or highest non-NULL address of a source, or NULL. */
static int64_t extreme(const struct nst_um_source *src, bool highest)
{
	size_t first = src->n && src->a[0].addr == NST_NULL_I64 ? 1 : 0;
	if (first >= src->n)
		return NST_NULL_I64;
	return highest ? src->a[src->n - 1].addr : src->a[first].addr;
}

/* nsys takes the scalar min()/max() of the four sources' extremes, which
 * is NULL as soon as one source has no address at all. */
static struct nst_cell address_bound(const struct nst_um *um, bool highest)
{
	int64_t best = NST_NULL_I64;
	for (int k = 0; k < NST_UM_SOURCES; k++) {
		int64_t v = extreme(&um->src[k], highest);
		if (v == NST_NULL_I64)
			return nst_null();
		if (best == NST_NULL_I64 || (highest ? v > best : v < best))
			best = v;
	}
	return nst_int(best);
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	static const char *const cols[] = {
		"Total HtoD Migration Size:mem_B", "Total DtoH Migration Size:mem_B",
		"Total CPU Page Faults", "Total GPU PageFaults",
		"Minimum Virtual Address:addr_uint", "Maximum Virtual Address:addr_uint",
	};
	struct nst_um um;
	enum nst_status s = nst_um_load(ctx, &um, err);
	if (s != NST_OK)
		return s;
	struct nst_cell c[6] = {
		total(&um.src[NST_UM_H2D]),
		total(&um.src[NST_UM_D2H]),
		nst_int(count(&um.src[NST_UM_CPU])),
		total(&um.src[NST_UM_GPU]),
		address_bound(&um, false),
		address_bound(&um, true),
	};
	s = out->begin(out->ctx, cols, 6, err);
	if (s == NST_OK)
		s = out->row(out->ctx, c, err);
	nst_um_release(&um);
	return s;
}

static const struct nst_need needs[] = {
	NST_UM_NEEDS,
	{ NULL, NULL, false },
};

const struct nst_report nst_report_um_total_sum = {
	.name = "um_total_sum",
	.title = "Unified Memory Totals Summary",
	.help = "Unified memory totals: bytes migrated host to device and device to\n"
		"host, CPU and GPU page faults, and the lowest and highest virtual\n"
		"address involved (empty unless migrations both ways and faults of\n"
		"both kinds all name addresses, as nsys computes it).\n"
		NST_TOP_ROWS_HELP,
	.args = (const char *const[]){ "rows", NULL },
	.needs = needs,
	.requires = nst_um_tables,
	.run = run,
	.flags = NST_REPORT_TOP_ROWS,
};
