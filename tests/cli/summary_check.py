#!/usr/bin/env python3
"""summary_check.py PAGE DIR: checks every number of an `nstats summary --timeunit nsec` page
against the reports it names, as `nstats stats -f csv` wrote them into DIR/<report>.csv, and that
each shortened name is the report's name with its middle left out. Prints what differs; exit
status 1 when anything does."""
import csv
import re
import sys

# the report each table comes from (named in its title) -> its columns, in the page's order
BY_REPORT = {
    "gpu_time_sum": ["Busy", "Capture Util", "Idle", "Overlap", "Idle Gaps", "Device"],
    "cuda_gpu_kern_dist": ["Total Time", "Busy", "Instances", "Mean", "P50", "P90", "P99", "Name"],
    "cuda_api_sum": ["Total Time", "Time", "Num Calls", "Avg", "Name"],
    "nvtx_sum": ["Total Time", "Time", "Instances", "Avg", "Range"],
}


def label(header):
    return re.sub(r" \([^)]*\)$", "", header)


def read_csv(directory, report):
    with open(f"{directory}/{report}.csv", newline="") as f:
        rows = list(csv.reader(f))
    heads = [label(h) for h in rows[0]]
    return [dict(zip(heads, r)) for r in rows[1:] if r]


def sections(page):
    """(title, header, rows) of every table on the page"""
    out, title, rows, header = [], None, [], False
    for line in page.splitlines() + [""]:
        if not line.strip():
            if title:
                out.append((title, head, rows))
            title, rows, header = None, [], False
        elif not line.startswith(" ") and re.search(r"\((\w+)", line) and \
                re.search(r"\((\w+)", line).group(1) in BY_REPORT.keys() | {"cuda_gpu_mem_time_sum"}:
            title, header = line, True
        elif title and header:
            head, header = line, False
        elif title:
            rows.append(line)
    return out


def expected_rows(directory, title):
    report = re.search(r"\((\w+)", title).group(1)
    if report == "cuda_gpu_mem_time_sum":
        sizes = {r["Operation"]: r["Total"] for r in read_csv(directory, "cuda_gpu_mem_size_sum")}
        return [[r["Count"], sizes.get(r["Operation"], ""), r["Total Time"], r["Operation"]]
                for r in read_csv(directory, report)]
    cols = BY_REPORT[report]
    return [[r[c] for c in cols] for r in read_csv(directory, report)]


MB_PER = {"B": 1e-6, "KB": 1e-3, "MB": 1.0, "GB": 1e3}


def same_bytes(page, unit, mb):
    """page's value in unit, and the report's in MB (3 decimals), are one size, both rounded"""
    return abs(float(page) * MB_PER[unit] - float(mb)) <= 0.0005 * MB_PER[unit] + 0.0005


def same_row(got, want, unit=None):
    """equal, but for a shortened last cell: head…tail of the report's (one or two ellipses);
    with unit, the second cell is a size in that unit and the report's is in MB"""
    if len(got) != len(want):
        return False
    if unit:
        if not same_bytes(got[1], unit, want[1]):
            return False
        got, want = got[:1] + got[2:], want[:1] + want[2:]
    if got[:-1] != want[:-1]:
        return False
    name, full = got[-1], want[-1]
    if "\u2026" not in name:
        return name == full
    parts = name.split("\u2026")
    return full.startswith(parts[0]) and full.endswith(parts[-1]) and \
        all(p in full for p in parts[1:-1]) and len(name) < len(full)


def main():
    page, directory = open(sys.argv[1]).read(), sys.argv[2]
    bad = 0
    tables = sections(page)
    for title, head, rows in tables:
        want = expected_rows(directory, title)
        ncols = len(want[0]) if want else 0
        got = [re.split(r"\s{2,}", r.strip(), maxsplit=ncols - 1) for r in rows]
        unit = re.search(r"Bytes \((\w+)\)", head)
        unit = unit.group(1) if unit else None
        if len(got) != len(want) or not all(same_row(g, w, unit) for g, w in zip(got, want)):
            bad += 1
            print(f"{title}:\n  page: {got}\n  csv:  {want}")
    if len(tables) < 5:
        bad += 1
        print(f"only {len(tables)} tables on the page")
    sys.exit(1 if bad else 0)


main()
