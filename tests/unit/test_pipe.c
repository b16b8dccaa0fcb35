/* core/pipe.h: batches consumed in the order given, on the consumer's
 * thread or (none started) the producer's; the consumer's first failure
 * returned at the next hand-over, later batches dropped. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/pipe.h"

/* A batch: the numbers the producer put in it. */
struct nums {
	int v[16];
	size_t n;
};

/* The consumer's record: every number consumed, in order; the batch
 * (counted from 1) it fails on, 0: none; how many it was told to drop. */
struct sink {
	int seen[4096];
	size_t nseen, batches, fail_at, dropped;
	pthread_t thread;
};

static enum nst_status consume(void *self, void *batch, bool drop, struct nst_error *err)
{
	struct sink *k = self;
	struct nums *b = batch;
	k->thread = pthread_self();
	enum nst_status s = NST_OK;
	if (drop)
		k->dropped++;
	else if (++k->batches == k->fail_at)
		s = nst_fail(err, NST_ERR_IO, "batch %zu failed", k->batches);
	else
		for (size_t i = 0; i < b->n; i++)
			k->seen[k->nseen++] = b->v[i];
	b->n = 0;
	return s;
}

static void free_nums(void *batch) { free(batch); }

/* Fills batches of 16 and hands each over, as a producer does. */
static enum nst_status produce(struct nst_pipe *p, int count, struct nst_error *err)
{
	struct nums *fill = nst_pipe_empty(p);
	enum nst_status s = fill ? NST_OK : NST_ERR_NOMEM;
	for (int i = 0; s == NST_OK && i < count; i++) {
		fill->v[fill->n++] = i;
		if (fill->n < 16 && i + 1 < count)
			continue;
		s = nst_pipe_give(p, fill, err);
		if (!(fill = nst_pipe_empty(p)) && s == NST_OK)
			s = NST_ERR_NOMEM;
	}
	assert_true(p->made <= NST_PIPE_BATCHES);
	free(fill); /* the producer's, not the pipe's */
	return s;
}

static void consumed_in_order_on_another_thread(void **state)
{
	(void)state;
	struct sink k = { 0 };
	struct nst_pipe p;
	struct nst_error err = { 0 };
	nst_pipe_start(&p, sizeof(struct nums), consume, &k);
	assert_true(p.running);
	assert_int_equal(produce(&p, 1000, &err), NST_OK);
	assert_int_equal(nst_pipe_end(&p, &err), NST_OK);
	assert_int_equal(k.nseen, 1000);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(k.seen[i], i);
	assert_false(pthread_equal(k.thread, pthread_self()));
	assert_int_equal(k.dropped, 0);
	nst_pipe_release(&p, free_nums);
}

/* The third batch fails: the producer hears of it at a later hand-over,
 * nothing after it is consumed, and the message is the consumer's. */
static void a_failure_reaches_the_producer(void **state)
{
	(void)state;
	struct sink k = { .fail_at = 3 };
	struct nst_pipe p;
	struct nst_error err = { 0 };
	nst_pipe_start(&p, sizeof(struct nums), consume, &k);
	assert_int_equal(produce(&p, 1000, &err), NST_ERR_IO);
	assert_string_equal(err.msg, "batch 3 failed");
	struct nst_error end = { 0 };
	assert_int_equal(nst_pipe_end(&p, &end), NST_ERR_IO);
	assert_string_equal(end.msg, "batch 3 failed");
	assert_int_equal(k.nseen, 32);
	assert_int_equal(k.seen[31], 31);
	nst_pipe_release(&p, free_nums);
}

/* Without a thread each batch is consumed as it is given, on the
 * producer's thread, and comes straight back as the spare. */
static void without_a_thread_batches_are_consumed_at_once(void **state)
{
	(void)state;
	struct sink k = { 0 };
	struct nst_pipe p = { .consume = consume, .self = &k, .size = sizeof(struct nums) };
	struct nst_error err = { 0 };
	struct nums *b = nst_pipe_empty(&p);
	assert_non_null(b);
	b->v[b->n++] = 5;
	assert_int_equal(nst_pipe_give(&p, b, &err), NST_OK);
	assert_int_equal(k.nseen, 1);
	assert_true(pthread_equal(k.thread, pthread_self()));
	assert_ptr_equal(nst_pipe_empty(&p), b);
	assert_int_equal(p.made, 1);
	assert_int_equal(nst_pipe_end(&p, &err), NST_OK);
	free(b);
	nst_pipe_release(&p, free_nums);
}

/* Released before the end: what was given and not consumed is freed
 * (valgrind and ASan see to it), the thread stopped. */
static void release_frees_what_is_left(void **state)
{
	(void)state;
	struct sink k = { 0 };
	struct nst_pipe p;
	struct nst_error err = { 0 };
	nst_pipe_start(&p, sizeof(struct nums), consume, &k);
	for (int i = 0; i < NST_PIPE_BATCHES; i++) {
		struct nums *b = nst_pipe_empty(&p);
		assert_non_null(b);
		assert_int_equal(nst_pipe_give(&p, b, &err), NST_OK);
	}
	nst_pipe_release(&p, free_nums);
	assert_false(p.running);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(consumed_in_order_on_another_thread),
		cmocka_unit_test(a_failure_reaches_the_producer),
		cmocka_unit_test(without_a_thread_batches_are_consumed_at_once),
		cmocka_unit_test(release_frees_what_is_left),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
