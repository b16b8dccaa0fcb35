/* Perturbations of the run, for the tests of a diff's regression gate: --slow-kernel, --drop-launches,
 * --insert-launches (cuda.c, emit_inserted_launches) and --rename-kernel. Each changes what it says in
 * the export and in the --kineto trace alike, and draws from a random stream of its own, so that the
 * rest of the run is that of the same options without it. */
#include "nsysgen.h"

void perturb_setup(struct gen *g)
{
    const struct config *c = g->cfg;
    rng_seed(&g->drop_rng, c->seed ^ UINT64_C(0x64726f706c61756e));
    g->launches_left = c->kernels;
    g->drops_left = c->drop_launches;
}

/* --drop-launches: whether the next of the run's kernel launches is left out. Selection sampling
 * (Knuth's algorithm S): each launch is taken with probability drops left / launches left, so exactly
 * N go, spread over the run, one draw per launch. */
bool drop_this_launch(struct gen *g)
{
    if (g->drops_left == 0)
        return false;
    bool drop = rng_below(&g->drop_rng, g->launches_left) < g->drops_left;
    g->launches_left--;
    if (drop)
        g->drops_left--;
    return drop;
}

/* --slow-kernel: the duration PCT% longer, rounded to the nearest ns (halves up). */
int64_t slowed_duration(const struct config *c, int64_t ns)
{
    return (ns * (100 + c->slow_kernel.pct) + 50) / 100;
}

static bool identifier_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* `text` with `len` bytes at `at` replaced by `to`, into out. */
static void splice(const char *text, size_t at, size_t len, const char *to, char *out, size_t size)
{
    int n = snprintf(out, size, "%.*s%s%s", (int)at, text, to, text + at + len);
    if (n < 0 || (size_t)n >= size)
        fail("internal error: a renamed kernel name is longer than %zu bytes", size - 1);
}

/* --rename-kernel in a demangled name (nsys's or Kineto's spelling): the first whole word `from`, which
 * is the base name in every spelling of nsysgen's kernels. */
void rename_in_name(const char *text, const char *from, const char *to, char *out, size_t size)
{
    size_t len = strlen(from);
    for (const char *p = strstr(text, from); p; p = strstr(p + 1, from)) {
        if ((p == text || !identifier_char(p[-1])) && !identifier_char(p[len])) {
            splice(text, (size_t)(p - text), len, to, out, size);
            return;
        }
    }
    fail("internal error: the kernel name '%s' has no word '%s'", text, from);
}

/* The same in a mangled name: the source name <length><from> becomes <length><to>; an extern "C"
 * kernel's mangled name is its plain name. */
void rename_in_mangled(const char *text, const char *from, const char *to, char *out, size_t size)
{
    if (strncmp(text, "_Z", 2) != 0) {
        rename_in_name(text, from, to, out, size);
        return;
    }
    char old_source[256], new_source[256];
    snprintf(old_source, sizeof old_source, "%zu%s", strlen(from), from);
    snprintf(new_source, sizeof new_source, "%zu%s", strlen(to), to);
    for (const char *p = strstr(text, old_source); p; p = strstr(p + 1, old_source)) {
        if (p[-1] < '0' || p[-1] > '9') {
            splice(text, (size_t)(p - text), strlen(old_source), new_source, out, size);
            return;
        }
    }
    fail("internal error: the mangled kernel name '%s' has no source name '%s'", text, old_source);
}
