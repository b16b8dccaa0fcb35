/* The page of `nstats summary`: sections laid out from the reports' rows
 * (summary.c).  Numbers are the reports' own, in a unit chosen per column;
 * only shares of a whole and shortened names are made here. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/summary.h"

/* ---- owned strings ------------------------------------------------------------ */

struct pool {
	char **s;
	size_t n, cap;
	bool failed;
};

static const char *pool_printf(struct pool *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static const char *pool_printf(struct pool *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *str = NULL;
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 64;
		char **grown = realloc(p->s, cap * sizeof *grown);
		if (!grown) {
			p->failed = true;
			return "";
		}
		p->s = grown;
		p->cap = cap;
	}
	if (n < 0 || !(str = malloc((size_t)n + 1))) {
		p->failed = true;
		return "";
	}
	va_start(ap, fmt);
	vsnprintf(str, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p->s[p->n++] = str;
}

static void pool_release(struct pool *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->s[i]);
	free(p->s);
}

/* ---- units ------------------------------------------------------------------- */

enum kind { K_TIME, K_BYTES, K_PCT, K_INT, K_TEXT };

static double value_of(const struct nst_cell *c)
{
	return c->kind == NST_INT ? (double)c->v.i : c->kind == NST_REAL ? c->v.r : 0.0;
}

static const char *unit_name(enum kind k, int64_t unit)
{
	static const char *const time[] = { "ns", "us", "ms", "s" };
	static const char *const bytes[] = { "B", "KB", "MB", "GB" };
	size_t i = unit >= 1000000000 ? 3 : unit >= 1000000 ? 2 : unit >= 1000 ? 1 : 0;
	return k == K_TIME ? time[i] : bytes[i];
}

/* The largest of 1, 1e3, 1e6, 1e9 that the largest value reaches. */
static int64_t unit_for(double largest)
{
	int64_t unit = 1;
	while (unit < 1000000000 && largest >= (double)unit * 1000)
		unit *= 1000;
	return unit;
}

static const char *format_cell(struct pool *p, const struct nst_cell *c, enum kind k,
			       int64_t unit)
{
	if (c->kind == NST_NULL)
		return "";
	if (c->kind == NST_TEXT)
		return pool_printf(p, "%s", c->v.s);
	if (k == K_PCT)
		return pool_printf(p, "%.1f", value_of(c));
	if (k == K_INT || ((k == K_TIME || k == K_BYTES) && unit == 1))
		return c->kind == NST_INT ? pool_printf(p, "%" PRId64, c->v.i)
					  : pool_printf(p, "%.1f", c->v.r);
	return pool_printf(p, "%.3f", value_of(c) / (double)unit);
}

/* ---- tables of report columns --------------------------------------------------- */

/* A column shown: the report's column `label`, headed `head` (and its
 * unit); columns of the same nonzero `same` share one unit, so that a
 * row's percentiles read against each other. */
struct field {
	const char *label, *head;
	enum kind kind;
	int drop, same;
};

static double largest_of(const struct nst_rows *t, int col)
{
	double largest = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		double v = value_of(nst_rows_cell(t, r, col));
		largest = v > largest ? v : largest;
	}
	return largest;
}

static int64_t column_unit(const struct sum_settings *set, const struct nst_rows *t,
			   const struct field *f, size_t nf, size_t i)
{
	if (f[i].kind == K_TIME && set->time_unit)
		return set->time_unit;
	double largest = largest_of(t, nst_rows_col(t, f[i].label));
	for (size_t j = 0; j < nf; j++)
		if (f[i].same && f[j].same == f[i].same) {
			double v = largest_of(t, nst_rows_col(t, f[j].label));
			largest = v > largest ? v : largest;
		}
	return unit_for(largest);
}

static bool show_fields(const struct sum_settings *set, const struct nst_rows *t,
			const struct field *f, size_t nf)
{
	struct pool p = { 0 };
	struct lay_col cols[16];
	const char **cells = calloc(t->nrows * nf + 1, sizeof *cells);
	for (size_t i = 0; cells && i < nf; i++) {
		int col = nst_rows_col(t, f[i].label);
		enum kind k = f[i].kind;
		int64_t unit = k == K_TIME || k == K_BYTES ? column_unit(set, t, f, nf, i) : 1;
		cols[i] = (struct lay_col){
			k == K_TIME || k == K_BYTES ? pool_printf(&p, "%s (%s)", f[i].head, unit_name(k, unit))
						    : f[i].head,
			f[i].drop,
		};
		for (size_t r = 0; r < t->nrows; r++)
			cells[r * nf + i] = format_cell(&p, nst_rows_cell(t, r, col), k, unit);
	}
	bool ok = cells && !p.failed &&
		  lay_table(&set->out, &(struct lay_table){ cols, nf, cells, t->nrows });
	free(cells);
	pool_release(&p);
	return ok;
}

/* A section: its title, then its table or one line saying there is none. */
static bool section(const struct sum_settings *set, const struct nst_rows *t, const char *title,
		    const char *none, const struct field *f, size_t nf)
{
	fputc('\n', set->out.fp);
	if (!t->begun || t->nrows == 0) {
		char line[256];
		snprintf(line, sizeof line, "%s: %s", title, none);
		lay_line(&set->out, line);
		return true;
	}
	lay_title(&set->out, title);
	return show_fields(set, t, f, nf);
}

#define COUNT(a) (sizeof(a) / sizeof *(a))

/* ---- the sections ------------------------------------------------------------- */

static const char *property(const struct nst_rows *t, const char *name)
{
	for (size_t r = 0; r < t->nrows; r++) {
		const struct nst_cell *k = nst_rows_cell(t, r, 0), *v = nst_rows_cell(t, r, 1);
		if (k->kind == NST_TEXT && strcmp(k->v.s, name) == 0 && v->kind == NST_TEXT)
			return v->v.s;
	}
	return NULL;
}

static void versions_line(const struct sum_settings *set, const struct nst_rows *t)
{
	const char *nsys = property(t, "Nsight Systems Version");
	const char *schema = property(t, "Export Schema");
	char line[512];
	if (!nsys && !schema)
		return;
	snprintf(line, sizeof line, "  %s%s%s%s%s", nsys ? "Nsight Systems " : "", nsys ? nsys : "",
		 nsys && schema ? ", " : "", schema ? "export schema " : "", schema ? schema : "");
	lay_line(&set->out, line);
}

static bool is_process(const struct nst_rows *t, size_t r)
{
	const struct nst_cell *k = nst_rows_cell(t, r, 0), *v = nst_rows_cell(t, r, 1);
	return k->kind == NST_TEXT && strcmp(k->v.s, "Process") == 0 && v->kind == NST_TEXT;
}

/* "Capture 1.234 s, 3 processes: a (pid 1), b (pid 2)", cut at the width. */
static bool capture_line(const struct sum_settings *set, const struct nst_rows *t)
{
	struct pool p = { 0 };
	const char *dur = property(t, "Capture Duration (ns)");
	const char *line = pool_printf(&p, "  ");
	if (dur) {
		struct nst_cell c = { .kind = NST_INT, .v.i = strtoll(dur, NULL, 10) };
		int64_t unit = set->time_unit ? set->time_unit : unit_for(value_of(&c));
		line = pool_printf(&p, "%sCapture %s %s", line, format_cell(&p, &c, K_TIME, unit),
				   unit_name(K_TIME, unit));
	}
	size_t nproc = 0;
	for (size_t r = 0; r < t->nrows; r++)
		nproc += is_process(t, r);
	if (nproc)
		line = pool_printf(&p, "%s%s%zu process%s:", line, dur ? ", " : "", nproc,
				   nproc == 1 ? "" : "es");
	for (size_t r = 0, k = 0; r < t->nrows && k < 64; r++)
		if (is_process(t, r))
			line = pool_printf(&p, "%s%s %s", line, k++ ? "," : "", nst_rows_cell(t, r, 1)->v.s);
	if (dur || nproc)
		lay_line(&set->out, line);
	bool ok = !p.failed;
	pool_release(&p);
	return ok;
}

static bool show_capture(const struct sum_settings *set, const struct sum_page *pg)
{
	lay_title(&set->out, pg->path);
	versions_line(set, &pg->part[SUM_CAPTURE]);
	return capture_line(set, &pg->part[SUM_CAPTURE]);
}

static bool show_devices(const struct sum_settings *set, const struct sum_page *pg)
{
	static const struct field f[] = {
		{ "Busy", "Busy", K_TIME, 0, 0 },
		{ "Capture Util", "Busy (%)", K_PCT, 0, 0 },
		{ "Idle", "Idle", K_TIME, 2, 0 },
		{ "Overlap", "Overlap", K_TIME, 3, 0 },
		{ "Idle Gaps", "Gaps", K_INT, 4, 0 },
		{ "Device", "Device", K_INT, 0, 0 },
	};
	return section(set, &pg->part[SUM_DEVICES], "GPUs: busy time of the capture (gpu_time_sum)",
		       "none in this export", f, COUNT(f));
}

static bool show_kernels(const struct sum_settings *set, const struct sum_page *pg)
{
	static const struct field f[] = {
		{ "Total Time", "Total", K_TIME, 0, 0 },
		{ "Busy", "Busy (%)", K_PCT, 0, 0 },
		{ "Instances", "Count", K_INT, 1, 0 },
		{ "Mean", "Mean", K_TIME, 5, 1 },
		{ "P50", "P50", K_TIME, 3, 1 },
		{ "P90", "P90", K_TIME, 4, 1 },
		{ "P99", "P99", K_TIME, 2, 1 },
		{ "Name", "Name", K_TEXT, 0, 0 },
	};
	char title[128];
	snprintf(title, sizeof title, "Top %zu kernels by total time (cuda_gpu_kern_dist)", set->top);
	if (!section(set, &pg->part[SUM_KERNELS], title, "none in this export", f, COUNT(f)))
		return false;
	/* Two medians of one kernel can differ many times over, and both
	 * are called a median: say which one this is. */
	if (pg->part[SUM_KERNELS].begun && pg->part[SUM_KERNELS].nrows) {
		fputc('\n', set->out.fp);
		lay_styled(&set->out, "  P50: nearest-rank median (nsys's Med is the mean of the two "
			   "middle values)", LAY_FAINT);
	}
	return true;
}

/* The time and the size of each kind of transfer side by side, matched
 * by Operation (the two reports name the same kinds). */
static bool show_memory(const struct sum_settings *set, const struct sum_page *pg)
{
	static const struct field f[] = {
		{ "Count", "Count", K_INT, 1, 0 },
		{ "Total", "Bytes", K_BYTES, 0, 0 },
		{ "Total Time", "Time", K_TIME, 0, 0 },
		{ "Operation", "Operation", K_TEXT, 0, 0 },
	};
	static char *cols[] = { "Count", "Total", "Total Time", "Operation" };
	const struct nst_rows *time = &pg->part[SUM_MEM_TIME], *size = &pg->part[SUM_MEM_SIZE];
	struct nst_rows both = { .cols = cols, .ncols = 4, .nrows = time->nrows, .begun = time->begun };
	both.cells = calloc(time->nrows * 4 + 1, sizeof *both.cells);
	if (!both.cells)
		return false;
	int op_t = nst_rows_col(time, "Operation"), op_s = nst_rows_col(size, "Operation");
	for (size_t r = 0; r < time->nrows; r++) {
		const struct nst_cell *op = nst_rows_cell(time, r, op_t);
		struct nst_cell *row = both.cells + r * 4;
		row[0] = *nst_rows_cell(time, r, nst_rows_col(time, "Count"));
		row[2] = *nst_rows_cell(time, r, nst_rows_col(time, "Total Time"));
		row[3] = *op;
		for (size_t k = 0; k < size->nrows && op->kind == NST_TEXT; k++)
			if (nst_rows_cell(size, k, op_s)->kind == NST_TEXT &&
			    strcmp(nst_rows_cell(size, k, op_s)->v.s, op->v.s) == 0)
				row[1] = *nst_rows_cell(size, k, nst_rows_col(size, "Total"));
	}
	bool ok = section(set, &both, "Memory transfers (cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum)",
			  "none in this export", f, COUNT(f));
	free(both.cells);
	return ok;
}

static bool show_api(const struct sum_settings *set, const struct sum_page *pg)
{
	static const struct field f[] = {
		{ "Total Time", "Total", K_TIME, 0, 0 },
		{ "Time", "Time (%)", K_PCT, 0, 0 },
		{ "Num Calls", "Calls", K_INT, 1, 0 },
		{ "Avg", "Mean", K_TIME, 2, 0 },
		{ "Name", "Name", K_TEXT, 0, 0 },
	};
	char title[128];
	snprintf(title, sizeof title, "Top %zu CUDA API functions by time (cuda_api_sum)", set->top);
	return section(set, &pg->part[SUM_API], title, "none in this export", f,
		       COUNT(f));
}

static bool show_nvtx(const struct sum_settings *set, const struct sum_page *pg)
{
	static const struct field f[] = {
		{ "Total Time", "Total", K_TIME, 0, 0 },
		{ "Time", "Time (%)", K_PCT, 0, 0 },
		{ "Instances", "Count", K_INT, 1, 0 },
		{ "Avg", "Mean", K_TIME, 2, 0 },
		{ "Range", "Range", K_TEXT, 0, 0 },
	};
	char title[128];
	snprintf(title, sizeof title, "Top %zu NVTX ranges by time (nvtx_sum)", set->top);
	return section(set, &pg->part[SUM_NVTX], title, "none in this export", f,
		       COUNT(f));
}

/* "! orphan_gpu_rows: 31 GPU rows without a launching call (note)", as
 * check prints it: the name first, so that a narrow page cuts the words. */
static const char *finding_line(struct pool *p, const struct nst_rows *t, size_t r, int name,
				int count, int note)
{
	const char *id = nst_rows_cell(t, r, name)->kind == NST_TEXT ? nst_rows_cell(t, r, name)->v.s : "";
	const struct nst_cell *n = nst_rows_cell(t, r, note);
	struct nst_about about;
	const char *title = nst_catalog_find(NST_FINDINGS, id, &about) ? about.title : "";
	return pool_printf(p, "  ! %s: %s %s%s%s%s", id, format_cell(p, nst_rows_cell(t, r, count), K_INT, 1),
			   title, n->kind == NST_TEXT ? " (" : "", n->kind == NST_TEXT ? n->v.s : "",
			   n->kind == NST_TEXT ? ")" : "");
}

/* What the audit counted, one line a finding: "! 31 GPU rows ... (name)". */
static bool show_findings(const struct sum_settings *set, const struct sum_page *pg)
{
	const struct nst_rows *t = &pg->part[SUM_AUDIT];
	const char *title = "Findings (nstats check)";
	struct pool p = { 0 };
	int name = nst_rows_col(t, "Finding"), status = nst_rows_col(t, "Status");
	int count = nst_rows_col(t, "Count"), note = nst_rows_col(t, "Note");
	size_t shown = 0;
	fputc('\n', set->out.fp);
	for (size_t r = 0; r < t->nrows; r++) {
		const struct nst_cell *st = nst_rows_cell(t, r, status);
		if (st->kind != NST_TEXT || strcmp(st->v.s, "FOUND") != 0)
			continue;
		if (!shown++)
			lay_title(&set->out, title);
		lay_styled(&set->out, finding_line(&p, t, r, name, count, note), LAY_YELLOW);
	}
	if (!shown)
		lay_line(&set->out, pool_printf(&p, "%s: nothing found", title));
	bool ok = !p.failed;
	pool_release(&p);
	return ok;
}

bool sum_show(const struct sum_settings *set, const struct sum_page *pg)
{
	return show_capture(set, pg) && show_devices(set, pg) && show_kernels(set, pg) &&
	       show_memory(set, pg) && show_api(set, pg) && show_nvtx(set, pg) &&
	       show_findings(set, pg);
}
