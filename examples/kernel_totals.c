/* kernel_totals: each kernel's name and total GPU time in nanoseconds, as
 * `nstats stats -r cuda_gpu_kern_sum` sums them, through libnstats.
 *
 *     cc kernel_totals.c $(pkg-config --cflags --libs nstats) -o kernel_totals
 *     ./kernel_totals report.sqlite
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <nstats/nstats.h>

/* Where the report's Name and Total Time columns are. */
struct totals {
	size_t name, total;
};

static enum nst_status on_columns(void *ctx, const char *const *cols, size_t n,
				  struct nst_error *err)
{
	struct totals *t = ctx;
	t->name = t->total = n;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(cols[i], "Name") == 0)
			t->name = i;
		else if (strcmp(cols[i], "Total Time:dur_ns") == 0)
			t->total = i;
	}
	if (t->name == n || t->total == n)
		return nst_fail(err, NST_ERR_INTERNAL, "no Name or Total Time column");
	return NST_OK;
}

static enum nst_status on_row(void *ctx, const struct nst_cell *cells, struct nst_error *err)
{
	const struct totals *t = ctx;
	if (printf("%" PRId64 "\t%s\n", cells[t->total].v.i, cells[t->name].v.s) < 0)
		return nst_fail(err, NST_ERR_IO, "standard output: write failed");
	return NST_OK;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: kernel_totals EXPORT\n");
		return 2;
	}
	struct nst_error err;
	struct nst_export *x = NULL;
	struct nst_job *job = NULL;
	struct totals t;
	struct nst_sink sink = { on_columns, on_row, NULL, &t };
	enum nst_status s = nst_export_open(argv[1], NULL, &x, &err);
	if (s == NST_OK)
		s = nst_job_parse(NST_REPORTS, "cuda_gpu_kern_sum", &job, &err);
	if (s == NST_OK)
		s = nst_run(x, &(struct nst_run){ .job = job, .sink = &sink }, NULL, &err);
	if (s != NST_OK)
		fprintf(stderr, "kernel_totals: %s\n", err.msg);
	nst_job_free(job);
	nst_export_close(x);
	if (fflush(stdout) != 0 && s == NST_OK)
		s = NST_ERR_IO;
	return s == NST_OK ? 0 : 1;
}
