#!/usr/bin/env python3
"""Checks for tests/diff/run.sh, computed with python3's csv and sqlite3 modules only.

  check.py zero CSV [COLUMN,...]       an export against itself: no difference anywhere (but in
                                       those columns, named without their "A "/"B "/"Diff ")
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
  check.py launch_lcs LAUNCH.csv A B [valid]   launch_diff of two captures (exports or traces):
                                       each pair of streams' rows are its two launch sequences in
                                       order, matched only where the launches are the same, as
                                       many matched as their longest common subsequence has (with
                                       valid: at most as many)
Traces are read with json and gzip, their microseconds as exact decimals.
A failed check prints why and exits 1.
"""
import csv
import decimal
import re
import gzip
import json
import sqlite3
import sys
from collections import Counter
from decimal import Decimal


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
    ignored = {"A " + c for c in ignore.split(",") if c} | {"B " + c for c in ignore.split(",") if c} | \
        {"Diff " + c for c in ignore.split(",") if c}
    for r in rs:
        for c, v in r.items():
            if c in ignored:
                continue
            if (c.startswith("Diff ") or c.endswith("Change (%)")) and num(v) not in (None, 0):
                die(f"{c} is {v} in {r}")
            if c == "Status" and v not in ("same", "matched"):
                die(f"status {v} in {r}")
        for a, b in sides(header):
            if a not in ignored and r[a] != r[b]:
                die(f"{a} {r[a]} differs from {b} {r[b]} in {r}")


SWAP_STATUS = {"added": "removed", "removed": "added", "matched": "matched"}


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
            and not c.endswith("Change (%)") and c != "Status"]
    def key(r):
        return tuple(r[k] for k in keys)
    by_key = {key(r): r for r in ba}
    for r in ab:
        s = by_key.get(key(r))
        if s is None:
            die(f"no row {key(r)} the other way")
        for a, b in pairs:
            if r[a] != s[b]:
                die(f"{a} {r[a]} is not {b} {s[b]} swapped, row {key(r)}")
        for c in header:
            if c.startswith("Diff "):
                x, y = num(r[c]), num(s[c])
                if (x is None) != (y is None) or (x is not None and abs(x + y) > 1e-9):
                    die(f"{c} {r[c]} is not minus {s[c]}, row {key(r)}")


def sql_kernels(path, mode):
    col = "demangledName" if mode == "exact" else "shortName"
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    q = (f"SELECT s.value, count(*), sum(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
         f"JOIN StringIds s ON s.id = k.{col} GROUP BY s.value")
    return {name: (n, total) for name, n, total in db.execute(q)}


def kern_sums(path, a_path, b_path, mode):
    _, rs = rows(path)
    a, b = sql_kernels(a_path, mode), sql_kernels(b_path, mode)
    if {r["Name"] for r in rs} != set(a) | set(b):
        die(f"kernels {len(rs)} in kern_diff, {len(set(a) | set(b))} in SQL")
    for r in rs:
        na, ta = a.get(r["Name"], (0, 0))
        nb, tb = b.get(r["Name"], (0, 0))
        got = [int(r[c]) for c in ("A Instances", "B Instances", "Diff Instances",
                                   "A Total (ns)", "B Total (ns)", "Diff Total (ns)")]
        want = [na, nb, nb - na, ta, tb, tb - ta]
        if got != want:
            die(f"{r['Name']}: {got} where SQL says {want}")
        status = ("added" if na == 0 else "removed" if nb == 0 else
                  "same" if abs(tb - ta) * 100 <= 2 * ta else "slower" if tb > ta else "faster")
        if r["Status"] != status:
            die(f"{r['Name']}: {r['Status']} where the totals say {status}")


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
        elif r["Status"] != "same" or num(r["Diff Total (ns)"]) != 0 or num(r["Diff Instances"]) != 0:
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


def trace_sums(path):
    sums = {}
    for e in trace_kernels(load_trace(path)):
        n, total = sums.get(e["name"], (0, 0))
        sums[e["name"]] = (n + 1, total + us_to_ns(e["dur"]))
    return sums


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
    a, b = trace_sums(a_path), trace_sums(b_path)
    if {r["Name"] for r in rs} != set(a) | set(b):
        die(f"kernels {len(rs)} in kern_diff, {len(set(a) | set(b))} in the traces")
    changed = set()
    for what, rest in read_expect(expect_path):
        changed.update(rest.split("\t") if what == "renamed" else [rest])
    for r in rs:
        na, ta = a.get(r["Name"], (0, 0))
        nb, tb = b.get(r["Name"], (0, 0))
        got = [int(r[c]) for c in ("A Instances", "B Instances", "Diff Instances",
                                   "A Total (ns)", "B Total (ns)", "Diff Total (ns)")]
        if got != [na, nb, nb - na, ta, tb, tb - ta]:
            die(f"{r['Name']}: {got} where the traces say {[na, nb, nb - na, ta, tb, tb - ta]}")
        if (got[2] != 0 or got[5] != 0) != (r["Name"] in changed):
            die(f"{r['Name']}: {'changed' if r['Name'] not in changed else 'unchanged'}: {got}")
        status = ("added" if na == 0 else "removed" if nb == 0 else
                  "same" if abs(tb - ta) * 100 <= 2 * ta else "slower" if tb > ta else "faster")
        if r["Status"] != status:
            die(f"{r['Name']}: {r['Status']} where the totals say {status}")


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
     "trace_launches": trace_launches, "launch_lcs": launch_lcs}[cmd](*args)


if __name__ == "__main__":
    main()
