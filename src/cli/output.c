#include "cli/output.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The export's path without its extension. */
static char *default_base(const char *export_path)
{
	char *base = strdup(export_path);
	if (!base)
		return NULL;
	char *dot = strrchr(base, '.');
	char *slash = strrchr(base, '/');
	if (dot && (!slash || dot > slash))
		*dot = '\0';
	return base;
}

/* "cuda_gpu_kern_sum:base:mangled" names its file
 * "cuda_gpu_kern_sum_base_mangled", as nsys does. */
static void spec_to_suffix(char *s)
{
	for (; *s; s++)
		if (*s == ':' || *s == '/')
			*s = '_';
}

enum nst_target target_kind_of(const char *output)
{
	if (strcmp(output, "-") == 0)
		return NST_TO_CONSOLE;
	return output[0] == '@' ? NST_TO_PIPE : NST_TO_FILE;
}

enum nst_status target_resolve(struct target *t, const char *output,
			       const char *export_path, const char *report_spec,
			       const char *ext, struct nst_error *err)
{
	memset(t, 0, sizeof *t);
	t->pid = -1;
	if (strcmp(output, "-") == 0) {
		t->kind = TARGET_CONSOLE;
		return NST_OK;
	}
	if (output[0] == '@') {
		t->kind = TARGET_PROCESS;
		t->name = strdup(output + 1);
		return t->name ? NST_OK : nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	t->kind = TARGET_FILE;
	char *base = strcmp(output, ".") == 0 ? default_base(export_path) : strdup(output);
	char *spec = strdup(report_spec);
	if (base && spec) {
		spec_to_suffix(spec);
		size_t n = strlen(base) + strlen(spec) + strlen(ext) + 4;
		t->name = malloc(n);
		if (t->name)
			snprintf(t->name, n, "%s_%s.%s", base, spec, ext);
	}
	free(base);
	free(spec);
	return t->name ? NST_OK : nst_fail(err, NST_ERR_NOMEM, "out of memory");
}

/* Splits a command on blanks, without a shell (nsys does the same, so
 * "@grep -E (-|Name)" works). */
static char **split_command(char *cmd)
{
	size_t n = 0, cap = 8;
	char **argv = malloc(cap * sizeof *argv);
	for (char *tok = strtok(cmd, " \t"); argv && tok; tok = strtok(NULL, " \t")) {
		if (n + 1 == cap) {
			char **p = realloc(argv, (cap *= 2) * sizeof *p);
			if (!p) {
				free(argv);
				return NULL;
			}
			argv = p;
		}
		argv[n++] = tok;
	}
	if (argv)
		argv[n] = NULL;
	return argv;
}

static enum nst_status open_process(struct target *t, struct nst_error *err)
{
	char *line = strdup(t->name);
	char **argv = line ? split_command(line) : NULL;
	int fds[2] = { -1, -1 };
	enum nst_status s = NST_OK;
	if (!argv || !argv[0])
		s = nst_fail(err, NST_ERR_USAGE, "output '@%s': no command given", t->name);
	else if (pipe(fds) != 0 || (t->pid = fork()) < 0)
		s = nst_fail(err, NST_ERR_IO, "output '@%s': %s", t->name, strerror(errno));
	else if (t->pid == 0) {
		dup2(fds[0], STDIN_FILENO);
		close(fds[0]);
		close(fds[1]);
		execvp(argv[0], argv);
		fprintf(stderr, "nstats: error: output '@%s': %s\n", t->name, strerror(errno));
		_exit(127);
	} else {
		close(fds[0]);
		fds[0] = -1;
		t->fp = fdopen(fds[1], "w");
		if (!t->fp)
			s = nst_fail(err, NST_ERR_IO, "output '@%s': %s", t->name, strerror(errno));
	}
	if (s != NST_OK && fds[1] >= 0 && !t->fp)
		close(fds[1]);
	if (fds[0] >= 0)
		close(fds[0]);
	free(argv);
	free(line);
	return s;
}

/* Reports of millions of rows: write in big blocks, not 4 KiB ones
 * (stdout gets the same in main()). */
static void buffer_big(FILE *fp)
{
	setvbuf(fp, NULL, _IOFBF, 1 << 20);
}

enum nst_status target_open(struct target *t, bool force, struct nst_error *err)
{
	switch (t->kind) {
	case TARGET_CONSOLE:
		t->fp = stdout;
		return NST_OK;
	case TARGET_PROCESS:
		/* A command that exits early must not kill us with SIGPIPE. */
		signal(SIGPIPE, SIG_IGN);
		return open_process(t, err);
	case TARGET_FILE:
		break;
	}
	int flags = O_WRONLY | O_CREAT | O_TRUNC | (force ? 0 : O_EXCL);
	int fd = open(t->name, flags, 0666);
	if (fd < 0 && errno == EEXIST)
		return nst_fail(err, NST_ERR_IO, "%s: output file exists (--force-overwrite replaces it)",
				t->name);
	if (fd < 0 || !(t->fp = fdopen(fd, "w"))) {
		if (fd >= 0)
			close(fd);
		return nst_fail(err, NST_ERR_IO, "%s: %s", t->name, strerror(errno));
	}
	buffer_big(t->fp);
	return NST_OK;
}

enum nst_status target_close(struct target *t, struct nst_error *err)
{
	if (!t->fp)
		return NST_OK;
	enum nst_status s = NST_OK;
	if (t->kind == TARGET_CONSOLE) {
		if (fflush(stdout) != 0 || ferror(stdout))
			s = nst_fail(err, NST_ERR_IO, "standard output: %s", strerror(errno));
		/* Said once, here: the final check of stdout need not repeat it. */
		clearerr(stdout);
		t->fp = NULL;
		return s;
	}
	int bad = ferror(t->fp);
	if (fclose(t->fp) != 0 || bad)
		s = nst_fail(err, NST_ERR_IO, "%s: write failed: %s", t->name, strerror(errno));
	t->fp = NULL;
	if (t->kind == TARGET_PROCESS && t->pid > 0) {
		int status;
		while (waitpid(t->pid, &status, 0) < 0 && errno == EINTR)
			;
		if (s == NST_OK && (!WIFEXITED(status) || WEXITSTATUS(status) == 127))
			s = nst_fail(err, NST_ERR_IO, "output '@%s': the command failed", t->name);
		t->pid = -1;
	}
	return s;
}

void target_release(struct target *t)
{
	free(t->name);
	t->name = NULL;
}

/* The file name of path without its folder and last extension. */
static char *stem_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	const char *dot = strrchr(name, '.');
	size_t len = dot && dot > name ? (size_t)(dot - name) : strlen(name);
	return strndup(name, len);
}

char *export_tag(char *const *inputs, size_t n, size_t i)
{
	char *tag = n > 1 ? stem_of(inputs[i]) : NULL;
	bool shared = false;
	for (size_t j = 0; tag && j < n && !shared; j++) {
		char *other = j == i ? NULL : stem_of(inputs[j]);
		shared = other && strcmp(other, tag) == 0;
		free(other);
	}
	if (tag && shared) {
		size_t len = strlen(tag) + 24;
		char *numbered = malloc(len);
		if (numbered)
			snprintf(numbered, len, "%s-%zu", tag, i + 1);
		free(tag);
		tag = numbered;
	}
	return tag;
}
