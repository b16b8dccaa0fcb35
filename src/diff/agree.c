/* agree: two profilers' captures of one program, kernel by kernel: are
 * their launches the same launches, and do they time them alike?  The
 * launches of each side are aligned per pair of streams as launch_diff
 * aligns them (launches.h), after each side's repeated rows (the same
 * stream, start and end: a launch recorded twice, as nsys's backtrace
 * rows can make it look) are counted and left out.  The clocks of two
 * profilers differ, so no absolute time is compared: only which launches
 * match, and the durations of those that do.  The durations are compared
 * by the sign test's interval of the median of the matched launches'
 * B - A differences (in percent of each A duration): the order
 * statistics whose binomial(n, 1/2) ranks cover the median with at least
 * 1 - --alpha probability, exact for any n and any distribution. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/seqdiff.h"
#include "core/sqlstat.h"
#include "diff/launches.h"


static const char *const cols[] = {
	"Name", "A Instances", "B Instances", "Matched", "A Only", "B Only", "A Duplicates",
	"B Duplicates", "Median Diff:dur_ns", "Median Diff:ratio_%", "Diff CI Low:ratio_%",
	"Diff CI High:ratio_%", "Verdict",
};
#define NCOLS (sizeof cols / sizeof *cols)

/* What the two sides say of one kernel name. */
struct kernel {
	const char *name;
	int64_t instances[2], only[2], repeats[2], matched;
	size_t first, n;    /* its matched launches: tally.matches[first .. first + n) */
};

/* A launch on both sides: its kernel and its two durations. */
struct match {
	uint32_t kernel;
	int64_t a, b;
};

struct tally {
	struct nst_strtab names;   /* kernel names, ids by first sight */
	uint32_t *kernel_of_key;   /* by launch key */
	struct kernel *kernels;    /* by name id */
	struct match *matches;
	size_t nmatches, cap;
	const struct diff_launch_side *side[2];
	const struct diff_launch_stream *stream[2]; /* NULL where a side has none */
	int counting;              /* the side whose repeats are being counted */
	bool nomem;
};

/* ---- counting ------------------------------------------------------------------------ */

static enum nst_status name_kernels(struct tally *t, const struct diff_launch_keys *k,
				    struct nst_error *err)
{
	t->kernel_of_key = malloc((k->n ? k->n : 1) * sizeof *t->kernel_of_key);
	if (!t->kernel_of_key)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < k->n; i++) {
		int64_t id = nst_strtab_intern(&t->names, k->name[i] ? k->name[i] : "");
		if (id < 0)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		t->kernel_of_key[i] = (uint32_t)id;
	}
	t->kernels = calloc(t->names.n ? t->names.n : 1, sizeof *t->kernels);
	if (!t->kernels)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < t->names.n; i++)
		t->kernels[i].name = t->names.text[i];
	return NST_OK;
}

static struct kernel *kernel_of_row(struct tally *t, int side, uint32_t row)
{
	return &t->kernels[t->kernel_of_key[t->side[side]->key[row]]];
}

static int count_repeat(void *arg, uint32_t row)
{
	struct tally *t = arg;
	kernel_of_row(t, t->counting, row)->repeats[t->counting]++;
	return 0;
}

static void count_sides(struct tally *t, struct diff_launch_side *s)
{
	for (int i = 0; i < 2; i++) {
		for (size_t r = 0; r < s[i].n; r++)
			kernel_of_row(t, i, (uint32_t)r)->instances[i]++;
		t->counting = i;
		diff_launch_drop_repeats(&s[i], count_repeat, t);
	}
}

/* Row of the i-th launch of side s's current stream. */
static uint32_t row_at(const struct tally *t, int s, size_t i)
{
	return t->side[s]->order[t->stream[s]->first + i];
}

static int add_match(struct tally *t, uint32_t kernel, int64_t a, int64_t b)
{
	if (t->nmatches == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024;
		struct match *m = realloc(t->matches, cap * sizeof *m);
		if (!m)
			return t->nomem = true, 1;
		t->matches = m;
		t->cap = cap;
	}
	t->matches[t->nmatches++] = (struct match){ kernel, a, b };
	return 0;
}

static int count_op(void *arg, enum nst_seq_op op, size_t i, size_t j)
{
	struct tally *t = arg;
	if (op != NST_SEQ_SAME) {
		int s = op == NST_SEQ_DEL ? 0 : 1;
		kernel_of_row(t, s, row_at(t, s, s ? j : i))->only[s]++;
		return 0;
	}
	uint32_t ra = row_at(t, 0, i), rb = row_at(t, 1, j);
	const struct diff_launch_side *a = t->side[0], *b = t->side[1];
	struct kernel *k = kernel_of_row(t, 0, ra);
	k->matched++;
	return add_match(t, (uint32_t)(k - t->kernels), a->end[ra] - a->start[ra],
			 b->end[rb] - b->start[rb]);
}

/* One pair of streams (either may be missing) aligned and counted. */
static enum nst_status count_pair(struct tally *t, const struct diff_launch_stream *sa,
				  const struct diff_launch_stream *sb, bool *approx,
				  struct nst_error *err)
{
	t->stream[0] = sa;
	t->stream[1] = sb;
	const uint32_t *a = sa ? t->side[0]->seq + sa->first : NULL;
	const uint32_t *b = sb ? t->side[1]->seq + sb->first : NULL;
	bool shortest = true;
	int rc = nst_seq_align(a, sa ? sa->n : 0, b, sb ? sb->n : 0, DIFF_LAUNCH_WORK, count_op, t,
			       &shortest);
	*approx |= !shortest;
	if (rc < 0 || t->nomem)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	return NST_OK;
}

static enum nst_status count_streams(struct tally *t, bool *approx, struct nst_error *err)
{
	const struct diff_launch_side *a = t->side[0], *b = t->side[1];
	enum nst_status st = NST_OK;
	for (size_t i = 0; st == NST_OK && i < a->nstreams; i++) {
		const struct diff_launch_stream *sa = &a->streams[i];
		st = count_pair(t, sa, sa->paired >= 0 ? &b->streams[sa->paired] : NULL, approx, err);
	}
	for (size_t j = 0; st == NST_OK && j < b->nstreams; j++)
		if (b->streams[j].paired < 0)
			st = count_pair(t, NULL, &b->streams[j], approx, err);
	return st;
}

/* ---- the durations of the matched launches ---------------------------------------------- */

static int by_kernel(const void *x, const void *y)
{
	const struct match *p = x, *q = y;
	return (p->kernel > q->kernel) - (p->kernel < q->kernel);
}

/* Each kernel's matched launches, together. */
static void group_matches(struct tally *t)
{
	if (t->nmatches) /* none: matches may be NULL */
		qsort(t->matches, t->nmatches, sizeof *t->matches, by_kernel);
	for (size_t i = 0; i < t->nmatches; i++) {
		struct kernel *k = &t->kernels[t->matches[i].kernel];
		if (k->n++ == 0)
			k->first = i;
	}
}

static int ascending_real(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* The sign test's interval of the median of n values: [x(k), x(n+1-k)]
 * (from 1) with k the largest whose two tails of binomial(n, 1/2),
 * P(B <= k - 1) each, add up to at most alpha.  0: none is (n too small).
 * The probabilities are summed from logarithms, which neither overflow
 * nor underflow to a wrong sum for any n. */
static size_t sign_test_rank(size_t n, double alpha)
{
	double log_p = -(double)n * log(2.0), tail = 0;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		tail += exp(log_p);
		if (2 * tail > alpha)
			break;
		k = i + 1;
		log_p += log((double)(n - i)) - log((double)(i + 1));
	}
	return k;
}

struct durations {
	struct nst_mid median_ns;
	bool has_pct, has_ci;
	double median_pct, lo, hi;
};

static double middle(const double *sorted, size_t n)
{
	return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/* The median difference of a kernel's matched launches, and in percent of
 * each A duration (launches of A duration 0 left out) with its interval;
 * none without matched launches. */
static enum nst_status compare_durations(const struct tally *t, const struct kernel *k,
					 double alpha, struct durations *out,
					 struct nst_error *err)
{
	*out = (struct durations){ 0 };
	if (!k->n)
		return NST_OK;
	int64_t *ns = malloc(k->n * sizeof *ns);
	double *pct = malloc(k->n * sizeof *pct);
	if (!ns || !pct) {
		free(ns);
		free(pct);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	size_t npct = 0;
	for (size_t i = 0; i < k->n; i++) {
		const struct match *m = &t->matches[k->first + i];
		ns[i] = m->b - m->a;
		if (m->a > 0)
			pct[npct++] = (double)(m->b - m->a) * 100.0 / (double)m->a;
	}
	nst_sort_i64(ns, k->n);
	qsort(pct, npct, sizeof *pct, ascending_real);
	*out = (struct durations){ .median_ns = nst_quantile(ns, k->n, 1, 2), .has_pct = npct > 0 };
	if (npct)
		out->median_pct = middle(pct, npct);
	size_t r = alpha < 1 ? sign_test_rank(npct, alpha) : 0;
	if (r) {
		out->has_ci = true;
		out->lo = pct[r - 1];
		out->hi = pct[npct - r];
	}
	free(ns);
	free(pct);
	return NST_OK;
}

/* ---- rows ------------------------------------------------------------------------------ */

static int64_t disagreeing(const struct kernel *k)
{
	return k->only[0] + k->only[1] + k->repeats[0] + k->repeats[1];
}

static int most_disagreeing(const void *x, const void *y)
{
	const struct kernel *p = x, *q = y;
	int64_t a = disagreeing(p), b = disagreeing(q);
	if (a != b)
		return a > b ? -1 : 1;
	return strcmp(p->name, q->name);
}

/* A percent as the columns show it: to 0.1, and no -0.0. */
static double pct1(double v)
{
	return nst_sql_round(v, 1) + 0.0;
}

static bool add_part(char *buf, size_t size, size_t *len, const char *fmt, long long n)
{
	int w = snprintf(buf + *len, size - *len, "%s", *len ? "; " : "");
	if (w < 0 || (size_t)w >= size - *len)
		return false;
	*len += (size_t)w;
	w = snprintf(buf + *len, size - *len, fmt, n, n == 1 ? "" : "es");
	if (w < 0 || (size_t)w >= size - *len)
		return false;
	*len += (size_t)w;
	return true;
}

/* "agree", or what disagrees, "; " between. */
static const char *verdict(struct nst_arena *arena, const struct kernel *k,
			   const struct durations *d)
{
	char buf[256];
	size_t len = 0;
	buf[0] = '\0';
	bool ok = true;
	if (k->repeats[1])
		ok &= add_part(buf, sizeof buf, &len, "B counts %lld launch%s twice", k->repeats[1]);
	if (k->repeats[0])
		ok &= add_part(buf, sizeof buf, &len, "A counts %lld launch%s twice", k->repeats[0]);
	if (k->only[0])
		ok &= add_part(buf, sizeof buf, &len, "B misses %lld launch%s", k->only[0]);
	if (k->only[1])
		ok &= add_part(buf, sizeof buf, &len, "A misses %lld launch%s", k->only[1]);
	if (ok && d->has_ci && (d->lo > 0 || d->hi < 0))
		snprintf(buf + len, sizeof buf - len, "%sB durations %+.1f%% [%.1f, %.1f]",
			 len ? "; " : "", pct1(d->median_pct), pct1(d->lo), pct1(d->hi));
	/* too few launches for an interval (or --alpha 1): the difference is
	 * told, not judged, so that "agree" never hides one */
	else if (ok && !d->has_ci && d->has_pct && pct1(d->median_pct) != 0)
		snprintf(buf + len, sizeof buf - len, "%sB durations %+.1f%% (no interval)",
			 len ? "; " : "", pct1(d->median_pct));
	return nst_arena_strndup(arena, buf[0] ? buf : "agree", strlen(buf[0] ? buf : "agree"));
}

static enum nst_status emit_kernel(struct nst_diff_ctx *d, const struct tally *t,
				   const struct kernel *k, const struct nst_sink *out,
				   struct nst_error *err)
{
	struct durations du = { 0 };
	enum nst_status st = compare_durations(t, k, diff_alpha(d), &du, err);
	if (st != NST_OK)
		return st;
	const char *v = verdict(d->arena, k, &du);
	if (!v)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	struct nst_cell row[NCOLS] = {
		nst_text(k->name), nst_int(k->instances[0]), nst_int(k->instances[1]),
		nst_int(k->matched), nst_int(k->only[0]), nst_int(k->only[1]),
		nst_int(k->repeats[0]), nst_int(k->repeats[1]),
		k->n ? nst_mid_cell(du.median_ns) : nst_null(),
		du.has_pct ? nst_real(pct1(du.median_pct)) : nst_null(),
		du.has_ci ? nst_real(pct1(du.lo)) : nst_null(),
		du.has_ci ? nst_real(pct1(du.hi)) : nst_null(),
		nst_text(v),
	};
	return out->row(out->ctx, row, err);
}

static enum nst_status emit_all(struct nst_diff_ctx *d, struct tally *t, const struct nst_sink *out,
				struct nst_error *err)
{
	enum nst_status st = out->begin(out->ctx, cols, NCOLS, err);
	size_t n = t->names.n;
	struct kernel *sorted = malloc((n ? n : 1) * sizeof *sorted);
	if (st == NST_OK && !sorted)
		st = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (st == NST_OK && n) {
		memcpy(sorted, t->kernels, n * sizeof *sorted);
		qsort(sorted, n, sizeof *sorted, most_disagreeing);
	}
	for (size_t i = 0; st == NST_OK && i < n; i++)
		if (sorted[i].instances[0] || sorted[i].instances[1])
			st = emit_kernel(d, t, &sorted[i], out, err);
	free(sorted);
	return st;
}

static void release_tally(struct tally *t)
{
	nst_strtab_release(&t->names);
	free(t->kernel_of_key);
	free(t->kernels);
	free(t->matches);
}

static enum nst_status diff(struct nst_diff_ctx *d, const struct nst_sink *out,
			    struct nst_error *err)
{
	struct diff_launch_keys k;
	struct diff_launch_side s[2];
	struct tally t = { .side = { &s[0], &s[1] } };
	memset(s, 0, sizeof s);
	bool approx = false;
	enum nst_status st = diff_launch_keys_init(&k, err);
	for (int i = 0; st == NST_OK && i < 2; i++)
		st = diff_launch_load_side(d, i, &k, &s[i], err);
	if (st == NST_OK)
		st = name_kernels(&t, &k, err);
	if (st == NST_OK) {
		count_sides(&t, s);
		st = diff_launch_pair_streams(&s[0], &s[1], err);
	}
	if (st == NST_OK)
		st = count_streams(&t, &approx, err);
	if (st == NST_OK) {
		group_matches(&t);
		st = emit_all(d, &t, out, err);
	}
	if (st == NST_OK && approx && out->note)
		st = out->note(out->ctx, NST_NOTE_FOOTER, "Some streams differ in too many places"
			       " to be aligned exactly within the work allowed: they were\naligned"
			       " on anchors, and a better alignment may match more launches.\n",
			       err);
	release_tally(&t);
	diff_launch_release_side(&s[0]);
	diff_launch_release_side(&s[1]);
	diff_launch_keys_release(&k);
	return st;
}

static const char *const sources[] = { "cuda_gpu_trace", NULL };

const struct nst_report nst_diff_agree = {
	.name = "agree",
	.title = "Two Profilers' Kernel Launches Compared",
	.help = "Two captures of one program by two profilers (an nsys export and a PyTorch\n"
		"trace, or nsys with and without --cudabacktrace), kernel by kernel (name\n"
		"by --names; base across nsys and PyTorch, whose demangled spellings\n"
		"differ): are these the same launches, timed alike? Launches are aligned\n"
		"per pair of streams as launch_diff aligns them; no absolute time is\n"
		"compared, since the clocks differ.  A row that repeats another of its side\n"
		"(the same device, stream, start and end) is counted in Duplicates and left\n"
		"out of the alignment.  Matched, A Only and B Only count the aligned\n"
		"launches.  Median Diff is the median of the matched launches' B - A\n"
		"durations, in ns and in percent of each A duration; the Diff CI is the\n"
		"sign test's interval of that median: the order statistics whose\n"
		"binomial(n, 1/2) ranks cover it with probability at least 1 - --alpha (95%\n"
		"by default), distribution-free and exact for any n (none below 6 launches\n"
		"at 95%).  Verdict: agree, or what differs (B counts N launches twice, B\n"
		"misses N launches, A misses N launches, B durations +3.0% [2.8, 3.2] when\n"
		"the interval excludes 0, B durations +3.0% (no interval) when there is a\n"
		"difference but no interval to judge it by).  Rows: most disagreeing\n"
		"launches first, then by name.",
	.flags = NST_REPORT_ADDITION,
	.diff = diff,
	.sources = sources,
};
