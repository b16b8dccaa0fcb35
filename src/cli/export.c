/* `nstats export --type perfetto|chrome-json INPUT... -o FILE`: a timeline
 * of the captures (nst_trace_..., docs/export.md), written to a temporary
 * file beside FILE and renamed at the end, so that a failure leaves no half
 * file. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

enum { O_TYPE, O_OUTPUT, O_FORCE, O_FILTER_TIME, O_FILTER_NVTX, O_QUIET, O_HELP };

static const struct opt options[] = {
	{ 't', "type", OPT_REQUIRED, "perfetto|chrome-json",
	  "perfetto: Perfetto's protobuf trace (ui.perfetto.dev, trace_processor).\n"
	  "chrome-json: the Trace Event Format (chrome://tracing, Perfetto), as\n"
	  "PyTorch's profiler writes it; nstats reads it back.  Required.", O_TYPE },
	{ 'o', "output", OPT_REQUIRED, "FILE",
	  "Where the trace goes; - for standard output (not perfetto's binary on a\n"
	  "terminal).  Required.", O_OUTPUT },
	{ 0, "force-overwrite", OPT_OPTIONAL, "[true|false]",
	  "Replace FILE when it exists.", O_FORCE },
	{ 0, "filter-time", OPT_REQUIRED, "[START]/[END]",
	  "Only what overlaps the window, on each input's own clock (as stats).",
	  O_FILTER_TIME },
	{ 0, "filter-nvtx", OPT_REQUIRED, "RANGE[@DOMAIN][/INDEX]",
	  "Only what overlaps that NVTX range of each input (as stats).", O_FILTER_NVTX },
	{ 'q', "quiet", OPT_NONE, NULL, "No progress on stderr.", O_QUIET },
	{ 'h', "help", OPT_NONE, NULL, "Show this help.", O_HELP },
};
#define NOPTIONS (sizeof options / sizeof *options)

struct export_cmd {
	const char *type, *output, *filter_time, *filter_nvtx;
	char **inputs;
	size_t ninputs;
	bool force, quiet, help;
};

static int on_option(void *state, const struct opt *o, const char *v)
{
	struct export_cmd *c = state;
	if (!o) {
		char **in = realloc(c->inputs, (c->ninputs + 1) * sizeof *in);
		if (!in) {
			cli_error("out of memory");
			return EXIT_FAILED;
		}
		c->inputs = in;
		c->inputs[c->ninputs++] = (char *)v;
		return 0;
	}
	switch (o->id) {
	case O_TYPE: c->type = v; return 0;
	case O_OUTPUT: c->output = v; return 0;
	case O_FORCE: return opt_bool("export", o, v, &c->force);
	case O_FILTER_TIME: c->filter_time = v; return 0;
	case O_FILTER_NVTX: c->filter_nvtx = v; return 0;
	case O_QUIET: c->quiet = true; return 0;
	default: c->help = true; return 0;
	}
}

/* ---- the output file ---------------------------------------------------------------- */

struct output {
	const char *name; /* as given */
	char *tmp;        /* the file written, renamed to name at the end; NULL: name itself */
	FILE *fp;
};

/* A device or pipe (/dev/stdout, a FIFO) is written in place: it cannot be
 * renamed onto, and holds no half file. */
static bool is_special(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

static int open_temp(struct output *o)
{
	size_t n = strlen(o->name);
	o->tmp = malloc(n + 16);
	if (!o->tmp) {
		cli_error("out of memory");
		return EXIT_FAILED;
	}
	sprintf(o->tmp, "%s.tmp-XXXXXX", o->name);
	int fd = mkstemp(o->tmp);
	/* mkstemp makes it 0600: the file gets the mode a new file gets */
	mode_t mask = umask(0);
	umask(mask);
	if (fd >= 0)
		fchmod(fd, 0666 & ~mask);
	if (fd < 0 || !(o->fp = fdopen(fd, "w"))) {
		cli_error("%s: %s", o->name, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		free(o->tmp);
		o->tmp = NULL;
		return EXIT_OUTPUT;
	}
	return 0;
}

static int open_output(struct output *o, bool force, bool binary)
{
	if (strcmp(o->name, "-") == 0) {
		if (binary && isatty(STDOUT_FILENO)) {
			cli_error("export: perfetto's binary trace is not for a terminal: give -o FILE or "
				  "redirect standard output");
			return EXIT_USAGE;
		}
		o->fp = stdout;
		return 0;
	}
	if (is_special(o->name)) {
		if (!(o->fp = fopen(o->name, "w"))) {
			cli_error("%s: %s", o->name, strerror(errno));
			return EXIT_OUTPUT;
		}
		return 0;
	}
	if (!force && access(o->name, F_OK) == 0) {
		cli_error("%s: output file exists (--force-overwrite replaces it)", o->name);
		return EXIT_OUTPUT;
	}
	return open_temp(o);
}

/* Ends the file: renamed into place when all went well, else removed. */
static int close_output(struct output *o, int rc)
{
	if (o->fp && o->fp != stdout) {
		if (fclose(o->fp) != 0 && !rc) {
			cli_error("%s: %s", o->name, strerror(errno));
			rc = EXIT_OUTPUT;
		}
	} else if (o->fp == stdout && fflush(stdout) != 0 && !rc) {
		cli_error("%s: %s", "standard output", strerror(errno));
		rc = EXIT_OUTPUT;
	}
	if (o->tmp) {
		if (!rc && rename(o->tmp, o->name) != 0) {
			cli_error("%s: %s", o->name, strerror(errno));
			rc = EXIT_OUTPUT;
		}
		if (rc)
			unlink(o->tmp);
		free(o->tmp);
	}
	return rc;
}

/* ---- the run -------------------------------------------------------------------------- */

static int parse_type(const char *v, enum nst_trace_type *type)
{
	if (v && strcmp(v, "perfetto") == 0)
		*type = NST_TRACE_PERFETTO;
	else if (v && strcmp(v, "chrome-json") == 0)
		*type = NST_TRACE_CHROME_JSON;
	else {
		if (v)
			cli_error("export: --type takes perfetto or chrome-json, not '%s'", v);
		else
			cli_error("export: which --type? perfetto or chrome-json (see nstats export --help)");
		return EXIT_USAGE;
	}
	return 0;
}

/* An error of the trace: a write error names the file. */
static int trace_failed(const struct output *o, const struct nst_error *err)
{
	if (err->status == NST_ERR_IO)
		cli_error("%s: %s", strcmp(o->name, "-") ? o->name : "standard output", err->msg);
	else
		cli_error("%s", err->msg);
	return exit_of(err->status);
}

/* Several inputs: each one's processes and GPUs named after its file. */
static const char *label_of(const struct export_cmd *c, size_t i)
{
	if (c->ninputs < 2)
		return NULL;
	const char *slash = strrchr(c->inputs[i], '/');
	return slash ? slash + 1 : c->inputs[i];
}

static int add_inputs(const struct export_cmd *c, struct nst_trace *t, const struct nst_filter *f,
		      const struct output *o)
{
	struct nst_options opts;
	cli_export_options(&opts, c->quiet);
	for (size_t i = 0; i < c->ninputs; i++) {
		struct nst_error err = { 0 };
		struct nst_export *x = NULL;
		enum nst_status s = nst_export_open(c->inputs[i], &opts, &x, &err);
		if (s == NST_OK)
			s = nst_trace_add(t, x, label_of(c, i), f, &err);
		nst_export_close(x);
		if (s != NST_OK)
			return trace_failed(o, &err);
	}
	return 0;
}

static int run(const struct export_cmd *c)
{
	enum nst_trace_type type;
	struct nst_filter f = { .nvtx = c->filter_nvtx };
	struct nst_error err = { 0 };
	int rc = parse_type(c->type, &type);
	if (rc)
		return rc;
	if (!c->output) {
		cli_error("export: where to? -o FILE (or -o - for standard output)");
		return EXIT_USAGE;
	}
	if (c->filter_time && nst_filter_parse_time(c->filter_time, &f, &err) != NST_OK) {
		cli_error("export: illegal --filter-time argument '%s': %s", c->filter_time, err.msg);
		return EXIT_USAGE;
	}
	struct output o = { .name = c->output };
	if ((rc = open_output(&o, c->force, type == NST_TRACE_PERFETTO)))
		return rc;
	struct nst_trace *t = NULL;
	enum nst_status s = nst_trace_open(type, o.fp, &t, &err);
	rc = s != NST_OK ? trace_failed(&o, &err) : add_inputs(c, t, &f, &o);
	if (!rc && nst_trace_close(t, &err) != NST_OK)
		rc = trace_failed(&o, &err);
	nst_trace_free(t);
	return close_output(&o, rc);
}

static const char intro[] =
	"Writes a timeline of the captures that Perfetto (ui.perfetto.dev) or\n"
	"chrome://tracing opens: a track per process and thread with its CUDA API\n"
	"calls and NVTX push/pop ranges, tracks of NVTX start/end ranges, a track\n"
	"per GPU and stream with its kernels, memory copies and sets, and an arrow\n"
	"from each launch to its GPU work.  Several inputs are kept apart, each\n"
	"one's processes and GPUs named after its file.  Inputs as stats reads\n"
	"them: SQLite exports, the export beside a .nsys-rep, PyTorch profiler\n"
	"traces.  The trace goes to a temporary file beside FILE, renamed to FILE\n"
	"when it is whole (nstats addition; docs/export.md).";

void doc_export(struct command_doc *d)
{
	*d = (struct command_doc){
		.name = "export",
		.synopsis = "--type perfetto|chrome-json [OPTION...] INPUT... -o FILE",
		.intro = intro,
		.nopts = NOPTIONS,
		.lists = -1,
		.exit_status = "Exit status: 0 done, 1 failed, 2 usage error, 3 an input cannot be\n"
			       "read, 4 the output cannot be written, 5 the --filter-nvtx range is\n"
			       "not in an input.\n",
	};
	memcpy(d->opts, options, sizeof options);
}

int cmd_export(int argc, char **argv)
{
	struct export_cmd c = { 0 };
	struct command_doc doc;
	doc_export(&doc);
	int rc = opt_parse("export", doc.opts, doc.nopts, argc, argv, on_option, &c);
	if (!rc && c.help)
		cli_usage(stdout, &doc);
	else if (!rc && !c.ninputs)
		rc = cli_no_input(&doc, argc);
	else if (!rc)
		rc = run(&c);
	free(c.inputs);
	return rc;
}
