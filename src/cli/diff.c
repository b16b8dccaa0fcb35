/* `nstats diff BASELINE CANDIDATE`: two captures compared (nst_diff), with
 * the tuples of stats, how kernels match, and a verdict for CI. */
#include <stdlib.h>
#include <string.h>

#include "cli/tuples.h"

enum { O_NAMES = T_OWN, O_GATE, O_GATE_MIN, O_ALPHA, O_DEVICES, O_PER };

static const struct opt own_options[] = {
	{ 0, "names", OPT_REQUIRED, "exact|base",
	  "How kernels match across the two: by the whole demangled name\n"
	  "(exact, the default) or by the base name, without return type,\n"
	  "qualifiers, template arguments and parameters (nsys's shortName):\n"
	  "what matches across profilers, which spell templates differently.",
	  O_NAMES },
	{ 0, "gate", OPT_REQUIRED, "PCT",
	  "Fail (exit 7) when the GPU busy time of a device or the total time of\n"
	  "a kernel grew by more than PCT percent (a whole number); a kernel only\n"
	  "in the candidate counts as grown without bound.  Where both captures\n"
	  "mark iterations (--per), a device's busy time in an iteration counts.\n"
	  "Adds the verdict report to the run, and one line on stderr naming the\n"
	  "worst offender.",
	  O_GATE },
	{ 0, "gate-min", OPT_REQUIRED, "TIME",
	  "Kernels whose total is below TIME on both sides (ns, or with units:\n"
	  "250us, 1ms) are left out of the gate.", O_GATE_MIN },
	{ 0, "alpha", OPT_REQUIRED, "A",
	  "The significance level of each comparison's test (default 0.05): a\n"
	  "change whose p-value (Holm-adjusted across the rows of one report) is\n"
	  "A or more reads ~, no significant change.  1 turns testing off.",
	  O_ALPHA },
	{ 0, "devices", OPT_REQUIRED, "auto|id",
	  "How the GPUs of the two captures pair: by what ran on them (auto, the\n"
	  "default: the kernels they share), or by device id.",
	  O_DEVICES },
	{ 0, "per", OPT_REQUIRED, "NAME",
	  "The NVTX ranges that are the iterations of each run: those named\n"
	  "exactly NAME (as nvtx_sum names them: domain:name in a domain).\n"
	  "Without it, PyTorch's steps (ProfilerStep#N) where there are any.\n"
	  "Busy time and kernel totals are then compared per iteration\n"
	  "(iter_diff, and the gate's check of each device), so that fewer\n"
	  "iterations are not a change.",
	  O_PER },
};

struct diff_cmd {
	struct tuples t;
	struct list inputs;
	enum nst_names names;
	enum nst_devices devices;
	double alpha;
	const char *gate, *gate_min, *per;
};

static int set_names(struct diff_cmd *c, const char *v)
{
	if (strcmp(v, "exact") == 0 || strcmp(v, "base") == 0) {
		c->names = v[0] == 'b' ? NST_NAMES_BASE : NST_NAMES_EXACT;
		return 0;
	}
	cli_error("diff: --names takes exact or base, not '%s'", v);
	return EXIT_USAGE;
}

/* A level in (0, 1]: 0.05, .01, 1. */
static int set_alpha(struct diff_cmd *c, const char *v)
{
	char *end;
	double a = strtod(v, &end);
	if (end != v && !*end && a > 0 && a <= 1) {
		c->alpha = a;
		return 0;
	}
	cli_error("diff: --alpha takes a level above 0 and at most 1 (0.05), not '%s'", v);
	return EXIT_USAGE;
}

static int set_devices(struct diff_cmd *c, const char *v)
{
	if (strcmp(v, "auto") == 0 || strcmp(v, "id") == 0) {
		c->devices = v[0] == 'a' ? NST_DEVICES_AUTO : NST_DEVICES_ID;
		return 0;
	}
	cli_error("diff: --devices takes auto or id, not '%s'", v);
	return EXIT_USAGE;
}

static int on_option(void *state, const struct opt *o, const char *v)
{
	struct diff_cmd *c = state;
	if (!o) {
		if (list_add(&c->inputs, v, strlen(v)) == 0)
			return 0;
		cli_error("out of memory");
		return EXIT_FAILED;
	}
	switch (o->id) {
	case O_NAMES: return set_names(c, v);
	case O_GATE: c->gate = v; return 0;
	case O_GATE_MIN: c->gate_min = v; return 0;
	case O_ALPHA: return set_alpha(c, v);
	case O_DEVICES: return set_devices(c, v);
	case O_PER: c->per = v; return 0;
	default: return tuples_option(&c->t, o, v);
	}
}

/* --gate and --gate-min as the verdict job's arguments (which checks the
 * percent as every report argument is checked). */
static int verdict_spec(const struct diff_cmd *c, char *spec, size_t size)
{
	int64_t min = 0;
	struct nst_error err = { 0 };
	if (strchr(c->gate, ':')) {
		cli_error("diff: --gate takes a whole percent, not '%s'", c->gate);
		return EXIT_USAGE;
	}
	if (c->gate_min && nst_time_parse(c->gate_min, &min, &err) != NST_OK) {
		cli_error("diff: illegal --gate-min argument '%s': %s", c->gate_min, err.msg);
		return EXIT_USAGE;
	}
	if (snprintf(spec, size, "verdict:gate=%s:min=%lld", c->gate, (long long)min) >= (int)size) {
		cli_error("diff: --gate takes a whole percent, not '%s'", c->gate);
		return EXIT_USAGE;
	}
	return 0;
}

/* "-r verdict" with --gate: the gate's verdict in its place; true when
 * there was one (else the verdict runs after the rest). */
static int gate_in_place(struct diff_cmd *c, const char *spec, bool *placed)
{
	struct list *r = &c->t.reports;
	for (size_t i = 0; i < r->n; i++) {
		if (strcmp(r->item[i], "verdict") != 0)
			continue;
		char *s = strdup(spec);
		if (!s) {
			cli_error("out of memory");
			return EXIT_FAILED;
		}
		free(r->item[i]);
		r->item[i] = s;
		*placed = true;
	}
	return 0;
}

/* The -r list (or the default set), and the verdict when a gate is set. */
static int build_jobs(struct diff_cmd *c, struct jobs *jobs)
{
	char spec[96];
	bool placed = false;
	int rc = c->gate ? verdict_spec(c, spec, sizeof spec) : 0;
	if (!rc && c->gate)
		rc = gate_in_place(c, spec, &placed);
	if (!rc)
		rc = tuples_jobs(&c->t, jobs);
	if (rc || !c->gate || placed)
		return rc;
	struct nst_job **j = realloc(jobs->job, (jobs->n + 1) * sizeof *j);
	struct nst_error err = { 0 };
	if (!j) {
		cli_error("out of memory");
		return EXIT_FAILED;
	}
	jobs->job = j;
	if (nst_job_parse(NST_DIFFS, spec, &j[jobs->n], &err) != NST_OK) {
		cli_error("diff: --gate: %s", err.msg);
		return exit_of(err.status);
	}
	jobs->n++;
	return 0;
}

/* ---- the two captures ----------------------------------------------------------- */

struct pair {
	struct nst_export *x[2];
	enum nst_names names;
	enum nst_devices devices;
	double alpha;
	const char *per;
	struct nst_diff_result res;
};

static enum nst_status run_diff(void *arg, const struct nst_run *run, struct nst_error *err)
{
	struct pair *p = arg;
	struct nst_run r = *run;
	r.names = p->names;
	r.alpha = p->alpha;
	r.devices = p->devices;
	r.per = p->per;
	return nst_diff(p->x[0], p->x[1], &r, &p->res, err);
}

/* "-o ." names files after both: dir/a_vs_b.x, for target_resolve. */
static char *names_path(const char *a, const char *b)
{
	const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
	sb = sb ? sb + 1 : b;
	size_t la = strcspn(sa ? sa + 1 : a, ".") + (size_t)(sa ? sa + 1 - a : 0);
	size_t lb = strcspn(sb, ".");
	char *s = malloc(la + lb + 8);
	if (s)
		sprintf(s, "%.*s_vs_%.*s.x", (int)la, a, (int)lb, sb);
	return s;
}

static int open_both(struct diff_cmd *c, struct pair *p, const struct jobs *jobs)
{
	struct nst_options o;
	cli_export_options(&o, c->t.quiet);
	for (int i = 0; i < 2; i++) {
		struct nst_error err = { 0 };
		enum nst_status s = nst_export_open(c->inputs.item[i], &o, &p->x[i], &err);
		if (s == NST_OK)
			s = nst_export_load(p->x[i], &c->t.filter, jobs->job, jobs->n, &err);
		if (s != NST_OK) {
			cli_error("%s", err.msg);
			tuples_export_failed(&c->t, c->inputs.item[i], err.msg);
			return exit_of(s);
		}
	}
	return 0;
}

static int run_pair(struct diff_cmd *c, const struct jobs *jobs)
{
	struct pair p = { .names = c->names, .devices = c->devices, .alpha = c->alpha,
			  .per = c->per };
	int rc = open_both(c, &p, jobs);
	char subject[8192], *named = NULL;
	if (!rc) {
		const char *a = nst_export_path(p.x[0]), *b = nst_export_path(p.x[1]);
		snprintf(subject, sizeof subject, "%s] vs [%s", a, b);
		tuples_export(&c->t, a, b, NULL);
		if (!(named = names_path(a, b))) {
			cli_error("out of memory");
			rc = EXIT_FAILED;
		}
	}
	bool failed = false;
	for (size_t j = 0; !rc && j < jobs->n; j++) {
		p.res = (struct nst_diff_result){ 0 };
		tuples_run(&c->t, j, jobs->job[j], subject, named, run_diff, &p);
		if (p.res.caveat[0]) {
			fflush(stdout);
			fprintf(stderr, "nstats: note: %s\n", p.res.caveat);
		}
		if (p.res.gate_failed) {
			fflush(stdout);
			fprintf(stderr, "nstats: gate: %s\n", p.res.worst);
			failed = true;
		}
	}
	free(named);
	nst_export_close(p.x[0]);
	nst_export_close(p.x[1]);
	if (rc)
		return rc;
	return c->t.rc ? c->t.rc : failed ? EXIT_GATE : EXIT_OK;
}

/* The default set on a terminal (or with COLUMNS set) fits its width: the
 * brief tables are made to be read there.  A format, an output or a
 * report of one's own choosing is left as asked. */
static int fit_the_terminal(struct diff_cmd *c)
{
	char fmt[48];
	size_t width = cli_terminal_width(60, 1000, 0);
	if (!width || c->t.formats.n || c->t.outputs.n || c->t.reports.n)
		return 0;
	snprintf(fmt, sizeof fmt, "column:fit=%zu", width);
	if (list_add(&c->t.formats, fmt, strlen(fmt)) == 0)
		return 0;
	cli_error("out of memory");
	return EXIT_FAILED;
}

static int run(struct diff_cmd *c)
{
	struct jobs jobs = { 0 };
	int rc = fit_the_terminal(c);
	if (!rc)
		rc = build_jobs(c, &jobs);
	if (!rc)
		rc = tuples_check_formats(&c->t);
	if (!rc)
		rc = tuples_start(&c->t, &jobs);
	if (!rc) {
		rc = run_pair(c, &jobs);
		int finished = tuples_finish(&c->t);
		rc = rc ? rc : finished;
	}
	jobs_free(&jobs);
	return rc;
}

static const struct catalog diff_catalog = {
	.cmd = "diff",
	.noun = "report",
	.opt = "report",
	.opt_help = "Comparison to run, with its arguments (e.g. kern_diff:tolerance=5).\n"
		    "Repeatable. Without it, the default set runs.\n"
		    CLI_ARG_QUOTING,
	.list_opt = "help-reports",
	.list_help = "List the comparisons, or describe one or all of them.",
	.pairing = "Reports, formats and outputs pair up in order; when one list is\n"
		   "shorter, its last element repeats.  \"-o .\" names files after both\n"
		   "captures: <a>_vs_<b>_<report>.<ext>.\n",
	.intro = "Compares two captures (nstats addition): BASELINE (A) and CANDIDATE (B),\n"
		 "Nsight Systems exports, .nsys-rep or PyTorch profiler traces (.json,\n"
		 ".json.gz), two runs of a program or one run seen by two profilers.\n"
		 "Deltas are B - A; filters apply to each side on its own clock.",
	.exit_status = "Exit status: 0 done, 1 a comparison failed, 2 usage error, 3 a capture\n"
		       "cannot be read, 4 output cannot be written, 5 --strict and a\n"
		       "comparison was skipped, 7 --gate and the candidate grew beyond it.\n",
	.synopsis = "[OPTION...] BASELINE CANDIDATE",
	.own = own_options,
	.nown = sizeof own_options / sizeof *own_options,
	.catalog = NST_DIFFS,
};

int cmd_diff(int argc, char **argv)
{
	struct diff_cmd c = { .t.cat = &diff_catalog };
	struct command_doc doc;
	cli_catalog_doc(&diff_catalog, &doc);
	bool done;
	int rc = opt_parse("diff", doc.opts, doc.nopts, argc, argv, on_option, &c);
	if (rc == 0)
		rc = tuples_help(&c.t, &doc, &done);
	if (rc == 0 && !done && c.inputs.n != 2) {
		cli_error("diff: two captures to compare, baseline and candidate (see nstats diff"
			  " --help)");
		rc = EXIT_USAGE;
	} else if (rc == 0 && !done) {
		rc = run(&c);
	}
	tuples_release(&c.t);
	list_free(&c.inputs);
	return rc;
}

void doc_diff(struct command_doc *d)
{
	cli_catalog_doc(&diff_catalog, d);
}
