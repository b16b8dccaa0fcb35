/* What the commands that print reports share (stats, analyze, diff): the
 * -r/-f/-o tuples and the options around them, building the jobs, and one
 * job's output: its format, its file or console, the Processing line,
 * SKIPPED and PROCESSED, and the exit status. */
#ifndef NSTATS_CLI_TUPLES_H
#define NSTATS_CLI_TUPLES_H

#include "cli/cli.h"
#include "cli/document.h"
#include "cli/output.h"

/* The ids of the options in tuple_options[]; a command's own ids start at
 * T_OWN. */
enum {
	T_REPORT, T_FORMAT, T_OUTPUT, T_TIMEUNIT, T_FILTER_TIME, T_FILTER_NVTX,
	T_FORCE, T_QUIET, T_STRICT, T_HELP_REPORTS, T_HELP_FORMATS, T_HELP, T_OWN,
};
extern const struct opt tuple_options[];
extern const size_t tuple_noptions;

struct list {
	char **item;
	size_t n;
};
int list_add(struct list *l, const char *s, size_t len);
/* "a,b,c" adds three items. */
int list_add_split(struct list *l, const char *s);
/* The same, but a ',' inside double quotes (-r's nvtx="a,b") splits nothing. */
int list_add_split_quoted(struct list *l, const char *s);
void list_free(struct list *l);
/* Item i, or the last when the list is shorter, or dflt when empty. */
const char *list_pick(const struct list *l, size_t i, const char *dflt);

struct tuples {
	const struct catalog *cat;
	struct list reports, formats, outputs;
	const char *timeunit;
	struct nst_filter filter;
	const char *filter_time;  /* --filter-time as given, for the note that it misses */
	bool force, quiet, strict;
	bool help, help_reports, help_formats;
	const char *help_reports_arg, *help_formats_arg;
	/* --report-dir's reports (stats), NULL when none: listed and run
	 * beside the catalog's */
	const struct nst_report_dir *dir;
	int rc; /* the worst exit status so far */
	struct doc_export export;  /* the export whose reports run now */
	const char *export_tag;    /* several exports: tells its files apart */
	bool label_exports;        /* "==> EXPORT <==" before each one's tables */
	size_t labeled;            /* the export labelled last */
	struct docs docs;          /* json:typed on the console or a command */
	struct list keys;          /* each tuple's key in its document */
};

/* Takes one of tuple_options[]; returns 0 or an exit code. */
int tuples_option(struct tuples *t, const struct opt *o, const char *v);
/* --help, --help-reports, --help-formats when asked: *done says so. */
int tuples_help(const struct tuples *t, const struct command_doc *doc, bool *done);
void tuples_release(struct tuples *t);

struct jobs {
	struct nst_job **job;
	size_t n;
};
/* The -r list, or the catalog's default set; a name or argument that does
 * not exist is one line that points to the list that has it. */
int tuples_jobs(const struct tuples *t, struct jobs *jobs);
void jobs_free(struct jobs *jobs);
/* Every format and --timeunit, checked before the first export: a typo
 * should not cost a long run. */
int tuples_check_formats(const struct tuples *t);

/* The format tuple i writes in, for the output it goes to; why not in
 * err (tuples_run says it). */
enum nst_status tuples_format(const struct tuples *t, size_t i, struct nst_format **fmt,
			      struct nst_error *err);

/* Runs the job of tuple i through fn (nst_run or nst_diff with the run
 * filled in) to its format and output; subject is what the Processing
 * line names, names_path what "-o ." names files after. */
typedef enum nst_status (*tuple_fn)(void *arg, const struct nst_run *run, struct nst_error *err);
void tuples_run(struct tuples *t, size_t i, const struct nst_job *job, const char *subject,
		const char *names_path, tuple_fn fn, void *arg);
/* Folds a status into t->rc (SKIPPED counts only with --strict). */
void tuples_note(struct tuples *t, enum nst_status s);

/* Before the first export: the documents of json:typed on the console
 * and on commands (one per stream for the whole run), refusing a stream
 * that would hold a document and text of another format. */
int tuples_start(struct tuples *t, const struct jobs *jobs);
/* The next export (for diff, the pair) whose reports run: the documents'
 * entries, the labels, tag (export_tag) in the names of its files. */
void tuples_export(struct tuples *t, const char *path, const char *candidate, const char *tag);
/* An export that could not be read: an entry of its own in the documents. */
void tuples_export_failed(struct tuples *t, const char *path, const char *msg);
/* Ends the documents; returns the run's exit status. */
int tuples_finish(struct tuples *t);

#endif
