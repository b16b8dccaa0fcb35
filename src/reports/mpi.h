/* The MPI event tables that mpi_event_sum and mpi_event_trace read. */
#ifndef NSTATS_REPORTS_MPI_H
#define NSTATS_REPORTS_MPI_H

#include "reports/common.h"

#define MPI_P2P "MPI_P2P_EVENTS"
#define MPI_COLL "MPI_COLLECTIVES_EVENTS"
#define MPI_START_WAIT "MPI_START_WAIT_EVENTS"
#define MPI_OTHER "MPI_OTHER_EVENTS"
#define MPI_RANKS "MPI_RANKS"

/* NST_OK when the export has at least one MPI event table, else nsys's
 * SKIPPED message; StringIds is needed for the event names. */
enum nst_status nst_mpi_check(struct nst_ctx *ctx, struct nst_error *err);

#endif
