/* A deliberate data race: tests/tsan/run.sh builds it with the flags
 * nstats was built with and expects ThreadSanitizer to report it, so
 * that a build where the sanitizer is not in effect fails the suite
 * instead of passing it without looking. */
#include <pthread.h>
#include <stdio.h>

static int shared_count;

static void *bump(void *arg)
{
	(void)arg;
	shared_count++;
	return NULL;
}

int main(void)
{
	pthread_t t;
	if (pthread_create(&t, NULL, bump, NULL) != 0)
		return 2;
	shared_count++;
	pthread_join(t, NULL);
	printf("%d\n", shared_count);
	return 0;
}
