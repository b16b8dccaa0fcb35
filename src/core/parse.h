/* The one integer grammar of every numeric option and report argument. */
#ifndef NSTATS_CORE_PARSE_H
#define NSTATS_CORE_PARSE_H

#include <stdbool.h>
#include <stdint.h>

/* An integer as Python's int() reads one, which is how nsys reads its
 * report arguments (start=, rows=, ticks_threshold=, ...): blanks around
 * it, a sign, and digits that single underscores may group ("1_000").
 * False when s is not one or does not fit int64. */
bool nst_parse_i64(const char *s, int64_t *out);

#endif
