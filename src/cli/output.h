/* Where one report's output goes: the console, a file, or a command's
 * standard input (nsys's "-", "<base>" and "@command" outputs). */
#ifndef NSTATS_CLI_OUTPUT_H
#define NSTATS_CLI_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "nstats/nstats.h"

enum target_kind { TARGET_CONSOLE, TARGET_FILE, TARGET_PROCESS };

struct target {
	enum target_kind kind;
	char *name; /* the file name, or the command line */
	FILE *fp;
	pid_t pid;
};

/* What an -o element writes to, for the format's defaults. */
enum nst_target target_kind_of(const char *output);

/* Resolves an -o element for one report: "-" is the console, "@cmd" a
 * command, "." the export's base name, anything else a base name; files
 * are named <base>_<report>[_<arg>...].<ext>. */
enum nst_status target_resolve(struct target *t, const char *output,
			       const char *export_path, const char *report_spec,
			       const char *ext, struct nst_error *err);
/* Opens the target; an existing file is refused unless force. */
enum nst_status target_open(struct target *t, bool force, struct nst_error *err);
/* Closes and waits; a write error or a failed command is NST_ERR_IO. */
enum nst_status target_close(struct target *t, struct nst_error *err);
void target_release(struct target *t);

/* With several exports (n > 1), what tells input i's files apart under
 * one -o base: its file name without folder and extension, and, when
 * another input has the same, "-<i+1>" after it (x/run.sqlite and
 * y/run.sqlite are run-1 and run-2).  NULL for one export, or when out
 * of memory.  Malloc'd. */
char *export_tag(char *const *inputs, size_t n, size_t i);

#endif
