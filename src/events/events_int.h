/* Private to src/events: the two kinds of struct nst_events, each a table
 * of operations that the functions of events.h dispatch to: the store of
 * columns read from the export (store.c) and a filtered view of a store
 * (view.c).  A reader never asks which one it has. */
#ifndef NSTATS_EVENTS_INT_H
#define NSTATS_EVENTS_INT_H

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
	void (*free)(struct nst_events *ev);
};

/* The first member of a store and of a view. */
struct nst_events {
	const struct ev_ops *ops;
	struct nst_db *db;
	const struct nst_options *hooks;   /* never NULL */
	struct nst_events *all;            /* the store: itself, or the view's */
	const struct nst_ev_window *window; /* a view's; NULL for the store */
};

/* Options with no hook set, for a store made without any. */
extern const struct nst_options ev_no_hooks;

#endif
