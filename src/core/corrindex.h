/* An index from (process, correlationId) to a row.  Correlation ids are
 * nearly dense within a process, so each process gets a direct-address
 * array over its id range; a process whose ids are too sparse for that
 * falls back to a hash map.  Built once, then read-only (lookups may run
 * on several threads at once). */
#ifndef NSTATS_CORE_CORRINDEX_H
#define NSTATS_CORE_CORRINDEX_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/col.h"
#include "core/hashmap.h"

struct nst_corrindex {
	struct corr_proc *procs;
	size_t nprocs;
	struct nst_map sparse; /* (process, id) of the sparse processes */
	/* The process found last: lookups come in runs of one process.  A
	 * hint that reports on several threads may set at once. */
	_Atomic size_t last;
	/* Rows whose key an earlier row took, and that row, in row order. */
	size_t ndups, dups_cap;
	uint32_t *dup_row, *dup_first;
};

/* Indexes rows[0..n) (rows NULL: rows 0..n) by (process[r] & mask,
 * id[r]); rows whose process or id is NULL are left out.  The first row
 * of a key wins.  Returns -1 when out of memory. */
int nst_corrindex_build(struct nst_corrindex *x, const struct nst_col *process,
			uint64_t mask, const struct nst_col *id, const uint32_t *rows,
			size_t n);
/* The rows sharing a key (rare: a driver call nested in the runtime call
 * it serves) as chains: *next (nst_big_alloc'ed, nrows
 * entries, nrows above every indexed row) holds, for each indexed row,
 * the next row in row order with its key, UINT32_MAX after the last;
 * NULL when no two rows share a key.  Returns -1 when out of memory. */
int nst_corrindex_chain(const struct nst_corrindex *x, size_t nrows, uint32_t **next);
/* The k-th process met (k < x->nprocs) when its ids are dense: its key,
 * id range [*lo, *hi] and *row, the row of each id (UINT32_MAX for none);
 * false for a process kept in the sparse map. */
bool nst_corrindex_dense(const struct nst_corrindex *x, size_t k, int64_t *process, int64_t *lo,
			 int64_t *hi, const uint32_t **row);
/* The row for (process, id), or -1. */
int64_t nst_corrindex_find(struct nst_corrindex *x, int64_t process, int64_t id);
void nst_corrindex_release(struct nst_corrindex *x);

#endif
