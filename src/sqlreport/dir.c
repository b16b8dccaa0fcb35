/* The reports of --report-dir: every NAME.sql of the directories, with
 * the title and help of its leading comment, and jobs of them. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "run/run.h"
#include "sqlreport/sqlreport.h"

/* Bigger is no report anyone writes by hand: refused rather than read. */
#define MAX_FILE (16u << 20)

struct nst_report_dir {
	struct sqlreport **r;
	size_t n;
	char **unsupported; /* DIR/NAME.py */
	size_t nunsupported;
};

static const char *const sql_args[] = { "start", "end", "nvtx", NULL };

/* -r splits on ',' and ':', and file names come from the name: letters,
 * digits, '_' and '-' only. */
static bool is_report_name(const char *s, size_t len)
{
	if (len == 0 || len > 128)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!(s[i] == '_' || s[i] == '-' || (s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
			return false;
	return true;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n > m && strcmp(s + n - m, suffix) == 0;
}

int sqlreport_line(const struct sqlreport *r, size_t offset)
{
	int line = 1;
	for (size_t i = 0; i < offset && r->sql[i]; i++)
		line += r->sql[i] == '\n';
	return line;
}

size_t sqlreport_skip_blank(const char *sql, size_t i)
{
	for (;;) {
		while (sql[i] == ' ' || sql[i] == '\t' || sql[i] == '\n' || sql[i] == '\r' ||
		       sql[i] == '\f' || sql[i] == '\v')
			i++;
		if (sql[i] == '-' && sql[i + 1] == '-') {
			while (sql[i] && sql[i] != '\n')
				i++;
		} else if (sql[i] == '/' && sql[i + 1] == '*') {
			const char *end = strstr(sql + i + 2, "*/");
			i = end ? (size_t)(end - sql) + 2 : strlen(sql);
		} else {
			return i;
		}
	}
}

void sqlreport_one_line(char *dst, size_t size, const char *src)
{
	size_t n = 0;
	for (; *src && n + 5 < size; src++) {
		unsigned char c = (unsigned char)*src;
		if (c == '\n')
			n += (size_t)snprintf(dst + n, size - n, "\\n");
		else if (c < 0x20 || c == 0x7f)
			n += (size_t)snprintf(dst + n, size - n, "\\x%02X", c);
		else
			dst[n++] = (char)c;
	}
	dst[n] = '\0';
}

/* ---- the leading comment ------------------------------------------------------ */

/* Appends line [p, p+len) to text, without its trailing blanks. */
static void add_line(char *text, size_t *n, const char *p, size_t len)
{
	while (len && (p[len - 1] == ' ' || p[len - 1] == '\t' || p[len - 1] == '\r'))
		len--;
	memcpy(text + *n, p, len);
	*n += len;
	text[(*n)++] = '\n';
	text[*n] = '\0';
}

/* The text of the comment sql starts with, one line a line: the "--"
 * lines up to the first line that is not one, or a block comment less
 * its " * " margins.  "" when sql starts with no comment. */
static char *comment_of(const char *sql)
{
	char *text = malloc(strlen(sql) + 2);
	size_t n = 0;
	if (!text)
		return NULL;
	text[0] = '\0';
	const char *p = sql + strspn(sql, " \t\r\n");
	if (p[0] == '-' && p[1] == '-') {
		for (;;) {
			p += strspn(p, " \t");
			if (p[0] != '-' || p[1] != '-')
				break;
			p += 2 + (p[2] == ' ');
			size_t len = strcspn(p, "\n");
			add_line(text, &n, p, len);
			p += len + (p[len] == '\n');
		}
	} else if (p[0] == '/' && p[1] == '*') {
		const char *end = strstr(p + 2, "*/");
		p += 2;
		end = end ? end : p + strlen(p);
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
			size_t skip = strspn(p, " \t");
			skip = skip > len ? len : skip;
			if (skip < len && p[skip] == '*')
				skip += 1 + (skip + 1 < len && p[skip + 1] == ' ');
			add_line(text, &n, p + skip, len - skip);
			p += len + (nl != NULL);
		}
	}
	return text;
}

/* Title: the comment's first line that is not blank (the name when there
 * is none); help: the lines after it, less blank ones at either end. */
static int set_title_help(struct sqlreport *r)
{
	char *c = comment_of(r->sql);
	if (!c)
		return -1;
	char *p = c + strspn(c, " \t\n");
	size_t len = strcspn(p, "\n");
	r->title = len ? strndup(p, len) : strdup(r->name);
	char *help = p + len;
	help += strspn(help, "\n");
	size_t hl = strlen(help);
	while (hl && (help[hl - 1] == '\n' || help[hl - 1] == ' '))
		hl--;
	r->help = strndup(help, hl);
	free(c);
	return r->title && r->help ? 0 : -1;
}

/* ---- one file ----------------------------------------------------------------- */

static void sqlreport_free(struct sqlreport *r)
{
	if (!r)
		return;
	free(r->name);
	free(r->path);
	free(r->title);
	free(r->help);
	free(r->sql);
	free(r);
}

static enum nst_status read_text(struct sqlreport *r, struct nst_error *err)
{
	struct stat st;
	FILE *f = NULL;
	if (stat(r->path, &st) != 0 || !(f = fopen(r->path, "rb"))) {
		if (f)
			fclose(f);
		return nst_fail(err, NST_ERR_DB, "%s: %s", r->path, strerror(errno));
	}
	enum nst_status s = NST_OK;
	if (!S_ISREG(st.st_mode))
		s = nst_fail(err, NST_ERR_USAGE, "%s: not a regular file", r->path);
	else if (st.st_size == 0)
		s = nst_fail(err, NST_ERR_USAGE, "%s: file is empty", r->path);
	else if ((unsigned long long)st.st_size > MAX_FILE)
		s = nst_fail(err, NST_ERR_USAGE, "%s: file is over 16 MiB: no report", r->path);
	else if (!(r->sql = malloc((size_t)st.st_size + 1)))
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	size_t got = s == NST_OK ? fread(r->sql, 1, (size_t)st.st_size, f) : 0;
	if (s == NST_OK && (ferror(f) || got != (size_t)st.st_size))
		s = nst_fail(err, NST_ERR_DB, "%s: %s", r->path,
			     ferror(f) ? strerror(errno) : "file changed while it was read");
	fclose(f);
	if (s == NST_OK) {
		r->sql[got] = '\0';
		if (strlen(r->sql) != got)
			s = nst_fail(err, NST_ERR_USAGE, "%s: not a text file (it holds a NUL byte)",
				     r->path);
	}
	return s;
}

static enum nst_status load_report(const char *dir, const char *file, struct sqlreport **out,
				   struct nst_error *err)
{
	struct sqlreport *r = calloc(1, sizeof *r);
	size_t len = strlen(file) - strlen(".sql");
	if (!r || !(r->name = strndup(file, len)) ||
	    !(r->path = malloc(strlen(dir) + strlen(file) + 2))) {
		sqlreport_free(r);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	sprintf(r->path, "%s%s%s", dir, ends_with(dir, "/") ? "" : "/", file);
	enum nst_status s = NST_OK;
	char shown[512];
	sqlreport_one_line(shown, sizeof shown, r->path);
	if (!is_report_name(file, len))
		s = nst_fail(err, NST_ERR_USAGE, "%s: not a report name (letters, digits, '_' and "
			     "'-' before .sql): rename the file", shown);
	else if (nst_report_find(r->name))
		s = nst_fail(err, NST_ERR_USAGE, "%s: a built-in report is named %s: rename the file",
			     r->path, r->name);
	if (s == NST_OK)
		s = read_text(r, err);
	if (s == NST_OK && set_title_help(r) != 0)
		s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
	if (s != NST_OK) {
		sqlreport_free(r);
		return s;
	}
	r->report = (struct nst_report){ .name = r->name, .title = r->title, .help = r->help,
					 .args = sql_args, .flags = NST_REPORT_ADDITION };
	*out = r;
	return NST_OK;
}

/* ---- the directories ------------------------------------------------------------ */

static struct sqlreport *find(const struct nst_report_dir *d, const char *name, size_t len)
{
	for (size_t i = 0; i < d->n; i++)
		if (strlen(d->r[i]->name) == len && strncmp(d->r[i]->name, name, len) == 0)
			return d->r[i];
	return NULL;
}

static enum nst_status add(struct nst_report_dir *d, struct sqlreport *r, struct nst_error *err)
{
	const struct sqlreport *other = find(d, r->name, strlen(r->name));
	if (other) {
		enum nst_status s = nst_fail(err, NST_ERR_USAGE, "%s: report %s is also %s",
					     r->path, r->name, other->path);
		sqlreport_free(r);
		return s;
	}
	struct sqlreport **p = realloc(d->r, (d->n + 1) * sizeof *p);
	if (!p) {
		sqlreport_free(r);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	d->r = p;
	d->r[d->n++] = r;
	return NST_OK;
}

static enum nst_status add_unsupported(struct nst_report_dir *d, const char *dir, const char *file,
				       struct nst_error *err)
{
	char **p = realloc(d->unsupported, (d->nunsupported + 1) * sizeof *p);
	char *path = malloc(strlen(dir) + strlen(file) + 2);
	if (!p || !path) {
		if (p)
			d->unsupported = p;
		free(path);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	sprintf(path, "%s%s%s", dir, ends_with(dir, "/") ? "" : "/", file);
	d->unsupported = p;
	d->unsupported[d->nunsupported++] = path;
	return NST_OK;
}

static int by_name(const void *a, const void *b)
{
	return strcmp((*(struct sqlreport *const *)a)->name, (*(struct sqlreport *const *)b)->name);
}

static int by_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Files in readdir order would make which error comes first depend on
 * the file system: names are sorted first. */
static enum nst_status list_dir(const char *dir, char ***names, size_t *n, struct nst_error *err)
{
	DIR *dp = opendir(dir);
	if (!dp)
		return nst_fail(err, NST_ERR_DB, "%s: %s", dir, strerror(errno));
	struct dirent *e;
	enum nst_status s = NST_OK;
	while (s == NST_OK && (e = readdir(dp))) {
		if (e->d_name[0] == '.' || !(ends_with(e->d_name, ".sql") || ends_with(e->d_name, ".py")))
			continue;
		char **p = realloc(*names, (*n + 1) * sizeof *p);
		if (p)
			*names = p;
		if (!p || !(p[*n] = strdup(e->d_name)))
			s = nst_fail(err, NST_ERR_NOMEM, "out of memory");
		else
			++*n;
	}
	closedir(dp);
	if (s == NST_OK && *n > 1) /* none: names is NULL, which qsort may not take */
		qsort(*names, *n, sizeof **names, by_path);
	return s;
}

static enum nst_status read_dir(struct nst_report_dir *d, const char *dir, struct nst_error *err)
{
	char **names = NULL;
	size_t n = 0;
	enum nst_status s = list_dir(dir, &names, &n, err);
	for (size_t i = 0; i < n; i++) {
		struct sqlreport *r = NULL;
		if (s == NST_OK && ends_with(names[i], ".sql")) {
			s = load_report(dir, names[i], &r, err);
			if (s == NST_OK)
				s = add(d, r, err);
		} else if (s == NST_OK)
			s = add_unsupported(d, dir, names[i], err);
		free(names[i]);
	}
	free(names);
	return s;
}

enum nst_status nst_report_dir_open(const char *const *dirs, size_t n,
				    struct nst_report_dir **out, struct nst_error *err)
{
	*out = NULL;
	struct nst_report_dir *d = calloc(1, sizeof *d);
	if (!d)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	enum nst_status s = NST_OK;
	for (size_t i = 0; s == NST_OK && i < n; i++)
		s = read_dir(d, dirs[i], err);
	if (s != NST_OK) {
		nst_report_dir_close(d);
		return s;
	}
	if (d->n > 1)
		qsort(d->r, d->n, sizeof *d->r, by_name);
	*out = d;
	return NST_OK;
}

void nst_report_dir_close(struct nst_report_dir *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++)
		sqlreport_free(d->r[i]);
	for (size_t i = 0; i < d->nunsupported; i++)
		free(d->unsupported[i]);
	free(d->r);
	free(d->unsupported);
	free(d);
}

bool nst_report_dir_entry(const struct nst_report_dir *d, size_t i, struct nst_about *out,
			  const char **path)
{
	if (!d || i >= d->n)
		return false;
	const struct sqlreport *r = d->r[i];
	*out = (struct nst_about){ .name = r->name, .title = r->title, .help = r->help,
				   .args = sql_args, .addition = true };
	if (path)
		*path = r->path;
	return true;
}

const char *nst_report_dir_unsupported(const struct nst_report_dir *d, size_t i)
{
	return d && i < d->nunsupported ? d->unsupported[i] : NULL;
}

/* NAME.py among the files nstats does not run. */
static const char *script_named(const struct nst_report_dir *d, const char *name, size_t len)
{
	for (size_t i = 0; i < d->nunsupported; i++) {
		const char *p = d->unsupported[i], *slash = strrchr(p, '/');
		const char *base = slash ? slash + 1 : p;
		if (strncmp(base, name, len) == 0 && strcmp(base + len, ".py") == 0)
			return p;
	}
	return NULL;
}

enum nst_status nst_report_dir_job(const struct nst_report_dir *d, const char *spec,
				   struct nst_job **out, struct nst_error *err)
{
	*out = NULL;
	size_t len = strcspn(spec, ":");
	struct sqlreport *r = d ? find(d, spec, len) : NULL;
	const char *script = d && !r ? script_named(d, spec, len) : NULL;
	if (script)
		return nst_fail(err, NST_ERR_USAGE, "%s: only .sql reports are supported (nstats "
				"cannot run nsys's Python report scripts)", script);
	if (!r)
		return NST_OK;
	enum nst_status s = run_job_new(NST_REPORTS, &r->report, spec, out, err);
	if (s == NST_OK)
		(*out)->sql = r;
	return s;
}
