/* Kernel names across profilers: the base name of a demangled name, the
 * one rule every comparison of names by base uses. */
#ifndef NSTATS_CORE_KNAME_H
#define NSTATS_CORE_KNAME_H

#include <stddef.h>

/* The base name of a demangled C++ function name: without its return
 * type, namespaces and classes, template arguments and parameters, as
 * nsys's shortName gives it ("void at::native::reduce_kernel<512, 1,
 * ...>(T3)" -> "reduce_kernel").  A name that is no C++ signature
 * ("nvjet_tst_192x192", "Memset (Device)") is its own base.  Returns the
 * offset of the base in name and sets *len; nothing is allocated. */
size_t nst_kname_base(const char *name, size_t *len);

#endif
