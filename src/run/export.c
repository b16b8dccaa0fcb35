/* Opening an export: the SQLite file itself, or the one beside a
 * .nsys-rep, made with `nsys export` when it is missing or older, or a
 * PyTorch profiler trace read into an export in memory (src/input). */
#include <errno.h>
#include <stddef.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/cpus.h"
#include "db/db.h"
#include "input/input.h"
#include "run/run.h"

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* `nsys export` of rep into sqlite, its output on standard error (which
 * the caller's standard output may be a report on).  ENOENT: no nsys on
 * PATH; EIO: it ran and failed. */
static int nsys_export(const char *rep, const char *sqlite)
{
	char out[4096];
	snprintf(out, sizeof out, "--output=%s", sqlite);
	char *argv[] = { "nsys", "export", "--type=sqlite", "--force-overwrite=true",
			 out, (char *)rep, NULL };
	extern char **environ;
	posix_spawn_file_actions_t fa;
	if (posix_spawn_file_actions_init(&fa) != 0)
		return ENOMEM;
	posix_spawn_file_actions_adddup2(&fa, STDERR_FILENO, STDOUT_FILENO);
	pid_t pid;
	int rc = posix_spawnp(&pid, "nsys", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0)
		return rc;
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return EIO;
	/* A shell-less spawn that found no program exits 127 on some libcs. */
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return ENOENT;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : EIO;
}

/* The export a .nsys-rep is read from: o->sqlite, or the .sqlite beside
 * it; NULL when input is no .nsys-rep (or .qdrep). */
static char *export_name(const char *input, const struct nst_options *o)
{
	const char *ext = ends_with(input, ".nsys-rep") ? ".nsys-rep"
			: ends_with(input, ".qdrep")    ? ".qdrep" : NULL;
	if (!ext)
		return NULL;
	if (o->sqlite)
		return strdup(o->sqlite);
	size_t stem = strlen(input) - strlen(ext);
	char *sqlite = malloc(stem + sizeof ".sqlite");
	if (sqlite)
		sprintf(sqlite, "%.*s.sqlite", (int)stem, input);
	return sqlite;
}

static bool up_to_date(const char *sqlite, const struct stat *rep)
{
	struct stat sql;
	return stat(sqlite, &sql) == 0 && sql.st_mtime >= rep->st_mtime;
}

/* Why `nsys export` gave no export, as one message naming input. */
static enum nst_status export_failed(const char *input, const char *sqlite, int rc,
				     struct nst_error *err)
{
	if (rc == ENOENT)
		return nst_fail(err, NST_ERR_DB,
				"%s: no up-to-date SQLite export beside it and nsys is not on PATH; run: nsys export --type=sqlite --output=%s %s",
				input, sqlite, input);
	if (rc == EEXIST)
		return nst_fail(err, NST_ERR_DB, "%s: nsys export --type=sqlite did not write %s",
				input, sqlite);
	if (rc == EIO)
		return nst_fail(err, NST_ERR_DB, "%s: nsys export --type=sqlite failed", input);
	return nst_fail(err, NST_ERR_DB, "%s: %s", input, strerror(rc));
}

enum nst_status run_resolve_input(const char *input, const struct nst_options *o, char **path,
				  struct nst_error *err)
{
	*path = NULL;
	bool rep = ends_with(input, ".nsys-rep") || ends_with(input, ".qdrep");
	char *sqlite = rep ? export_name(input, o) : strdup(input);
	if (!sqlite)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	struct stat st;
	if (rep && stat(input, &st) != 0) {
		enum nst_status s = nst_fail(err, NST_ERR_DB, "%s: %s", input, strerror(errno));
		free(sqlite);
		return s;
	}
	if (rep && (o->force_export || !up_to_date(sqlite, &st))) {
		int rc = nsys_export(input, sqlite);
		/* nsys may name its output otherwise (FILE.sqlite for FILE) */
		if (rc == 0 && access(sqlite, F_OK) != 0)
			rc = EEXIST;
		if (rc != 0) {
			enum nst_status s = export_failed(input, sqlite, rc, err);
			free(sqlite);
			return s;
		}
	}
	*path = sqlite;
	return NST_OK;
}

static enum nst_status options_of(const struct nst_options *o, struct nst_options *out,
				  struct nst_error *err)
{
	*out = (struct nst_options){ .version = NST_API_VERSION };
	if (!o)
		return NST_OK;
	if (o->version < 1 || o->version > NST_API_VERSION)
		return nst_fail(err, NST_ERR_USAGE, "nst_options: version %d is not one this library "
				"(%s) knows", o->version, NSTATS_VERSION);
	if (o->read_threads < 0 || o->read_threads > 64)
		return nst_fail(err, NST_ERR_USAGE, "nst_options: read_threads is %d, not 0 to 64",
				o->read_threads);
	/* a version 1 struct ends before the fields of version 2, a version 2
	 * or 3 one before those of version 4 */
	memcpy(out, o, o->version == 1   ? offsetof(struct nst_options, sqlite)
		       : o->version < 4 ? offsetof(struct nst_options, sqlite_reader)
					: sizeof *o);
	if (out->query_limit < 0 || out->query_limit != out->query_limit)
		return nst_fail(err, NST_ERR_USAGE, "nst_options: query_limit is negative");
	return NST_OK;
}

enum nst_status nst_export_open(const char *input, const struct nst_options *o,
				struct nst_export **out, struct nst_error *err)
{
	*out = NULL;
	struct nst_export *x = calloc(1, sizeof *x);
	if (!x)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	enum nst_status s = options_of(o, &x->opts, err);
	if (s == NST_OK)
		s = run_resolve_input(input, &x->opts, &x->path, err);
	/* a FIFO or a device would block the sniff's read: refused first */
	if (s == NST_OK)
		s = nst_input_file(x->path, err);
	if (s == NST_OK)
		s = nst_input_sniff(x->path) == NST_INPUT_KINETO ? nst_kineto_open(x->path, &x->db, err)
								 : nst_db_open(x->path, &x->db, err);
	if (s == NST_OK) {
		nst_db_set_page_reader(x->db, !(x->opts.version >= 4 && x->opts.sqlite_reader));
		x->ev = nst_ev_new(x->db, &x->opts);
		x->shared = nst_shared_new();
		x->views = x->ev && x->shared ? run_views_new(x->db, x->ev, x->shared) : NULL;
		if (!x->views)
			s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	if (s != NST_OK) {
		nst_export_close(x);
		return s;
	}
	*out = x;
	return NST_OK;
}

void nst_export_close(struct nst_export *x)
{
	if (!x)
		return;
	run_views_free(x->views);
	nst_shared_free(x->shared);
	nst_ev_free(x->ev);
	nst_db_close(x->db);
	free(x->path);
	free(x);
}

const char *nst_export_path(const struct nst_export *x) { return x->path; }
int nst_export_threads(const struct nst_export *x)
{
	return x->opts.read_threads == 1 || (x->opts.read_threads == 0 && nst_cpus() == 1) ? 1 : 2;
}
bool nst_export_timed(const struct nst_export *x) { return x->opts.timing != NULL; }

void nst_export_timing(struct nst_export *x, const char *line)
{
	if (x->opts.timing)
		nst_ev_timing(x->ev, line);
}
