/* What the MPI reports share. */
#include "reports/mpi.h"

enum nst_status nst_mpi_check(struct nst_ctx *ctx, struct nst_error *err)
{
	static const char *const tables[] = { MPI_P2P, MPI_COLL, MPI_START_WAIT, MPI_OTHER };
	for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
		if (nst_db_has_table(ctx->db, tables[i]))
			return nst_require_strings(ctx, err);
	return nst_nodata(ctx, err, "MPI event data.");
}
