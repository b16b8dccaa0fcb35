/* The lengths of the longest common subsequences of every prefix of one
 * sequence with the whole of another, 64 positions a machine word:
 * Hyyrö's bit-vector form ("Bit-parallel LCS-length computation
 * revisited", 2004) of Allison and Dix's algorithm (1986).  O(nm/64)
 * word operations; memory O(n + m + nsym) plus a table of match masks
 * bounded by NST_LCS_TABLE_WORDS, whatever the alphabet. */
#ifndef NSTATS_CORE_LCSROW_H
#define NSTATS_CORE_LCSROW_H

#include <stddef.h>
#include <stdint.h>

/* The most words the match masks take (8 MiB): a's positions are taken
 * NST_LCS_BLOCK_WORDS words at a time, so that even an alphabet as large
 * as the block has one row each. */
#define NST_LCS_BLOCK_WORDS 128
#define NST_LCS_TABLE_WORDS ((64 * NST_LCS_BLOCK_WORDS + 1) * NST_LCS_BLOCK_WORDS)

/* Room for sequences of at most n and m symbols below nsym; zeroed, then
 * nst_lcs_space_init, and nst_lcs_space_release once done. */
struct nst_lcs_space {
	uint32_t *row_of;  /* by symbol: its row of match masks in this block, 0 for none */
	uint64_t *masks;   /* row r's word w at [r * words + w]; row 0 is all zeros */
	uint64_t *v;       /* the bit vector of one block */
	uint8_t *carry;    /* by position of b: the carry out of the block below */
	size_t words;      /* of a block */
};

int nst_lcs_space_init(struct nst_lcs_space *sp, size_t nsym, size_t n, size_t m);
void nst_lcs_space_release(struct nst_lcs_space *sp);

/* row[i] = LCS(a[0..i), b[0..m)) for i = 0..n (row has n + 1 entries).
 * Returns the word operations it took. */
uint64_t nst_lcs_row(struct nst_lcs_space *sp, const uint32_t *a, size_t n, const uint32_t *b,
		     size_t m, int64_t *row);

#endif
