/* The JSON document of json:typed (docs/json.md): every report of a run
 * that goes to one stream, keyed by export and report, so that a tool
 * reads one value instead of concatenated arrays.
 *
 *   {"nstats": VERSION, "exports": [
 *   {"path": EXPORT, "reports": {
 *   "REPORT": {"rows": [...]},
 *   "REPORT": {"skipped": WHY}
 *   }}
 *   ]}
 *
 * The library writes each report's object (nst_format_typed_json); this
 * writes what is around it.  The console and each @command hold one
 * document for the whole run (struct doc); a file holds one of its own. */
#ifndef NSTATS_CLI_DOCUMENT_H
#define NSTATS_CLI_DOCUMENT_H

#include <stdbool.h>
#include <stdio.h>

#include "cli/output.h"

/* The export (or, for diff, the pair) whose reports run now. */
struct doc_export {
	size_t no;              /* 1, 2, ... in the run; 0 before the first */
	const char *path;       /* the export read */
	const char *candidate;  /* diff: the second export; NULL otherwise */
};

/* Where a document stands: what to close before the next key. */
struct doc_pos {
	size_t entries;         /* export entries begun */
	size_t export_no;       /* the export of the open entry; 0 none */
	size_t keys;            /* reports in the open entry */
};

void doc_head(FILE *fp);
/* Begins e's entry when it is not the open one, then REPORT's key: the
 * caller writes one JSON value after it. */
void doc_key(FILE *fp, struct doc_pos *p, const struct doc_export *e, const char *key);
/* An export that could not be read: an entry with "error" and no reports. */
void doc_export_error(FILE *fp, struct doc_pos *p, const struct doc_export *e, const char *msg);
/* A report's value when it wrote none: {"skipped": WHY} or {"error": WHY}. */
void doc_no_rows(FILE *fp, bool skipped, const char *why);
void doc_tail(FILE *fp, struct doc_pos *p);

/* A stream shared by the whole run: the console or one @command. */
struct doc {
	char *output;           /* the -o element: "-" or "@CMD" */
	struct target tg;
	bool open;
	struct doc_pos pos;
};

struct docs {
	struct doc *doc;
	size_t n;
};

/* The document of an -o element, NULL when it has none. */
struct doc *docs_find(const struct docs *d, const char *output);
/* Adds one for output unless there is one; -1 when out of memory. */
int docs_add(struct docs *d, const char *output);
/* Opens the stream and writes the head, the first time. */
enum nst_status doc_open(struct doc *d, struct nst_error *err);
/* Ends every document (an empty one for a stream nothing went to) and
 * closes its stream; the first failure is in err. */
enum nst_status docs_close(struct docs *d, struct nst_error *err);
void docs_release(struct docs *d);

#endif
