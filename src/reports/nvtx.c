#include "reports/nvtx.h"

#include <stdlib.h>
#include <string.h>

#include "core/big.h"
#include "core/strtab.h"

#define DOMAIN_CREATE 75
/* The process part of globalTid that nsys compares domains on: the PID
 * bits without hardware and VM ids. */
#define PID_BITS 0x0000FFFFFF000000ll

const struct nst_need nst_nvtx_needs[] = {
	{ NVTX, "start", false }, { NVTX, "end", false },
	{ NVTX, "eventType", false }, { NVTX, "globalTid", false },
	{ NVTX, "textId", false }, { NVTX, "domainId", false },
	{ NVTX, "text", true },
	{ NULL, NULL, false },
};

bool nst_nvtx_range_style(int64_t event_type, enum nst_nvtx_style *style)
{
	switch (event_type) {
	case 59: /* NvtxPushPopRange */
	case 70: /* NvtxtPushPopRange */
		*style = NST_NVTX_PUSHPOP;
		return true;
	case 60: /* NvtxStartEndRange */
	case 71: /* NvtxtStartEndRange */
		*style = NST_NVTX_STARTEND;
		return true;
	default:
		return false;
	}
}

const char *nst_nvtx_style_name(enum nst_nvtx_style style)
{
	return style == NST_NVTX_PUSHPOP ? "PushPop" : "StartEnd";
}

enum nst_status nst_nvtx_check(struct nst_ctx *ctx, struct nst_error *err)
{
	enum nst_status strings = nst_require_strings(ctx, err);
	if (strings != NST_OK)
		return strings;
	if (!nst_db_has_table(ctx->db, NVTX))
		return nst_nodata(ctx, err, "NV Tools Extension (NVTX) data.");
	return NST_OK;
}

/* max(max(start), max(end)) over every NVTX row, marks included. */
static int64_t last_timestamp(const struct nst_nvtx *nv)
{
	int64_t last = NST_NULL_I64;
	for (size_t i = 0; i < nv->n; i++) {
		if (nv->start[i] > last)
			last = nv->start[i];
		if (nv->end && nv->end[i] > last)
			last = nv->end[i];
	}
	return last;
}

enum nst_status nst_nvtx_load(struct nst_ctx *ctx, struct nst_nvtx *nv,
			      struct nst_error *err)
{
	memset(nv, 0, sizeof *nv);
	enum nst_status s = nst_ev_rows(ctx->ev, NVTX, &nv->n, err);
	if (!s) s = nst_ev_i64(ctx->ev, NVTX, "start", &nv->start, err);
	if (!s) s = nst_ev_i64(ctx->ev, NVTX, "end", &nv->end, err);
	if (!s) s = nst_ev_col(ctx->ev, NVTX, "eventType", &nv->type, err);
	if (!s) s = nst_ev_col(ctx->ev, NVTX, "globalTid", &nv->gtid, err);
	if (!s) s = nst_ev_col(ctx->ev, NVTX, "textId", &nv->text_id, err);
	if (!s) s = nst_ev_col(ctx->ev, NVTX, "domainId", &nv->domain, err);
	if (!s) s = nst_ev_text(ctx->ev, NVTX, "text", &nv->text, err);
	if (s != NST_OK)
		return s;
	if (!nv->start || !nv->type)
		return nst_fail(err, NST_ERR_DB, "%s: %s lacks start or eventType",
				nst_db_path(ctx->db), NVTX);
	nv->last_ts = last_timestamp(nv);
	return NST_OK;
}

int64_t nst_nvtx_end(const struct nst_nvtx *nv, size_t row)
{
	return nv->end && nv->end[row] != NST_NULL_I64 ? nv->end[row] : nv->last_ts;
}

static int64_t col_at(const struct nst_col *col, size_t row)
{
	return nst_col_or_null(col, row);
}

const char *nst_nvtx_base_name(struct nst_ctx *ctx, const struct nst_nvtx *nv,
			       size_t row)
{
	int64_t id = col_at(nv->text_id, row);
	const char *registered = id == NST_NULL_I64 ? NULL : nst_db_string(ctx->db, id);
	if (registered)
		return registered;
	return nv->text ? nv->text[row] : NULL;
}

/* ---- domains ------------------------------------------------------------- */

/* One DomainCreate group per (domainId, globalTid), with the text of its
 * first row; groups of one (domainId, process) are chained in row order. */
struct domains {
	size_t n;
	const char **text;
	uint32_t *next;          /* next group of the same process, or UINT32_MAX */
	struct nst_map by_thread; /* (domainId, globalTid) -> group */
	struct nst_map by_proc;   /* (domainId, process) -> first group */
	uint32_t *last;           /* by first group: the chain's last group */
};

static void domains_release(struct domains *d)
{
	free(d->text);
	free(d->next);
	free(d->last);
	nst_map_release(&d->by_thread);
	nst_map_release(&d->by_proc);
}

static int domains_add(struct domains *d, int64_t domain, int64_t gtid, const char *text)
{
	uint32_t g, head;
	bool fresh;
	if (nst_map_get_or_put(&d->by_thread, domain, gtid, (uint32_t)d->n, &g, &fresh))
		return -1;
	if (!fresh)
		return 0;
	d->text[d->n] = text;
	d->next[d->n] = UINT32_MAX;
	if (nst_map_get_or_put(&d->by_proc, domain, gtid & PID_BITS, (uint32_t)d->n, &head,
			       &fresh))
		return -1;
	if (!fresh)
		d->next[d->last[head]] = (uint32_t)d->n;
	d->last[head] = (uint32_t)d->n;
	d->n++;
	return 0;
}

static enum nst_status domains_build(const struct nst_nvtx *nv, struct domains *d,
				     struct nst_error *err)
{
	memset(d, 0, sizeof *d);
	size_t n = 0;
	for (size_t i = 0; i < nv->n; i++)
		n += nst_col_at(nv->type, i) == DOMAIN_CREATE;
	d->text = nst_big_alloc(n, sizeof *d->text);
	d->next = nst_big_alloc(n, sizeof *d->next);
	d->last = nst_big_alloc(n, sizeof *d->last);
	if (!d->text || !d->next || !d->last || nst_map_init(&d->by_thread, n) ||
	    nst_map_init(&d->by_proc, n))
		return nst_fail(err, NST_ERR_NOMEM, "out of memory reading NVTX domains");
	for (size_t i = 0; n && i < nv->n; i++) {
		int64_t dom = col_at(nv->domain, i), gtid = col_at(nv->gtid, i);
		/* SQL equality never matches NULL, so such rows name nothing. */
		if (nst_col_at(nv->type, i) != DOMAIN_CREATE || dom == NST_NULL_I64 || gtid == NST_NULL_I64)
			continue;
		if (domains_add(d, dom, gtid, nv->text ? nv->text[i] : NULL))
			return nst_fail(err, NST_ERR_NOMEM, "out of memory reading NVTX domains");
	}
	return NST_OK;
}

/* The first domain group naming row `row`, or -1. */
static int64_t domains_first(const struct domains *d, const struct nst_nvtx *nv, size_t row)
{
	int64_t dom = col_at(nv->domain, row), gtid = col_at(nv->gtid, row);
	uint32_t g;
	if (d->n == 0 || dom == NST_NULL_I64 || gtid == NST_NULL_I64 ||
	    !nst_map_get(&d->by_proc, dom, gtid & PID_BITS, &g))
		return -1;
	return g;
}

/* ---- naming ranges ------------------------------------------------------- */

struct namer {
	struct nst_ctx *ctx;
	const struct nst_nvtx *nv;
	struct domains dom;
	struct nst_strtab names;
	struct nst_map registered; /* (textId, 0) -> name id */
	struct nst_map qualified;  /* (domain group, name id) -> name id */
};

static int intern_name(struct namer *nm, const char *s, int64_t *id)
{
	*id = nst_strtab_intern(&nm->names, s);
	return *id < 0 ? -1 : 0;
}

static int base_name_id(struct namer *nm, size_t row, int64_t *id)
{
	int64_t tid = col_at(nm->nv->text_id, row);
	const char *s = tid == NST_NULL_I64 ? NULL : nst_db_string(nm->ctx->db, tid);
	if (!s) {
		s = nm->nv->text ? nm->nv->text[row] : NULL;
		*id = NST_NULL_I64;
		return s ? intern_name(nm, s, id) : 0;
	}
	uint32_t cached;
	if (nst_map_get(&nm->registered, tid, 0, &cached)) {
		*id = cached;
		return 0;
	}
	bool fresh;
	return intern_name(nm, s, id) ||
	       nst_map_get_or_put(&nm->registered, tid, 0, (uint32_t)*id, &cached, &fresh);
}

/* "domain:name" of group g; a domain without text leaves the name bare,
 * and a range without a name stays without one, as in SQL's ||. */
static int qualified_id(struct namer *nm, uint32_t g, int64_t base, int64_t *id)
{
	const char *dom = nm->dom.text[g];
	*id = base;
	if (!dom || base == NST_NULL_I64)
		return 0;
	uint32_t cached;
	if (nst_map_get(&nm->qualified, g, base, &cached)) {
		*id = cached;
		return 0;
	}
	const char *full = nst_arena_printf(nm->ctx->arena, "%s:%s", dom, nm->names.text[base]);
	bool fresh;
	return !full || intern_name(nm, full, id) ||
	       nst_map_get_or_put(&nm->qualified, g, base, (uint32_t)*id, &cached, &fresh);
}

static int named_push(struct nst_nvtx_named *out, size_t *cap, uint32_t row,
		      int64_t name, enum nst_nvtx_style style)
{
	if (out->n == *cap) {
		size_t c = *cap ? *cap * 2 : 1024;
		uint32_t *r = realloc(out->row, c * sizeof *r);
		if (r)
			out->row = r;
		int32_t *nm = realloc(out->name, c * sizeof *nm);
		if (nm)
			out->name = nm;
		uint8_t *st = realloc(out->style, c * sizeof *st);
		if (st)
			out->style = st;
		if (!r || !nm || !st)
			return -1;
		*cap = c;
	}
	out->row[out->n] = row;
	/* ids index the names' texts: far fewer than 2^31 */
	out->name[out->n] = name == NST_NULL_I64 ? NST_NULL_I32 : (int32_t)name;
	out->style[out->n++] = (uint8_t)style;
	return 0;
}

static int name_range(struct namer *nm, size_t row, enum nst_nvtx_style style,
		      struct nst_nvtx_named *out, size_t *cap)
{
	int64_t base, id;
	if (base_name_id(nm, row, &base))
		return -1;
	int64_t g = domains_first(&nm->dom, nm->nv, row);
	if (g < 0)
		return named_push(out, cap, (uint32_t)row, base, style);
	for (; g >= 0; g = nm->dom.next[g] == UINT32_MAX ? -1 : (int64_t)nm->dom.next[g])
		if (qualified_id(nm, (uint32_t)g, base, &id) ||
		    named_push(out, cap, (uint32_t)row, id, style))
			return -1;
	return 0;
}

static void namer_release(struct namer *nm)
{
	domains_release(&nm->dom);
	nst_strtab_release_index(&nm->names);
	nst_map_release(&nm->registered);
	nst_map_release(&nm->qualified);
}

enum nst_status nst_nvtx_name_ranges(struct nst_ctx *ctx, const struct nst_nvtx *nv,
				     unsigned styles, struct nst_nvtx_named *out,
				     struct nst_error *err)
{
	memset(out, 0, sizeof *out);
	struct namer nm = { .ctx = ctx, .nv = nv };
	enum nst_status s = domains_build(nv, &nm.dom, err);
	if (s == NST_OK && (nst_map_init(&nm.registered, 64) || nst_map_init(&nm.qualified, 64)))
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	size_t cap = 0;
	for (size_t i = 0; s == NST_OK && i < nv->n; i++) {
		enum nst_nvtx_style style;
		/* start is NOT NULL in every schema: a row without one (a
		 * hand-trimmed export) has no duration and is no range */
		if (!nst_nvtx_range_style(nst_col_at(nv->type, i), &style) ||
		    !(styles & NST_NVTX_STYLE_BIT(style)) || nv->start[i] == NST_NULL_I64)
			continue;
		if (name_range(&nm, i, style, out, &cap))
			s = nst_fail(err, NST_ERR_NOMEM, "out of memory naming NVTX ranges");
	}
	out->text = nm.names.text;
	out->ntext = nm.names.n;
	namer_release(&nm);
	if (s != NST_OK)
		nst_nvtx_named_release(out);
	return s;
}

void nst_nvtx_named_once(struct nst_nvtx_named *r)
{
	size_t n = 0;
	for (size_t k = 0; k < r->n; k++) {
		if (n && r->row[n - 1] == r->row[k])
			continue;
		r->row[n] = r->row[k];
		r->name[n] = r->name[k];
		r->style[n] = r->style[k];
		n++;
	}
	r->n = n;
}

void nst_nvtx_named_release(struct nst_nvtx_named *r)
{
	free(r->row);
	free(r->name);
	free(r->style);
	free(r->text);
	memset(r, 0, sizeof *r);
}
