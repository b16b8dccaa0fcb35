/* From what the user named to the SQLite export to read. */
#ifndef NSTATS_CLI_INPUT_H
#define NSTATS_CLI_INPUT_H

#include "nstats/nstats.h"

/* An .sqlite path is used as it is.  For a .nsys-rep (or .qdrep), the
 * .sqlite beside it is used when it is at least as new; otherwise it is
 * made with `nsys export` when nsys is on PATH, and the error names the
 * command to run when it is not.  *path is malloc'd. */
enum nst_status input_resolve(const char *input, char **path, struct nst_error *err);

#endif
