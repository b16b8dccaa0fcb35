/* `nstats summary EXPORT...`: one screen for a person, made of the rows
 * of a few reports and of the audit, run through the library's engine;
 * the command computes nothing but shares and shortenings
 * (summary_show.c lays the page out). */
#include <stdlib.h>
#include <string.h>

#include "cli/summary.h"
#include "core/parse.h"

enum { O_TOP, O_WIDTH, O_COLOR, O_TIMEUNIT, O_HELP };

static const struct opt options[] = {
	{ 0, "top", OPT_REQUIRED, "N",
	  "Kernels, CUDA API calls and NVTX ranges shown: the first N of their\n"
	  "reports (default 10).", O_TOP },
	{ 0, "width", OPT_REQUIRED, "N",
	  "Fit the page to N characters (at least 40).  Default: the COLUMNS\n"
	  "environment variable, else the terminal's width when standard output\n"
	  "is one, else 100.", O_WIDTH },
	{ 0, "color", OPT_REQUIRED, "auto|always|never",
	  "Colour: auto (default) when standard output is a terminal and\n"
	  "NO_COLOR is not set; always, even in a pipe; never.", O_COLOR },
	{ 0, "timeunit", OPT_REQUIRED, "auto|nsec|usec|msec|seconds",
	  "Unit of every time column.  auto (default): each column in the\n"
	  "largest unit in which its largest value is at least 1, with 3\n"
	  "decimals; nsec gives the reports' exact nanoseconds.", O_TIMEUNIT },
	{ 'h', "help", OPT_NONE, NULL, "This help.", O_HELP },
};
#define NOPTIONS (sizeof options / sizeof *options)

#define MIN_WIDTH 40
#define MAX_WIDTH 4000

struct summary_cmd {
	struct sum_settings set;
	const char *width, *color;
	bool help;
	const char **inputs;
	size_t ninputs;
};

/* ---- options ---------------------------------------------------------------- */

static int size_option(const char *name, const char *v, size_t lo, size_t hi, size_t *out)
{
	int64_t n;
	if (nst_parse_i64(v, &n) && n >= (int64_t)lo && n <= (int64_t)hi) {
		*out = (size_t)n;
		return 0;
	}
	cli_error("summary: --%s: expected an integer from %zu to %zu, found '%s'", name, lo, hi, v);
	return EXIT_USAGE;
}

static int set_timeunit(struct summary_cmd *c, const char *v)
{
	static const struct { const char *name; int64_t ns; } units[] = {
		{ "auto", 0 }, { "nsec", 1 }, { "usec", 1000 }, { "msec", 1000000 },
		{ "sec", 1000000000 }, { "seconds", 1000000000 },
	};
	for (size_t i = 0; i < sizeof units / sizeof *units; i++)
		if (strcmp(v, units[i].name) == 0) {
			c->set.time_unit = units[i].ns;
			return 0;
		}
	cli_error("summary: --timeunit: unknown unit '%s' (auto, nsec, usec, msec or seconds)", v);
	return EXIT_USAGE;
}

static int on_option(void *state, const struct opt *o, const char *v)
{
	struct summary_cmd *c = state;
	if (!o) {
		const char **p = realloc(c->inputs, (c->ninputs + 1) * sizeof *p);
		if (!p) {
			cli_error("out of memory");
			return EXIT_FAILED;
		}
		p[c->ninputs++] = v;
		c->inputs = p;
		return 0;
	}
	switch (o->id) {
	case O_TOP: return size_option("top", v, 1, 1000, &c->set.top);
	case O_WIDTH: c->width = v; return 0;
	case O_COLOR: c->color = v; return 0;
	case O_TIMEUNIT: return set_timeunit(c, v);
	case O_HELP: c->help = true; return 0;
	}
	return 0;
}

/* --width, else COLUMNS or the terminal (env.c), else 100. */
static int settle_layout(struct summary_cmd *c)
{
	int rc = 0;
	if (c->width)
		rc = size_option("width", c->width, MIN_WIDTH, MAX_WIDTH, &c->set.out.width);
	else
		c->set.out.width = cli_terminal_width(MIN_WIDTH, MAX_WIDTH, 100);
	const char *color = c->color ? c->color : "auto";
	if (rc == 0 && strcmp(color, "always") != 0 && strcmp(color, "never") != 0 &&
	    strcmp(color, "auto") != 0) {
		cli_error("summary: --color: expected auto, always or never, found '%s'", color);
		rc = EXIT_USAGE;
	}
	c->set.out.color = strcmp(color, "always") == 0 ||
			   (strcmp(color, "auto") == 0 && cli_color_wanted());
	c->set.out.fp = stdout;
	return rc;
}

void doc_summary(struct command_doc *d)
{
	_Static_assert(NOPTIONS <= CLI_MAX_OPTS, "struct command_doc holds the options");
	*d = (struct command_doc){
		.name = "summary",
		.synopsis = "[OPTION...] EXPORT...",
		.intro = "One screen for a person (nstats addition): the capture, each GPU's busy\n"
			 "time, the top kernels with their percentiles, memory transfers, CUDA\n"
			 "API and NVTX time, and what `nstats check` found, for Nsight Systems\n"
			 "SQLite exports and PyTorch profiler traces.  For scripts, use the\n"
			 "reports it shows: capture_info, gpu_time_sum, cuda_gpu_kern_dist,\n"
			 "cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum, cuda_api_sum, nvtx_sum\n"
			 "(nstats stats -r NAME:rows=N -f csv).",
		.nopts = NOPTIONS,
		.notes = "Each section names the report it comes from.  Names too long for the\n"
			 "width are shortened in the middle (head, an ellipsis, tail); names\n"
			 "that would then read the same are cut elsewhere until they differ.\n"
			 "Columns that do not fit are left out: the kernels' Mean first, then\n"
			 "P90, P50, P99, then counts.  Busy (%) is a kernel's total time as a\n"
			 "share of the busy time of the GPUs it ran on (cuda_gpu_kern_dist).\n"
			 "P50, P90 and P99 are nearest-rank percentiles: P50 is a duration\n"
			 "that occurred, where nsys's Med (cuda_gpu_kern_sum) is the mean of\n"
			 "the two middle values; a legend under the kernels says so.\n"
			 "A section whose report finds nothing says so in one line.  See\n"
			 "docs/summary.md.\n",
		.lists = -1,
		.exit_status = "Exit status: 0 summarized, 1 a report failed, 2 usage error, 3 an\n"
			       "export cannot be read or holds values nstats cannot compute with,\n"
			       "4 output cannot be written; over several exports, the highest.\n",
	};
	memcpy(d->opts, options, sizeof options);
}

/* ---- collecting rows --------------------------------------------------------- */

/* ---- running the reports ------------------------------------------------------- */

/* The report behind each part; %zu is --top. */
static const char *const part_spec[SUM_NPARTS] = {
	[SUM_CAPTURE] = "capture_info",
	[SUM_DEVICES] = "gpu_time_sum",
	[SUM_KERNELS] = "cuda_gpu_kern_dist:rows=%zu",
	[SUM_MEM_TIME] = "cuda_gpu_mem_time_sum",
	[SUM_MEM_SIZE] = "cuda_gpu_mem_size_sum",
	[SUM_API] = "cuda_api_sum:rows=%zu",
	[SUM_NVTX] = "nvtx_sum:rows=%zu",
};

static enum nst_status make_jobs(size_t top, struct nst_job **jobs, struct nst_error *err)
{
	enum nst_status s = NST_OK;
	for (size_t i = 0; s == NST_OK && i < SUM_AUDIT; i++) {
		char spec[128];
		snprintf(spec, sizeof spec, part_spec[i], top);
		s = nst_job_parse(NST_REPORTS, spec, &jobs[i], err);
	}
	return s;
}

static enum nst_status run_part(struct nst_export *x, const struct nst_job *job,
				struct nst_rows *t, struct nst_error *err)
{
	struct nst_sink sink = nst_rows_sink(t);
	enum nst_status s = nst_run(x, &(struct nst_run){ .job = job, .sink = &sink }, NULL, err);
	if (s == NST_ERR_NODATA) {
		nst_rows_release(t);
		return NST_OK;
	}
	return s;
}

static enum nst_status run_audit(struct nst_export *x, struct sum_page *p,
				 struct nst_job *const *jobs, struct nst_error *err)
{
	const char *names[SUM_AUDIT];
	for (size_t i = 0; i < SUM_AUDIT; i++)
		names[i] = nst_job_name(jobs[i]);
	struct nst_audit *a = NULL;
	struct nst_sink sink = nst_rows_sink(&p->part[SUM_AUDIT]);
	enum nst_status s = nst_audit_run(x, names, SUM_AUDIT, &a, err);
	if (s == NST_OK)
		s = nst_audit_rows(a, &sink, err);
	nst_audit_free(a);
	return s;
}

static enum nst_status collect(struct nst_export *x, struct sum_page *p,
			       struct nst_job *const *jobs, struct nst_error *err)
{
	enum nst_status s = nst_audit_want(x, err);
	if (s == NST_OK)
		s = nst_export_load(x, NULL, jobs, SUM_AUDIT, err);
	for (size_t i = 0; s == NST_OK && i < SUM_AUDIT; i++)
		s = run_part(x, jobs[i], &p->part[i], err);
	return s == NST_OK ? run_audit(x, p, jobs, err) : s;
}

/* One export's page; its exit code. */
static int summarize(const struct summary_cmd *c, const char *input, struct nst_job *const *jobs)
{
	struct nst_error err = { 0 };
	struct nst_options o;
	cli_export_options(&o, false);
	struct nst_export *x = NULL;
	struct sum_page page = { .path = input };
	enum nst_status s = nst_export_open(input, &o, &x, &err);
	if (s == NST_OK)
		s = collect(x, &page, jobs, &err);
	if (s == NST_OK && !sum_show(&c->set, &page))
		s = nst_fail(&err, NST_ERR_NOMEM, "out of memory");
	if (s != NST_OK)
		cli_error("%s", err.msg);
	for (size_t i = 0; i < SUM_NPARTS; i++)
		nst_rows_release(&page.part[i]);
	nst_export_close(x);
	return exit_of(s);
}

static int run_summary(const struct summary_cmd *c)
{
	struct nst_job *jobs[SUM_AUDIT] = { 0 };
	struct nst_error err = { 0 };
	int rc = 0;
	bool ready = make_jobs(c->set.top, jobs, &err) == NST_OK;
	if (!ready) {
		cli_error("%s", err.msg);
		rc = EXIT_FAILED;
	}
	for (size_t i = 0; ready && i < c->ninputs; i++) {
		if (i)
			fputc('\n', stdout);
		int one = summarize(c, c->inputs[i], jobs);
		rc = one > rc ? one : rc;
	}
	for (size_t i = 0; i < SUM_AUDIT; i++)
		nst_job_free(jobs[i]);
	return rc; /* main() checks that standard output was written */
}

int cmd_summary(int argc, char **argv)
{
	struct summary_cmd c = { .set = { .top = 10 } };
	int rc = opt_parse("summary", options, NOPTIONS, argc, argv, on_option, &c);
	struct command_doc doc;
	doc_summary(&doc);
	if (rc == 0)
		rc = settle_layout(&c);
	if (rc == 0 && c.help) {
		cli_usage(stdout, &doc);
	} else if (rc == 0 && c.ninputs == 0) {
		cli_usage(stderr, &doc);
		rc = EXIT_USAGE;
	} else if (rc == 0) {
		rc = run_summary(&c);
	}
	free(c.inputs);
	return rc;
}
