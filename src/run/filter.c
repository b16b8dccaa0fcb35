/* Filters: --filter-time and the start=/end=/nvtx= report arguments,
 * read the way nsys 2024.2.3 reads them, and the events each filter of a
 * run sees. */
#include <ctype.h>
#include <locale.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
#include "run/run.h"

/* ---- --filter-time --------------------------------------------------------- */

static const struct { const char *name; double ns; } units[] = {
	{ "nsec", 1 }, { "usec", 1e3 }, { "msec", 1e6 }, { "hour", 3600e9 },
	{ "sec", 1e9 }, { "min", 60e9 }, { "ns", 1 }, { "us", 1e3 },
	{ "ms", 1e6 }, { "s", 1e9 }, { "m", 60e9 }, { "h", 3600e9 },
}; /* longest names first: "1ms" is milliseconds, "1secs" a second and "s" */

/* nsys converts each value to a 64-bit integer as the x86 conversion
 * does: what does not fit (or is not a number) becomes INT64_MIN. */
static int64_t to_ns(double v)
{
	if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0))
		return INT64_MIN;
	return (int64_t)v;
}

/* A value starts with a digit, after blanks and a sign: ".5", "inf" and
 * "nan" are refused although strtod() would read them. */
static bool starts_number(const char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '+' || *p == '-')
		p++;
	return isdigit((unsigned char)*p);
}

static size_t unit_at(const char *p, double *ns)
{
	for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
		size_t l = strlen(units[i].name);
		if (strncmp(p, units[i].name, l) == 0) {
			*ns = units[i].ns;
			return l;
		}
	}
	return 0;
}

/* One side of the range: values with optional units, summed.  On error,
 * *why says what and *at where. */
static bool parse_time(const char *s, int64_t *out, const char **why, const char **at)
{
	uint64_t total = 0; /* wraps as nsys's sum does */
	const char *p = s;
	while (*p) {
		if (!starts_number(p)) {
			*why = "time format cannot do numeric conversion at";
			*at = p;
			return false;
		}
		char *end;
		double v = strtod(p, &end), ns = 1;
		p = end;
		size_t l = *p ? unit_at(p, &ns) : 0;
		if (*p && l == 0) {
			*why = "time value has unknown unit at";
			*at = p;
			return false;
		}
		p += l;
		total += (uint64_t)to_ns(v * ns);
	}
	*out = (int64_t)total;
	return true;
}

static enum nst_status bad_time(struct nst_error *err, const char *why, const char *at)
{
	if (at)
		return nst_fail(err, NST_ERR_USAGE, "%s '%s'", why, at);
	return nst_fail(err, NST_ERR_USAGE, "%s", why);
}

/* The sides of a range in the C locale: strtod() reads the decimal point
 * of LC_NUMERIC, and nsys's is '.'.  An empty side keeps its default. */
static enum nst_status parse_sides(const char *start, const char *end, int64_t *s, int64_t *e,
				   struct nst_error *err)
{
	locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (!c)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	locale_t saved = uselocale(c);
	const char *why = NULL, *at = NULL;
	bool ok = (!*start || parse_time(start, s, &why, &at)) &&
		  (!end || !*end || parse_time(end, e, &why, &at));
	uselocale(saved);
	freelocale(c);
	return ok ? NST_OK : bad_time(err, why, at);
}

enum nst_status nst_filter_parse_time(const char *arg, struct nst_filter *f,
				      struct nst_error *err)
{
	const char *slash = strchr(arg, '/');
	if (!slash)
		return bad_time(err, "the argument must contain a slash", NULL);
	if (slash == arg && !slash[1])
		return bad_time(err, "the argument must contain at least one time value", NULL);
	char *start = strndup(arg, (size_t)(slash - arg));
	if (!start)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	int64_t s = INT64_MIN, e = INT64_MAX;
	enum nst_status rc = parse_sides(start, slash + 1, &s, &e, err);
	if (rc == NST_OK && s > e)
		rc = bad_time(err, "the start time must be less than or equal to the end time", NULL);
	free(start);
	if (rc == NST_OK) {
		f->has_start = f->has_end = true;
		f->start = s;
		f->end = e;
	}
	return rc;
}

enum nst_status nst_time_parse(const char *arg, int64_t *ns, struct nst_error *err)
{
	if (!*arg)
		return bad_time(err, "no time value", NULL);
	return parse_sides(arg, NULL, ns, NULL, err);
}

/* ---- start=, end=, nvtx= ------------------------------------------------------ */

static const char *const filter_args[] = { "start", "end", "nvtx", NULL };

const char *const *run_filter_args(void)
{
	return filter_args;
}

bool run_filter_is_arg(const char *key)
{
	for (const char *const *n = filter_args; *n; n++)
		if (strcmp(*n, key) == 0)
			return true;
	return false;
}

enum nst_status run_filter_check_arg(const char *job, const struct nst_arg *a,
				     struct nst_error *err)
{
	int64_t v;
	if (!a->value)
		return nst_fail(err, NST_ERR_USAGE, "report '%s': argument %s: expected one argument",
				job, a->key);
	if (strcmp(a->key, "nvtx") != 0 && !nst_parse_i64(a->value, &v))
		return nst_fail(err, NST_ERR_USAGE, "report '%s': argument %s: invalid int value '%s'",
				job, a->key, a->value);
	return NST_OK;
}

bool run_filter_is_none(const struct nst_filter *f)
{
	return !f->has_start && !f->has_end && !f->nvtx;
}

void run_filter_of(const struct nst_filter *run, const struct nst_job *job,
		   struct nst_filter *out)
{
	static const struct nst_filter none = { 0 };
	*out = run ? *run : none;
	if (out->nvtx)
		out->has_start = out->has_end = false;
	for (size_t i = 0; job && i < job->nargs; i++) {
		const struct nst_arg *a = &job->args[i];
		if (!a->value)
			continue;
		if (strcmp(a->key, "nvtx") == 0)
			out->nvtx = a->value;
		else if (strcmp(a->key, "start") == 0)
			out->has_start = nst_parse_i64(a->value, &out->start);
		else if (strcmp(a->key, "end") == 0)
			out->has_end = nst_parse_i64(a->value, &out->end);
	}
}

/* ---- the events each filter sees ------------------------------------------- */

struct view {
	struct nst_filter spec; /* its nvtx is the view's own copy */
	struct nst_events *ev;
	struct nst_shared *shared;
	struct nst_error err; /* why there is no view (a range not found) */
	enum nst_status status;
	struct view *next;
};

struct run_views {
	struct nst_db *db;
	struct nst_events *all;
	struct nst_shared *all_shared;
	struct view *views;
	pthread_mutex_t lock; /* jobs on several threads share the views */
};

struct run_views *run_views_new(struct nst_db *db, struct nst_events *all,
				struct nst_shared *all_shared)
{
	struct run_views *fv = calloc(1, sizeof *fv);
	if (!fv)
		return NULL;
	fv->db = db;
	fv->all = all;
	fv->all_shared = all_shared;
	if (pthread_mutex_init(&fv->lock, NULL) != 0) {
		free(fv);
		return NULL;
	}
	return fv;
}

static bool same_spec(const struct nst_filter *a, const struct nst_filter *b)
{
	return a->has_start == b->has_start && a->has_end == b->has_end &&
	       (!a->has_start || a->start == b->start) && (!a->has_end || a->end == b->end) &&
	       (a->nvtx && b->nvtx ? strcmp(a->nvtx, b->nvtx) == 0 : a->nvtx == b->nvtx);
}

/* The window of a spec: the NVTX range's, with start=/end= replacing its
 * ends; without a range, 0 and the largest time stand for what is not
 * given (as nsys's reports default them). */
enum nst_status run_filter_window(struct nst_db *db, const struct nst_filter *f,
				  struct nst_ev_window *w, struct nst_error *err)
{
	*w = (struct nst_ev_window){ 0, INT64_MAX, NST_EV_ALL_THREADS, 0 };
	if (f->nvtx) {
		bool open;
		enum nst_status s = nst_ev_nvtx_window(db, f->nvtx, w, &open, err);
		if (s != NST_OK)
			return s;
	}
	if (f->has_start)
		w->start = f->start;
	if (f->has_end)
		w->end = f->end;
	return NST_OK;
}

/* A range that is not there leaves a view without a row, which reports
 * check their tables against before they say so (as nsys does). */
static void make_view(struct run_views *fv, struct view *v)
{
	struct nst_ev_window w;
	v->status = run_filter_window(fv->db, &v->spec, &w, &v->err);
	if (v->status == NST_ERR_NODATA)
		w = (struct nst_ev_window){ INT64_MIN, INT64_MIN, NST_EV_ALL_THREADS, 0 };
	else if (v->status != NST_OK)
		return;
	v->ev = nst_ev_filter(fv->all, &w);
	v->shared = nst_shared_new();
	if (!v->ev || !v->shared)
		v->status = nst_fail(&v->err, NST_ERR_NOMEM, "out of memory");
}

/* A view outlives the jobs whose filter made it: it keeps its range name. */
static struct view *new_view(struct run_views *fv, const struct nst_filter *f)
{
	struct view *v = calloc(1, sizeof *v);
	char *nvtx = f->nvtx ? strdup(f->nvtx) : NULL;
	if (!v || (f->nvtx && !nvtx)) {
		free(v);
		free(nvtx);
		return NULL;
	}
	v->spec = *f;
	v->spec.nvtx = nvtx;
	v->next = fv->views;
	fv->views = v;
	make_view(fv, v);
	return v;
}

enum nst_status run_views_get(struct run_views *fv, const struct nst_filter *f,
			      struct nst_events **ev, struct nst_shared **shared,
			      struct nst_error *err)
{
	*ev = fv->all;
	*shared = fv->all_shared;
	if (run_filter_is_none(f))
		return NST_OK;
	pthread_mutex_lock(&fv->lock);
	struct view *v = fv->views;
	while (v && !same_spec(&v->spec, f))
		v = v->next;
	if (!v)
		v = new_view(fv, f);
	pthread_mutex_unlock(&fv->lock);
	if (!v)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (v->status != NST_OK)
		*err = v->err;
	if (v->status == NST_OK || v->status == NST_ERR_NODATA) {
		*ev = v->ev;
		*shared = v->shared;
	}
	return v->status;
}

bool run_views_any(struct run_views *fv)
{
	pthread_mutex_lock(&fv->lock);
	bool any = fv->views != NULL;
	pthread_mutex_unlock(&fv->lock);
	return any;
}

void run_views_free(struct run_views *fv)
{
	if (!fv)
		return;
	for (struct view *v = fv->views, *next; v; v = next) {
		next = v->next;
		nst_shared_free(v->shared);
		nst_ev_free(v->ev);
		free((char *)v->spec.nvtx);
		free(v);
	}
	pthread_mutex_destroy(&fv->lock);
	free(fv);
}
