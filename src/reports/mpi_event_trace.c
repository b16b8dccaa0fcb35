/* mpi_event_trace: every MPI event in time order, with its process,
 * thread and MPI rank, and the tag, peer, root and sizes of the kinds of
 * event that have them. */
#include <stdlib.h>

#include "reports/mpi.h"
#include "core/search.h"

/* The event tables, in the order nsys lists events that start together. */
enum mpi_kind { KIND_P2P, KIND_START_WAIT, KIND_OTHER, KIND_COLL, NKINDS };

static const char *const kind_table[NKINDS] = {
	MPI_P2P, MPI_START_WAIT, MPI_OTHER, MPI_COLL,
};

/* One table's columns; those a kind lacks stay NULL. */
struct mpi_cols {
	size_t n;
	const int64_t *start, *end, *gtid, *text;
	const int64_t *tag, *peer, *size;       /* p2p */
	const int64_t *root, *send, *recv;      /* collectives */
};

struct rank_of {
	int64_t gtid, rank;
};

/* MPI_RANKS sorted by thread, then rank: a thread listed twice gives each
 * event one row per rank, in rank order, as nsys's join does. */
struct rank_index {
	struct rank_of *r;
	size_t n;
};

struct trace {
	struct mpi_cols t[NKINDS];
	struct rank_index ranks;
	int64_t *start;     /* of each event, for sorting */
	uint8_t *kind;
	uint32_t *row, *order;
	size_t n;
};

static enum nst_status col(struct nst_ctx *ctx, const char *table, const char *name,
			   const int64_t **out, struct nst_error *err)
{
	return nst_ev_i64(ctx->ev, table, name, out, err);
}

static enum nst_status load_kind(struct nst_ctx *ctx, enum mpi_kind k, struct mpi_cols *c,
				 struct nst_error *err)
{
	const char *t = kind_table[k];
	*c = (struct mpi_cols){ 0 };
	if (!nst_db_has_table(ctx->db, t))
		return NST_OK;
	enum nst_status s = nst_ev_rows(ctx->ev, t, &c->n, err);
	if (!s) s = col(ctx, t, "start", &c->start, err);
	if (!s) s = col(ctx, t, "end", &c->end, err);
	if (!s) s = col(ctx, t, "globalTid", &c->gtid, err);
	if (!s) s = col(ctx, t, "textId", &c->text, err);
	if (!s && k == KIND_P2P) {
		s = col(ctx, t, "tag", &c->tag, err);
		if (!s) s = col(ctx, t, "remoteRank", &c->peer, err);
		if (!s) s = col(ctx, t, "size", &c->size, err);
	}
	if (!s && k == KIND_COLL) {
		s = col(ctx, t, "rootRank", &c->root, err);
		if (!s) s = col(ctx, t, "size", &c->send, err);
		if (!s) s = col(ctx, t, "recvSize", &c->recv, err);
	}
	if (s == NST_OK && c->n && !c->start)
		return nst_fail(err, NST_ERR_DB, "%s: %s lacks start", nst_db_path(ctx->db), t);
	return s;
}

static int cmp_rank(const void *pa, const void *pb)
{
	const struct rank_of *a = pa, *b = pb;
	if (a->gtid != b->gtid)
		return a->gtid < b->gtid ? -1 : 1;
	return (a->rank > b->rank) - (a->rank < b->rank);
}

/* Without MPI_RANKS nsys stops with an error; nstats shows no rank
 * (docs/deviations.md, D30). */
static enum nst_status load_ranks(struct nst_ctx *ctx, struct rank_index *ri,
				  struct nst_error *err)
{
	size_t n;
	const int64_t *gtid, *rank;
	*ri = (struct rank_index){ 0 };
	enum nst_status s = nst_ev_rows(ctx->ev, MPI_RANKS, &n, err);
	if (!s) s = col(ctx, MPI_RANKS, "globalTid", &gtid, err);
	if (!s) s = col(ctx, MPI_RANKS, "rank", &rank, err);
	if (s != NST_OK || n == 0 || !gtid || !rank)
		return s;
	ri->r = malloc(n * sizeof *ri->r);
	if (!ri->r)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		if (gtid[i] != NST_NULL_I64)
			ri->r[ri->n++] = (struct rank_of){ gtid[i], rank[i] };
	qsort(ri->r, ri->n, sizeof *ri->r, cmp_rank);
	return NST_OK;
}

/* The first entry of thread gtid, and how many there are. */
static size_t ranks_of(const struct rank_index *ri, int64_t gtid, size_t *count)
{
	size_t lo = nst_lower_bound(ri->r, ri->n, sizeof *ri->r, offsetof(struct rank_of, gtid), gtid);
	size_t end = lo;
	while (end < ri->n && ri->r[end].gtid == gtid)
		end++;
	*count = gtid == NST_NULL_I64 ? 0 : end - lo;
	return lo;
}

static void trace_free(struct trace *tr)
{
	free(tr->ranks.r);
	free(tr->start);
	free(tr->kind);
	free(tr->row);
	free(tr->order);
}

/* Every event of every table, ordered by start; events that start
 * together keep table order, then row order. */
static enum nst_status order_events(struct trace *tr, struct nst_error *err)
{
	size_t n = 0;
	for (int k = 0; k < NKINDS; k++)
		n += tr->t[k].n;
	size_t m = n ? n : 1;
	tr->start = malloc(m * sizeof *tr->start);
	tr->kind = malloc(m * sizeof *tr->kind);
	tr->row = malloc(m * sizeof *tr->row);
	tr->order = malloc(m * sizeof *tr->order);
	if (!tr->start || !tr->kind || !tr->row || !tr->order)
		return nst_fail(err, NST_ERR_NOMEM, "out of memory");
	size_t i = 0;
	for (int k = 0; k < NKINDS; k++)
		for (size_t r = 0; r < tr->t[k].n; r++, i++) {
			tr->start[i] = tr->t[k].start[r];
			tr->kind[i] = (uint8_t)k;
			tr->row[i] = (uint32_t)r;
			tr->order[i] = (uint32_t)i;
		}
	tr->n = n;
	return nst_sort_by_key(tr->order, n, tr->start, err);
}

static struct nst_cell opt(const int64_t *c, uint32_t row)
{
	return c ? nst_int_or_null(c[row]) : nst_null();
}

static enum nst_status emit_event(struct nst_ctx *ctx, const struct nst_sink *out,
				  const struct trace *tr, size_t i, struct nst_error *err)
{
	enum nst_status s;
	const struct mpi_cols *c = &tr->t[tr->kind[i]];
	uint32_t r = tr->row[i];
	int64_t start = c->start[r], end = c->end ? c->end[r] : NST_NULL_I64;
	int64_t gtid = c->gtid ? c->gtid[r] : NST_NULL_I64;
	int64_t text = c->text ? c->text[r] : NST_NULL_I64;
	bool timed = end != NST_NULL_I64;
	struct nst_cell cells[13] = {
		nst_int(start),
		timed ? nst_int(end) : nst_null(),
		timed ? nst_int(end - start) : nst_null(),
		nst_text(text == NST_NULL_I64 ? NULL : nst_db_string(ctx->db, text)),
		gtid == NST_NULL_I64 ? nst_null() : nst_int(nst_pid(gtid)),
		gtid == NST_NULL_I64 ? nst_null() : nst_int(nst_tid(gtid)),
		opt(c->tag, r), nst_null(), opt(c->peer, r), opt(c->root, r),
		opt(c->size, r), opt(c->send, r), opt(c->recv, r),
	};
	size_t count, first = ranks_of(&tr->ranks, gtid, &count);
	for (size_t k = 0; k < (count ? count : 1); k++) {
		cells[7] = count ? nst_int(tr->ranks.r[first + k].rank) : nst_null();
		if ((s = out->row(out->ctx, cells, err)) != NST_OK)
			return s;
	}
	return NST_OK;
}

static enum nst_status emit(struct nst_ctx *ctx, const struct nst_sink *out,
			    const struct trace *tr, struct nst_error *err)
{
	static const char *const cols[] = {
		"Start:ts_ns", "End:ts_ns", "Duration:dur_ns", "Event", "Pid", "Tid",
		"Tag", "Rank", "PeerRank", "RootRank", "Size:mem_B",
		"CollSendSize:mem_B", "CollRecvSize:mem_B",
	};
	enum nst_status s = out->begin(out->ctx, cols, sizeof cols / sizeof *cols, err);
	for (size_t i = 0; s == NST_OK && i < tr->n; i++)
		s = emit_event(ctx, out, tr, tr->order[i], err);
	return s;
}

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	struct trace tr = { 0 };
	enum nst_status s = nst_mpi_check(ctx, err);
	if (!s) s = nst_db_load_strings(ctx->db, err);
	for (int k = 0; s == NST_OK && k < NKINDS; k++)
		s = load_kind(ctx, (enum mpi_kind)k, &tr.t[k], err);
	if (!s) s = load_ranks(ctx, &tr.ranks, err);
	if (!s) s = order_events(&tr, err);
	if (!s) s = emit(ctx, out, &tr, err);
	trace_free(&tr);
	return s;
}

#define BASE_NEEDS(t)                                                     \
	{ t, "start", false }, { t, "end", false }, { t, "globalTid", false }, \
	{ t, "textId", false }

static const struct nst_need needs[] = {
	BASE_NEEDS(MPI_P2P),
	{ MPI_P2P, "tag", false }, { MPI_P2P, "remoteRank", false }, { MPI_P2P, "size", false },
	BASE_NEEDS(MPI_START_WAIT),
	BASE_NEEDS(MPI_OTHER),
	BASE_NEEDS(MPI_COLL),
	{ MPI_COLL, "rootRank", false }, { MPI_COLL, "size", false },
	{ MPI_COLL, "recvSize", false },
	{ MPI_RANKS, "globalTid", false }, { MPI_RANKS, "rank", false },
	{ NULL, NULL, false },
};

const struct nst_report nst_report_mpi_event_trace = {
	.name = "mpi_event_trace",
	.title = "MPI Event Trace",
	.help = "Every MPI event in start order: its start, end and duration, the\n"
		"function, the process and thread that made it and its MPI rank;\n"
		"for point-to-point events the tag, the peer rank and the message\n"
		"size, for collectives the root rank and the sizes sent and\n"
		"received. An MPI_Sendrecv whose two halves differ shows as two\n"
		"rows. Without an MPI_RANKS table the Rank column is empty (nsys\n"
		"stops with an error).",
	.args = (const char *const[]){ NULL },
	.needs = needs,
	.run = run,
	.flags = NST_REPORT_CHECKS_AFTER_FILTER | NST_REPORT_EVENT_ROWS,
};
