/* A file a command writes whole (export's trace, report's page).  "-" is
 * standard output; a device or pipe (/dev/null, a FIFO) is written in
 * place, as it cannot be renamed onto and holds no half file; a regular
 * file is written under a temporary name beside it and put in place when
 * whole, so that a failure leaves nothing.  An existing file needs force,
 * and an input is never replaced. */
#ifndef NSTATS_CLI_OUTFILE_H
#define NSTATS_CLI_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

struct cli_outfile {
	const char *path; /* as given */
	bool force;       /* --force-overwrite */
	const char *binary; /* what is written, when no terminal should get it:
			       "perfetto's binary trace"; NULL: text */
	FILE *fp;         /* where to write, once open */
	char *tmp;        /* the file written, put in place at the end; NULL: path itself */
};

/* Opens f->fp, refusing an existing file without force and any of
 * inputs[0..n): 0, or the exit status after a one-line error. */
int cli_outfile_open(struct cli_outfile *f, const char *const *inputs, size_t n);
/* Ends the file: in place when rc (the run's status so far) is 0 and all
 * was written, removed otherwise.  Returns rc, or EXIT_OUTPUT after a
 * one-line error when writing or putting it in place failed. */
int cli_outfile_close(struct cli_outfile *f, int rc);
/* How errors name it: the path, or "standard output" for "-". */
const char *cli_outfile_name(const struct cli_outfile *f);

#endif
