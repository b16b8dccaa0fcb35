/* libFuzzer harness: the input is a SQLite image, read as an export by
 * reports of every family, rules and `check`, in formats that escape. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "fuzz.h"

static const char REPORTS[] =
	"cuda_api_sum,cuda_gpu_kern_sum:base,cuda_gpu_mem_time_sum,cuda_gpu_trace,"
	"cuda_kern_exec_trace,nvtx_sum,nvtx_kern_sum,osrt_sum,gpu_time_sum,"
	"cuda_gpu_kern_dist,cuda_gpu_kern_launch_trace,um_sum,openmp_sum";

static int write_image(const char *path, const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	ssize_t w = size ? write(fd, data, size) : 0;
	close(fd);
	return w == (ssize_t)size ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_setup();
	const char *path = "export.sqlite";
	if (write_image(path, data, size) != 0)
		return 0;
	const char *stats[] = { "-q", "-r", REPORTS, "-f", "csv", path };
	fuzz_run("stats", 6, stats);
	const char *json[] = { "-q", "-r", "cuda_gpu_kern_sum,nvtx_sum", "-f", "json",
			       "--filter-time", "1000/", path };
	fuzz_run("stats", 7, json);
	const char *analyze[] = { "-q", "-f", "htable", path };
	fuzz_run("analyze", 4, analyze);
	const char *check[] = { "-f", "json", path };
	fuzz_run("check", 3, check);
	return 0;
}
