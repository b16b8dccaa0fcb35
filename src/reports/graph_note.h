/* CUDA graphs traced at graph level (--cuda-graph-trace=graph): each graph
 * launch is one CUPTI_ACTIVITY_KIND_GRAPH_TRACE row and its kernels are
 * not in CUPTI_ACTIVITY_KIND_KERNEL, so every kernel report misses their
 * time.  The run measures these rows after a report flagged
 * NST_REPORT_KERNELS runs (struct nst_run_result); the command line says
 * so in one note on stderr. */
#ifndef NSTATS_REPORTS_GRAPH_NOTE_H
#define NSTATS_REPORTS_GRAPH_NOTE_H

#include "reports/report.h"

#define GRAPH_TRACE "CUPTI_ACTIVITY_KIND_GRAPH_TRACE"

/* The columns the measure reads: start and end only, so that the table
 * costs nothing in an export without it and little in one with it. */
extern const struct nst_need nst_graph_note_needs[];

struct nst_graph_time {
	size_t launches; /* rows of the table as ev shows it */
	int64_t ns;      /* the sum of end - start over the rows that have both */
};

/* The graph launches as ev shows them (its filter applies).  A missing
 * table or column measures as nothing; only running out of memory or a
 * failed read is an error. */
enum nst_status nst_graph_time_of(struct nst_events *ev, struct nst_graph_time *out,
				  struct nst_error *err);

#endif
