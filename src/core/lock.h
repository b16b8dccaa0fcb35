/* The lock of a lazily built cache that reports on several threads share
 * (an export's columns, strings, calls index): recursive, because
 * building one cache may ask for another under the same lock. */
#ifndef NSTATS_CORE_LOCK_H
#define NSTATS_CORE_LOCK_H

#include <pthread.h>

/* 0, or an errno value. */
int nst_lock_init(pthread_mutex_t *m);

#endif
