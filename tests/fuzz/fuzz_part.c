/* libFuzzer harness: bytes that claim to be a recipe's part (what a worker
 * process or an MPI rank sends), loaded, merged and written.  With the
 * first byte odd, a valid header for cuda_gpu_kern_sum is put before the
 * rest, so that mutations reach the ranks and records behind it. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "nstats/nstats.h"

static enum nst_status begin(void *ctx, const char *const *cols, size_t n, struct nst_error *err)
{
	(void)ctx, (void)cols, (void)n, (void)err;
	return NST_OK;
}

static enum nst_status row(void *ctx, const struct nst_cell *cells, struct nst_error *err)
{
	(void)ctx, (void)cells, (void)err;
	return NST_OK;
}

/* "NSTPART1", the byte order mark, the job's spec as a length and bytes,
 * the rank mode. */
static size_t header(uint8_t *out, const char *spec)
{
	static const uint32_t order = 0x01020304u;
	uint64_t len = strlen(spec);
	size_t n = 0;
	memcpy(out + n, "NSTPART1", 8), n += 8;
	memcpy(out + n, &order, 4), n += 4;
	memcpy(out + n, &len, 8), n += 8;
	memcpy(out + n, spec, len), n += len;
	out[n++] = 0;
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char spec[] = "cuda_gpu_kern_sum";
	if (size == 0 || size > 1 << 20)
		return 0;
	uint8_t *buf = malloc(size + 64);
	if (!buf)
		return 0;
	size_t n = data[0] & 1 ? header(buf, spec) : 0;
	memcpy(buf + n, data + 1, size - 1);
	n += size - 1;
	struct nst_error err = { 0 };
	struct nst_job *job = NULL;
	struct nst_merge *m = NULL;
	struct nst_part *p = NULL;
	if (nst_job_parse(NST_RECIPES, spec, &job, &err) == NST_OK &&
	    nst_merge_new(job, &m, &err) == NST_OK &&
	    nst_part_load(buf, n, &p, &err) == NST_OK && nst_merge_add(m, p, &err) == NST_OK) {
		struct nst_sink sink = { begin, row, NULL, NULL };
		for (size_t t = 0; nst_merge_table(m, t); t++)
			nst_merge_run(m, t, &(struct nst_run){ .job = job, .sink = &sink }, &err);
	}
	nst_merge_free(m);
	nst_job_free(job);
	free(buf);
	return 0;
}
