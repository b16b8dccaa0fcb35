/* libFuzzer harness: the input is a SQLite image, read as an export by
 * every report (a quarter of them by rotation), the default rules and
 * `check`, in every format, compared with itself by `diff`, and (by its
 * hash) exported as either timeline or made into report's page. Its mutations are sqlite_mutator.c's: rows
 * edited through SQLite, pages, bytes. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "fuzz.h"

static const char REPORTS[] =
	"cuda_api_sum,cuda_gpu_kern_sum:base,cuda_gpu_mem_time_sum,cuda_gpu_trace,"
	"cuda_kern_exec_trace,nvtx_sum,nvtx_kern_sum,osrt_sum,gpu_time_sum,"
	"cuda_gpu_kern_dist,cuda_gpu_kern_launch_trace,um_sum,openmp_sum";

/* The other reports, a quarter of them per input (chosen by its hash, so
 * that a crash replays): all of them every run would slow the fuzzer,
 * most read tables the seeds lack. */
static const char *const MORE_REPORTS[] = {
	"cuda_api_gpu_sum,cuda_api_trace,cuda_gpu_kern_gb_sum,cuda_gpu_mem_size_sum,"
	"cuda_gpu_sum,cuda_kern_exec_sum,dx11_pix_sum",
	"dx12_gpu_marker_sum,dx12_pix_sum,mpi_event_sum,mpi_event_trace,network_congestion,"
	"nvtx_gpu_proj_sum,nvtx_gpu_proj_trace",
	"nvtx_pushpop_sum,nvtx_pushpop_trace,nvtx_startend_sum,nvvideo_api_sum,openacc_sum,"
	"opengl_khr_gpu_range_sum,opengl_khr_range_sum",
	"um_cpu_page_faults_sum,um_total_sum,vulkan_api_sum,vulkan_api_trace,"
	"vulkan_gpu_marker_sum,vulkan_marker_sum,wddm_queue_sum",
};

/* Formats the fixed commands above do not use, by the same hash. */
static const char *const MORE_FORMATS[] = { "tsv", "hdoc", "column", "table" };

#define COUNT(a) (sizeof(a) / sizeof *(a))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_setup();
	const char *path = "export.sqlite";
	if (fuzz_write(path, data, size) != 0)
		return 0;
	const char *stats[] = { "-q", "-r", REPORTS, "-f", "csv", path };
	fuzz_run("stats", 6, stats);
	const char *json[] = { "-q", "-r", "cuda_gpu_kern_sum,nvtx_sum", "-f", "json",
			       "--filter-time", "1000/", path };
	fuzz_run("stats", 7, json);
	uint32_t h = fuzz_hash(data, size);
	const char *more[] = { "-q", "-r", MORE_REPORTS[h % COUNT(MORE_REPORTS)], "-f",
			       MORE_FORMATS[(h >> 8) % COUNT(MORE_FORMATS)], path };
	fuzz_run("stats", 6, more);
	const char *analyze[] = { "-q", "-f", "htable", path };
	fuzz_run("analyze", 4, analyze);
	const char *check[] = { "-f", "json", path };
	fuzz_run("check", 3, check);
	/* the export against itself: every comparison reads both sides */
	const char *diff[] = { "-q", "-r", "kern_diff,kern_brief,gpu_brief,launch_diff,agree,"
			       "gpu_time_diff,api_diff,mem_diff,nvtx_diff,verdict:gate=5", "-f", "csv",
			       "--names", h & 1 ? "base" : "exact", path, path };
	fuzz_run("diff", 9, diff);
	fuzz_outputs(h >> 12, path);
	return 0;
}
