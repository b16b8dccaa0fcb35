/* Private to src/events: the filtered views behind nst_ev_filter(). */
#ifndef NSTATS_EVENTS_INT_H
#define NSTATS_EVENTS_INT_H

#include "events/events.h"

struct ev_view;

struct ev_view *ev_view_new(struct nst_events *all, const struct nst_ev_window *w);
void ev_view_free(struct ev_view *v);
struct nst_events *ev_view_all(struct ev_view *v);
const struct nst_ev_window *ev_view_window(const struct ev_view *v);

enum nst_status ev_view_want(struct ev_view *v, const char *table,
			     const char *column, bool text);
enum nst_status ev_view_rows(struct ev_view *v, const char *table, size_t *n,
			     struct nst_error *err);
enum nst_status ev_view_i64(struct ev_view *v, const char *table,
			    const char *column, const int64_t **out,
			    struct nst_error *err);
enum nst_status ev_view_col(struct ev_view *v, const char *table,
			    const char *column, const struct nst_col **out,
			    struct nst_error *err);
enum nst_status ev_view_text(struct ev_view *v, const char *table,
			     const char *column, const char *const **out,
			     struct nst_error *err);

#endif
