/* libFuzzer harness: the input is the text of a PyTorch profiler (Kineto)
 * trace, written as trace.json (one input in four gzip-compressed first,
 * by its hash, so that the zlib path reads valid streams too), and read
 * as `nstats stats` and `nstats check` read one: the reports whose data
 * a trace carries in csv, then (by the hash) json under a time filter or
 * the audit, and (by the hash) either timeline of export or report's
 * page.  The reader is what is tested: parse, limits, errors, the
 * export built in memory. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <zlib.h>

#include "fuzz.h"

/* The reports whose data a trace carries, and two that join its calls to
 * its GPU rows and nest its ranges. */
static const char REPORTS[] =
	"cuda_gpu_kern_sum,cuda_gpu_trace,cuda_gpu_mem_size_sum,cuda_gpu_sum,gpu_time_sum,"
	"cuda_api_sum,nvtx_sum,cuda_kern_exec_trace,nvtx_pushpop_trace";

static int write_gzip(const char *path, const uint8_t *data, size_t size)
{
	gzFile gz = gzopen(path, "wb");
	if (!gz)
		return -1;
	int ok = size == 0 || gzwrite(gz, data, (unsigned)size) == (int)size;
	return gzclose(gz) == Z_OK && ok ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_setup();
	const char *path = "trace.json";
	uint32_t h = fuzz_hash(data, size);
	if ((h % 4 == 0 ? write_gzip(path, data, size) : fuzz_write(path, data, size)) != 0)
		return 0;
	const char *stats[] = { "-q", "-r", REPORTS, "-f", "csv", path };
	fuzz_run("stats", 6, stats);
	/* each input reads the trace once more, by its hash: a filter and json, or the audit */
	if ((h >> 8) % 2) {
		const char *json[] = { "-q", "-r", "cuda_gpu_kern_dist:base,nvtx_sum,gpu_time_sum:by=stream",
				       "-f", "json", "--filter-time", "1000/", path };
		fuzz_run("stats", 8, json);
	} else {
		const char *check[] = { "-f", "json", path };
		fuzz_run("check", 3, check);
	}
	fuzz_outputs(h >> 12, path);
	return 0;
}
