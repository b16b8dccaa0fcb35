/* Every report, by name.  Adding one: see report.h. */
#include <string.h>

#include "reports/report.h"

extern const struct nst_report nst_report_capture_info;
extern const struct nst_report nst_report_cuda_api_gpu_sum;
extern const struct nst_report nst_report_cuda_api_sum;
extern const struct nst_report nst_report_cuda_api_trace;
extern const struct nst_report nst_report_cuda_gpu_kern_dist;
extern const struct nst_report nst_report_cuda_gpu_kern_gb_sum;
extern const struct nst_report nst_report_cuda_gpu_kern_launch_trace;
extern const struct nst_report nst_report_cuda_gpu_kern_sum;
extern const struct nst_report nst_report_cuda_gpu_mem_size_sum;
extern const struct nst_report nst_report_cuda_gpu_mem_time_sum;
extern const struct nst_report nst_report_cuda_gpu_sum;
extern const struct nst_report nst_report_cuda_gpu_trace;
extern const struct nst_report nst_report_cuda_kern_exec_sum;
extern const struct nst_report nst_report_cuda_kern_exec_trace;
extern const struct nst_report nst_report_dx11_pix_sum;
extern const struct nst_report nst_report_dx12_gpu_marker_sum;
extern const struct nst_report nst_report_dx12_pix_sum;
extern const struct nst_report nst_report_gpu_time_sum;
extern const struct nst_report nst_report_mpi_event_sum;
extern const struct nst_report nst_report_mpi_event_trace;
extern const struct nst_report nst_report_network_congestion;
extern const struct nst_report nst_report_nvtx_gpu_proj_sum;
extern const struct nst_report nst_report_nvtx_gpu_proj_trace;
extern const struct nst_report nst_report_nvtx_kern_sum;
extern const struct nst_report nst_report_nvtx_pushpop_sum;
extern const struct nst_report nst_report_nvtx_pushpop_trace;
extern const struct nst_report nst_report_nvtx_startend_sum;
extern const struct nst_report nst_report_nvtx_sum;
extern const struct nst_report nst_report_nvvideo_api_sum;
extern const struct nst_report nst_report_openacc_sum;
extern const struct nst_report nst_report_opengl_khr_gpu_range_sum;
extern const struct nst_report nst_report_opengl_khr_range_sum;
extern const struct nst_report nst_report_openmp_sum;
extern const struct nst_report nst_report_osrt_sum;
extern const struct nst_report nst_report_um_cpu_page_faults_sum;
extern const struct nst_report nst_report_um_sum;
extern const struct nst_report nst_report_um_total_sum;
extern const struct nst_report nst_report_vulkan_api_sum;
extern const struct nst_report nst_report_vulkan_api_trace;
extern const struct nst_report nst_report_vulkan_gpu_marker_sum;
extern const struct nst_report nst_report_vulkan_marker_sum;
extern const struct nst_report nst_report_wddm_queue_sum;

/* In name order, as --help-reports lists them. */
static const struct nst_report *const reports[] = {
	&nst_report_capture_info,
	&nst_report_cuda_api_gpu_sum,
	&nst_report_cuda_api_sum,
	&nst_report_cuda_api_trace,
	&nst_report_cuda_gpu_kern_dist,
	&nst_report_cuda_gpu_kern_gb_sum,
	&nst_report_cuda_gpu_kern_launch_trace,
	&nst_report_cuda_gpu_kern_sum,
	&nst_report_cuda_gpu_mem_size_sum,
	&nst_report_cuda_gpu_mem_time_sum,
	&nst_report_cuda_gpu_sum,
	&nst_report_cuda_gpu_trace,
	&nst_report_cuda_kern_exec_sum,
	&nst_report_cuda_kern_exec_trace,
	&nst_report_dx11_pix_sum,
	&nst_report_dx12_gpu_marker_sum,
	&nst_report_dx12_pix_sum,
	&nst_report_gpu_time_sum,
	&nst_report_mpi_event_sum,
	&nst_report_mpi_event_trace,
	&nst_report_network_congestion,
	&nst_report_nvtx_gpu_proj_sum,
	&nst_report_nvtx_gpu_proj_trace,
	&nst_report_nvtx_kern_sum,
	&nst_report_nvtx_pushpop_sum,
	&nst_report_nvtx_pushpop_trace,
	&nst_report_nvtx_startend_sum,
	&nst_report_nvtx_sum,
	&nst_report_nvvideo_api_sum,
	&nst_report_openacc_sum,
	&nst_report_opengl_khr_gpu_range_sum,
	&nst_report_opengl_khr_range_sum,
	&nst_report_openmp_sum,
	&nst_report_osrt_sum,
	&nst_report_um_cpu_page_faults_sum,
	&nst_report_um_sum,
	&nst_report_um_total_sum,
	&nst_report_vulkan_api_sum,
	&nst_report_vulkan_api_trace,
	&nst_report_vulkan_gpu_marker_sum,
	&nst_report_vulkan_marker_sum,
	&nst_report_wddm_queue_sum,
};

/* nsys 2024.2.3's default set, in its order. */
static const char *const default_set[] = {
	"nvtx_sum", "osrt_sum", "cuda_api_sum", "cuda_gpu_kern_sum",
	"cuda_gpu_mem_time_sum", "cuda_gpu_mem_size_sum", "openmp_sum",
	"opengl_khr_range_sum", "opengl_khr_gpu_range_sum", "vulkan_marker_sum",
	"vulkan_gpu_marker_sum", "dx11_pix_sum", "dx12_gpu_marker_sum",
	"dx12_pix_sum", "wddm_queue_sum", "um_sum", "um_total_sum",
	"um_cpu_page_faults_sum", "openacc_sum",
};

#define COUNT(a) (sizeof(a) / sizeof *(a))

const struct nst_report *nst_report_find(const char *name)
{
	for (size_t i = 0; i < COUNT(reports); i++)
		if (strcmp(reports[i]->name, name) == 0)
			return reports[i];
	return NULL;
}

const struct nst_report *const *nst_report_all(size_t *n)
{
	*n = COUNT(reports);
	return reports;
}

const char *const *nst_report_default_set(size_t *n)
{
	*n = COUNT(default_set);
	return default_set;
}
