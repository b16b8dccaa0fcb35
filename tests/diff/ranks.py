"""The rank statistics of `nstats diff`, computed here another way, with python3's standard
library only: ranks by sorting the pooled sample, the exact null distribution by enumerating
B's doubled rank sum item by item in exact integers, the Hodges-Lehmann shift and its interval
from the sorted list of every pairwise difference, Holm's adjustment by its definition.

What nstats computes (docs/guide.md, "Is it noise?"): the Mann-Whitney U test of B's durations
against A's, two-sided, exact (ties at their midranks) when n + m <= 60, else normal with the tie
and continuity corrections; the Hodges-Lehmann estimate of the ratio of B's durations to A's (the
median of every log b - log a, as a change in percent) with a 95% interval whose ranks come from
U's distribution (exact without ties up to n + m = 60, else
normal); Holm's adjustment over a report's rows."""
import math
from collections import Counter
from statistics import NormalDist

EXACT_MAX = 60


def midranks(a, b):
    """B's rank sum (midranks) and the sizes of the groups of tied values."""
    pooled = sorted([(x, 0) for x in a] + [(x, 1) for x in b])
    rank_b, ties, i = 0.0, [], 0
    while i < len(pooled):
        j = i
        while j < len(pooled) and pooled[j][0] == pooled[i][0]:
            j += 1
        mid = (i + 1 + j) / 2
        rank_b += mid * sum(1 for _, s in pooled[i:j] if s == 1)
        ties.append(j - i)
        i = j
    return rank_b, ties


def exact_p(a, b):
    """P(|S - E| >= |s - E|) for B's doubled rank sum S over every choice of len(b) of the
    pooled items, counted in integers."""
    n, m = len(a), len(b)
    rank_b, ties = midranks(a, b)
    doubled = []
    start = 0
    for t in ties:
        doubled += [2 * start + 1 + t] * t  # twice the midrank (start + 1 + start + t) / 2
        start += t
    ways = [Counter() for _ in range(m + 1)]
    ways[0][0] = 1
    for i, r in enumerate(doubled):
        for k in range(min(i, m - 1), -1, -1):
            for s, c in list(ways[k].items()):
                ways[k + 1][s + r] += c
    mean2 = m * (n + m + 1)
    obs = round(2 * rank_b)
    far = abs(obs - mean2)
    hits = sum(c for s, c in ways[m].items() if abs(s - mean2) >= far)
    return hits / math.comb(n + m, m)


def sigma(n, m, ties):
    N = n + m
    return math.sqrt(n * m / 12 * ((N + 1) - sum(t ** 3 - t for t in ties) / (N * (N - 1))))


def u_of(a, b):
    rank_b, ties = midranks(a, b)
    m = len(b)
    return rank_b - m * (m + 1) / 2, ties


def p_value(a, b):
    n, m = len(a), len(b)
    if not n or not m:
        return 1.0
    if n + m <= EXACT_MAX:
        return exact_p(a, b)
    u, ties = u_of(a, b)
    s = sigma(n, m, ties)
    if s == 0:
        return 1.0
    z = max(abs(u - n * m / 2) - 0.5, 0) / s
    return math.erfc(z / math.sqrt(2))


def u_counts(n, m):
    """How many orderings give U = u, without ties: the recurrence f(n, m, u) = f(n - 1, m, u)
    + f(n, m - 1, u - n), in integers."""
    f = {(0, j): [1] for j in range(m + 1)}
    for i in range(n + 1):
        f[(i, 0)] = [1]
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            x, y = f[(i - 1, j)], f[(i, j - 1)]
            out = [0] * (i * j + 1)
            for u, c in enumerate(x):
                out[u] += c
            for u, c in enumerate(y):
                out[u + i] += c
            f[(i, j)] = out
    return f[(n, m)]


def interval_rank(n, m, ties, conf=0.95):
    """k: the interval is the k-th and (n*m + 1 - k)-th smallest difference; 0 for none."""
    if n + m <= EXACT_MAX:
        counts, total, acc, c = u_counts(n, m), math.comb(n + m, n), 0, -1
        for u, w in enumerate(counts):
            acc += w
            if acc / total <= (1 - conf) / 2 + 1e-12:
                c = u
            else:
                break
        return c + 1
    z = NormalDist().inv_cdf((1 + conf) / 2)
    return math.floor(n * m / 2 - z * sigma(n, m, ties)) + 1


def hodges_lehmann(a, b, conf=0.95):
    """(shift, lo, hi) from the sorted list of every b - a; lo/hi None without an interval."""
    d = sorted(y - x for x in a for y in b)
    nm = len(d)
    shift = d[nm // 2] if nm % 2 else (d[nm // 2 - 1] + d[nm // 2]) / 2
    _, ties = u_of(a, b)
    k = interval_rank(len(a), len(b), ties, conf)
    if k < 1:
        return shift, None, None
    return shift, d[k - 1], d[nm - k]


def ratio_shift(a, b, conf=0.95):
    """The Hodges-Lehmann estimate on the logarithms (a duration below 1 ns as 1 ns), as a
    change in percent, with its interval: (pct, lo, hi), lo/hi None without one."""
    log = lambda x: math.log(max(x, 1))
    d = sorted(log(y) - log(x) for x in a for y in b)
    nm = len(d)
    mid = d[nm // 2] if nm % 2 else (d[nm // 2 - 1] + d[nm // 2]) / 2
    pct = lambda x: math.expm1(x) * 100
    _, ties = u_of(a, b)
    k = interval_rank(len(a), len(b), ties, conf)
    if k < 1:
        return pct(mid), None, None
    return pct(mid), pct(d[k - 1]), pct(d[nm - k])


def holm(ps):
    """Adjusted p-values of ps (None: untested, stays None)."""
    tested = sorted((p, i) for i, p in enumerate(ps) if p is not None)
    out, running = [None] * len(ps), 0.0
    for rank, (p, i) in enumerate(tested):
        running = max(running, min(1.0, (len(tested) - rank) * p))
        out[i] = running
    return out


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def status(a, b, p_adj, pct, alpha=0.05, tolerance=2):
    if not a:
        return "added"
    if not b:
        return "removed"
    if alpha < 1 and p_adj >= alpha:
        return "~"
    if abs(pct) <= tolerance:
        return "same"
    return "slower" if pct > 0 else "faster"
