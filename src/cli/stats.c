/* `nstats stats`: the command line of `nsys stats`.  Reports, formats and
 * outputs form tuples; the shorter lists repeat their last element.  The
 * same driver runs `nstats analyze` over the rules (cli_run_catalog). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/output.h"

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
	struct nst_filter filter;
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

static int filter_time(struct stats_cmd *c, const char *v)
{
	struct nst_error err = { 0 };
	enum nst_status s = nst_filter_parse_time(v, &c->filter, &err);
	if (s == NST_ERR_USAGE)
		cli_error("%s: illegal --filter-time argument '%s': %s", c->cat->cmd, v, err.msg);
	else if (s != NST_OK)
		cli_error("%s", err.msg);
	return exit_of(s);
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
	case O_FILTER_TIME: return filter_time(c, v);
	case O_FILTER_NVTX: c->filter.nvtx = v; break;
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
void cli_catalog_doc(const struct catalog *cat, struct command_doc *d)
{
	_Static_assert(NOPTIONS <= CLI_MAX_OPTS, "struct command_doc holds the options");
	*d = (struct command_doc){
		.name = cat->cmd,
		.synopsis = "[OPTION...] EXPORT...",
		.intro = cat->intro,
		.nopts = NOPTIONS,
		.notes = cat->pairing,
		.lists = -1,
		.exit_status =
			"Exit status: 0 done (a report that cannot run on an export prints\n"
			"SKIPPED, as nsys does), 1 a report failed, 2 usage error, 3 an export\n"
			"cannot be read or holds values nstats cannot compute with (times\n"
			"beyond +-2^61 ns, NULL times, sums beyond 64 bits), 4 output cannot\n"
			"be written, 5 --strict and a report was skipped.\n",
	};
	for (size_t i = 0; i < NOPTIONS; i++) {
		d->opts[i] = options[i];
		if (d->opts[i].id == O_REPORT) {
			d->opts[i].longname = cat->opt;
			d->opts[i].help = cat->opt_help;
		} else if (d->opts[i].id == O_HELP_REPORTS) {
			d->opts[i].longname = cat->list_opt;
			d->opts[i].help = cat->list_help;
		}
	}
}

/* ---- jobs: the -r list, or the default set -------------------------------- */

struct jobs {
	struct nst_job **job;
	size_t n;
};

/* A name or argument that does not exist points to the list that has it. */
static int bad_job(const struct catalog *cat, const char *spec, const struct nst_error *err)
{
	char name[256];
	struct nst_about about;
	snprintf(name, sizeof name, "%.*s", (int)strcspn(spec, ":"), spec);
	if (err->status != NST_ERR_UNKNOWN)
		cli_error("%s", err->msg);
	else if (nst_catalog_find(cat->catalog, name, &about))
		cli_error("%s (see nstats %s --%s %s)", err->msg, cat->cmd, cat->list_opt, name);
	else
		cli_error("%s (see nstats %s --%s)", err->msg, cat->cmd, cat->list_opt);
	return exit_of(err->status);
}

static int build_jobs(const struct stats_cmd *c, struct jobs *jobs)
{
	size_t ndef;
	const char *const *def = nst_catalog_defaults(c->cat->catalog, &ndef);
	size_t n = c->reports.n ? c->reports.n : ndef;
	jobs->job = calloc(n ? n : 1, sizeof *jobs->job);
	if (!jobs->job) {
		cli_error("out of memory");
		return EXIT_FAILED;
	}
	for (; jobs->n < n; jobs->n++) {
		const char *spec = c->reports.n ? c->reports.item[jobs->n] : def[jobs->n];
		struct nst_error err = { 0 };
		if (nst_job_parse(c->cat->catalog, spec, &jobs->job[jobs->n], &err) != NST_OK)
			return bad_job(c->cat, spec, &err);
	}
	return 0;
}

static void jobs_free(struct jobs *jobs)
{
	for (size_t i = 0; i < jobs->n; i++)
		nst_job_free(jobs->job[i]);
	free(jobs->job);
}

/* ---- one job on one export ------------------------------------------------- */

struct run_state {
	const struct stats_cmd *cmd;
	struct nst_export *x;
	const char *export_path;
	int rc;
};

static const char *pick(const struct list *l, size_t i, const char *dflt)
{
	if (l->n == 0)
		return dflt;
	return l->item[i < l->n ? i : l->n - 1];
}

static int format_of(const struct stats_cmd *c, const char *f, enum nst_target target,
		     struct nst_format **out)
{
	struct nst_format_options o;
	cli_format_options(&o, target, c->timeunit);
	struct nst_error err = { 0 };
	if (nst_format_parse(f, &o, out, &err) != NST_OK) {
		cli_error("%s", err.msg);
		return exit_of(err.status);
	}
	return 0;
}

static void say_processing(const struct run_state *st, const struct nst_job *job,
			   const struct target *t)
{
	if (st->cmd->quiet)
		return;
	printf("Processing [%s] with [%s]", st->export_path, nst_job_spec(job));
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
static void say_hidden_graphs(const struct run_state *st, const struct nst_job *job,
			      const struct nst_run_result *res)
{
	uint64_t n = res->hidden_graph_launches;
	if (n == 0)
		return;
	fflush(stdout);
	fprintf(stderr, "nstats: note: %s on %s: %" PRIu64 " CUDA graph launch%s (",
		nst_job_name(job), st->export_path, n, n == 1 ? "" : "es");
	print_grouped(stderr, res->hidden_graph_ns);
	fprintf(stderr, " ns of GPU time in CUPTI_ACTIVITY_KIND_GRAPH_TRACE) %s not in this"
		" report: %s kernels were traced at graph level (--cuda-graph-trace=graph)\n",
		n == 1 ? "is" : "are", n == 1 ? "its" : "their");
}

static void note_status(struct run_state *st, enum nst_status s)
{
	int code = exit_of(s);
	if (s == NST_ERR_NODATA && !st->cmd->strict)
		code = EXIT_OK;
	if (code > st->rc)
		st->rc = code;
}

struct opener {
	struct target *target;
	bool force;
};

static FILE *open_target(void *arg, struct nst_error *err)
{
	struct opener *o = arg;
	return target_open(o->target, o->force, err) == NST_OK ? o->target->fp : NULL;
}

/* Tuple i: the job, its format and its output. */
static void run_job(struct run_state *st, size_t i, const struct nst_job *job)
{
	const struct stats_cmd *c = st->cmd;
	const char *out = pick(&c->outputs, i, "-");
	struct nst_format *fmt = NULL;
	struct target t = { 0 };
	struct nst_error err = { 0 };
	int rc = format_of(c, pick(&c->formats, i, "."), target_kind_of(out), &fmt);
	if (rc) {
		st->rc = rc > st->rc ? rc : st->rc;
		return;
	}
	enum nst_status s = target_resolve(&t, out, st->export_path, nst_job_spec(job),
					   nst_format_ext(fmt), &err);
	if (s == NST_OK) {
		say_processing(st, job, &t);
		struct opener op = { &t, c->force };
		struct nst_run run = { .job = job, .filter = &c->filter, .format = fmt,
				       .open = open_target, .open_arg = &op };
		struct nst_run_result res;
		s = nst_run(st->x, &run, &res, &err);
		struct nst_error close_err = { 0 };
		if (target_close(&t, &close_err) != NST_OK && s == NST_OK)
			s = (err = close_err).status;
		say_result(st, &t, s, &err);
		say_hidden_graphs(st, job, &res);
	}
	if (s != NST_OK && s != NST_ERR_NODATA)
		cli_error("%s", err.msg);
	note_status(st, s);
	target_release(&t);
	nst_format_free(fmt);
}

static void run_export(struct run_state *st, const char *input, const struct jobs *jobs)
{
	struct nst_options o;
	cli_export_options(&o, st->cmd->quiet);
	struct nst_error err = { 0 };
	enum nst_status s = nst_export_open(input, &o, &st->x, &err);
	if (s == NST_OK) {
		st->export_path = nst_export_path(st->x);
		s = nst_export_load(st->x, &st->cmd->filter, jobs->job, jobs->n, &err);
	}
	if (s != NST_OK) {
		cli_error("%s", err.msg);
		note_status(st, s);
	}
	for (size_t j = 0; s == NST_OK && j < jobs->n; j++)
		run_job(st, j, jobs->job[j]);
	nst_export_close(st->x);
	st->x = NULL;
}

/* Every format is checked before the first export: a typo should not
 * cost a long run. */
static int check_formats(const struct stats_cmd *c)
{
	for (size_t i = 0; i <= c->formats.n; i++) {
		struct nst_format *f = NULL;
		/* the last round checks --timeunit alone */
		const char *spec = i < c->formats.n ? c->formats.item[i] : ".";
		struct stats_cmd plain = *c;
		if (i < c->formats.n)
			plain.timeunit = NULL;
		int rc = format_of(&plain, spec, NST_TO_CONSOLE, &f);
		nst_format_free(f);
		if (rc)
			return rc;
	}
	return 0;
}

static int help_reports(const struct catalog *cat, const char *name)
{
	struct nst_about r;
	bool all_of_them = name && strcmp(name, "ALL") == 0;
	if (name && !all_of_them && !nst_catalog_find(cat->catalog, name, &r)) {
		cli_error("%s '%s' could not be found (see nstats %s --%s)", cat->noun, name,
			  cat->cmd, cat->list_opt);
		return EXIT_USAGE;
	}
	if (!name)
		printf("The %ss nstats knows (nstats %s --%s NAME tells more):\n\n", cat->noun,
		       cat->cmd, cat->list_opt);
	for (size_t i = 0; nst_catalog_entry(cat->catalog, i, &r); i++) {
		if (name && !all_of_them && strcmp(name, r.name) != 0)
			continue;
		cli_about(stdout, &r, name != NULL);
		if (name)
			putchar('\n');
	}
	return 0;
}

static int run_stats(struct stats_cmd *c)
{
	struct jobs jobs = { 0 };
	int rc = build_jobs(c, &jobs);
	if (!rc)
		rc = check_formats(c);
	struct run_state st = { .cmd = c };
	for (size_t i = 0; !rc && i < c->inputs.n; i++)
		run_export(&st, c->inputs.item[i], &jobs);
	jobs_free(&jobs);
	return rc ? rc : st.rc;
}

int cli_run_catalog(const struct catalog *cat, int argc, char **argv)
{
	struct stats_cmd c = { .cat = cat };
	struct command_doc doc;
	cli_catalog_doc(cat, &doc);
	int rc = opt_parse(cat->cmd, doc.opts, doc.nopts, argc, argv, on_option, &c);
	if (rc == 0) {
		if (c.help) {
			cli_usage(stdout, &doc);
		} else if (c.help_reports) {
			rc = help_reports(cat, c.help_reports_arg);
		} else if (c.help_formats) {
			struct nst_error err = { 0 };
			if (nst_format_help(stdout, c.help_formats_arg, &err) != NST_OK) {
				cli_error("%s", err.msg);
				rc = EXIT_USAGE;
			}
		} else if (c.inputs.n == 0) {
			cli_usage(stderr, &doc);
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
	.pairing = "Reports, formats and outputs pair up in order; when one list is\n"
		   "shorter, its last element repeats.\n",
	.intro = "Prints nsys stats reports of Nsight Systems SQLite exports (or of the\n"
		 ".sqlite export beside a .nsys-rep) and of PyTorch profiler traces\n"
		 "(.json, .json.gz).",
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
