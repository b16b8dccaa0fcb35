/* measure [-u] RUNS COMMAND...: runs a command N times and prints the
 * median wall time (s, to the millisecond; to the microsecond with -u, for
 * commands of a few ms) and the median peak resident memory (MiB) of its
 * process tree's largest member, as "median_s peak_mib".  Output of the
 * command goes to /dev/null.  It stops at the first run that fails, and exits 124 when
 * that run exited 124 (timeout(1) killed it at its limit), 1 otherwise.
 * Used by bench/run.sh. */
/* wait4() reports one child's peak memory; it is Linux/BSD, not POSIX. */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One run: wall seconds and peak RSS in KiB; its exit status (0 when it
 * succeeded), or -1 when it could not be run or was killed by a signal. */
static int run_once(char **argv, double *secs, long *kib)
{
	double t0 = now();
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, STDOUT_FILENO);
		execvp(argv[0], argv);
		_exit(127);
	}
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) < 0)
		return -1;
	*secs = now() - t0;
	*kib = ru.ru_maxrss;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int main(int argc, char **argv)
{
	bool micro = argc > 1 && strcmp(argv[1], "-u") == 0;
	argc -= micro;
	argv += micro;
	if (argc < 3) {
		fprintf(stderr, "usage: measure [-u] RUNS COMMAND [ARG...]\n");
		return 2;
	}
	int runs = atoi(argv[1]);
	if (runs < 1 || runs > 100) {
		fprintf(stderr, "measure: RUNS must be 1..100\n");
		return 2;
	}
	double secs[100], mib[100];
	for (int i = 0; i < runs; i++) {
		long kib;
		int rc = run_once(argv + 2, &secs[i], &kib);
		if (rc != 0) {
			fprintf(stderr, "measure: %s failed\n", argv[2]);
			return rc == 124 ? 124 : 1;
		}
		mib[i] = (double)kib / 1024.0;
	}
	qsort(secs, (size_t)runs, sizeof *secs, cmp_double);
	qsort(mib, (size_t)runs, sizeof *mib, cmp_double);
	printf("%.*f %.1f\n", micro ? 6 : 3, secs[runs / 2], mib[runs / 2]);
	return 0;
}
