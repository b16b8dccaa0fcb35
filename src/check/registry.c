/* Every finding of `nstats check`, in the order it runs and prints;
 * --help is made from this table.  capture_options reads the others'
 * results, so it stays last. */
#include "check/check.h"

extern const struct chk_finding chk_schema;
extern const struct chk_finding chk_skipped_reports;
extern const struct chk_finding chk_backtrace_rows;
extern const struct chk_finding chk_orphan_gpu_rows;
extern const struct chk_finding chk_launches_without_gpu;
extern const struct chk_finding chk_duplicate_gpu_rows;
extern const struct chk_finding chk_correlation_collisions;
extern const struct chk_finding chk_bad_durations;
extern const struct chk_finding chk_stream_overlap;
extern const struct chk_finding chk_open_ranges;
extern const struct chk_finding chk_truncated_capture;
extern const struct chk_finding chk_graph_trace_rows;
extern const struct chk_finding chk_capture_options;

static const struct chk_finding *const findings[] = {
	&chk_schema,
	&chk_skipped_reports,
	&chk_backtrace_rows,
	&chk_orphan_gpu_rows,
	&chk_launches_without_gpu,
	&chk_duplicate_gpu_rows,
	&chk_correlation_collisions,
	&chk_bad_durations,
	&chk_stream_overlap,
	&chk_open_ranges,
	&chk_truncated_capture,
	&chk_graph_trace_rows,
	&chk_capture_options,
};

const struct chk_finding *const *chk_findings(size_t *n)
{
	*n = sizeof findings / sizeof *findings;
	return findings;
}
