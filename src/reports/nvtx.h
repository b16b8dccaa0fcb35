/* NVTX ranges and their names, as the NVTX reports see them.
 *
 * A range is an NVTX_EVENTS row of event type 59/70 (push/pop) or 60/71
 * (start/end).  Its name is the registered string (textId) if any, else
 * its text.  nvtx_sum and friends prefix the name of its domain: the text
 * of the DomainCreate row (type 75) with the same domainId in the same
 * process.  nsys finds domains per (domainId, thread), so a domain
 * created on two threads of one process names each of its ranges twice;
 * nstats does the same, to give the same numbers.  A range that never
 * ended runs to the last NVTX timestamp. */
#ifndef NSTATS_REPORTS_NVTX_H
#define NSTATS_REPORTS_NVTX_H

#include "core/hashmap.h"
#include "reports/common.h"

#define NVTX "NVTX_EVENTS"

enum nst_nvtx_style { NST_NVTX_PUSHPOP, NST_NVTX_STARTEND };
#define NST_NVTX_STYLE_BIT(s) (1u << (s))
#define NST_NVTX_ALL_STYLES (NST_NVTX_STYLE_BIT(NST_NVTX_PUSHPOP) | \
			     NST_NVTX_STYLE_BIT(NST_NVTX_STARTEND))

/* The range style of an event type; false for marks, domains, etc. */
bool nst_nvtx_range_style(int64_t event_type, enum nst_nvtx_style *style);
/* nsys's word for a style: "PushPop" or "StartEnd". */
const char *nst_nvtx_style_name(enum nst_nvtx_style style);

/* The columns the NVTX reports read. */
extern const struct nst_need nst_nvtx_needs[];

struct nst_nvtx {
	size_t n;
	const int64_t *start, *end;
	const struct nst_col *type, *gtid, *text_id, *domain; /* as stored */
	const char *const *text;
	int64_t last_ts; /* the end of open ranges */
};

/* NST_ERR_NODATA with nsys's message when the export lacks a table. */
enum nst_status nst_nvtx_check(struct nst_ctx *ctx, struct nst_error *err);
enum nst_status nst_nvtx_load(struct nst_ctx *ctx, struct nst_nvtx *nv,
			      struct nst_error *err);
int64_t nst_nvtx_end(const struct nst_nvtx *nv, size_t row);
/* The range's own name, without domain; NULL when it has none. */
const char *nst_nvtx_base_name(struct nst_ctx *ctx, const struct nst_nvtx *nv,
			       size_t row);

/* Ranges of the chosen styles with their "domain:name" names, in row
 * order; a range appears once per domain row that names it.  Equal names
 * share one id; NST_NULL_I64 is a range without a name.  Rows without a
 * start are no ranges. */
struct nst_nvtx_named {
	size_t n;
	uint32_t *row;
	int32_t *name;       /* id of the name, NST_NULL_I32 for NULL (nst_nvtx_name_of) */
	uint8_t *style;      /* enum nst_nvtx_style */
	const char **text;   /* text of each name id */
	size_t ntext;
};
enum nst_status nst_nvtx_name_ranges(struct nst_ctx *ctx, const struct nst_nvtx *nv,
				     unsigned styles, struct nst_nvtx_named *out,
				     struct nst_error *err);
/* Keeps the first name of each range named more than once (D16: nsys
 * fails on those in every report but the summaries). */
void nst_nvtx_named_once(struct nst_nvtx_named *r);
void nst_nvtx_named_release(struct nst_nvtx_named *r);
/* The name id of named range i (an index into text), NST_NULL_I64 for a
 * NULL name. */
static inline int64_t nst_nvtx_name_of(const struct nst_nvtx_named *r, size_t i)
{
	return r->name[i] == NST_NULL_I32 ? NST_NULL_I64 : r->name[i];
}
/* The name of named range i, NULL for a NULL name. */
static inline const char *nst_nvtx_name_text(const struct nst_nvtx_named *r, size_t i)
{
	return r->name[i] == NST_NULL_I32 ? NULL : r->text[r->name[i]];
}
/* A range's name id and style as one number, to group by: 2 * name +
 * style, a NULL name (which groups too) below every id's; and back. */
static inline int64_t nst_nvtx_range_key(int64_t name, enum nst_nvtx_style style)
{
	return name == NST_NULL_I64 ? -1 - (int64_t)style : 2 * name + (int64_t)style;
}
static inline int64_t nst_nvtx_key_name(int64_t key)
{
	return key < 0 ? NST_NULL_I64 : key / 2;
}
static inline enum nst_nvtx_style nst_nvtx_key_style(int64_t key)
{
	return (enum nst_nvtx_style)(key < 0 ? -1 - key : key % 2);
}

/* The summary of the named ranges of the given styles by name, total time
 * first (nvtx_summary.c); a Style column only when both styles are in. */
enum nst_status nst_nvtx_summary(struct nst_ctx *ctx, const struct nst_sink *out,
				 unsigned styles, struct nst_error *err);

#endif
