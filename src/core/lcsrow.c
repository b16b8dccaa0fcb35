/* Bit i of the vector v stands for a[i]; it starts at 1 and turns 0 where
 * the LCS of a[0..i] with the part of b read so far grows, so that
 * LCS(a[0..i), b) is the number of zeros below bit i.  A symbol y of b
 * turns v into (v + (v & M[y])) | (v & ~M[y]), M[y] the positions of y
 * in a: one addition whose carry runs from low bits to high.  a is taken
 * a block of words at a time, each block's carries handed up to the next
 * one by position of b, so that the match masks are needed for one block
 * only. */
#include "core/lcsrow.h"

#include <stdlib.h>
#include <string.h>

int nst_lcs_space_init(struct nst_lcs_space *sp, size_t nsym, size_t n, size_t m)
{
	size_t words = (n + 63) / 64;
	words = words > NST_LCS_BLOCK_WORDS ? NST_LCS_BLOCK_WORDS : words ? words : 1;
	size_t rows = (n < 64 * words ? n : 64 * words) + 1;
	sp->words = words;
	sp->row_of = calloc(nsym ? nsym : 1, sizeof *sp->row_of);
	sp->masks = calloc(rows * words, sizeof *sp->masks);
	sp->v = malloc(words * sizeof *sp->v);
	sp->carry = malloc(m ? m : 1);
	return sp->row_of && sp->masks && sp->v && sp->carry ? 0 : -1;
}

void nst_lcs_space_release(struct nst_lcs_space *sp)
{
	free(sp->row_of);
	free(sp->masks);
	free(sp->v);
	free(sp->carry);
	*sp = (struct nst_lcs_space){ 0 };
}

/* One row of masks a symbol of a[0..len), row 0 left as zeros for the
 * symbols a lacks. */
static void fill_masks(struct nst_lcs_space *sp, const uint32_t *a, size_t len)
{
	uint32_t rows = 1;
	for (size_t i = 0; i < len; i++) {
		uint32_t *r = &sp->row_of[a[i]];
		if (!*r)
			*r = rows++;
		sp->masks[*r * sp->words + i / 64] |= UINT64_C(1) << (i % 64);
	}
}

static void clear_masks(struct nst_lcs_space *sp, const uint32_t *a, size_t len, size_t words)
{
	for (size_t i = 0; i < len; i++) {
		uint32_t *r = &sp->row_of[a[i]];
		if (*r)
			memset(sp->masks + *r * sp->words, 0, words * sizeof *sp->masks);
		*r = 0;
	}
}

static void run_block(struct nst_lcs_space *sp, const uint32_t *b, size_t m, size_t words)
{
	uint64_t *v = sp->v;
	for (size_t w = 0; w < words; w++)
		v[w] = ~UINT64_C(0);
	for (size_t j = 0; j < m; j++) {
		const uint64_t *mask = sp->masks + sp->row_of[b[j]] * sp->words;
		uint64_t carry = sp->carry[j];
		for (size_t w = 0; w < words; w++) {
			uint64_t x = v[w], t = x + (x & mask[w]), sum = t + carry;
			carry = (t < x) | (sum < t);
			v[w] = sum | (x & ~mask[w]);
		}
		sp->carry[j] = (uint8_t)carry;
	}
}

uint64_t nst_lcs_row(struct nst_lcs_space *sp, const uint32_t *a, size_t n, const uint32_t *b,
		     size_t m, int64_t *row)
{
	size_t block = 64 * sp->words;
	uint64_t ops = 0;
	memset(sp->carry, 0, m);
	row[0] = 0;
	for (size_t c0 = 0; c0 < n; c0 += block) {
		size_t len = n - c0 < block ? n - c0 : block, words = (len + 63) / 64;
		fill_masks(sp, a + c0, len);
		run_block(sp, b, m, words);
		for (size_t i = 0; i < len; i++)
			row[c0 + i + 1] = row[c0 + i] + !((sp->v[i / 64] >> (i % 64)) & 1);
		clear_masks(sp, a + c0, len, words);
		ops += (uint64_t)m * words + len;
	}
	return ops;
}
