/* The two renderings of a check: text for people, JSON for tools.  Neither
 * queries anything; both read only the chk_report. */
#include <string.h>

#include "check/check.h"
#include "format/format.h"

enum status { ST_FOUND, ST_INFO, ST_OK, ST_NOT_CHECKED };

static enum status status_of(const struct chk_finding *f, const struct chk_result *r)
{
	if (r->count == CHK_NOT_CHECKED)
		return ST_NOT_CHECKED;
	if (r->count == 0)
		return ST_OK;
	return f->informational ? ST_INFO : ST_FOUND;
}

static const char *const status_word[] = { "FOUND", "info", "ok", "n/a" };
static const char *const status_key[] = { "found", "info", "ok", "not_checked" };

const char *chk_status_word(const struct chk_finding *f, const struct chk_result *r)
{
	return status_word[status_of(f, r)];
}

/* ---- text ----------------------------------------------------------------- */

/* Text as it is, but with quotes, backslashes and control characters
 * escaped so that one value stays on one line. */
static void text_quoted(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\x%02x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

static void text_example(FILE *out, const struct chk_example *e)
{
	fprintf(out, "        e.g. %s", e->table);
	if (e->rowid != CHK_NOT_CHECKED)
		fprintf(out, " rowid %lld", (long long)e->rowid);
	fputc(':', out);
	for (size_t i = 0; i < e->nf; i++) {
		fprintf(out, " %s=", e->f[i].name);
		if (e->f[i].text)
			text_quoted(out, e->f[i].text);
		else if (e->f[i].num == NST_NULL_I64)
			fputs("NULL", out);
		else
			fprintf(out, "%lld", (long long)e->f[i].num);
	}
	fputc('\n', out);
}

static void text_affects(FILE *out, const char *affects)
{
	fputs("        affects: ", out);
	for (const char *p = affects; *p; p++) {
		if (*p == ',')
			fputs(", ", out);
		else
			fputc(*p, out);
	}
	fputc('\n', out);
}

/* "name: count", or "name: SKIPPED: reason" for a part with a reason */
static void text_part(FILE *out, const struct chk_part *p)
{
	if (p->reason)
		fprintf(out, "        %s: SKIPPED: %s\n", p->name, p->reason);
	else
		fprintf(out, "        %s: %lld\n", p->name, (long long)p->count);
}

static void text_finding(FILE *out, const struct chk_finding *f, const struct chk_result *r)
{
	enum status st = status_of(f, r);
	fprintf(out, "%-6s  %s: ", status_word[st], f->name);
	if (st == ST_NOT_CHECKED)
		fprintf(out, "not checked: %s\n", r->note ? r->note : "");
	else
		fprintf(out, "%lld %s\n", (long long)r->count, f->title);
	if (st == ST_NOT_CHECKED || st == ST_OK)
		return;
	for (size_t i = 0; i < r->nparts; i++)
		text_part(out, &r->parts[i]);
	if (r->note)
		fprintf(out, "        %s\n", r->note);
	for (size_t i = 0; i < r->nex; i++)
		text_example(out, &r->ex[i]);
	if (f->affects[0] && st == ST_FOUND)
		text_affects(out, f->affects);
	if (r->explained_by)
		fprintf(out, "        explained by the capture option %s\n", r->explained_by);
}

void chk_print_text(FILE *out, const struct chk_report *rep)
{
	fprintf(out, "Export: %s\n", rep->path);
	if (rep->schema_version)
		fprintf(out, "Schema: %s (nsys %s)\n\n", rep->schema_version,
			rep->product_version ? rep->product_version : "unknown");
	else
		fputs("Schema: unknown (no export metadata table)\n\n", out);
	for (size_t i = 0; i < rep->n; i++)
		text_finding(out, rep->findings[i], &rep->results[i]);
	size_t found = chk_found(rep);
	fprintf(out, "\n%s", found ? "Found:" : "Clean: nothing found");
	for (size_t i = 0; found && i < rep->n; i++)
		if (status_of(rep->findings[i], &rep->results[i]) == ST_FOUND)
			fprintf(out, " %s", rep->findings[i]->name);
	fputs("\n\n", out);
}

/* ---- JSON ------------------------------------------------------------------- */

static void json_string(FILE *out, const char *s)
{
	if (s)
		nst_put_json_string(out, s, strlen(s));
	else
		fputs("null", out);
}

static void json_int(FILE *out, int64_t v)
{
	if (v == NST_NULL_I64 || v == CHK_NOT_CHECKED)
		fputs("null", out);
	else
		fprintf(out, "%lld", (long long)v);
}

static void json_affects(FILE *out, const char *affects)
{
	fputc('[', out);
	for (const char *p = affects; *p;) {
		size_t len = strcspn(p, ",");
		char item[128];
		snprintf(item, sizeof item, "%.*s", (int)len, p);
		json_string(out, item);
		p += len;
		if (*p == ',' && *++p)
			fputc(',', out);
	}
	fputc(']', out);
}

static void json_example(FILE *out, const struct chk_example *e)
{
	fputs("{\"table\":", out);
	json_string(out, e->table);
	fputs(",\"rowid\":", out);
	json_int(out, e->rowid);
	fputs(",\"fields\":{", out);
	for (size_t i = 0; i < e->nf; i++) {
		if (i)
			fputc(',', out);
		json_string(out, e->f[i].name);
		fputc(':', out);
		if (e->f[i].text)
			json_string(out, e->f[i].text);
		else
			json_int(out, e->f[i].num);
	}
	fputs("}}", out);
}

static void json_finding(FILE *out, const struct chk_finding *f, const struct chk_result *r)
{
	fputs("{\"name\":", out);
	json_string(out, f->name);
	fputs(",\"title\":", out);
	json_string(out, f->title);
	fprintf(out, ",\"status\":\"%s\",\"informational\":%s,\"checked\":%s,\"count\":",
		status_key[status_of(f, r)], f->informational ? "true" : "false",
		r->count == CHK_NOT_CHECKED ? "false" : "true");
	json_int(out, r->count);
	fputs(",\"note\":", out);
	json_string(out, r->note);
	fputs(",\"explained_by\":", out);
	json_string(out, r->explained_by);
	fputs(",\"affects\":", out);
	json_affects(out, f->affects);
	fputs(",\"parts\":[", out);
	for (size_t i = 0; i < r->nparts; i++) {
		fputs(i ? ",{\"name\":" : "{\"name\":", out);
		json_string(out, r->parts[i].name);
		fprintf(out, ",\"count\":%lld", (long long)r->parts[i].count);
		if (r->parts[i].reason) {
			fputs(",\"reason\":", out);
			json_string(out, r->parts[i].reason);
		}
		fputc('}', out);
	}
	fputs("],\"examples\":[", out);
	for (size_t i = 0; i < r->nex; i++) {
		if (i)
			fputc(',', out);
		json_example(out, &r->ex[i]);
	}
	fputs("]}", out);
}

void chk_print_json(FILE *out, const struct chk_report *rep)
{
	fputs("{\"export\":", out);
	json_string(out, rep->path);
	fputs(",\"schema_version\":", out);
	json_string(out, rep->schema_version);
	fputs(",\"product_version\":", out);
	json_string(out, rep->product_version);
	fprintf(out, ",\"found\":%zu,\"findings\":[", chk_found(rep));
	for (size_t i = 0; i < rep->n; i++) {
		fputs(i ? ",\n  " : "\n  ", out);
		json_finding(out, rep->findings[i], &rep->results[i]);
	}
	fputs("\n]}", out);
}
