/* A run's iterations and the GPU work of each (struct diff_iters): what
 * the comparisons per iteration read.  A run of half the iterations does
 * half the work; each iteration's work is what stays the same. */
#include <stdlib.h>
#include <string.h>

#include "core/hashmap.h"
#include "core/intervals.h"
#include "core/sqlstat.h"
#include "diff/diff.h"
#include "reports/calls.h"
#include "reports/gpu_ops.h"
#include "reports/kernel_names.h"
#include "reports/nvtx_gpu.h"

#define STEP_PREFIX "ProfilerStep#"
#define STEP_LABEL "ProfilerStep#N"

/* ---- the ranges ---------------------------------------------------------------- */

/* ProfilerStep#<number>, or under torch.autograd.profiler.emit_nvtx,
 * which names every range it records "<name>, op_id = <n>" (or ", seq =
 * <n>"), the same followed by ", " and more. */
static bool is_step_name(const char *name)
{
	size_t len = strlen(STEP_PREFIX);
	if (strncmp(name, STEP_PREFIX, len) != 0)
		return false;
	const char *p = name + len;
	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	return !*p || (p[0] == ',' && p[1] == ' ');
}

static bool is_iteration(const char *name, const char *per)
{
	return name && (per ? strcmp(name, per) == 0 : is_step_name(name));
}

/* The iterations as windows [start, end) of their process, by process
 * then start; reach[i] is the latest end among those of its process up
 * to i, so that a search knows when no earlier window can hold a time. */
struct windows {
	size_t n;
	int64_t *gpid, *start, *end, *reach;
};

static void windows_release(struct windows *w)
{
	free(w->gpid);
	free(w->start);
	free(w->end);
	free(w->reach);
	memset(w, 0, sizeof *w);
}

static enum nst_status windows_alloc(struct windows *w, size_t n, struct nst_error *err)
{
	size_t m = n ? n : 1;
	w->n = n;
	w->gpid = malloc(m * sizeof *w->gpid);
	w->start = malloc(m * sizeof *w->start);
	w->end = malloc(m * sizeof *w->end);
	w->reach = malloc(m * sizeof *w->reach);
	if (w->gpid && w->start && w->end && w->reach)
		return NST_OK;
	return nst_fail(err, NST_ERR_NOMEM, "out of memory");
}

/* The NVTX rows of the iterations, each once (a range in a domain created
 * on two threads is named twice, in consecutive entries). */
static enum nst_status iteration_rows(struct nst_ctx *ctx, const struct nst_nvtx *nv,
				      const char *per, uint32_t **rows, size_t *n,
				      struct nst_error *err)
{
	struct nst_nvtx_named named;
	*n = 0;
	*rows = NULL;
	enum nst_status s = nst_nvtx_name_ranges(ctx, nv, NST_NVTX_ALL_STYLES, &named, err);
	if (s != NST_OK)
		return s;
	*rows = malloc((named.n ? named.n : 1) * sizeof **rows);
	if (!*rows)
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; s == NST_OK && i < named.n; i++)
		if (is_iteration(nst_nvtx_name_text(&named, i), per) &&
		    (*n == 0 || (*rows)[*n - 1] != named.row[i]))
			(*rows)[(*n)++] = named.row[i];
	nst_nvtx_named_release(&named);
	return s;
}

/* The windows of rows[0..n), ordered by process, then start. */
static enum nst_status windows_of(const struct nst_nvtx *nv, uint32_t *rows, size_t n,
				  struct windows *w, struct nst_error *err)
{
	int64_t *start = malloc((nv->n ? nv->n : 1) * sizeof *start);
	int64_t *gpid = malloc((nv->n ? nv->n : 1) * sizeof *gpid);
	enum nst_status s = start && gpid ? NST_OK : nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; s == NST_OK && i < n; i++) {
		int64_t gtid = nst_col_or_null(nv->gtid, rows[i]);
		start[rows[i]] = nv->start[rows[i]];
		gpid[rows[i]] = gtid == NST_NULL_I64 ? NST_NULL_I64 : nst_gpid(gtid);
	}
	if (s == NST_OK)
		s = nst_sort_by_key(rows, n, start, err);
	if (s == NST_OK)
		s = nst_sort_by_key(rows, n, gpid, err);
	if (s == NST_OK)
		s = windows_alloc(w, n, err);
	for (size_t i = 0; s == NST_OK && i < n; i++) {
		w->gpid[i] = gpid[rows[i]];
		w->start[i] = start[rows[i]];
		w->end[i] = nst_nvtx_end(nv, rows[i]);
		bool same = i > 0 && w->gpid[i - 1] == w->gpid[i];
		w->reach[i] = same && w->reach[i - 1] > w->end[i] ? w->reach[i - 1] : w->end[i];
	}
	free(start);
	free(gpid);
	return s;
}

static enum nst_status find_windows(struct nst_ctx *ctx, const char *per, struct windows *w,
				    struct nst_error *err)
{
	struct nst_nvtx nv;
	uint32_t *rows = NULL;
	size_t n = 0;
	enum nst_status s = nst_nvtx_check(ctx, err);
	if (s == NST_ERR_NODATA)
		return NST_OK; /* no NVTX: no iterations */
	if (s == NST_OK)
		s = nst_nvtx_load(ctx, &nv, err);
	if (s == NST_OK)
		s = iteration_rows(ctx, &nv, per, &rows, &n, err);
	if (s == NST_OK && n >= 2)
		s = windows_of(&nv, rows, n, w, err);
	free(rows);
	return s;
}

/* The window of process gpid that holds time t, the latest to start
 * where several do; -1 where none does. */
static int64_t window_of(const struct windows *w, int64_t gpid, int64_t t)
{
	size_t lo = 0, hi = w->n; /* the first window after (gpid, t) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (w->gpid[mid] < gpid || (w->gpid[mid] == gpid && w->start[mid] <= t))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0 && w->gpid[i] == gpid && w->reach[i] > t;)
		if (t < w->end[i])
			return (int64_t)i;
	return -1;
}

/* ---- the work of each iteration --------------------------------------------------- */

enum { OP_TABLES = 3 };
static const char *const op_tables[OP_TABLES] = { KERNEL, MEMCPY, MEMSET };

/* A GPU operation of an iteration: its table, row and iteration. */
struct placed {
	uint32_t op, iter;
	uint8_t table;
};

struct work {
	struct nst_gpu_table t[OP_TABLES];
	struct placed *p;
	size_t n, cap;
};

static int work_push(struct work *k, struct placed p)
{
	if (k->n == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 1024;
		struct placed *grown = realloc(k->p, cap * sizeof *grown);
		if (!grown)
			return -1;
		k->p = grown;
		k->cap = cap;
	}
	k->p[k->n++] = p;
	return 0;
}

/* The operations of one table whose launching call started in an
 * iteration; an operation several calls launched (a driver call inside a
 * runtime call shares its correlationId) is placed by the first. */
static enum nst_status place_table(struct nst_ctx *ctx, const struct windows *w,
				   const struct nst_calls *c, uint8_t k, struct work *out,
				   struct nst_error *err)
{
	struct nst_launches l;
	const struct nst_gpu_table *t = &out->t[k];
	enum nst_status s = nst_gpu_table_load(ctx, op_tables[k], NST_GPU_ALL, &out->t[k], err);
	if (s == NST_OK)
		s = nst_launches_of(ctx, op_tables[k], false, &l, err);
	if (s != NST_OK)
		return s;
	for (size_t i = 0; s == NST_OK && i < l.n; i++) {
		uint32_t op = l.op[i], r = l.call[i];
		int64_t gtid = nst_col_or_null(c->gtid, r);
		if ((i > 0 && l.op[i - 1] == op) || gtid == NST_NULL_I64 ||
		    t->start[op] == NST_NULL_I64 || t->end[op] == NST_NULL_I64)
			continue;
		int64_t it = window_of(w, nst_gpid(gtid), c->start[r]);
		if (it >= 0 && work_push(out, (struct placed){ op, (uint32_t)it, k }))
			s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	nst_launches_release(&l);
	return s;
}

static enum nst_status place_all(struct nst_ctx *ctx, const struct windows *w, struct work *k,
				 struct nst_error *err)
{
	const struct nst_calls *c;
	if (!nst_db_has_table(ctx->db, RUNTIME))
		return NST_OK; /* no calls: no work is known to be an iteration's */
	enum nst_status s = nst_calls_ids(ctx, &c, err);
	if (s == NST_OK && (!c->gtid || !c->start))
		return NST_OK;
	for (uint8_t t = 0; s == NST_OK && t < OP_TABLES; t++)
		if (nst_db_has_table(ctx->db, op_tables[t]))
			s = place_table(ctx, w, c, t, k, err);
	return s;
}

static int64_t device_of(const struct work *k, const struct placed *p)
{
	return nst_col_or_null(k->t[p->table].device, p->op);
}

/* ---- the iterations of the processes that did each thing ------------------------------ */

/* A key (a device, a kernel) with a process that worked on it in some
 * iteration. */
struct key_proc {
	uint32_t key;
	int64_t gpid;
};

static int by_key_proc(const void *x, const void *y)
{
	const struct key_proc *a = x, *b = y;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return (a->gpid > b->gpid) - (a->gpid < b->gpid);
}

static bool key_has_proc(const struct key_proc *kp, size_t n, uint32_t key, int64_t gpid)
{
	struct key_proc want = { key, gpid };
	return bsearch(&want, kp, n, sizeof *kp, by_key_proc) != NULL;
}

/* Of each key's n values, vals[k * n .. (k + 1) * n), keeps those of the
 * iterations of the processes that worked on it, sorted, and start[k]
 * where they now begin: where one capture holds the ranks of a job, a
 * rank's GPU and kernels are not idle in the other ranks' iterations.
 * kp[0..nkp) sorted by (key, process). */
static void keep_own_iterations(int64_t *vals, size_t nkeys, size_t n, const struct windows *w,
				const struct key_proc *kp, size_t nkp, size_t *start)
{
	size_t at = 0;
	for (size_t k = 0; k < nkeys; k++) {
		start[k] = at;
		for (size_t i = 0; i < n; i++)
			if (key_has_proc(kp, nkp, (uint32_t)k, w->gpid[i]))
				vals[at++] = vals[k * n + i];
		nst_sort_i64(vals + start[k], at - start[k]);
	}
	start[nkeys] = at;
}

/* The (key, process) pairs of keys[0..k->n) (UINT32_MAX: none), sorted
 * and each once. */
static enum nst_status key_procs(const struct work *k, const struct windows *w,
				 const uint32_t *keys, struct key_proc **out, size_t *n,
				 struct nst_error *err)
{
	struct key_proc *kp = malloc((k->n ? k->n : 1) * sizeof *kp);
	*out = kp;
	*n = 0;
	if (!kp)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < k->n; i++)
		if (keys[i] != UINT32_MAX)
			kp[(*n)++] = (struct key_proc){ keys[i], w->gpid[k->p[i].iter] };
	qsort(kp, *n, sizeof *kp, by_key_proc);
	size_t kept = 0;
	for (size_t i = 0; i < *n; i++)
		if (kept == 0 || by_key_proc(&kp[kept - 1], &kp[i]) != 0)
			kp[kept++] = kp[i];
	*n = kept;
	return NST_OK;
}

/* ---- busy time by device ------------------------------------------------------------ */

static size_t device_index(const struct diff_iters *it, int64_t dev)
{
	size_t lo = 0, hi = it->ndev;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (it->dev[mid] < dev)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const int64_t *diff_iters_busy(const struct diff_iters *it, int64_t dev, size_t *n)
{
	size_t k = device_index(it, dev);
	bool found = k < it->ndev && it->dev[k] == dev;
	*n = found ? it->busy_start[k + 1] - it->busy_start[k] : 0;
	return found ? it->busy + it->busy_start[k] : NULL;
}

static enum nst_status collect_devices(const struct work *k, struct diff_iters *out,
				       struct nst_error *err)
{
	out->dev = malloc((k->n ? k->n : 1) * sizeof *out->dev);
	if (!out->dev)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < k->n; i++)
		out->dev[i] = device_of(k, &k->p[i]);
	nst_sort_i64(out->dev, k->n);
	for (size_t i = 0; i < k->n; i++)
		if (out->ndev == 0 || out->dev[out->ndev - 1] != out->dev[i])
			out->dev[out->ndev++] = out->dev[i];
	return NST_OK;
}

/* The union of bucket b's operations, order[first[b] .. first[b + 1]). */
static int64_t covered(const struct work *k, const uint32_t *order, const size_t *first,
		       size_t b, struct nst_interval *iv)
{
	size_t m = 0;
	for (size_t j = first[b]; j < first[b + 1]; j++) {
		const struct placed *p = &k->p[order[j]];
		iv[m++] = (struct nst_interval){ k->t[p->table].start[p->op], k->t[p->table].end[p->op] };
	}
	nst_intervals_sort(iv, m);
	return nst_coverage_of(iv, m, 0).covered;
}

/* The operations by bucket (device, iteration): a counting sort. */
static enum nst_status buckets_of(const struct work *k, const struct diff_iters *out,
				  uint32_t **order, size_t **first, struct nst_error *err)
{
	size_t nb = out->ndev * out->n;
	uint32_t *bucket = malloc((k->n ? k->n : 1) * sizeof *bucket);
	*order = malloc((k->n ? k->n : 1) * sizeof **order);
	*first = calloc(nb + 2, sizeof **first);
	if (!bucket || !*order || !*first) {
		free(bucket);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < k->n; i++) {
		bucket[i] = (uint32_t)(device_index(out, device_of(k, &k->p[i])) * out->n + k->p[i].iter);
		(*first)[bucket[i] + 2]++;
	}
	for (size_t b = 2; b < nb + 2; b++)
		(*first)[b] += (*first)[b - 1];
	for (size_t i = 0; i < k->n; i++)
		(*order)[(*first)[bucket[i] + 1]++] = (uint32_t)i;
	free(bucket);
	return NST_OK;
}

/* Each device's busy time in the iterations of the processes that used
 * it. */
static enum nst_status own_busy(const struct work *k, const struct windows *w,
				struct diff_iters *out, struct nst_error *err)
{
	uint32_t *dev = malloc((k->n ? k->n : 1) * sizeof *dev);
	struct key_proc *kp = NULL;
	size_t nkp = 0;
	out->busy_start = malloc((out->ndev + 1) * sizeof *out->busy_start);
	enum nst_status s = dev && out->busy_start ? NST_OK
						   : nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; s == NST_OK && i < k->n; i++)
		dev[i] = (uint32_t)device_index(out, device_of(k, &k->p[i]));
	if (s == NST_OK)
		s = key_procs(k, w, dev, &kp, &nkp, err);
	if (s == NST_OK)
		keep_own_iterations(out->busy, out->ndev, out->n, w, kp, nkp, out->busy_start);
	free(dev);
	free(kp);
	return s;
}

static enum nst_status busy_by_device(const struct work *k, const struct windows *w,
				      struct diff_iters *out, struct nst_error *err)
{
	uint32_t *order = NULL;
	size_t *first = NULL;
	enum nst_status s = collect_devices(k, out, err);
	if (s == NST_OK)
		s = buckets_of(k, out, &order, &first, err);
	size_t nb = out->ndev * out->n, most = 0;
	for (size_t b = 0; s == NST_OK && b < nb; b++)
		most = first[b + 1] - first[b] > most ? first[b + 1] - first[b] : most;
	struct nst_interval *iv = s == NST_OK ? malloc((most ? most : 1) * sizeof *iv) : NULL;
	out->busy = s == NST_OK ? malloc((nb ? nb : 1) * sizeof *out->busy) : NULL;
	if (s == NST_OK && (!iv || !out->busy))
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t b = 0; s == NST_OK && b < nb; b++)
		out->busy[b] = covered(k, order, first, b, iv);
	if (s == NST_OK)
		s = own_busy(k, w, out, err);
	free(iv);
	free(order);
	free(first);
	return s;
}

/* ---- each kernel's total by iteration ----------------------------------------------- */

/* Kernel names: a key a StringIds id met, then one a distinct text (ids
 * of one text, a name stored twice, are one kernel). */
struct names {
	struct nst_map by_id; /* (id, 0) -> key */
	const char **text;    /* by key */
	uint32_t *merged;     /* by key: its text's index in the sorted texts */
	size_t n, cap;
};

static void names_release(struct names *nm)
{
	nst_map_release(&nm->by_id);
	free(nm->text);
	free(nm->merged);
}

static int name_key(struct nst_ctx *ctx, struct names *nm, int64_t sid, uint32_t *key)
{
	bool fresh;
	if (nst_map_get_or_put(&nm->by_id, sid, 0, (uint32_t)nm->n, key, &fresh))
		return -1;
	if (!fresh)
		return 0;
	if (nm->n == nm->cap) {
		size_t cap = nm->cap ? 2 * nm->cap : 64;
		const char **grown = realloc(nm->text, cap * sizeof *grown);
		if (!grown)
			return -1;
		nm->text = grown;
		nm->cap = cap;
	}
	const char *s = sid == NST_NULL_I64 ? NULL : nst_db_string(ctx->db, sid);
	nm->text[nm->n++] = s ? s : "";
	return 0;
}

struct keyed_text {
	const char *text;
	uint32_t key;
};

static int by_text(const void *x, const void *y)
{
	const struct keyed_text *a = x, *b = y;
	int c = strcmp(a->text, b->text);
	return c ? c : (a->key > b->key) - (a->key < b->key);
}

/* The distinct texts, in byte order, into s->key, and each key's place
 * among them. */
static enum nst_status merge_names(struct names *nm, struct diff_samples *s,
				   struct nst_error *err)
{
	struct keyed_text *kt = malloc((nm->n ? nm->n : 1) * sizeof *kt);
	nm->merged = malloc((nm->n ? nm->n : 1) * sizeof *nm->merged);
	s->key = malloc((nm->n ? nm->n : 1) * sizeof *s->key);
	if (!kt || !nm->merged || !s->key) {
		free(kt);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < nm->n; i++)
		kt[i] = (struct keyed_text){ nm->text[i], (uint32_t)i };
	qsort(kt, nm->n, sizeof *kt, by_text);
	for (size_t i = 0; i < nm->n; i++) {
		if (i == 0 || strcmp(kt[i - 1].text, kt[i].text) != 0)
			s->key[s->n++] = kt[i].text;
		nm->merged[kt[i].key] = (uint32_t)(s->n - 1);
	}
	free(kt);
	return NST_OK;
}

/* The key of each placed kernel (the rest: UINT32_MAX). */
static enum nst_status kernel_keys(struct nst_diff_ctx *d, struct nst_ctx *ctx,
				   const struct work *k, struct names *nm, uint32_t *key,
				   struct nst_error *err)
{
	const struct nst_col *name = NULL;
	enum nst_status s = nst_kernel_name_ids(ctx, diff_names_base(d) ? NST_KNAME_SHORT
								     : NST_KNAME_DEMANGLED,
						&name, err);
	if (s == NST_OK && nst_map_init(&nm->by_id, 64))
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; s == NST_OK && i < k->n; i++) {
		key[i] = UINT32_MAX;
		if (k->p[i].table == 0 &&
		    name_key(ctx, nm, nst_col_or_null(name, k->p[i].op), &key[i]))
			s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	return s;
}

/* s's values of a kernel: its total in each iteration of the processes
 * that ran it, sorted. */
static enum nst_status fill_totals(const struct work *k, const struct windows *w,
				   const struct names *nm, uint32_t *key, struct diff_samples *s,
				   struct nst_error *err)
{
	size_t n = w->n;
	if (s->n && n > SIZE_MAX / sizeof *s->val / s->n)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	s->start = malloc((s->n + 1) * sizeof *s->start);
	size_t cells = s->n * n;
	s->val = calloc(cells ? cells : 1, sizeof *s->val);
	if (!s->start || !s->val)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < k->n; i++) {
		const struct placed *p = &k->p[i];
		if (key[i] == UINT32_MAX)
			continue;
		key[i] = nm->merged[key[i]]; /* a kernel by its text from here on */
		s->val[key[i] * n + p->iter] += k->t[0].end[p->op] - k->t[0].start[p->op];
	}
	struct key_proc *kp = NULL;
	size_t nkp = 0;
	enum nst_status st = key_procs(k, w, key, &kp, &nkp, err);
	if (st == NST_OK)
		keep_own_iterations(s->val, s->n, n, w, kp, nkp, s->start);
	free(kp);
	return st;
}

static enum nst_status kernel_totals(struct nst_diff_ctx *d, struct nst_ctx *ctx,
				     const struct work *k, const struct windows *w,
				     struct diff_samples *s, struct nst_error *err)
{
	struct names nm = { 0 };
	uint32_t *key = malloc((k->n ? k->n : 1) * sizeof *key);
	enum nst_status st = key ? NST_OK : nst_fail(err, NST_ERR_NOMEM, "out of memory");
	bool any = false;
	for (size_t i = 0; i < k->n; i++)
		any |= k->p[i].table == 0;
	if (st == NST_OK && any)
		st = kernel_keys(d, ctx, k, &nm, key, err);
	if (st == NST_OK && any)
		st = merge_names(&nm, s, err);
	if (st == NST_OK && any)
		st = fill_totals(k, w, &nm, key, s, err);
	free(key);
	names_release(&nm);
	return st;
}

/* ---- a side ---------------------------------------------------------------------------- */

static void work_release(struct work *k)
{
	free(k->p);
	memset(k, 0, sizeof *k);
}

static enum nst_status measure(struct nst_diff_ctx *d, struct nst_ctx *ctx,
			       const struct windows *w, struct diff_iters *out,
			       struct nst_error *err)
{
	struct work k = { 0 };
	enum nst_status s = place_all(ctx, w, &k, err);
	if (s == NST_OK)
		s = busy_by_device(&k, w, out, err);
	if (s == NST_OK)
		s = kernel_totals(d, ctx, &k, w, &out->kern, err);
	work_release(&k);
	return s;
}

enum nst_status diff_iterations(struct nst_diff_ctx *d, int side, struct diff_iters *out,
				struct nst_error *err)
{
	memset(out, 0, sizeof *out);
	out->name = diff_per(d) ? diff_per(d) : STEP_LABEL;
	struct nst_ctx ctx;
	enum nst_status s = d->events(d, side, &ctx, err);
	if (s == NST_ERR_NODATA)
		return NST_OK; /* the filter's range is not on this side: no iterations */
	if (s != NST_OK)
		return s;
	/* the ranges' names are scratch: freed here, not with the diff */
	struct nst_arena arena = { 0 };
	struct windows w = { 0 };
	ctx.arena = &arena;
	s = find_windows(&ctx, diff_per(d), &w, err);
	out->n = w.n;
	if (s == NST_OK && w.n)
		s = measure(d, &ctx, &w, out, err);
	windows_release(&w);
	nst_arena_release(&arena);
	if (s != NST_OK)
		diff_iters_release(out);
	return s;
}

void diff_iters_release(struct diff_iters *it)
{
	free(it->dev);
	free(it->busy);
	free(it->busy_start);
	diff_samples_release(&it->kern);
	const char *name = it->name;
	memset(it, 0, sizeof *it);
	it->name = name;
}
