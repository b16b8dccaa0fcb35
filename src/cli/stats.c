/* `nstats stats`: the command line of `nsys stats`.  Reports, formats and
 * outputs form tuples (tuples.c); several exports run in turn.  The same
 * driver runs `nstats analyze` over the rules (cli_run_catalog). */
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/tuples.h"

/* A --report-dir query that never ends must not hang a script. */
#define DEFAULT_QUERY_LIMIT 600

enum { S_FORCE_EXPORT = T_OWN, S_SQLITE, S_REPORT_DIR, S_QUERY_LIMIT };

const struct opt cli_stats_opts[] = {
	{ 0, "force-export", OPT_OPTIONAL, "[true|false]", CLI_FORCE_EXPORT_HELP, S_FORCE_EXPORT },
	{ 0, "sqlite", OPT_REQUIRED, "FILE", CLI_SQLITE_HELP, S_SQLITE },
	{ 0, "report-dir", OPT_REQUIRED, "DIR",
	  "Reports of your own: each DIR/NAME.sql, one SELECT after a comment\n"
	  "that gives its title and help, runs as -r NAME (see\n"
	  "docs/custom-reports.md).  Repeatable.", S_REPORT_DIR },
	{ 0, "query-limit", OPT_REQUIRED, "SECONDS",
	  "Stop a --report-dir query that runs longer than this (exit 1);\n"
	  "0: no limit.  Default: 600.", S_QUERY_LIMIT },
};
const size_t cli_nstats_opts = sizeof cli_stats_opts / sizeof *cli_stats_opts;

struct stats_cmd {
	struct tuples t;
	struct list inputs;
	bool force_export;
	const char *sqlite;
	struct list report_dirs;
	double query_limit;
	struct nst_report_dir *dir;
};

static int query_limit(struct stats_cmd *c, const struct opt *o, const char *v)
{
	char *end;
	c->query_limit = strtod(v, &end);
	if (end != v && !*end && c->query_limit >= 0 && c->query_limit <= 1e9)
		return 0;
	cli_error("%s: option '--%s' takes a number of seconds (0 for no limit), not '%s'",
		  c->t.cat->cmd, o->longname, v);
	return EXIT_USAGE;
}

static int own_option(struct stats_cmd *c, const struct opt *o, const char *v)
{
	switch (o->id) {
	case S_FORCE_EXPORT: return opt_bool(c->t.cat->cmd, o, v, &c->force_export);
	case S_SQLITE: c->sqlite = v; return 0;
	case S_QUERY_LIMIT: return query_limit(c, o, v);
	}
	if (list_add(&c->report_dirs, v, strlen(v)) == 0)
		return 0;
	cli_error("out of memory");
	return EXIT_FAILED;
}

static int on_option(void *state, const struct opt *o, const char *v)
{
	struct stats_cmd *c = state;
	if (o)
		return o->id >= T_OWN ? own_option(c, o, v) : tuples_option(&c->t, o, v);
	if (list_add(&c->inputs, v, strlen(v)) == 0)
		return 0;
	cli_error("out of memory");
	return EXIT_FAILED;
}

/* ---- Ctrl-C ------------------------------------------------------------------------ */

/* Set by the SIGINT handler; the library asks through nst_options. */
static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

static bool is_interrupted(void *arg)
{
	(void)arg;
	return interrupted != 0;
}

/* The first Ctrl-C stops the run: an SQL report's query and the reading
 * of tables at once, a built-in report's computation when it is done;
 * the report being written leaves no file.  A second one ends nstats
 * there (SA_RESETHAND). */
static void catch_sigint(struct sigaction *saved)
{
	struct sigaction sa = { .sa_handler = on_sigint, .sa_flags = SA_RESETHAND };
	sigemptyset(&sa.sa_mask);
	interrupted = 0;
	sigaction(SIGINT, &sa, saved);
}

/* ---- one export ------------------------------------------------------------------ */

struct export_run {
	struct nst_export *x;
	struct nst_run_result res;
};

/* A built-in report runs to its end after Ctrl-C: it is stopped all the
 * same, and says so as an SQL report's query does. */
static enum nst_status run_one(void *arg, const struct nst_run *run, struct nst_error *err)
{
	struct export_run *e = arg;
	enum nst_status s = nst_run(e->x, run, &e->res, err);
	if (interrupted)
		s = nst_fail(err, NST_ERR_INTERRUPTED, "interrupted");
	return s;
}

/* 3456789 as "3,456,789", whatever the locale: stderr is read by people
 * and by scripts alike, and the comma never changes meaning there. */
static void print_grouped(FILE *fp, int64_t v)
{
	char digits[24];
	int n = snprintf(digits, sizeof digits, "%" PRId64, v);
	int lead = digits[0] == '-';
	for (int i = 0; i < n; i++) {
		fputc(digits[i], fp);
		int left = n - 1 - i;
		if (i >= lead && left > 0 && left % 3 == 0)
			fputc(',', fp);
	}
}

/* A kernel report's numbers leave out the kernels of CUDA graphs traced
 * at graph level: said after the report's own lines, so that stdout keeps
 * nsys's bytes, and even with -q, since the numbers are incomplete. */
static void say_hidden_graphs(const char *path, const struct nst_job *job,
			      const struct nst_run_result *res)
{
	uint64_t n = res->hidden_graph_launches;
	if (n == 0)
		return;
	fflush(stdout);
	fprintf(stderr, "nstats: note: %s on %s: %" PRIu64 " CUDA graph launch%s (",
		nst_job_name(job), path, n, n == 1 ? "" : "es");
	print_grouped(stderr, res->hidden_graph_ns);
	fprintf(stderr, " ns of GPU time in CUPTI_ACTIVITY_KIND_GRAPH_TRACE) %s not in this"
		" report: %s kernels were traced at graph level (--cuda-graph-trace=graph)\n",
		n == 1 ? "is" : "are", n == 1 ? "its" : "their");
}

/* What each reason of enum nst_exclusion says after its count, for one
 * row and for several. */
static const struct exclusion_words {
	const char *one, *many;
} exclusion_words[NST_EXCLUSIONS] = {
	[NST_EXCLUDED_BACKTRACE] = {
		"CUDA backtrace record excluded; nsys counts it as a call",
		"CUDA backtrace records excluded; nsys counts them as calls",
	},
};

/* Rows a report left out on purpose, one note per reason: its numbers
 * are right without them, so -q silences it (the graph note stays). */
static void say_excluded(const char *path, const struct nst_job *job,
			 const struct nst_run_result *res)
{
	for (size_t k = 0; k < NST_EXCLUSIONS; k++) {
		uint64_t n = res->excluded[k];
		if (n == 0)
			continue;
		fflush(stdout);
		fprintf(stderr, "nstats: note: %s on %s: ", nst_job_name(job), path);
		print_grouped(stderr, (int64_t)n);
		fprintf(stderr, " %s\n", n == 1 ? exclusion_words[k].one : exclusion_words[k].many);
	}
}

/* A value as a person reads it: 127642883 ns is "0.128 s". */
static void print_scaled(FILE *fp, int64_t ns, double unit, const char *name)
{
	double v = (double)ns / unit;
	fprintf(fp, v >= 100 || v <= -100 ? "%.0f %s" : "%.3g %s", v, name);
}

/* --filter-time 60.2/60.3 meant as seconds is read as ns, and every
 * report prints nothing: said once per export, with the capture's span
 * in ns and in a unit fit for it.  Even with -q, as it explains the
 * empty output. */
static void say_filter_misses(const struct tuples *t, struct nst_export *x)
{
	const struct nst_filter *f = &t->filter;
	int64_t start, end;
	struct nst_error err = { 0 };
	if (!t->filter_time || f->nvtx || nst_export_span(x, &start, &end, &err) != NST_OK ||
	    (f->start <= end && f->end >= start))
		return;
	double unit = end >= 100000000 ? 1e9 : end >= 100000 ? 1e6 : 1e3;
	const char *name = unit == 1e9 ? "s" : unit == 1e6 ? "ms" : "us";
	bool bare = strspn(t->filter_time, "0123456789.eE+-/ ") == strlen(t->filter_time);
	fflush(stdout);
	fprintf(stderr, "nstats: note: %s: --filter-time %s%s overlaps nothing: the capture spans ",
		nst_export_path(x), t->filter_time, bare ? " (ns)" : "");
	print_grouped(stderr, start);
	fputs(" ns to ", stderr);
	print_grouped(stderr, end);
	fputs(" ns (", stderr);
	print_scaled(stderr, start, unit, name);
	fputs(" to ", stderr);
	print_scaled(stderr, end, unit, name);
	fputs(")\n", stderr);
}

/* --filter-nvtx naming a range that is not there: nsys's SKIPPED line
 * for each report, and once per export what is there instead. */
static void say_nvtx_missing(const struct tuples *t, struct nst_export *x)
{
	char hint[600];
	struct nst_error err = { 0 };
	if (!t->filter.nvtx ||
	    nst_export_nvtx_hint(x, t->filter.nvtx, hint, sizeof hint, &err) != NST_OK || !*hint)
		return;
	fflush(stdout);
	fprintf(stderr, "nstats: note: %s: --filter-nvtx %s finds no range: %s\n",
		nst_export_path(x), t->filter.nvtx, hint);
}

/* ---- summaries computed ahead ------------------------------------------------------ */

/* An export's reports are written one after another, in order; meanwhile a
 * second thread computes summaries further on, the last first, into
 * memory, to be written in their turn.  A summary's output is small (its
 * rows are its groups: nst_job_rows_grow), and a report's bytes do not
 * depend on when it runs.  Tables are freed (nst_export_done) when no job
 * is running ahead. */
enum ahead_state { AHEAD_FREE, AHEAD_RUNNING, AHEAD_DONE, AHEAD_MAIN, AHEAD_NEVER };

struct ahead {
	enum ahead_state state;
	FILE *mem; /* opened when the report had a line to write */
	char *buf;
	size_t len;
	enum nst_status s;
	struct nst_error err;
	struct nst_run_result res;
};

struct ahead_run {
	struct stats_cmd *c;
	struct export_run *e;
	const struct jobs *jobs;
	struct ahead *a;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	pthread_t helper;
	bool started;
};

static FILE *ahead_open(void *arg, struct nst_error *err)
{
	struct ahead *a = arg;
	if (!a->mem && !(a->mem = open_memstream(&a->buf, &a->len)))
		nst_fail(err, NST_ERR_NOMEM, "out of memory");
	return a->mem;
}

/* The last summary no thread has taken, now the helper's; n when none.
 * From the end: the writer takes the jobs from the front, and the two
 * meet (taking the next one would leave the writer waiting for it). */
static size_t take_ahead(struct ahead_run *r)
{
	pthread_mutex_lock(&r->lock);
	size_t j = interrupted ? 0 : r->jobs->n;
	while (j > 0 && r->a[j - 1].state != AHEAD_FREE)
		j--;
	/* after Ctrl-C nothing more is taken: a job marked running is always
	 * run and marked done, or the writer would wait for it */
	j = j > 0 ? j - 1 : r->jobs->n;
	if (j < r->jobs->n)
		r->a[j].state = AHEAD_RUNNING;
	pthread_mutex_unlock(&r->lock);
	return j;
}

/* Job j into memory; false when its format cannot be made (it runs in
 * its turn then, which says why). */
static bool run_ahead_one(struct ahead_run *r, size_t j)
{
	struct ahead *a = &r->a[j];
	struct nst_format *fmt = NULL;
	if (tuples_format(&r->c->t, j, &fmt, &a->err) != NST_OK)
		return false;
	struct nst_run run = { .job = r->jobs->job[j], .filter = &r->c->t.filter, .format = fmt,
			       .open = ahead_open, .open_arg = a };
	a->s = nst_run(r->e->x, &run, &a->res, &a->err);
	if (a->mem && fclose(a->mem) != 0 && a->s == NST_OK)
		a->s = nst_fail(&a->err, NST_ERR_NOMEM, "out of memory");
	a->mem = NULL;
	nst_format_free(fmt);
	return true;
}

static void *run_ahead(void *arg)
{
	struct ahead_run *r = arg;
	for (size_t j; (j = take_ahead(r)) < r->jobs->n;) {
		bool ran = run_ahead_one(r, j);
		pthread_mutex_lock(&r->lock);
		r->a[j].state = ran ? AHEAD_DONE : AHEAD_NEVER;
		pthread_cond_broadcast(&r->changed);
		pthread_mutex_unlock(&r->lock);
	}
	return NULL;
}

/* An export smaller than this runs its reports in microseconds each:
 * a second thread would cost more than it saves. */
#define AHEAD_BYTES (32 << 20)

/* A helper for the summaries after the first job, when the export is
 * read on more than one thread, is big enough, and there are some. */
static bool start_ahead(struct ahead_run *r)
{
	size_t n = r->jobs->n, summaries = 0;
	struct stat st;
	if (n < 2 || nst_export_threads(r->e->x) < 2 || stat(nst_export_path(r->e->x), &st) != 0 ||
	    st.st_size < AHEAD_BYTES || !(r->a = calloc(n, sizeof *r->a)))
		return false;
	for (size_t j = 0; j < n; j++) {
		bool grows = nst_job_rows_grow(r->jobs->job[j]);
		r->a[j].state = grows ? AHEAD_NEVER : AHEAD_FREE;
		summaries += j > 0 && !grows;
	}
	r->a[0].state = AHEAD_MAIN;
	if (summaries && pthread_mutex_init(&r->lock, NULL) == 0) {
		if (pthread_cond_init(&r->changed, NULL) == 0) {
			r->started = pthread_create(&r->helper, NULL, run_ahead, r) == 0;
			if (r->started) {
				nst_export_timing(r->e->x, "summaries computed ahead on a second thread");
				return true;
			}
			pthread_cond_destroy(&r->changed);
		}
		pthread_mutex_destroy(&r->lock);
	}
	free(r->a);
	r->a = NULL;
	return false;
}

static void stop_ahead(struct ahead_run *r)
{
	if (!r->started)
		return;
	pthread_join(r->helper, NULL);
	r->started = false;
	for (size_t j = 0; j < r->jobs->n; j++)
		free(r->a[j].buf);
	pthread_cond_destroy(&r->changed);
	pthread_mutex_destroy(&r->lock);
	free(r->a);
	r->a = NULL;
}

/* Job j computed ahead, or NULL: then it is this thread's to run. */
static struct ahead *ahead_result(struct ahead_run *r, size_t j)
{
	if (!r->started)
		return NULL;
	pthread_mutex_lock(&r->lock);
	while (r->a[j].state == AHEAD_RUNNING)
		pthread_cond_wait(&r->changed, &r->lock);
	struct ahead *a = r->a[j].state == AHEAD_DONE ? &r->a[j] : NULL;
	if (!a)
		r->a[j].state = AHEAD_MAIN;
	pthread_mutex_unlock(&r->lock);
	return a;
}

/* nst_export_done(x, j) unless a job is running ahead, which it must
 * never run beside: the helper takes no job meanwhile.  A skipped one is
 * not lost: done(j) frees what every job up to j alone read. */
static void done_unless_busy(struct ahead_run *r, size_t j)
{
	if (!r->started) {
		nst_export_done(r->e->x, j);
		return;
	}
	pthread_mutex_lock(&r->lock);
	bool busy = false;
	for (size_t k = 0; k < r->jobs->n; k++)
		busy = busy || r->a[k].state == AHEAD_RUNNING;
	if (!busy)
		nst_export_done(r->e->x, j);
	pthread_mutex_unlock(&r->lock);
}

struct replay {
	struct ahead *a;
	struct export_run *e;
};

/* A report computed ahead written as it would have been. */
static enum nst_status replay(void *arg, const struct nst_run *run, struct nst_error *err)
{
	struct replay *rp = arg;
	const struct ahead *a = rp->a;
	rp->e->res = a->res;
	if (a->buf) {
		FILE *fp = run->open ? run->open(run->open_arg, err) : run->out;
		if (!fp)
			return err->status;
		if (fwrite(a->buf, 1, a->len, fp) != a->len || fflush(fp) != 0)
			return nst_fail(err, NST_ERR_IO, "cannot write %s", nst_job_name(run->job));
	}
	if (a->s != NST_OK)
		*err = a->err;
	return a->s;
}

static void run_export(struct stats_cmd *c, size_t i, const struct jobs *jobs)
{
	const char *input = c->inputs.item[i];
	struct nst_options o;
	cli_export_options(&o, c->t.quiet);
	o.sqlite = c->sqlite;
	o.force_export = c->force_export;
	o.interrupted = is_interrupted;
	o.query_limit = c->query_limit;
	struct nst_error err = { 0 };
	struct export_run e = { 0 };
	char *tag = export_tag(c->inputs.item, c->inputs.n, i);
	enum nst_status s = c->inputs.n > 1 && !tag ? nst_fail(&err, NST_ERR_NOMEM, "out of memory")
						    : nst_export_open(input, &o, &e.x, &err);
	if (s == NST_OK)
		s = nst_export_load(e.x, &c->t.filter, jobs->job, jobs->n, &err);
	if (s != NST_OK) {
		cli_error("%s", s == NST_ERR_INTERRUPTED ? "interrupted" : err.msg);
		tuples_note(&c->t, s);
		tuples_export_failed(&c->t, input, err.msg);
	} else {
		tuples_export(&c->t, nst_export_path(e.x), NULL, tag);
		say_filter_misses(&c->t, e.x);
		say_nvtx_missing(&c->t, e.x);
	}
	struct ahead_run ahead = { .c = c, .e = &e, .jobs = jobs };
	if (s == NST_OK)
		start_ahead(&ahead);
	for (size_t j = 0; s == NST_OK && !interrupted && j < jobs->n; j++) {
		const char *path = nst_export_path(e.x);
		e.res = (struct nst_run_result){ 0 };
		struct replay rp = { ahead_result(&ahead, j), &e };
		if (rp.a)
			tuples_run(&c->t, j, jobs->job[j], path, path, replay, &rp);
		else
			tuples_run(&c->t, j, jobs->job[j], path, path, run_one, &e);
		if (!c->t.quiet)
			say_excluded(path, jobs->job[j], &e.res);
		say_hidden_graphs(path, jobs->job[j], &e.res);
		done_unless_busy(&ahead, j);
	}
	stop_ahead(&ahead);
	nst_export_close(e.x);
	free(tag);
}

static int run_stats(struct stats_cmd *c)
{
	struct jobs jobs = { 0 };
	int rc = tuples_jobs(&c->t, &jobs);
	if (!rc)
		rc = tuples_check_formats(&c->t);
	if (!rc)
		rc = tuples_start(&c->t, &jobs);
	/* nothing else tells the tables of two exports apart on the console */
	c->t.label_exports = c->t.quiet && c->inputs.n > 1;
	struct sigaction saved;
	if (!rc)
		catch_sigint(&saved);
	for (size_t i = 0; !rc && !interrupted && i < c->inputs.n; i++)
		run_export(c, i, &jobs);
	if (!rc)
		sigaction(SIGINT, &saved, NULL);
	jobs_free(&jobs);
	if (interrupted)
		rc = EXIT_INTERRUPTED;
	return rc ? rc : tuples_finish(&c->t);
}

/* --sqlite names the export of one .nsys-rep. */
static int check_sqlite(const struct stats_cmd *c)
{
	if (!c->sqlite || c->inputs.n <= 1)
		return 0;
	cli_error("%s: --sqlite names the export of one input, and %zu are given", c->t.cat->cmd,
		  c->inputs.n);
	return EXIT_USAGE;
}

static int open_report_dirs(struct stats_cmd *c)
{
	if (c->report_dirs.n == 0 || c->t.help)
		return 0;
	struct nst_error err = { 0 };
	enum nst_status s = nst_report_dir_open((const char *const *)c->report_dirs.item,
						c->report_dirs.n, &c->dir, &err);
	if (s == NST_OK) {
		c->t.dir = c->dir;
		return 0;
	}
	cli_error("%s", err.msg);
	return exit_of(s);
}

int cli_run_catalog(const struct catalog *cat, int argc, char **argv)
{
	struct stats_cmd c = { .t.cat = cat, .query_limit = DEFAULT_QUERY_LIMIT };
	struct command_doc doc;
	cli_catalog_doc(cat, &doc);
	bool done;
	int rc = opt_parse(cat->cmd, doc.opts, doc.nopts, argc, argv, on_option, &c);
	if (rc == 0)
		rc = open_report_dirs(&c);
	if (rc == 0)
		rc = tuples_help(&c.t, &doc, &done);
	if (rc == 0 && !done)
		rc = check_sqlite(&c);
	if (rc == 0 && !done && c.inputs.n == 0) {
		rc = cli_no_input(&doc, argc);
	} else if (rc == 0 && !done) {
		rc = run_stats(&c);
	}
	tuples_release(&c.t);
	list_free(&c.inputs);
	list_free(&c.report_dirs);
	nst_report_dir_close(c.dir);
	return rc;
}

/* What stats and analyze say of their exit statuses. */
const char cli_report_exit_status[] =
	"Exit status: 0 done (a report that cannot run on an export prints\n"
	"SKIPPED, as nsys does), 1 a report failed (a --report-dir query failed\n"
	"while it ran or ran past --query-limit), 2 usage error (also a\n"
	"--report-dir report that is refused, cannot be prepared or is named\n"
	"badly), 3 an export or a --report-dir file cannot be read or an export\n"
	"holds values nstats cannot compute with (times beyond +-2^61 ns, NULL\n"
	"times, sums beyond 64 bits), 4 output cannot be written, 5 --strict\n"
	"and a report was skipped, 130 interrupted (Ctrl-C): the report being\n"
	"written leaves no file.\n";

static const struct catalog stats_catalog = {
	.cmd = "stats",
	.noun = "report",
	.opt = "report",
	.opt_help = "Report to run, with its arguments (e.g. cuda_gpu_kern_sum:base).\n"
		    "Repeatable. Without it, the default set runs.\n"
		    CLI_ARG_QUOTING,
	.list_opt = "help-reports",
	.list_help = "List the reports, or describe one or all of them.",
	.pairing = "Reports, formats and outputs pair up in order; when one list is\n"
		   "shorter, its last element repeats.\n",
	.intro = "Prints nsys stats reports of Nsight Systems SQLite exports (or of the\n"
		 ".sqlite export beside a .nsys-rep) and of PyTorch profiler traces\n"
		 "(.json, .json.gz).",
	.exit_status = cli_report_exit_status,
	.own = cli_stats_opts,
	.nown = sizeof cli_stats_opts / sizeof *cli_stats_opts,
	.catalog = NST_REPORTS,
};

int cmd_stats(int argc, char **argv)
{
	return cli_run_catalog(&stats_catalog, argc, argv);
}

void doc_stats(struct command_doc *d)
{
	cli_catalog_doc(&stats_catalog, d);
}
