#!/usr/bin/env python3
"""Checks for tests/diff/run.sh, computed with python3's csv and sqlite3 modules only.

  check.py zero CSV [COLUMN,...]       an export against itself: no difference anywhere (but in
                                       those columns, named without their "A "/"B "/"Diff " or
                                       " A"/" B": Device for "Device A" and "Device B")
  check.py swapped AB.csv BA.csv       B vs A is A vs B with every delta negated
  check.py kern_sums CSV A B MODE      kern_diff's instances and totals are SQL's (MODE exact|base)
  check.py edit DB                     edits a copy of an export; prints what launch_diff must find
  check.py launches CSV EXPECT A       launch_diff found exactly that
  check.py only CSV NAME STATUS CHANGE ...   kern_diff: those kernels changed so, no other
  check.py launch_counts CSV REMOVED ADDED NAME   launch_diff: that many launches gone and come
  check.py perturb_trace IN OUT        a copy of a PyTorch trace with one kernel slowed, launches
                                       dropped and copied, a kernel renamed; prints what it did
  check.py trace_kern KERN.csv EXPECT A B    kern_diff of a trace and its perturbed copy: the
                                       trace's own sums, and only the perturbed kernels changed
  check.py trace_launches LAUNCH.csv EXPECT A   launch_diff of the same: exactly those launches
  check.py plant MODE SRC DST...       a copy of a real export with a known change (see plant)
  check.py nvtx_ranks CSV A_TRACE B_TRACE   nvtx_diff's PushPop rows against ranks.py, from each
                                       side's nvtx_pushpop_trace
  check.py statuses CSV STATUS NAME OTHER...   kern_diff: NAME has STATUS, the rest one of OTHER
  check.py agree CSV A B NAMES MODE [ALPHA]   agree of captures A and B (exports or traces): instances and
                                       duplicates are the captures' own counts; MODE paired: the
                                       streams hold the same launches once repeats are out, so the
                                       i-th launch of a stream pairs with the i-th, and the medians,
                                       intervals and verdicts are those of these pairs; MODE subset:
                                       B lacks launches A has, and nothing else differs; the
                                       intervals at level 1 - ALPHA (default 0.05)
  check.py jitter_trace IN OUT SEED    a copy of a PyTorch trace with every kernel's dur scaled by
                                       its own random factor from 0.95 to 1.10
  check.py renumber DB OLD:NEW,...     renumbers the devices of an export in every table that
                                       names one (a copy of a run on other GPUs)
  check.py drop_kernels DB DEVICE      deletes a device's kernels (it keeps its copies and sets)
  check.py devices CSV A B MODE PAIRS  gpu_time_diff: its devices paired as MODE (auto: by the
                                       kernels they ran, id: by id) says, computed here, and as
                                       PAIRS (A=B,...; - for no such claim) says; every row's busy
                                       time and kernel sum on each side are SQL's
  check.py launch_lcs LAUNCH.csv A B [valid]   launch_diff of two captures (exports or traces):
                                       each pair of streams' rows are its two launch sequences in
                                       order, matched only where the launches are the same, as
                                       many matched as their longest common subsequence has (with
                                       valid: at most as many)
  check.py iters CSV A B MODE [NAME]   iter_diff: the iterations (ranges named NAME, else
                                       ProfilerStep#N), each device's busy time and each kernel's
                                       total in each, from SQL; every number and status of each row
  check.py iters_twin CSV A TRACE      iter_diff of an export and the same run as a PyTorch trace:
                                       the trace's busy time per iteration is the export's, every
                                       row ~ with equal medians
  check.py iters_trace CSV TRACE       iter_diff of a trace against itself: its ProfilerSteps and
                                       each device's busy time in them, from its JSON; every row ~
  check.py iter_statuses CSV STATUS NAME OTHER...   iter_diff: NAME has STATUS, the rest OTHER
  check.py gate_basis CSV BASIS [CHECK...]   verdict: those device rows (all) checked on that basis
Traces are read with json and gzip, their microseconds as exact decimals.
A failed check prints why and exits 1.
"""
import csv
import decimal
import math
import os
import re
import gzip
import json
import math
import random
import sqlite3
import sys
from collections import Counter
from decimal import Decimal
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ranks  # noqa: E402


def rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        r = [x for x in csv.reader(f) if x]
    if not r:  # a report with no data prints nothing in csv, as nsys does
        return [], []
    return r[0], [dict(zip(r[0], x)) for x in r[1:]]


def num(s):
    return float(s) if s != "" else None


def die(msg):
    print(msg)
    sys.exit(1)


def sides(header):
    """Pairs of "A X" and "B X" columns (launch_diff's "Device A"/"Device B" too)."""
    pairs = []
    for c in header:
        if c.startswith("A "):
            pairs.append((c, "B " + c[2:]))
        elif c.endswith(" A"):
            pairs.append((c, c[:-2] + " B"))
    return pairs


def zero(path, ignore=""):
    header, rs = rows(path)
    names = [c for c in ignore.split(",") if c]
    ignored = {p + c for c in names for p in ("A ", "B ", "Diff ")} | \
        {c + s for c in names for s in (" A", " B")}
    for r in rs:
        for c, v in r.items():
            if c in ignored:
                continue
            if (c.startswith("Diff ") or c.endswith("Change (%)")) and num(v) not in (None, 0):
                die(f"{c} is {v} in {r}")
            if c == "Status" and v not in ("~", "same", "matched"):
                die(f"status {v} in {r}")
            if c == "Shift (%)" and num(v) not in (None, 0):
                die(f"{c} is {v} in {r}")
        for a, b in sides(header):
            if a not in ignored and r[a] != r[b]:
                die(f"{a} {r[a]} differs from {b} {r[b]} in {r}")


SWAP_STATUS = {"added": "removed", "removed": "added", "matched": "matched"}
# the instance tests: the shift negates, the p-values stay; the percentages are of the other
# side's median, so they are checked against ranks.py elsewhere, not here
NEGATED = ()
SAME = ("P-Value", "Holm P-Value")
RELATIVE = ("Shift (%)", "Shift CI Low (%)", "Shift CI High (%)")


def swapped(ab_path, ba_path):
    header, ab = rows(ab_path)
    _, ba = rows(ba_path)
    if len(ab) != len(ba):
        die(f"{len(ab)} rows one way, {len(ba)} the other")
    if "GridXYZ" in header:  # launch_diff: equal-length alignments may pair equal launches apart
        cab = Counter(r["Status"] for r in ab)
        cba = Counter(SWAP_STATUS[r["Status"]] for r in ba)
        if cab != cba:
            die(f"statuses {dict(cab)} one way, {dict(cba)} swapped back")
        return
    pairs = sides(header)
    keys = [c for c in header if not any(c in p for p in pairs) and not c.startswith("Diff ")
            and not c.endswith("Change (%)") and c != "Status" and c not in NEGATED + SAME + RELATIVE]
    # keys shown for each side ("Device A", "Device B") trade places
    side_keys = [(a, b) for a, b in pairs if not a.startswith("A ")]
    def key(r, swap=False):
        return tuple(r[b if swap else a] for a, b in side_keys) + tuple(r[k] for k in keys)
    by_key = {key(r, True): r for r in ba}
    for r in ab:
        s = by_key.get(key(r))
        if s is None:
            die(f"no row {key(r)} the other way")
        for a, b in pairs:
            if r[a] != s[b]:
                die(f"{a} {r[a]} is not {b} {s[b]} swapped, row {key(r)}")
        for c in header:
            if c in SAME and r[c] != s[c]:
                die(f"{c} {r[c]} is not {s[c]} swapped, row {key(r)}")
            if c.startswith("Diff ") or c in NEGATED:
                x, y = num(r[c]), num(s[c])
                if (x is None) != (y is None) or (x is not None and abs(x + y) > 1e-9):
                    die(f"{c} {r[c]} is not minus {s[c]}, row {key(r)}")


def sql_kernels(path, mode):
    col = "demangledName" if mode == "exact" else "shortName"
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    q = (f"SELECT s.value, count(*), sum(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
         f"JOIN StringIds s ON s.id = k.{col} GROUP BY s.value")
    return {name: (n, total) for name, n, total in db.execute(q)}


def counts_and_totals(r, na, nb):
    """kern_diff's instances and totals, a side without the kernel as 0: its cells must be
    empty, not 0."""
    for side, n in (("A", na), ("B", nb)):
        for c in (f"{side} Instances", f"{side} Total (ns)"):
            if n == 0 and r[c] != "":
                die(f"{r['Name']}: {c} is {r[c]!r} on a side without the kernel, not empty")
    return [int(r[c] or 0) for c in ("A Instances", "B Instances", "Diff Instances",
                                     "A Total (ns)", "B Total (ns)", "Diff Total (ns)")]


def kern_sums(path, a_path, b_path, mode):
    _, rs = rows(path)
    a, b = sql_kernels(a_path, mode), sql_kernels(b_path, mode)
    if {r["Name"] for r in rs} != set(a) | set(b):
        die(f"kernels {len(rs)} in kern_diff, {len(set(a) | set(b))} in SQL")
    for r in rs:
        na, ta = a.get(r["Name"], (0, 0))
        nb, tb = b.get(r["Name"], (0, 0))
        got = counts_and_totals(r, na, nb)
        want = [na, nb, nb - na, ta, tb, tb - ta]
        if got != want:
            die(f"{r['Name']}: {got} where SQL says {want}")
    tested(rs, sql_durations(a_path, mode), sql_durations(b_path, mode))


def sql_durations(path, mode):
    col = "demangledName" if mode == "exact" else "shortName"
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    out = {}
    for name, d in db.execute(f"SELECT s.value, k.end - k.start FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                              f"JOIN StringIds s ON s.id = k.{col}"):
        out.setdefault(name, []).append(d)
    return out


def close(got, want, what, row, tol):
    if want is None or (isinstance(want, float) and math.isnan(want)):
        if got != "":
            die(f"{row}: {what} is {got}, expected empty")
        return
    if got == "" or abs(float(got) - want) > tol:
        die(f"{row}: {what} is {got!r}, expected {want}")


def tested(rs, a, b, key="Name", alpha=0.05, tolerance=2):
    """The test columns and Status of each row against ranks.py's, from the instances a and b
    (key -> durations)."""
    ps = [ranks.p_value(a[r[key]], b[r[key]]) if r[key] in a and r[key] in b else None
          for r in rs]
    adj = ranks.holm(ps)
    for r, p, q in zip(rs, ps, adj):
        name = r[key]
        if p is None:
            for c in ("A Med (ns)", "B Med (ns)", "Shift (%)", "P-Value", "Holm P-Value"):
                close(r[c], None, c, name, 0)
            want = ranks.status(a.get(name, []), b.get(name, []), None, None, alpha, tolerance)
        else:
            xa, xb = a[name], b[name]
            close(r["A Med (ns)"], ranks.median(xa), "A Med (ns)", name, 1e-9)
            close(r["B Med (ns)"], ranks.median(xb), "B Med (ns)", name, 1e-9)
            close(r["P-Value"], p, "P-Value", name, 1e-9 * max(p, 1e-300) + 1e-15)
            close(r["Holm P-Value"], q, "Holm P-Value", name, 1e-9 * max(q, 1e-300) + 1e-15)
            if len(xa) * len(xb) > 3_000_000:  # too many pairs to list here
                continue
            pct, lo, hi = ranks.ratio_shift(xa, xb)
            close(r["Shift (%)"], pct, "Shift (%)", name, 0.05 + 1e-6)
            close(r["Shift CI Low (%)"], lo, "Shift CI Low (%)", name, 0.05 + 1e-6)
            close(r["Shift CI High (%)"], hi, "Shift CI High (%)", name, 0.05 + 1e-6)
            want = ranks.status(xa, xb, q, pct, alpha, tolerance)
        if r["Status"] != want:
            die(f"{name}: status {r['Status']}, the test says {want}")


def nvtx_ranks(path, a_trace, b_trace):
    """nvtx_diff's PushPop rows: instances, medians, p-values and shifts against ranks.py, from
    the durations of each side's nvtx_pushpop_trace (a report checked against nsys's own); the
    Holm p-value at least the p-value, and a status the test allows."""
    def durations(trace):
        out = {}
        for r in rows(trace)[1]:
            out.setdefault(r["Name"], []).append(int(r["Duration (ns)"]))
        return out
    a, b = durations(a_trace), durations(b_trace)
    checked = 0
    for r in rows(path)[1]:
        name = r["Range"]
        if r["Style"] != "PushPop" or name not in a or name not in b:
            continue
        if int(r["A Instances"]) != len(a[name]) or int(r["B Instances"]) != len(b[name]):
            continue  # a domain's name, or ranges the trace shows apart
        xa, xb = a[name], b[name]
        p = ranks.p_value(xa, xb)
        close(r["P-Value"], p, "P-Value", name, 1e-9 * max(p, 1e-300) + 1e-15)
        close(r["A Med (ns)"], ranks.median(xa), "A Med (ns)", name, 1e-9)
        close(r["B Med (ns)"], ranks.median(xb), "B Med (ns)", name, 1e-9)
        pct, lo, hi = ranks.ratio_shift(xa, xb)
        close(r["Shift (%)"], pct, "Shift (%)", name, 0.05 + 1e-6)
        close(r["Shift CI Low (%)"], lo, "Shift CI Low (%)", name, 0.05 + 1e-6)
        close(r["Shift CI High (%)"], hi, "Shift CI High (%)", name, 0.05 + 1e-6)
        q = float(r["Holm P-Value"])
        if q < p - 1e-12:
            die(f"{name}: Holm p {q} below p {p}")
        if r["Status"] != ranks.status(xa, xb, q, pct):
            die(f"{name}: status {r['Status']}, the test says {ranks.status(xa, xb, q, pct)}")
        checked += 1
    if not checked:
        die("no PushPop range to check")


def edit(path):
    db = sqlite3.connect(path)
    k = "CUPTI_ACTIVITY_KIND_KERNEL"
    ids = [r[0] for r in db.execute(f"SELECT rowid FROM {k} ORDER BY rowid")]
    gone = ids[5::60][:3]
    copied, renamed = ids[17], ids[33]
    name = lambda rid: db.execute(f"SELECT s.value FROM {k} k JOIN StringIds s ON s.id = "
                                  f"k.demangledName WHERE k.rowid = ?", (rid,)).fetchone()[0]
    out = [f"removed {name(r)}" for r in gone] + [f"removed {name(renamed)}",
                                                  f"added {name(copied)}", "added renamed_kernel"]
    cols = [c[1] for c in db.execute(f"PRAGMA table_info({k})")]
    db.execute(f"DELETE FROM {k} WHERE rowid IN ({','.join('?' * len(gone))})", gone)
    sel = ", ".join(f'"{c}" + 1000' if c in ("start", "end") else f'"{c}"' for c in cols)
    db.execute(f"INSERT INTO {k} ({', '.join(chr(34) + c + chr(34) for c in cols)}) "
               f"SELECT {sel} FROM {k} WHERE rowid = ?", (copied,))
    sid = db.execute("SELECT max(id) + 1 FROM StringIds").fetchone()[0]
    db.execute("INSERT INTO StringIds VALUES (?, 'renamed_kernel')", (sid,))
    db.execute(f"UPDATE {k} SET demangledName = ? WHERE rowid = ?", (sid, renamed))
    db.commit()
    print("\n".join(out))


KERNELS = "CUPTI_ACTIVITY_KIND_KERNEL"


def busiest_kernel(db):
    """The demangled name with the most instances, and its StringIds id."""
    return db.execute(f"SELECT s.value, k.demangledName FROM {KERNELS} k JOIN StringIds s ON "
                      f"s.id = k.demangledName GROUP BY k.demangledName ORDER BY count(*) DESC, "
                      f"s.value LIMIT 1").fetchone()


def stretch(db, rowids, factor):
    for rid in rowids:
        db.execute(f"UPDATE {KERNELS} SET end = start + CAST(round((end - start) * ?) AS INTEGER) "
                   f"WHERE rowid = ?", (factor, rid))


def plant(mode, src, *dst):
    """Copies of a real export with a known change, for the verdicts; prints the kernel changed.
    half: every second instance of every kernel gone (fewer instances, the same durations);
    jitter: every kernel's duration times 1 + U(-0.5%, 0.5%); shift8: the busiest kernel's
    durations 8% longer; outlier (two outputs): the busiest kernel cut to its first six
    instances in both, and in the second one of them three times as long."""
    import random
    import shutil
    for d in dst:
        shutil.copyfile(src, d)
    dbs = [sqlite3.connect(d) for d in dst]
    name, sid = busiest_kernel(dbs[0])
    ids = [r[0] for r in dbs[0].execute(f"SELECT rowid FROM {KERNELS} WHERE demangledName = ? "
                                        f"ORDER BY start", (sid,))]
    if mode == "half":
        for (k,) in dbs[0].execute(f"SELECT DISTINCT demangledName FROM {KERNELS}").fetchall():
            rs = [r[0] for r in dbs[0].execute(f"SELECT rowid FROM {KERNELS} WHERE demangledName"
                                               f" = ? ORDER BY start", (k,))]
            dbs[0].executemany(f"DELETE FROM {KERNELS} WHERE rowid = ?", [(r,) for r in rs[1::2]])
        name = "-"
    elif mode == "jitter":
        rng = random.Random(7)
        for (rid,) in dbs[0].execute(f"SELECT rowid FROM {KERNELS}").fetchall():
            stretch(dbs[0], [rid], 1 + rng.uniform(-0.005, 0.005))
        name = "-"
    elif mode == "shift8":
        stretch(dbs[0], ids, 1.08)
    elif mode == "outlier":
        for db in dbs:
            db.executemany(f"DELETE FROM {KERNELS} WHERE rowid = ?", [(r,) for r in ids[6:]])
        stretch(dbs[1], ids[3:4], 3)
    else:
        die(f"plant: no mode {mode}")
    for db in dbs:
        db.commit()
    print(name)


def statuses(path, *want):
    """kern_diff rows: the named kernel has the first status, every other one of the rest
    (STATUS NAME OTHERS..., NAME - for none)."""
    _, rs = rows(path)
    status, name, others = want[0], want[1], set(want[2:])
    if name != "-" and not any(r["Name"] == name for r in rs):
        die(f"no row {name}")
    for r in rs:
        if r["Name"] == name:
            if r["Status"] != status:
                die(f"{name}: {r['Status']}, expected {status}: {r}")
        elif r["Status"] not in others:
            die(f"{r['Name']}: {r['Status']}, expected one of {others}")


def launches(path, expect_path, a_path):
    _, rs = rows(path)
    with open(expect_path) as f:
        expect = Counter(line.split(" ", 1)[0] for line in f if line.strip())
    with open(expect_path) as f:
        names = [line.rstrip("\n").split(" ", 1) for line in f if line.strip()]
    n_a = sqlite3.connect(f"file:{a_path}?mode=ro", uri=True).execute(
        "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchone()[0]
    got = Counter(r["Status"] for r in rs)
    if got["removed"] != expect["removed"] or got["added"] != expect["added"]:
        die(f"found {dict(got)}, expected {dict(expect)}")
    if got["matched"] != n_a - expect["removed"]:
        die(f"{got['matched']} matched, expected {n_a - expect['removed']}")
    found = Counter((r["Status"], r["Name"]) for r in rs if r["Status"] != "matched")
    for status, name in names:
        if found[(status, name)] < 1:
            die(f"no {status} {name}")
    for r in rs:
        if r["Status"] == "matched" and int(r["Diff Duration (ns)"]) != \
                int(r["B Duration (ns)"]) - int(r["A Duration (ns)"]):
            die(f"bad duration change in {r}")


def only(path, *expect):
    """kern_diff rows: the named kernels have the given status (and total change, unless -),
    every other kernel is the same with no difference at all."""
    _, rs = rows(path)
    want = {expect[i]: (expect[i + 1], expect[i + 2]) for i in range(0, len(expect), 3)}
    seen = set()
    for r in rs:
        if r["Name"] in want:
            status, change = want[r["Name"]]
            seen.add(r["Name"])
            if r["Status"] != status or (change != "-" and r["Total Change (%)"] != change):
                die(f"{r['Name']}: {r['Status']} {r['Total Change (%)']}, expected {status} {change}")
        elif r["Status"] != "~" or num(r["Diff Total (ns)"]) != 0 or num(r["Diff Instances"]) != 0:
            die(f"{r['Name']} changed: {r}")
    if seen != set(want):
        die(f"no row for {set(want) - seen}")


def launch_counts(path, removed, added, changed):
    """launch_diff rows: exactly that many removed and added; durations differ only for the
    launches of kernels whose base name is `changed` (- for none)."""
    _, rs = rows(path)
    got = Counter(r["Status"] for r in rs)
    if got["removed"] != int(removed) or got["added"] != int(added):
        die(f"found {dict(got)}, expected {removed} removed, {added} added")
    for r in rs:
        if r["Status"] != "matched":
            continue
        moved = int(r["Diff Duration (ns)"]) != 0
        slowed = changed != "-" and (r["Name"] == changed or r["Name"].startswith(changed + "(")
                                     or f" {changed}(" in r["Name"] or f" {changed}<" in r["Name"])
        if moved != slowed:
            die(f"duration changed {moved} for {r['Name']}")


# ---- iterations --------------------------------------------------------------------------------

def is_iteration(name, per):
    return name == per if per else re.fullmatch(r"ProfilerStep#[0-9]+(, .*)?", name or "") is not None


def place(windows, pid, t):
    """The index of the window of process pid that holds t, the latest to start; None."""
    best = None
    for i, (wpid, start, end) in enumerate(windows):
        if wpid == pid and start <= t < end and (best is None or start >= windows[best][1]):
            best = i
    return best


def union(intervals):
    total, cur_s, cur_e = 0, None, None
    for s_, e_ in sorted(intervals):
        if cur_e is None or s_ > cur_e:
            if cur_e is not None:
                total += cur_e - cur_s
            cur_s, cur_e = s_, e_
        else:
            cur_e = max(cur_e, e_)
    return total + (cur_e - cur_s if cur_e is not None else 0)


def per_iteration(windows, ops):
    """ops: (pid, call start, device, start, end, kernel name or None). Each device's busy
    time and each kernel's total in each iteration of the processes that used it, as lists."""
    n = len(windows)
    spans, totals, procs = {}, {}, {}
    for pid, t, dev, start, end, name in ops:
        i = place(windows, pid, t)
        if i is None:
            continue
        spans.setdefault(dev, [[] for _ in range(n)])[i].append((start, end))
        procs.setdefault(str(dev), set()).add(windows[i][0])
        if name is not None:
            totals.setdefault(name, [0] * n)[i] += end - start
            procs.setdefault(name, set()).add(windows[i][0])
    out = {str(dev): [union(iv) for iv in its] for dev, its in spans.items()}
    out.update(totals)
    return n, {k: [x for x, w in zip(v, windows) if w[0] in procs[k]] for k, v in out.items()}


def sql_iterations(path, mode, per=None):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    pid = "(({0}) / 16777216 * 16777216)"
    windows = [(w, s_, e_) for w, s_, e_, name in db.execute(
        f"SELECT {pid.format('n.globalTid')}, n.start, n.end, coalesce(s.value, n.text) "
        "FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId "
        "WHERE n.eventType IN (59, 60, 70, 71)") if is_iteration(name, per)]
    col = "demangledName" if mode == "exact" else "shortName"
    ops = []
    for table, name in (("KERNEL", f"g.{col}"), ("MEMCPY", "NULL"), ("MEMSET", "NULL")):
        q = (f"SELECT {pid.format('r.globalTid')}, r.start, g.deviceId, g.start, g.end, sn.value "
             f"FROM CUPTI_ACTIVITY_KIND_{table} g JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
             f"ON r.correlationId = g.correlationId AND {pid.format('r.globalTid')} = g.globalPid "
             f"LEFT JOIN StringIds sn ON sn.id = {name} ORDER BY g.rowid, r.rowid")
        seen = set()
        for row in db.execute(q):
            key = (row[3], row[4], row[2])
            ops.append(row)
            if key in seen:
                die(f"{path}: a GPU row launched twice, which this check does not follow")
            seen.add(key)
    if len(windows) < 2:
        return 0, {}
    return per_iteration(windows, ops)


def iteration_rows(path, a, b, partial=False):
    """The rows, each with as many iterations on each side as the side's values (with partial,
    those of the rows both sides have values of)."""
    _, rs = rows(path)
    for r in rs:
        if partial and not (r["Name"] in a and r["Name"] in b):
            continue
        got = (int(r["A Iterations"]), int(r["B Iterations"]))
        want = (len(a.get(r["Name"], [])), len(b.get(r["Name"], [])))
        if got != want:
            die(f"{r['Name']}: iterations {got}, expected {want}")
    return rs


def iters(path, a_path, b_path, mode, per=None):
    na, a = sql_iterations(a_path, mode, per)
    nb, b = sql_iterations(b_path, mode, per)
    if na < 2 or nb < 2:
        die(f"the test's exports have {na} and {nb} iterations")
    rs = iteration_rows(path, a, b)
    if sorted(r["Name"] for r in rs) != sorted(set(a) | set(b)):
        die(f"rows {sorted(r['Name'] for r in rs)}, SQL has {sorted(set(a) | set(b))}")
    tested(rs, a, b)


def trace_iterations(path):
    """The devices' busy time in each iteration of a PyTorch trace."""
    events = load_trace(path)["traceEvents"]
    xs = [e for e in events if e.get("ph") == "X"]
    windows = sorted((e["pid"], us_to_ns(e["ts"]), us_to_ns(e["ts"]) + us_to_ns(e["dur"]))
                     for e in xs if e.get("cat") == "user_annotation" and is_iteration(e["name"], None))
    calls = {e["args"]["correlation"]: (e["pid"], us_to_ns(e["ts"]))
             for e in xs if e.get("cat") in ("cuda_runtime", "cuda_driver")}
    ops = []
    for e in xs:
        if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset") and e["args"]["correlation"] in calls:
            pid, t = calls[e["args"]["correlation"]]
            start = us_to_ns(e["ts"])
            ops.append((pid, t, e["args"]["device"], start, start + us_to_ns(e["dur"]), None))
    return per_iteration(windows, ops)


def iters_twin(path, a_path, trace_path):
    na, a = sql_iterations(a_path, "base")
    nb, b = trace_iterations(trace_path)
    rs = iteration_rows(path, a, b, partial=True)
    devices = {r["Name"]: r for r in rs if r["Kind"] == "device"}
    for dev, busy in b.items():
        if a.get(dev) != busy:
            die(f"device {dev}: the trace's busy time by iteration is not the export's")
        close(devices[dev]["B Med (ns)"], ranks.median(busy), "B Med (ns)", dev, 1e-9)
    if set(devices) != set(b):
        die(f"devices {sorted(devices)}, the trace has {sorted(b)}")
    tested([r for r in rs if r["Kind"] == "device"], a, b)
    for r in rs:
        if r["Status"] != "~" or r["A Med (ns)"] != r["B Med (ns)"]:
            die(f"{r['Name']}: {r['Status']}, {r['A Med (ns)']} against {r['B Med (ns)']}")


def iters_trace(path, trace_path):
    """iter_diff of a PyTorch trace against itself: its iterations, each device's busy time in
    them from the JSON, every row ~."""
    n, busy = trace_iterations(trace_path)
    rs = iteration_rows(path, busy, busy, partial=True)
    devices = {r["Name"]: r for r in rs if r["Kind"] == "device"}
    if set(devices) != set(busy):
        die(f"devices {sorted(devices)}, the trace has {sorted(busy)}")
    for dev, v in busy.items():
        close(devices[dev]["A Med (ns)"], ranks.median(v), "A Med (ns)", dev, 1e-9)
    for r in rs:
        if r["Status"] != "~" or r["A Med (ns)"] != r["B Med (ns)"]:
            die(f"{r['Name']}: {r['Status']}, {r['A Med (ns)']} against {r['B Med (ns)']}")


def iter_statuses(path, want, name, *others):
    _, rs = rows(path)
    if not rs:
        die("no rows")
    for r in rs:
        ok = r["Status"] == want if r["Name"] == name else r["Status"] in others
        if not ok:
            die(f"{r['Kind']} {r['Name']}: {r['Status']}")
    if name != "-" and name not in {r["Name"] for r in rs}:
        die(f"no row {name}")


def gate_basis(path, basis, *checks):
    """verdict: the device rows named (every one, when none is) checked on that basis."""
    _, rs = rows(path)
    devices = [r for r in rs if r["Check"].startswith("GPU busy") and (not checks or r["Check"] in checks)]
    if not devices or any(r["Basis"] != basis for r in devices) or len(devices) < len(checks):
        die(f"device bases {[(r['Check'], r['Basis']) for r in devices]}, expected {basis}")


# ---- PyTorch traces ----------------------------------------------------------------------------

def load_trace(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        return json.load(f, parse_float=Decimal)


def trace_kernels(doc):
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    return [e for e in events if e.get("ph") == "X" and e.get("cat") == "kernel"]


def us_to_ns(us):
    return int((Decimal(us) * 1000).to_integral_value(rounding=decimal.ROUND_HALF_UP))


def trace_durations(path):
    out = {}
    for e in trace_kernels(load_trace(path)):
        out.setdefault(e["name"], []).append(us_to_ns(e["dur"]))
    return out


def trace_sums(durations):
    return {name: (len(d), sum(d)) for name, d in durations.items()}


def dump_exact(doc):
    """JSON text with every Decimal written as the number it is, digit for digit (json.dump
    knows no Decimal, and a float would round the microseconds)."""
    def mark(x):
        if isinstance(x, Decimal):
            return f"\x00{x}\x00"
        if isinstance(x, dict):
            return {k: mark(v) for k, v in x.items()}
        if isinstance(x, list):
            return [mark(v) for v in x]
        return x
    return re.sub(r'"\\u0000([-+.0-9Ee]+)\\u0000"', r"\1", json.dumps(mark(doc)))


def perturb_trace(src, dst):
    """The kernels of the busiest stream, by name: the one with most launches is slowed by half
    (every launch, to the nanosecond), three launches of the next are dropped, two of the third
    are copied 1 us later, and every launch of the fourth is renamed. Prints one line per
    change, tab-separated (names have spaces): slowed NAME, removed NAME, added NAME, renamed OLD
    NEW."""
    doc = load_trace(src)
    ks = trace_kernels(doc)
    stream = Counter((e["args"]["device"], e["args"]["stream"]) for e in ks).most_common(1)[0][0]
    on = [e for e in ks if (e["args"]["device"], e["args"]["stream"]) == stream]
    names = [n for n, _ in Counter(e["name"] for e in on).most_common()]
    if len(names) < 4:
        die(f"{src}: {len(names)} kernel names on its busiest stream, 4 needed")
    slow, drop, copy, rename = names[:4]
    out = [f"slowed\t{slow}"]
    for e in ks:
        if e["name"] == slow:
            e["dur"] = Decimal(us_to_ns(e["dur"]) * 3 // 2) / 1000
    dropped = [e for e in on if e["name"] == drop][1:4]
    out += [f"removed\t{drop}"] * len(dropped)
    copied = [e for e in on if e["name"] == copy][:2]
    out += [f"added\t{copy}"] * len(copied)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    for e in copied:
        c = json.loads(dump_exact(e), parse_float=Decimal)
        c["ts"] = Decimal(c["ts"]) + 1
        events.append(c)
    gone = {id(e) for e in dropped}
    events[:] = [e for e in events if id(e) not in gone]
    for e in ks:
        if e["name"] == rename:
            e["name"] = "renamed_kernel"
    out.append(f"renamed\t{rename}\trenamed_kernel")
    with gzip.open(dst, "wt", encoding="utf-8") as f:
        f.write(dump_exact(doc))
    print("\n".join(out))


def read_expect(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n").split("\t", 1) for line in f if line.strip()]


def trace_kern(path, expect_path, a_path, b_path):
    """kern_diff's instances, totals and statuses are the traces' own sums (exact names), and
    exactly the perturbed kernels differ."""
    _, rs = rows(path)
    da, db = trace_durations(a_path), trace_durations(b_path)
    a, b = trace_sums(da), trace_sums(db)
    if {r["Name"] for r in rs} != set(a) | set(b):
        die(f"kernels {len(rs)} in kern_diff, {len(set(a) | set(b))} in the traces")
    changed = set()
    for what, rest in read_expect(expect_path):
        changed.update(rest.split("\t") if what == "renamed" else [rest])
    for r in rs:
        na, ta = a.get(r["Name"], (0, 0))
        nb, tb = b.get(r["Name"], (0, 0))
        got = counts_and_totals(r, na, nb)
        if got != [na, nb, nb - na, ta, tb, tb - ta]:
            die(f"{r['Name']}: {got} where the traces say {[na, nb, nb - na, ta, tb, tb - ta]}")
        if (got[2] != 0 or got[5] != 0) != (r["Name"] in changed):
            die(f"{r['Name']}: {'changed' if r['Name'] not in changed else 'unchanged'}: {got}")
    tested(rs, da, db)


def trace_launches(path, expect_path, a_path):
    """launch_diff: the dropped launches and every launch of the renamed kernel are removed, the
    copies and the renamed launches added, every other launch matched, and a matched launch's
    duration moved exactly when its kernel was slowed, by half of it."""
    _, rs = rows(path)
    expect = read_expect(expect_path)
    a = trace_kernels(load_trace(a_path))
    slowed = {rest for what, rest in expect if what == "slowed"}
    old, new = next(rest.split("\t") for what, rest in expect if what == "renamed")
    n_renamed = sum(e["name"] == old for e in a)
    want = Counter({("removed", old): n_renamed, ("added", new): n_renamed})
    want.update((what, rest) for what, rest in expect if what in ("removed", "added"))
    got = Counter((r["Status"], r["Name"]) for r in rs if r["Status"] != "matched")
    if got != want:
        die(f"found {dict(got)}, expected {dict(want)}")
    n_matched = sum(r["Status"] == "matched" for r in rs)
    n_removed = sum(n for (what, _), n in want.items() if what == "removed")
    if n_matched != len(a) - n_removed:
        die(f"{n_matched} matched, expected {len(a) - n_removed}")
    for r in rs:
        if r["Status"] != "matched":
            continue
        da, db = int(r["A Duration (ns)"]), int(r["B Duration (ns)"])
        want_b = da * 3 // 2 if r["Name"] in slowed else da
        if db != want_b or int(r["Diff Duration (ns)"]) != db - da:
            die(f"{r['Name']}: duration {da} -> {db}, expected {want_b}")


# ---- agree -----------------------------------------------------------------------------------

def base_name(name):
    """The base name of a demangled kernel name: no return type, namespace, template arguments or
    parameters (enough for nsysgen's names and the traces', checked against shortName below)."""
    out, depth = "", 0
    for c in name:
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == "(" and depth == 0:
            break
        elif depth == 0:
            out += c
    return out.strip().split(" ")[-1].split("::")[-1]


def launches_of(path, names):
    """(device, stream, start, end, name, grid, block) of every kernel launch, in the capture's
    order; names exact or base."""
    if path.endswith((".json", ".json.gz")):
        out = []
        for e in trace_kernels(load_trace(path)):
            a, start = e["args"], us_to_ns(e["ts"])
            name = e["name"] if names == "exact" else base_name(e["name"])
            out.append((a["device"], a["stream"], start, start + us_to_ns(e["dur"]), name,
                        tuple(a.get("grid", [0, 0, 0])), tuple(a.get("block", [0, 0, 0]))))
        return out
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    q = ("SELECT k.deviceId, k.streamId, k.start, k.end, d.value, s.value, gridX, gridY, gridZ, "
         "blockX, blockY, blockZ FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds d ON d.id = "
         "k.demangledName JOIN StringIds s ON s.id = k.shortName ORDER BY k.rowid")
    out = []
    for dev, st, start, end, demangled, short, *dims in db.execute(q):
        if base_name(demangled) != short:
            die(f"the test's base name of {demangled} is {base_name(demangled)}, not {short}")
        out.append((dev, st, start, end, demangled if names == "exact" else short,
                    tuple(dims[:3]), tuple(dims[3:])))
    return out


def streams_without_repeats(launches):
    """The launches of each (device, stream) in start order (ties in capture order), each repeat of
    an earlier launch (the same start and end) left out and counted by name."""
    streams, seen, repeats = {}, set(), Counter()
    for i, l in sorted(enumerate(launches), key=lambda x: (x[1][0], x[1][1], x[1][2], x[0])):
        if l[:4] in seen:
            repeats[l[4]] += 1
            continue
        seen.add(l[:4])
        streams.setdefault(l[:2], []).append(l)
    return streams, repeats


def sign_test_interval(values, alpha=Fraction(1, 20)):
    """The order statistics [x(k), x(n+1-k)] of the sign test's interval of the median: k the
    largest with 2 P(Binomial(n, 1/2) <= k - 1) <= alpha, exact in fractions; None when no k is."""
    n, xs, k, tail = len(values), sorted(values), 0, Fraction(0)
    for i in range(n):
        tail += Fraction(math.comb(n, i), 2 ** n)
        if 2 * tail > alpha:
            break
        k = i + 1
    return (xs[k - 1], xs[n - k]) if k else None


def median(xs):
    xs, n = sorted(xs), len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def plural(n, word, suffix=""):
    return f"{n} {word}{'es' if n != 1 else ''}{suffix}"


def tenth(x):
    """x to 0.1 as SQL's round() gives it: halves away from zero, and no -0.0."""
    d = Decimal(repr(x)).quantize(Decimal("0.1"), rounding=decimal.ROUND_HALF_UP)
    return abs(d) if d == 0 else d


def near(got, want, what, row):
    if want is None:
        if got != "":
            die(f"{row['Name']}: {what} is {got}, expected none")
        return
    if got == "" or abs(float(got) - want) > 0.05 + 1e-9:
        die(f"{row['Name']}: {what} is {got!r}, expected {want:.4f}")


def expected_durations(a_streams, b_streams):
    """Per name, the (A, B) durations of the launches paired position by position."""
    pairs = {}
    if set(a_streams) != set(b_streams):
        die(f"streams {sorted(a_streams)} and {sorted(b_streams)} differ")
    for key, la in a_streams.items():
        lb = b_streams[key]
        if [l[4:] for l in la] != [l[4:] for l in lb]:
            die(f"stream {key} holds other launches on each side")
        for x, y in zip(la, lb):
            pairs.setdefault(x[4], []).append((x[3] - x[2], y[3] - y[2]))
    return pairs


def agree(path, a_path, b_path, names, mode, alpha="0.05"):
    _, rs = rows(path)
    la, lb = launches_of(a_path, names), launches_of(b_path, names)
    sa, ra = streams_without_repeats(la)
    sb, rb = streams_without_repeats(lb)
    ca, cb = Counter(l[4] for l in la), Counter(l[4] for l in lb)
    if sorted(r["Name"] for r in rs) != sorted(set(ca) | set(cb)):
        die(f"names {sorted(r['Name'] for r in rs)} are not the captures' {sorted(set(ca) | set(cb))}")
    pairs = expected_durations(sa, sb) if mode == "paired" else {}
    for r in rs:
        n = r["Name"]
        only_a = 0 if mode == "paired" else ca[n] - ra[n] - (cb[n] - rb[n])
        matched = ca[n] - ra[n] - only_a
        want = {"A Instances": ca[n], "B Instances": cb[n], "A Duplicates": ra[n],
                "B Duplicates": rb[n], "Matched": matched, "A Only": only_a, "B Only": 0}
        got = {c: int(r[c]) for c in want}
        if got != want:
            die(f"{n}: {got}, expected {want}")
        # subset: what B lacks is all that differs, so every matched launch lasts as long on both
        p = pairs.get(n, []) if mode == "paired" else [(1, 1)] * matched
        diffs = [b - a for a, b in p]
        pct = [(b - a) * 100.0 / a for a, b in p if a > 0]
        want_ns = median(diffs) if diffs else None
        got_ns = float(r["Median Diff (ns)"]) if r["Median Diff (ns)"] != "" else None
        if got_ns != want_ns:
            die(f"{n}: median diff {got_ns} ns, expected {want_ns}")
        near(r["Median Diff (%)"], median(pct) if pct else None, "median diff (%)", r)
        ci = sign_test_interval(pct, Fraction(alpha)) if Fraction(alpha) < 1 else None
        near(r["Diff CI Low (%)"], ci and ci[0], "CI low", r)
        near(r["Diff CI High (%)"], ci and ci[1], "CI high", r)
        parts = []
        if rb[n]:
            parts.append(f"B counts {plural(rb[n], 'launch')} twice")
        if ra[n]:
            parts.append(f"A counts {plural(ra[n], 'launch')} twice")
        if only_a:
            parts.append(f"B misses {plural(only_a, 'launch')}")
        if ci and (ci[0] > 0 or ci[1] < 0):
            parts.append(f"B durations {tenth(median(pct)):+.1f}% [{tenth(ci[0]):.1f}, {tenth(ci[1]):.1f}]")
        elif not ci and pct and tenth(median(pct)) != 0:
            parts.append(f"B durations {tenth(median(pct)):+.1f}% (no interval)")
        if r["Verdict"] != ("; ".join(parts) or "agree"):
            die(f"{n}: verdict {r['Verdict']!r}, expected {'; '.join(parts) or 'agree'!r}")
    order = [(-(int(r["A Only"]) + int(r["B Only"]) + int(r["A Duplicates"]) + int(r["B Duplicates"])),
              r["Name"].encode()) for r in rs]
    if order != sorted(order):
        die("rows are not ordered by disagreeing launches, then name")


def jitter_trace(src, dst, seed):
    doc = load_trace(src)
    rng = random.Random(int(seed))
    for e in trace_kernels(doc):
        factor = Decimal(rng.randint(950, 1100)) / 1000
        e["dur"] = Decimal(us_to_ns(Decimal(e["dur"]) * factor)) / 1000
    with gzip.open(dst, "wt", encoding="utf-8") as f:
        f.write(dump_exact(doc))
# ---- devices -------------------------------------------------------------------------------------

GPU_TABLES = ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
              "CUPTI_ACTIVITY_KIND_GRAPH_TRACE")


def tables_with(db, column):
    names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return [t for t in names if any(c[1] == column for c in db.execute(f"PRAGMA table_info({t})"))]


def renumber(path, mapping):
    """Every deviceId of the export (and the GPU's id in TARGET_INFO_GPU) renumbered at once."""
    m = dict(tuple(int(x) for x in p.split(":")) for p in mapping.split(","))
    case = "CASE {0} " + " ".join(f"WHEN {a} THEN {b}" for a, b in m.items()) + " ELSE {0} END"
    db = sqlite3.connect(path)
    for t in tables_with(db, "deviceId"):
        db.execute(f"UPDATE {t} SET deviceId = {case.format('deviceId')}")
    if "TARGET_INFO_GPU" in tables_with(db, "id"):
        db.execute(f"UPDATE TARGET_INFO_GPU SET id = {case.format('id')}, "
                   f"cuDevice = {case.format('cuDevice')}")
    db.commit()


def drop_kernels(path, device):
    db = sqlite3.connect(path)
    db.execute("DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = ?", (int(device),))
    db.commit()


def gpu_rows(db):
    have = set(tables_with(db, "deviceId"))
    return {t: list(db.execute(f"SELECT deviceId, start, end FROM {t}")) for t in GPU_TABLES
            if t in have}


def busy(intervals):
    """The union's length: each nanosecond in which one ran, once."""
    total, end = 0, None
    for s, e in sorted(intervals):
        if end is None or s > end:
            total += e - s
            end = e
        elif e > end:
            total += e - end
            end = e
    return total


def side_numbers(path):
    """Per device: busy time over every GPU table, the kernels' plain sum (and graphs'), and
    the kernels as a multiset of demangled names."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    rows = gpu_rows(db)
    devices = sorted({d for rs in rows.values() for d, _, _ in rs})
    out = {}
    for d in devices:
        ops = [(s, e) for rs in rows.values() for dev, s, e in rs if dev == d]
        ksum = sum(e - s for t in ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_GRAPH_TRACE")
                   for dev, s, e in rows.get(t, []) if dev == d)
        out[d] = {"busy": busy(ops), "ksum": ksum, "kernels": Counter()}
    for d, name, n in db.execute("SELECT k.deviceId, s.value, count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                                 "JOIN StringIds s ON s.id = k.demangledName GROUP BY 1, 2"):
        out[d]["kernels"][name] = n
    return out


def pair_by_work(a, b):
    """The rule, as stated: the pair that shares the most launches first (ties: the same id, then
    the lower id of A, then of B), each device once; then free devices of equal ids."""
    cand = []
    for i in a:
        for j in b:
            n = sum((a[i]["kernels"] & b[j]["kernels"]).values())
            if n:
                cand.append((-n, i != j, i, j))
    pairs, used_a, used_b = {}, set(), set()
    for _, _, i, j in sorted(cand):
        if i not in used_a and j not in used_b:
            pairs[i] = j
            used_a.add(i), used_b.add(j)
    for i in a:
        if i not in used_a and i in b and i not in used_b:
            pairs[i] = i
            used_a.add(i), used_b.add(i)
    return pairs


def devices(path, a_path, b_path, mode, claim):
    _, rs = rows(path)
    a, b = side_numbers(a_path), side_numbers(b_path)
    pairs = pair_by_work(a, b) if mode == "auto" else {i: i for i in a if i in b}
    if claim != "-":
        said = dict(tuple(int(x) for x in p.split("=")) for p in claim.split(","))
        if {i: j for i, j in pairs.items() if i != j or i in said} != said:
            die(f"the rule pairs {pairs}, the construction says {said}")
    want = [(str(i), str(pairs[i]) if i in pairs else "") for i in sorted(a)] + \
        [("", str(j)) for j in sorted(b) if j not in pairs.values()]
    got = [(r["Device A"], r["Device B"]) for r in rs]
    if got != want:
        die(f"devices paired {got}, expected {want}")
    for r in rs:
        for side, nums, dev in (("A", a, r["Device A"]), ("B", b, r["Device B"])):
            for col, what in (("Busy", "busy"), ("Kernel Sum", "ksum")):
                cell = r[f"{side} {col} (ns)"]
                want_cell = str(nums[int(dev)][what]) if dev else ""
                if cell != want_cell:
                    die(f"{side} {col} of device {dev or '-'}: {cell}, SQL says {want_cell} ({r})")
        if r["Device A"] and r["Device B"] and \
                int(r["Diff Busy (ns)"]) != int(r["B Busy (ns)"]) - int(r["A Busy (ns)"]):
            die(f"Diff Busy is not B - A in {r}")
# ---- launch sequences and their longest common subsequence ----------------------------------------

def export_streams(path):
    """(device, stream) -> its launches (demangled name, grid, block), in start order."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    q = ("SELECT k.deviceId, k.streamId, s.value, k.gridX, k.gridY, k.gridZ, k.blockX, "
         "k.blockY, k.blockZ FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s "
         "ON s.id = k.demangledName ORDER BY k.deviceId, k.streamId, k.start, k.rowid")
    out = {}
    for dev, stream, name, *dims in db.execute(q):
        out.setdefault((dev, stream), []).append((name, *dims))
    return out


def trace_streams(path):
    out = {}
    for e in sorted(trace_kernels(load_trace(path)), key=lambda e: Decimal(e["ts"])):
        a = e["args"]
        dims = [*(a.get("grid") or [0, 0, 0]), *(a.get("block") or [0, 0, 0])]
        out.setdefault((a["device"], a["stream"]), []).append((e["name"], *dims))
    return out


def lcs_length(a, b):
    """Allison and Dix's bit-vector LCS, a Python int as the bit vector over a."""
    masks = {}
    for i, x in enumerate(a):
        masks[x] = masks.get(x, 0) | 1 << i
    full = (1 << len(a)) - 1
    v = full
    for y in b:
        u = v & masks.get(y, 0)
        v = ((v + u) | (v - u)) & full
    return len(a) - bin(v).count("1")


def lcs_by_table(a, b):
    """The textbook dynamic program, for checking lcs_length on small inputs."""
    row = [0] * (len(b) + 1)
    for x in a:
        prev, row = row, [0]
        for j, y in enumerate(b):
            row.append(prev[j] + 1 if x == y else max(row[j], prev[j + 1]))
    return row[-1]


def walk_pair(rs, a, b):
    """The rows of one pair of streams, in order, are a and b merged: a removed row is a's next
    launch, an added one b's, a matched one both, which are the same launch. Returns the
    matches, or a complaint."""
    i = j = 0
    for r in rs:
        key = (r["Name"], *map(int, r["GridXYZ"].split()), *map(int, r["BlockXYZ"].split()))
        st = r["Status"]
        if st in ("removed", "matched") and (i >= len(a) or a[i] != key):
            return f"row {st} {key} is not A's launch {i}"
        if st in ("added", "matched") and (j >= len(b) or b[j] != key):
            return f"row {st} {key} is not B's launch {j}"
        i += st != "added"
        j += st != "removed"
    if (i, j) != (len(a), len(b)):
        return f"rows cover {i} and {j} launches of {len(a)} and {len(b)}"
    return sum(r["Status"] == "matched" for r in rs)


def launch_lcs(path, a_path, b_path, mode="shortest"):
    _, rs = rows(path)
    side = lambda p: trace_streams(p) if ".json" in p else export_streams(p)
    sa, sb = side(a_path), side(b_path)
    by_pair = {}
    for r in rs:
        if r["Device A"] != "" and r["Device B"] != "":
            pair = ((int(r["Device A"]), int(r["Stream A"])), (int(r["Device B"]), int(r["Stream B"])))
            by_pair.setdefault(pair, []).append(r)
    if not by_pair:
        die("no pair of streams")
    for (x, y), prs in sorted(by_pair.items()):
        a, b = sa.get(x, []), sb.get(y, [])
        same = walk_pair(prs, a, b)
        if isinstance(same, str):
            die(f"A {x} -> B {y}: {same}")
        want = lcs_length(a, b)
        if len(a) * len(b) <= 4_000_000 and lcs_by_table(a, b) != want:
            die(f"A {x} -> B {y}: the two LCS computations disagree")
        if same > want or (mode == "shortest" and same != want):
            die(f"A {x} -> B {y}: {same} launches matched, the longest common subsequence "
                f"has {want}")


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    {"zero": zero, "swapped": swapped, "kern_sums": kern_sums, "edit": edit,
     "launches": launches, "only": only, "launch_counts": launch_counts,
     "perturb_trace": perturb_trace, "trace_kern": trace_kern,
     "trace_launches": trace_launches, "plant": plant, "statuses": statuses,
     "agree": agree, "jitter_trace": jitter_trace, "renumber": renumber,
     "drop_kernels": drop_kernels, "devices": devices, "launch_lcs": launch_lcs,
     "iters": iters, "iters_twin": iters_twin, "iters_trace": iters_trace,
     "iter_statuses": iter_statuses, "gate_basis": gate_basis, "nvtx_ranks": nvtx_ranks}[cmd](*args)


if __name__ == "__main__":
    main()
