/* A table's rows read straight from the file's b-tree pages, in rowid
 * order, as SQLite's file format document describes them
 * (https://www.sqlite.org/fileformat2.html: the database header, table
 * b-tree pages, cells, records and serial types).  SQLite's virtual
 * machine decodes every cell through its general machinery; the tables
 * of an export are plain leaf pages of plain records, which this reads a
 * page at a time.
 *
 * Only what it fully understands: a rollback-journal database (no WAL) of
 * one file in UTF-8, a rowid table without generated columns; a record
 * too long for its page is gathered from its overflow pages (long kernel
 * names in StringIds).  Anything else, or a page that breaks a rule of the
 * format, answers NST_PAGES_UNSUPPORTED and the caller reads the table
 * through SQLite, which says what is wrong in its own words.  The file is
 * only read (pread), never mapped, so that its pages stay out of our
 * resident memory. */
#define _DEFAULT_SOURCE

#include <endian.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/db_int.h"

enum { MAX_DEPTH = 32, LEAF = 0x0D, INTERIOR = 0x05, SLACK = 8 };

struct file {
	int fd;
	size_t page_size, usable;
	uint64_t npages;
};

/* Where each requested column is in a record: its index among the stored
 * columns, or -1 for the rowid. */
struct layout {
	int *field;
	size_t n;
	int max_field;      /* the largest field index asked for, -1 when none */
	bool short_is_null; /* a record without a field reads NULL (no DEFAULT) */
};

/* ---- the file ------------------------------------------------------------------- */

static uint32_t be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }
static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static bool read_page(const struct file *f, uint64_t page, uint8_t *buf)
{
	if (page < 1 || page > f->npages)
		return false;
	off_t at = (off_t)((page - 1) * f->page_size);
	size_t done = 0;
	while (done < f->page_size) {
		ssize_t r = pread(f->fd, buf + done, f->page_size - done, at + (off_t)done);
		if (r <= 0)
			return false;
		done += (size_t)r;
	}
	return true;
}

/* The header's promises: the format, a page size, no WAL, a file of
 * whole pages. */
static bool open_file(const char *path, struct file *f)
{
	uint8_t h[100];
	struct stat st;
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		return false;
	/* a table's leaves lie mostly in file order: a wide readahead when the
	 * file is not in the page cache */
	posix_fadvise(f->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	if (fstat(f->fd, &st) != 0 || pread(f->fd, h, sizeof h, 0) != (ssize_t)sizeof h ||
	    memcmp(h, "SQLite format 3", 16) != 0 || h[18] != 1 || h[19] != 1 ||
	    be32(h + 56) != 1 /* text in UTF-8 */)
		goto refuse;
	f->page_size = be16(h + 16) == 1 ? 65536 : be16(h + 16);
	if (f->page_size < 512 || f->page_size > 65536 || (f->page_size & (f->page_size - 1)))
		goto refuse;
	f->usable = f->page_size - h[20];
	if (f->usable < 480 || st.st_size <= 0 || (uint64_t)st.st_size % f->page_size)
		goto refuse;
	f->npages = (uint64_t)st.st_size / f->page_size;
	/* the header's own page count, when it vouches for it, bounds the pages */
	if (be32(h + 92) == be32(h + 24) && be32(h + 28) && be32(h + 28) < f->npages)
		f->npages = be32(h + 28);
	return true;
refuse:
	close(f->fd);
	return false;
}

/* ---- varints, serial types, values ---------------------------------------------- */

/* A varint at p (at most end - p bytes); its length, or 0 when cut off. */
static inline size_t varint(const uint8_t *p, const uint8_t *end, uint64_t *v)
{
	if (p < end && p[0] < 0x80) { /* serial types of integers, small sizes */
		*v = p[0];
		return 1;
	}
	uint64_t x = 0;
	for (size_t i = 0; i < 8; i++) {
		if (p + i >= end)
			return 0;
		x = x << 7 | (p[i] & 0x7f);
		if (!(p[i] & 0x80)) {
			*v = x;
			return i + 1;
		}
	}
	if (p + 8 >= end)
		return 0;
	*v = x << 8 | p[8];
	return 9;
}

/* Bytes of a value of each serial type a header byte holds alone (below
 * 128); STOP for 10 and 11, which no value has, and for a byte that
 * starts a longer varint: decode leaves both to type_size and varint. */
enum { STOP = 0x80 };
#define SZ(t) ((t) < 5 ? (t) : (t) == 5 ? 6 : (t) < 8 ? 8 : (t) < 10 ? 0 : (t) < 12 ? STOP \
		: (t) < 128 ? ((t) - 12) / 2 : STOP)
#define SZ8(t) SZ(t), SZ(t + 1), SZ(t + 2), SZ(t + 3), SZ(t + 4), SZ(t + 5), SZ(t + 6), SZ(t + 7)
#define SZ64(t) SZ8(t), SZ8(t + 8), SZ8(t + 16), SZ8(t + 24), SZ8(t + 32), SZ8(t + 40), \
		SZ8(t + 48), SZ8(t + 56)
static const uint8_t ONE_BYTE_SIZE[256] = { SZ64(0), SZ64(64), SZ64(128), SZ64(192) };

/* Bytes of a value of serial type t; false for the reserved types. */
static inline bool type_size(uint64_t t, uint64_t *size)
{
	if (t == 10 || t == 11)
		return false;
	*size = t < 12 ? ONE_BYTE_SIZE[t] : (t - 12) / 2;
	return true;
}

/* A big-endian 8-byte load at p: the page buffers end in SLACK bytes,
 * so it serves values of every size. */
static uint64_t load_be64(const uint8_t *p)
{
	uint64_t u;
	memcpy(&u, p, sizeof u);
	return be64toh(u);
}

static void value_of(uint64_t t, const uint8_t *p, struct nst_page_cell *c)
{
	/* Serial types 1-6, a big-endian integer of 1, 2, 3, 4, 6 or 8 bytes,
	 * first: nearly every cell of an export holds one.  An arithmetic
	 * shift drops the bytes past it and extends the sign. */
	if (t - 1 < 6) {
		int64_t i = (int64_t)load_be64(p) >> (64 - 8 * ONE_BYTE_SIZE[t]);
		*c = (struct nst_page_cell){ .kind = NST_CELL_INT, .i = i };
	} else if (t == 0) {
		c->kind = NST_CELL_NULL;
	} else if (t == 8 || t == 9) {
		*c = (struct nst_page_cell){ .kind = NST_CELL_INT, .i = (int64_t)t - 8 };
	} else if (t >= 13 && t % 2) {
		*c = (struct nst_page_cell){ .kind = NST_CELL_TEXT, .s = (const char *)p,
					     .n = (size_t)(t - 13) / 2 };
	} else if (t == 7) {
		uint64_t u = load_be64(p);
		double d;
		memcpy(&d, &u, sizeof d);
		*c = (struct nst_page_cell){ .kind = NST_CELL_REAL, .r = d };
	} else {
		c->kind = NST_CELL_OTHER;
	}
}

/* The cells of one record: payload[0..n) holds it all (no overflow).
 * Where each field's value starts is kept as its offset in the body,
 * checked against the body once all are known. */
static bool decode(const struct layout *lay, const uint8_t *payload, uint64_t n, int64_t rowid,
		   struct nst_page_cell *cells, uint64_t *types, uint32_t *at)
{
	uint64_t hsize, t, size;
	size_t k = varint(payload, payload + n, &hsize);
	if (!k || hsize < k || hsize > n)
		return false;
	const uint8_t *h = payload + k, *hend = payload + hsize, *body = hend;
	uint64_t room = n - hsize, off = 0;
	/* Types of one byte each (every integer and any short text): a field a
	 * byte; sizes below 64, so the sum of a header's cannot wrap. */
	int nf = 0, want = lay->max_field + 1;
	ptrdiff_t bytes = hend - h;
	for (int quick = want < bytes ? want : (int)bytes; nf < quick; nf++) {
		unsigned sz = ONE_BYTE_SIZE[h[nf]];
		if (sz & STOP)
			break;
		types[nf] = h[nf];
		at[nf] = (uint32_t)off;
		off += sz;
	}
	if (off > room)
		return false;
	for (h += nf; nf < want && h < hend; nf++) {
		size_t len = varint(h, hend, &t);
		if (!len || !type_size(t, &size) || size > room - off)
			return false;
		types[nf] = t;
		at[nf] = (uint32_t)off;
		h += len;
		off += size;
	}
	for (size_t c = 0; c < lay->n; c++) {
		int f = lay->field[c];
		if (f < 0)
			cells[c] = (struct nst_page_cell){ .kind = NST_CELL_INT, .i = rowid };
		else if (f < nf)
			value_of(types[f], body + at[f], &cells[c]);
		else if (lay->short_is_null)
			cells[c].kind = NST_CELL_NULL;
		else
			return false;
	}
	return true;
}

/* ---- the b-tree -------------------------------------------------------------------- */

struct walk {
	const struct file *f;
	const struct layout *lay;
	nst_page_row_fn fn;
	void *arg;
	uint8_t *buf[MAX_DEPTH]; /* one page per level */
	uint8_t *spill;          /* a record gathered from overflow pages */
	size_t spill_cap;
	uint8_t *overflow;       /* an overflow page */
	struct nst_page_cell *cells;
	uint64_t *types;
	uint32_t *at;
	uint64_t visited;
	bool any;        /* a row was read, or the part has a lower bound: last */
	int64_t last;
	bool has_hi;     /* a part's rows end at hi */
	int64_t hi;
};

/* The page's header (after the file header on page 1) and its cell
 * count, checked against the page. */
static const uint8_t *page_header(const struct file *f, uint64_t page, const uint8_t *buf,
				  size_t *ncells, int *type)
{
	const uint8_t *h = buf + (page == 1 ? 100 : 0);
	*type = h[0];
	size_t hlen = *type == INTERIOR ? 12 : 8;
	*ncells = be16(h + 3);
	if ((*type != INTERIOR && *type != LEAF) ||
	    (size_t)(h - buf) + hlen + 2 * *ncells > f->usable)
		return NULL;
	return h;
}

/* Child i of the interior page in buf (header h, ncells cells; child
 * ncells is the right-most), and where its cell's rowid key starts (NULL
 * for the right-most, which has no cell); false when the cell lies
 * outside the page. */
static bool child_of(const struct file *f, const uint8_t *buf, const uint8_t *h, size_t ncells,
		     size_t i, uint32_t *child, const uint8_t **key)
{
	if (i == ncells) {
		*child = be32(h + 8);
		*key = NULL;
		return true;
	}
	uint32_t off = be16(h + 12 + 2 * i);
	if (off < 12 || off + 4 > f->usable)
		return false;
	*child = be32(buf + off);
	*key = buf + off + 4;
	return true;
}

/* The bytes of a table leaf's record of `size` bytes kept on its page
 * (the format's rule: all of it up to usable - 35, else a share that
 * leaves the rest whole overflow pages). */
static uint64_t local_bytes(const struct file *f, uint64_t size)
{
	uint64_t u = f->usable, x = u - 35, m = (u - 12) * 32 / 255 - 23;
	uint64_t k = m + (size - m) % (u - 4);
	return size <= x ? size : k <= x ? k : m;
}

/* The record at payload (its page ends at end) gathered into w->spill
 * from the chain of overflow pages after its local bytes; NULL when the
 * chain breaks a rule: a page out of the file, more pages than the file
 * holds, a record longer than the file, a last page that names a next. */
static const uint8_t *gather(struct walk *w, const uint8_t *payload, const uint8_t *end,
			     uint64_t size)
{
	const struct file *f = w->f;
	uint64_t local = local_bytes(f, size);
	if (size > f->npages * f->usable || local + 4 > (uint64_t)(end - payload))
		return NULL;
	if (w->spill_cap < size + SLACK) {
		uint8_t *spill = realloc(w->spill, size + SLACK);
		if (!spill)
			return NULL;
		w->spill = spill;
		w->spill_cap = size + SLACK;
	}
	if (!w->overflow && !(w->overflow = malloc(f->page_size + SLACK)))
		return NULL;
	memcpy(w->spill, payload, local);
	memset(w->spill + size, 0, SLACK);
	uint64_t done = local;
	uint32_t next = be32(payload + local);
	while (done < size) {
		if (next < 2 || ++w->visited > f->npages || !read_page(f, next, w->overflow))
			return NULL;
		uint64_t chunk = size - done < f->usable - 4 ? size - done : f->usable - 4;
		memcpy(w->spill + done, w->overflow + 4, chunk);
		done += chunk;
		next = be32(w->overflow);
	}
	/* the chain's last page ends it: one that goes on loops or is damaged */
	return next == 0 ? w->spill : NULL;
}

static int leaf(struct walk *w, const uint8_t *buf, const uint8_t *h, size_t ncells)
{
	const uint8_t *end = buf + w->f->usable;
	for (size_t i = 0; i < ncells; i++) {
		uint32_t off = be16(h + 8 + 2 * i);
		uint64_t size, rowid;
		if (off < 8 || off >= w->f->usable)
			return NST_PAGES_UNSUPPORTED;
		const uint8_t *p = buf + off;
		size_t a = varint(p, end, &size), b = a ? varint(p + a, end, &rowid) : 0;
		const uint8_t *payload = p + a + b;
		/* a payload longer than usable - 35 spills onto overflow pages */
		if (b && size > w->f->usable - 35)
			payload = gather(w, payload, end, size);
		else if (b && size > (uint64_t)(end - payload))
			payload = NULL;
		if (!b || !payload)
			return NST_PAGES_UNSUPPORTED;
		/* rowids ascend through a table's leaves: one that does not is a
		 * damaged tree */
		if ((w->any && (int64_t)rowid <= w->last) || (w->has_hi && (int64_t)rowid > w->hi) ||
		    !decode(w->lay, payload, size, (int64_t)rowid, w->cells, w->types, w->at))
			return NST_PAGES_UNSUPPORTED;
		w->any = true;
		w->last = (int64_t)rowid;
		int rc = w->fn(w->arg, w->cells);
		if (rc)
			return rc;
	}
	return NST_PAGES_OK;
}

/* The subtree at page, depth levels down, in rowid order. */
static int descend(struct walk *w, uint64_t page, int depth)
{
	if (depth >= MAX_DEPTH || ++w->visited > w->f->npages)
		return NST_PAGES_UNSUPPORTED;
	/* a buffer a level, allocated as the walk first reaches it: most
	 * tables of an export are a leaf or two */
	if (!w->buf[depth] && !(w->buf[depth] = calloc(1, w->f->page_size + SLACK)))
		return NST_PAGES_UNSUPPORTED;
	uint8_t *buf = w->buf[depth];
	size_t ncells;
	int type;
	const uint8_t *h;
	if (!read_page(w->f, page, buf) || !(h = page_header(w->f, page, buf, &ncells, &type)))
		return NST_PAGES_UNSUPPORTED;
	if (type == LEAF)
		return leaf(w, buf, h, ncells);
	for (size_t i = 0; i <= ncells; i++) {
		uint32_t child;
		const uint8_t *key;
		if (!child_of(w->f, buf, h, ncells, i, &child, &key))
			return NST_PAGES_UNSUPPORTED;
		int rc = descend(w, child, depth + 1);
		if (rc)
			return rc;
		/* the deeper levels reused their buffers: this one is intact */
	}
	return NST_PAGES_OK;
}

/* ---- the table's place and columns, from the schema -------------------------------- */

/* Each column's field, from the stored columns in declaration order; an
 * INTEGER PRIMARY KEY is the rowid itself. */
static bool lay_out(const struct db_table *t, const char *const *cols, struct layout *lay)
{
	int stored = 0;
	lay->short_is_null = true;
	lay->max_field = -1;
	for (size_t c = 0; c < lay->n; c++)
		lay->field[c] = strcmp(cols[c], "rowid") == 0 ? -1 : -2;
	for (size_t i = 0; i < t->ncols; i++) {
		const struct db_column *col = &t->cols[i];
		if (col->hidden) /* a generated or hidden column: not read here */
			return false;
		lay->short_is_null = lay->short_is_null && col->no_default;
		for (size_t c = 0; c < lay->n; c++) {
			if (strcmp(cols[c], col->name) != 0)
				continue;
			lay->field[c] = col->rowid ? -1 : stored;
			if (!col->rowid && stored > lay->max_field)
				lay->max_field = stored;
		}
		stored++;
	}
	for (size_t c = 0; c < lay->n; c++)
		if (lay->field[c] == -2)
			return false;
	return stored > 0;
}

/* The layout of cols in table and the file, ready to walk; false when
 * the pages are not read here. */
static bool open_table(struct nst_db *db, const char *table, const char *const *cols, size_t n,
		       struct layout *lay, struct file *f, const struct db_table **t)
{
	*lay = (struct layout){ .field = malloc((n ? n : 1) * sizeof *lay->field), .n = n };
	f->fd = -1;
	*t = db->uri ? nst_db_probed_table(db, table) : NULL;
	if (lay->field && *t && (*t)->root > 0 && (*t)->complete && lay_out(*t, cols, lay) &&
	    open_file(db->path, f))
		return true;
	free(lay->field);
	return false;
}

/* The subtrees pages[0..npages), `depth` levels down, in rowid order. */
static int scan_trees(struct nst_db *db, const char *table, const char *const *cols, size_t n,
		      const uint32_t *pages, size_t npages, int depth,
		      const struct nst_page_part *bounds, nst_page_row_fn fn, void *arg)
{
	struct layout lay;
	struct file f;
	const struct db_table *t;
	if (!open_table(db, table, cols, n, &lay, &f, &t))
		return NST_PAGES_UNSUPPORTED;
	size_t nf = (size_t)lay.max_field + 1;
	struct walk w = {
		.f = &f, .lay = &lay, .fn = fn, .arg = arg,
		.cells = malloc((n ? n : 1) * sizeof *w.cells),
		.types = malloc((nf ? nf : 1) * sizeof *w.types),
		.at = malloc((nf ? nf : 1) * sizeof *w.at),
	};
	if (bounds) {
		w.any = bounds->has_lo;
		w.last = bounds->lo;
		w.has_hi = bounds->has_hi;
		w.hi = bounds->hi;
	}
	int rc = w.cells && w.types && w.at ? NST_PAGES_OK : NST_PAGES_UNSUPPORTED;
	for (size_t i = 0; rc == NST_PAGES_OK && i < npages; i++)
		rc = descend(&w, pages ? pages[i] : (uint64_t)t->root, depth);
	for (int d = 0; d < MAX_DEPTH; d++)
		free(w.buf[d]);
	free(w.spill);
	free(w.overflow);
	free(w.cells);
	free(w.types);
	free(w.at);
	free(lay.field);
	close(f.fd);
	return rc;
}

int nst_db_scan_pages(struct nst_db *db, const char *table, const char *const *cols, size_t n,
		      nst_page_row_fn fn, void *arg)
{
	return scan_trees(db, table, cols, n, NULL, 1, 0, NULL, fn, arg);
}

int nst_db_scan_part(struct nst_db *db, const char *table, const char *const *cols, size_t n,
		     const struct nst_page_plan *plan, size_t k, nst_page_row_fn fn, void *arg)
{
	if (k >= plan->nparts)
		return NST_PAGES_UNSUPPORTED;
	const struct nst_page_part *p = &plan->parts[k];
	return scan_trees(db, table, cols, n, plan->pages + p->first, p->n, plan->depth, p, fn,
			  arg);
}

/* ---- a table cut into parts ------------------------------------------------------- */

/* One level of subtrees: their pages and the greatest rowid each may hold
 * (none for the rightmost). */
struct subtree {
	uint32_t page;
	bool bounded;
	int64_t bound;
};

struct level {
	struct subtree *t;
	size_t n, cap;
};

static void level_free(struct level *l)
{
	free(l->t);
	*l = (struct level){ 0 };
}

/* One more subtree; its bound must be above the one before it. */
static bool level_add(struct level *l, uint32_t page, bool bounded, int64_t bound)
{
	const struct subtree *last = l->n ? &l->t[l->n - 1] : NULL;
	if (last && (!last->bounded || (bounded && bound <= last->bound)))
		return false;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct subtree *t = realloc(l->t, cap * sizeof *t);
		if (!t)
			return false;
		l->t = t;
		l->cap = cap;
	}
	l->t[l->n++] = (struct subtree){ page, bounded, bound };
	return true;
}

/* The children of interior page `page` (bounded by the parent's bound)
 * appended to next; 0 when the page is a leaf, -1 when it breaks a rule. */
static int expand(const struct file *f, uint32_t page, uint8_t *buf, bool bounded, int64_t bound,
		  struct level *next)
{
	size_t ncells;
	int type;
	const uint8_t *h;
	if (!read_page(f, page, buf) || !(h = page_header(f, page, buf, &ncells, &type)))
		return -1;
	if (type == LEAF)
		return 0;
	for (size_t i = 0; i <= ncells; i++) {
		uint32_t child;
		const uint8_t *key;
		uint64_t k = 0;
		if (!child_of(f, buf, h, ncells, i, &child, &key) ||
		    (key && (!varint(key, buf + f->usable, &k) || (bounded && (int64_t)k > bound))))
			return -1;
		/* the right-most child keeps the parent's bound */
		if (!level_add(next, child, key || bounded, key ? (int64_t)k : bound))
			return -1;
	}
	return 1;
}

/* The subtrees of the first level below the root that has at least
 * `want` of them, or the leaves' parents' when none has. */
static int plan_level(const struct file *f, uint32_t root, size_t want, struct level *out,
		      int *depth)
{
	uint8_t *buf = calloc(1, f->page_size + SLACK);
	struct level cur = { 0 };
	int rc = buf && level_add(&cur, root, false, 0) ? NST_PAGES_OK : NST_PAGES_UNSUPPORTED;
	*depth = 0;
	while (rc == NST_PAGES_OK && cur.n < want && *depth < MAX_DEPTH - 1) {
		struct level next = { 0 };
		int got = 1;
		for (size_t i = 0; got == 1 && i < cur.n; i++)
			got = expand(f, cur.t[i].page, buf, cur.t[i].bounded, cur.t[i].bound, &next);
		if (got == 1) {
			level_free(&cur);
			cur = next;
			++*depth;
			continue;
		}
		level_free(&next);
		if (got < 0)
			rc = NST_PAGES_UNSUPPORTED;
		break; /* leaves: cur is as deep as it goes */
	}
	free(buf);
	*out = cur;
	return rc;
}

int nst_db_plan_pages(struct nst_db *db, const char *table, size_t parts,
		      struct nst_page_plan *plan)
{
	*plan = (struct nst_page_plan){ 0 };
	struct layout lay;
	struct file f;
	const struct db_table *t;
	if (parts < 1 || !open_table(db, table, NULL, 0, &lay, &f, &t))
		return NST_PAGES_UNSUPPORTED;
	free(lay.field);
	/* a few subtrees a part, so that the parts come out about even */
	struct level l = { 0 };
	int rc = t->root <= UINT32_MAX ? plan_level(&f, (uint32_t)t->root, 4 * parts, &l, &plan->depth)
				       : NST_PAGES_UNSUPPORTED;
	close(f.fd);
	if (rc != NST_PAGES_OK) {
		level_free(&l);
		return rc;
	}
	plan->nparts = parts < l.n ? parts : l.n;
	plan->parts = calloc(plan->nparts, sizeof *plan->parts);
	plan->pages = malloc(l.n * sizeof *plan->pages);
	for (size_t i = 0; plan->pages && i < l.n; i++)
		plan->pages[i] = l.t[i].page;
	for (size_t k = 0; plan->parts && k < plan->nparts; k++) {
		size_t first = k * l.n / plan->nparts, end = (k + 1) * l.n / plan->nparts;
		plan->parts[k] = (struct nst_page_part){
			.first = first, .n = end - first,
			.has_lo = first > 0, .lo = first > 0 ? l.t[first - 1].bound : 0,
			.has_hi = l.t[end - 1].bounded, .hi = l.t[end - 1].bound,
		};
	}
	level_free(&l);
	if (!plan->parts || !plan->pages) {
		nst_page_plan_free(plan);
		return NST_PAGES_UNSUPPORTED;
	}
	return NST_PAGES_OK;
}

void nst_page_plan_free(struct nst_page_plan *plan)
{
	free(plan->pages);
	free(plan->parts);
	*plan = (struct nst_page_plan){ 0 };
}
