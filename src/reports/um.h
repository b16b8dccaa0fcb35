/* The unified memory tables that um_sum and um_total_sum read: migrations
 * (CUPTI_ACTIVITY_KIND_MEMCPY rows of the unified memory copy kinds) and
 * CPU and GPU page faults, summed per virtual address. */
#ifndef NSTATS_REPORTS_UM_H
#define NSTATS_REPORTS_UM_H

#include "reports/common.h"

#define UM_CPU_FAULTS "CUDA_UM_CPU_PAGE_FAULT_EVENTS"
#define UM_GPU_FAULTS "CUDA_UM_GPU_PAGE_FAULT_EVENTS"

/* ENUM_CUDA_MEMCPY_OPER ids of unified memory migrations. */
enum { NST_UM_HTOD = 11, NST_UM_DTOH = 12 };

/* One virtual address of one source (NULL addresses form one group, as
 * SQL's GROUP BY makes them): rows is the number of rows, sum the sum of
 * bytes or page faults, dur the total duration of migrations. */
struct nst_um_addr {
	int64_t addr; /* NST_NULL_I64 for NULL */
	int64_t rows, sum, dur;
};

/* A source's addresses in ascending order, NULL first. */
struct nst_um_source {
	struct nst_um_addr *a;
	size_t n;
	int64_t total; /* the sum of every address's sum */
};

enum nst_um_kind { NST_UM_CPU, NST_UM_GPU, NST_UM_D2H, NST_UM_H2D, NST_UM_SOURCES };

/* The four sources, in the order in which nsys lets each address first
 * appear: CPU faults, GPU faults, device-to-host, host-to-device. */
struct nst_um {
	struct nst_um_source src[NST_UM_SOURCES];
};

#define NST_UM_NEEDS                                                          \
	{ MEMCPY, NST_EV_DURATION, false },                                    \
	{ MEMCPY, "bytes", false }, { MEMCPY, "copyKind", false },            \
	{ MEMCPY, "virtualAddress", false }, { UM_CPU_FAULTS, "address", false }, \
	{ UM_GPU_FAULTS, "address", false },                                  \
	{ UM_GPU_FAULTS, "numberOfPageFaults", false }

/* The tables without which um_sum and um_total_sum say SKIPPED. */
extern const char *const nst_um_tables[];

/* Checks the tables with nsys's messages, then reads and sums them. */
enum nst_status nst_um_load(struct nst_ctx *ctx, struct nst_um *um, struct nst_error *err);
void nst_um_release(struct nst_um *um);

/* The address's entry in src, or NULL; a NULL address matches nothing, as
 * in an SQL join. */
const struct nst_um_addr *nst_um_find(const struct nst_um_source *src, int64_t addr);

#endif
