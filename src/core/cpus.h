/* How many processors this process may run on. */
#ifndef NSTATS_CORE_CPUS_H
#define NSTATS_CORE_CPUS_H

#include <stddef.h>

/* Those its affinity mask allows (taskset), else those online; at least 1. */
size_t nst_cpus(void);

#endif
