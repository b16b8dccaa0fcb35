/* `nstats recipe`: what its drivers share.  A driver reads the inputs
 * into parts and merges them: here (-j 1), in worker processes
 * (recipe_local.c), or across MPI ranks (src/mpi/recipe_mpi.c, in
 * nstats-mpi only). */
#ifndef NSTATS_CLI_RECIPE_H
#define NSTATS_CLI_RECIPE_H

#include <stdbool.h>
#include <stddef.h>

#include "nstats/nstats.h"

struct recipe_plan {
	const struct nst_job *job;
	char *const *inputs;
	size_t ninputs;
	enum nst_ranks ranks;
	const struct nst_filter *filter;
	bool quiet;
};

/* Input i read into its part; err names the input. */
enum nst_status recipe_read_input(const struct recipe_plan *p, size_t i, struct nst_part **out,
				  struct nst_error *err);

/* Every input read by `jobs` processes (1: this one) and merged into m.
 * A broken input is one line on stderr and counts in *failed; returns 0
 * or an exit code for what stops the whole run. */
int recipe_local(const struct recipe_plan *p, int jobs, struct nst_merge *m, size_t *failed);

/* Under mpirun: the inputs split among the MPI ranks, the groups among
 * their owners; *writer is true on the rank whose m holds every row (the
 * one that writes), and there *failed is the inputs that failed on any
 * rank.  Elsewhere *failed is 0: a rank that exits non-zero makes mpirun
 * kill the others, the writer maybe before it has written, and mpirun
 * exits with the writer's status anyway.  Without
 * MPI built in, it runs nstats-mpi beside this program, or says that
 * there is none. */
int recipe_mpi(const struct recipe_plan *p, char **argv, struct nst_merge *m, size_t *failed,
	       bool *writer);

#endif
