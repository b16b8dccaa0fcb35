/* openacc_sum: time spent in OpenACC events, by event name over every
 * CUPTI_ACTIVITY_KIND_OPENACC_* table together. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "reports/family.h"

#define OPENACC_PREFIX "CUPTI_ACTIVITY_KIND_OPENACC_"

/* Every table's events, one after the other. */
struct events {
	size_t n, cap;
	int64_t *dur;
	const char **name;
};

static const char *string_of(struct nst_ctx *ctx, int64_t id)
{
	return id == NST_NULL_I64 ? NULL : nst_db_string(ctx->db, id);
}

/* "name@file:line" for an event with a source file, else the name; NULL
 * when a part is unknown (nsys concatenates in SQL, where NULL wins). */
static const char *event_name(struct nst_ctx *ctx, int64_t name_id, int64_t file_id,
			      int64_t line)
{
	const char *name = string_of(ctx, name_id);
	if (file_id == NST_NULL_I64)
		return name;
	const char *file = string_of(ctx, file_id);
	if (!name || !file || line == NST_NULL_I64)
		return NULL;
	return nst_arena_printf(ctx->arena, "%s@%s:%" PRId64, name, file, line);
}

static enum nst_status add_table(struct nst_ctx *ctx, const char *table,
				 struct events *ev, struct nst_error *err)
{
	struct nst_timed t;
	enum nst_status s = nst_timed_load(ctx, table, &t, err);
	if (s != NST_OK || t.n == 0)
		return s;
	if (ev->n + t.n > ev->cap) {
		size_t cap = (ev->n + t.n) * 2;
		int64_t *dur = realloc(ev->dur, cap * sizeof *dur);
		if (dur)
			ev->dur = dur;
		const char **name = dur ? realloc(ev->name, cap * sizeof *name) : NULL;
		if (!name)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		ev->name = name;
		ev->cap = cap;
	}
	const int64_t *file, *line;
	enum nst_status s2 = nst_ev_i64(ctx->ev, table, "srcFile", &file, err);
	if (!s2) s2 = nst_ev_i64(ctx->ev, table, "lineNo", &line, err);
	if (s2 != NST_OK)
		return s2;
	for (size_t i = 0; i < t.n; i++, ev->n++) {
		ev->dur[ev->n] = t.end[i] - t.start[i];
		ev->name[ev->n] = event_name(ctx, t.name_id[i], file ? file[i] : NST_NULL_I64,
					     line ? line[i] : NST_NULL_I64);
	}
	return NST_OK;
}

static int cmp_event_name(uint32_t a, uint32_t b, void *arg)
{
	const struct events *ev = arg;
	return nst_cmp_sql_text(ev->name[a], ev->name[b]);
}

/* nsys groups by the name itself: names sort as SQL sorts text, and the
 * events of one name keep their order. */
static enum nst_status group_by_name(const struct events *ev, struct nst_named_dists *nd,
				     struct nst_error *err)
{
	size_t n = ev->n ? ev->n : 1;
	uint32_t *idx = malloc(n * sizeof *idx);
	int64_t *vals = malloc(n * sizeof *vals);
	enum nst_status s = NST_OK;
	if (!idx || !vals)
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; s == NST_OK && i < ev->n; i++)
		idx[i] = (uint32_t)i;
	if (s == NST_OK)
		nst_stable_sort(idx, ev->n, cmp_event_name, (void *)ev);
	for (size_t i = 0, j; s == NST_OK && i < ev->n; i = j) {
		const char *name = ev->name[idx[i]];
		for (j = i; j < ev->n && nst_cmp_sql_text(ev->name[idx[j]], name) == 0; j++)
			vals[j - i] = ev->dur[idx[j]];
		s = nst_named_dists_add(nd, vals, j - i, name, err);
	}
	free(idx);
	free(vals);
	return s;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	enum nst_status s = nst_require_strings(ctx, err);
	if (s != NST_OK)
		return s;
	struct nst_family f;
	if ((s = nst_family_find(ctx, OPENACC_PREFIX, &f, err)) != NST_OK)
		return s;
	if (f.n == 0)
		return nst_nodata(ctx, err, "OpenACC event data.");
	struct events ev = { 0 };
	struct nst_named_dists nd = { 0 };
	for (size_t i = 0; s == NST_OK && i < f.n; i++)
		s = add_table(ctx, f.names[i], &ev, err);
	if (s == NST_OK)
		s = group_by_name(&ev, &nd, err);
	if (s == NST_OK)
		s = nst_named_dists_emit(&nd, out, "Num Calls", err);
	free(ev.dur);
	free(ev.name);
	nst_named_dists_release(&nd);
	nst_family_release(&f);
	return s;
}

const struct nst_report nst_report_openacc_sum = {
	.name = "openacc_sum",
	.title = "OpenACC Summary",
	.help = "Time spent in OpenACC events, by event name over every\n"
		"CUPTI_ACTIVITY_KIND_OPENACC_* table: the number of events, their\n"
		"total time and its share, and the average, median, minimum,\n"
		"maximum and standard deviation of one event.\n"
		NST_TOP_ROWS_HELP,
	.args = (const char *const[]){ "rows", NULL },
	.needs = (const struct nst_need[]){ { NULL, NULL, false } },
	.run = run,
	.flags = NST_REPORT_CHECKS_AFTER_FILTER | NST_REPORT_TOP_ROWS,
};
