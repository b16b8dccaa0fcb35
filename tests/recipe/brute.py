#!/usr/bin/env python3
"""brute.py [--ranks auto|input] [--write] RECIPE[:ARG...] DIR INPUT...: recomputes from the Nsight Systems
exports INPUT (.sqlite), with Python's sqlite3 and nothing of nstats, every table that
`nstats recipe RECIPE -f csv -o DIR INPUT...` wrote as DIR/NAME_TABLE.csv, as docs/recipes.md
defines them, and compares them cell by cell: integers exactly, one-decimal values within 0.051
(rounding ties), Imbalance within 0.0051, text exactly. Prints each difference (file, row, column,
expected, got) and exits 1 when there is one, 2 on a usage error. --write writes the tables it
expects into DIR instead, in the shape the comparison reads (its own test).

Recipes and tables checked:
  cuda_gpu_kern_sum[:base|:mangled], cuda_api_sum, cuda_gpu_mem_time_sum, nvtx_sum, nccl_sum,
  mpi_sum: all and rank (the summary shape)
  gpu_time_util[:buckets=N][:gap=NS]: rank (stats -r gpu_time_sum's numbers per rank and device, as
      tests/accounting/brute_gpu_time.c computes them: the capture span is the input's) and util
  nccl_overlap: rank and all
  stragglers[:iteration=RANGE]: iterations and collectives (without iteration=, the whole capture's
      duration is not defined by the doc: the iterations table's duration columns are not checked)

Ranks follow `--ranks auto` (the default): a process listed in MPI_RANKS is that rank, an input
without (or with an empty) MPI_RANKS is one rank; when every rank has a number and no two share one
those are the Rank column, otherwise ranks are numbered 0, 1, ... in input order, then rank number
or process id. `--ranks input`: each input is one rank, numbered in input order.

What a value is, as the doc says: a kernel's, a CUDA call's (runtime rows with callchainId NULL and
eventClass not 67: never a CUDA backtrace record), a memcpy's or memset's, an NVTX push/pop or
start/end range's duration (end - start; an open range runs to the input's last NVTX timestamp, as
stats -r nvtx_sum); an NCCL kernel is one whose base name (shortName) starts with ncclKernel_ or
ncclDevKernel_, its collective the word after the prefix; an MPI call is a row of the MPI event
tables (one without an end is left out), or where an input has none of them an NVTX range of the
MPI domain or whose text starts with MPI_, its Function the range's text.
"""
import csv
import math
import os
import sqlite3
import sys
from collections import defaultdict

NCCL_PREFIXES = ("ncclKernel_", "ncclDevKernel_")
SUMMARY = {"cuda_gpu_kern_sum", "cuda_api_sum", "cuda_gpu_mem_time_sum", "nvtx_sum", "nccl_sum", "mpi_sum"}
MPI_TABLES = ("MPI_P2P_EVENTS", "MPI_COLLECTIVES_EVENTS", "MPI_START_WAIT_EVENTS", "MPI_OTHER_EVENTS")

# ---- exports -------------------------------------------------------------------------------------


def has_table(db, name):
    return db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (name,)).fetchone() is not None


def has_column(db, table, column):
    return any(r[1] == column for r in db.execute(f"PRAGMA table_info({table})"))


def gpid(gtid):
    """The globalPid of a globalTid: the thread bits cleared."""
    return gtid - (gtid & 0xFFFFFF)


class Job:
    """The inputs, and which rank each process of each is."""

    def __init__(self, paths, mode):
        self.dbs = [sqlite3.connect(f"file:{p}?mode=ro", uri=True) for p in paths]
        entries = []  # (input, rank number or None, pid or None, process key or None)
        self.by_process = []  # per input: {globalPid: entry index}, or None: the whole input
        self.whole = []  # per input: the entry index of the whole input, or None
        for i, db in enumerate(self.dbs):
            ranks = {}
            if mode == "auto" and has_table(db, "MPI_RANKS"):
                for gtid, rank in db.execute("SELECT globalTid, rank FROM MPI_RANKS"):
                    p = gpid(gtid)
                    ranks[p] = rank if p not in ranks else min(ranks[p], rank)
            if ranks:
                m = {}
                for p, rank in sorted(ranks.items()):
                    m[p] = len(entries)
                    entries.append((i, rank, (p >> 24) & 0xFFFFFF))
                self.by_process.append(m)
                self.whole.append(None)
            else:
                self.by_process.append(None)
                self.whole.append(len(entries))
                entries.append((i, None, None))
        numbers = [e[1] for e in entries]
        if all(n is not None for n in numbers) and len(set(numbers)) == len(numbers):
            self.rank_of_entry = numbers
        else:
            order = sorted(range(len(entries)),
                           key=lambda k: (entries[k][0], entries[k][1] if entries[k][1] is not None
                                          else (entries[k][2] or 0)))
            self.rank_of_entry = [0] * len(entries)
            for n, k in enumerate(order):
                self.rank_of_entry[k] = n
        self.ranks = sorted(self.rank_of_entry)

    def rank(self, i, global_pid):
        """The rank of a row of input i whose process is global_pid; None: no rank's."""
        if self.by_process[i] is None:
            return self.rank_of_entry[self.whole[i]]
        k = self.by_process[i].get(gpid(global_pid))
        return None if k is None else self.rank_of_entry[k]


def strip_version(name):
    """A `_vNNNN` suffix (the last six characters starting `_v`) dropped, as stats -r cuda_api_sum."""
    return name[:-6] if len(name) >= 6 and name[-6:-4] == "_v" else name


def kernels(job, name_column="demangledName"):
    """(rank, input, device, stream, start, end, name, base name) of every kernel."""
    for i, db in enumerate(job.dbs):
        if not has_table(db, "CUPTI_ACTIVITY_KIND_KERNEL"):
            continue
        q = (f"SELECT k.globalPid, k.deviceId, k.streamId, k.start, k.end, n.value, b.value "
             f"FROM CUPTI_ACTIVITY_KIND_KERNEL k LEFT JOIN StringIds n ON n.id = k.{name_column} "
             f"LEFT JOIN StringIds b ON b.id = k.shortName")
        for p, dev, stream, start, end, name, base in db.execute(q):
            r = job.rank(i, p)
            if r is not None:
                yield r, i, dev, stream, start, end, name, base


def memops(job):
    """(rank, input, device, stream, start, end, operation) of every memcpy and memset."""
    for i, db in enumerate(job.dbs):
        if has_table(db, "CUPTI_ACTIVITY_KIND_MEMCPY"):
            q = ("SELECT m.globalPid, m.deviceId, m.streamId, m.start, m.end, '[CUDA memcpy ' || e.label || ']' "
                 "FROM CUPTI_ACTIVITY_KIND_MEMCPY m JOIN ENUM_CUDA_MEMCPY_OPER e ON e.id = m.copyKind")
            for p, dev, stream, start, end, op in db.execute(q):
                r = job.rank(i, p)
                if r is not None:
                    yield r, i, dev, stream, start, end, op
        if has_table(db, "CUPTI_ACTIVITY_KIND_MEMSET"):
            q = "SELECT globalPid, deviceId, streamId, start, end FROM CUPTI_ACTIVITY_KIND_MEMSET"
            for p, dev, stream, start, end in db.execute(q):
                r = job.rank(i, p)
                if r is not None:
                    yield r, i, dev, stream, start, end, "[CUDA memset]"


def api_calls(job):
    """(rank, duration, name) of every CUDA runtime or driver call, never a backtrace record."""
    for i, db in enumerate(job.dbs):
        if not has_table(db, "CUPTI_ACTIVITY_KIND_RUNTIME"):
            continue
        where = []
        if has_column(db, "CUPTI_ACTIVITY_KIND_RUNTIME", "callchainId"):
            where.append("r.callchainId IS NULL")
        if has_column(db, "CUPTI_ACTIVITY_KIND_RUNTIME", "eventClass"):
            where.append("r.eventClass IS NOT 67")
        q = ("SELECT r.globalTid, r.end - r.start, s.value FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
             "LEFT JOIN StringIds s ON s.id = r.nameId" + (" WHERE " + " AND ".join(where) if where else ""))
        for t, dur, name in db.execute(q):
            r = job.rank(i, gpid(t))
            if r is not None:
                yield r, dur, strip_version(name)


def nvtx_ranges(job, only=None):
    """(rank, input, style, name, text, start, end) of every push/pop and start/end range: name is
    `domain:text` in a named domain (the domain created in the range's process), text the bare text."""
    styles = {59: "PushPop", 70: "PushPop", 60: "StartEnd", 71: "StartEnd"}
    for i, db in enumerate(job.dbs):
        if not has_table(db, "NVTX_EVENTS") or (only is not None and i != only):
            continue
        last = db.execute("SELECT max(coalesce(max(start), 0), coalesce(max(end), 0)) FROM NVTX_EVENTS").fetchone()[0]
        domains = {}
        for d, t, text in db.execute("SELECT domainId, globalTid, text FROM NVTX_EVENTS WHERE eventType = 75"):
            domains.setdefault((gpid(t), d), text)
        has_text_id = has_column(db, "NVTX_EVENTS", "textId")
        q = ("SELECT n.eventType, n.start, n.end, n.globalTid, n.domainId, coalesce(n.text, s.value) "
             "FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = " + ("n.textId" if has_text_id else "NULL") +
             " WHERE n.eventType IN (59, 60, 70, 71)")
        for kind, start, end, t, d, text in db.execute(q):
            r = job.rank(i, gpid(t))
            if r is None:
                continue
            domain = domains.get((gpid(t), d)) if d else None
            name = f"{domain}:{text}" if domain else text
            yield r, i, styles[kind], name, text, start, end if end is not None else last


def mpi_calls(job):
    """(rank, duration, function) of every MPI call: the rows of the MPI event tables, or where an
    input has none of them, its NVTX ranges of the MPI domain or named MPI_*. A call without an
    end (cut by the end of the capture) has no duration and is left out."""
    for i, db in enumerate(job.dbs):
        tables = [t for t in MPI_TABLES if has_table(db, t)]
        if tables:
            for t in tables:
                q = f"SELECT e.globalTid, e.end - e.start, s.value FROM {t} e LEFT JOIN StringIds s ON s.id = e.textId"
                for gt, dur, name in db.execute(q):
                    r = job.rank(i, gpid(gt))
                    if r is not None and dur is not None:
                        yield r, dur, name
            continue
        for r, i2, _, name, text, start, end in nvtx_ranges(job, only=i):
            if name.startswith("MPI:") or (text or "").startswith("MPI_"):
                yield r, end - start, text


def nccl_collective(base):
    for p in NCCL_PREFIXES:
        if base and base.startswith(p):
            rest = base[len(p):]
            return rest.split("_")[0].split("(")[0]
    return None


# ---- statistics ----------------------------------------------------------------------------------


def median(values):
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def stats(values):
    """Total, count, avg, med, min, max, sample stddev (0 below two values), exactly then rounded."""
    n, total = len(values), sum(values)
    if n >= 2:
        sq = sum(v * v for v in values)
        stddev = math.sqrt(max(n * sq - total * total, 0) / (n * (n - 1)))
    else:
        stddev = 0.0
    return total, n, total / n, median(values), min(values), max(values), stddev


def pct(part, whole):
    return part * 100.0 / whole if whole else 0.0


# ---- the tables ----------------------------------------------------------------------------------
# A table is (columns, rows); a column is (name, kind): kind int, dec1, dec2 or text.

STAT_COLUMNS = [("Time (%)", "dec1"), ("Total Time", "int"), ("Instances", "int"), ("Avg", "dec1"),
                ("Med", "dec1"), ("Min", "int"), ("Max", "int"), ("StdDev", "dec1")]


def summary_tables(job, values, key_columns):
    """values: {(rank, key tuple): [durations]}; the all and rank tables of the summary shape."""
    groups = defaultdict(list)
    rank_totals = defaultdict(int)
    per_rank_group = defaultdict(lambda: defaultdict(int))
    for (rank, key), v in values.items():
        groups[key].extend(v)
        rank_totals[rank] += sum(v)
        per_rank_group[key][rank] += sum(v)
    grand = sum(rank_totals.values())
    nranks = len(job.ranks)
    rows = []
    for key, v in groups.items():
        total, n, avg, med, lo, hi, sd = stats(v)
        mean_total = total / nranks
        imbalance = max(per_rank_group[key].values()) / mean_total if mean_total else 0.0
        rows.append([pct(total, grand), total, n, avg, med, lo, hi, sd, len(per_rank_group[key]), imbalance, *key])
    rows.sort(key=lambda r: (-r[1], tuple(r[10:])))
    all_table = (STAT_COLUMNS + [("Ranks", "int"), ("Imbalance", "dec2")] + [(k, "text") for k in key_columns], rows)
    rows = []
    for (rank, key), v in values.items():
        total, n, avg, med, lo, hi, sd = stats(v)
        rows.append([rank, pct(total, rank_totals[rank]), total, n, avg, med, lo, hi, sd, *key])
    rows.sort(key=lambda r: (r[0], -r[2], tuple(r[9:])))
    rank_table = ([("Rank", "int")] + STAT_COLUMNS + [(k, "text") for k in key_columns], rows)
    return {"all": all_table, "rank": rank_table}


def recipe_summary(job, name, args):
    values = defaultdict(list)
    if name == "cuda_gpu_kern_sum":
        column = {"base": "shortName", "mangled": "mangledName"}.get(args.get("_flag"), "demangledName")
        for r, _, _, _, start, end, kname, _ in kernels(job, column):
            values[(r, (kname,))].append(end - start)
        keys = ["Name"]
    elif name == "nccl_sum":
        for r, _, _, _, start, end, _, base in kernels(job):
            c = nccl_collective(base)
            if c:
                values[(r, (c,))].append(end - start)
        keys = ["Collective"]
    elif name == "cuda_api_sum":
        for r, dur, api in api_calls(job):
            values[(r, (api,))].append(dur)
        keys = ["Name"]
    elif name == "cuda_gpu_mem_time_sum":
        for r, _, _, _, start, end, op in memops(job):
            values[(r, (op,))].append(end - start)
        keys = ["Operation"]
    elif name == "mpi_sum":
        for r, dur, fn in mpi_calls(job):
            values[(r, (fn,))].append(dur)
        keys = ["Function"]
    else:  # nvtx_sum
        for r, _, style, rname, _, start, end in nvtx_ranges(job):
            values[(r, (style, rname))].append(end - start)
        keys = ["Style", "Range"]
    return summary_tables(job, values, keys)


def union(intervals):
    """The union of [start, end) intervals as a sorted list of disjoint ones."""
    out = []
    for s, e in sorted(intervals):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def covered(parts, lo, hi):
    """How much of [lo, hi) the disjoint sorted intervals parts cover."""
    return sum(max(0, min(e, hi) - max(s, lo)) for s, e in parts)


def intersect_length(a, b):
    """The length of the intersection of two disjoint sorted interval lists."""
    i = j = total = 0
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        total += max(0, hi - lo)
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return total


def recipe_nccl_overlap(job):
    nccl = defaultdict(list)  # (rank, device, stream): intervals
    other = defaultdict(list)  # (rank, device): intervals of non-NCCL work
    for r, _, dev, stream, start, end, _, base in kernels(job):
        if nccl_collective(base):
            nccl[(r, dev, stream)].append((start, end))
        else:
            other[(r, dev)].append((start, end))
    for r, _, dev, _, start, end, _ in memops(job):
        other[(r, dev)].append((start, end))
    others = {k: union(v) for k, v in other.items()}
    rows = []
    for (r, dev, stream), v in sorted(nccl.items()):
        u = union(v)
        t = sum(e - s for s, e in u)
        hidden = intersect_length(u, others.get((r, dev), []))
        rows.append([r, dev, stream, len(v), t, hidden, t - hidden, pct(hidden, t)])
    cols = [("NCCL Kernels", "int"), ("NCCL Time", "int"), ("Hidden", "int"), ("Exposed", "int"),
            ("Hidden (%)", "dec1")]
    rank_table = ([("Rank", "int"), ("Device", "int"), ("Stream", "int")] + cols, rows)
    n = sum(x[3] for x in rows)
    t = sum(x[4] for x in rows)
    h = sum(x[5] for x in rows)
    all_rows = [[len({x[0] for x in rows}), n, t, h, t - h, pct(h, t)]] if rows else []
    return {"rank": rank_table, "all": ([("Ranks", "int")] + cols, all_rows)}


def lowest_max(d):
    """The key of the largest value of {rank: value}, the lowest rank on ties."""
    best = max(d.values())
    return min(k for k, v in d.items() if v == best)


def recipe_stragglers(job, args):
    rng = args.get("iteration")
    iters = defaultdict(dict)  # iteration: {rank: duration}
    bounds = defaultdict(list)  # rank: [(start, end)] in order of start
    if rng:
        for r, _, _, _, text, start, end in nvtx_ranges(job):
            if text == rng:
                bounds[r].append((start, end))
        for r in bounds:
            bounds[r].sort()
            for n, (s, e) in enumerate(bounds[r]):
                iters[n][r] = e - s
    starts = defaultdict(lambda: defaultdict(list))  # rank: iteration: [(start, collective)]
    for r, _, _, _, start, end, _, base in kernels(job):
        c = nccl_collective(base)
        if not c:
            continue
        if not rng:
            starts[r][0].append((start, c))
            continue
        b = bounds.get(r, [])
        for n, (s, _) in enumerate(b):
            nxt = b[n + 1][0] if n + 1 < len(b) else None
            if start >= s and (nxt is None or start < nxt):
                starts[r][n].append((start, c))
                break
    if not rng:
        for r in starts:
            iters[0][r] = None
    it_rows = []
    for n in sorted(iters):
        d = iters[n]
        if rng:
            slowest = lowest_max(d)
            med = median(list(d.values()))
            it_rows.append([n, len(d), med, slowest, d[slowest], d[slowest] - med])
        else:
            it_rows.append([n, len(d), None, None, None, None])
    it_cols = [("Iteration", "int"), ("Ranks", "int"), ("Median", "dec1"), ("Slowest Rank", "int"),
               ("Slowest", "int"), ("Lag", "dec1")]
    if not rng:
        it_cols = [(c, "skip" if k > 1 else t) for k, (c, t) in enumerate(it_cols)]
    co_rows = []
    for n in sorted({n for r in starts for n in starts[r]}):
        per_rank = {r: sorted(starts[r][n]) for r in starts if starts[r].get(n)}
        seqs = max(len(v) for v in per_rank.values())
        for k in range(seqs):
            at = {r: v[k] for r, v in per_rank.items() if k < len(v)}
            first = min(at)
            st = {r: s for r, (s, _) in at.items()}
            last = lowest_max(st)
            co_rows.append([n, k, at[first][1], len(at), last, st[last] - median(list(st.values())),
                            max(st.values()) - min(st.values())])
    co_cols = [("Iteration", "int"), ("Seq", "int"), ("Collective", "text"), ("Ranks", "int"),
               ("Last Rank", "int"), ("Lag", "dec1"), ("Skew", "int")]
    return {"iterations": (it_cols, it_rows), "collectives": (co_cols, co_rows)}


def graph_runs(job):
    """(rank, input, device, start, end) of every graph-level CUDA graph execution."""
    for i, db in enumerate(job.dbs):
        if not has_table(db, "CUPTI_ACTIVITY_KIND_GRAPH_TRACE"):
            continue
        for p, dev, start, end in db.execute("SELECT globalPid, deviceId, start, end FROM "
                                             "CUPTI_ACTIVITY_KIND_GRAPH_TRACE"):
            r = job.rank(i, p)
            if r is not None:
                yield r, i, dev, start, end


def capture_span(db):
    """As stats -r gpu_time_sum: the session [0, duration], else the CUDA calls that are not
    backtrace records; widened to the input's GPU rows."""
    lo = hi = None
    if has_table(db, "ANALYSIS_DETAILS"):
        d = db.execute("SELECT max(duration) FROM ANALYSIS_DETAILS WHERE duration >= 0").fetchone()[0]
        if d is not None:
            lo, hi = 0, d
    if lo is None and has_table(db, "CUPTI_ACTIVITY_KIND_RUNTIME"):
        where = "start IS NOT NULL AND end IS NOT NULL"
        if has_column(db, "CUPTI_ACTIVITY_KIND_RUNTIME", "callchainId"):
            where += " AND callchainId IS NULL"
        if has_column(db, "CUPTI_ACTIVITY_KIND_RUNTIME", "eventClass"):
            where += " AND eventClass IS NOT 67"
        a, b = db.execute(f"SELECT min(start), max(max(start, end)) FROM CUPTI_ACTIVITY_KIND_RUNTIME "
                          f"WHERE {where}").fetchone()
        if a is not None:
            lo, hi = a, b
    for t in ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
              "CUPTI_ACTIVITY_KIND_GRAPH_TRACE"):
        if has_table(db, t):
            a, b = db.execute(f"SELECT min(start), max(max(start, end)) FROM {t} "
                              f"WHERE start IS NOT NULL AND end IS NOT NULL").fetchone()
            if a is not None:
                lo = a if lo is None else min(lo, a)
                hi = b if hi is None else max(hi, b)
    return 0 if lo is None else max(hi - lo, 0)


def recipe_gpu_time_util(job, args, got_width):
    buckets = int(args.get("buckets", 100))
    gap = int(args.get("gap", 1000))
    ops = defaultdict(list)  # (rank, device): intervals
    kern = defaultdict(list)  # (rank, device): kernel and graph intervals
    graph = defaultdict(int)
    inputs = defaultdict(set)  # (rank, device): the inputs its rows come from
    for r, i, dev, _, start, end, _, _ in kernels(job):
        ops[(r, dev)].append((start, end))
        kern[(r, dev)].append((start, end))
        inputs[(r, dev)].add(i)
    for r, i, dev, _, start, end, _ in memops(job):
        ops[(r, dev)].append((start, end))
        inputs[(r, dev)].add(i)
    for r, i, dev, start, end in graph_runs(job):
        ops[(r, dev)].append((start, end))
        kern[(r, dev)].append((start, end))
        graph[(r, dev)] += max(end - start, 0)
        inputs[(r, dev)].add(i)
    spans = [capture_span(db) for db in job.dbs]
    rank_rows = []
    for (r, dev), v in sorted(ops.items()):
        first = min(s for s, _ in v)
        last = max(max(s, e) for s, e in v)
        u = union([(s, e) for s, e in v if e > s])
        busy = sum(e - s for s, e in u)
        ku = union([(s, e) for s, e in kern[(r, dev)] if e > s])
        kunion = sum(e - s for s, e in ku)
        ksum = sum(e - s for s, e in kern[(r, dev)] if e > s)
        holes = [u[k + 1][0] - u[k][1] for k in range(len(u) - 1)]
        long_holes = [h for h in holes if h > gap]
        cap = max(spans[i] for i in inputs[(r, dev)])
        rank_rows.append([r, dev, cap, last - first, busy, kunion, ksum, ksum - kunion, graph[(r, dev)], cap - busy,
                          pct(busy, cap) if cap > 0 else None, pct(busy, last - first) if last > first else None,
                          len(long_holes), sum(long_holes)])
    rank_cols = [("Rank", "int"), ("Device", "int"), ("Capture Span", "int"), ("GPU Span", "int"), ("Busy", "int"),
                 ("Kernel Union", "int"), ("Kernel Sum", "int"), ("Overlap", "int"), ("Graph", "int"),
                 ("Idle", "int"), ("Capture Util (%)", "dec1"), ("GPU Span Util (%)", "dec1"), ("Idle Gaps", "int"),
                 ("Gap Time", "int")]
    rows, notes = [], []
    for (r, dev), v in sorted(ops.items()):
        u = union(v)
        lo, hi = u[0][0], u[-1][1]
        span = hi - lo
        width = -(-span // buckets)  # ceil: N buckets cover the span, the last one cut at its end
        w = got_width.get((r, dev))
        if w is not None and w != width and w == span // buckets:
            notes.append(f"gpu_time_util: rank {r} device {dev}: Bucket Time is span / N rounded down ({w}), "
                         f"not up ({width}): the last bucket then runs to the span's end")
            width = w
        cells = []
        for b in range(buckets):
            b_lo = lo + b * width
            b_hi = hi if b == buckets - 1 else min(lo + (b + 1) * width, hi)
            cells.append(pct(covered(u, b_lo, b_hi), b_hi - b_lo) if b_hi > b_lo else 0.0)
        rows.append([r, dev, width, *cells])
    cols = [("Rank", "int"), ("Device", "int"), ("Bucket Time", "int")] + [(str(b), "dec1") for b in range(buckets)]
    return {"rank": (rank_cols, rank_rows), "util": (cols, rows)}, notes


# ---- comparing -----------------------------------------------------------------------------------

ALIASES = {"instances": {"instances", "num calls", "count", "calls"}}


def norm(header):
    h = header.strip().lower()
    for unit in (" (ns)", " (us)", " (ms)", " (s)"):
        h = h.replace(unit, "")
    return h.strip()


def find_column(headers, name):
    want = ALIASES.get(norm(name), {norm(name)})
    for i, h in enumerate(headers):
        if norm(h) in want:
            return i
    return None


def number(text):
    try:
        return float(text.replace(",", "")) if "." in text or "e" in text.lower() else int(text)
    except ValueError:
        return None


def cell_differs(kind, want, got):
    if kind == "skip":
        return False
    if kind == "text":
        return (want if want is not None else "") != got
    if want is None:
        return got.strip() != ""
    g = number(got.strip())
    if g is None:
        return True
    if kind == "int" and not isinstance(want, float):
        return isinstance(g, float) or g != want
    tolerance = 0.0051 if kind == "dec2" else 0.051
    return abs(g - want) > tolerance


def show(v):
    if isinstance(v, float):
        return f"{v:.4f}".rstrip("0").rstrip(".") if v != int(v) else f"{v:.1f}"
    return "(empty)" if v is None else str(v)


def compare(path, table):
    """Prints each difference between the table and the csv file; returns how many."""
    cols, rows = table
    name = os.path.basename(path)
    if not os.path.exists(path):
        print(f"{name}: missing ({len(rows)} rows expected)")
        return 1
    with open(path, newline="") as f:
        lines = list(csv.reader(f))
    if not lines:
        print(f"{name}: empty, no header")
        return 1
    headers, got = lines[0], lines[1:]
    diffs = 0
    where = []
    for c, _ in cols:
        i = find_column(headers, c)
        if i is None:
            print(f"{name}: no column {c!r} (header: {','.join(headers)})")
            diffs += 1
        where.append(i)
    unknown = [h for k, h in enumerate(headers) if k not in where]
    if unknown:
        print(f"{name}: note: columns not checked: {', '.join(unknown)}", file=sys.stderr)
    if len(got) != len(rows):
        print(f"{name}: {len(got)} rows, expected {len(rows)}")
        diffs += 1
    for r in range(min(len(got), len(rows))):
        for (c, kind), i, want in zip(cols, where, rows[r]):
            if i is None:
                continue
            g = got[r][i] if i < len(got[r]) else ""
            if cell_differs(kind, want, g):
                diffs += 1
                if diffs <= 200:
                    print(f"{name}: row {r + 1} column {c!r}: expected {show(want)}, got {g!r}")
    if diffs > 200:
        print(f"{name}: {diffs - 200} more differences")
    return diffs


def write(path, table):
    """--write: the table as the csv nstats should write (the brute force's own test)."""
    cols, rows = table
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow([c + (" (ns)" if k in ("int", "dec1") and c not in ("Rank", "Ranks", "Device", "Stream",
                                                                         "Iteration", "Seq") else "")
                    if not c.endswith("(%)") else c for c, k in cols])
        for row in rows:
            w.writerow(["" if v is None else f"{v:.2f}" if k == "dec2" else f"{v:.1f}" if k == "dec1"
                        else v for (_, k), v in zip(cols, row)])


def parse_recipe(spec):
    name, *parts = spec.split(":")
    args = {}
    for p in parts:
        k, eq, v = p.partition("=")
        args[k if eq else "_flag"] = v if eq else k
    return name, args


def read_widths(path):
    """Bucket Time per (Rank, Device) of a util csv, to tell which of the two roundings it uses."""
    out = {}
    if not os.path.exists(path):
        return out
    with open(path, newline="") as f:
        lines = list(csv.reader(f))
    if not lines:
        return out
    h = lines[0]
    ir, idev, iw = find_column(h, "Rank"), find_column(h, "Device"), find_column(h, "Bucket Time")
    if None in (ir, idev, iw):
        return out
    for row in lines[1:]:
        try:
            out[(int(row[ir]), int(row[idev]))] = int(row[iw])
        except (ValueError, IndexError):
            pass
    return out


def main(argv):
    mode, writing = "auto", False
    while len(argv) > 1 and argv[1] in ("--ranks", "--write"):
        if argv[1] == "--write":
            writing = True
            argv = argv[:1] + argv[2:]
        else:
            mode = argv[2]
            argv = argv[:1] + argv[3:]
    if len(argv) < 4 or mode not in ("auto", "input"):
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 2
    name, args = parse_recipe(argv[1])
    out, inputs = argv[2], argv[3:]
    job = Job(inputs, mode)
    notes = []
    if name in SUMMARY:
        tables = recipe_summary(job, name, args)
    elif name == "nccl_overlap":
        tables = recipe_nccl_overlap(job)
    elif name == "stragglers":
        tables = recipe_stragglers(job, args)
    elif name == "gpu_time_util":
        tables, notes = recipe_gpu_time_util(job, args, read_widths(os.path.join(out, f"{name}_util.csv")))
    else:
        print(f"brute.py: no brute force for recipe {name!r}", file=sys.stderr)
        return 2
    for n in notes:
        print(f"note: {n}", file=sys.stderr)
    if writing:
        os.makedirs(out, exist_ok=True)
        for t in tables:
            write(os.path.join(out, f"{name}_{t}.csv"), tables[t])
        return 0
    diffs = sum(compare(os.path.join(out, f"{name}_{t}.csv"), tables[t]) for t in tables)
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
