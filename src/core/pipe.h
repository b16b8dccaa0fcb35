/* Batches handed from one thread to a consumer on a thread of its own, so
 * that filling the next batch runs beside consuming the last: the trace
 * reader's inserts (input/memdb.c), the Perfetto writer's packing
 * (trace/perfetto.c).  Batches are consumed in the order given.  The
 * consumer's first failure is kept and returned to the producer at its next
 * hand-over; later batches are then dropped, not consumed.  Where no thread
 * can be started, a batch is consumed on the producer's thread as it is
 * given. */
#ifndef NSTATS_CORE_PIPE_H
#define NSTATS_CORE_PIPE_H

#include <pthread.h>
#include <stdbool.h>

#include "nstats/nstats.h"

#define NST_PIPE_SPARES 4

/* Consumes batch (drop: empties it unused, after a failure) and leaves it
 * empty, to be filled again. */
typedef enum nst_status (*nst_pipe_consume_fn)(void *self, void *batch, bool drop,
					       struct nst_error *err);

struct nst_pipe {
	nst_pipe_consume_fn consume;
	void *self;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	bool inited, running, quit, busy;
	void *pending;                  /* given, not yet taken */
	void *spare[NST_PIPE_SPARES];   /* consumed, to fill again */
	size_t nspare;
	enum nst_status status;         /* the consumer's first failure */
	struct nst_error err;
};

/* Starts the consumer's thread when it can. */
void nst_pipe_start(struct nst_pipe *p, nst_pipe_consume_fn consume, void *self);
/* Hands batch over (waiting while another is pending); the consumer's
 * failure, if it had one. */
enum nst_status nst_pipe_give(struct nst_pipe *p, void *batch, struct nst_error *err);
/* A consumed batch to fill again, waiting for one when wait and a batch is
 * still with the consumer; NULL when none is back. */
void *nst_pipe_spare(struct nst_pipe *p, bool wait);
/* The consumer's failure so far. */
enum nst_status nst_pipe_failure(struct nst_pipe *p, struct nst_error *err);
/* Every batch given consumed and the thread stopped; the consumer's failure. */
enum nst_status nst_pipe_end(struct nst_pipe *p, struct nst_error *err);
/* Stops the thread, dropping what was not consumed, and frees each batch
 * the pipe holds with free_batch. */
void nst_pipe_release(struct nst_pipe *p, void (*free_batch)(void *batch));

#endif
