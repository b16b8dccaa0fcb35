/* dx12_mem_ops: DX12 memory operations that nsys warns about (heaps
 * created with zeroing, maps and unmaps against the heap's intent).
 * nstats says, as nsys does, when an export has no DX12 data or no DX12
 * memory operation; the warnings themselves are not implemented yet: an
 * export with DX12 memory operations gets an error rather than a wrong or
 * empty table. */
#include "rules/rule.h"

#define DX12_API "DX12_API"
#define DX12_MEMORY_OPERATION "DX12_MEMORY_OPERATION"

static const char *const cols[] = {
	"Duration:dur_ns", "Start:ts_ns", "TID", "Device ID", "Warning Type",
};

static enum nst_status run(struct nst_ctx *ctx, const struct nst_sink *out,
			   struct nst_error *err)
{
	if (!nst_db_has_table(ctx->db, DX12_API) ||
	    !nst_db_has_table(ctx->db, DX12_MEMORY_OPERATION))
		return nst_fail(err, NST_ERR_NODATA,
				"%s could not be analyzed because it does not contain the "
				"required DX12 data. Does the application use DX12 APIs?",
				nst_db_path(ctx->db));
	size_t n;
	enum nst_status s = nst_ev_rows(ctx->ev, DX12_MEMORY_OPERATION, &n, err);
	if (s != NST_OK)
		return s;
	if (n)
		return nst_fail(err, NST_ERR_INTERNAL,
				"dx12_mem_ops: the DX12 memory warnings are not implemented yet");
	ctx->noresult = "There were no problems detected related to memory operations.\n";
	if (out->begin(out->ctx, cols, sizeof cols / sizeof *cols))
		return nst_fail(err, NST_ERR_IO, "writing the rows failed");
	return NST_OK;
}

static const char *const args[] = { "rows", NULL };

static const struct nst_need needs[] = {
	{ NULL, NULL, false },
};

const struct nst_report nst_rule_dx12_mem_ops = {
	.name = "dx12_mem_ops",
	.title = "DX12 Memory Operations",
	.help = "DX12 memory operations that cost time for nothing: heaps and\n"
		"committed resources created with zeroing, maps, unmaps, reads and\n"
		"writes against the heap's or the CPU page's intent.\n"
		"Not implemented yet: an export without DX12 data is SKIPPED and one\n"
		"without DX12 memory operations has no problem, as nsys says; one with\n"
		"DX12 memory operations gets an error.",
	.args = args,
	.needs = needs,
	.run = run,
	.check = nst_rule_check,
};
