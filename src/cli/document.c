/* json:typed's document around the library's report objects (document.h,
 * docs/json.md).  A line per export entry and per report keeps the
 * document readable and greppable without a JSON tool. */
#include "cli/document.h"

#include <stdlib.h>
#include <string.h>

static void put_string(FILE *fp, const char *s)
{
	if (s)
		nst_put_json_string(fp, s, strlen(s));
	else
		fputs("null", fp);
}

void doc_head(FILE *fp)
{
	fputs("{\"nstats\": ", fp);
	put_string(fp, NSTATS_VERSION);
	fputs(", \"exports\": [", fp);
}

static void close_entry(FILE *fp, struct doc_pos *p)
{
	if (p->export_no)
		fputs(p->keys ? "\n}}" : "}}", fp);
	p->export_no = 0;
}

static void begin_entry(FILE *fp, struct doc_pos *p, const struct doc_export *e)
{
	close_entry(fp, p);
	fputs(p->entries++ ? ",\n{\"path\": " : "\n{\"path\": ", fp);
	put_string(fp, e->path);
	if (e->candidate) {
		fputs(", \"candidate\": ", fp);
		put_string(fp, e->candidate);
	}
}

void doc_key(FILE *fp, struct doc_pos *p, const struct doc_export *e, const char *key)
{
	if (p->export_no != e->no) {
		begin_entry(fp, p, e);
		fputs(", \"reports\": {", fp);
		p->export_no = e->no;
		p->keys = 0;
	}
	fputs(p->keys++ ? ",\n" : "\n", fp);
	put_string(fp, key);
	fputs(": ", fp);
}

void doc_export_error(FILE *fp, struct doc_pos *p, const struct doc_export *e, const char *msg)
{
	begin_entry(fp, p, e);
	fputs(", \"error\": ", fp);
	put_string(fp, msg);
	putc('}', fp);
}

void doc_no_rows(FILE *fp, bool skipped, const char *why)
{
	fputs(skipped ? "{\"skipped\": " : "{\"error\": ", fp);
	put_string(fp, why);
	putc('}', fp);
}

void doc_tail(FILE *fp, struct doc_pos *p)
{
	close_entry(fp, p);
	fputs(p->entries ? "\n]}\n" : "]}\n", fp);
}

/* ---- streams shared by the run ------------------------------------------------ */

struct doc *docs_find(const struct docs *d, const char *output)
{
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->doc[i].output, output) == 0)
			return &d->doc[i];
	return NULL;
}

int docs_add(struct docs *d, const char *output)
{
	if (docs_find(d, output))
		return 0;
	struct doc *p = realloc(d->doc, (d->n + 1) * sizeof *p);
	if (!p)
		return -1;
	d->doc = p;
	p = &d->doc[d->n];
	*p = (struct doc){ .output = strdup(output) };
	if (!p->output)
		return -1;
	d->n++;
	return 0;
}

enum nst_status doc_open(struct doc *d, struct nst_error *err)
{
	if (d->open)
		return NST_OK;
	enum nst_status s = target_resolve(&d->tg, d->output, "", "", "json", err);
	if (s == NST_OK)
		s = target_open(&d->tg, false, err);
	if (s != NST_OK)
		return s;
	d->open = true;
	doc_head(d->tg.fp);
	return NST_OK;
}

enum nst_status docs_close(struct docs *d, struct nst_error *err)
{
	enum nst_status worst = NST_OK;
	for (size_t i = 0; i < d->n; i++) {
		struct nst_error e = { 0 };
		enum nst_status s = doc_open(&d->doc[i], &e);
		if (s == NST_OK) {
			doc_tail(d->doc[i].tg.fp, &d->doc[i].pos);
			s = target_close(&d->doc[i].tg, &e);
		}
		if (s != NST_OK && worst == NST_OK) {
			worst = s;
			*err = e;
		}
		target_release(&d->doc[i].tg);
		d->doc[i].open = false;
	}
	return worst;
}

void docs_release(struct docs *d)
{
	for (size_t i = 0; i < d->n; i++) {
		target_release(&d->doc[i].tg);
		free(d->doc[i].output);
	}
	free(d->doc);
	*d = (struct docs){ 0 };
}
