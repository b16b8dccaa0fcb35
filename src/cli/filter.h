/* The time and NVTX filters of `nstats stats` (and analyze): the options
 * --filter-time and --filter-nvtx, the report arguments start=, end= and
 * nvtx= that every report takes, and the filtered events of each filter
 * used in a run over one export. */
#ifndef NSTATS_CLI_FILTER_H
#define NSTATS_CLI_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "events/events.h"
#include "reports/report.h"

/* As nsys passes it to a report: start=, end=, nvtx=. */
struct filter_spec {
	bool has_start, has_end;
	int64_t start, end;
	const char *nvtx; /* NULL: none */
};

/* --filter-time [START]/[END]: nanoseconds, or numbers with units
 * (1s2ms); an omitted time is the smallest or largest there is.  Prints
 * a one-line error and returns EXIT_USAGE when it is not a time range. */
int filter_parse_time(const char *cmd, const char *arg, struct filter_spec *f);
/* --filter-nvtx NAME[@DOMAIN][/INDEX]; as in nsys, it wins over
 * --filter-time (filter_of_report drops the times). */
void filter_set_nvtx(struct filter_spec *f, const char *arg);

/* The report arguments every report takes. */
extern const char *const filter_arg_names[];
bool filter_is_arg(const char *key);
/* Prints a one-line error and returns EXIT_USAGE when a start=/end=/nvtx=
 * argument of `report` has no value or start/end is not an integer. */
int filter_check_arg(const char *report, const struct nst_arg *a);

/* A report's filter: the command's, then its own arguments, the last of
 * each winning (nsys puts the command's before the report's). */
void filter_of_report(const struct filter_spec *cmd, const struct nst_arg *args,
		      size_t nargs, struct filter_spec *out);

/* The events (and what reports derive from them) that each filter of a
 * run over one export sees, made once per distinct filter. */
struct filter_views;
struct filter_views *filter_views_new(struct nst_db *db, struct nst_events *all,
				      struct nst_shared *all_shared);
/* NST_ERR_NODATA with nsys's message when the NVTX range is not there;
 * *ev is then a view without rows, for the report's own checks of its
 * tables, which nsys makes first. */
enum nst_status filter_views_get(struct filter_views *fv, const struct filter_spec *f,
				 struct nst_events **ev, struct nst_shared **shared,
				 struct nst_error *err);
void filter_views_free(struct filter_views *fv);

#endif
