/* Seconds on the monotonic clock, for timing lines. */
#ifndef NSTATS_CORE_CLOCK_H
#define NSTATS_CORE_CLOCK_H

#include <time.h>

static inline double nst_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#endif
