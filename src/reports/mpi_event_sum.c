/* mpi_event_sum: time spent in each MPI function, by the table its events
 * are kept in. */
#include "reports/event_sum.h"
#include "reports/mpi.h"

/* In the order nsys leaves equal totals: by source name. */
static const struct nst_event_source sources[] = {
	{ MPI_COLL, "textId", "collectives" },
	{ MPI_OTHER, "textId", "other" },
	{ MPI_P2P, "textId", "p2p" },
	{ MPI_START_WAIT, "textId", "start-wait" },
};

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	enum nst_status s = nst_mpi_check(ctx, err);
	if (s != NST_OK)
		return s;
	return nst_event_summary(ctx, out, sources, sizeof sources / sizeof *sources,
				 "Instances", "Source", err);
}

static const struct nst_need needs[] = {
	NST_EVENT_SOURCE_NEEDS(MPI_COLL, "textId"),
	NST_EVENT_SOURCE_NEEDS(MPI_OTHER, "textId"),
	NST_EVENT_SOURCE_NEEDS(MPI_P2P, "textId"),
	NST_EVENT_SOURCE_NEEDS(MPI_START_WAIT, "textId"),
	{ NULL, NULL, false },
};

const struct nst_report nst_report_mpi_event_sum = {
	.name = "mpi_event_sum",
	.title = "MPI Event Summary",
	.help = "Time spent in each MPI function, by the kind of event that records\n"
		"it (Source: p2p, collectives, start-wait or other): the number of\n"
		"events, their total time and its share, and the average, median,\n"
		"minimum, maximum and standard deviation of one event. An event\n"
		"without an end counts as an instance but adds no time.\n"
		NST_TOP_ROWS_HELP,
	.args = (const char *const[]){ "rows", NULL },
	.needs = needs,
	.run = run,
	.flags = NST_REPORT_CHECKS_AFTER_FILTER | NST_REPORT_TOP_ROWS,
};
