/* Rules: the expert-system analyses of `nsys analyze`, one file per rule,
 * one row in src/rules/rule_registry.c.
 *
 * A rule is a struct nst_report (report.h) run by `nstats analyze`: it
 * starts its result with nst_rule_begin(), which sends its notes (the
 * advice and no-result text that the column and table formats print
 * around its rows) and its columns, then emits its rows, at most rows= of
 * them (default 50, -1 for all), ordered as nsys orders them.
 *
 * To add a rule: write src/rules/<name>.c defining `const struct
 * nst_report nst_rule_<name>`, add it to the table in rule_registry.c, add it
 * to tests/corpus/reports as `rule:<name>` and give it a golden fixture. */
#ifndef NSTATS_RULES_RULE_H
#define NSTATS_RULES_RULE_H

#include "reports/common.h"

/* The rules, by name, and nsys's default rule set. */
const struct nst_report *nst_rule_find(const char *name);
const struct nst_report *const *nst_rule_all(size_t *n);
const char *const *nst_rule_default_set(size_t *n);

/* rows= as a row limit; SIZE_MAX for no limit (rows=-1, any negative). */
size_t nst_rule_limit(const struct nst_ctx *ctx);

/* An integer argument's value, or dflt when not given (check() has
 * already made sure it parses). */
int64_t nst_rule_int(const struct nst_ctx *ctx, const char *key, int64_t dflt);

/* The check() every rule uses: each key=value argument must be an integer
 * (rows, gap, ...); chunks= must lie in 1..1000. */
enum nst_status nst_rule_check(const struct nst_arg *args, size_t nargs,
			       struct nst_error *err);

/* The text a rule prints around its rows (enum nst_note in nstats.h);
 * NULL where it has none.  Strings live in ctx->arena or are static. */
struct nst_rule_notes {
	const char *advice, *noresult, *footer;
};

/* What cuda_api_sync says, and cuda_memset_sync says too (as nsys does). */
#define NST_RULE_SYNC_ADVICE                                                               \
	"The following are synchronization APIs that block the host until all issued\n"     \
	"CUDA calls are complete.\n\n"                                                      \
	"Suggestions:\n"                                                                    \
	"   1. Avoid excessive use of synchronization.\n"                                   \
	"   2. Use asynchronous CUDA event calls, such as cudaStreamWaitEvent() and\n"      \
	"cudaEventSynchronize(), to prevent host synchronization.\n"
#define NST_RULE_SYNC_NORESULT "There were no problems detected related to synchronization APIs.\n"

/* The start of every rule's result: its notes, then its columns. */
enum nst_status nst_rule_begin(const struct nst_sink *out, const struct nst_rule_notes *notes,
			       const char *const *cols, size_t ncols, struct nst_error *err);

/* idx[0..n) ordered by dur[idx[i]] descending, equal durations in the
 * order given, then cut to rows= (nst_rule_cut); returns the count kept.
 * What idx holds past that count is in no particular order. */
size_t nst_rule_top(struct nst_ctx *ctx, uint32_t *idx, size_t n, const int64_t *dur,
		    struct nst_rule_notes *notes);

/* n rows of at most rows=: when the limit is reached, nsys says so after
 * the table ("Only the top N results are displayed..."), which this sets
 * as notes->footer.  Returns the rows to show. */
size_t nst_rule_cut(struct nst_ctx *ctx, size_t n, struct nst_rule_notes *notes);

/* `text` with its words re-flowed into lines of at most 79 characters, as
 * nsys wraps a paragraph that holds an argument's value.  In the arena. */
const char *nst_rule_wrap(struct nst_ctx *ctx, const char *text);

/* "<file> could not be analyzed because it does not contain the required
 * CUDA data. Does the application use CUDA <what> APIs?" */
enum nst_status nst_rule_no_cuda(struct nst_ctx *ctx, struct nst_error *err,
				 const char *what);

/* Whether s starts with prefix, ignoring ASCII case (SQL LIKE 'p%'). */
bool nst_rule_like_prefix(const char *s, const char *prefix);
/* Whether s contains part, ignoring ASCII case (SQL LIKE '%p%'). */
bool nst_rule_like_infix(const char *s, const char *part);

#endif
