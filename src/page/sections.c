/* The sections of the page, in order: one row each.  Adding one: write
 * sec_NAME.c with its write function, declare it in page.h and add the
 * row here, with the reports whose tables it reads (loaded once, before
 * the first section runs). */
#include "page/page.h"

static const char *const overview_loads[] = { "capture_info", NULL };
static const char *const gpu_loads[] = { "gpu_time_sum", NULL };
static const char *const kernel_loads[] = { "cuda_gpu_kern_dist", NULL };
static const char *const memory_loads[] = { "cuda_gpu_mem_time_sum", "cuda_gpu_mem_size_sum",
					    NULL };
static const char *const api_loads[] = { "cuda_api_sum", NULL };
static const char *const nvtx_loads[] = { "nvtx_sum", "nvtx_gpu_proj_sum", NULL };
static const char *const gap_loads[] = { "rule:gpu_gaps", NULL };
static const char *const diff_loads[] = { "diff:gpu_time_diff", "diff:kern_diff", "diff:mem_diff",
					  "diff:api_diff", "diff:nvtx_diff", NULL };

const struct page_section page_sections[] = {
	{ "overview", PAGE_ANY, 12, false, overview_loads, page_overview },
	{ "gpu", PAGE_ONE, 8, false, gpu_loads, page_gpu },
	{ "kernels", PAGE_ONE, 6, true, kernel_loads, page_kernels },
	{ "memory", PAGE_ONE, 1, false, memory_loads, page_memory },
	{ "api", PAGE_ONE, 5, true, api_loads, page_api },
	{ "nvtx", PAGE_ONE, 4, false, nvtx_loads, page_nvtx },
	{ "gaps", PAGE_ONE, 4, false, gap_loads, page_gaps },
	{ "diff", PAGE_TWO, 10, false, diff_loads, page_diff },
	{ "ranks", PAGE_MANY, 10, false, NULL, page_ranks },
};
const size_t page_nsections = sizeof page_sections / sizeof *page_sections;
