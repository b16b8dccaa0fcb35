/* nvvideo_api_sum: time spent in each NvVideo function (Video Codec SDK
 * encoder and decoder, nvJPEG). */
#include "reports/event_sum.h"

#define ENCODER "NVVIDEO_ENCODER_API"
#define DECODER "NVVIDEO_DECODER_API"
#define JPEG "NVVIDEO_JPEG_API"

/* In the order nsys leaves equal totals. */
static const struct nst_event_source sources[] = {
	{ ENCODER, "nameId", "Encoder" },
	{ DECODER, "nameId", "Decoder" },
	{ JPEG, "nameId", "JPEG" },
};

#define NSOURCES (sizeof sources / sizeof *sources)

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	bool any = false;
	for (size_t i = 0; i < NSOURCES; i++)
		any = any || nst_db_has_table(ctx->db, sources[i].table);
	if (!any)
		return nst_nodata(ctx, err, "NvVideo trace data.");
	enum nst_status s = nst_require_strings(ctx, err);
	if (s != NST_OK)
		return s;
	return nst_event_summary(ctx, out, sources, NSOURCES, "Num Calls", "Event Type", err);
}

static const struct nst_need needs[] = {
	NST_EVENT_SOURCE_NEEDS(ENCODER, "nameId"),
	NST_EVENT_SOURCE_NEEDS(DECODER, "nameId"),
	NST_EVENT_SOURCE_NEEDS(JPEG, "nameId"),
	{ NULL, NULL, false },
};

const struct nst_report nst_report_nvvideo_api_sum = {
	.name = "nvvideo_api_sum",
	.title = "NvVideo API Summary",
	.help = "Time spent in each NvVideo API function, by API (Event Type:\n"
		"Encoder, Decoder or JPEG): the number of calls, their total time\n"
		"and its share, and the average, median, minimum, maximum and\n"
		"standard deviation of one call.\n"
		NST_TOP_ROWS_HELP,
	.args = (const char *const[]){ "rows", NULL },
	.needs = needs,
	.run = run,
	.flags = NST_REPORT_CHECKS_AFTER_FILTER | NST_REPORT_TOP_ROWS,
};
