/* The options of every command that prints reports, the reports, formats
 * and outputs it pairs up, and one report's way to its output. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/tuples.h"

const struct opt tuple_options[] = {
	{ 'r', "report", OPT_REQUIRED, "NAME[:ARG...][,NAME...]",
	  "Report to run, with its arguments (e.g. cuda_gpu_kern_sum:base).\n"
	  "Repeatable. Without it, the default set runs.", T_REPORT },
	{ 'f', "format", OPT_REQUIRED, "FMT[:ARG...][,FMT...]",
	  "Output format: column, table, csv, tsv, json, hdoc, htable; \".\" is\n"
	  "the output's default (column on the console, csv elsewhere).", T_FORMAT },
	{ 'o', "output", OPT_REQUIRED, "OUT[,OUT...]",
	  "\"-\" the console (default), \"@CMD\" a command's input, \".\" files\n"
	  "named after the export, anything else a base name for\n"
	  "<base>_<report>.<ext> files.", T_OUTPUT },
	{ 0, "timeunit", OPT_REQUIRED, "UNIT",
	  "Time unit of every format: nsec, usec, msec, seconds (prefixes work).",
	  T_TIMEUNIT },
	{ 0, "filter-time", OPT_REQUIRED, "[START]/[END]",
	  "Only events that overlap this time range (ns, or values with units\n"
	  "ns, us, ms, s, m, h and their long names, e.g. 1s2ms); an omitted\n"
	  "end is open.  Per report: start=NS, end=NS (they win over it).",
	  T_FILTER_TIME },
	{ 0, "filter-nvtx", OPT_REQUIRED, "RANGE[@DOMAIN][/INDEX]",
	  "Only events that overlap an NVTX range (the INDEX-th by start, from\n"
	  "0) on its thread, or its process when it is on the main thread; the\n"
	  "domain is required when the range has one.  Wins over --filter-time.\n"
	  "Per report: nvtx=RANGE[@DOMAIN][/INDEX].", T_FILTER_NVTX },
	{ 0, "force-overwrite", OPT_OPTIONAL, "[true|false]",
	  "Replace output files that exist (refused otherwise).", T_FORCE },
	{ 'q', "quiet", OPT_NONE, NULL,
	  "Only print errors and report output (and the notes that say a\n"
	  "report's numbers leave something out, on stderr).", T_QUIET },
	{ 0, "strict", OPT_NONE, NULL,
	  "Exit 5 when a report could not run on an export (nsys exits 0).",
	  T_STRICT },
	{ 0, "help-reports", OPT_OPTIONAL, "[NAME|ALL]",
	  "List the reports, or describe one or all of them.", T_HELP_REPORTS },
	{ 0, "help-formats", OPT_OPTIONAL, "[NAME|ALL]",
	  "List the formats, or describe one or all of them.", T_HELP_FORMATS },
	{ 'h', "help", OPT_NONE, NULL, "This help.", T_HELP },
};
const size_t tuple_noptions = sizeof tuple_options / sizeof *tuple_options;

int list_add(struct list *l, const char *s, size_t len)
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

int list_add_split(struct list *l, const char *s)
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

void list_free(struct list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->item[i]);
	free(l->item);
}

const char *list_pick(const struct list *l, size_t i, const char *dflt)
{
	if (l->n == 0)
		return dflt;
	return l->item[i < l->n ? i : l->n - 1];
}

void tuples_release(struct tuples *t)
{
	list_free(&t->reports);
	list_free(&t->formats);
	list_free(&t->outputs);
}

/* ---- options ---------------------------------------------------------------- */

static int filter_time(struct tuples *t, const char *v)
{
	struct nst_error err = { 0 };
	enum nst_status s = nst_filter_parse_time(v, &t->filter, &err);
	if (s == NST_ERR_USAGE)
		cli_error("%s: illegal --filter-time argument '%s': %s", t->cat->cmd, v, err.msg);
	else if (s != NST_OK)
		cli_error("%s", err.msg);
	return exit_of(s);
}

int tuples_option(struct tuples *t, const struct opt *o, const char *v)
{
	int bad = 0;
	switch (o->id) {
	case T_REPORT: bad = list_add_split(&t->reports, v); break;
	case T_FORMAT: bad = list_add_split(&t->formats, v); break;
	case T_OUTPUT: bad = list_add_split(&t->outputs, v); break;
	case T_TIMEUNIT: t->timeunit = v; break;
	case T_FILTER_TIME: return filter_time(t, v);
	case T_FILTER_NVTX: t->filter.nvtx = v; break;
	case T_FORCE: return opt_bool(t->cat->cmd, o, v, &t->force);
	case T_QUIET: t->quiet = true; break;
	case T_STRICT: t->strict = true; break;
	case T_HELP_REPORTS: t->help_reports = true; t->help_reports_arg = v; break;
	case T_HELP_FORMATS: t->help_formats = true; t->help_formats_arg = v; break;
	case T_HELP: t->help = true; break;
	}
	if (bad) {
		cli_error("out of memory");
		return EXIT_FAILED;
	}
	return 0;
}

/* The option table as `cat` names its -r and its list option, then the
 * command's own. */
void cli_catalog_doc(const struct catalog *cat, struct command_doc *d)
{
	*d = (struct command_doc){
		.name = cat->cmd,
		.synopsis = cat->synopsis ? cat->synopsis : "[OPTION...] EXPORT...",
		.intro = cat->intro,
		.nopts = tuple_noptions + cat->nown,
		.notes = cat->pairing,
		.lists = -1,
		.exit_status = cat->exit_status,
	};
	for (size_t i = 0; i < tuple_noptions; i++) {
		d->opts[i] = tuple_options[i];
		if (d->opts[i].id == T_REPORT) {
			d->opts[i].longname = cat->opt;
			d->opts[i].help = cat->opt_help;
		} else if (d->opts[i].id == T_HELP_REPORTS) {
			d->opts[i].longname = cat->list_opt;
			d->opts[i].help = cat->list_help;
		}
	}
	for (size_t i = 0; i < cat->nown && tuple_noptions + i < CLI_MAX_OPTS; i++)
		d->opts[tuple_noptions + i] = cat->own[i];
}

/* The directory of a --report-dir file, for "(from DIR)". */
static void dir_of(const char *path, char *dir, size_t size)
{
	const char *slash = strrchr(path, '/');
	snprintf(dir, size, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
}

/* --report-dir's reports after the catalog's: the one named, all of them,
 * or the list; its .py files are noted on stderr when listing. */
static bool help_dir_reports(const struct nst_report_dir *d, const char *name, bool all)
{
	struct nst_about r;
	const char *path;
	bool found = false;
	for (size_t i = 0; nst_report_dir_entry(d, i, &r, &path); i++) {
		if (name && !all && strcmp(name, r.name) != 0)
			continue;
		char dir[1024];
		dir_of(path, dir, sizeof dir);
		cli_about_from(stdout, &r, name != NULL, dir);
		if (name)
			putchar('\n');
		found = true;
	}
	for (size_t i = 0; !name && nst_report_dir_unsupported(d, i); i++) {
		fflush(stdout);
		fprintf(stderr, "nstats: note: %s is not listed: only .sql reports are supported\n",
			nst_report_dir_unsupported(d, i));
	}
	return found;
}

/* A NAME.py of --report-dir, asked for by name: the job's error says why. */
static int help_dir_script(const struct tuples *t, const char *name)
{
	struct nst_job *job = NULL;
	struct nst_error err = { 0 };
	enum nst_status s = nst_report_dir_job(t->dir, name, &job, &err);
	nst_job_free(job);
	if (s == NST_OK)
		return 0;
	cli_error("%s", err.msg);
	return exit_of(s);
}

static int help_reports(const struct tuples *t, const char *name)
{
	const struct catalog *cat = t->cat;
	struct nst_about r;
	bool all_of_them = name && strcmp(name, "ALL") == 0;
	bool builtin = name && !all_of_them && nst_catalog_find(cat->catalog, name, &r);
	int rc = name && !all_of_them && !builtin && t->dir ? help_dir_script(t, name) : 0;
	if (rc)
		return rc;
	if (!name)
		printf("The %ss nstats knows (nstats %s --%s NAME tells more):\n\n", cat->noun,
		       cat->cmd, cat->list_opt);
	for (size_t i = 0; (!name || all_of_them || builtin) &&
			   nst_catalog_entry(cat->catalog, i, &r); i++) {
		if (name && !all_of_them && strcmp(name, r.name) != 0)
			continue;
		cli_about(stdout, &r, name != NULL);
		if (name)
			putchar('\n');
	}
	bool in_dir = t->dir && !builtin && help_dir_reports(t->dir, name, all_of_them);
	if (name && !all_of_them && !builtin && !in_dir) {
		cli_error("%s '%s' could not be found (see nstats %s --%s)", cat->noun, name,
			  cat->cmd, cat->list_opt);
		return EXIT_USAGE;
	}
	return 0;
}

int tuples_help(const struct tuples *t, const struct command_doc *doc, bool *done)
{
	*done = true;
	if (t->help) {
		cli_usage(stdout, doc);
		return 0;
	}
	if (t->help_reports)
		return help_reports(t, t->help_reports_arg);
	if (t->help_formats) {
		struct nst_error err = { 0 };
		if (nst_format_help(stdout, t->help_formats_arg, &err) == NST_OK)
			return 0;
		cli_error("%s", err.msg);
		return EXIT_USAGE;
	}
	*done = false;
	return 0;
}

/* ---- jobs ------------------------------------------------------------------------ */

/* A name or argument that does not exist points to the list that has it. */
static int bad_job(const struct tuples *t, const char *spec, const struct nst_error *err)
{
	const struct catalog *cat = t->cat;
	char name[256];
	struct nst_about about;
	struct nst_job *own = NULL;
	struct nst_error ignored;
	snprintf(name, sizeof name, "%.*s", (int)strcspn(spec, ":"), spec);
	if (t->dir)
		nst_report_dir_job(t->dir, name, &own, &ignored);
	bool in_dir = own != NULL;
	nst_job_free(own);
	if (err->status != NST_ERR_UNKNOWN)
		cli_error("%s", err->msg);
	else if (in_dir || nst_catalog_find(cat->catalog, name, &about))
		cli_error("%s (see nstats %s --%s %s)", err->msg, cat->cmd, cat->list_opt, name);
	else
		cli_error("%s (see nstats %s --%s)", err->msg, cat->cmd, cat->list_opt);
	return exit_of(err->status);
}

int tuples_jobs(const struct tuples *t, struct jobs *jobs)
{
	size_t ndef;
	const char *const *def = nst_catalog_defaults(t->cat->catalog, &ndef);
	size_t n = t->reports.n ? t->reports.n : ndef;
	jobs->job = calloc(n ? n : 1, sizeof *jobs->job);
	if (!jobs->job) {
		cli_error("out of memory");
		return EXIT_FAILED;
	}
	for (; jobs->n < n; jobs->n++) {
		const char *spec = t->reports.n ? t->reports.item[jobs->n] : def[jobs->n];
		struct nst_error err = { 0 };
		struct nst_job **job = &jobs->job[jobs->n];
		if (t->dir && nst_report_dir_job(t->dir, spec, job, &err) != NST_OK)
			return bad_job(t, spec, &err);
		if (!*job && nst_job_parse(t->cat->catalog, spec, job, &err) != NST_OK)
			return bad_job(t, spec, &err);
	}
	return 0;
}

void jobs_free(struct jobs *jobs)
{
	for (size_t i = 0; i < jobs->n; i++)
		nst_job_free(jobs->job[i]);
	free(jobs->job);
}

/* ---- formats -------------------------------------------------------------------- */

static int format_of(const char *timeunit, const char *f, enum nst_target target,
		     struct nst_format **out)
{
	struct nst_format_options o;
	cli_format_options(&o, target, timeunit);
	struct nst_error err = { 0 };
	if (nst_format_parse(f, &o, out, &err) != NST_OK) {
		cli_error("%s", err.msg);
		return exit_of(err.status);
	}
	return 0;
}

int tuples_check_formats(const struct tuples *t)
{
	for (size_t i = 0; i <= t->formats.n; i++) {
		struct nst_format *f = NULL;
		/* the last round checks --timeunit alone */
		bool unit_round = i == t->formats.n;
		int rc = format_of(unit_round ? t->timeunit : NULL,
				   unit_round ? "." : t->formats.item[i], NST_TO_CONSOLE, &f);
		nst_format_free(f);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- one tuple ------------------------------------------------------------------ */

static void say_processing(const struct tuples *t, const char *subject, const struct nst_job *job,
			   const struct target *tg)
{
	if (t->quiet)
		return;
	printf("Processing [%s] with [%s]", subject, nst_job_spec(job));
	if (tg->kind == TARGET_FILE)
		printf(" to [%s]", tg->name);
	else if (tg->kind == TARGET_PROCESS)
		printf(" to process [@%s]", tg->name);
	/* nsys finishes the line at once unless it will say PROCESSED. */
	fputs(tg->kind == TARGET_FILE ? "... " : "... \n", stdout);
	fflush(stdout);
}

/* nsys says SKIPPED on stdout, and with -q says nothing at all; nstats
 * then says it on stderr, so that stdout stays clean and nothing is lost. */
static void say_result(const struct tuples *t, const struct target *tg, enum nst_status s,
		       const struct nst_error *err)
{
	if (s == NST_ERR_NODATA && t->quiet)
		fprintf(stderr, "SKIPPED: %s\n", err->msg);
	else if (s == NST_ERR_NODATA)
		printf("SKIPPED: %s\n\n", err->msg);
	else if (s == NST_OK && tg->kind == TARGET_FILE && !t->quiet)
		puts("PROCESSED");
}

void tuples_note(struct tuples *t, enum nst_status s)
{
	int code = exit_of(s);
	if (s == NST_ERR_NODATA && !t->strict)
		code = EXIT_OK;
	if (code > t->rc)
		t->rc = code;
}

struct opener {
	struct target *target;
	bool force;
	bool opened; /* the file is this run's */
};

static FILE *open_target(void *arg, struct nst_error *err)
{
	struct opener *o = arg;
	o->opened = target_open(o->target, o->force, err) == NST_OK;
	return o->opened ? o->target->fp : NULL;
}

/* A report stopped midway (interrupted, or a query that failed or ran
 * out of time) leaves no file that looks like its output. */
static void discard_stopped(const struct target *tg, const struct opener *op, enum nst_status s)
{
	if (op->opened && tg->kind == TARGET_FILE &&
	    (s == NST_ERR_INTERRUPTED || s == NST_ERR_QUERY))
		unlink(tg->name);
}

void tuples_run(struct tuples *t, size_t i, const struct nst_job *job, const char *subject,
		const char *names_path, tuple_fn fn, void *arg)
{
	const char *out = list_pick(&t->outputs, i, "-");
	struct nst_format *fmt = NULL;
	struct target tg = { 0 };
	struct nst_error err = { 0 };
	int rc = format_of(t->timeunit, list_pick(&t->formats, i, "."), target_kind_of(out), &fmt);
	if (rc) {
		t->rc = rc > t->rc ? rc : t->rc;
		return;
	}
	enum nst_status s = target_resolve(&tg, out, names_path, nst_job_spec(job),
					   nst_format_ext(fmt), &err);
	if (s == NST_OK) {
		say_processing(t, subject, job, &tg);
		struct opener op = { &tg, t->force, false };
		struct nst_run run = { .job = job, .filter = &t->filter, .format = fmt,
				       .open = open_target, .open_arg = &op };
		s = fn(arg, &run, &err);
		struct nst_error close_err = { 0 };
		if (target_close(&tg, &close_err) != NST_OK && s == NST_OK)
			s = (err = close_err).status;
		discard_stopped(&tg, &op, s);
		say_result(t, &tg, s, &err);
	}
	if (s != NST_OK && s != NST_ERR_NODATA)
		cli_error("%s", err.msg);
	tuples_note(t, s);
	target_release(&tg);
	nst_format_free(fmt);
}
