/* A file's text read ahead by a second thread: zlib's inflating, and the
 * caller's check of each chunk, run beside the parse of the chunk before
 * (about a fifth of reading a gzip trace). Without the thread, a chunk is
 * read where it is asked for. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "input/input.h"

#define SLOTS 4

struct nst_text {
	const char *path;
	gzFile gz;
	nst_text_check *check;
	void *ctx;
	struct nst_text_chunk slot[SLOTS];
	unsigned char *buf[SLOTS];
	uint64_t off;             /* of the next byte to read */
	bool done;                /* the last chunk is read: the end or a failure */

	pthread_t thread;
	bool running, inited, quit, started;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	size_t head, count;       /* the chunks read: slot[head], and count of them */
};

/* zlib's failure as a chunk's; false when there is none. */
static bool read_failure(struct nst_text *t, struct nst_text_chunk *c)
{
	int code;
	const char *msg = gzerror(t->gz, &code);
	size_t n = strlen(t->path);
	if (code == Z_OK)
		return false;
	/* zlib's message starts with the path */
	if (msg && strncmp(msg, t->path, n) == 0 && strncmp(msg + n, ": ", 2) == 0)
		msg += n + 2;
	c->status = code == Z_MEM_ERROR ? NST_ERR_NOMEM : NST_ERR_DB;
	c->fail_off = t->off;
	if (code == Z_ERRNO)
		snprintf(c->why, sizeof c->why, "cannot read: %s", strerror(errno));
	else if (code == Z_BUF_ERROR)
		snprintf(c->why, sizeof c->why, "the gzip data is truncated");
	else
		snprintf(c->why, sizeof c->why, "corrupt gzip data: %s", msg ? msg : "unknown error");
	return true;
}

/* Reads the next chunk into slot i; whether it is the last. */
static bool fill(struct nst_text *t, size_t i)
{
	struct nst_text_chunk *c = &t->slot[i];
	int n = gzread(t->gz, t->buf[i], NST_TEXT_CHUNK);
	*c = (struct nst_text_chunk){ .buf = t->buf[i], .off = t->off };
	if (n <= 0) {
		/* the end, or the end of what a truncated file holds */
		if (!read_failure(t, c) && n < 0) {
			c->status = NST_ERR_DB;
			c->fail_off = t->off;
			snprintf(c->why, sizeof c->why, "cannot read: %s", strerror(errno));
		}
		return true;
	}
	c->n = (size_t)n;
	c->ok = t->check(t->ctx, c->buf, c->n, c->off, &c->fail_off, c->why, sizeof c->why);
	t->off += (uint64_t)n;
	return c->ok < c->n;
}

static void *read_ahead(void *arg)
{
	struct nst_text *t = arg;
	pthread_mutex_lock(&t->lock);
	while (!t->quit && !t->done) {
		if (t->count == SLOTS) {
			pthread_cond_wait(&t->changed, &t->lock);
			continue;
		}
		size_t i = (t->head + t->count) % SLOTS;
		pthread_mutex_unlock(&t->lock);
		bool last = fill(t, i);
		pthread_mutex_lock(&t->lock);
		t->count++;
		t->done = last;
		pthread_cond_broadcast(&t->changed);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

enum nst_status nst_text_open(const char *path, nst_text_check *check, void *ctx,
			      struct nst_text **out, struct nst_error *err)
{
	*out = NULL;
	struct nst_text *t = calloc(1, sizeof *t);
	if (!t)
		return nst_fail(err, NST_ERR_NOMEM, "%s: out of memory", path);
	*t = (struct nst_text){ .path = path, .check = check, .ctx = ctx };
	errno = 0;
	if (!(t->gz = gzopen(path, "rb"))) {
		enum nst_status s = errno ? nst_fail(err, NST_ERR_DB, "%s: %s", path, strerror(errno))
					  : nst_fail(err, NST_ERR_NOMEM, "%s: out of memory", path);
		free(t);
		return s;
	}
	bool ok = gzbuffer(t->gz, NST_TEXT_CHUNK) == 0;
	for (size_t i = 0; ok && i < SLOTS; i++)
		ok = (t->buf[i] = malloc(NST_TEXT_CHUNK)) != NULL;
	if (!ok) {
		nst_text_close(t);
		return nst_fail(err, NST_ERR_NOMEM, "%s: out of memory", path);
	}
	if (pthread_mutex_init(&t->lock, NULL) == 0) {
		if (pthread_cond_init(&t->changed, NULL) == 0) {
			t->inited = true;
			t->running = pthread_create(&t->thread, NULL, read_ahead, t) == 0;
		} else {
			pthread_mutex_destroy(&t->lock);
		}
	}
	*out = t;
	return NST_OK;
}

const struct nst_text_chunk *nst_text_next(struct nst_text *t)
{
	if (!t->running) {
		if (t->started)
			t->head = (t->head + 1) % SLOTS;
		t->started = true;
		if (t->done) /* past the last chunk: the end again */
			t->slot[t->head] = (struct nst_text_chunk){ .off = t->off };
		else
			t->done = fill(t, t->head);
		return &t->slot[t->head];
	}
	pthread_mutex_lock(&t->lock);
	if (t->started) { /* the chunk before is given back */
		t->head = (t->head + 1) % SLOTS;
		t->count--;
		pthread_cond_broadcast(&t->changed);
	}
	t->started = true;
	while (t->count == 0 && !t->done)
		pthread_cond_wait(&t->changed, &t->lock);
	if (t->count == 0) /* past the last chunk */
		t->slot[t->head] = (struct nst_text_chunk){ .off = t->off };
	pthread_mutex_unlock(&t->lock);
	return &t->slot[t->head];
}

void nst_text_close(struct nst_text *t)
{
	if (!t)
		return;
	if (t->running) {
		pthread_mutex_lock(&t->lock);
		t->quit = true;
		pthread_cond_broadcast(&t->changed);
		pthread_mutex_unlock(&t->lock);
		pthread_join(t->thread, NULL);
	}
	if (t->inited) {
		pthread_cond_destroy(&t->changed);
		pthread_mutex_destroy(&t->lock);
	}
	for (size_t i = 0; i < SLOTS; i++)
		free(t->buf[i]);
	if (t->gz)
		gzclose(t->gz);
	free(t);
}
