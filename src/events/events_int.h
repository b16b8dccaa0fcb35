/* Private to src/events: the two kinds of struct nst_events, each a table
 * of operations that the functions of events.h dispatch to: the store of
 * columns read from the export (store.c) and a filtered view of a store
 * (view.c).  A reader never asks which one it has. */
#ifndef NSTATS_EVENTS_INT_H
#define NSTATS_EVENTS_INT_H

#include <pthread.h>

#include "events/events.h"

struct ev_ops {
	enum nst_status (*want)(struct nst_events *ev, const char *table, const char *column,
				bool text);
	enum nst_status (*preload)(struct nst_events *ev, struct nst_error *err);
	enum nst_status (*rows)(struct nst_events *ev, const char *table, size_t *n,
				struct nst_error *err);
	enum nst_status (*i64)(struct nst_events *ev, const char *table, const char *column,
			       const int64_t **out, struct nst_error *err);
	enum nst_status (*col)(struct nst_events *ev, const char *table, const char *column,
			       const struct nst_col **out, struct nst_error *err);
	enum nst_status (*text)(struct nst_events *ev, const char *table, const char *column,
				const char *const **out, struct nst_error *err);
	enum nst_status (*durations)(struct nst_events *ev, const char *table,
				     struct nst_span *out, struct nst_error *err);
	void (*free)(struct nst_events *ev);
	/* the store's alone; NULL for a view */
	void (*plan)(struct nst_events *ev, size_t j);
	size_t (*drop_after)(struct nst_events *ev, size_t j);
};

/* The first member of a store and of a view. */
struct nst_events {
	const struct ev_ops *ops;
	struct nst_db *db;
	const struct nst_options *hooks;   /* never NULL */
	struct nst_events *all;            /* the store: itself, or the view's */
	const struct nst_ev_window *window; /* a view's; NULL for the store */
	/* Held by every call of events.h: reports on several threads share
	 * one store, which loads and widens columns when first asked. */
	pthread_mutex_t lock;
};

/* base as ops, db, hooks, all, window say, with its lock; false when the
 * lock cannot be made.  ev_base_release() destroys the lock. */
bool ev_base_init(struct nst_events *base, const struct ev_ops *ops, struct nst_db *db,
		  const struct nst_options *hooks, struct nst_events *all,
		  const struct nst_ev_window *window);
void ev_base_release(struct nst_events *base);
/* A timing line to the hook of store `all`, one at a time. */
void ev_store_timing(struct nst_events *all, const char *line);

/* Options with no hook set, for a store made without any. */
extern const struct nst_options ev_no_hooks;

#endif
