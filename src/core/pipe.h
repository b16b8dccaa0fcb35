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

/* Batches in all: one filling, one handed over, one being consumed. */
#define NST_PIPE_BATCHES 3

/* Consumes batch (drop: empties it unused, after a failure) and leaves it
 * empty, to be filled again. */
typedef enum nst_status (*nst_pipe_consume_fn)(void *self, void *batch, bool drop,
					       struct nst_error *err);

struct nst_pipe {
	nst_pipe_consume_fn consume;
	void *self;
	size_t size, made;              /* a batch's bytes; batches made */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	bool inited, running, quit, busy;
	void *pending;                  /* given, not yet taken */
	void *spare[NST_PIPE_BATCHES];  /* consumed, to fill again */
	size_t nspare;
	enum nst_status status;         /* the consumer's first failure */
	struct nst_error err;
};

/* Starts the consumer's thread when it can; batches are size bytes,
 * zero when made. */
void nst_pipe_start(struct nst_pipe *p, size_t size, nst_pipe_consume_fn consume, void *self);
/* An empty batch to fill: one consumed, else a new one while fewer than
 * NST_PIPE_BATCHES are made, else the next one consumed, waited for; NULL
 * when out of memory. */
void *nst_pipe_empty(struct nst_pipe *p);
/* Hands batch over (waiting while another is pending); the consumer's
 * failure, if it had one. */
enum nst_status nst_pipe_give(struct nst_pipe *p, void *batch, struct nst_error *err);
/* The consumer's failure so far. */
enum nst_status nst_pipe_failure(struct nst_pipe *p, struct nst_error *err);
/* Every batch given consumed and the thread stopped; the consumer's failure. */
enum nst_status nst_pipe_end(struct nst_pipe *p, struct nst_error *err);
/* Stops the thread, dropping what was not consumed, and frees each batch
 * the pipe holds with free_batch; the one the producer is filling is the
 * producer's to free. */
void nst_pipe_release(struct nst_pipe *p, void (*free_batch)(void *batch));

#endif
