/* `nstats recipe` under mpirun, in nstats-mpi only: libmpi's start-up
 * would cost every other command of nstats.  MPI rank r of n reads inputs
 * r, r+n, ...; every group of values goes to the one rank that owns it
 * (nst_merge_take's hash), which reduces it to rows; the rows come
 * together on rank 0, which writes.  Nothing here decides a number: the
 * output is that of -j 1.
 *
 * A merge that never got a part sends no bytes at all rather than an
 * empty part, whose way of telling ranks apart would be the default and
 * could clash with the real parts' (--ranks input). */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/recipe.h"

/* MPI counts are int: a buffer travels in pieces of at most 1 GiB
 * (-DPIECE=4096 makes every part a few pieces, to test them). */
#ifndef PIECE
#define PIECE ((uint64_t)1 << 30)
#endif

enum { TAG_GROUPS = 1, TAG_ROWS = 2 };

struct world {
	int rank, n;
};

/* What this rank sends to and receives from each rank: malloc'd bytes,
 * NULL and 0 when none. */
struct flow {
	char **out, **in;
	uint64_t *outlen, *inlen;
};

/* ---- what cannot go on ---------------------------------------------------------------- */

/* One line, and mpirun ends every rank: the others would wait forever
 * for this one's bytes. */
static _Noreturn void fatal(const struct nst_error *err)
{
	cli_error("%s", err->msg);
	fflush(stderr);
	MPI_Abort(MPI_COMM_WORLD, exit_of(err->status));
	exit(exit_of(err->status));
}

static void check(enum nst_status s, const struct nst_error *err)
{
	if (s != NST_OK)
		fatal(err);
}

static void *alloc(size_t n)
{
	void *p = calloc(n ? n : 1, 1);
	if (!p) {
		struct nst_error err;
		nst_fail(&err, NST_ERR_NOMEM, "recipe: out of memory (MPI rank's buffers)");
		fatal(&err);
	}
	return p;
}

/* ---- bytes between ranks ------------------------------------------------------------------ */

static struct flow flow_new(int n)
{
	size_t k = (size_t)n;
	return (struct flow){ alloc(k * sizeof(char *)), alloc(k * sizeof(char *)),
			      alloc(k * sizeof(uint64_t)), alloc(k * sizeof(uint64_t)) };
}

static void flow_free(struct flow *f, int n)
{
	for (int r = 0; r < n; r++) {
		free(f->out[r]);
		free(f->in[r]);
	}
	free(f->out);
	free(f->in);
	free(f->outlen);
	free(f->inlen);
	*f = (struct flow){ 0 };
}

static int pieces(uint64_t len)
{
	return (int)((len + PIECE - 1) / PIECE);
}

/* Posts one buffer's pieces in order: messages of one sender and tag
 * arrive in the order they were sent, so the receiver's pieces match. */
static void post(char *buf, uint64_t len, int peer, int tag, bool send, MPI_Request *req,
		 int *nreq)
{
	for (uint64_t at = 0; at < len; at += PIECE) {
		int count = (int)(len - at < PIECE ? len - at : PIECE);
		if (send)
			MPI_Isend(buf + at, count, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &req[(*nreq)++]);
		else
			MPI_Irecv(buf + at, count, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &req[(*nreq)++]);
	}
}

/* Moves f->out[r] to rank r and fills f->in from f->inlen, whose sizes
 * the senders already told; this rank's own bytes are handed over, not
 * sent. */
static void move(const struct world *w, struct flow *f, int tag)
{
	f->in[w->rank] = f->out[w->rank];
	f->inlen[w->rank] = f->outlen[w->rank];
	f->out[w->rank] = NULL;
	f->outlen[w->rank] = 0;
	size_t total = 0;
	for (int r = 0; r < w->n; r++) {
		total += (size_t)pieces(f->outlen[r]);
		if (r != w->rank)
			total += (size_t)pieces(f->inlen[r]);
	}
	MPI_Request *req = alloc(total * sizeof *req);
	int nreq = 0;
	for (int r = 0; r < w->n; r++)
		if (r != w->rank && f->inlen[r]) {
			f->in[r] = alloc(f->inlen[r]);
			post(f->in[r], f->inlen[r], r, tag, false, req, &nreq);
		}
	for (int r = 0; r < w->n; r++)
		post(f->out[r], f->outlen[r], r, tag, true, req, &nreq);
	MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
	free(req);
	for (int r = 0; r < w->n; r++) {
		free(f->out[r]);
		f->out[r] = NULL;
	}
}

/* ---- merges as bytes ---------------------------------------------------------------------- */

/* The part that `owner` of `owners` gets from m, as bytes; none when m
 * never got a part. */
static void take_bytes(struct nst_merge *m, bool any, size_t owner, size_t owners, char **buf,
		       uint64_t *len)
{
	*buf = NULL;
	*len = 0;
	if (!any)
		return;
	struct nst_part *part = NULL;
	struct nst_error err = { 0 };
	void *b = NULL;
	size_t n = 0;
	check(nst_merge_take(m, owner, owners, &part, &err), &err);
	enum nst_status s = nst_part_save(part, &b, &n, &err);
	nst_part_free(part);
	check(s, &err);
	*buf = b;
	*len = n;
}

/* Every rank's bytes in f->in merged into m, in rank order; true when
 * there were some. */
static bool merge_in(const struct world *w, struct flow *f, struct nst_merge *m)
{
	bool any = false;
	for (int r = 0; r < w->n; r++) {
		if (!f->inlen[r])
			continue;
		struct nst_part *part = NULL;
		struct nst_error err = { 0 };
		check(nst_part_load(f->in[r], f->inlen[r], &part, &err), &err);
		free(f->in[r]);
		f->in[r] = NULL;
		check(nst_merge_add(m, part, &err), &err);
		any = true;
	}
	return any;
}

static struct nst_merge *merge_new(const struct recipe_plan *p)
{
	struct nst_merge *m = NULL;
	struct nst_error err = { 0 };
	check(nst_merge_new(p->job, &m, &err), &err);
	return m;
}

/* ---- the three steps ------------------------------------------------------------------------ */

/* This rank's inputs into m; a broken one is one line and counts in
 * *failed.  True when some input was read. */
static bool read_mine(const struct recipe_plan *p, const struct world *w, struct nst_merge *m,
		      size_t *failed)
{
	bool any = false;
	for (size_t i = (size_t)w->rank; i < p->ninputs; i += (size_t)w->n) {
		struct nst_part *part = NULL;
		struct nst_error err = { 0 };
		if (recipe_read_input(p, i, &part, &err) != NST_OK) {
			cli_error("%s", err.msg);
			++*failed;
			continue;
		}
		check(nst_merge_add(m, part, &err), &err);
		any = true;
	}
	return any;
}

/* Every group of every rank sent to its owner, here merged into owned;
 * true when owned got a part.  Frees mine as soon as its bytes are
 * taken, so that its values are held once while they travel. */
static bool to_owners(const struct world *w, struct nst_merge *mine, bool any,
		      struct nst_merge *owned)
{
	struct flow f = flow_new(w->n);
	for (int o = 0; o < w->n; o++)
		take_bytes(mine, any, (size_t)o, (size_t)w->n, &f.out[o], &f.outlen[o]);
	nst_merge_free(mine);
	MPI_Alltoall(f.outlen, 1, MPI_UINT64_T, f.inlen, 1, MPI_UINT64_T, MPI_COMM_WORLD);
	move(w, &f, TAG_GROUPS);
	bool got = merge_in(w, &f, owned);
	flow_free(&f, w->n);
	return got;
}

/* The rows of the groups owned here, and their ranks, merged into m on
 * rank 0.  Frees owned once its rows are bytes. */
static void to_writer(const struct world *w, struct nst_merge *owned, bool any,
		      struct nst_merge *m)
{
	struct nst_error err = { 0 };
	check(nst_merge_reduce(owned, &err), &err);
	struct flow f = flow_new(w->n);
	take_bytes(owned, any, 0, 1, &f.out[0], &f.outlen[0]);
	nst_merge_free(owned);
	MPI_Gather(&f.outlen[0], 1, MPI_UINT64_T, f.inlen, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	if (w->rank != 0)
		memset(f.inlen, 0, (size_t)w->n * sizeof *f.inlen);
	move(w, &f, TAG_ROWS);
	if (w->rank == 0)
		merge_in(w, &f, m);
	flow_free(&f, w->n);
}

int recipe_mpi(const struct recipe_plan *p, char **argv, struct nst_merge *m, size_t *failed,
	       bool *writer)
{
	(void)argv;
	struct world w;
	MPI_Init(NULL, NULL);
	MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &w.n);
	struct nst_merge *mine = merge_new(p), *owned = merge_new(p);
	size_t bad = 0;
	bool any = read_mine(p, &w, mine, &bad);
	bool got = to_owners(&w, mine, any, owned);
	to_writer(&w, owned, got, m);
	unsigned long long here = bad, all = 0;
	MPI_Reduce(&here, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
	MPI_Finalize();
	*failed = (size_t)all; /* 0 but on the writer: see recipe.h */
	*writer = w.rank == 0;
	return 0;
}
