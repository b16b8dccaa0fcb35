/* The events every report reads: each call goes to the store or the view
 * behind ev (events_int.h). */
#include "core/lock.h"
#include "events/events_int.h"

bool ev_base_init(struct nst_events *base, const struct ev_ops *ops, struct nst_db *db,
		  const struct nst_options *hooks, struct nst_events *all,
		  const struct nst_ev_window *window)
{
	base->ops = ops;
	base->db = db;
	base->hooks = hooks;
	base->all = all ? all : base;
	base->window = window;
	return nst_lock_init(&base->lock) == 0;
}

void ev_base_release(struct nst_events *base)
{
	pthread_mutex_destroy(&base->lock);
}

void nst_ev_timing(struct nst_events *ev, const char *line)
{
	if (ev->hooks->timing)
		ev_store_timing(ev->all, line);
}

struct nst_db *nst_ev_db(struct nst_events *ev) { return ev->db; }
struct nst_events *nst_ev_all(struct nst_events *ev) { return ev->all; }

const struct nst_ev_window *nst_ev_window_of(const struct nst_events *ev)
{
	return ev->window;
}

void nst_ev_free(struct nst_events *ev)
{
	if (ev)
		ev->ops->free(ev);
}

enum nst_status nst_ev_want(struct nst_events *ev, const char *table, const char *column,
			    bool text)
{
	pthread_mutex_lock(&ev->lock);
	enum nst_status s = ev->ops->want(ev, table, column, text);
	pthread_mutex_unlock(&ev->lock);
	return s;
}

void nst_ev_plan(struct nst_events *ev, size_t j)
{
	pthread_mutex_lock(&ev->lock);
	if (ev->ops->plan)
		ev->ops->plan(ev, j);
	pthread_mutex_unlock(&ev->lock);
}

size_t nst_ev_drop_after(struct nst_events *ev, size_t j)
{
	pthread_mutex_lock(&ev->lock);
	size_t freed = ev->ops->drop_after ? ev->ops->drop_after(ev, j) : 0;
	pthread_mutex_unlock(&ev->lock);
	return freed;
}

enum nst_status nst_ev_preload(struct nst_events *ev, struct nst_error *err)
{
	pthread_mutex_lock(&ev->lock);
	enum nst_status s = ev->ops->preload(ev, err);
	pthread_mutex_unlock(&ev->lock);
	return s;
}

enum nst_status nst_ev_rows(struct nst_events *ev, const char *table, size_t *n,
			    struct nst_error *err)
{
	*n = 0;
	pthread_mutex_lock(&ev->lock);
	enum nst_status s = ev->ops->rows(ev, table, n, err);
	pthread_mutex_unlock(&ev->lock);
	return s;
}

enum nst_status nst_ev_i64(struct nst_events *ev, const char *table, const char *column,
			   const int64_t **out, struct nst_error *err)
{
	*out = NULL;
	pthread_mutex_lock(&ev->lock);
	enum nst_status s = ev->ops->i64(ev, table, column, out, err);
	pthread_mutex_unlock(&ev->lock);
	return s;
}

enum nst_status nst_ev_col(struct nst_events *ev, const char *table, const char *column,
			   const struct nst_col **out, struct nst_error *err)
{
	*out = NULL;
	pthread_mutex_lock(&ev->lock);
	enum nst_status s = ev->ops->col(ev, table, column, out, err);
	pthread_mutex_unlock(&ev->lock);
	return s;
}

enum nst_status nst_ev_text(struct nst_events *ev, const char *table, const char *column,
			    const char *const **out, struct nst_error *err)
{
	*out = NULL;
	pthread_mutex_lock(&ev->lock);
	enum nst_status s = ev->ops->text(ev, table, column, out, err);
	pthread_mutex_unlock(&ev->lock);
	return s;
}

enum nst_status nst_ev_durations(struct nst_events *ev, const char *table,
				 struct nst_span *out, struct nst_error *err)
{
	*out = (struct nst_span){ NULL, NULL, NULL };
	pthread_mutex_lock(&ev->lock);
	enum nst_status s = ev->ops->durations(ev, table, out, err);
	pthread_mutex_unlock(&ev->lock);
	return s;
}
