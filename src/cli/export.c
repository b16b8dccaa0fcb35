/* `nstats export --type perfetto|chrome-json INPUT... -o FILE`: a timeline
 * of the captures (nst_trace_..., docs/export.md), written to a temporary
 * file beside FILE and renamed at the end, so that a failure leaves no half
 * file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/outfile.h"

enum { O_TYPE, O_OUTPUT, O_FORCE, O_FILTER_TIME, O_FILTER_NVTX, O_FORCE_EXPORT, O_SQLITE, O_QUIET,
       O_HELP };

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
	{ 0, "force-export", OPT_OPTIONAL, "[true|false]", CLI_FORCE_EXPORT_HELP, O_FORCE_EXPORT },
	{ 0, "sqlite", OPT_REQUIRED, "FILE", CLI_SQLITE_HELP, O_SQLITE },
	{ 'q', "quiet", OPT_NONE, NULL, "No progress on stderr.", O_QUIET },
	{ 'h', "help", OPT_NONE, NULL, "Show this help.", O_HELP },
};
#define NOPTIONS (sizeof options / sizeof *options)

struct export_cmd {
	const char *type, *output, *filter_time, *filter_nvtx, *sqlite;
	const char **inputs;
	size_t ninputs;
	bool force, force_export, quiet, help;
};

static int on_option(void *state, const struct opt *o, const char *v)
{
	struct export_cmd *c = state;
	if (!o) {
		const char **in = realloc(c->inputs, (c->ninputs + 1) * sizeof *in);
		if (!in) {
			cli_error("out of memory");
			return EXIT_FAILED;
		}
		c->inputs = in;
		c->inputs[c->ninputs++] = v;
		return 0;
	}
	switch (o->id) {
	case O_TYPE: c->type = v; return 0;
	case O_OUTPUT: c->output = v; return 0;
	case O_FORCE: return opt_bool("export", o, v, &c->force);
	case O_FILTER_TIME: c->filter_time = v; return 0;
	case O_FILTER_NVTX: c->filter_nvtx = v; return 0;
	case O_FORCE_EXPORT: return opt_bool("export", o, v, &c->force_export);
	case O_SQLITE: c->sqlite = v; return 0;
	case O_QUIET: c->quiet = true; return 0;
	default: c->help = true; return 0;
	}
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
static int trace_failed(const struct cli_outfile *o, const struct nst_error *err)
{
	if (err->status == NST_ERR_IO)
		cli_error("%s: %s", cli_outfile_name(o), err->msg);
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
		      const struct cli_outfile *o)
{
	struct nst_options opts;
	cli_export_options(&opts, c->quiet);
	opts.sqlite = c->sqlite;
	opts.force_export = c->force_export;
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
	if (c->sqlite && c->ninputs > 1) {
		cli_error("export: --sqlite names the export of one input, and %zu are given",
			  c->ninputs);
		return EXIT_USAGE;
	}
	if (!c->output) {
		cli_error("export: where to? -o FILE (or -o - for standard output)");
		return EXIT_USAGE;
	}
	if (c->filter_time && nst_filter_parse_time(c->filter_time, &f, &err) != NST_OK) {
		cli_error("export: illegal --filter-time argument '%s': %s", c->filter_time, err.msg);
		return EXIT_USAGE;
	}
	struct cli_outfile o = {
		.path = c->output, .force = c->force,
		.binary = type == NST_TRACE_PERFETTO ? "perfetto's binary trace" : NULL,
	};
	if ((rc = cli_outfile_open(&o, c->inputs, c->ninputs)))
		return rc;
	struct nst_trace *t = NULL;
	enum nst_status s = nst_trace_open(type, o.fp, &t, &err);
	rc = s != NST_OK ? trace_failed(&o, &err) : add_inputs(c, t, &f, &o);
	if (!rc && nst_trace_close(t, &err) != NST_OK)
		rc = trace_failed(&o, &err);
	nst_trace_free(t);
	return cli_outfile_close(&o, rc);
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
