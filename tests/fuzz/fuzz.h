/* What the libFuzzer harnesses share: running a command of nstats as
 * main() would, but in-process, with its output thrown away. */
#ifndef NSTATS_FUZZ_H
#define NSTATS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* Once per process: stdout to /dev/null (a report's rows are not what is
 * tested, the absence of crashes, leaks and UB is), the working directory
 * a fresh one under $TMPDIR, so that a fuzzed -o writes nothing that
 * matters, and no PATH, so that a fuzzed `-o @command` or .nsys-rep runs
 * no program. */
void fuzz_setup(void);

/* Runs cmd ("stats", "analyze", "check") with argv[0..argc). */
int fuzz_run(const char *cmd, int argc, const char *const *argv);

/* One of the commands that write a file of their own, by choice: export's
 * two types of timeline and report's page, each of path to /dev/null. */
void fuzz_outputs(uint32_t choice, const char *path);

/* The working directory fuzz_setup made. */
const char *fuzz_dir(void);

/* FNV-1a of the input: the harnesses' choices (formats, compression) follow
 * the input, so that a crash replays from its file alone. */
uint32_t fuzz_hash(const uint8_t *data, size_t size);

/* data[0..size) written to path, made or truncated; 0, or -1 on failure. */
int fuzz_write(const char *path, const uint8_t *data, size_t size);

#endif
