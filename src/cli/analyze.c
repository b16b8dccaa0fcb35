/* `nstats analyze`: the command line of `nsys analyze`.  The same driver
 * as `nstats stats` (stats.c), over the rules instead of the reports. */
#include "cli/cli.h"

static const struct catalog analyze_catalog = {
	.cmd = "analyze",
	.noun = "rule",
	.opt = "rule",
	.opt_help = "Rule to run, with its arguments (e.g. gpu_gaps:gap=100).\n"
		    "Repeatable. Without it, the default rule set runs.\n"
		    CLI_ARG_QUOTING,
	.list_opt = "help-rules",
	.list_help = "List the rules, or describe one or all of them.",
	.pairing = "Rules, formats and outputs pair up in order; when one list is\n"
		   "shorter, its last element repeats.\n",
	.intro = "Runs nsys analyze's expert-system rules on Nsight Systems SQLite exports\n"
		 "(or on the .sqlite export beside a .nsys-rep) and on PyTorch profiler\n"
		 "traces (.json, .json.gz).",
	.exit_status = cli_report_exit_status,
	.own = cli_stats_opts,
	.nown = CLI_NEXPORT_OPTS,
	.catalog = NST_RULES,
};

int cmd_analyze(int argc, char **argv)
{
	return cli_run_catalog(&analyze_catalog, argc, argv);
}

void doc_analyze(struct command_doc *d)
{
	cli_catalog_doc(&analyze_catalog, d);
}
