#include "reports/graph_note.h"

#include <inttypes.h>

#include "core/sqlstat.h"
#include "reports/common.h"

const struct nst_need nst_graph_note_needs[] = {
	{ GRAPH_TRACE, "start", false }, { GRAPH_TRACE, "end", false },
	{ NULL, NULL, false },
};

enum nst_status nst_graph_time_of(struct nst_events *ev, struct nst_graph_time *out,
				  struct nst_error *err)
{
	const int64_t *start = NULL, *end = NULL;
	*out = (struct nst_graph_time){ 0 };
	enum nst_status s = nst_ev_rows(ev, GRAPH_TRACE, &out->launches, err);
	if (s == NST_OK && out->launches)
		s = nst_ev_i64(ev, GRAPH_TRACE, "start", &start, err);
	if (s == NST_OK && out->launches)
		s = nst_ev_i64(ev, GRAPH_TRACE, "end", &end, err);
	if (s != NST_OK)
		return s;
	for (size_t i = 0; start && end && i < out->launches; i++)
		if (start[i] != NST_NULL_I64 && end[i] != NST_NULL_I64 &&
		    !nst_add_i64(&out->ns, end[i] - start[i]))
			return nst_fail_sum(err);
	return NST_OK;
}

/* 3456789 as "3,456,789", whatever the locale: stderr is read by people
 * and by scripts alike, and the comma never changes meaning there. */
static void print_grouped(FILE *fp, int64_t v)
{
	char digits[24];
	int n = snprintf(digits, sizeof digits, "%" PRId64, v);
	int lead = digits[0] == '-';
	for (int i = 0; i < n; i++) {
		fputc(digits[i], fp);
		int left = n - 1 - i;
		if (i >= lead && left > 0 && left % 3 == 0)
			fputc(',', fp);
	}
}

void nst_graph_note_print(FILE *fp, const char *report, const char *export_path,
			  const struct nst_graph_time *g)
{
	if (g->launches == 0)
		return;
	bool one = g->launches == 1;
	fprintf(fp, "nstats: note: %s on %s: %zu CUDA graph launch%s (", report, export_path,
		g->launches, one ? "" : "es");
	print_grouped(fp, g->ns);
	fprintf(fp, " ns of GPU time in %s) %s not in this report: %s kernels were traced "
		"at graph level (--cuda-graph-trace=graph)\n", GRAPH_TRACE, one ? "is" : "are",
		one ? "its" : "their");
}
