/* The events every report reads: each call goes to the store or the view
 * behind ev (events_int.h). */
#include "events/events_int.h"

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
	return ev->ops->want(ev, table, column, text);
}

enum nst_status nst_ev_preload(struct nst_events *ev, struct nst_error *err)
{
	return ev->ops->preload(ev, err);
}

enum nst_status nst_ev_rows(struct nst_events *ev, const char *table, size_t *n,
			    struct nst_error *err)
{
	*n = 0;
	return ev->ops->rows(ev, table, n, err);
}

enum nst_status nst_ev_i64(struct nst_events *ev, const char *table, const char *column,
			   const int64_t **out, struct nst_error *err)
{
	*out = NULL;
	return ev->ops->i64(ev, table, column, out, err);
}

enum nst_status nst_ev_col(struct nst_events *ev, const char *table, const char *column,
			   const struct nst_col **out, struct nst_error *err)
{
	*out = NULL;
	return ev->ops->col(ev, table, column, out, err);
}

enum nst_status nst_ev_text(struct nst_events *ev, const char *table, const char *column,
			    const char *const **out, struct nst_error *err)
{
	*out = NULL;
	return ev->ops->text(ev, table, column, out, err);
}
