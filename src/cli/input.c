#include "cli/input.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static bool on_path(const char *prog)
{
	const char *path = getenv("PATH");
	if (!path)
		return false;
	char buf[4096];
	for (const char *p = path; *p;) {
		const char *colon = strchr(p, ':');
		size_t len = colon ? (size_t)(colon - p) : strlen(p);
		snprintf(buf, sizeof buf, "%.*s/%s", (int)len, p, prog);
		if (len && access(buf, X_OK) == 0)
			return true;
		p += len + (colon ? 1 : 0);
	}
	return false;
}

static int run_export(const char *rep, const char *sqlite)
{
	char out[4096];
	snprintf(out, sizeof out, "--output=%s", sqlite);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		char *argv[] = { "nsys", "export", "--type=sqlite", "--force-overwrite=true",
				 out, (char *)rep, NULL };
		dup2(STDERR_FILENO, STDOUT_FILENO);
		execvp("nsys", argv);
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

enum nst_status input_resolve(const char *input, char **path, struct nst_error *err)
{
	*path = NULL;
	const char *ext = ends_with(input, ".nsys-rep") ? ".nsys-rep"
			: ends_with(input, ".qdrep")    ? ".qdrep" : NULL;
	if (!ext) {
		*path = strdup(input);
		return *path ? NST_OK : nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	struct stat rep, sql;
	if (stat(input, &rep) != 0)
		return nst_fail(err, NST_ERR_DB, "%s: %s", input, strerror(errno));
	size_t stem = strlen(input) - strlen(ext);
	char *sqlite = malloc(stem + sizeof ".sqlite");
	if (!sqlite)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	sprintf(sqlite, "%.*s.sqlite", (int)stem, input);
	if (stat(sqlite, &sql) == 0 && sql.st_mtime >= rep.st_mtime) {
		*path = sqlite;
		return NST_OK;
	}
	if (!on_path("nsys")) {
		nst_fail(err, NST_ERR_DB,
			 "%s: no up-to-date SQLite export beside it and nsys is not on PATH; run: nsys export --type=sqlite --output=%s %s",
			 input, sqlite, input);
		free(sqlite);
		return NST_ERR_DB;
	}
	if (run_export(input, sqlite) != 0) {
		nst_fail(err, NST_ERR_DB, "%s: nsys export --type=sqlite failed", input);
		free(sqlite);
		return NST_ERR_DB;
	}
	*path = sqlite;
	return NST_OK;
}
