/* Kernel names as the kernel reports' arguments ask for them: demangled
 * (default), short (base), mangled, and with nvtx-name the innermost NVTX
 * range of each kernel's launch before it. */
#ifndef NSTATS_REPORTS_KERNEL_NAMES_H
#define NSTATS_REPORTS_KERNEL_NAMES_H

#include "reports/report.h"

/* Which kernel name column the report's arguments ask for. */
enum nst_kname { NST_KNAME_DEMANGLED, NST_KNAME_SHORT, NST_KNAME_MANGLED };
enum nst_kname nst_kname_mode(const struct nst_ctx *ctx);
/* StringIds id of each kernel's name under the mode (mangledName falls
 * back to demangledName when NULL or absent).  *ids is borrowed. */
enum nst_status nst_kernel_name_ids(struct nst_ctx *ctx, enum nst_kname mode,
				    const struct nst_col **ids, struct nst_error *err);

/* The kernel name ids the report's arguments ask for: the mode's, and
 * with nvtx-name each prefixed by its innermost NVTX range (nvtx_gpu.h).
 * Read their text with nst_kernel_name_text(). */
enum nst_status nst_report_kernel_name_ids(struct nst_ctx *ctx, const struct nst_col **ids,
					   struct nst_error *err);
/* The text of a kernel name id: a StringIds value, or an nvtx-name name. */
const char *nst_kernel_name_text(struct nst_ctx *ctx, int64_t id);

#endif
