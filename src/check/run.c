/* Running every finding on one export. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/launches.h"
#include "core/clock.h"

enum nst_status chk_declare(struct nst_events *ev)
{
	size_t n;
	const struct chk_finding *const *f = chk_findings(&n);
	enum nst_status s = NST_OK;
	for (size_t i = 0; s == NST_OK && i < n; i++)
		if (f[i]->want)
			s = f[i]->want(ev);
	return s;
}


/* How long each finding took goes to the timing hook, as the events
 * layer says it for each table it reads. */
static enum nst_status run_all(struct chk_ctx *ctx, const struct nst_options *o,
			       struct nst_error *err)
{
	enum nst_status s = NST_OK;
	for (size_t i = 0; s == NST_OK && i < ctx->nfindings; i++) {
		double t0 = nst_seconds();
		ctx->results[i].count = 0;
		s = ctx->findings[i]->run(ctx, &ctx->results[i], err);
		if (o && o->timing) {
			char line[128];
			snprintf(line, sizeof line, "check %s in %.6f s", ctx->findings[i]->name,
				 nst_seconds() - t0);
			nst_ev_timing(ctx->ev, line);
		}
	}
	return s;
}

enum nst_status chk_run(struct nst_db *db, struct nst_events *ev, const struct nst_options *o,
			const char *const *reports, size_t nreports, const struct chk_probe *probe,
			struct chk_report *out, struct nst_error *err)
{
	memset(out, 0, sizeof *out);
	out->path = nst_db_path(db);
	out->findings = chk_findings(&out->n);
	out->results = calloc(out->n, sizeof *out->results);
	if (!out->results)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	out->schema_version = nst_db_meta(db, "EXPORT_SCHEMA_VERSION");
	out->product_version = nst_db_meta(db, "EXPORT_PRODUCT_VERSION");
	struct chk_ctx ctx = {
		.db = db, .ev = ev, .arena = &out->arena,
		.reports = reports, .nreports = nreports, .probe = probe,
		.results = out->results, .findings = out->findings,
		.nfindings = out->n,
	};
	enum nst_status s = chk_declare(ev);
	if (s == NST_OK)
		s = nst_ev_preload(ev, err);
	else
		nst_fail(err, s, "out of memory");
	if (s == NST_OK)
		s = nst_db_load_strings(db, err);
	if (s == NST_OK)
		s = run_all(&ctx, o, err);
	chk_launches_release(&ctx);
	return s;
}

void chk_report_release(struct chk_report *rep)
{
	free(rep->results);
	nst_arena_release(&rep->arena);
	rep->results = NULL;
}

size_t chk_found(const struct chk_report *rep)
{
	size_t n = 0;
	for (size_t i = 0; i < rep->n; i++)
		if (!rep->findings[i]->informational && rep->results[i].count > 0)
			n++;
	return n;
}
