/* The devices of two captures paired.  Device ids are a machine's
 * numbering, not the program's: rank 3 of a job on GPU 3 and rank 1 on
 * GPU 1, or one run on two machines, are the same work under two ids.
 * So by default a device pairs with the device of the other side that ran
 * the most of the same kernels (launches counted by name), and only
 * devices that share none fall back to their ids. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/big.h"
#include "core/strtab.h"
#include "diff/diff.h"
#include "reports/group.h"
#include "reports/kernel_names.h"

/* ---- the pairing ------------------------------------------------------------------ */

struct candidate {
	int64_t shared;     /* launches in common */
	bool same;          /* the same id */
	int64_t id[2];
	size_t dev[2];
};

/* Launches two devices have in common: the intersection of their
 * multisets (name keys ascending on both). */
static int64_t shared_launches(const struct diff_device_work *x, const struct diff_device_work *y)
{
	size_t i = 0, j = 0;
	int64_t n = 0;
	while (i < x->n && j < y->n) {
		if (x->name[i] < y->name[j]) {
			i++;
		} else if (x->name[i] > y->name[j]) {
			j++;
		} else {
			n += x->launches[i] < y->launches[j] ? x->launches[i] : y->launches[j];
			i++, j++;
		}
	}
	return n;
}

static int cmp_i64(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

static int better(const void *x, const void *y)
{
	const struct candidate *p = x, *q = y;
	if (p->shared != q->shared)
		return p->shared > q->shared ? -1 : 1;
	if (p->same != q->same)
		return p->same ? -1 : 1;
	int c = cmp_i64(p->id[0], q->id[0]);
	return c ? c : cmp_i64(p->id[1], q->id[1]);
}

static void pair_free_by_id(const struct diff_device_work *const dev[2], const size_t ndev[2],
			    int64_t *const partner[2])
{
	for (size_t i = 0; i < ndev[0]; i++)
		for (size_t j = 0; partner[0][i] < 0 && j < ndev[1]; j++)
			if (partner[1][j] < 0 && dev[0][i].id == dev[1][j].id) {
				partner[0][i] = (int64_t)j;
				partner[1][j] = (int64_t)i;
			}
}

enum nst_status diff_devices_pair(const struct diff_device_work *const dev[2],
				  const size_t ndev[2], int64_t *const partner[2],
				  struct nst_error *err)
{
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < ndev[s]; i++)
			partner[s][i] = -1;
	size_t m = 0;
	struct candidate *c = nst_big_alloc(ndev[0] * ndev[1], sizeof *c);
	if (!c)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < ndev[0]; i++)
		for (size_t j = 0; j < ndev[1]; j++) {
			int64_t n = shared_launches(&dev[0][i], &dev[1][j]);
			int64_t a = dev[0][i].id, b = dev[1][j].id;
			if (n > 0)
				c[m++] = (struct candidate){ n, a == b, { a, b }, { i, j } };
		}
	qsort(c, m, sizeof *c, better);
	for (size_t k = 0; k < m; k++)
		if (partner[0][c[k].dev[0]] < 0 && partner[1][c[k].dev[1]] < 0) {
			partner[0][c[k].dev[0]] = (int64_t)c[k].dev[1];
			partner[1][c[k].dev[1]] = (int64_t)c[k].dev[0];
		}
	free(c);
	pair_free_by_id(dev, ndev, partner);
	return NST_OK;
}

/* ---- what ran on each device of a side ------------------------------------------------ */

/* One side's kernels: launches by (device, name), read as StringIds ids
 * of its export, then given name keys shared with the other side and
 * sorted by (device, name key). */
struct side_work {
	size_t n;
	int64_t *device;
	int64_t *sid;
	uint32_t *name;
	int64_t *launches;
	struct nst_db *db;  /* the export whose ids sid holds */
};

static void side_work_release(struct side_work *w)
{
	free(w->device);
	free(w->sid);
	free(w->name);
	free(w->launches);
	memset(w, 0, sizeof *w);
}

static int device_then_name(uint32_t a, uint32_t b, void *arg)
{
	const struct side_work *w = arg;
	int c = cmp_i64(w->device[a], w->device[b]);
	return c ? c : (w->name[a] > w->name[b]) - (w->name[a] < w->name[b]);
}

/* The groups' entries sorted by (device, name key), entries of one key
 * added together (two StringIds of one text). */
static enum nst_status sort_work(struct side_work *w, struct nst_error *err)
{
	uint32_t *idx = nst_big_alloc(w->n, sizeof *idx);
	struct side_work s = { .db = w->db };
	s.device = nst_big_alloc(w->n, sizeof *s.device);
	s.name = nst_big_alloc(w->n, sizeof *s.name);
	s.launches = nst_big_alloc(w->n, sizeof *s.launches);
	if (!idx || !s.device || !s.name || !s.launches) {
		free(idx);
		side_work_release(&s);
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < w->n; i++)
		idx[i] = (uint32_t)i;
	nst_stable_sort(idx, w->n, device_then_name, w);
	for (size_t i = 0; i < w->n; i++) {
		uint32_t r = idx[i];
		if (s.n && s.device[s.n - 1] == w->device[r] && s.name[s.n - 1] == w->name[r]) {
			s.launches[s.n - 1] += w->launches[r];
			continue;
		}
		s.device[s.n] = w->device[r];
		s.name[s.n] = w->name[r];
		s.launches[s.n++] = w->launches[r];
	}
	free(idx);
	side_work_release(w);
	*w = s;
	return NST_OK;
}

/* The kernel groups of (device, name id) as entries of the side's work. */
static enum nst_status work_of_groups(const struct nst_col *device, const struct nst_col *name,
				      const struct nst_groups *g, struct side_work *w,
				      struct nst_error *err)
{
	w->device = nst_big_alloc(g->n, sizeof *w->device);
	w->sid = nst_big_alloc(g->n, sizeof *w->sid);
	w->name = nst_big_alloc(g->n, sizeof *w->name);
	w->launches = nst_big_alloc(g->n, sizeof *w->launches);
	if (!w->device || !w->sid || !w->name || !w->launches)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t k = 0; k < g->n; k++) {
		w->device[k] = nst_col_at(device, g->first[k]);
		w->sid[k] = nst_col_at(name, g->first[k]);
		w->launches[k] = (int64_t)(g->start[k + 1] - g->start[k]);
	}
	w->n = g->n;
	return NST_OK;
}

/* Each entry's name key: its text's in names, which both sides share. */
static enum nst_status name_keys(struct side_work *w, struct nst_strtab *names,
				 struct nst_error *err)
{
	for (size_t k = 0; k < w->n; k++) {
		const char *text = w->sid[k] == NST_NULL_I64 ? NULL : nst_db_string(w->db, w->sid[k]);
		int64_t key = nst_strtab_intern(names, text ? text : "");
		if (key < 0)
			return nst_fail(err, NST_ERR_NOMEM, "out of memory");
		w->name[k] = (uint32_t)key;
	}
	return NST_OK;
}

/* A column with no value: NULL on every row (no array, base NULL, step 0). */
static const struct nst_col all_null = { NULL, NULL, NST_NULL_I64, 0 };

/* One side's kernels grouped by (device, name id): on the side's own
 * thread (diff_both_sides), the costly part on a big capture. */
static enum nst_status load_work(struct nst_diff_ctx *d, int side, void *arg,
				 struct nst_error *err)
{
	struct side_work *w = (struct side_work *)arg + side;
	struct nst_ctx ctx;
	const struct nst_col *keys[2] = { NULL, NULL };
	size_t rows = 0;
	enum nst_status st = d->events(d, side, &ctx, err);
	if (st == NST_ERR_NODATA)
		return NST_OK; /* the filter's range is not on this side: no kernels */
	if (st == NST_OK)
		st = nst_ev_rows(ctx.ev, KERNEL, &rows, err);
	if (st != NST_OK || rows == 0)
		return st;
	w->db = ctx.db;
	st = nst_ev_col(ctx.ev, KERNEL, "deviceId", &keys[0], err);
	if (st == NST_OK)
		st = nst_kernel_name_ids(&ctx, diff_names_base(d) ? NST_KNAME_SHORT
								  : NST_KNAME_DEMANGLED, &keys[1], err);
	for (int k = 0; k < 2; k++)
		keys[k] = keys[k] ? keys[k] : &all_null;
	struct nst_groups g;
	if (st == NST_OK)
		st = nst_group_cols(keys, 2, NULL, rows, &g, err);
	if (st != NST_OK)
		return st;
	st = work_of_groups(keys[0], keys[1], &g, w, err);
	nst_groups_release(&g);
	return st;
}

/* ---- the rows of gpu_time_sum paired ------------------------------------------------- */

/* One side's devices, the rows of its table, with what ran on each. */
struct side_devices {
	struct diff_device_work *dev;
	int64_t *partner;
};

static int64_t device_of(const struct diff_table *t, int col, size_t row)
{
	const struct nst_cell *c = diff_cell(t, row, col);
	return c->kind == NST_INT ? c->v.i : NST_NULL_I64;
}

/* dev[r]: row r's device and, when w has entries, its kernels there. */
static void devices_of(const struct diff_table *t, int col, const struct side_work *w,
		       struct diff_device_work *dev)
{
	for (size_t r = 0; r < t->nrows; r++) {
		int64_t id = device_of(t, col, r);
		size_t i = 0;
		while (i < w->n && w->device[i] != id)
			i++;
		size_t j = i;
		while (j < w->n && w->device[j] == id)
			j++;
		dev[r] = j > i ? (struct diff_device_work){ id, w->name + i, w->launches + i, j - i }
			       : (struct diff_device_work){ id, NULL, NULL, 0 };
	}
}

static void print_device(char *p, size_t room, int64_t id, char side)
{
	if (id == NST_NULL_I64)
		snprintf(p, room, "device NULL (%c)", side);
	else
		snprintf(p, room, "device %lld (%c)", (long long)id, side);
}

static bool ids_differ(const struct diff_device_work *a, const int64_t *partner, size_t i,
		       const struct diff_device_work *b)
{
	return partner[i] >= 0 && a[i].id != b[partner[i]].id;
}

/* "Devices paired by the kernels they ran: device 3 (A) = device 1 (B)",
 * each pair of two ids, into *note; NULL when there is none. */
static enum nst_status pairing_note(struct nst_arena *arena, const struct diff_device_work *a,
				    const int64_t *partner, size_t na,
				    const struct diff_device_work *b, const char **note,
				    struct nst_error *err)
{
	size_t differ = 0;
	for (size_t i = 0; i < na; i++)
		differ += ids_differ(a, partner, i, b);
	*note = NULL;
	if (!differ)
		return NST_OK;
	char *s = nst_arena_alloc(arena, 64 + 80 * differ), *p = s;
	if (!s)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	p += sprintf(p, "Devices paired by the kernels they ran:");
	const char *sep = " ";
	for (size_t i = 0; i < na; i++) {
		if (!ids_differ(a, partner, i, b))
			continue;
		char x[40], y[40];
		print_device(x, sizeof x, a[i].id, 'A');
		print_device(y, sizeof y, b[partner[i]].id, 'B');
		p += sprintf(p, "%s%s = %s", sep, x, y);
		sep = ", ";
	}
	sprintf(p, "\n");
	*note = s;
	return NST_OK;
}

static enum nst_status pairs_of(const int64_t *const partner[2], const size_t nrows[2],
				struct diff_pair **out, size_t *n, struct nst_error *err)
{
	*out = malloc((nrows[0] + nrows[1] + 1) * sizeof **out);
	*n = 0;
	if (!*out)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < nrows[0]; i++)
		(*out)[(*n)++] = (struct diff_pair){ (int64_t)i, partner[0][i] };
	for (size_t j = 0; j < nrows[1]; j++)
		if (partner[1][j] < 0)
			(*out)[(*n)++] = (struct diff_pair){ -1, (int64_t)j };
	return NST_OK;
}

static enum nst_status load_both(struct nst_diff_ctx *d, struct side_work w[2],
				 struct nst_error *err)
{
	struct nst_strtab names = { 0 };
	enum nst_status st = diff_both_sides(d, load_work, w, err);
	for (int s = 0; st == NST_OK && s < 2; s++)
		st = name_keys(&w[s], &names, err);
	for (int s = 0; st == NST_OK && s < 2; s++)
		st = sort_work(&w[s], err);
	nst_strtab_release(&names);
	return st;
}

/* A side's devices: its table's rows, with what ran on each (nothing
 * under --devices id). */
static enum nst_status side_devices_of(const struct diff_table *t, const struct side_work *w,
				       struct side_devices *sd, struct nst_error *err)
{
	int col = diff_col(t, "Device");
	if (col < 0 && t->nrows)
		return nst_fail(err, NST_ERR_INTERNAL, "no column 'Device' to pair devices by");
	sd->dev = malloc((t->nrows + 1) * sizeof *sd->dev);
	sd->partner = malloc((t->nrows + 1) * sizeof *sd->partner);
	if (!sd->dev || !sd->partner)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	devices_of(t, col, w, sd->dev);
	return NST_OK;
}

enum nst_status diff_match_devices(struct nst_diff_ctx *d, const struct diff_table *a,
				   const struct diff_table *b, struct diff_pair **out,
				   size_t *n, const char **note, struct nst_error *err)
{
	struct side_work w[2];
	struct side_devices sd[2] = { { NULL, NULL }, { NULL, NULL } };
	memset(w, 0, sizeof w);
	*out = NULL;
	*n = 0;
	if (note)
		*note = NULL;
	enum nst_status st = diff_devices(d) == NST_DEVICES_AUTO ? load_both(d, w, err) : NST_OK;
	if (st == NST_OK)
		st = side_devices_of(a, &w[0], &sd[0], err);
	if (st == NST_OK)
		st = side_devices_of(b, &w[1], &sd[1], err);
	const struct diff_device_work *dev[2] = { sd[0].dev, sd[1].dev };
	int64_t *const partner[2] = { sd[0].partner, sd[1].partner };
	const size_t nrows[2] = { a->nrows, b->nrows };
	if (st == NST_OK)
		st = diff_devices_pair(dev, nrows, partner, err);
	if (st == NST_OK)
		st = pairs_of((const int64_t *const[2]){ partner[0], partner[1] }, nrows, out, n, err);
	if (st == NST_OK && note)
		st = pairing_note(d->arena, sd[0].dev, partner[0], a->nrows, sd[1].dev, note, err);
	for (int s = 0; s < 2; s++) {
		free(sd[s].dev);
		free(sd[s].partner);
		side_work_release(&w[s]);
	}
	return st;
}
