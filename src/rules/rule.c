/* What the rules share: arguments, ordering, wrapped text, messages. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rules/rule.h"

#include "core/big.h"
#include "core/parse.h"

int64_t nst_rule_int(const struct nst_ctx *ctx, const char *key, int64_t dflt)
{
	const char *v = nst_ctx_value(ctx, key);
	int64_t n;
	return v && nst_parse_i64(v, &n) ? n : dflt;
}

size_t nst_rule_limit(const struct nst_ctx *ctx)
{
	int64_t rows = nst_rule_int(ctx, "rows", 50);
	return rows < 0 ? SIZE_MAX : (size_t)rows;
}

enum nst_status nst_rule_check(const struct nst_arg *args, size_t nargs,
			       struct nst_error *err)
{
	for (size_t i = 0; i < nargs; i++) {
		int64_t v;
		if (!args[i].value)
			return nst_fail(err, NST_ERR_USAGE, "argument '%s' needs a value (%s=N)",
					args[i].key, args[i].key);
		if (!nst_parse_i64(args[i].value, &v))
			return nst_fail(err, NST_ERR_USAGE, "%s=%s: not an integer",
					args[i].key, args[i].value);
		if (strcmp(args[i].key, "chunks") == 0 && (v < 1 || v > 1000))
			return nst_fail(err, NST_ERR_USAGE, "chunks=%s: not between 1 and 1000",
					args[i].value);
	}
	return NST_OK;
}

struct by_dur {
	const int64_t *dur;
};

static int longer_first(uint32_t a, uint32_t b, void *arg)
{
	const struct by_dur *k = arg;
	return (k->dur[a] < k->dur[b]) - (k->dur[a] > k->dur[b]);
}

enum nst_status nst_rule_begin(const struct nst_sink *out, const struct nst_rule_notes *notes,
			       const char *const *cols, size_t ncols, struct nst_error *err)
{
	const struct { enum nst_note kind; const char *text; } all[] = {
		{ NST_NOTE_ADVICE, notes->advice },
		{ NST_NOTE_NORESULT, notes->noresult },
		{ NST_NOTE_FOOTER, notes->footer },
	};
	enum nst_status s = NST_OK;
	for (size_t i = 0; out->note && s == NST_OK && i < sizeof all / sizeof *all; i++)
		if (all[i].text)
			s = out->note(out->ctx, all[i].kind, all[i].text, err);
	return s == NST_OK ? out->begin(out->ctx, cols, ncols, err) : s;
}

/* idx by dur descending, stably, as one radix sort on ~dur (which orders
 * int64s the other way round without overflow): a rule may rank a
 * million rows.  False, idx untouched, when memory is short. */
static bool radix_longer_first(uint32_t *idx, size_t n, const int64_t *dur)
{
	uint32_t top = 0;
	for (size_t i = 0; i < n; i++)
		top = idx[i] > top ? idx[i] : top;
	int64_t *inverse = nst_big_alloc((size_t)top + 1, sizeof *inverse);
	if (!inverse)
		return false;
	for (size_t i = 0; i < n; i++)
		inverse[idx[i]] = ~dur[idx[i]];
	struct nst_error err;
	bool sorted = nst_sort_by_key(idx, n, inverse, &err) == NST_OK;
	free(inverse);
	return sorted;
}

/* ---- the first k of idx by dur descending, without sorting the rest ---- */

/* Positions in idx; of two equal durations the earlier position ranks first. */
struct ranking {
	const uint32_t *idx;
	const int64_t *dur;
};

static bool ranks_above(const struct ranking *r, size_t a, size_t b)
{
	int64_t da = r->dur[r->idx[a]], db = r->dur[r->idx[b]];
	return da > db || (da == db && a < b);
}

/* heap[0] is the lowest ranked of the k kept. */
static void sift_down(const struct ranking *r, size_t *heap, size_t k, size_t i)
{
	for (size_t c; (c = 2 * i + 1) < k; i = c) {
		if (c + 1 < k && ranks_above(r, heap[c], heap[c + 1]))
			c++;
		if (!ranks_above(r, heap[i], heap[c]))
			break;
		size_t t = heap[i];
		heap[i] = heap[c];
		heap[c] = t;
	}
}

/* idx[0..k) the k highest ranked, in rank order, as a stable sort of all
 * n would put them: a page shows ten gaps of a million.  False, idx
 * untouched, when memory is short. */
static bool select_longest(uint32_t *idx, size_t n, const int64_t *dur, size_t k)
{
	size_t *heap = malloc((k ? k : 1) * sizeof *heap);
	uint32_t *top = malloc((k ? k : 1) * sizeof *top);
	if (!heap || !top) {
		free(heap);
		free(top);
		return false;
	}
	struct ranking r = { idx, dur };
	for (size_t i = 0; i < k; i++)
		heap[i] = i;
	for (size_t i = k / 2; i-- > 0;)
		sift_down(&r, heap, k, i);
	for (size_t i = k; k && i < n; i++)
		if (ranks_above(&r, i, heap[0])) {
			heap[0] = i;
			sift_down(&r, heap, k, 0);
		}
	for (size_t m = k; m > 1; m--) { /* heap sort: the lowest ranked to the end */
		size_t t = heap[0];
		heap[0] = heap[m - 1];
		heap[m - 1] = t;
		sift_down(&r, heap, m - 1, 0);
	}
	for (size_t i = 0; i < k; i++)
		top[i] = idx[heap[i]];
	memcpy(idx, top, k * sizeof *idx);
	free(heap);
	free(top);
	return true;
}

size_t nst_rule_top(struct nst_ctx *ctx, uint32_t *idx, size_t n, const int64_t *dur,
		    struct nst_rule_notes *notes)
{
	size_t limit = nst_rule_limit(ctx);
	if (limit < n / 4 && select_longest(idx, n, dur, limit))
		return nst_rule_cut(ctx, n, notes);
	struct by_dur k = { dur };
	if (!radix_longer_first(idx, n, dur))
		nst_stable_sort(idx, n, longer_first, &k);
	return nst_rule_cut(ctx, n, notes);
}

size_t nst_rule_cut(struct nst_ctx *ctx, size_t n, struct nst_rule_notes *notes)
{
	size_t limit = nst_rule_limit(ctx);
	if (n < limit)
		return n;
	/* nsys cannot tell whether there were more: it says so at the limit. */
	notes->footer = nst_arena_printf(ctx->arena, "Only the top %zu results are displayed. "
					 "More data may be available.\n", limit);
	return limit;
}

const char *nst_rule_wrap(struct nst_ctx *ctx, const char *text)
{
	size_t len = strlen(text);
	char *out = nst_arena_alloc(ctx->arena, len + 1);
	if (!out)
		return NULL;
	size_t o = 0, line = 0;
	for (const char *p = text; *p;) {
		while (*p == ' ' || *p == '\n')
			p++;
		size_t w = strcspn(p, " \n");
		if (w == 0)
			break;
		if (line && line + 1 + w > 79) {
			out[o++] = '\n';
			line = 0;
		} else if (line) {
			out[o++] = ' ';
			line++;
		}
		memcpy(out + o, p, w);
		o += w;
		line += w;
		p += w;
	}
	out[o] = '\0';
	return out;
}

enum nst_status nst_rule_no_cuda(struct nst_ctx *ctx, struct nst_error *err,
				 const char *what)
{
	return nst_fail(err, NST_ERR_NODATA,
			"%s could not be analyzed because it does not contain the required "
			"CUDA data. Does the application use CUDA %s APIs?",
			nst_db_path(ctx->db), what);
}

bool nst_rule_like_prefix(const char *s, const char *prefix)
{
	return s && strncasecmp(s, prefix, strlen(prefix)) == 0;
}

bool nst_rule_like_infix(const char *s, const char *part)
{
	size_t n = strlen(part);
	for (; s && *s; s++)
		if (strncasecmp(s, part, n) == 0)
			return true;
	return false;
}
