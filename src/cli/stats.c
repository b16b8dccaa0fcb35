/* `nstats stats`: the command line of `nsys stats`.  Reports, formats and
 * outputs form tuples; the shorter lists repeat their last element.  The
 * same driver runs `nstats analyze` over the rules (cli_run_catalog). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/filter.h"
#include "cli/input.h"
#include "cli/output.h"
#include "format/format.h"
#include "reports/graph_note.h"
#include "reports/nvtx_gpu.h"
#include "reports/report.h"

enum {
	O_REPORT, O_FORMAT, O_OUTPUT, O_TIMEUNIT, O_FILTER_TIME, O_FILTER_NVTX,
	O_FORCE, O_QUIET, O_STRICT,
	O_HELP_REPORTS, O_HELP_FORMATS, O_HELP,
};

static const struct opt options[] = {
	{ 'r', "report", OPT_REQUIRED, "NAME[:ARG...][,NAME...]",
	  "Report to run, with its arguments (e.g. cuda_gpu_kern_sum:base).\n"
	  "Repeatable. Without it, the default set runs.", O_REPORT },
	{ 'f', "format", OPT_REQUIRED, "FMT[:ARG...][,FMT...]",
	  "Output format: column, table, csv, tsv, json, hdoc, htable; \".\" is\n"
	  "the output's default (column on the console, csv elsewhere).", O_FORMAT },
	{ 'o', "output", OPT_REQUIRED, "OUT[,OUT...]",
	  "\"-\" the console (default), \"@CMD\" a command's input, \".\" files\n"
	  "named after the export, anything else a base name for\n"
	  "<base>_<report>.<ext> files.", O_OUTPUT },
	{ 0, "timeunit", OPT_REQUIRED, "UNIT",
	  "Time unit of every format: nsec, usec, msec, seconds (prefixes work).",
	  O_TIMEUNIT },
	{ 0, "filter-time", OPT_REQUIRED, "[START]/[END]",
	  "Only events that overlap this time range (ns, or values with units\n"
	  "ns, us, ms, s, m, h and their long names, e.g. 1s2ms); an omitted\n"
	  "end is open.  Per report: start=NS, end=NS (they win over it).",
	  O_FILTER_TIME },
	{ 0, "filter-nvtx", OPT_REQUIRED, "RANGE[@DOMAIN][/INDEX]",
	  "Only events that overlap an NVTX range (the INDEX-th by start, from\n"
	  "0) on its thread, or its process when it is on the main thread; the\n"
	  "domain is required when the range has one.  Wins over --filter-time.\n"
	  "Per report: nvtx=RANGE[@DOMAIN][/INDEX].", O_FILTER_NVTX },
	{ 0, "force-overwrite", OPT_OPTIONAL, "[true|false]",
	  "Replace output files that exist (refused otherwise).", O_FORCE },
	{ 'q', "quiet", OPT_NONE, NULL,
	  "Only print errors and report output (and the notes that say a\n"
	  "report's numbers leave something out, on stderr).", O_QUIET },
	{ 0, "strict", OPT_NONE, NULL,
	  "Exit 5 when a report could not run on an export (nsys exits 0).",
	  O_STRICT },
	{ 0, "help-reports", OPT_OPTIONAL, "[NAME|ALL]",
	  "List the reports, or describe one or all of them.", O_HELP_REPORTS },
	{ 0, "help-formats", OPT_OPTIONAL, "[NAME|ALL]",
	  "List the formats, or describe one or all of them.", O_HELP_FORMATS },
	{ 'h', "help", OPT_NONE, NULL, "This help.", O_HELP },
};
#define NOPTIONS (sizeof options / sizeof *options)

struct list {
	char **item;
	size_t n;
};

struct stats_cmd {
	const struct catalog *cat;
	struct list reports, formats, outputs, inputs;
	const char *timeunit;
	struct filter_spec filter;
	bool force, quiet, strict;
	bool help, help_reports, help_formats;
	const char *help_reports_arg, *help_formats_arg;
};

static int list_add(struct list *l, const char *s, size_t len)
{
	char **p = realloc(l->item, (l->n + 1) * sizeof *p);
	if (!p)
		return -1;
	l->item = p;
	if (!(l->item[l->n] = strndup(s, len)))
		return -1;
	l->n++;
	return 0;
}

/* "a,b,c" adds three items. */
static int list_add_split(struct list *l, const char *s)
{
	for (;;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);
		if (list_add(l, s, len))
			return -1;
		if (!comma)
			return 0;
		s = comma + 1;
	}
}

static void list_free(struct list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->item[i]);
	free(l->item);
}

static int on_option(void *state, const struct opt *o, const char *v)
{
	struct stats_cmd *c = state;
	int bad = 0;
	if (!o)
		return list_add(&c->inputs, v, strlen(v)) ? EXIT_FAILED : 0;
	switch (o->id) {
	case O_REPORT: bad = list_add_split(&c->reports, v); break;
	case O_FORMAT: bad = list_add_split(&c->formats, v); break;
	case O_OUTPUT: bad = list_add_split(&c->outputs, v); break;
	case O_TIMEUNIT: c->timeunit = v; break;
	case O_FILTER_TIME: return filter_parse_time(c->cat->cmd, v, &c->filter);
	case O_FILTER_NVTX: filter_set_nvtx(&c->filter, v); break;
	case O_FORCE: return opt_bool(c->cat->cmd, o, v, &c->force);
	case O_QUIET: c->quiet = true; break;
	case O_STRICT: c->strict = true; break;
	case O_HELP_REPORTS: c->help_reports = true; c->help_reports_arg = v; break;
	case O_HELP_FORMATS: c->help_formats = true; c->help_formats_arg = v; break;
	case O_HELP: c->help = true; break;
	}
	if (bad) {
		cli_error("out of memory");
		return EXIT_FAILED;
	}
	return 0;
}

/* The option table as `cat` names its -r and its list option. */
static void command_options(const struct catalog *cat, struct opt out[NOPTIONS])
{
	for (size_t i = 0; i < NOPTIONS; i++) {
		out[i] = options[i];
		if (out[i].id == O_REPORT) {
			out[i].longname = cat->opt;
			out[i].help = cat->opt_help;
		} else if (out[i].id == O_HELP_REPORTS) {
			out[i].longname = cat->list_opt;
			out[i].help = cat->list_help;
		}
	}
}

static void usage(const struct catalog *cat, FILE *out)
{
	struct opt opts[NOPTIONS];
	command_options(cat, opts);
	fprintf(out, "usage: nstats %s [OPTION...] EXPORT...\n\n%s\n\n", cat->cmd, cat->intro);
	opt_help(out, opts, NOPTIONS);
	fprintf(out, "\n%c%ss, formats and outputs pair up in order; when one list is\n"
		"shorter, its last element repeats.\n\n", toupper((unsigned char)cat->noun[0]),
		cat->noun + 1);
	fputs("Exit status: 0 done (a report that cannot run on an export prints\n"
	      "SKIPPED, as nsys does), 1 a report failed, 2 usage error, 3 an export\n"
	      "cannot be read or holds values nstats cannot compute with (times\n"
	      "beyond +-2^61 ns, NULL times, sums beyond 64 bits), 4 output cannot\n"
	      "be written, 5 --strict and a report was skipped.\n", out);
}

/* ---- --timeunit: longest-prefix match, as nsys accepts it ---------------- */

static const char *time_unit_of(const char *arg)
{
	static const struct { const char *word, *unit; } units[] = {
		{ "nsec", "ns" }, { "nanoseconds", "ns" }, { "usec", "us" },
		{ "microseconds", "us" }, { "msec", "ms" }, { "milliseconds", "ms" },
		{ "seconds", "sec" },
	};
	size_t len = strlen(arg);
	const char *hit = NULL;
	for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
		if (len == 0 || strncasecmp(units[i].word, arg, len) != 0)
			continue;
		if (hit && strcmp(hit, units[i].unit) != 0)
			return NULL; /* ambiguous */
		hit = units[i].unit;
	}
	return hit;
}

/* ---- report specs: "name:arg:key=value" ---------------------------------- */

struct report_job {
	const struct nst_report *report; /* NULL: not implemented yet */
	const char *spec;                /* as given */
	char *name;
	struct nst_arg *args;
	size_t nargs;
	char *buf;
};

static bool accepts(const struct nst_report *r, const char *key)
{
	for (const char *const *a = r->args; a && *a; a++)
		if (strcmp(*a, key) == 0)
			return true;
	return false;
}

static int parse_report(const struct catalog *cat, const char *spec,
			struct report_job *job)
{
	memset(job, 0, sizeof *job);
	job->spec = spec;
	job->buf = strdup(spec);
	job->args = calloc(strlen(spec) + 1, sizeof *job->args);
	if (!job->buf || !job->args) {
		cli_error("out of memory");
		return EXIT_FAILED;
	}
	char *save, *tok = strtok_r(job->buf, ":", &save);
	job->name = tok ? tok : job->buf;
	job->report = cat->find(job->name);
	while ((tok = strtok_r(NULL, ":", &save))) {
		char *eq = strchr(tok, '=');
		if (eq)
			*eq = '\0';
		job->args[job->nargs++] = (struct nst_arg){ tok, eq ? eq + 1 : NULL };
		if (job->report && filter_is_arg(tok)) {
			int rc = filter_check_arg(job->name, &job->args[job->nargs - 1]);
			if (rc)
				return rc;
		} else if (job->report && !accepts(job->report, tok)) {
			cli_error("%s '%s': unknown argument '%s' (see nstats %s --%s %s)",
				  cat->noun, job->name, tok, cat->cmd, cat->list_opt, job->name);
			return EXIT_USAGE;
		}
	}
	if (!job->report) {
		cli_error("%s '%s' could not be found (see nstats %s --%s)",
			  cat->noun, job->name, cat->cmd, cat->list_opt);
		return EXIT_USAGE;
	}
	struct nst_error err = { 0 };
	if (job->report->check && job->report->check(job->args, job->nargs, &err) != NST_OK) {
		cli_error("%s '%s': %s", cat->noun, job->name, err.msg);
		return EXIT_USAGE;
	}
	return 0;
}

static void report_job_free(struct report_job *job)
{
	free(job->buf);
	free(job->args);
}

/* ---- one report on one export --------------------------------------------- */

struct run_state {
	const struct stats_cmd *cmd;
	const char *export_path;
	struct nst_db *db;
	struct nst_events *ev;
	struct nst_shared *shared;
	struct filter_views *views;
	int rc;
};

/* Starts the formatter (and the output) only when the report has rows to
 * give, so that a skipped report leaves no empty file behind. */
struct lazy_out {
	struct target *target;
	const struct nst_fmt_spec *spec;
	const char *title, *name;
	bool force;
	const struct nst_ctx *ctx; /* a rule's advice, noresult and footer */
	struct nst_fmt *fmt;
	struct nst_sink sink;
	struct nst_error err; /* why the output failed, kept from the report's */
	enum nst_status status;
};

static int lazy_begin(void *ctx, const char *const *cols, size_t n)
{
	struct lazy_out *l = ctx;
	l->status = target_open(l->target, l->force, &l->err);
	if (l->status != NST_OK)
		return -1;
	l->fmt = nst_fmt_open(l->spec, l->target->fp, l->title, l->name);
	if (!l->fmt || nst_fmt_set_notes(l->fmt, l->ctx->advice, l->ctx->noresult,
						   l->ctx->footer)) {
		l->status = nst_fail(&l->err, NST_ERR_NOMEM, "out of memory");
		return -1;
	}
	l->sink = nst_fmt_sink(l->fmt);
	return l->sink.begin(l->sink.ctx, cols, n);
}

static int lazy_row(void *ctx, const struct nst_cell *cells)
{
	struct lazy_out *l = ctx;
	return l->sink.row(l->sink.ctx, cells);
}

static enum nst_status finish_output(struct lazy_out *l, enum nst_status s,
				     struct nst_error *err)
{
	if (!l->fmt)
		return s;
	struct nst_error end_err = { 0 };
	enum nst_status e = nst_fmt_end(l->fmt, &end_err);
	enum nst_status c = target_close(l->target, &end_err);
	if (s == NST_OK && (e != NST_OK || c != NST_OK)) {
		*err = end_err;
		return err->status;
	}
	return s;
}

static void say_processing(const struct run_state *st, const struct report_job *job,
			   const struct target *t)
{
	if (st->cmd->quiet)
		return;
	printf("Processing [%s] with [%s]", st->export_path, job->spec);
	if (t->kind == TARGET_FILE)
		printf(" to [%s]", t->name);
	else if (t->kind == TARGET_PROCESS)
		printf(" to process [@%s]", t->name);
	/* nsys finishes the line at once unless it will say PROCESSED. */
	fputs(t->kind == TARGET_FILE ? "... " : "... \n", stdout);
	fflush(stdout);
}

/* nsys says SKIPPED on stdout, and with -q says nothing at all; nstats
 * then says it on stderr, so that stdout stays clean and nothing is lost. */
static void say_result(const struct run_state *st, const struct target *t,
		       enum nst_status s, const struct nst_error *err)
{
	bool quiet = st->cmd->quiet;
	if (s == NST_ERR_NODATA && quiet)
		fprintf(stderr, "SKIPPED: %s\n", err->msg);
	else if (s == NST_ERR_NODATA)
		printf("SKIPPED: %s\n\n", err->msg);
	else if (s == NST_OK && t->kind == TARGET_FILE && !quiet)
		puts("PROCESSED");
}

static int discard_begin(void *ctx, const char *const *cols, size_t n)
{
	(void)ctx, (void)cols, (void)n;
	return 0;
}

static int discard_row(void *ctx, const struct nst_cell *cells)
{
	(void)ctx, (void)cells;
	return 0;
}

/* The NVTX range of the filter is not there: nsys says so, unless the
 * export lacks what the report needs, which it says first.  The report
 * runs on no rows to tell, unless nsys checks its tables after the
 * filter. */
static enum nst_status skipped_by_filter(const struct nst_report *r, struct nst_ctx *ctx,
					 struct nst_error *err)
{
	struct nst_error own = { 0 };
	struct nst_sink none = { discard_begin, discard_row, NULL };
	if (r->flags & NST_REPORT_CHECKS_AFTER_FILTER)
		return NST_ERR_NODATA;
	if (r->run(ctx, &none, &own) == NST_ERR_NODATA)
		*err = own;
	return NST_ERR_NODATA;
}

/* What a kernel report could not see of CUDA graphs, measured on the rows
 * its filter shows.  A skipped report gets it too (an export whose kernels
 * all ran in graphs has no kernel table); failing to measure leaves the
 * report's own result alone. */
static void measure_graphs(const struct nst_report *r, struct nst_ctx *ctx,
			   enum nst_status s, struct nst_graph_time *g)
{
	struct nst_error ignored = { 0 };
	if (!(r->flags & NST_REPORT_KERNELS) || (s != NST_OK && s != NST_ERR_NODATA))
		return;
	if (nst_graph_time_of(ctx->ev, g, &ignored) != NST_OK)
		*g = (struct nst_graph_time){ 0 };
}

static enum nst_status run_report(struct run_state *st, const struct report_job *job,
				  const struct nst_fmt_spec *spec, struct target *t,
				  struct nst_graph_time *graphs, struct nst_error *err)
{
	struct nst_arena arena = { 0 };
	struct nst_ctx ctx = {
		.db = st->db,
		.args = job->args, .nargs = job->nargs, .arena = &arena,
	};
	struct filter_spec filter;
	filter_of_report(&st->cmd->filter, job->args, job->nargs, &filter);
	const struct filter_spec none = { 0 };
	enum nst_status fs = filter_views_get(st->views, &none, &ctx.ev_all, &ctx.shared_all, err);
	if (fs == NST_OK)
		fs = filter_views_get(st->views, &filter, &ctx.ev, &ctx.shared, err);
	if (fs != NST_OK) {
		if (fs == NST_ERR_NODATA)
			fs = skipped_by_filter(job->report, &ctx, err);
		nst_arena_release(&arena);
		return fs;
	}
	ctx.nvtx = filter.nvtx;
	struct lazy_out l = {
		.target = t, .spec = spec, .title = job->report->title,
		.name = job->name, .force = st->cmd->force, .ctx = &ctx,
	};
	struct nst_sink sink = { lazy_begin, lazy_row, &l };
	enum nst_status s = job->report->run(&ctx, &sink, err);
	if (l.status != NST_OK) {
		*err = l.err;
		s = l.status;
	}
	s = finish_output(&l, s, err);
	measure_graphs(job->report, &ctx, s, graphs);
	nst_arena_release(&arena);
	return s;
}

static const char *pick(const struct list *l, size_t i, const char *dflt)
{
	if (l->n == 0)
		return dflt;
	return l->item[i < l->n ? i : l->n - 1];
}

/* The format of tuple i: "." (or none) is the default for its output. */
static int format_of(const struct stats_cmd *c, size_t i, const struct target *t,
		     struct nst_fmt_spec *spec)
{
	const char *f = pick(&c->formats, i, ".");
	if (strcmp(f, ".") == 0)
		f = t->kind == TARGET_CONSOLE ? "column" : "csv";
	struct nst_error err = { 0 };
	if (nst_fmt_parse(f, spec, &err) != NST_OK) {
		cli_error("%s", err.msg);
		return EXIT_USAGE;
	}
	if (c->timeunit && !spec->time_unit)
		spec->time_unit = time_unit_of(c->timeunit);
	return 0;
}

/* A report's error.  Input errors name the export first; the few raised
 * where it is not known (a sum that does not fit 64 bits) are named here. */
static void say_error(const struct run_state *st, enum nst_status s, const struct nst_error *err)
{
	size_t len = strlen(st->export_path);
	bool named = strncmp(err->msg, st->export_path, len) == 0 && err->msg[len] == ':';
	if (s == NST_ERR_DB && !named)
		cli_error("%s: %s", st->export_path, err->msg);
	else
		cli_error("%s", err->msg);
}

static void note_status(struct run_state *st, enum nst_status s)
{
	int code = exit_of(s);
	if (s == NST_ERR_NODATA && !st->cmd->strict)
		code = EXIT_OK;
	if (code > st->rc)
		st->rc = code;
}

static void run_job(struct run_state *st, size_t i, const struct report_job *job)
{
	const struct stats_cmd *c = st->cmd;
	struct nst_error err = { 0 };
	struct target t;
	struct nst_fmt_spec spec;
	const char *out = pick(&c->outputs, i, "-");
	/* The extension depends on the format, the format on the output. */
	struct target probe;
	if (target_resolve(&probe, out, st->export_path, job->spec, "x", &err) != NST_OK) {
		cli_error("%s", err.msg);
		note_status(st, err.status);
		return;
	}
	int rc = format_of(c, i, &probe, &spec);
	target_release(&probe);
	if (rc) {
		note_status(st, NST_ERR_USAGE);
		return;
	}
	if (target_resolve(&t, out, st->export_path, job->spec, nst_fmt_ext(spec.style), &err)) {
		cli_error("%s", err.msg);
		note_status(st, err.status);
		return;
	}
	spec.console = t.kind != TARGET_FILE;
	say_processing(st, job, &t);
	struct nst_graph_time graphs = { 0 };
	enum nst_status s = run_report(st, job, &spec, &t, &graphs, &err);
	say_result(st, &t, s, &err);
	/* After the report's own lines: stdout keeps nsys's bytes, and the
	 * note stays even with -q, since it says the numbers are incomplete. */
	fflush(stdout);
	nst_graph_note_print(stderr, job->name, st->export_path, &graphs);
	if (s != NST_OK && s != NST_ERR_NODATA)
		say_error(st, s, &err);
	note_status(st, s);
	target_release(&t);
}

static enum nst_status declare(struct nst_events *ev, const struct nst_need *need,
			       bool filtered)
{
	enum nst_status s = NST_OK;
	for (; s == NST_OK && need && need->table; need++) {
		s = nst_ev_want(ev, need->table, need->column, need->text);
		if (s == NST_OK && filtered)
			s = nst_ev_want_filter(ev, need->table);
	}
	return s;
}

static enum nst_status declare_needs(const struct stats_cmd *c, struct nst_events *ev,
				     const struct report_job *jobs, size_t n)
{
	enum nst_status s = NST_OK;
	for (size_t j = 0; s == NST_OK && j < n; j++) {
		if (!jobs[j].report)
			continue;
		struct filter_spec f;
		filter_of_report(&c->filter, jobs[j].args, jobs[j].nargs, &f);
		bool filtered = f.has_start || f.has_end || f.nvtx;
		s = declare(ev, jobs[j].report->needs, filtered);
		if (s == NST_OK)
			s = declare(ev, jobs[j].report->needs_unfiltered, false);
		if (s == NST_OK && jobs[j].report->flags & NST_REPORT_KERNELS)
			s = declare(ev, nst_graph_note_needs, filtered);
		if (s == NST_OK && nst_args_flag(jobs[j].args, jobs[j].nargs, "nvtx-name"))
			s = declare(ev, nst_nvtx_name_needs, filtered);
	}
	return s;
}

static void run_export(struct run_state *st, const char *input,
		       const struct report_job *jobs, size_t njobs)
{
	struct nst_error err = { 0 };
	char *path = NULL;
	enum nst_status s = input_resolve(input, &path, &err);
	if (s == NST_OK)
		s = nst_db_open(path, &st->db, &err);
	if (s != NST_OK) {
		cli_error("%s", err.msg);
		note_status(st, s);
		free(path);
		return;
	}
	st->export_path = path;
	st->ev = nst_ev_new(st->db);
	st->shared = nst_shared_new();
	st->views = st->ev && st->shared ? filter_views_new(st->db, st->ev, st->shared) : NULL;
	/* Progress goes to a terminal on stderr, and only when stdout is not
	 * that terminal too, where the Processing lines already show it. */
	if (st->ev)
		nst_ev_show_progress(st->ev, !st->cmd->quiet && isatty(STDERR_FILENO) &&
					     !isatty(STDOUT_FILENO));
	if (!st->views || declare_needs(st->cmd, st->ev, jobs, njobs) != NST_OK) {
		cli_error("out of memory");
		note_status(st, NST_ERR_NOMEM);
	} else if ((s = nst_ev_preload(st->ev, &err)) != NST_OK) {
		cli_error("%s", err.msg);
		note_status(st, s);
	} else {
		for (size_t j = 0; j < njobs; j++) {
			if (jobs[j].report) {
				run_job(st, j, &jobs[j]);
			} else if (!st->cmd->quiet) {
				fflush(stdout);
				fprintf(stderr, "nstats: note: %s is not implemented yet; skipped\n",
					jobs[j].name);
			}
		}
	}
	filter_views_free(st->views);
	nst_shared_free(st->shared);
	nst_ev_free(st->ev);
	nst_db_close(st->db);
	free(path);
}

/* The -r list, or the default set (whose members nstats lacks are kept
 * with report == NULL and noted when run). */
static int build_jobs(const struct stats_cmd *c, struct report_job **out, size_t *n)
{
	size_t ndef;
	const char *const *def = c->cat->default_set(&ndef);
	*n = c->reports.n ? c->reports.n : ndef;
	*out = calloc(*n ? *n : 1, sizeof **out);
	if (!*out) {
		cli_error("out of memory");
		return EXIT_FAILED;
	}
	for (size_t i = 0; i < *n; i++) {
		if (c->reports.n) {
			int rc = parse_report(c->cat, c->reports.item[i], &(*out)[i]);
			if (rc)
				return rc;
		} else {
			(*out)[i] = (struct report_job){ .spec = def[i], .name = (char *)def[i],
							 .report = c->cat->find(def[i]) };
		}
	}
	return 0;
}

static int help_reports(const struct catalog *cat, const char *name)
{
	size_t n;
	const struct nst_report *const *all = cat->all(&n);
	bool all_of_them = name && strcmp(name, "ALL") == 0;
	if (name && !all_of_them && !cat->find(name)) {
		cli_error("%s '%s' could not be found (see nstats %s --%s)", cat->noun, name,
			  cat->cmd, cat->list_opt);
		return EXIT_USAGE;
	}
	if (!name)
		printf("The %ss nstats knows (nstats %s --%s NAME tells more):\n\n", cat->noun,
		       cat->cmd, cat->list_opt);
	for (size_t i = 0; i < n; i++) {
		const struct nst_report *r = all[i];
		if (name && !all_of_them && strcmp(name, r->name) != 0)
			continue;
		printf("  %s -- %s%s\n", r->name, r->title,
		       r->flags & NST_REPORT_ADDITION ? " (nstats addition)" : "");
		if (!name)
			continue;
		printf("\n");
		for (const char *p = r->help; *p;) {
			const char *nl = strchr(p, '\n');
			size_t l = nl ? (size_t)(nl - p) : strlen(p);
			printf("      %.*s\n", (int)l, p);
			p += l + (nl ? 1 : 0);
		}
		if (r->args && r->args[0]) {
			printf("\n      Arguments:");
			for (const char *const *a = r->args; *a; a++)
				printf(" %s", *a);
			printf("\n");
		}
		printf("\n");
	}
	return 0;
}

static int run_stats(struct stats_cmd *c)
{
	struct report_job *jobs = NULL;
	size_t njobs = 0;
	int rc = build_jobs(c, &jobs, &njobs);
	/* Check every format up front: a typo should not cost a long run. */
	for (size_t i = 0; !rc && i < c->formats.n; i++) {
		struct nst_fmt_spec spec;
		struct nst_error err = { 0 };
		if (strcmp(c->formats.item[i], ".") != 0 &&
		    nst_fmt_parse(c->formats.item[i], &spec, &err) != NST_OK) {
			cli_error("%s", err.msg);
			rc = EXIT_USAGE;
		}
	}
	if (!rc && c->timeunit && !time_unit_of(c->timeunit)) {
		cli_error("--timeunit: unknown unit '%s' (nsec, usec, msec, seconds)", c->timeunit);
		rc = EXIT_USAGE;
	}
	struct run_state st = { .cmd = c };
	for (size_t i = 0; !rc && i < c->inputs.n; i++)
		run_export(&st, c->inputs.item[i], jobs, njobs);
	for (size_t i = 0; jobs && c->reports.n && i < njobs; i++)
		report_job_free(&jobs[i]);
	free(jobs);
	return rc ? rc : st.rc;
}

int cli_run_catalog(const struct catalog *cat, int argc, char **argv)
{
	struct stats_cmd c = { .cat = cat };
	struct opt opts[NOPTIONS];
	command_options(cat, opts);
	int rc = opt_parse(cat->cmd, opts, NOPTIONS, argc, argv, on_option, &c);
	if (rc == 0) {
		if (c.help) {
			usage(cat, stdout);
		} else if (c.help_reports) {
			rc = help_reports(cat, c.help_reports_arg);
		} else if (c.help_formats) {
			struct nst_error err = { 0 };
			if (nst_fmt_help(stdout, c.help_formats_arg, &err) != NST_OK) {
				cli_error("%s", err.msg);
				rc = EXIT_USAGE;
			}
		} else if (c.inputs.n == 0) {
			usage(cat, stderr);
			rc = EXIT_USAGE;
		} else {
			rc = run_stats(&c);
		}
	}
	list_free(&c.reports);
	list_free(&c.formats);
	list_free(&c.outputs);
	list_free(&c.inputs);
	return rc;
}

static const struct catalog stats_catalog = {
	.cmd = "stats",
	.noun = "report",
	.opt = "report",
	.opt_help = "Report to run, with its arguments (e.g. cuda_gpu_kern_sum:base).\n"
		    "Repeatable. Without it, the default set runs.",
	.list_opt = "help-reports",
	.list_help = "List the reports, or describe one or all of them.",
	.intro = "Prints nsys stats reports of Nsight Systems SQLite exports (or of the\n"
		 ".sqlite export beside a .nsys-rep).",
	.find = nst_report_find,
	.all = nst_report_all,
	.default_set = nst_report_default_set,
};

int cmd_stats(int argc, char **argv)
{
	return cli_run_catalog(&stats_catalog, argc, argv);
}
