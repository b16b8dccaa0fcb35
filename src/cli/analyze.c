/* `nstats analyze`: the command line of `nsys analyze`.  The same driver
 * as `nstats stats` (stats.c), over the rules instead of the reports. */
#include "cli/cli.h"
#include "rules/rule.h"

static const struct catalog analyze_catalog = {
	.cmd = "analyze",
	.noun = "rule",
	.opt = "rule",
	.opt_help = "Rule to run, with its arguments (e.g. gpu_gaps:gap=100).\n"
		    "Repeatable. Without it, the default rule set runs.",
	.list_opt = "help-rules",
	.list_help = "List the rules, or describe one or all of them.",
	.intro = "Runs nsys analyze's expert-system rules on Nsight Systems SQLite exports\n"
		 "(or on the .sqlite export beside a .nsys-rep).",
	.find = nst_rule_find,
	.all = nst_rule_all,
	.default_set = nst_rule_default_set,
};

int cmd_analyze(int argc, char **argv)
{
	return cli_run_catalog(&analyze_catalog, argc, argv);
}
