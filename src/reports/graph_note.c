#include "reports/graph_note.h"

#include <inttypes.h>

#include "core/sqlstat.h"
#include "reports/common.h"

const struct nst_need nst_graph_note_needs[] = {
	{ GRAPH_TRACE, "start", false }, { GRAPH_TRACE, "end", false },
	{ NULL, NULL, false },
};

enum nst_status nst_graph_time_of(struct nst_events *ev, struct nst_graph_time *out,
				  struct nst_error *err)
{
	const int64_t *start = NULL, *end = NULL;
	*out = (struct nst_graph_time){ 0 };
	enum nst_status s = nst_ev_rows(ev, GRAPH_TRACE, &out->launches, err);
	if (s == NST_OK && out->launches)
		s = nst_ev_i64(ev, GRAPH_TRACE, "start", &start, err);
	if (s == NST_OK && out->launches)
		s = nst_ev_i64(ev, GRAPH_TRACE, "end", &end, err);
	if (s != NST_OK)
		return s;
	for (size_t i = 0; start && end && i < out->launches; i++)
		if (start[i] != NST_NULL_I64 && end[i] != NST_NULL_I64 &&
		    !nst_add_i64(&out->ns, end[i] - start[i]))
			return nst_fail_sum(err);
	return NST_OK;
}
