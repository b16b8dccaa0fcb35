/* Names shortened for a person: in the middle, and where names shown
 * together would then read the same, cut elsewhere until they differ
 * (C++ kernels often differ only in the middle: "void at::native::
 * elementwise_kernel<...(instance 1)]>(int, T3)" and its siblings).
 * Widths count characters (UTF-8 code points), not bytes. */
#ifndef NSTATS_CORE_SHORTEN_H
#define NSTATS_CORE_SHORTEN_H

#include <stdbool.h>
#include <stddef.h>

#define NST_ELLIPSIS "\xe2\x80\xa6" /* U+2026, one column */

/* Characters in s. */
size_t nst_text_width(const char *s);
/* The byte offset of character k of s (its length when k is past it). */
size_t nst_text_offset(const char *s, size_t k);

/* s in at most w characters: whole when it fits, else its first `head`
 * characters, an ellipsis, and its last w - 1 - head.  Allocated. */
char *nst_shorten(const char *s, size_t w, size_t head);

/* names[0..n) in at most w characters each, out[i] allocated: shortened
 * in the middle, and where two shortened names would read the same, cut
 * elsewhere, or what they all begin with left out after a few characters,
 * or a middle part where they part shown between two ellipses, until they
 * differ.  Distinct names stay distinct; only as a last resort is a name
 * given more than w characters.  Returns false when out of memory (the
 * out[i] made so far are the caller's to free). */
bool nst_shorten_all(const char *const *names, size_t n, size_t w, char **out);

#endif
