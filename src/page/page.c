/* nst_page_write: the document around the sections, and the one load of
 * every table the sections read (nst_export_load) before the first runs.
 * The page asks for nothing over the network: its Content-Security-Policy
 * forbids every fetch, its style and the few lines of script that sort
 * the tables are inline, and the charts are SVG drawn here. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "page/page.h"

static const char csp[] =
	"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
	"img-src data:";

static const char style[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:0 auto;max-width:1240px;padding:0 16px;"
	"color:#222;background:#fff}\n"
	"h1{font-size:22px;margin:16px 0 4px}h2{font-size:18px;margin:28px 0 4px;"
	"border-bottom:1px solid #ccc}\n"
	"p.from,p.more,p.sub,p.legend{color:#555;font-size:12px;margin:2px 0 8px}p.absent{color:#555;"
	"font-style:italic}\n"
	".scroll{overflow-x:auto;max-width:100%}table.rows{border-collapse:collapse;font-size:12px;"
	"line-height:1.4;margin:4px 0}\n"
	"table.rows th,table.rows td{padding:2px 6px;border-bottom:1px solid #eee;text-align:right;"
	"white-space:nowrap}\n"
	"table.rows th{white-space:normal;min-width:4em}\n"
	"table.rows td.name{text-align:left;white-space:normal;min-width:160px;max-width:420px}\n"
	"table.rows td.name .nm{display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:3;"
	"line-clamp:3;overflow:hidden;overflow-wrap:anywhere;word-break:break-all}\n"
	"table.rows th{cursor:pointer;background:#f4f4f4}figure{margin:8px 0}\n"
	"svg text{font:11px system-ui,sans-serif;fill:#222}svg text.ct{font-size:13px;"
	"font-weight:600}\n"
	"svg .axis line{stroke:#555}svg line.whisker{stroke:#222}svg line.p99{stroke:#222;"
	"stroke-width:2}\n"
	"ul.found li{margin:2px 0}.found b{color:#D55E00}\n";

/* Sorting by a header's column, numbers by their exact value: a page
 * without scripts reads the same, unsorted. */
static const char script[] =
	"document.querySelectorAll('table.rows th').forEach(function(th){\n"
	"th.addEventListener('click',function(){var t=th.closest('table'),b=t.tBodies[0],\n"
	"i=Array.prototype.indexOf.call(th.parentNode.children,th),d=th.dataset.d=="
	"'1'?-1:1;th.dataset.d=d>0?'1':'0';\n"
	"var rows=Array.prototype.slice.call(b.rows);rows.sort(function(x,y){\n"
	"var a=x.cells[i].dataset.v,c=y.cells[i].dataset.v,na=parseFloat(a),nc=parseFloat(c);\n"
	"if(!isNaN(na)&&!isNaN(nc))return d*(na-nc);return d*String(a).localeCompare(c);});\n"
	"rows.forEach(function(r){b.appendChild(r);});});});\n";

/* The filter, as the reports under it would be asked for. */
static void filter_said(struct page *p)
{
	const struct nst_filter *f = p->filter;
	if (!f || !(f->has_start || f->has_end || f->nvtx))
		return;
	page_raw(p->out, ", under a filter: only what overlaps ");
	if (f->nvtx) {
		page_raw(p->out, "the NVTX range <code>");
		page_escz(p->out, f->nvtx);
		page_raw(p->out, "</code>");
	} else {
		page_raw(p->out, "the time from ");
		page_raw(p->out, f->has_start ? "%lld ns" : "the start", (long long)f->start);
		page_raw(p->out, " to ");
		page_raw(p->out, f->has_end && f->end != INT64_MAX ? "%lld ns" : "the end",
			 (long long)f->end);
	}
	page_raw(p->out, " (the numbers are those of the reports under the same filter)");
}

static void head(struct page *p, const struct nst_page_options *o)
{
	page_raw(p->out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		 "<meta http-equiv=\"Content-Security-Policy\" content=\"%s\">\n"
		 "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		 "<meta name=\"generator\" content=\"nstats %s\">\n<title>", csp, NSTATS_VERSION);
	if (o && o->title)
		page_escz(p->out, o->title);
	else
		page_escz(p->out, p->names[0]);
	page_raw(p->out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", style);
	if (o && o->title)
		page_escz(p->out, o->title);
	else
		page_raw(p->out, "%s", p->n == 1 ? "nstats report" : p->n == 2 ? "nstats report: two "
			 "captures compared" : "nstats report: ranks of a job");
	page_raw(p->out, "</h1>\n<p class=\"sub\">Made by nstats %s from ", NSTATS_VERSION);
	for (size_t i = 0; i < p->n; i++) {
		page_raw(p->out, "%s<code>", i ? (i + 1 == p->n ? " and " : ", ") : "");
		page_escz(p->out, p->names[i]);
		page_raw(p->out, "</code>");
	}
	filter_said(p);
	page_raw(p->out, ". Hover over a chart for its numbers; click a column to sort.</p>\n");
}

static void tail(struct page *p)
{
	page_raw(p->out, "<script>\n%s</script>\n</body>\n</html>\n", script);
}

static bool applies(const struct page_section *s, size_t n)
{
	enum page_inputs k = n == 1 ? PAGE_ONE : n == 2 ? PAGE_TWO : PAGE_MANY;
	return (s->when & k) != 0;
}

/* The jobs of the sections that apply: "rule:NAME" a rule, "diff:NAME" a
 * comparison, else a report. */
static enum nst_status parse_loads(size_t n, bool diffs, struct nst_job **jobs, size_t *njobs,
				   size_t cap, struct nst_error *err)
{
	for (size_t i = 0; i < page_nsections; i++) {
		const struct page_section *s = &page_sections[i];
		for (size_t k = 0; applies(s, n) && s->loads && s->loads[k]; k++) {
			const char *spec = s->loads[k];
			enum nst_catalog c = NST_REPORTS;
			if (strncmp(spec, "rule:", 5) == 0)
				c = NST_RULES, spec += 5;
			else if (strncmp(spec, "diff:", 5) == 0)
				c = NST_DIFFS, spec += 5;
			if ((c == NST_DIFFS) != diffs)
				continue;
			if (*njobs == cap)
				return nst_fail(err, NST_ERR_INTERNAL, "too many reports on the page");
			enum nst_status st = nst_job_parse(c, spec, &jobs[*njobs], err);
			if (st != NST_OK)
				return st;
			++*njobs;
		}
	}
	return NST_OK;
}

/* Every table the sections read, once per input. */
static enum nst_status load(struct page *p, struct nst_error *err)
{
	struct nst_job *jobs[64];
	size_t n = 0;
	enum nst_status s = parse_loads(p->n, false, jobs, &n, 64, err);
	if (s == NST_OK && p->n == 2)
		s = parse_loads(p->n, true, jobs, &n, 64, err);
	for (size_t i = 0; s == NST_OK && i < p->n; i++) {
		s = nst_audit_want(p->xs[i], err);
		if (s == NST_OK)
			s = nst_export_load(p->xs[i], p->filter, jobs, n, err);
	}
	for (size_t i = 0; i < n; i++)
		nst_job_free(jobs[i]);
	return s;
}

/* ---- the sections, on as many threads as the export allows -------------- */

/* One section, written to memory: sections run at once and land on the
 * page in order.  Each starts from the page as the document has it. */
struct section_job {
	const struct page *page;
	const struct page_section *s;
	char *html;
	size_t len;
	enum nst_status status;
	struct nst_error err;
};

static void write_section(struct section_job *j)
{
	FILE *mem = open_memstream(&j->html, &j->len);
	if (!mem) {
		j->status = nst_fail(&j->err, NST_ERR_NOMEM, "out of memory");
		return;
	}
	struct page p = *j->page;
	p.out = mem;
	struct nst_export *x = p.xs[0];
	double t0 = 0;
	if (nst_export_timed(x)) {
		char line[96];
		snprintf(line, sizeof line, "began section %s", j->s->id);
		nst_export_timing(x, line);
		t0 = nst_seconds();
	}
	j->status = j->s->write(&p, &j->err);
	if (nst_export_timed(x)) {
		char line[96];
		snprintf(line, sizeof line, "wrote section %s in %.6f s", j->s->id, nst_seconds() - t0);
		nst_export_timing(x, line);
	}
	if (ferror(mem) && j->status == NST_OK)
		j->status = nst_fail(&j->err, NST_ERR_NOMEM, "out of memory writing the page");
	if (fclose(mem) != 0 && j->status == NST_OK)
		j->status = nst_fail(&j->err, NST_ERR_NOMEM, "out of memory writing the page");
}

/* The jobs, taken in turn by each thread, the costliest first (ties in
 * page order), but never a big one while another big one runs: the thread
 * takes the next that is not big, or waits for the big one to end.  None
 * is taken once one has failed, as the page is lost. */
struct section_queue {
	struct section_job **order; /* NULL once taken */
	size_t n, left;
	bool failed, big_running, two;
	pthread_mutex_t lock;
	pthread_cond_t big_done;
};

static struct section_job *take_allowed(struct section_queue *q)
{
	for (size_t i = 0; i < q->n; i++) {
		struct section_job *j = q->order[i];
		if (!j || (j->s->big && q->big_running))
			continue;
		q->order[i] = NULL;
		q->left--;
		q->big_running = q->big_running || j->s->big;
		return j;
	}
	return NULL;
}

static struct section_job *next_job(struct section_queue *q, struct section_job *done)
{
	if (done && done->status != NST_OK)
		q->failed = true;
	if (done && done->s->big) {
		q->big_running = false;
		if (q->two)
			pthread_cond_broadcast(&q->big_done);
	}
	for (;;) {
		if (q->failed || q->left == 0)
			return NULL;
		struct section_job *j = take_allowed(q);
		if (j)
			return j;
		pthread_cond_wait(&q->big_done, &q->lock); /* only big ones left, one running */
	}
}

static void *take_sections(void *arg)
{
	struct section_queue *q = arg;
	struct section_job *j = NULL;
	for (;;) {
		pthread_mutex_lock(&q->lock);
		j = next_job(q, j);
		pthread_mutex_unlock(&q->lock);
		if (!j)
			return NULL;
		write_section(j);
	}
}

static bool start_helper(struct section_queue *q, pthread_t *helper)
{
	if (pthread_mutex_init(&q->lock, NULL) != 0)
		return false;
	if (pthread_cond_init(&q->big_done, NULL) != 0) {
		pthread_mutex_destroy(&q->lock);
		return false;
	}
	q->two = true;
	if (pthread_create(helper, NULL, take_sections, q) == 0)
		return true;
	pthread_cond_destroy(&q->big_done);
	pthread_mutex_destroy(&q->lock);
	q->two = false;
	return false;
}

static enum nst_status run_sections(struct section_job *jobs, size_t n, int threads,
				    struct nst_error *err)
{
	struct section_queue q = { .order = malloc((n ? n : 1) * sizeof *q.order), .left = n };
	if (!q.order)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		size_t at = q.n++;
		for (; at > 0 && q.order[at - 1]->s->cost < jobs[i].s->cost; at--)
			q.order[at] = q.order[at - 1];
		q.order[at] = &jobs[i];
	}
	pthread_t helper;
	if (!(threads > 1 && n > 1 && start_helper(&q, &helper))) {
		for (struct section_job *j = next_job(&q, NULL); j; j = next_job(&q, j))
			write_section(j);
	} else {
		take_sections(&q);
		pthread_join(helper, NULL);
		pthread_cond_destroy(&q.big_done);
		pthread_mutex_destroy(&q.lock);
	}
	free(q.order);
	return NST_OK;
}

/* The sections that apply, in page order; the first failure is the page's. */
static enum nst_status sections(struct page *p, struct nst_error *err)
{
	struct section_job *jobs = calloc(page_nsections, sizeof *jobs);
	if (!jobs)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	size_t n = 0;
	for (size_t i = 0; i < page_nsections; i++)
		if (applies(&page_sections[i], p->n))
			jobs[n++] = (struct section_job){ .page = p, .s = &page_sections[i] };
	enum nst_status s = run_sections(jobs, n, nst_export_threads(p->xs[0]), err);
	for (size_t i = 0; i < n; i++) {
		if (s == NST_OK && jobs[i].status != NST_OK)
			s = (*err = jobs[i].err, jobs[i].status);
		if (s == NST_OK && jobs[i].len)
			fwrite(jobs[i].html, 1, jobs[i].len, p->out);
		free(jobs[i].html);
	}
	free(jobs);
	return s;
}

enum nst_status nst_page_write(struct nst_export *const *xs, size_t n,
			       const struct nst_page_options *o, FILE *out, struct nst_error *err)
{
	if (n == 0)
		return nst_fail(err, NST_ERR_USAGE, "a page needs at least one export");
	const char **names = malloc(n * sizeof *names);
	if (!names)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		names[i] = o && o->names && o->names[i] ? o->names[i] : nst_export_path(xs[i]);
	struct page p = {
		.out = out, .xs = xs, .n = n, .names = names, .section = "page",
		.top = o && o->top ? o->top : 10, .filter = o ? o->filter : NULL,
	};
	enum nst_status s = load(&p, err);
	if (s == NST_OK)
		head(&p, o);
	if (s == NST_OK)
		s = sections(&p, err);
	if (s == NST_OK)
		tail(&p);
	free(names);
	if (s == NST_OK && ferror(out))
		s = nst_fail(err, NST_ERR_IO, "cannot write the page");
	return s;
}
