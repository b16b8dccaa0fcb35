#include "core/lock.h"

int nst_lock_init(pthread_mutex_t *m)
{
	pthread_mutexattr_t a;
	int rc = pthread_mutexattr_init(&a);
	if (rc != 0)
		return rc;
	rc = pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	if (rc == 0)
		rc = pthread_mutex_init(m, &a);
	pthread_mutexattr_destroy(&a);
	return rc;
}
