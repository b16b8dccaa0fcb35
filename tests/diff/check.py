#!/usr/bin/env python3
"""Checks for tests/diff/run.sh, computed with python3's csv and sqlite3 modules only.

  check.py zero CSV                    an export against itself: no difference anywhere
  check.py swapped AB.csv BA.csv       B vs A is A vs B with every delta negated
  check.py kern_sums CSV A B MODE      kern_diff's instances and totals are SQL's (MODE exact|base)
  check.py edit DB                     edits a copy of an export; prints what launch_diff must find
  check.py launches CSV EXPECT A       launch_diff found exactly that
  check.py only CSV NAME STATUS CHANGE ...   kern_diff: those kernels changed so, no other
  check.py launch_counts CSV REMOVED ADDED NAME   launch_diff: that many launches gone and come
A failed check prints why and exits 1.
"""
import csv
import sqlite3
import sys
from collections import Counter


def rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        r = [x for x in csv.reader(f) if x]
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


def zero(path):
    header, rs = rows(path)
    for r in rs:
        for c, v in r.items():
            if (c.startswith("Diff ") or c.endswith("Change (%)")) and num(v) not in (None, 0):
                die(f"{c} is {v} in {r}")
            if c == "Status" and v not in ("same", "matched"):
                die(f"status {v} in {r}")
        for a, b in sides(header):
            if r[a] != r[b]:
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


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    {"zero": zero, "swapped": swapped, "kern_sums": kern_sums, "edit": edit,
     "launches": launches, "only": only, "launch_counts": launch_counts}[cmd](*args)


if __name__ == "__main__":
    main()
