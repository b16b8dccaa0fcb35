/* The state every writer shares: random streams, the StringIds pool, and picking from weighted tables. */
#include "nsysgen.h"

/* ======================================================================================= random numbers */

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

/* ======================================================================================= strings */

static uint64_t hash_string(const char *s)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * UINT64_C(0x100000001b3);
    return h;
}

static size_t pool_slot(const struct string_pool *p, const char *s)
{
    size_t i = (size_t)hash_string(s) & (p->cap - 1);
    while (p->keys[i] && strcmp(p->keys[i], s) != 0)
        i = (i + 1) & (p->cap - 1);
    return i;
}

static void pool_grow(struct string_pool *p)
{
    struct string_pool bigger = {xcalloc(p->cap * 2, sizeof(char *)), xcalloc(p->cap * 2, sizeof(int64_t)),
                                 p->cap * 2, p->count};
    for (size_t i = 0; i < p->cap; i++) {
        if (!p->keys[i])
            continue;
        size_t j = pool_slot(&bigger, p->keys[i]);
        bigger.keys[j] = p->keys[i];
        bigger.ids[j] = p->ids[i];
    }
    free(p->keys);
    free(p->ids);
    *p = bigger;
}

void pool_free(struct string_pool *p)
{
    for (size_t i = 0; i < p->cap; i++)
        free(p->keys[i]);
    free(p->keys);
    free(p->ids);
}

/* Returns the StringIds id of `s`, adding it on first use. */
int64_t intern(struct gen *g, const char *s)
{
    struct string_pool *p = &g->strings;
    if ((p->count + 1) * 2 > p->cap)
        pool_grow(p);
    size_t slot = pool_slot(p, s);
    if (p->keys[slot])
        return p->ids[slot];
    int64_t id = (int64_t)p->count++;
    p->keys[slot] = xstrdup(s);
    p->ids[slot] = id;
    row_begin(g->cfg, &g->w_strings);
    put_int(&g->w_strings, id);
    put_text(&g->w_strings, p->keys[slot]);
    row_end(&g->w_strings);
    return id;
}

/* The name that a CUDA backtrace row carries: the call's name less its last `_v<digits>` suffix. */
static int64_t intern_unversioned(struct gen *g, const char *name)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", name);
    char *v = strrchr(buf, '_');
    if (v && v[1] == 'v' && v[2]) {
        bool digits = true;
        for (const char *d = v + 2; *d; d++)
            digits = digits && *d >= '0' && *d <= '9';
        if (digits)
            *v = '\0';
    }
    return intern(g, buf);
}

struct api_ids intern_api(struct gen *g, const char *name, int event_class)
{
    struct api_ids ids = {.event_class = event_class, .kineto = kineto_api(name)};
    ids.name = intern(g, name);
    ids.backtrace_name = intern_unversioned(g, name);
    return ids;
}

/* The last instant of the run so far: the session (ANALYSIS_DETAILS) ends a little after it. */
void note_time(struct gen *g, int64_t t)
{
    if (t > g->last_time)
        g->last_time = t;
}

/* ======================================================================================= picking */

void weighted_init(struct weighted_table *t, const int *weights, size_t count)
{
    if (count > COUNT_OF(t->cumulative))
        fail("internal error: a weighted table has more than %zu rows", COUNT_OF(t->cumulative));
    t->count = count;
    int64_t sum = 0;
    for (size_t i = 0; i < count; i++)
        t->cumulative[i] = sum += weights[i];
}

size_t weighted_pick(struct gen *g, struct weighted_table *t)
{
    if (t->seq < (int64_t)t->count)
        return (size_t)t->seq++;
    t->seq++;
    int64_t x = rng_below(&g->rng, t->cumulative[t->count - 1]);
    size_t i = 0;
    while (t->cumulative[i] <= x)
        i++;
    return i;
}

int64_t pick_int(struct gen *g, const int64_t *values, size_t count)
{
    return values[rng_below(&g->rng, (int64_t)count)];
}
