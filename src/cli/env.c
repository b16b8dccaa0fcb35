/* What the environment, the locale and the terminal decide: the only
 * place nstats reads them; the library is told through its options. */
#include <errno.h>
#include <locale.h>
#include <sys/ioctl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

/* "\rnstats: reading T: 42%" on a terminal, erased when the table is read. */
static void show_progress(void *arg, const char *table, uint64_t rows, uint64_t expected,
			  bool done)
{
	(void)arg;
	if (done)
		fputs("\r\033[K", stderr);
	else
		fprintf(stderr, "\rnstats: reading %s: %3u%%", table,
			(unsigned)(rows < expected ? rows * 100 / expected : 100));
	fflush(stderr);
}

static void show_timing(void *arg, const char *line)
{
	(void)arg;
	fprintf(stderr, "nstats: timing: %s\n", line);
}

enum { ENV_TIMING, ENV_READ_THREADS, ENV_READER, ENV_MEMORY, ENV_NUMERIC, ENV_COLUMNS, ENV_NO_COLOR, ENV_MPI };

const struct cli_env cli_environment[] = {
	[ENV_TIMING] = { "NSTATS_TIMING",
		"When set, how long each table took to read (with the columns read and\n"
		"their bytes a row), each column widened to 64 bits, each report run and\n"
		"each finding of check, on standard error." },
	[ENV_READ_THREADS] = { "NSTATS_READ_THREADS",
		"How many threads read tables at once, 1 to 64, each on its own\n"
		"connection, a big table cut among them by its pages; 0 or unset: one a\n"
		"processor nstats may run on (taskset), at most 16.  1 also writes the\n"
		"sections of a page one after another (by default two at a time)." },
	[ENV_READER] = { "NSTATS_READER",
		"sqlite reads every table through SQLite; by default tables are read\n"
		"straight from the export's pages where the file allows (NSTATS_TIMING\n"
		"says which way each table was read)." },
	[ENV_MEMORY] = { "NSTATS_MEMORY_LIMIT",
		"The memory the tables may take, in bytes or with K, M or G (powers of\n"
		"1024): an export whose columns alone would take more is refused before\n"
		"it is read. By default this machine's memory, or ulimit -v when lower;\n"
		"a value that is not a size is refused (exit status 2)." },
	[ENV_NUMERIC] = { "LC_ALL, LC_NUMERIC, LANG",
		"The thousands separator, grouping and decimal point of the column and\n"
		"table formats (csv, tsv and json keep plain numbers); nothing else\n"
		"follows the locale." },
	[ENV_COLUMNS] = { "COLUMNS",
		"The width that summary fits its page to, unless --width says (a\n"
		"terminal's own width when standard output is one, else 100)." },
	[ENV_NO_COLOR] = { "NO_COLOR",
		"When set and not empty, summary uses no colour unless --color=always." },
	[ENV_MPI] = { "OMPI_COMM_WORLD_SIZE, PMI_SIZE, PMIX_RANK",
		"Set by mpirun: recipe then shares its inputs among the MPI ranks\n"
		"(through nstats-mpi)." },
};
const size_t cli_nenvironment = sizeof cli_environment / sizeof *cli_environment;

/* v as bytes ("1048576", "512M"); false when it is not such a size. */
static bool parse_size(const char *v, uint64_t *out)
{
	char *end;
	if (*v < '0' || *v > '9')
		return false;
	errno = 0;
	unsigned long long n = strtoull(v, &end, 10);
	if (errno == ERANGE)
		return false;
	int shift = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
	if ((shift && end[1]) || (!shift && *end) || n > (UINT64_MAX >> shift))
		return false;
	*out = (uint64_t)n << shift;
	return true;
}

/* NSTATS_MEMORY_LIMIT as bytes; 0 (this machine's) when unset or empty
 * (cli_environment_ok refused any other value). */
static uint64_t memory_limit(void)
{
	const char *v = getenv(cli_environment[ENV_MEMORY].name);
	uint64_t n = 0;
	return v && parse_size(v, &n) ? n : 0;
}

/* v as a number of threads, 0 to 64 (digits only); false when it is not. */
static bool parse_threads(const char *v, int *out)
{
	uint64_t n;
	if (strspn(v, "0123456789") != strlen(v) || !parse_size(v, &n) || n > 64)
		return false;
	*out = (int)n;
	return true;
}

/* NSTATS_READ_THREADS as a count; 0 (the default) when unset or empty
 * (cli_environment_ok refused any other value). */
static int read_threads(void)
{
	const char *v = getenv(cli_environment[ENV_READ_THREADS].name);
	int n = 0;
	return v && parse_threads(v, &n) ? n : 0;
}

bool cli_environment_ok(void)
{
	const char *name = cli_environment[ENV_READ_THREADS].name, *v = getenv(name);
	int threads;
	uint64_t n;
	if (v && *v && !parse_threads(v, &threads)) {
		cli_error("%s='%s' is not a number of threads from 1 to 64 (0: the default)", name, v);
		return false;
	}
	name = cli_environment[ENV_MEMORY].name;
	v = getenv(name);
	if (v && *v && (!parse_size(v, &n) || n == 0)) {
		cli_error("%s='%s' is not a size: a number of bytes, or with K, M or G after it", name,
			  v);
		return false;
	}
	return true;
}

void cli_export_options(struct nst_options *o, bool quiet)
{
	const char *reader = getenv(cli_environment[ENV_READER].name);
	*o = (struct nst_options){
		.version = NST_API_VERSION,
		.read_threads = read_threads(),
		.sqlite_reader = reader && strcmp(reader, "sqlite") == 0,
		.memory_limit = memory_limit(),
		.timing = getenv(cli_environment[ENV_TIMING].name) ? show_timing : NULL,
	};
	if (!quiet && isatty(STDERR_FILENO) && !isatty(STDOUT_FILENO))
		o->progress = show_progress;
}

/* Whether name is C's locale under another name (POSIX, C.UTF-8): its
 * numbers are C's, the ones a program starts with. */
static bool is_c_locale(const char *name)
{
	return strcmp(name, "C") == 0 || strcmp(name, "POSIX") == 0 || strncmp(name, "C.", 2) == 0;
}

void cli_numeric_locale(void)
{
	/* the order in which POSIX looks for LC_NUMERIC's locale */
	static const char *const vars[] = { "LC_ALL", "LC_NUMERIC", "LANG" };
	const char *name = "";
	for (size_t i = 0; i < sizeof vars / sizeof *vars && !*name; i++)
		name = getenv(vars[i]) ? getenv(vars[i]) : "";
	/* loading a locale takes 0.2 ms of a small export's 2 ms run: only
	 * where it may change a number */
	if (*name && !is_c_locale(name))
		setlocale(LC_NUMERIC, "");
}

void cli_format_options(struct nst_format_options *o, enum nst_target target,
			const char *timeunit)
{
	const struct lconv *lc = localeconv();
	*o = (struct nst_format_options){
		.version = NST_API_VERSION,
		.target = target,
		.timeunit = timeunit,
		.thousands_sep = lc->thousands_sep,
		.grouping = lc->grouping,
		.decimal_point = lc->decimal_point,
	};
}

static size_t clamp(long v, size_t lo, size_t hi)
{
	return v < (long)lo ? lo : (size_t)v > hi ? hi : (size_t)v;
}

size_t cli_terminal_width(size_t lo, size_t hi, size_t fallback)
{
	const char *columns = getenv(cli_environment[ENV_COLUMNS].name);
	char *end;
	long v = columns ? strtol(columns, &end, 10) : 0;
	if (columns && *columns && *end == '\0' && v > 0)
		return clamp(v, lo, hi);
	struct winsize ws;
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return clamp(ws.ws_col, lo, hi);
	return fallback;
}

bool cli_progress_wanted(bool quiet)
{
	return !quiet && isatty(STDERR_FILENO) && !isatty(STDOUT_FILENO);
}

bool cli_under_mpi(void)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK" };
	for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
		if (getenv(vars[i]))
			return true;
	return false;
}

bool cli_color_wanted(void)
{
	const char *no = getenv(cli_environment[ENV_NO_COLOR].name);
	return isatty(STDOUT_FILENO) && !(no && *no);
}
