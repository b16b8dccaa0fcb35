/* `nstats report INPUT... -o FILE.html`: one HTML page for a person, made
 * by the library (nst_page_write).  The command opens the exports and
 * writes the page beside FILE under a temporary name, then renames it, so
 * that a failure leaves no page, and an old page is replaced only with
 * --force-overwrite. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/parse.h"

enum { O_OUTPUT, O_FORCE, O_TOP, O_TITLE, O_FILTER_TIME, O_FILTER_NVTX, O_HELP };

static const struct opt options[] = {
	{ 'o', "output", OPT_REQUIRED, "FILE",
	  "The page to write (required), e.g. report.html.  Refused when FILE\n"
	  "exists, unless --force-overwrite.", O_OUTPUT },
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
			 "rows and 100 time buckets per GPU.  It is written beside FILE under\n"
			 "a temporary name and renamed, so that a failure leaves nothing.  See\n"
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

/* ---- the file ------------------------------------------------------------------------ */

/* Where the page goes: a temporary beside FILE, renamed at the end; or
 * FILE itself when it exists and is no regular file (/dev/stdout, a
 * pipe), which cannot be renamed over. */
struct page_file {
	const char *path;
	char *tmp;   /* NULL when writing path itself */
	FILE *fp;
};

static int refuse_existing(const struct report_cmd *c, bool *regular)
{
	struct stat st;
	*regular = true;
	if (stat(c->output, &st) != 0)
		return 0;
	*regular = S_ISREG(st.st_mode);
	if (c->force || !*regular)
		return 0;
	cli_error("%s: output file exists (--force-overwrite replaces it)", c->output);
	return EXIT_OUTPUT;
}

static int open_page(struct page_file *f, bool regular)
{
	if (!regular) {
		if ((f->fp = fopen(f->path, "w")))
			return 0;
		cli_error("%s: %s", f->path, strerror(errno));
		return EXIT_OUTPUT;
	}
	const char *slash = strrchr(f->path, '/');
	size_t dir = slash ? (size_t)(slash - f->path + 1) : 0;
	if (!(f->tmp = malloc(strlen(f->path) + 16))) {
		cli_error("out of memory");
		return EXIT_FAILED;
	}
	sprintf(f->tmp, "%.*s.%s.XXXXXX", (int)dir, f->path, f->path + dir);
	int fd = mkstemp(f->tmp);
	if (fd < 0 || fchmod(fd, 0644) != 0 || !(f->fp = fdopen(fd, "w"))) {
		cli_error("%s: %s", f->path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(f->tmp);
		}
		free(f->tmp);
		f->tmp = NULL;
		return EXIT_OUTPUT;
	}
	return 0;
}

/* Closes the page; on success puts it in place (without --force-overwrite
 * by link(), which refuses a FILE made meanwhile), else removes it. */
static int close_page(struct page_file *f, bool ok, bool force)
{
	int rc = 0;
	bool bad = f->fp && (ferror(f->fp) | (fclose(f->fp) != 0));
	if (ok && bad) {
		cli_error("%s: write failed: %s", f->path, strerror(errno ? errno : EIO));
		rc = EXIT_OUTPUT;
	}
	if (f->tmp && ok && !rc) {
		int moved = force ? rename(f->tmp, f->path) : link(f->tmp, f->path);
		if (moved != 0) {
			cli_error("%s: %s%s", f->path, strerror(errno),
				  errno == EEXIST ? " (--force-overwrite replaces it)" : "");
			rc = EXIT_OUTPUT;
		}
	}
	if (f->tmp && (!force || !ok || rc))
		unlink(f->tmp);
	free(f->tmp);
	return rc;
}

/* ---- the run ----------------------------------------------------------------------------- */

/* --force-overwrite must not replace an input with its page. */
static int refuse_input(const struct report_cmd *c, const char *path)
{
	struct stat out, in;
	if (stat(c->output, &out) != 0 || stat(path, &in) != 0 || out.st_dev != in.st_dev ||
	    out.st_ino != in.st_ino)
		return 0;
	cli_error("%s: is an input (%s): the page would replace it", c->output, path);
	return EXIT_USAGE;
}

static int open_inputs(const struct report_cmd *c, struct nst_export **xs)
{
	struct nst_options o;
	cli_export_options(&o, false);
	for (size_t i = 0; i < c->ninputs; i++) {
		struct nst_error err = { 0 };
		int rc = refuse_input(c, c->inputs[i]);
		if (rc)
			return rc;
		if (nst_export_open(c->inputs[i], &o, &xs[i], &err) != NST_OK) {
			cli_error("%s", err.msg);
			return exit_of(err.status);
		}
	}
	return 0;
}

static int write_page(const struct report_cmd *c, struct nst_export *const *xs, bool regular)
{
	struct page_file f = { .path = c->output };
	struct nst_error err = { 0 };
	struct nst_page_options o = {
		.version = NST_API_VERSION, .top = c->top, .filter = &c->filter, .title = c->title,
		.names = c->inputs,
	};
	int rc = open_page(&f, regular);
	if (rc)
		return rc;
	enum nst_status s = nst_page_write(xs, c->ninputs, &o, f.fp, &err);
	if (s != NST_OK && s != NST_ERR_IO)
		cli_error("%s", err.msg);
	rc = close_page(&f, s == NST_OK || s == NST_ERR_IO, c->force);
	if (s == NST_ERR_IO && !rc) { /* the stream said fine at close: say what the library saw */
		cli_error("%s: write failed", c->output);
		rc = EXIT_OUTPUT;
	}
	return rc ? rc : s == NST_ERR_IO ? EXIT_OUTPUT : exit_of(s);
}

static int run(const struct report_cmd *c)
{
	bool regular;
	int rc = refuse_existing(c, &regular);
	struct nst_export **xs = rc ? NULL : calloc(c->ninputs, sizeof *xs);
	if (!rc && !xs) {
		cli_error("out of memory");
		rc = EXIT_FAILED;
	}
	if (!rc)
		rc = open_inputs(c, xs);
	if (!rc)
		rc = write_page(c, xs, regular);
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
