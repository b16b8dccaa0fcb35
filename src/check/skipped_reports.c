/* The requested reports and rules that will print SKIPPED on this export,
 * each with nsys's reason.  The schema finding sees missing tables; only
 * running a report tells whether it skips (a missing table that only
 * names things does not make it skip, a missing column or an empty table
 * may), so each one runs, its rows thrown away, through the probe the
 * caller gives.  Informational: a skip is no fault of the capture. */
#include <string.h>

#include "check/check.h"

/* The name of a -r entry, without its arguments. */
static const char *report_name(struct chk_ctx *ctx, const char *spec)
{
	return nst_arena_strndup(ctx->arena, spec, strcspn(spec, ":"));
}

static enum nst_status run(struct chk_ctx *ctx, struct chk_result *r, struct nst_error *err)
{
	if (!ctx->probe) {
		r->count = CHK_NOT_CHECKED;
		r->note = "the reports cannot be run here";
		return NST_OK;
	}
	for (size_t i = 0; i < ctx->nreports; i++) {
		struct nst_error why = { 0 };
		enum nst_status s = ctx->probe->run(ctx->probe->arg, i, &why);
		if (s == NST_ERR_NOMEM) {
			*err = why;
			return s;
		}
		/* A report that fails on the export (a sum beyond 64 bits, a
		 * table without its times) is not skipped: stats says why with
		 * its own error, and the audit of the rest stays useful. */
		if (s != NST_ERR_NODATA)
			continue;
		const char *name = report_name(ctx, ctx->reports[i]);
		const char *reason = nst_arena_strndup(ctx->arena, why.msg, strlen(why.msg));
		if (!name || !reason)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		chk_part_reason(r, name, reason);
		r->count++;
	}
	r->note = nst_arena_printf(ctx->arena, "%lld of %zu requested reports print SKIPPED on "
				   "this export, each named with its reason", (long long)r->count,
				   ctx->nreports);
	return NST_OK;
}

const struct chk_finding chk_skipped_reports = {
	.name = "skipped_reports",
	.title = "requested reports that print SKIPPED on this export",
	.help = "Each report or rule of -r (default: nsys's default report set) that\n"
		"stats or analyze would skip on this export, with the reason its SKIPPED\n"
		"line gives (each is run, its rows thrown away).  Informational.",
	.affects = "the reports named",
	.informational = true,
	.run = run,
};
