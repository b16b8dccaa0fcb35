/* The commands of nstats: one row each.  Adding one: write src/cli/NAME.c
 * with cmd_NAME() and doc_NAME() (its options in a table, see cli.h),
 * declare both in cli.h and add the row here; --help and the manual page
 * list it from this table. */
#include "cli/cli.h"

const struct command cli_commands[] = {
	{ "stats", "statistics and trace reports, as `nsys stats` prints them",
	  cmd_stats, doc_stats },
	{ "analyze", "expert-system rules, as `nsys analyze` prints them",
	  cmd_analyze, doc_analyze },
	{ "check", "an audit of the export itself: rows that hide or double work (nstats addition)",
	  cmd_check, doc_check },
	{ "diff", "two captures compared, kernel by kernel and launch by launch, with a CI gate"
	  " (nstats addition)", cmd_diff, doc_diff },
	{ "recipe", "one recipe over the exports of every rank of a job: per-rank and all-rank"
	  " tables, exact, in parallel or under MPI (nstats addition)", cmd_recipe, doc_recipe },
	{ "summary", "one screen for a person: capture, GPUs, top kernels, transfers, API, NVTX,"
	  " findings (nstats addition)", cmd_summary, doc_summary },
	{ "export", "a timeline for Perfetto or chrome://tracing: API calls, NVTX, GPU work"
	  " and launch arrows (nstats addition)", cmd_export, doc_export },
	{ "report", "one self-contained HTML page with charts: one capture, two compared, or the"
	  " ranks of a job (nstats addition)", cmd_report, doc_report },
};
const size_t cli_ncommands = sizeof cli_commands / sizeof *cli_commands;

const struct command cli_setup_commands[] = {
	{ "completion", "prints a bash completion script: nstats completion bash", cmd_completion,
	  doc_completion },
};
const size_t cli_nsetup_commands = sizeof cli_setup_commands / sizeof *cli_setup_commands;
