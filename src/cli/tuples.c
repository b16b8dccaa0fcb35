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
	  "<base>_<report>.<ext> files; with several exports, for\n"
	  "<base>_<export>_<report>.<ext>, <export> the export's file name\n"
	  "without folder and extension, and -N after it (its place on the\n"
	  "command line) when two exports have the same name.", T_OUTPUT },
	{ 0, "timeunit", OPT_REQUIRED, "nsec|usec|msec|seconds",
	  "Time unit of every format: ns or nsec, us or usec, ms or msec, s, sec\n"
	  "or seconds, or the start of one (-f's time=UNIT takes them too).",
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
	  "report's numbers leave something out, on stderr); with several\n"
	  "exports, a line \"==> EXPORT <==\" before each one's tables on\n"
	  "the console.  Silences the note that counts the rows a report\n"
	  "leaves out on purpose (\"N CUDA backtrace records excluded; nsys\n"
	  "counts them as calls\").", T_QUIET },
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

int list_add_split_quoted(struct list *l, const char *s)
{
	for (;;) {
		size_t len = 0;
		for (bool quoted = false; s[len] && (quoted || s[len] != ','); len++)
			if (s[len] == '"')
				quoted = !quoted;
		if (list_add(l, s, len))
			return -1;
		if (!s[len])
			return 0;
		s += len + 1;
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
	docs_release(&t->docs);
	list_free(&t->keys);
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
	t->filter_time = v;
	return exit_of(s);
}

int tuples_option(struct tuples *t, const struct opt *o, const char *v)
{
	int bad = 0;
	switch (o->id) {
	case T_REPORT: bad = list_add_split_quoted(&t->reports, v); break;
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
		.catalog = cat->catalog,
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
		char hint[300];
		cli_error("%s '%s' could not be found%s (see nstats %s --%s)", cat->noun, name,
			  cli_hint_catalogs(name, &cat->catalog, 1, hint, sizeof hint), cat->cmd,
			  cat->list_opt);
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

/* f for target, with timeunit; why not in err. */
static enum nst_status parse_format(const char *timeunit, const char *f, enum nst_target target,
				    struct nst_format **out, struct nst_error *err)
{
	struct nst_format_options o;
	cli_format_options(&o, target, timeunit);
	return nst_format_parse(f, &o, out, err);
}

/* 0, or the exit status of a format that did not parse, said. */
static int said(enum nst_status s, const struct nst_error *err)
{
	if (s == NST_OK)
		return 0;
	cli_error("%s", err->msg);
	return exit_of(s);
}

enum nst_status tuples_format(const struct tuples *t, size_t i, struct nst_format **fmt,
			      struct nst_error *err)
{
	const char *out = list_pick(&t->outputs, i, "-");
	return parse_format(t->timeunit, list_pick(&t->formats, i, "."), target_kind_of(out), fmt,
			    err);
}

int tuples_check_formats(const struct tuples *t)
{
	for (size_t i = 0; i <= t->formats.n; i++) {
		struct nst_format *f = NULL;
		/* the last round checks --timeunit alone */
		bool unit_round = i == t->formats.n;
		struct nst_error err = { 0 };
		int rc = said(parse_format(unit_round ? t->timeunit : NULL,
					   unit_round ? "." : t->formats.item[i], NST_TO_CONSOLE, &f,
					   &err),
			      &err);
		nst_format_free(f);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- one tuple ------------------------------------------------------------------ */

/* talk: stdout, as nsys, or stderr when stdout holds a document. */
static void say_processing(const struct tuples *t, FILE *talk, const char *subject,
			   const struct nst_job *job, const struct target *tg)
{
	if (t->quiet)
		return;
	fprintf(talk, "Processing [%s] with [%s]", subject, nst_job_spec(job));
	if (tg->kind == TARGET_FILE)
		fprintf(talk, " to [%s]", tg->name);
	else if (tg->kind == TARGET_PROCESS)
		fprintf(talk, " to process [@%s]", tg->name);
	/* nsys finishes the line at once unless it will say PROCESSED. */
	fputs(tg->kind == TARGET_FILE ? "... " : "... \n", talk);
	fflush(talk);
}

/* nsys says SKIPPED on stdout, and with -q says nothing at all; nstats
 * then says it on stderr, so that stdout stays clean and nothing is lost. */
static void say_result(const struct tuples *t, FILE *talk, const struct target *tg,
		       enum nst_status s, const struct nst_error *err)
{
	if (s == NST_ERR_NODATA && t->quiet)
		fprintf(stderr, "SKIPPED: %s\n", err->msg);
	else if (s == NST_ERR_NODATA)
		fprintf(talk, "SKIPPED: %s\n\n", err->msg);
	else if (s == NST_OK && tg->kind == TARGET_FILE && !t->quiet)
		fputs("PROCESSED\n", talk);
}

void tuples_note(struct tuples *t, enum nst_status s)
{
	int code = exit_of(s);
	if (s == NST_ERR_NODATA && !t->strict)
		code = EXIT_OK;
	if (code > t->rc)
		t->rc = code;
}

/* What a report's stream is opened with, the first time it has a line. */
struct opener {
	struct tuples *t;
	struct target *target;
	const struct nst_job *job;
	bool typed;               /* a file: a document of its own */
	struct doc_pos pos;
	bool opened;              /* the file is this run's */
};

/* -q with several exports: which export the tables that follow are of,
 * as head(1) says which file. */
static void label_export(struct tuples *t)
{
	if (!t->label_exports || t->labeled == t->export.no)
		return;
	printf("==> %s <==\n", t->export.path);
	t->labeled = t->export.no;
}

static FILE *open_target(void *arg, struct nst_error *err)
{
	struct opener *o = arg;
	if (target_open(o->target, o->t->force, err) != NST_OK)
		return NULL;
	o->opened = true;
	if (o->target->kind == TARGET_CONSOLE)
		label_export(o->t);
	if (o->typed) {
		doc_head(o->target->fp);
		doc_key(o->target->fp, &o->pos, &o->t->export, nst_job_spec(o->job));
	}
	return o->target->fp;
}

/* A report stopped midway (interrupted, or a query that failed or ran
 * out of time) leaves no file that looks like its output. */
static void discard_stopped(const struct target *tg, const struct opener *op, enum nst_status s)
{
	if (op->opened && tg->kind == TARGET_FILE &&
	    (s == NST_ERR_INTERRUPTED || s == NST_ERR_QUERY))
		unlink(tg->name);
}

/* -o BASE with several exports: BASE_<export>, so that their files differ. */
static char *file_base(const struct tuples *t, const char *out)
{
	if (!t->export_tag || strcmp(out, "-") == 0 || out[0] == '@' || strcmp(out, ".") == 0)
		return strdup(out);
	size_t len = strlen(out) + strlen(t->export_tag) + 2;
	char *base = malloc(len);
	if (base)
		snprintf(base, len, "%s_%s", out, t->export_tag);
	return base;
}

static enum nst_status run_to_target(struct tuples *t, const char *out, const struct nst_job *job,
				     const char *subject, const char *names_path,
				     const struct nst_format *fmt, tuple_fn fn, void *arg,
				     struct nst_error *err)
{
	struct target tg = { 0 };
	char *base = file_base(t, out);
	enum nst_status s = base ? target_resolve(&tg, base, names_path, nst_job_spec(job),
						   nst_format_ext(fmt), err)
				 : nst_fail(err, NST_ERR_NOMEM, "out of memory");
	free(base);
	if (s == NST_OK) {
		say_processing(t, stdout, subject, job, &tg);
		struct opener op = { t, &tg, job, nst_format_typed_json(fmt), { 0 }, false };
		struct nst_run run = { .job = job, .filter = &t->filter, .format = fmt,
				       .open = open_target, .open_arg = &op };
		s = fn(arg, &run, err);
		if (op.typed && tg.fp)
			doc_tail(tg.fp, &op.pos);
		struct nst_error close_err = { 0 };
		if (target_close(&tg, &close_err) != NST_OK && s == NST_OK)
			s = (*err = close_err).status;
		discard_stopped(&tg, &op, s);
		say_result(t, stdout, &tg, s, err);
	}
	target_release(&tg);
	return s;
}

/* The report's stream is the document's, already open. */
struct doc_writer {
	FILE *fp;
	bool used;
};

static FILE *doc_stream(void *arg, struct nst_error *err)
{
	struct doc_writer *w = arg;
	(void)err;
	w->used = true;
	return w->fp;
}

static enum nst_status run_to_doc(struct tuples *t, struct doc *doc, const char *key,
				  const struct nst_job *job, const char *subject,
				  const struct nst_format *fmt, tuple_fn fn, void *arg,
				  struct nst_error *err)
{
	enum nst_status s = doc_open(doc, err);
	if (s != NST_OK)
		return s;
	FILE *talk = doc->tg.kind == TARGET_CONSOLE ? stderr : stdout;
	say_processing(t, talk, subject, job, &doc->tg);
	doc_key(doc->tg.fp, &doc->pos, &t->export, key);
	struct doc_writer w = { doc->tg.fp, false };
	struct nst_run run = { .job = job, .filter = &t->filter, .format = fmt,
			       .open = doc_stream, .open_arg = &w };
	s = fn(arg, &run, err);
	/* the key has its value, whatever became of the report */
	if (!w.used && s == NST_OK)
		fputs("{\"rows\": []}", doc->tg.fp);
	else if (!w.used)
		doc_no_rows(doc->tg.fp, s == NST_ERR_NODATA, err->msg);
	if (fflush(doc->tg.fp) != 0 && s == NST_OK)
		s = nst_fail(err, NST_ERR_IO, "cannot write %s", nst_job_name(job));
	say_result(t, talk, &doc->tg, s, err);
	return s;
}

void tuples_run(struct tuples *t, size_t i, const struct nst_job *job, const char *subject,
		const char *names_path, tuple_fn fn, void *arg)
{
	const char *out = list_pick(&t->outputs, i, "-");
	struct nst_format *fmt = NULL;
	struct nst_error err = { 0 };
	int rc = said(tuples_format(t, i, &fmt, &err), &err);
	if (rc) {
		t->rc = rc > t->rc ? rc : t->rc;
		return;
	}
	struct doc *doc = nst_format_typed_json(fmt) ? docs_find(&t->docs, out) : NULL;
	const char *key = i < t->keys.n ? t->keys.item[i] : nst_job_spec(job);
	enum nst_status s = doc ? run_to_doc(t, doc, key, job, subject, fmt, fn, arg, &err)
				: run_to_target(t, out, job, subject, names_path, fmt, fn, arg, &err);
	if (s != NST_OK && s != NST_ERR_NODATA)
		cli_error("%s", err.msg);
	tuples_note(t, s);
	nst_format_free(fmt);
}

/* ---- the run ------------------------------------------------------------------------ */

static bool is_stream(const char *out)
{
	return strcmp(out, "-") == 0 || out[0] == '@';
}

static const char *stream_name(const char *out)
{
	return strcmp(out, "-") == 0 ? "the console" : out;
}

/* Tuple j's format is json:typed; -1 when it does not parse (said). */
static int tuple_typed(const struct tuples *t, size_t j)
{
	struct nst_format *fmt = NULL;
	struct nst_error err = { 0 };
	if (said(tuples_format(t, j, &fmt, &err), &err))
		return -1;
	int typed = nst_format_typed_json(fmt);
	nst_format_free(fmt);
	return typed;
}

/* One document per stream: text of another format in it would make it
 * no longer JSON. */
static int check_shared(const struct tuples *t, const struct jobs *jobs)
{
	for (size_t j = 0; j < jobs->n; j++) {
		const char *out = list_pick(&t->outputs, j, "-");
		if (!docs_find(&t->docs, out) || tuple_typed(t, j) == 1)
			continue;
		cli_error("%s: %s holds the json:typed document of this run, and cannot take %s"
			  " as %s too (give it its own -o)", t->cat->cmd, stream_name(out),
			  nst_job_spec(jobs->job[j]), list_pick(&t->formats, j, "."));
		return EXIT_USAGE;
	}
	return 0;
}

/* Tuple j's key in its document: its -r element, and "#N" after the
 * N-th (from 2) that goes to the same stream, so that no report of an
 * export hides another (-r a -r a, or the same report in two units). */
static int add_key(struct tuples *t, const struct jobs *jobs, size_t j)
{
	const char *spec = nst_job_spec(jobs->job[j]);
	const char *out = list_pick(&t->outputs, j, "-");
	size_t same = 1;
	for (size_t k = 0; k < j && is_stream(out); k++)
		same += strcmp(nst_job_spec(jobs->job[k]), spec) == 0 &&
			strcmp(list_pick(&t->outputs, k, "-"), out) == 0;
	char key[512];
	if (same > 1)
		snprintf(key, sizeof key, "%s#%zu", spec, same);
	return list_add(&t->keys, same > 1 ? key : spec, strlen(same > 1 ? key : spec));
}

int tuples_start(struct tuples *t, const struct jobs *jobs)
{
	for (size_t j = 0; j < jobs->n; j++) {
		const char *out = list_pick(&t->outputs, j, "-");
		int typed = tuple_typed(t, j);
		if (typed < 0)
			return EXIT_USAGE;
		if ((typed && is_stream(out) && docs_add(&t->docs, out)) || add_key(t, jobs, j)) {
			cli_error("out of memory");
			return EXIT_FAILED;
		}
	}
	return check_shared(t, jobs);
}

void tuples_export(struct tuples *t, const char *path, const char *candidate, const char *tag)
{
	t->export = (struct doc_export){ t->export.no + 1, path, candidate };
	t->export_tag = tag;
}

void tuples_export_failed(struct tuples *t, const char *path, const char *msg)
{
	tuples_export(t, path, NULL, NULL);
	for (size_t i = 0; i < t->docs.n; i++) {
		struct doc *d = &t->docs.doc[i];
		struct nst_error err = { 0 };
		if (doc_open(d, &err) == NST_OK) {
			doc_export_error(d->tg.fp, &d->pos, &t->export, msg);
			continue;
		}
		cli_error("%s", err.msg);
		tuples_note(t, err.status);
	}
}

int tuples_finish(struct tuples *t)
{
	struct nst_error err = { 0 };
	if (docs_close(&t->docs, &err) != NST_OK) {
		cli_error("%s", err.msg);
		tuples_note(t, err.status);
	}
	return t->rc;
}
