/* nstats: statistics and trace reports from Nsight Systems SQLite exports.
 *
 * The library opens an export read-only, runs the reports of `nsys stats`,
 * the rules of `nsys analyze` and nstats's own audit of the export, and
 * hands each result to the caller: row by row through a struct nst_sink,
 * or as text in one of the 7 formats of `nsys stats -f`.
 *
 *     struct nst_error err;
 *     struct nst_export *x;
 *     struct nst_job *job;
 *     if (nst_export_open("report.sqlite", NULL, &x, &err) ||
 *         nst_job_parse(NST_REPORTS, "cuda_gpu_kern_sum:base", &job, &err) ||
 *         nst_run(x, &(struct nst_run){ .job = job, .sink = &my_sink }, NULL, &err))
 *             fprintf(stderr, "%s\n", err.msg);
 *
 * Promises: the library never writes to standard output or error, never
 * reads the environment, never exits and keeps no global mutable state.
 * Every failure comes back as a status plus a one-line message in a
 * struct nst_error, naming the export where one is involved; the caller
 * prints it.  Progress and timing reach the caller through callbacks
 * (struct nst_options).  Objects of different exports may be used on
 * different threads at once; one export and what came from it belongs to
 * one thread at a time.
 *
 * Ownership: what ..._open, ..._parse or ..._new returns, the caller
 * releases with the matching ..._close or ..._free (NULL is fine there).
 * Strings and cells handed to a sink are borrowed: valid until the
 * callback returns.
 */
#ifndef NSTATS_NSTATS_H
#define NSTATS_NSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NSTATS_VERSION "0.4.0"
/* The version of the option structs below; set their .version to it. */
#define NST_API_VERSION 5

/* ---- status and errors ------------------------------------------------- */

/* Status of every library call. */
enum nst_status {
	NST_OK = 0,
	NST_ERR_USAGE,     /* a bad option, format, filter or argument value */
	NST_ERR_DB,        /* the export cannot be opened or read, or holds values
			      nstats cannot compute with */
	NST_ERR_NODATA,    /* the report cannot run: the export lacks what it needs
			      (nsys's SKIPPED) */
	NST_ERR_IO,        /* writing output failed */
	NST_ERR_NOMEM,
	NST_ERR_INTERNAL,
	NST_ERR_UNKNOWN,   /* no report, rule or argument of that name */
	/* since NST_API_VERSION 2: */
	NST_ERR_INTERRUPTED, /* nst_options.interrupted said stop */
	NST_ERR_QUERY,     /* an SQL report's query failed while it ran, or ran
			      past nst_options.query_limit */
};

/* One message, built where the failure is known; printed by the caller. */
struct nst_error {
	enum nst_status status;
	char msg[1024];
};

/* Sets err (when not NULL) and returns status: `return nst_fail(err, ...)`. */
enum nst_status nst_fail(struct nst_error *err, enum nst_status status,
			 const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "did you mean a, b or c?": the names among names[0..n) closest to one
 * that is not among them (at most 3, by edit distance, case aside, a name
 * that starts with it counting as close), into buf; "" when none is
 * close.  The library's own messages of unknown names end so already;
 * this is for a caller's names (options, commands).  Returns buf. */
const char *nst_suggest_names(const char *name, const char *const *names, size_t n, char *buf,
			      size_t size);

/* ---- rows: cells and sinks --------------------------------------------- */

/* A value in a report's row. */
enum nst_kind { NST_NULL, NST_INT, NST_REAL, NST_TEXT };
struct nst_cell {
	enum nst_kind kind;
	union {
		int64_t i;
		double r;
		const char *s;
	} v;
};

/* Text a rule prints around its rows in the column and table formats. */
enum nst_note {
	NST_NOTE_ADVICE,   /* after the title, when there are rows */
	NST_NOTE_NORESULT, /* instead of the rows, when there are none */
	NST_NOTE_FOOTER,   /* after the rows */
};

/* Where a report sends its rows: begin once with the column names, then
 * row by row.  Column names use nsys's tags, "Label:category_unit" (e.g.
 * "Total Time:dur_ns", "Bytes:mem_B"); a name that starts with '_' is a
 * hidden column.  A callback that fails returns its status with a message
 * in err (nst_fail); the report stops and returns that status.  note may
 * be NULL; it may come before begin. */
struct nst_sink {
	enum nst_status (*begin)(void *ctx, const char *const *cols, size_t ncols,
				 struct nst_error *err);
	enum nst_status (*row)(void *ctx, const struct nst_cell *cells,
			       struct nst_error *err);
	enum nst_status (*note)(void *ctx, enum nst_note kind, const char *text,
				struct nst_error *err);
	void *ctx;
};

/* Since NST_API_VERSION 3: rows kept in memory, for a caller that lays
 * them out itself (a page, a screen).  Start from a zeroed struct, hand
 * nst_rows_sink(&r) to a run, read the fields, then nst_rows_release().
 * Column names and text cells are copies, owned by r. */
struct nst_rows {
	char **cols;            /* as the sink got them: "Total Time:dur_ns" */
	size_t ncols;
	struct nst_cell *cells; /* nrows * ncols, row after row */
	size_t nrows, cap;
	bool begun;             /* begin came: false when the report did not run */
};
struct nst_sink nst_rows_sink(struct nst_rows *r);
/* The column whose label (its name up to the tag's ':') is label; -1 when
 * none. */
int nst_rows_col(const struct nst_rows *r, const char *label);
/* The cell at row, col; a NULL cell when either is out of range. */
const struct nst_cell *nst_rows_cell(const struct nst_rows *r, size_t row, int col);
/* Frees what r holds and zeroes it. */
void nst_rows_release(struct nst_rows *r);

/* ---- what there is to run ---------------------------------------------- */

enum nst_catalog {
	NST_REPORTS,  /* nsys stats's reports, and nstats's own */
	NST_RULES,    /* nsys analyze's rules */
	NST_FINDINGS, /* the audit's findings (nst_audit_run) */
	NST_DIFFS,    /* comparisons of two exports (nst_diff) */
	NST_RECIPES,  /* since NST_API_VERSION 3: many exports at once
			 (nst_part_make, nst_merge_...) */
};

/* A report, rule or finding as --help-reports describes it. */
struct nst_about {
	const char *name;
	const char *title;        /* nsys's display name */
	const char *help;         /* lines separated by '\n' */
	const char *const *args;  /* accepted arguments, NULL-terminated */
	bool addition;            /* nstats's own: nsys has no such report */
	bool informational;       /* a finding that never counts as found */
};

/* Entries in name order (findings: in the order they run), and the one
 * named `name`; false past the end or when there is none. */
size_t nst_catalog_size(enum nst_catalog c);
bool nst_catalog_entry(enum nst_catalog c, size_t i, struct nst_about *out);
bool nst_catalog_find(enum nst_catalog c, const char *name, struct nst_about *out);
/* nsys's default set: the reports of `nsys stats`, the rules of `nsys
 * analyze` without -r, in order. */
const char *const *nst_catalog_defaults(enum nst_catalog c, size_t *n);

/* A report or rule with its arguments, as -r gives it:
 * "NAME[:ARG...]" where an argument is a flag ("base") or "key=value"
 * ("rows=10").  Every report also takes start=NS, end=NS and
 * nvtx=RANGE[@DOMAIN][/INDEX], which win over the run's filter.  Unknown
 * names and arguments are NST_ERR_UNKNOWN, bad values NST_ERR_USAGE. */
struct nst_job;
enum nst_status nst_job_parse(enum nst_catalog c, const char *spec, struct nst_job **out,
			      struct nst_error *err);
void nst_job_free(struct nst_job *job);
const char *nst_job_spec(const struct nst_job *job);  /* as given */
const char *nst_job_name(const struct nst_job *job);
/* Whether the job may print a row per event (a trace, a rule's findings,
 * an SQL report, a comparison): its output grows with the capture.  false
 * for a built-in summary, whose rows are its groups: a front-end may hold
 * its output in memory. */
bool nst_job_rows_grow(const struct nst_job *job);

/* ---- filters ------------------------------------------------------------ */

/* What nsys's --filter-time and --filter-nvtx keep: rows that overlap the
 * window, in every table with start and end.  A zeroed filter keeps all. */
struct nst_filter {
	bool has_start, has_end;
	int64_t start, end;   /* ns, as in the export */
	const char *nvtx;     /* RANGE[@DOMAIN][/INDEX]: wins over the times */
};

/* "[START]/[END]", nanoseconds or values with units (1s2ms, 2.5e6, 250us/)
 * as nsys reads --filter-time, into f's times.  On error, err says what
 * is wrong and where, for "illegal --filter-time argument '...': <msg>". */
enum nst_status nst_filter_parse_time(const char *arg, struct nst_filter *f,
				      struct nst_error *err);

/* One time value of that grammar: "250us", "1s2ms", "2.5e6" (ns). */
enum nst_status nst_time_parse(const char *arg, int64_t *ns, struct nst_error *err);

/* ---- formats --------------------------------------------------------------- */

/* Where formatted text goes decides the defaults: "." or NULL is column on
 * the console and csv elsewhere; on a console or pipe, nsys follows each
 * report that has rows with an empty line. */
enum nst_target { NST_TO_FILE, NST_TO_CONSOLE, NST_TO_PIPE };

struct nst_format_options {
	int version;              /* NST_API_VERSION */
	enum nst_target target;
	const char *timeunit;     /* --timeunit: nsec, usec, msec, seconds, or a prefix */
	/* The column and table formats group digits as LC_NUMERIC does
	 * (localeconv()); NULL or "" for none, the C locale's marks. */
	const char *thousands_sep, *grouping, *decimal_point;
};

/* "csv", "column:time=us:nofmt", ... (nstats stats --help-formats); NULL
 * or "." for the target's default.  NULL options (or zeroed ones but
 * version): a file, no unit, the C locale. */
struct nst_format;
enum nst_status nst_format_parse(const char *spec, const struct nst_format_options *o,
				 struct nst_format **out, struct nst_error *err);
void nst_format_free(struct nst_format *f);
/* "csv", "json", ...: the extension of its files. */
const char *nst_format_ext(const struct nst_format *f);
/* json:typed: each report is one JSON object, {"rows": [...]} (with
 * "notes" when a rule has some), that the caller places in a document
 * of its own (nstats's is in docs/json.md). */
bool nst_format_typed_json(const struct nst_format *f);
/* s as a JSON string: escaped, quoted, and valid UTF-8 whatever the
 * bytes (what json writes its strings with, for a caller's document). */
void nst_put_json_string(FILE *out, const char *s, size_t len);
/* The --help-formats text: the list (name NULL), one format, or "ALL". */
enum nst_status nst_format_help(FILE *out, const char *name, struct nst_error *err);

/* ---- an export ------------------------------------------------------------- */

struct nst_options {
	int version;              /* NST_API_VERSION */
	/* Threads that read tables at once, each with its own connection (a
	 * big table is cut among them by its b-tree's pages), 1 to 64; 0 for
	 * the default: one a processor the process may run on, at most 16.
	 * The sections of a page (nst_page_write) and the summaries of a run
	 * are computed two at a time, one after another when this is 1 (or
	 * 0 with one processor). */
	int read_threads;
	/* A table of millions of rows being read: rows of expected so far;
	 * done when it is read.  On the thread that asked for the read
	 * (nst_export_load(), or a job nst_page_write() runs on its second
	 * thread); never two at once. */
	void (*progress)(void *arg, const char *table, uint64_t rows, uint64_t expected,
			 bool done);
	/* One line (no newline) of what a step took: a table read, a widened
	 * column, a finding.  Never two at once; maybe on a reader thread or
	 * on nst_page_write()'s second thread. */
	void (*timing)(void *arg, const char *line);
	void *arg;
	/* ---- since version 2 (a version 1 caller's struct ends above) ---- */
	/* A .nsys-rep (or .qdrep) input: the SQLite export to read, or to
	 * write with `nsys export` when it is missing or older than the
	 * input; NULL for the .sqlite beside the input.  Other inputs ignore
	 * it. */
	const char *sqlite;
	/* A .nsys-rep input: export it again even when its export is up to
	 * date.  Other inputs ignore it. */
	bool force_export;
	/* Asked often while an SQL report's query runs and while tables are
	 * read, maybe on a reader thread (keep it cheap: a flag); true stops
	 * the query or the read with NST_ERR_INTERRUPTED.  NULL: never. */
	bool (*interrupted)(void *arg);
	/* Seconds an SQL report's query may run, then NST_ERR_QUERY; 0 for
	 * no limit. */
	double query_limit;
	/* ---- since version 4 (a version 2 or 3 caller's struct ends above) ---- */
	/* true reads every table through SQLite; by default tables are read
	 * straight from the file's b-tree pages where the file and the table
	 * are what nstats reads that way (docs/internals.md), the others
	 * through SQLite. */
	bool sqlite_reader;
	/* Bytes the tables may take in memory: a read whose columns alone
	 * would take more is refused before it starts (NST_ERR_NOMEM, saying
	 * how much), rather than ended by the system halfway.  0 for this
	 * machine's memory, or the process's address-space limit when lower. */
	uint64_t memory_limit;
};

/* Opens an export read-only and immutable: an Nsight Systems SQLite
 * export, or a .nsys-rep (or .qdrep) whose .sqlite beside it (or the
 * file o->sqlite names) is used when it is at least as new and
 * o->force_export is not set, else made with `nsys export` when nsys is
 * on PATH (its output goes to the process's standard error).  NULL
 * options are the defaults. */
struct nst_export;
enum nst_status nst_export_open(const char *input, const struct nst_options *o,
				struct nst_export **out, struct nst_error *err);
void nst_export_close(struct nst_export *x);
/* The SQLite file read: the input, or the export beside a .nsys-rep. */
const char *nst_export_path(const struct nst_export *x);
/* How many threads run jobs on x at once: 1 when its options'
 * read_threads is 1, or 0 on a process that may run on one processor
 * only; else 2.  Jobs on one export may run on that many threads
 * together. */
int nst_export_threads(const struct nst_export *x);
/* Whether x's options have a timing callback, and one line to it (a
 * front-end's own step: a section of a page). */
bool nst_export_timed(const struct nst_export *x);
void nst_export_timing(struct nst_export *x, const char *line);

/* The span of what the capture traced, in ns on the timeline filters use:
 * the first start and the last end of the rows of every table with start
 * and end columns (one scan of each); NST_ERR_NODATA when it has none. */
enum nst_status nst_export_span(struct nst_export *x, int64_t *start, int64_t *end,
				struct nst_error *err);
/* When an NVTX range (nvtx=, --filter-nvtx) is not in the export, which
 * nst_run says with nsys's SKIPPED message alone: what is there instead,
 * "there are 5 ranges backward, /0 to /4" when the index is past the last,
 * or "did you mean backward@app?"; "" when the range is there, the export
 * has no NVTX data or no name is close. */
enum nst_status nst_export_nvtx_hint(struct nst_export *x, const char *spec, char *hint,
				     size_t size, struct nst_error *err);

/* Reads, in one scan per table and on read_threads threads, every column
 * that jobs[0..n) need under the filter.  Optional: a run reads what it
 * lacks itself; doing it first makes a run of many reports read each
 * table once. */
enum nst_status nst_export_load(struct nst_export *x, const struct nst_filter *filter,
				struct nst_job *const *jobs, size_t n, struct nst_error *err);

/* Says that job j of those the last nst_export_load was given has run,
 * when they run one after another (never while one runs): frees the tables
 * that none of the jobs after it reads, and what reports derived from the
 * export, so that a run's peak memory is its heaviest job's rather than
 * every table's at once.  A table asked for after all is read again.  Does
 * nothing once a filtered job has run (its view reads the tables).
 * Returns the bytes of columns freed. */
size_t nst_export_done(struct nst_export *x, size_t j);

/* ---- running a report or rule ---------------------------------------------- */

/* How nst_diff matches kernels across the two sides: by their whole
 * demangled names, or by base name (no return type, qualifiers, template
 * arguments or parameters: nsys's shortName), which is what matches
 * across profilers, whose demangled spellings differ. */
enum nst_names { NST_NAMES_EXACT, NST_NAMES_BASE };

/* How nst_diff pairs the GPUs of the two sides: by what ran on them (auto,
 * the default: the kernels they share, so that rank 3 on GPU 3 meets rank
 * 1 on GPU 1), or by device id alone. */
enum nst_devices { NST_DEVICES_AUTO, NST_DEVICES_ID };

/* One report or rule on an export: its rows go to `sink`, or, when sink
 * is NULL, as text in `format` to `out` or to the stream `open` returns.
 * open is called once, when the first line is ready, so that a report
 * that cannot run opens nothing; the caller closes that stream after
 * nst_run() returns (the library has flushed it). */
struct nst_run {
	const struct nst_job *job;
	const struct nst_filter *filter;  /* NULL: none */
	const struct nst_sink *sink;
	const struct nst_format *format;
	FILE *out;
	FILE *(*open)(void *arg, struct nst_error *err);
	void *open_arg;
	enum nst_names names;             /* nst_diff only */
	/* since NST_API_VERSION 5 (the struct grew: a program built against
	 * an older header must be built again): */
	/* nst_diff only: the level of each comparison's significance test
	 * (docs/guide.md, "Is it noise?"); 0 means 0.05, 1 turns testing off. */
	double alpha;
	enum nst_devices devices;         /* nst_diff only */
	/* nst_diff only: the NVTX ranges that are a run's iterations, for the
	 * comparisons per iteration (iter_diff, and the gate's check of a
	 * device): those whose name is exactly `per`, as nvtx_sum names them
	 * ("domain:name" for a range in a domain).  NULL: PyTorch's steps,
	 * ranges named ProfilerStep#<number>. */
	const char *per;
};

/* Why a report left rows of the export out on purpose, where nsys counts
 * them: an index into nst_run_result.excluded.  A new reason is a new
 * value here (at most NST_EXCLUSION_ROOM of them, so the struct keeps its
 * size). */
enum nst_exclusion {
	/* CUDA backtrace records (--cudabacktrace): runtime rows that record
	 * the stack of the call beside them, never calls themselves; nsys
	 * counts them as calls (docs/deviations.md D1, D20). */
	NST_EXCLUDED_BACKTRACE,
	NST_EXCLUSIONS
};
#define NST_EXCLUSION_ROOM 8

/* What a run found beside its rows. */
struct nst_run_result {
	/* A kernel report on an export traced with --cuda-graph-trace=graph:
	 * the CUDA graph launches (under the filter) whose kernels are in no
	 * kernel row, and the sum of their durations. */
	uint64_t hidden_graph_launches;
	int64_t hidden_graph_ns;
	/* Rows that the report (when it ran) left out on purpose, among those
	 * its filter keeps, by reason: excluded[NST_EXCLUDED_BACKTRACE]... */
	uint64_t excluded[NST_EXCLUSION_ROOM];
};

/* NST_ERR_NODATA, with nsys's SKIPPED message, when the export lacks what
 * the report needs or the filter's NVTX range is not there.  res may be
 * NULL. */
enum nst_status nst_run(struct nst_export *x, const struct nst_run *run,
			struct nst_run_result *res, struct nst_error *err);

/* ---- reports of one's own: a directory of NAME.sql files ------------------ */

/* `nstats stats --report-dir DIR` (docs/custom-reports.md): each NAME.sql
 * holds one read-only SELECT, after a leading comment whose first line is
 * the report's title and whose other lines are its help.  Its column
 * aliases may carry the tags of struct nst_sink ("Total:dur_ns").  A job
 * of such a report runs through nst_run() like any other: the run's
 * filter and the job's start=, end=, nvtx= cut every table with start
 * and end that the query reads; the query cannot write, attach, load
 * extensions or change a pragma, and nst_options.query_limit and
 * .interrupted stop it. */
struct nst_report_dir;
/* Reads the reports of dirs[0..n).  A missing directory or an unreadable
 * file is NST_ERR_DB; a file whose name is no report name, an empty one,
 * a name that a built-in report or another directory has, NST_ERR_USAGE;
 * each message names the file. */
enum nst_status nst_report_dir_open(const char *const *dirs, size_t n,
				    struct nst_report_dir **out, struct nst_error *err);
void nst_report_dir_close(struct nst_report_dir *d);
/* Its reports in name order (their arguments: start=, end=, nvtx=), and
 * the file each comes from; false past the end. */
bool nst_report_dir_entry(const struct nst_report_dir *d, size_t i, struct nst_about *out,
			  const char **path);
/* The files of the directories that look like reports nstats cannot run
 * (nsys's NAME.py scripts); NULL past the end. */
const char *nst_report_dir_unsupported(const struct nst_report_dir *d, size_t i);
/* A job of one of d's reports, "NAME[:start=NS][:end=NS][:nvtx=RANGE]",
 * as nst_job_parse() makes them.  NST_OK with *out NULL when d has no
 * report of that name; NST_ERR_USAGE for a NAME.py.  The job borrows
 * from d: free it before closing d. */
enum nst_status nst_report_dir_job(const struct nst_report_dir *d, const char *spec,
				   struct nst_job **out, struct nst_error *err);

/* ---- comparing two exports -------------------------------------------------- */

/* What a verdict job ("verdict:gate=PCT[:min=NS]") decided. */
struct nst_diff_result {
	bool gate_failed;
	char worst[512]; /* the worst offender, one line; "" when none grew */
	/* since NST_API_VERSION 5: a doubt about the rows that every format must carry, one line
	 * (launch_diff: streams not proven aligned as a shortest script);
	 * "" when none.  The report's footer note says it too. */
	char caveat[512];
};

/* Runs a job of NST_DIFFS on baseline a and candidate b: rows compare the
 * two (deltas are b - a); the filter applies to each side on its own
 * clock.  run as for nst_run (format, sink...), run->names for kernels.
 * res may be NULL. */
enum nst_status nst_diff(struct nst_export *a, struct nst_export *b, const struct nst_run *run,
			 struct nst_diff_result *res, struct nst_error *err);

/* ---- many exports at once: recipes (docs/recipes.md) ------------------------ */

/* A recipe (a job of NST_RECIPES) runs over the exports of every rank of
 * a job in three steps that may run in different processes or on
 * different machines, and give the same rows however the inputs are
 * split:
 *   1. nst_part_make: what one input contributes (its groups of values
 *      and its ranks), as bytes with nst_part_save / nst_part_load;
 *   2. nst_merge_add the parts, then nst_merge_reduce: each group of
 *      values (a kernel's durations on every rank) becomes rows, exactly;
 *      nst_merge_take splits the groups among owners first, so that no
 *      one process needs every group;
 *   3. nst_merge_run: the rows of one table, numbered by rank, in order,
 *      in a format or to a sink, as nst_run gives a report's. */

/* How the ranks of a job are told apart (docs/recipes.md, Ranks). */
enum nst_ranks {
	NST_RANKS_AUTO,    /* MPI_RANKS's rank of each process, else the input */
	NST_RANKS_INPUT,   /* one rank per input */
	NST_RANKS_PROCESS, /* one rank per process of each input */
};

struct nst_part;
/* What export x, the input numbered `input` (from 0) of the job, gives
 * the recipe of job under filter (NULL: none).  An export that lacks a
 * table the recipe reads gives no rows, not an error. */
enum nst_status nst_part_make(struct nst_export *x, const struct nst_job *job, uint32_t input,
			      enum nst_ranks ranks, const struct nst_filter *filter,
			      struct nst_part **out, struct nst_error *err);
void nst_part_free(struct nst_part *p);
/* The part as bytes (*buf malloc'd), for another process of the same
 * architecture, and back: NST_ERR_DB when the bytes are no part. */
enum nst_status nst_part_save(const struct nst_part *p, void **buf, size_t *len,
			      struct nst_error *err);
enum nst_status nst_part_load(const void *buf, size_t len, struct nst_part **out,
			      struct nst_error *err);

struct nst_merge;
enum nst_status nst_merge_new(const struct nst_job *job, struct nst_merge **out,
			      struct nst_error *err);
void nst_merge_free(struct nst_merge *m);
/* Adds p's groups, rows and ranks; takes p (freed, on error too).
 * NST_ERR_USAGE when p is of another recipe or arguments. */
enum nst_status nst_merge_add(struct nst_merge *m, struct nst_part *p, struct nst_error *err);
/* Moves out of m, as a part: the groups that `owner` of `owners` owns (by
 * a hash of each group's key, the same on every machine), and for owner
 * 0 every row and rank too.  After nst_merge_reduce, (0, 1) takes every
 * row: what one owner sends to the writer. */
enum nst_status nst_merge_take(struct nst_merge *m, size_t owner, size_t owners,
			       struct nst_part **out, struct nst_error *err);
/* Turns every group into rows (nst_merge_run does it when needed). */
enum nst_status nst_merge_reduce(struct nst_merge *m, struct nst_error *err);
/* The recipe's tables: "all", "rank", ...; NULL past the end. */
const char *nst_merge_table(const struct nst_merge *m, size_t i);
/* The ranks found, and why they were numbered by input ("" when each
 * input's own rank numbers were used), once the ranks are numbered
 * (after the first nst_merge_run). */
size_t nst_merge_ranks(const struct nst_merge *m);
const char *nst_merge_note(const struct nst_merge *m);
/* Reduces what is left, numbers the ranks and gives table i's rows as
 * nst_run gives a report's (run->job: the recipe's job). */
enum nst_status nst_merge_run(struct nst_merge *m, size_t table, const struct nst_run *run,
			      struct nst_error *err);

/* ---- the audit: is the export hiding or doubling work? ---------------------- */

struct nst_audit;
/* Runs every finding.  reports[0..n): names of reports or rules whose
 * tables the schema finding looks for, and that the skipped_reports
 * finding runs (rows thrown away) to name those that would be skipped
 * (NULL: nsys's default set).  The audit borrows from the export: free it
 * before closing the export. */
enum nst_status nst_audit_run(struct nst_export *x, const char *const *reports, size_t n,
			      struct nst_audit **out, struct nst_error *err);
void nst_audit_free(struct nst_audit *a);
/* Since NST_API_VERSION 3.  Declares the columns the audit's findings
 * read, so that the next nst_export_load reads them in the one scan of each
 * table it makes for its reports, rather than nst_audit_run in a second
 * scan of its own.  The reports nst_audit_run is given (for the
 * skipped_reports finding) are read as any run reads them: pass those that
 * were loaded, or none. */
enum nst_status nst_audit_want(struct nst_export *x, struct nst_error *err);
/* Findings that are not informational and counted something. */
size_t nst_audit_found(const struct nst_audit *a);
/* One row per finding: Finding, Status (FOUND, info, ok, n/a), Count
 * (NULL when not checked), Note. */
enum nst_status nst_audit_rows(const struct nst_audit *a, const struct nst_sink *sink,
			       struct nst_error *err);
/* The audit as text (one line a finding, examples under what was found)
 * or as one JSON object. */
enum nst_status nst_audit_write(const struct nst_audit *a, bool json, FILE *out,
				struct nst_error *err);

/* ---- timelines: exports as a trace for Perfetto or chrome://tracing ---------- */

/* Since NST_API_VERSION 3.  A trace of one or more exports (docs/export.md):
 * a track per process and thread with its CUDA API calls and NVTX push/pop
 * ranges, tracks of NVTX start/end ranges, a track per GPU and stream with
 * its kernels, copies and sets, and a flow from each launch to its GPU
 * work.  Written to `out` as it is read, in Perfetto's protobuf format or
 * in the Trace Event Format (JSON, as PyTorch's profiler writes it, which
 * nstats reads back).  Write errors are NST_ERR_IO; the caller names the
 * file.
 *
 *     nst_trace_open(NST_TRACE_PERFETTO, fp, &t, &err);
 *     nst_trace_add(t, x, NULL, NULL, &err);   once per export
 *     nst_trace_close(t, &err);                ends the document
 *     nst_trace_free(t);                       always */
enum nst_trace_type { NST_TRACE_PERFETTO, NST_TRACE_CHROME_JSON };
struct nst_trace;
enum nst_status nst_trace_open(enum nst_trace_type type, FILE *out, struct nst_trace **t,
			       struct nst_error *err);
/* Adds x's events under filter (NULL: none, as nst_run's), its processes
 * and GPUs named with "[label] " in front when label is not NULL; each
 * export added gets ids of its own, so that several never mix (127 at
 * most).  x may be closed after. */
enum nst_status nst_trace_add(struct nst_trace *t, struct nst_export *x, const char *label,
			      const struct nst_filter *filter, struct nst_error *err);
/* Ends the document and flushes out (which stays the caller's to close). */
enum nst_status nst_trace_close(struct nst_trace *t, struct nst_error *err);
void nst_trace_free(struct nst_trace *t);
/* ---- a page for a person: one HTML file (docs/report.md) ------------------- */

/* since NST_API_VERSION 3 */
struct nst_page_options {
	int version;                     /* NST_API_VERSION */
	size_t top;                      /* kernels, API calls, NVTX ranges, gaps: 0 for 10 */
	const struct nst_filter *filter; /* NULL: none */
	const char *title;               /* NULL: "nstats report" */
	const char *const *names;        /* how the page names each input; NULL:
					    nst_export_path() */
};

/* Writes one self-contained HTML page about xs[0..n) to out: one export
 * (overview and check's findings, GPU time, kernels, memory transfers,
 * CUDA API, NVTX ranges, idle gaps), two compared (nst_diff's reports,
 * A = xs[0]), or the ranks of a job, one an export (the gpu_time_util,
 * stragglers and nccl_overlap recipes).  Its numbers are the reports'
 * rows (each number cell carries its exact value in data-v); its charts
 * are inline SVG; it fetches nothing (a Content-Security-Policy forbids
 * it).  Bounded whatever the exports' size: top N rows, 800 time buckets
 * a GPU (100 a GPU of each rank).  Sections are computed on as many
 * threads as nst_export_threads() of xs[0] says, the page the same.
 * NST_ERR_IO when out reports an error; the caller closes out. */
enum nst_status nst_page_write(struct nst_export *const *xs, size_t n,
			       const struct nst_page_options *o, FILE *out, struct nst_error *err);

#ifdef __cplusplus
}
#endif

#endif
