/* The inputs of a recipe read on this machine: in this process, or by
 * worker processes that each take whole inputs as they finish the last
 * and send back its part as bytes; this process merges them.  A worker
 * that dies costs the input it was reading (one line, and exit 3) and is
 * replaced. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/recipe.h"

/* ---- one input ------------------------------------------------------------------ */

static void progress(const struct recipe_plan *p, size_t done)
{
	if (!cli_progress_wanted(p->quiet))
		return;
	if (done < p->ninputs)
		fprintf(stderr, "\rnstats: recipe: %zu of %zu inputs read", done, p->ninputs);
	else
		fputs("\r\033[K", stderr);
	fflush(stderr);
}

/* A part read here or sent back: merged, or its failure told. */
static int take_part(struct nst_merge *m, enum nst_status s, struct nst_part *part,
		     const char *msg, size_t *failed)
{
	struct nst_error err = { 0 };
	if (s != NST_OK) {
		cli_error("%s", msg);
		++*failed;
		return 0;
	}
	if (nst_merge_add(m, part, &err) != NST_OK) {
		cli_error("%s", err.msg);
		return exit_of(err.status);
	}
	return 0;
}

static int in_process(const struct recipe_plan *p, struct nst_merge *m, size_t *failed)
{
	int rc = 0;
	for (size_t i = 0; !rc && i < p->ninputs; i++) {
		struct nst_part *part = NULL;
		struct nst_error err = { 0 };
		enum nst_status s = recipe_read_input(p, i, &part, &err);
		rc = take_part(m, s, part, err.msg, failed);
		progress(p, i + 1);
	}
	return rc;
}

/* ---- workers ---------------------------------------------------------------------- */

/* What a worker sends for an input: this, then len bytes (the part, or
 * the error message). */
struct reply {
	uint32_t input;
	int32_t status;
	uint64_t len;
};

static bool write_all(int fd, const void *buf, size_t n)
{
	const char *b = buf;
	while (n) {
		ssize_t w = write(fd, b, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		b += w, n -= (size_t)w;
	}
	return true;
}

static bool read_all(int fd, void *buf, size_t n)
{
	char *b = buf;
	while (n) {
		ssize_t r = read(fd, b, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		b += r, n -= (size_t)r;
	}
	return true;
}

static void worker_reply(int fd, uint32_t input, enum nst_status s, const void *buf, size_t len)
{
	struct reply r = { input, (int32_t)s, len };
	if (!write_all(fd, &r, sizeof r) || !write_all(fd, buf, len))
		_exit(1);
}

/* A worker: input numbers in, parts out, until its input pipe closes. */
static void worker(const struct recipe_plan *p, int in, int out)
{
	uint32_t i;
	while (read_all(in, &i, sizeof i)) {
		struct nst_part *part = NULL;
		struct nst_error err = { 0 };
		void *buf = NULL;
		size_t len = 0;
		enum nst_status s = i < p->ninputs ? recipe_read_input(p, i, &part, &err)
						   : nst_fail(&err, NST_ERR_INTERNAL, "no input %u", i);
		if (s == NST_OK)
			s = nst_part_save(part, &buf, &len, &err);
		nst_part_free(part);
		if (s == NST_OK)
			worker_reply(out, i, s, buf, len);
		else
			worker_reply(out, i, s, err.msg, strlen(err.msg) + 1);
		free(buf);
	}
	_exit(0);
}

struct worker {
	pid_t pid;
	int to, from; /* -1 when closed */
	long input;   /* the input it reads, -1 when idle */
};

struct pool {
	const struct recipe_plan *p;
	struct worker *w;
	int n;
	size_t next, done;
};

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* The worker's own pipes only: a child that kept another worker's write
 * end would keep that worker's pipe open after it dies. */
static int spawn(struct pool *pl, int k)
{
	int task[2], result[2];
	if (pipe(task) != 0 || pipe(result) != 0) {
		cli_error("recipe: cannot start a worker: %s", strerror(errno));
		return EXIT_FAILED;
	}
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		cli_error("recipe: cannot start a worker: %s", strerror(errno));
		return EXIT_FAILED;
	}
	if (pid == 0) {
		for (int j = 0; j < pl->n; j++)
			if (j != k) {
				close_fd(&pl->w[j].to);
				close_fd(&pl->w[j].from);
			}
		close(task[1]);
		close(result[0]);
		worker(pl->p, task[0], result[1]);
	}
	close(task[0]);
	close(result[1]);
	pl->w[k] = (struct worker){ pid, task[1], result[0], -1 };
	return 0;
}

/* The next input to worker k, or its pipe closed when none is left. */
static void assign(struct pool *pl, int k)
{
	struct worker *w = &pl->w[k];
	uint32_t i = (uint32_t)pl->next;
	if (pl->next < pl->p->ninputs && write_all(w->to, &i, sizeof i)) {
		w->input = (long)pl->next++;
		return;
	}
	w->input = -1;
	close_fd(&w->to);
}

static void reap(struct worker *w, int *status)
{
	close_fd(&w->to);
	close_fd(&w->from);
	*status = 0;
	if (w->pid > 0)
		waitpid(w->pid, status, 0);
	w->pid = 0;
}

/* Worker k stopped answering: the input it read is lost, and a new
 * worker takes the rest. */
static int worker_died(struct pool *pl, int k, size_t *failed)
{
	int status;
	long input = pl->w[k].input;
	reap(&pl->w[k], &status);
	if (input < 0)
		return 0;
	if (WIFSIGNALED(status))
		cli_error("%s: the worker process reading it died of signal %d",
			  pl->p->inputs[input], WTERMSIG(status));
	else
		cli_error("%s: the worker process reading it exited (status %d)",
			  pl->p->inputs[input], WEXITSTATUS(status));
	++*failed;
	progress(pl->p, ++pl->done);
	if (pl->next >= pl->p->ninputs)
		return 0;
	int rc = spawn(pl, k);
	if (!rc)
		assign(pl, k);
	return rc;
}

static int receive(struct pool *pl, int k, struct nst_merge *m, size_t *failed)
{
	struct worker *w = &pl->w[k];
	struct reply r;
	if (!read_all(w->from, &r, sizeof r))
		return worker_died(pl, k, failed);
	char *buf = malloc(r.len ? r.len : 1);
	if (!buf) {
		cli_error("out of memory");
		return EXIT_FAILED;
	}
	if (!read_all(w->from, buf, r.len)) {
		free(buf);
		return worker_died(pl, k, failed);
	}
	struct nst_part *part = NULL;
	struct nst_error err = { 0 };
	enum nst_status s = (enum nst_status)r.status;
	const char *msg = buf;
	if (s == NST_OK && (s = nst_part_load(buf, r.len, &part, &err)) != NST_OK)
		msg = err.msg;
	else if (s != NST_OK)
		buf[r.len ? r.len - 1 : 0] = '\0';
	int rc = take_part(m, s, part, msg, failed);
	free(buf);
	progress(pl->p, ++pl->done);
	assign(pl, k);
	return rc;
}

static int serve(struct pool *pl, struct nst_merge *m, size_t *failed)
{
	struct pollfd *fds = malloc((size_t)pl->n * sizeof *fds);
	int *who = malloc((size_t)pl->n * sizeof *who);
	int rc = fds && who ? 0 : (cli_error("out of memory"), EXIT_FAILED);
	while (!rc) {
		int nfds = 0;
		for (int k = 0; k < pl->n; k++)
			if (pl->w[k].input >= 0) {
				fds[nfds] = (struct pollfd){ .fd = pl->w[k].from, .events = POLLIN };
				who[nfds++] = k;
			}
		if (nfds == 0)
			break;
		if (poll(fds, (nfds_t)nfds, -1) < 0) {
			if (errno == EINTR)
				continue;
			cli_error("recipe: poll: %s", strerror(errno));
			rc = EXIT_FAILED;
		}
		for (int f = 0; !rc && f < nfds; f++)
			if (fds[f].revents)
				rc = receive(pl, who[f], m, failed);
	}
	free(fds);
	free(who);
	return rc;
}

static int with_workers(const struct recipe_plan *p, int n, struct nst_merge *m, size_t *failed)
{
	struct pool pl = { p, calloc((size_t)n, sizeof *pl.w), n, 0, 0 };
	if (!pl.w) {
		cli_error("out of memory");
		return EXIT_FAILED;
	}
	for (int k = 0; k < n; k++)
		pl.w[k] = (struct worker){ 0, -1, -1, -1 };
	/* a worker that died must not take this process with it */
	void (*old)(int) = signal(SIGPIPE, SIG_IGN);
	int rc = 0;
	for (int k = 0; !rc && k < n; k++)
		if (!(rc = spawn(&pl, k)))
			assign(&pl, k);
	if (!rc)
		rc = serve(&pl, m, failed);
	for (int k = 0; k < n; k++) {
		int status;
		if (rc && pl.w[k].pid > 0)
			kill(pl.w[k].pid, SIGTERM);
		reap(&pl.w[k], &status);
	}
	signal(SIGPIPE, old);
	free(pl.w);
	return rc;
}

int recipe_local(const struct recipe_plan *p, int jobs, struct nst_merge *m, size_t *failed)
{
	*failed = 0;
	if ((size_t)jobs > p->ninputs)
		jobs = (int)p->ninputs;
	return jobs <= 1 ? in_process(p, m, failed) : with_workers(p, jobs, m, failed);
}

/* nstats-mpi has the real one (src/mpi/recipe_mpi.c). */
__attribute__((weak)) int recipe_mpi(const struct recipe_plan *p, char **argv,
				     struct nst_merge *m, size_t *failed, bool *writer)
{
	(void)p, (void)m, (void)failed, (void)writer;
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 16);
	if (n > 0) {
		self[n] = '\0';
		char *slash = strrchr(self, '/');
		strcpy(slash ? slash + 1 : self, "nstats-mpi");
		if (access(self, X_OK) == 0) {
			fflush(stdout);
			fflush(stderr);
			execv(self, argv);
			cli_error("recipe: %s: %s", self, strerror(errno));
			return EXIT_FAILED;
		}
	}
	cli_error("recipe: started by mpirun, but this nstats was built without MPI (no nstats-mpi"
		  " beside it): install Open MPI (libopenmpi-dev) and build again, or run it"
		  " without mpirun");
	return EXIT_USAGE;
}
