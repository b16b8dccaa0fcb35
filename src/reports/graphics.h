/* The graphics range summaries: Vulkan debug labels, OpenGL KHR_debug
 * groups, D3D11/D3D12 PIX events.  They share nsys's summary row, with
 * three ways of making ranges out of rows:
 *
 *   - CPU markers (VULKAN_DEBUG_API, D3D11_PIX_DEBUG_API,
 *     D3D12_PIX_DEBUG_API): a begin call (textId set) and an end call
 *     (no textId) with the same globalTid and correlationId make a range
 *     from the end of the begin call to the start of the end call; every
 *     such pair counts, whatever their order in time;
 *   - GPU markers (VULKAN_WORKLOAD, DX12_WORKLOAD): each row with a
 *     textId is a range;
 *   - KHR_debug (KHR_DEBUG_EVENTS rows of one event class): each row is a
 *     range; one without an end runs to the table's last end (or to its
 *     own start when that is later); its name is the text, else the KHR
 *     event id as an integer, and equal names are one group.
 *
 * Ranges are grouped by name (by textId for the markers), groups whose
 * total is not positive are left out, yet their totals still count in
 * the percentages of the others, as in nsys.  Ties in total keep the
 * order of the names: textId, or NULL, then integers, then texts. */
#ifndef NSTATS_REPORTS_GRAPHICS_H
#define NSTATS_REPORTS_GRAPHICS_H

#include "reports/common.h"

#define KHR_DEBUG "KHR_DEBUG_EVENTS"
#define KHR_CPU_RANGE 62 /* ENUM_NSYS_EVENT_TYPE KhrDebugPushPopRange */
#define KHR_GPU_RANGE 63 /* KhrDebugGpuPushPopRange */

/* NST_ERR_NODATA as nsys says it: StringIds first, then `table`
 * ("<file> does not contain <what>"). */
enum nst_status nst_gfx_check(struct nst_ctx *ctx, const char *table,
			      const char *what, struct nst_error *err);

/* The columns each kind of summary reads, for the reports' `needs`. */
#define NST_GFX_CPU_MARKER_NEEDS(T)                                       \
	{ T, "start", false }, { T, "end", false },                       \
	{ T, "globalTid", false }, { T, "correlationId", false },         \
	{ T, "textId", false }
#define NST_GFX_GPU_MARKER_NEEDS(T)                                       \
	{ T, "start", false }, { T, "end", false }, { T, "textId", false }
#define NST_GFX_KHR_NEEDS                                                 \
	{ KHR_DEBUG, "eventClass", false }, { KHR_DEBUG, "start", false }, \
	{ KHR_DEBUG, "end", false }, { KHR_DEBUG, "textId", false },      \
	{ KHR_DEBUG, "id", false }

enum nst_status nst_gfx_cpu_marker_sum(struct nst_ctx *ctx, const struct nst_sink *out,
				       const char *table, struct nst_error *err);
enum nst_status nst_gfx_gpu_marker_sum(struct nst_ctx *ctx, const struct nst_sink *out,
				       const char *table, struct nst_error *err);
enum nst_status nst_gfx_khr_sum(struct nst_ctx *ctx, const struct nst_sink *out,
				int64_t event_class, struct nst_error *err);

/* The help text that every range summary shares, after its first line. */
#define NST_GFX_RANGE_HELP                                                \
	"the number of ranges, their total time and its share, and the\n" \
	"average, median, minimum, maximum and standard deviation of one\n" \
	"range. Names whose total is not positive are not listed, but their\n" \
	"time counts in the shares of the others, as in nsys."

#endif
