/* `nstats report INPUT... -o FILE.html`: one HTML page for a person, made
 * by the library (nst_page_write).  The command opens the exports and
 * writes the page as cli/outfile.h writes a file: whole or not at all, an
 * old page replaced only with --force-overwrite, never an input. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/outfile.h"
#include "core/parse.h"

enum { O_OUTPUT, O_FORCE, O_TOP, O_TITLE, O_FILTER_TIME, O_FILTER_NVTX, O_HELP };

static const struct opt options[] = {
	{ 'o', "output", OPT_REQUIRED, "FILE",
	  "The page to write (required), e.g. report.html, or - for standard\n"
	  "output.  Refused when FILE exists, unless --force-overwrite.", O_OUTPUT },
	{ 0, "force-overwrite", OPT_OPTIONAL, "[true|false]",
	  "Replace FILE when it exists.", O_FORCE },
	{ 0, "top", OPT_REQUIRED, "N",
	  "Kernels, CUDA API functions, NVTX ranges, idle gaps and compared rows\n"
	  "shown: the first N of their reports (default 10, at most 1000).", O_TOP },
	{ 0, "title", OPT_REQUIRED, "TEXT",
	  "The page's title (default \"nstats report\").", O_TITLE },
	{ 0, "filter-time", OPT_REQUIRED, "[START]/[END]",
	  "Only what overlaps this time range, as stats reads it (ns, or values\n"
	  "with units: 1s2ms); on each input's own clock.", O_FILTER_TIME },
	{ 0, "filter-nvtx", OPT_REQUIRED, "RANGE[@DOMAIN][/INDEX]",
	  "Only what overlaps that NVTX range of each input, as stats reads it.\n"
	  "Wins over --filter-time.", O_FILTER_NVTX },
	{ 'h', "help", OPT_NONE, NULL, "This help.", O_HELP },
};
#define NOPTIONS (sizeof options / sizeof *options)

struct report_cmd {
	const char *output, *title, *filter_time;
	struct nst_filter filter;
	size_t top;
	bool force, help;
	const char **inputs;
	size_t ninputs;
};

void doc_report(struct command_doc *d)
{
	_Static_assert(NOPTIONS <= CLI_MAX_OPTS, "struct command_doc holds the options");
	*d = (struct command_doc){
		.name = "report",
		.synopsis = "[OPTION...] INPUT... -o FILE.html",
		.intro = "One self-contained HTML page for a person (nstats addition), to open\n"
			 "in a browser or attach to a bug report: charts drawn as inline SVG,\n"
			 "no request to any network, readable with scripts off.  One input:\n"
			 "the capture and what `nstats check` found, GPU busy time and\n"
			 "utilisation over time, the top kernels with their durations, memory\n"
			 "transfers, CUDA API, NVTX ranges and the longest idle gaps.  Two\n"
			 "inputs: what changed from the first (A) to the second (B), as\n"
			 "`nstats diff`.  Three or more: the ranks of a job, one an input, as\n"
			 "`nstats recipe` (utilisation heat map, imbalance, stragglers, exposed\n"
			 "NCCL time).",
		.nopts = NOPTIONS,
		.notes = "Every number on the page is a report's (each section names its\n"
			 "report), and each number cell carries its exact value in a data-v\n"
			 "attribute.  The page is bounded whatever the capture's size: top N\n"
			 "rows, 800 time buckets per GPU (100 a GPU of each rank).  Two\n"
			 "sections are computed at a time (NSTATS_READ_THREADS=1: one); the\n"
			 "page is the same either way.  It is written beside FILE under a\n"
			 "temporary name and renamed, so that a failure leaves nothing.  See\n"
			 "docs/report.md.\n",
		.lists = -1,
		.exit_status = "Exit status: 0 written, 1 a report failed, 2 usage error, 3 an input\n"
			       "cannot be read or holds values nstats cannot compute with, 4 the page\n"
			       "cannot be written (or FILE exists, without --force-overwrite).\n",
	};
	memcpy(d->opts, options, sizeof options);
}

/* ---- options ---------------------------------------------------------------------- */

static int add_input(struct report_cmd *c, const char *v)
{
	const char **p = realloc(c->inputs, (c->ninputs + 1) * sizeof *p);
	if (!p) {
		cli_error("out of memory");
		return EXIT_FAILED;
	}
	p[c->ninputs++] = v;
	c->inputs = p;
	return 0;
}

static int set_top(struct report_cmd *c, const char *v)
{
	int64_t n;
	if (nst_parse_i64(v, &n) && n >= 1 && n <= 1000) {
		c->top = (size_t)n;
		return 0;
	}
	cli_error("report: --top: expected an integer from 1 to 1000, found '%s'", v);
	return EXIT_USAGE;
}

static int set_filter_time(struct report_cmd *c, const char *v)
{
	struct nst_error err = { 0 };
	if (nst_filter_parse_time(v, &c->filter, &err) == NST_OK)
		return 0;
	cli_error("report: illegal --filter-time argument '%s': %s", v, err.msg);
	return EXIT_USAGE;
}

static int on_option(void *state, const struct opt *o, const char *v)
{
	struct report_cmd *c = state;
	if (!o)
		return add_input(c, v);
	switch (o->id) {
	case O_OUTPUT: c->output = v; return 0;
	case O_FORCE: return opt_bool("report", o, v, &c->force);
	case O_TOP: return set_top(c, v);
	case O_TITLE: c->title = v; return 0;
	case O_FILTER_TIME: return set_filter_time(c, v);
	case O_FILTER_NVTX: c->filter.nvtx = v; return 0;
	case O_HELP: c->help = true; return 0;
	}
	return 0;
}

/* ---- the run ----------------------------------------------------------------------------- */

static int open_inputs(const struct report_cmd *c, struct nst_export **xs)
{
	struct nst_options o;
	cli_export_options(&o, false);
	for (size_t i = 0; i < c->ninputs; i++) {
		struct nst_error err = { 0 };
		if (nst_export_open(c->inputs[i], &o, &xs[i], &err) != NST_OK) {
			cli_error("%s", err.msg);
			return exit_of(err.status);
		}
	}
	return 0;
}

/* The page into f; a write error is said when f is closed. */
static int write_page(const struct report_cmd *c, struct nst_export *const *xs,
		      struct cli_outfile *f, enum nst_status *s)
{
	struct nst_error err = { 0 };
	struct nst_page_options o = {
		.version = NST_API_VERSION, .top = c->top, .filter = &c->filter, .title = c->title,
		.names = c->inputs,
	};
	*s = nst_page_write(xs, c->ninputs, &o, f->fp, &err);
	if (*s == NST_OK || *s == NST_ERR_IO)
		return 0;
	cli_error("%s", err.msg);
	return exit_of(*s);
}

static int run(const struct report_cmd *c)
{
	struct cli_outfile f = { .path = c->output, .force = c->force };
	int rc = cli_outfile_open(&f, c->inputs, c->ninputs);
	if (rc)
		return rc;
	struct nst_export **xs = calloc(c->ninputs, sizeof *xs);
	enum nst_status s = NST_OK;
	if (!xs) {
		cli_error("out of memory");
		rc = EXIT_FAILED;
	}
	if (!rc)
		rc = open_inputs(c, xs);
	if (!rc)
		rc = write_page(c, xs, &f, &s);
	if (s == NST_ERR_IO && !ferror(f.fp)) { /* what the library saw, where the stream did not */
		cli_error("%s: write failed", cli_outfile_name(&f));
		rc = EXIT_OUTPUT;
	}
	rc = cli_outfile_close(&f, rc);
	for (size_t i = 0; xs && i < c->ninputs; i++)
		nst_export_close(xs[i]);
	free(xs);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct report_cmd c = { .top = 10 };
	struct command_doc doc;
	doc_report(&doc);
	int rc = opt_parse("report", options, NOPTIONS, argc, argv, on_option, &c);
	if (rc == 0 && c.help) {
		cli_usage(stdout, &doc);
	} else if (rc == 0 && c.ninputs == 0) {
		rc = cli_no_input(&doc, argc);
	} else if (rc == 0 && !c.output) {
		cli_error("report: -o FILE is required: the page is written to a file (see nstats "
			  "report --help)");
		rc = EXIT_USAGE;
	} else if (rc == 0) {
		rc = run(&c);
	}
	free(c.inputs);
	return rc;
}
