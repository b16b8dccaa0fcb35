/* Inputs other than an Nsight Systems export, read into an export of the
 * nsys schema built in memory, which the rest of nstats reads as it reads
 * a file (nst_db_adopt):
 *
 *   sniff.c   what a file holds, from its name and its first bytes
 *   readahead.c  a file's text, gunzipped and checked on a second thread
 *   number.c  a JSON number's text as an exact integer (ns from us)
 *   kineto.c  PyTorch profiler (Kineto) traces: the streaming parse
 *   memdb.c   the export in memory: tables, rows, what is filled at the end
 *
 * A trace is read once, front to back, through zlib when it is gzip, by a
 * streaming JSON parser (YAJL): memory follows the events kept, never the
 * size of the text.  Every error names the file, what is wrong and the
 * byte of the (decompressed) text where. */
#ifndef NSTATS_INPUT_H
#define NSTATS_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/db.h"

/* ---- sniff.c ---- */

enum nst_input_kind {
	NST_INPUT_EXPORT, /* an SQLite file, or what nst_db_open will refuse */
	NST_INPUT_KINETO, /* a PyTorch profiler trace, gzip or not */
};

/* An SQLite header wins; then gzip data, or text whose first non-blank
 * byte is '{', is a trace, and so is a name ending in .json or .json.gz
 * (whose reader then says what is wrong with it).  A file that cannot be
 * read goes to the export path, which says why. */
enum nst_input_kind nst_input_sniff(const char *path);

/* ---- number.c ---- */

enum nst_num {
	NST_NUM_OK,
	NST_NUM_SYNTAX,   /* not a JSON number */
	NST_NUM_FRACTION, /* not an integer, and rounding was not asked for */
	NST_NUM_RANGE,    /* beyond int64 */
};

/* The number written in s[0..len) (JSON's grammar: -?digits[.digits][e[+-]digits])
 * times 10^scale, computed on its decimal digits, never through a double:
 * exact when that is an integer; otherwise rounded to the nearest integer,
 * halves away from zero, when round is true, else NST_NUM_FRACTION.
 * Kineto's microseconds are (s, len, 3, true, &ns); ids (.., 0, false, ..). */
enum nst_num nst_decimal_scaled(const char *s, size_t len, int scale, bool round,
				int64_t *out);

/* ---- readahead.c ---- */

#define NST_TEXT_CHUNK ((size_t)1 << 18)

/* A chunk of a file's text (gunzipped when it is gzip data), as read. */
struct nst_text_chunk {
	const unsigned char *buf;
	size_t n;                /* 0: the end, or a failure to read (status) */
	uint64_t off;            /* of buf[0] in the text */
	size_t ok;               /* the check's: bytes before the one it failed at, n when none */
	enum nst_status status;  /* a failure to read: NST_ERR_DB or NST_ERR_NOMEM */
	uint64_t fail_off;       /* where the check or the read failed */
	char why[128];           /* what failed, for "PATH: byte N: why" */
};

/* Run on each chunk, in order, on the reading thread: the bytes of buf
 * before the first that fails it (n when none does), with where (in the
 * text) and why. */
typedef size_t nst_text_check(void *ctx, const unsigned char *buf, size_t n, uint64_t off,
			      uint64_t *fail_off, char *why, size_t cap);

struct nst_text;
enum nst_status nst_text_open(const char *path, nst_text_check *check, void *ctx,
			      struct nst_text **out, struct nst_error *err);
/* The next chunk; the one before is given back, and its buf is no longer
 * the caller's. After a chunk with n == 0 or ok < n, nothing follows. */
const struct nst_text_chunk *nst_text_next(struct nst_text *t);
void nst_text_close(struct nst_text *t);

/* ---- kineto.c ---- */

/* Reads the trace at path into an export in memory. */
enum nst_status nst_kineto_open(const char *path, struct nst_db **out, struct nst_error *err);

#endif
