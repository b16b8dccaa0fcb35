/* `nstats recipe NAME INPUT...`: one recipe over the exports of every rank
 * of a job (docs/recipes.md).  The inputs are read into parts by one of
 * the drivers (recipe.h), merged, and each of the recipe's tables is
 * written to the console, or to DIR/NAME_TABLE.EXT with a summary.txt. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/recipe.h"
#include "cli/tuples.h"

enum {
	O_FORMAT, O_OUTPUT, O_JOBS, O_RANKS, O_TIMEUNIT, O_FILTER_TIME, O_FILTER_NVTX, O_FORCE,
	O_QUIET, O_HELP_RECIPES, O_HELP_FORMATS, O_HELP,
};

static const struct opt options[] = {
	{ 'f', "format", OPT_REQUIRED, "FORMAT",
	  "The format of every table: column (the default on the console), table,\n"
	  "csv (the default in files), tsv, json, hdoc, htable, with arguments as\n"
	  "in stats (see --help-formats).", O_FORMAT },
	{ 'o', "output", OPT_REQUIRED, "DIR",
	  "Write each table to DIR/NAME_TABLE.EXT and all of them, in the column\n"
	  "format, to DIR/summary.txt (DIR is made when missing).  - is the\n"
	  "console, as without -o.", O_OUTPUT },
	{ 'j', "jobs", OPT_REQUIRED, "N",
	  "Worker processes reading inputs at once, each a whole input (default:\n"
	  "the number of cores).  The output does not depend on N.", O_JOBS },
	{ 0, "ranks", OPT_REQUIRED, "auto|input|process",
	  "What a rank is: a process's rank in MPI_RANKS, else one per input\n"
	  "(auto, the default); one per input; one per process of each input.", O_RANKS },
	{ 0, "timeunit", OPT_REQUIRED, "UNIT",
	  "Time unit of the column and table formats: nsec, usec, msec, seconds.", O_TIMEUNIT },
	{ 0, "filter-time", OPT_REQUIRED, "[START]/[END]",
	  "Only what overlaps the window, on each input's own clock (as stats).",
	  O_FILTER_TIME },
	{ 0, "filter-nvtx", OPT_REQUIRED, "RANGE[@DOMAIN][/INDEX]",
	  "Only what overlaps that NVTX range of each input (as stats).", O_FILTER_NVTX },
	{ 0, "force-overwrite", OPT_OPTIONAL, "[true|false]",
	  "Overwrite the files of -o DIR that exist.", O_FORCE },
	{ 'q', "quiet", OPT_NONE, NULL, "No progress and no notes on stderr.", O_QUIET },
	{ 0, "help-recipes", OPT_OPTIONAL, "[NAME]",
	  "List the recipes, or describe one (its tables and arguments).", O_HELP_RECIPES },
	{ 0, "help-formats", OPT_OPTIONAL, "[FORMAT]", "Describe the formats.", O_HELP_FORMATS },
	{ 'h', "help", OPT_NONE, NULL, "Show this help.", O_HELP },
};
#define NOPTIONS (sizeof options / sizeof *options)

struct recipe_cmd {
	const char *spec; /* the first operand */
	struct list inputs;
	const char *format, *output, *timeunit, *filter_time, *filter_nvtx;
	long jobs;
	enum nst_ranks ranks;
	bool force, quiet, help, help_recipes, help_formats;
	const char *help_recipes_arg, *help_formats_arg;
};

/* ---- options --------------------------------------------------------------------- */

static int set_jobs(struct recipe_cmd *c, const char *v)
{
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (!*v || *end || errno || n < 1 || n > 4096) {
		cli_error("recipe: -j takes a number of processes from 1 to 4096, not '%s'", v);
		return EXIT_USAGE;
	}
	c->jobs = n;
	return 0;
}

static int set_ranks(struct recipe_cmd *c, const char *v)
{
	static const char *const names[] = { "auto", "input", "process" };
	for (size_t i = 0; i < 3; i++)
		if (strcmp(v, names[i]) == 0) {
			c->ranks = (enum nst_ranks)i;
			return 0;
		}
	char hint[128];
	cli_error("recipe: --ranks takes auto, input or process, not '%s'%s", v,
		  cli_hint(v, names, 3, hint, sizeof hint));
	return EXIT_USAGE;
}

static int on_option(void *state, const struct opt *o, const char *v)
{
	struct recipe_cmd *c = state;
	if (!o) {
		if (!c->spec) {
			c->spec = v;
			return 0;
		}
		return list_add(&c->inputs, v, strlen(v)) == 0 ? 0 : (cli_error("out of memory"),
								      EXIT_FAILED);
	}
	switch (o->id) {
	case O_FORMAT: c->format = v; return 0;
	case O_OUTPUT: c->output = strcmp(v, "-") == 0 ? NULL : v; return 0;
	case O_JOBS: return set_jobs(c, v);
	case O_RANKS: return set_ranks(c, v);
	case O_TIMEUNIT: c->timeunit = v; return 0;
	case O_FILTER_TIME: c->filter_time = v; return 0;
	case O_FILTER_NVTX: c->filter_nvtx = v; return 0;
	case O_FORCE: return opt_bool("recipe", o, v, &c->force);
	case O_QUIET: c->quiet = true; return 0;
	case O_HELP_RECIPES: c->help_recipes = true; c->help_recipes_arg = v; return 0;
	case O_HELP_FORMATS: c->help_formats = true; c->help_formats_arg = v; return 0;
	default: c->help = true; return 0;
	}
}

/* ---- inputs: files, directories, @lists ------------------------------------------- */

static bool is_input_name(const char *name)
{
	static const char *const ext[] = { ".sqlite", ".nsys-rep", ".qdrep", ".json", ".json.gz" };
	size_t n = strlen(name);
	for (size_t i = 0; i < sizeof ext / sizeof *ext; i++) {
		size_t e = strlen(ext[i]);
		if (n > e && strcmp(name + n - e, ext[i]) == 0)
			return true;
	}
	return false;
}

/* A .nsys-rep whose .sqlite is beside it in the same directory is that
 * export: the rank must not count twice. */
static bool has_export_beside(char **names, size_t n, const char *name)
{
	const char *dot = strrchr(name, '.');
	if (!dot || (strcmp(dot, ".nsys-rep") != 0 && strcmp(dot, ".qdrep") != 0))
		return false;
	size_t base = (size_t)(dot - name);
	for (size_t i = 0; i < n; i++)
		if (strncmp(names[i], name, base) == 0 && strcmp(names[i] + base, ".sqlite") == 0)
			return true;
	return false;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every export and trace in dir, in name order. */
static int add_directory(struct list *out, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d) {
		cli_error("%s: %s", dir, strerror(errno));
		return EXIT_INPUT;
	}
	struct list names = { 0 };
	struct dirent *e;
	int rc = 0;
	while (!rc && (e = readdir(d)))
		if (e->d_name[0] != '.' && is_input_name(e->d_name))
			rc = list_add(&names, e->d_name, strlen(e->d_name));
	closedir(d);
	if (names.n) /* an empty directory has no array to sort */
		qsort(names.item, names.n, sizeof *names.item, cmp_names);
	for (size_t i = 0; !rc && i < names.n; i++) {
		if (has_export_beside(names.item, names.n, names.item[i]))
			continue;
		size_t len = strlen(dir) + strlen(names.item[i]) + 2;
		char *path = malloc(len);
		rc = path ? (snprintf(path, len, "%s/%s", dir, names.item[i]),
			     list_add(out, path, strlen(path)))
			  : -1;
		free(path);
	}
	list_free(&names);
	if (rc)
		cli_error("out of memory");
	return rc ? EXIT_FAILED : 0;
}

/* One path a line; empty lines and # comments skipped. */
static int add_list_file(struct list *out, const char *file)
{
	FILE *f = fopen(file, "r");
	if (!f) {
		cli_error("%s: %s", file, strerror(errno));
		return EXIT_INPUT;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0;
	while (!rc && (len = getline(&line, &cap, f)) >= 0) {
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (len > 0 && line[0] != '#' && list_add(out, line, (size_t)len) != 0)
			rc = EXIT_FAILED;
	}
	free(line);
	fclose(f);
	if (rc)
		cli_error("out of memory");
	return rc;
}

static int expand_inputs(const struct list *given, struct list *out)
{
	int rc = 0;
	for (size_t i = 0; !rc && i < given->n; i++) {
		const char *g = given->item[i];
		struct stat st;
		if (g[0] == '@')
			rc = add_list_file(out, g + 1);
		else if (stat(g, &st) == 0 && S_ISDIR(st.st_mode))
			rc = add_directory(out, g);
		else
			rc = list_add(out, g, strlen(g)) == 0 ? 0 : (cli_error("out of memory"),
								     EXIT_FAILED);
	}
	if (!rc && out->n == 0) {
		cli_error("recipe: no inputs: the directories and lists given hold no export");
		rc = EXIT_INPUT;
	}
	return rc;
}

/* ---- reading one input ------------------------------------------------------------- */

/* The message starts with the input's path, whatever failed: each driver
 * prints it as it is. */
static void name_input(const char *path, enum nst_status s, struct nst_error *err)
{
	size_t len = strlen(path);
	if (strncmp(err->msg, path, len) == 0 && err->msg[len] == ':')
		return;
	char msg[sizeof err->msg];
	snprintf(msg, sizeof msg, "%s", err->msg);
	nst_fail(err, s, "%s: %s", path, msg);
}

enum nst_status recipe_read_input(const struct recipe_plan *p, size_t i, struct nst_part **out,
				  struct nst_error *err)
{
	struct nst_options o;
	struct nst_export *x = NULL;
	cli_export_options(&o, true);
	enum nst_status s = nst_export_open(p->inputs[i], &o, &x, err);
	if (s == NST_OK)
		s = nst_part_make(x, p->job, (uint32_t)i, p->ranks, p->filter, out, err);
	nst_export_close(x);
	if (s != NST_OK)
		name_input(p->inputs[i], s, err);
	return s;
}

/* ---- output -------------------------------------------------------------------------- */

struct output {
	const struct recipe_cmd *c;
	struct nst_merge *m;
	const struct nst_job *job;
	size_t ninputs, failed;
};

static int write_table(const struct output *o, size_t t, const char *format, enum nst_target to,
		       FILE *fp)
{
	struct nst_format_options fo;
	struct nst_format *fmt = NULL;
	struct nst_error err = { 0 };
	cli_format_options(&fo, to, o->c->timeunit);
	enum nst_status s = nst_format_parse(format, &fo, &fmt, &err);
	if (s == NST_OK)
		s = nst_merge_run(o->m, t, &(struct nst_run){ .job = o->job, .format = fmt, .out = fp },
				  &err);
	nst_format_free(fmt);
	if (s != NST_OK) {
		cli_error("%s", err.msg);
		return exit_of(s);
	}
	return 0;
}

static FILE *create(const char *path, bool force)
{
	int fd = open(path, O_WRONLY | O_CREAT | (force ? O_TRUNC : O_EXCL), 0644);
	if (fd < 0) {
		cli_error("%s: %s%s", path, strerror(errno),
			  errno == EEXIST ? " (--force-overwrite replaces it)" : "");
		return NULL;
	}
	return fdopen(fd, "w");
}

static int close_file(FILE *fp, const char *path)
{
	if (ferror(fp) | (fclose(fp) != 0)) {
		cli_error("%s: cannot write: %s", path, strerror(errno));
		return EXIT_OUTPUT;
	}
	return 0;
}

static bool typed_json(const struct recipe_cmd *c)
{
	struct nst_format_options fo;
	struct nst_format *f = NULL;
	struct nst_error err = { 0 };
	cli_format_options(&fo, NST_TO_CONSOLE, c->timeunit);
	bool typed = nst_format_parse(c->format, &fo, &f, &err) == NST_OK && nst_format_typed_json(f);
	nst_format_free(f);
	return typed;
}

static void put_json(const char *s)
{
	nst_put_json_string(stdout, s, strlen(s));
}

/* json:typed on the console: one document, each table an object under
 * its name (docs/recipes.md). */
static int to_console_typed(const struct output *o)
{
	int rc = 0;
	printf("{\"nstats\": \"%s\", \"recipe\": ", NSTATS_VERSION);
	put_json(nst_job_spec(o->job));
	printf(", \"inputs\": %zu, \"failed\": %zu, \"tables\": {", o->ninputs, o->failed);
	for (size_t t = 0; !rc && nst_merge_table(o->m, t); t++) {
		printf("%s\n", t ? "," : "");
		put_json(nst_merge_table(o->m, t));
		printf(": ");
		rc = write_table(o, t, o->c->format, NST_TO_PIPE, stdout);
	}
	/* the ranks are numbered once the first table has run */
	printf("},\n\"ranks\": %zu, \"note\": ", nst_merge_ranks(o->m));
	put_json(nst_merge_note(o->m));
	printf("}\n");
	return rc;
}

static int to_console(const struct output *o)
{
	int rc = 0;
	if (typed_json(o->c))
		return to_console_typed(o);
	for (size_t t = 0; !rc && nst_merge_table(o->m, t); t++)
		rc = write_table(o, t, o->c->format, NST_TO_CONSOLE, stdout);
	return rc;
}

static void summary_head(const struct output *o, FILE *fp)
{
	fprintf(fp, "nstats recipe %s: %zu input%s", nst_job_spec(o->job), o->ninputs,
		o->ninputs == 1 ? "" : "s");
	if (o->failed)
		fprintf(fp, " (%zu could not be read)", o->failed);
	fprintf(fp, ", %zu rank%s\n", nst_merge_ranks(o->m), nst_merge_ranks(o->m) == 1 ? "" : "s");
	if (*nst_merge_note(o->m))
		fprintf(fp, "%s\n", nst_merge_note(o->m));
	fputc('\n', fp);
}

static int to_directory(const struct output *o)
{
	const struct recipe_cmd *c = o->c;
	if (mkdir(c->output, 0777) != 0 && errno != EEXIST) {
		cli_error("%s: %s", c->output, strerror(errno));
		return EXIT_OUTPUT;
	}
	char path[4096];
	int rc = 0;
	const char *format = c->format ? c->format : "csv";
	struct nst_format *probe = NULL;
	struct nst_error err = { 0 };
	struct nst_format_options fo;
	cli_format_options(&fo, NST_TO_FILE, c->timeunit);
	if (nst_format_parse(format, &fo, &probe, &err) != NST_OK) {
		cli_error("%s", err.msg);
		return exit_of(err.status);
	}
	const char *ext = nst_format_ext(probe);
	for (size_t t = 0; !rc && nst_merge_table(o->m, t); t++) {
		snprintf(path, sizeof path, "%s/%s_%s.%s", c->output, nst_job_name(o->job),
			 nst_merge_table(o->m, t), ext);
		FILE *fp = create(path, c->force);
		rc = fp ? write_table(o, t, format, NST_TO_FILE, fp) : EXIT_OUTPUT;
		if (fp)
			rc = rc ? (fclose(fp), rc) : close_file(fp, path);
	}
	nst_format_free(probe);
	snprintf(path, sizeof path, "%s/summary.txt", c->output);
	FILE *fp = rc ? NULL : create(path, c->force);
	if (!rc && !fp)
		return EXIT_OUTPUT;
	if (fp) {
		summary_head(o, fp);
		for (size_t t = 0; !rc && nst_merge_table(o->m, t); t++)
			rc = write_table(o, t, "column", NST_TO_PIPE, fp);
		rc = rc ? (fclose(fp), rc) : close_file(fp, path);
	}
	return rc;
}

/* ---- the run ------------------------------------------------------------------------------ */

static int parse_filter(const struct recipe_cmd *c, struct nst_filter *f)
{
	struct nst_error err = { 0 };
	*f = (struct nst_filter){ .nvtx = c->filter_nvtx };
	if (c->filter_time && nst_filter_parse_time(c->filter_time, f, &err) != NST_OK) {
		cli_error("illegal --filter-time argument '%s': %s", c->filter_time, err.msg);
		return EXIT_USAGE;
	}
	return 0;
}

static int check_format(const struct recipe_cmd *c)
{
	struct nst_format_options fo;
	struct nst_format *f = NULL;
	struct nst_error err = { 0 };
	cli_format_options(&fo, c->output ? NST_TO_FILE : NST_TO_CONSOLE, c->timeunit);
	enum nst_status s = nst_format_parse(c->format ? c->format : (c->output ? "csv" : NULL), &fo,
					     &f, &err);
	nst_format_free(f);
	if (s != NST_OK)
		cli_error("%s", err.msg);
	return s == NST_OK ? 0 : exit_of(s);
}

static int read_all(const struct recipe_cmd *c, const struct recipe_plan *p, struct nst_merge *m,
		    size_t *failed, bool *writer, char **argv)
{
	if (cli_under_mpi())
		return recipe_mpi(p, argv, m, failed, writer);
	*writer = true;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int jobs = (int)(c->jobs ? c->jobs : cores > 0 ? cores : 1);
	return recipe_local(p, jobs, m, failed);
}

static int run(struct recipe_cmd *c, char **argv)
{
	struct nst_job *job = NULL;
	struct nst_merge *m = NULL;
	struct nst_filter filter;
	struct list inputs = { 0 };
	struct nst_error err = { 0 };
	int rc = 0;
	if (nst_job_parse(NST_RECIPES, c->spec, &job, &err) != NST_OK) {
		cli_error("%s (see nstats recipe --help-recipes)", err.msg);
		return exit_of(err.status);
	}
	if (!(rc = parse_filter(c, &filter)) && !(rc = check_format(c)) &&
	    !(rc = expand_inputs(&c->inputs, &inputs)) &&
	    nst_merge_new(job, &m, &err) != NST_OK) {
		cli_error("%s", err.msg);
		rc = exit_of(err.status);
	}
	size_t failed = 0;
	bool writer = false;
	struct recipe_plan plan = { job, inputs.item, inputs.n, c->ranks, &filter, c->quiet };
	if (!rc)
		rc = read_all(c, &plan, m, &failed, &writer, argv);
	if (!rc && writer) {
		struct output o = { c, m, job, inputs.n, failed };
		rc = c->output ? to_directory(&o) : to_console(&o);
		if (!c->quiet && *nst_merge_note(m))
			fprintf(stderr, "nstats: note: %s\n", nst_merge_note(m));
	}
	if (!rc && failed)
		rc = EXIT_INPUT;
	nst_merge_free(m);
	nst_job_free(job);
	list_free(&inputs);
	return rc;
}

/* ---- help ------------------------------------------------------------------------------------ */

static void list_recipes(FILE *out)
{
	struct nst_about a;
	fprintf(out, "\nThe recipes:\n\n");
	for (size_t i = 0; nst_catalog_entry(NST_RECIPES, i, &a); i++)
		fprintf(out, "  %s -- %s\n", a.name, a.title);
	fprintf(out, "\nnstats recipe --help-recipes NAME describes one; docs/recipes.md has them "
		     "all.\n");
}

static int help_recipes(const char *name)
{
	struct nst_about a;
	if (!name || strcmp(name, "ALL") == 0) {
		for (size_t i = 0; name && nst_catalog_entry(NST_RECIPES, i, &a); i++)
			cli_about(stdout, &a, true);
		if (!name)
			list_recipes(stdout);
		return 0;
	}
	if (!nst_catalog_find(NST_RECIPES, name, &a)) {
		char hint[256];
		const enum nst_catalog cats[] = { NST_RECIPES };
		cli_error("recipe '%s' could not be found%s", name,
			  cli_hint_catalogs(name, cats, 1, hint, sizeof hint));
		return EXIT_USAGE;
	}
	cli_about(stdout, &a, true);
	return 0;
}

static const char intro[] =
	"Runs one recipe over the exports of every rank of a job (nstats addition):\n"
	"Nsight Systems exports, .nsys-rep or PyTorch profiler traces, directories of\n"
	"them (every export in them, by name) or @FILE (one path a line).  Each\n"
	"recipe prints a table over all ranks and one per rank (docs/recipes.md);\n"
	"every number is exact, medians included, however many processes read.\n"
	"Under mpirun (nstats-mpi, built where Open MPI is) the MPI ranks share\n"
	"the inputs and the groups; the output is that of -j 1.";

void doc_recipe(struct command_doc *d)
{
	*d = (struct command_doc){
		.name = "recipe",
		.synopsis = "NAME[:ARG...] [OPTION...] INPUT...",
		.intro = intro,
		.nopts = NOPTIONS,
		.notes = "A broken input among good ones is reported in one line and the others go\n"
			 "on; the exit status is then 3.",
		.lists = -1,
		.exit_status = "Exit status: 0 done, 1 a recipe failed, 2 usage error, 3 an input\n"
			       "cannot be read, 4 output cannot be written.\n",
		.catalog = NST_RECIPES,
	};
	memcpy(d->opts, options, sizeof options);
}

int cmd_recipe(int argc, char **argv)
{
	struct recipe_cmd c = { .ranks = NST_RANKS_AUTO };
	struct command_doc doc;
	doc_recipe(&doc);
	int rc = opt_parse("recipe", doc.opts, doc.nopts, argc, argv, on_option, &c);
	if (!rc && c.help)
		cli_usage(stdout, &doc);
	else if (!rc && c.help_recipes)
		rc = help_recipes(c.help_recipes_arg ? c.help_recipes_arg : c.spec);
	else if (!rc && c.help_formats) {
		struct nst_error err = { 0 };
		if (nst_format_help(stdout, c.help_formats_arg, &err) != NST_OK) {
			cli_error("%s", err.msg);
			rc = exit_of(err.status);
		}
	} else if (!rc && (!c.spec || !c.inputs.n)) {
		if (!c.spec && argc <= 1) {
			cli_usage(stderr, &doc);
			list_recipes(stderr);
			rc = EXIT_USAGE;
		} else {
			cli_error("recipe: %s (see nstats recipe --help)",
				  c.spec ? "no inputs" : "which recipe? (nstats recipe --help-recipes)");
			rc = EXIT_USAGE;
		}
	} else if (!rc)
		rc = run(&c, argv - 1); /* main's argv: the whole command line, for nstats-mpi */
	list_free(&c.inputs);
	return rc;
}
