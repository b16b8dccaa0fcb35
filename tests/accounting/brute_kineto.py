#!/usr/bin/env python3
"""brute_kineto.py TRACE OUT: recomputes from a PyTorch profiler (Kineto) trace, with Python's
json and gzip and nothing of nstats, what nstats's csv output in OUT_<report>.csv says:

  cuda_gpu_kern_sum      per kernel name: instances, total, min and max duration (ns)
  cuda_api_sum           per API name (cat cuda_runtime and cuda_driver, a 6-character "_vNNNN"
                         suffix dropped): calls and total time
  cuda_gpu_mem_time_sum  per copy kind (memset apart): count, total, min and max duration
  cuda_gpu_mem_size_sum  the same in bytes (OUT written with -f csv:mem=B)
  gpu_time_sum           the capture span: from the first to the last nanosecond of the events
                         above, the user annotations and the profiler's Trace spans

`brute_kineto.py --counts TRACE` prints the events the listed reports need, as words: kernels
copies (memcpy and memset) calls ranges, each followed by its count.

Times are exact: the numbers are read as decimals, microseconds times 1000, rounded to the
nanosecond with halves away from zero. The labels of copy kinds come from the ENUM file of the
shared data (enums-2024.2.3.txt). Prints every disagreement; exit status 1 when there is one.
"""
import csv
import decimal
import gzip
import json
import os
import sys
from collections import defaultdict
from decimal import Decimal

decimal.getcontext().prec = 200
KINDS = {"kernel": "kernel", "gpu_memcpy": "memcpy", "gpu_memset": "memset",
         "cuda_runtime": "api", "cuda_driver": "api", "user_annotation": "range",
         "gpu_user_annotation": "range", "Trace": "span"}


def ns(us):
    return int((Decimal(us) * 1000).to_integral_value(rounding=decimal.ROUND_HALF_UP))


def copy_labels():
    """HtoD -> Host-to-Device, from ENUM_CUDA_MEMCPY_OPER of the shared data's ENUM file."""
    root = os.path.dirname(os.path.abspath(__file__))
    shared = os.environ.get("NSTATS_SHARED") or os.path.join(root, "..", "..", "..", "shared")
    labels, inside = {}, False
    with open(os.path.join(shared, "docs", "enums-2024.2.3.txt")) as f:
        for line in f:
            if line.startswith("=="):
                inside = line.split()[1] == "ENUM_CUDA_MEMCPY_OPER"
            elif inside:
                _, name, label = (x.strip(" '") for x in line.strip().strip("()").split(","))
                labels[name[len("CUDA_MEMCPY_KIND_"):]] = label
    return labels


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        return json.load(f, parse_float=Decimal)


def expected(trace):
    labels = copy_labels()
    kern = defaultdict(list)
    api = defaultdict(list)
    mem = defaultdict(lambda: ([], []))
    lo = hi = None
    for e in trace["traceEvents"]:
        kind = KINDS.get(e.get("cat"))
        if e.get("ph") != "X" or kind is None:
            continue
        start = ns(e["ts"])
        end = start + ns(e["dur"])
        lo = min(x for x in (lo, start, end) if x is not None)
        hi = max(x for x in (hi, start, end) if x is not None)
        dur = end - start
        if kind == "kernel":
            kern[e["name"]].append(dur)
        elif kind == "api":
            name = e["name"]
            if len(name) >= 6 and name[-6] == "_" and name[-5] == "v":
                name = name[:-6]
            api[name].append(dur)
        elif kind in ("memcpy", "memset"):
            if kind == "memset":
                op = "[CUDA memset]"
            else:
                word = e["name"].split(" ")[1]
                op = "[CUDA memcpy %s]" % labels.get(word.upper(), labels["UNKNOWN"])
            mem[op][0].append(dur)
            mem[op][1].append(int(e["args"]["bytes"]))
    return kern, api, mem, (hi - lo if lo is not None else 0)


def rows(path, key_col):
    with open(path, newline="") as f:
        return {r[key_col]: r for r in csv.DictReader(f)}


def counts(path):
    n = defaultdict(int)
    for e in load(path)["traceEvents"]:
        if e.get("ph") == "X" and e.get("cat") in KINDS:
            n[{"memcpy": "copies", "memset": "copies", "kernel": "kernels", "api": "calls",
               "range": "ranges", "span": "spans"}[KINDS[e["cat"]]]] += 1
    print(" ".join("%s %d" % (k, n[k]) for k in ("kernels", "copies", "calls", "ranges")))


def main():
    if sys.argv[1] == "--counts":
        counts(sys.argv[2])
        return
    trace_path, out = sys.argv[1], sys.argv[2]
    kern, api, mem, span = expected(load(trace_path))
    bad = []

    def compare(report, key_col, want, cols):
        path = "%s_%s.csv" % (out, report)
        got = rows(path, key_col) if os.path.exists(path) else {}
        for key in sorted(set(want) | set(got)):
            if key not in got:
                bad.append("%s: %s: missing from nstats" % (report, key))
            elif key not in want:
                bad.append("%s: %s: nstats has it, the trace does not" % (report, key))
            else:
                for col, value in zip(cols, want[key]):
                    if got[key][col] != str(value):
                        bad.append("%s: %s: %s is %s, brute force says %s"
                                   % (report, key, col, got[key][col], value))

    compare("cuda_gpu_kern_sum", "Name",
            {k: (len(v), sum(v), min(v), max(v)) for k, v in kern.items()},
            ("Instances", "Total Time (ns)", "Min (ns)", "Max (ns)"))
    compare("cuda_api_sum", "Name", {k: (len(v), sum(v)) for k, v in api.items()},
            ("Num Calls", "Total Time (ns)"))
    compare("cuda_gpu_mem_time_sum", "Operation",
            {k: (len(d), sum(d), min(d), max(d)) for k, (d, b) in mem.items()},
            ("Count", "Total Time (ns)", "Min (ns)", "Max (ns)"))
    compare("cuda_gpu_mem_size_sum", "Operation",
            {k: (len(b), sum(b), min(b), max(b)) for k, (d, b) in mem.items()},
            ("Count", "Total (B)", "Min (B)", "Max (B)"))
    if kern or mem:
        compare("gpu_time_sum", "Device",
                {d: (span,) for d in rows("%s_gpu_time_sum.csv" % out, "Device")} or {"?": (span,)},
                ("Capture Span (ns)",))
    for line in bad:
        print("FAIL %s: %s" % (os.path.basename(trace_path), line))
    n = sum(len(v) for v in kern.values())
    print("%s: %d kernels, %d calls, %d copies and sets, span %d ns: %s"
          % (os.path.basename(trace_path), n, sum(len(v) for v in api.values()),
             sum(len(d) for d, _ in mem.values()), span, "disagree" if bad else "agree"))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
