/* The harnesses' shared setup; see fuzz.h. */
#include "fuzz.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

static char dir[4096];

void fuzz_setup(void)
{
	if (dir[0])
		return;
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/nstats-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir) || chdir(dir) != 0 || !freopen("/dev/null", "w", stdout)) {
		perror("fuzz setup");
		abort();
	}
	setenv("PATH", "/nonexistent", 1);
}

void fuzz_outputs(uint32_t choice, const char *path)
{
	static const char *const types[] = { "perfetto", "chrome-json" };
	if (choice % 3 < 2) {
		const char *trace[] = { "-q", "-t", types[choice % 3], "-o", "/dev/null", path };
		fuzz_run("export", 6, trace);
	} else {
		const char *page[] = { "-o", "/dev/null", path };
		fuzz_run("report", 3, page);
	}
}

const char *fuzz_dir(void)
{
	return dir;
}

int fuzz_run(const char *cmd, int argc, const char *const *argv)
{
	int (*fn)(int, char **) = cmd_stats;
	for (size_t i = 0; i < cli_ncommands; i++)
		if (strcmp(cli_commands[i].name, cmd) == 0)
			fn = cli_commands[i].run;
	char **v = calloc((size_t)argc + 2, sizeof *v);
	if (!v)
		return -1;
	v[0] = strdup(cmd);
	for (int i = 0; i < argc; i++)
		v[i + 1] = strdup(argv[i]);
	int rc = fn(argc + 1, v);
	fflush(stdout);
	for (int i = 0; i <= argc; i++)
		free(v[i]);
	free(v);
	return rc;
}

uint32_t fuzz_hash(const uint8_t *data, size_t size)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < size; i++)
		h = (h ^ data[i]) * 16777619u;
	return h;
}

int fuzz_write(const char *path, const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	ssize_t w = size ? write(fd, data, size) : 0;
	close(fd);
	return w == (ssize_t)size ? 0 : -1;
}
