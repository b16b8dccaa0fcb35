/* The file being written: failing cleanly (no half-written file left behind), creating it, and
 * moving it into place when it is complete. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nsysgen.h"

struct output_file g_out = {"nsysgen", NULL, NULL, NULL};

static void discard_output(void)
{
    if (g_out.trace_tmp_path) {
        unlink(g_out.trace_tmp_path);
        free(g_out.trace_tmp_path);
        g_out.trace_tmp_path = NULL;
    }
    if (g_out.db) {
        sqlite3_close_v2(g_out.db);
        g_out.db = NULL;
    }
    if (g_out.tmp_path) {
        unlink(g_out.tmp_path);
        free(g_out.tmp_path);
        g_out.tmp_path = NULL;
    }
}

void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "nsysgen: %s: ", g_out.shown);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    discard_output();
    exit(1);
}

_Noreturn void fail_sqlite(const char *what)
{
    fail("%s: %s", what, g_out.db ? sqlite3_errmsg(g_out.db) : "no database");
}

void exec_sql(const char *sql, const char *what)
{
    char *err = NULL;
    if (sqlite3_exec(g_out.db, sql, NULL, NULL, &err) != SQLITE_OK)
        fail("%s: %s", what, err ? err : sqlite3_errmsg(g_out.db));
}

/* Ctrl-C or a kill leaves no temporary file behind: unlink() is async-signal-safe, and the path is
 * set before the handler is installed. */
static void remove_temporary_on_signal(int sig)
{
    if (g_out.tmp_path)
        unlink(g_out.tmp_path);
    if (g_out.trace_tmp_path)
        unlink(g_out.trace_tmp_path);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_signal_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = remove_temporary_on_signal;
    sigemptyset(&sa.sa_mask);
    const int SIGNALS[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    for (size_t i = 0; i < COUNT_OF(SIGNALS); i++)
        if (sigaction(SIGNALS[i], &sa, NULL) != 0)
            fail("cannot install a signal handler: %s", strerror(errno));
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        fail("out of memory");
    return p;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = xcalloc(n, 1);
    memcpy(p, s, n);
    return p;
}

static bool path_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

void open_output(const struct config *c)
{
    g_out.shown = c->out_path;
    if (!c->force && path_exists(c->out_path))
        fail("exists; use --force to overwrite it");
    if (c->kineto_path && !c->force && path_exists(c->kineto_path))
        fail("the Kineto trace %s exists; use --force to overwrite it", c->kineto_path);
    size_t n = strlen(c->out_path) + 32;
    g_out.tmp_path = xcalloc(n, 1);
    snprintf(g_out.tmp_path, n, "%s.nsysgen-%ld.tmp", c->out_path, (long)getpid());
    install_signal_handlers();
    unlink(g_out.tmp_path);
    /* One thread uses one connection: SQLite's mutexes and memory statistics cost about a tenth of
     * a big run (perf: pthread_mutex_lock/unlock and sqlite3StatusUp on every row). Both must be
     * set before the library initializes, that is before the first open. */
    if (sqlite3_config(SQLITE_CONFIG_SINGLETHREAD) != SQLITE_OK ||
        sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) != SQLITE_OK)
        fail("cannot configure SQLite for one thread");
    if (sqlite3_open_v2(g_out.tmp_path, &g_out.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK)
        fail_sqlite("cannot create the temporary file");
    /* One transaction, no journal, no fsync: a crash leaves only the temporary file, which is
     * never renamed into place. */
    exec_sql("PRAGMA page_size=4096; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; "
             "PRAGMA locking_mode=EXCLUSIVE; PRAGMA cache_size=-65536; PRAGMA temp_store=MEMORY",
             "setting up the database");
    exec_sql("BEGIN", "starting the transaction");
}

/* Moves a finished file into place. Without --force, link() refuses an output that appeared
 * meanwhile; file systems without hard links fall back to rename(). */
static void publish(char **tmp_path, const char *path, bool force, const char *what)
{
    if (!force) {
        if (link(*tmp_path, path) == 0) {
            unlink(*tmp_path);
            free(*tmp_path);
            *tmp_path = NULL;
            return;
        }
        if (errno == EEXIST || path_exists(path))
            fail("%s%sexists; use --force to overwrite it", what, *what ? " " : "");
    }
    if (rename(*tmp_path, path) != 0)
        fail("cannot rename %s into place: %s", *tmp_path, strerror(errno));
    free(*tmp_path);
    *tmp_path = NULL;
}

void publish_output(const struct config *c) { publish(&g_out.tmp_path, c->out_path, c->force, ""); }

/* The trace goes into place after the export, once both are complete. */
void publish_trace(const struct config *c)
{
    if (!c->kineto_path)
        return;
    char what[64 + 4096];
    snprintf(what, sizeof what, "the Kineto trace %s", c->kineto_path);
    publish(&g_out.trace_tmp_path, c->kineto_path, c->force, what);
}
