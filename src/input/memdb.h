/* The export a reader builds in memory: tables of the nsys schema made
 * from their real CREATE TABLE texts (src/db/schema.sql), filled row by
 * row, then finished with what only the whole input tells (the time
 * origin, the process of each GPU row, the session's span). */
#ifndef NSTATS_INPUT_MEMDB_H
#define NSTATS_INPUT_MEMDB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "nstats/nstats.h"

/* The tables, each with the columns a row gives, in this order:
 *   KERNEL   start end deviceId contextId streamId correlationId demangledName shortName
 *            registersPerThread gridX gridY gridZ blockX blockY blockZ
 *   MEMCPY   start end deviceId contextId streamId correlationId bytes copyKind srcKind dstKind
 *            srcDeviceId srcContextId dstDeviceId dstContextId
 *   MEMSET   start end deviceId contextId streamId correlationId bytes memKind
 *   RUNTIME  start end eventClass globalTid correlationId nameId
 *   NVTX     start end eventType text globalTid domainId
 *   GPU      id name totalMemory smCount maxRegistersPerBlock maxShmemPerBlock
 *            maxShmemPerBlockOptin maxShmemPerSm maxRegistersPerSm threadsPerWarp
 *            maxThreadsPerBlock computeMajor computeMinor
 * The other tables are memdb's own to fill (memdb_finish, and the names below). */
enum md_table { MD_KERNEL, MD_MEMCPY, MD_MEMSET, MD_RUNTIME, MD_NVTX, MD_GPU, MD_ROWS };

/* NVTX_EVENTS.domainId of the ranges that memdb_finish names by a domain
 * (a DomainCreate row per process that has them). */
#define MD_DOMAIN 1

struct memdb;

/* An empty export in memory, in one open transaction.  path is for
 * messages. */
enum nst_status memdb_new(const char *path, struct memdb **out, struct nst_error *err);
void memdb_free(struct memdb *m);

/* One row of t: md_begin, then a value for each of its columns in order,
 * then md_end, which inserts it. */
void md_begin(struct memdb *m, enum md_table t);
void md_int(struct memdb *m, int64_t v);
void md_null(struct memdb *m);
/* Borrowed until md_end. */
void md_text(struct memdb *m, const char *s, size_t len);
enum nst_status md_end(struct memdb *m, struct nst_error *err);

/* The StringIds id of s (NUL-terminated, len bytes), added when new; -1
 * on failure, with *status and err set. */
int64_t md_string(struct memdb *m, const char *s, size_t len, enum nst_status *status,
		  struct nst_error *err);

/* A call's process (its globalTid's, pid << 24) and its correlationId, if
 * it has one: from these memdb_finish gives each GPU row its process. */
enum nst_status md_call(struct memdb *m, bool has_corr, int64_t corr, int64_t gpid,
			struct nst_error *err);

/* PROCESSES and ThreadNames: a name for a process (pid) or thread
 * (globalTid); replace says whether it wins over one given before.
 * Written by memdb_finish, one row each. */
enum nst_status md_process(struct memdb *m, int64_t pid, const char *name, size_t len,
			   bool replace, struct nst_error *err);
enum nst_status md_thread(struct memdb *m, int64_t gtid, const char *name, size_t len,
			  bool replace, struct nst_error *err);

/* What the whole input says, for memdb_finish. */
struct md_session {
	bool has_span;
	int64_t origin, end;      /* ns on the input's clock: the span of the session */
	bool has_epoch;
	int64_t epoch;            /* the origin in ns since the Unix epoch */
	bool has_rank;
	int64_t rank;
	const char *domain;       /* the name of MD_DOMAIN */
	const char *format;       /* META_DATA_EXPORT rows: what the input was */
	const char *format_version;
};

/* Times from the session's start (time 0 is s->origin, as in an nsys
 * export); each GPU row's globalPid, the process of the call with its
 * correlationId (or of the only process that made calls); the DomainCreate
 * rows of MD_DOMAIN; MPI_RANKS, ANALYSIS_DETAILS, the session's start,
 * META_DATA_EXPORT; tables without rows dropped.  Then the transaction is
 * committed and the database made read-only. */
enum nst_status memdb_finish(struct memdb *m, const struct md_session *s, struct nst_error *err);

/* The finished database, now the caller's (memdb_free then frees the rest). */
sqlite3 *memdb_take(struct memdb *m);

#endif
