/* The file a command writes whole: see outfile.h. */
#include "cli/outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

const char *cli_outfile_name(const struct cli_outfile *f)
{
	return strcmp(f->path, "-") == 0 ? "standard output" : f->path;
}

/* --force-overwrite must not replace an input with what is written. */
static int refuse_input(const struct cli_outfile *f, const char *input)
{
	struct stat out, in;
	if (stat(f->path, &out) != 0 || stat(input, &in) != 0 || out.st_dev != in.st_dev ||
	    out.st_ino != in.st_ino)
		return 0;
	cli_error("%s: is an input (%s): writing there would replace it", f->path, input);
	return EXIT_USAGE;
}

static int open_in_place(struct cli_outfile *f)
{
	if ((f->fp = fopen(f->path, "w")))
		return 0;
	cli_error("%s: %s", f->path, strerror(errno));
	return EXIT_OUTPUT;
}

static int open_temp(struct cli_outfile *f)
{
	if (!(f->tmp = malloc(strlen(f->path) + 16))) {
		cli_error("out of memory");
		return EXIT_FAILED;
	}
	sprintf(f->tmp, "%s.tmp-XXXXXX", f->path);
	int fd = mkstemp(f->tmp);
	/* mkstemp makes it 0600: the file gets the mode a new file gets */
	mode_t mask = umask(0);
	umask(mask);
	if (fd < 0 || fchmod(fd, 0666 & ~mask) != 0 || !(f->fp = fdopen(fd, "w"))) {
		cli_error("%s: %s", f->path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(f->tmp);
		}
		free(f->tmp);
		f->tmp = NULL;
		return EXIT_OUTPUT;
	}
	return 0;
}

int cli_outfile_open(struct cli_outfile *f, const char *const *inputs, size_t n)
{
	if (strcmp(f->path, "-") == 0) {
		if (f->binary && isatty(STDOUT_FILENO)) {
			cli_error("%s is not for a terminal: give -o FILE or redirect standard output",
				  f->binary);
			return EXIT_USAGE;
		}
		f->fp = stdout;
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		int rc = refuse_input(f, inputs[i]);
		if (rc)
			return rc;
	}
	struct stat st;
	if (stat(f->path, &st) != 0)
		return open_temp(f);
	if (!S_ISREG(st.st_mode))
		return open_in_place(f);
	if (!f->force) {
		cli_error("%s: output file exists (--force-overwrite replaces it)", f->path);
		return EXIT_OUTPUT;
	}
	return open_temp(f);
}

/* Without force by link(), which refuses a file made meanwhile. */
static int put_in_place(const struct cli_outfile *f)
{
	if ((f->force ? rename(f->tmp, f->path) : link(f->tmp, f->path)) == 0)
		return 0;
	cli_error("%s: %s%s", f->path, strerror(errno),
		  errno == EEXIST ? " (--force-overwrite replaces it)" : "");
	return EXIT_OUTPUT;
}

int cli_outfile_close(struct cli_outfile *f, int rc)
{
	if (f->fp) {
		errno = 0;
		bool bad = ferror(f->fp) | (f->fp == stdout ? fflush(f->fp) != 0 : fclose(f->fp) != 0);
		if (bad && !rc) {
			cli_error("%s: write failed: %s", cli_outfile_name(f),
				  strerror(errno ? errno : EIO));
			rc = EXIT_OUTPUT;
		}
		f->fp = NULL;
	}
	if (f->tmp) {
		if (!rc)
			rc = put_in_place(f);
		if (rc || !f->force)
			unlink(f->tmp);
		free(f->tmp);
		f->tmp = NULL;
	}
	return rc;
}
