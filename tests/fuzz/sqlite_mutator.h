/* A structure-aware mutator for SQLite images (fuzz_export's and
 * fuzz_pages's inputs; the file also defines libFuzzer's custom mutator
 * and crossover hooks with it, so a harness linked with it uses them).
 * libFuzzer's byte mutations almost never keep an image a database, so
 * the readers would rarely see a valid export holding hostile values; this
 * edits rows through SQLite most of the time, pages now and then, and the
 * raw bytes rarely. Deterministic for a given seed. */
#ifndef NSTATS_SQLITE_MUTATOR_H
#define NSTATS_SQLITE_MUTATOR_H

#include <stddef.h>
#include <stdint.h>

/* Mutates data[0..size) in place, into at most max bytes; returns the new
 * size (never 0: an empty image is not worth a run). */
size_t sqlite_mutate(uint8_t *data, size_t size, size_t max, unsigned seed);

/* Writes into out (at most max bytes) image a with one of its pages, or a
 * run of them, taken from image b at the same offset; returns the size. */
size_t sqlite_cross_over(const uint8_t *a, size_t asize, const uint8_t *b, size_t bsize,
			 uint8_t *out, size_t max, unsigned seed);

#endif
