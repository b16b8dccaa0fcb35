/* Batches handed to a consumer thread (pipe.h). */
#include <stdlib.h>

#include "core/pipe.h"

static void keep_failure(struct nst_pipe *p, enum nst_status s, const struct nst_error *err)
{
	if (s != NST_OK && p->status == NST_OK) {
		p->status = s;
		p->err = *err;
	}
}

static enum nst_status failure(const struct nst_pipe *p, struct nst_error *err)
{
	if (p->status != NST_OK && err)
		*err = p->err;
	return p->status;
}

/* Under the lock. */
static void put_spare(struct nst_pipe *p, void *batch)
{
	if (p->nspare < NST_PIPE_BATCHES)
		p->spare[p->nspare++] = batch;
}

static void *consumer_main(void *arg)
{
	struct nst_pipe *p = arg;
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->pending && !p->quit)
			pthread_cond_wait(&p->changed, &p->lock);
		if (!p->pending)
			break;
		void *b = p->pending;
		p->pending = NULL;
		p->busy = true;
		bool drop = p->status != NST_OK;
		pthread_cond_broadcast(&p->changed);
		pthread_mutex_unlock(&p->lock);
		struct nst_error err = { 0 };
		enum nst_status s = p->consume(p->self, b, drop, &err);
		pthread_mutex_lock(&p->lock);
		keep_failure(p, s, &err);
		put_spare(p, b);
		p->busy = false;
		pthread_cond_broadcast(&p->changed);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

void nst_pipe_start(struct nst_pipe *p, size_t size, nst_pipe_consume_fn consume, void *self)
{
	*p = (struct nst_pipe){ .consume = consume, .self = self, .size = size };
	if (pthread_mutex_init(&p->lock, NULL) != 0)
		return;
	if (pthread_cond_init(&p->changed, NULL) != 0) {
		pthread_mutex_destroy(&p->lock);
		return;
	}
	p->inited = true;
	p->running = pthread_create(&p->thread, NULL, consumer_main, p) == 0;
}

enum nst_status nst_pipe_give(struct nst_pipe *p, void *batch, struct nst_error *err)
{
	if (!p->running) {
		struct nst_error e = { 0 };
		keep_failure(p, p->consume(p->self, batch, p->status != NST_OK, &e), &e);
		put_spare(p, batch);
		return failure(p, err);
	}
	pthread_mutex_lock(&p->lock);
	while (p->pending)
		pthread_cond_wait(&p->changed, &p->lock);
	p->pending = batch;
	pthread_cond_broadcast(&p->changed);
	enum nst_status s = failure(p, err);
	pthread_mutex_unlock(&p->lock);
	return s;
}

/* A consumed batch, waiting for one when wait and a batch is still with
 * the consumer; NULL when none is back. */
static void *spare(struct nst_pipe *p, bool wait)
{
	if (p->running)
		pthread_mutex_lock(&p->lock);
	while (wait && p->running && !p->nspare && (p->pending || p->busy))
		pthread_cond_wait(&p->changed, &p->lock);
	void *b = p->nspare ? p->spare[--p->nspare] : NULL;
	if (p->running)
		pthread_mutex_unlock(&p->lock);
	return b;
}

enum nst_status nst_pipe_failure(struct nst_pipe *p, struct nst_error *err)
{
	if (p->running)
		pthread_mutex_lock(&p->lock);
	enum nst_status s = failure(p, err);
	if (p->running)
		pthread_mutex_unlock(&p->lock);
	return s;
}

void *nst_pipe_empty(struct nst_pipe *p)
{
	void *b = spare(p, false);
	if (!b && p->made < NST_PIPE_BATCHES && (b = calloc(1, p->size)) != NULL)
		p->made++;
	return b ? b : spare(p, true);
}

static void stop(struct nst_pipe *p)
{
	if (!p->running)
		return;
	pthread_mutex_lock(&p->lock);
	p->quit = true;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	p->running = false;
}

enum nst_status nst_pipe_end(struct nst_pipe *p, struct nst_error *err)
{
	stop(p);
	return failure(p, err);
}

void nst_pipe_release(struct nst_pipe *p, void (*free_batch)(void *batch))
{
	if (p->running) {
		pthread_mutex_lock(&p->lock);
		keep_failure(p, NST_ERR_INTERNAL, &(struct nst_error){ .status = NST_ERR_INTERNAL });
		pthread_mutex_unlock(&p->lock);
	}
	stop(p);
	if (p->inited) {
		pthread_cond_destroy(&p->changed);
		pthread_mutex_destroy(&p->lock);
		p->inited = false;
	}
	if (p->pending)
		free_batch(p->pending);
	while (p->nspare)
		free_batch(p->spare[--p->nspare]);
	p->pending = NULL;
}
