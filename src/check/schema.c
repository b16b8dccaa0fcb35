/* The export's schema against what the requested reports read: a report
 * whose table is missing prints SKIPPED, which is no fault of the capture,
 * so this finding informs and never counts for --strict. */
#include <string.h>

#include "check/check.h"
#include "reports/report.h"
#include "rules/rule.h"

static const struct nst_report *find(const char *spec, char *name, size_t cap)
{
	size_t len = strcspn(spec, ":");
	if (len >= cap)
		len = cap - 1;
	memcpy(name, spec, len);
	name[len] = '\0';
	const struct nst_report *r = nst_report_find(name);
	return r ? r : nst_rule_find(name);
}

static bool seen_before(const struct nst_need *all, const struct nst_need *need)
{
	for (const struct nst_need *n = all; n != need; n++)
		if (strcmp(n->table, need->table) == 0)
			return true;
	return false;
}

/* A report's missing tables, each once, as examples and parts. */
static int64_t missing_tables(struct chk_ctx *ctx, struct chk_result *r, const char *name,
			      const struct nst_need *needs)
{
	int64_t missing = 0;
	for (const struct nst_need *n = needs; n && n->table; n++) {
		if (nst_db_has_table(ctx->db, n->table) || seen_before(needs, n))
			continue;
		missing++;
		chk_part_add(r, n->table, 1);
		struct chk_example *e = chk_example(r, n->table, CHK_NOT_CHECKED);
		chk_text(e, "needed by", name);
	}
	return missing;
}

static enum nst_status run(struct chk_ctx *ctx, struct chk_result *r,
			   struct nst_error *err)
{
	(void)err;
	for (size_t i = 0; i < ctx->nreports; i++) {
		char name[128];
		const struct nst_report *rep = find(ctx->reports[i], name, sizeof name);
		if (!rep)
			continue;
		const char *label = nst_arena_strndup(ctx->arena, name, strlen(name));
		int64_t m = missing_tables(ctx, r, label, rep->needs) +
			    missing_tables(ctx, r, label, rep->needs_unfiltered);
		r->count += m > 0;
	}
	r->note = nst_arena_printf(ctx->arena,
		"%lld of %zu requested reports read a table the export lacks (they print SKIPPED "
		"or leave columns empty); parts count the reports that need each table",
		(long long)r->count, ctx->nreports);
	return NST_OK;
}

const struct chk_finding chk_schema = {
	.name = "schema",
	.title = "requested reports that read a table the export lacks",
	.help = "The export schema version (META_DATA_EXPORT or EXPORT_META_DATA) and,\n"
		"for each report or rule of -r (default: nsys's default report set), the\n"
		"tables it reads that the export does not have.  Informational.",
	.affects = "the reports named",
	.informational = true,
	.run = run,
};
