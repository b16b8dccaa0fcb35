/* ENUM_CUDA_MEMCPY_OPER's copy kinds as short words, the vocabulary that
 * the Trace Event Format export writes and the PyTorch trace reader reads
 * back: Kineto's own words for ids 0 to 10 ("Unknown", "HtoD" ... "PtoP"),
 * and nstats's for the unified-memory ids 11 to 13 ("UVM HtoD" ...), which
 * Kineto has no word for.  One table, so that the two cannot drift. */
#ifndef NSTATS_CORE_COPYKIND_H
#define NSTATS_CORE_COPYKIND_H

#include <stddef.h>
#include <stdint.h>

#define NST_COPY_KINDS 14        /* ids 0 .. 13 */
#define NST_KINETO_COPY_KINDS 11 /* ids 0 .. 10: Kineto's words */

/* The word of id among the first `known` ids; "Unknown" for any other. */
const char *nst_copy_kind_word(int64_t id, int64_t known);
/* The id of s[0..len), 0 (Unknown) for a word that is none of them. */
int64_t nst_copy_kind_id(const char *s, size_t len);

#endif
