#!/usr/bin/env python3
"""kineto_gen_check.py: checks what nsysgen --kineto and its perturbations write, with the standard
library alone (json, gzip, sqlite3; nothing of nstats). Used by case_kineto_gen.sh.

  agree EXPORT TRACE            the trace holds the export's run, event by event
  slow BASE PERTURBED NAME PCT  (exports or traces) NAME's launches last PCT% longer, nothing else changed
  drop BASE PERTURBED N         exactly N kernel launches and their calls are gone, the rest identical
  insert BASE PERTURBED N       exactly N kernel launches and their calls are new, the rest identical
  rename BASE PERTURBED OLD NEW kernels named OLD are named NEW, the rest identical

BASE and PERTURBED are both exports (.sqlite) or both traces (.json, .json.gz). Prints what disagrees
and exits 1; exits 0 when everything agrees."""
import decimal
import gzip
import json
import re
import sqlite3
import sys
from collections import Counter

problems = []


def problem(msg):
    problems.append(msg)


# ---------------------------------------------------------------------------------------------- names

def opens(c):
    return c in "<([{"


def closes(c):
    return c in ">)]}"


OPERATORS = ["()", "[]", "->*", "->", "<<=", ">>=", "<<", ">>", "<=>", "<=", ">=", "<", ">"]


def operator_len(s, i):
    if not s.startswith("operator", i):
        return 0
    p = i + 8
    while p < len(s) and s[p] == " ":
        p += 1
    for o in OPERATORS:
        if s.startswith(o, p):
            return p - i + len(o)
    return 8


def group_end(s, i):
    depth = 0
    for j in range(i, len(s)):
        if opens(s[j]):
            depth += 1
        elif closes(s[j]):
            depth -= 1
            if depth == 0:
                return j
    return len(s)


def base_name(s):
    """The base name of a demangled kernel name, by the rule of src/core/kname.c (nsys's shortName)."""
    n, depth, start, i = len(s), 0, 0, 0
    end = n
    while i < n:
        c = s[i]
        if depth == 0:
            op = operator_len(s, i)
            if op and (i == 0 or s[i - 1] in ": "):
                i += op
                continue
            if c == " " and i + 1 < n and not closes(s[i + 1]):
                start = i + 1
            if c == ":" and i + 1 < n and s[i + 1] == ":":
                start = i + 2
                i += 2
                continue
            if c in "<(":
                close = group_end(s, i)
                qualifier = close + 2 < n and s[close + 1] == ":" and s[close + 2] == ":"
                if not qualifier and i > start:
                    end = i
                    break
                if not qualifier:
                    start, end = 0, n
                    break
        if opens(c):
            depth += 1
        elif closes(c) and depth > 0:
            depth -= 1
        i += 1
    return s if start >= end else s[start:end]


def unversioned(name):
    """Kineto's name of a CUDA call: nsys's without its last _v<digits>."""
    m = re.fullmatch(r"(.*)_v\d+", name)
    return m.group(1) if m and name.startswith("cuda") else name


# ---------------------------------------------------------------------------------------------- reading

def read_trace(path):
    raw = (gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb")).read().decode()
    # every time is microseconds with exactly three decimals: the export's nanoseconds, exactly
    for key, value in re.findall(r'"(ts|dur)": ([^,\n}]+)', raw):
        if not re.fullmatch(r"\d+\.\d{3}", value):
            problem(f"{path}: \"{key}\": {value} is not microseconds with three decimals")
    doc = json.loads(raw, parse_float=decimal.Decimal)
    for e in doc["traceEvents"]:
        for key in ("ts", "dur"):
            if isinstance(e.get(key), decimal.Decimal):
                e[key + "_ns"] = int(e[key] * 1000)
    return doc


def ns_of(e):
    return e["ts_ns"], e["ts_ns"] + e["dur_ns"]


def trace_events(doc, *cats):
    return [e for e in doc["traceEvents"] if e.get("ph") == "X" and e.get("cat") in cats]


def rows(db, sql):
    try:
        return db.execute(sql).fetchall()
    except sqlite3.OperationalError as err:
        if "no such table" in str(err):
            return []
        raise


def pid_of(gid):
    return (gid >> 24) & 0xFFFFFF


def tid_of(gid):
    return gid & 0xFFFFFF


# ---------------------------------------------------------------------------------------------- agree

def agree(export, trace_path):
    db = sqlite3.connect(export)
    doc = read_trace(trace_path)
    names = dict(rows(db, "SELECT id, value FROM StringIds"))

    # the header
    gpus = rows(db, "SELECT id, name, smCount, totalMemory FROM TARGET_INFO_GPU ORDER BY id")
    props = [(p["id"], p["name"], p["numSms"], p["totalGlobalMem"]) for p in doc["deviceProperties"]]
    if props != [tuple(g) for g in gpus]:
        problem(f"deviceProperties {props} are not TARGET_INFO_GPU's {gpus}")
    base = rows(db, "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME")[0][0]
    if doc.get("baseTimeNanoseconds") != base:
        problem(f"baseTimeNanoseconds {doc.get('baseTimeNanoseconds')} is not the session's start {base}")
    if doc.get("schemaVersion") != 1 or "rank" not in doc.get("distributedInfo", {}):
        problem("no schemaVersion 1 or distributedInfo.rank")

    flows = Counter((e["ph"], e["id"], e["pid"], e["tid"], e["ts_ns"]) for e in doc["traceEvents"]
                    if e.get("cat") == "ac2g")

    # CUDA calls, by (pid, correlation)
    calls = {}
    for e in trace_events(doc, "cuda_runtime", "cuda_driver"):
        key = (e["pid"], e["args"]["correlation"])
        if key in calls:
            problem(f"two calls of process {key[0]} have correlation {key[1]}")
        calls[key] = e
    api_rows = rows(db, "SELECT start, end, eventClass, globalTid, correlationId, nameId "
                        "FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass IN (0, 1)")
    if len(api_rows) != len(calls):
        problem(f"{len(api_rows)} runtime and driver rows, {len(calls)} calls in the trace")
    for start, end, cls, gtid, corr, name_id in api_rows:
        e = calls.get((pid_of(gtid), corr))
        want = ("cuda_driver" if cls == 1 else "cuda_runtime", unversioned(names[name_id]), tid_of(gtid), start, end)
        got = e and (e["cat"], e["name"], e["tid"], *ns_of(e))
        if got != want:
            problem(f"call {names[name_id]} (pid {pid_of(gtid)}, correlation {corr}): trace has {got}, export {want}")
            continue
        flowed = flows[("s", corr, e["pid"], e["tid"], start)] + flows[("f", corr, e["pid"], e["tid"], start)]
        if flowed != 1:
            problem(f"call {e['name']} correlation {corr}: {flowed} ac2g flow events at it, not 1")

    # GPU work, by (device, stream, correlation); each also has its call and its flow end
    def gpu_index(cat):
        index = {}
        for e in trace_events(doc, cat):
            a = e["args"]
            key = (a.get("device", a.get("inDevice")), a["stream"], a["correlation"])
            if key in index:
                problem(f"two {cat} events have device, stream, correlation {key}")
            index[key] = e
        return index

    def check_gpu(cat, table, extra, compare):
        index = gpu_index(cat)
        gpu_rows = rows(db, f"SELECT start, end, deviceId, contextId, streamId, correlationId, globalPid{extra} "
                            f"FROM {table} WHERE correlationId != 0")
        if len(gpu_rows) != len(index):
            problem(f"{len(gpu_rows)} rows of {table}, {len(index)} {cat} events")
        for r in gpu_rows:
            start, end, device, context, stream, corr, gpid = r[:7]
            e = index.get((device, stream, corr))
            if not e:
                problem(f"{table} correlation {corr} (device {device}, stream {stream}) is not in the trace")
                continue
            a = e["args"]
            if (e["pid"], e["tid"], *ns_of(e)) != (device, stream, start, end):
                problem(f"{cat} correlation {corr}: pid, tid, start, end {(e['pid'], e['tid'], *ns_of(e))}, "
                        f"export {(device, stream, start, end)}")
            if a.get("context", a.get("inContext")) != context:
                problem(f"{cat} correlation {corr}: context {a.get('context')}, export {context}")
            call = calls.get((pid_of(gpid), corr))
            if not call:
                problem(f"{cat} correlation {corr} has no call in the trace")
            elif call["args"].get("External id") != a.get("External id"):
                problem(f"{cat} correlation {corr}: External id {a.get('External id')}, its call's "
                        f"{call['args'].get('External id')}")
            if flows[("f", corr, device, stream, start)] != 1:
                problem(f"{cat} correlation {corr}: no ac2g flow end at it")
            compare(e, r[7:], corr)

    def kernel(e, r, corr):
        short, demangled, regs, static, dynamic, gx, gy, gz, bx, by, bz = r
        a = e["args"]
        if base_name(e["name"]) != names[short] or base_name(names[demangled]) != names[short]:
            problem(f"kernel correlation {corr}: base of '{e['name']}' is '{base_name(e['name'])}', "
                    f"shortName '{names[short]}'")
        want = (regs, static + dynamic, [gx, gy, gz], [bx, by, bz])
        got = (a["registers per thread"], a["shared memory"], a["grid"], a["block"])
        if got != want:
            problem(f"kernel correlation {corr}: registers, shared memory, grid, block {got}, export {want}")

    kinds = {0: "<unknown>", 1: "HtoD", 2: "DtoH", 3: "HtoA", 4: "AtoH", 5: "AtoA", 6: "AtoD", 7: "DtoA",
             8: "DtoD", 9: "HtoH", 10: "PtoP"}
    mem = {0: "Pageable", 1: "Pinned", 2: "Device", 3: "Array", 4: "Managed", 5: "Device Static",
           6: "Managed Static", 7: "Unknown"}

    def memcpy(e, r, corr):
        nbytes, kind, src, dst = r
        want = (f"Memcpy {kinds[kind]} ({mem[src]} -> {mem[dst]})", nbytes)
        if (e["name"], e["args"]["bytes"]) != want:
            problem(f"memcpy correlation {corr}: {(e['name'], e['args']['bytes'])}, export {want}")

    def memset(e, r, corr):
        nbytes, kind = r
        if (e["name"], e["args"]["bytes"]) != (f"Memset ({mem[kind]})", nbytes):
            problem(f"memset correlation {corr}: {(e['name'], e['args']['bytes'])}, export {nbytes} bytes")

    check_gpu("kernel", "CUPTI_ACTIVITY_KIND_KERNEL", ", shortName, demangledName, registersPerThread, "
              "staticSharedMemory, dynamicSharedMemory, gridX, gridY, gridZ, blockX, blockY, blockZ", kernel)
    check_gpu("gpu_memcpy", "CUPTI_ACTIVITY_KIND_MEMCPY", ", bytes, copyKind, srcKind, dstKind", memcpy)
    check_gpu("gpu_memset", "CUPTI_ACTIVITY_KIND_MEMSET", ", bytes, memKind", memset)

    # NVTX push/pop ranges with an end are the user annotations; a call's External id is that of the
    # innermost annotation open around it on its thread
    annotations = trace_events(doc, "user_annotation")
    want = Counter()
    for start, end, text, text_id, gtid in rows(db, "SELECT start, end, text, textId, globalTid FROM NVTX_EVENTS "
                                                    "WHERE eventType = 59 AND end IS NOT NULL"):
        want[(text if text is not None else names[text_id], pid_of(gtid), tid_of(gtid), start, end)] += 1
    got = Counter((e["name"], e["pid"], e["tid"], *ns_of(e)) for e in annotations)
    if got != want:
        problem(f"user annotations differ from NVTX push/pop ranges: {len(got - want)} only in the trace "
                f"(e.g. {list(got - want)[:2]}), {len(want - got)} only in the export (e.g. {list(want - got)[:2]})")
    by_id = {}
    for e in annotations:
        if e["args"]["External id"] in by_id:
            problem(f"two annotations have External id {e['args']['External id']}")
        by_id[e["args"]["External id"]] = e
    linked = 0
    for e in calls.values():
        ext = e["args"].get("External id")
        if ext is None:
            continue
        linked += 1
        a = by_id.get(ext)
        t0, t1 = ns_of(e)
        if not a or (a["pid"], a["tid"]) != (e["pid"], e["tid"]) or not (a["ts_ns"] <= t0 and t1 <= ns_of(a)[1]):
            problem(f"call {e['name']} correlation {e['args']['correlation']}: External id {ext} is not an "
                    f"annotation around it on its thread")
    if annotations and calls and not linked:
        problem("no call has an External id, yet there are annotations")

    # metadata: every process, every GPU, every stream that ran something
    meta = {(e["name"], e["pid"], e["tid"]) for e in doc["traceEvents"] if e.get("ph") == "M"}
    for (gpid,) in rows(db, "SELECT globalPid FROM PROCESSES"):
        if ("process_name", pid_of(gpid), 0) not in meta:
            problem(f"no process_name for pid {pid_of(gpid)}")
    for e in trace_events(doc, "kernel", "gpu_memcpy", "gpu_memset"):
        if ("thread_name", e["pid"], e["tid"]) not in meta:
            problem(f"no thread_name for GPU {e['pid']} stream {e['tid']}")
            break


# ---------------------------------------------------------------------------------------------- perturbations

def launches(path):
    """Kernel launches of an export or a trace, {key: (demangled, base, duration, rest, mangled)} with key
    (pid, correlation) in an export and (device, stream, correlation) in a trace, and `rest` everything of
    the launch but its names and timing; and the CUDA calls, a Counter of (pid, correlation, class, name,
    duration)."""
    kernels, calls = {}, Counter()
    if path.endswith(".sqlite"):
        db = sqlite3.connect(path)
        names = dict(rows(db, "SELECT id, value FROM StringIds"))
        cur = db.execute("SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL")
        cols = [c[0] for c in cur.description]
        for r in cur.fetchall():
            d = dict(zip(cols, r))
            rest = tuple(v for k, v in d.items() if k not in ("start", "end", "shortName", "demangledName",
                                                              "mangledName"))
            kernels[(pid_of(d["globalPid"]), d["correlationId"])] = (
                names[d["demangledName"]], names[d["shortName"]], d["end"] - d["start"], rest,
                names[d["mangledName"]])
        for gtid, corr, cls, name, dur in rows(db, "SELECT globalTid, correlationId, eventClass, nameId, end - start "
                                                   "FROM CUPTI_ACTIVITY_KIND_RUNTIME"):
            calls[(pid_of(gtid), corr, cls, names[name], dur)] += 1
    else:
        doc = read_trace(path)
        for e in trace_events(doc, "cuda_runtime", "cuda_driver"):
            calls[(e["pid"], e["args"]["correlation"], e["cat"], e["name"], e["dur_ns"])] += 1
        for e in trace_events(doc, "kernel"):
            a = e["args"]
            rest = tuple((k, json.dumps(v, default=str)) for k, v in sorted(a.items()))
            kernels[(a["device"], a["stream"], a["correlation"])] = (e["name"], base_name(e["name"]), e["dur_ns"],
                                                                      rest, None)
    return kernels, calls


def untimed(calls):
    return Counter({k[:-1]: n for k, n in calls.items()})


def other_tables(path, skip):
    """Every other table of an export, or every other event of a trace, as a multiset of rows."""
    out = {}
    if path.endswith(".sqlite"):
        db = sqlite3.connect(path)
        for (t,) in rows(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
            if t not in skip:
                out[t] = Counter(rows(db, f"SELECT * FROM {t}"))
    else:
        doc = read_trace(path)
        for e in doc["traceEvents"]:
            key = e.get("cat") or e.get("name")
            if key in skip or key == "ac2g":
                continue
            out.setdefault(key, Counter())[json.dumps(e, sort_keys=True, default=str)] += 1
    return out


def same_others(base, pert, skip, what):
    a, b = other_tables(base, skip), other_tables(pert, skip)
    for t in sorted(set(a) | set(b)):
        if a.get(t) != b.get(t):
            extra = (b.get(t, Counter()) - a.get(t, Counter()))
            missing = (a.get(t, Counter()) - b.get(t, Counter()))
            problem(f"{what}: {t} differs ({sum(extra.values())} rows only in the perturbed run, "
                    f"{sum(missing.values())} only in the base)")


EXPORT_LAUNCH_TABLES = {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME", "CUDA_CALLCHAINS"}
TRACE_LAUNCH_CATS = {"kernel", "cuda_runtime", "cuda_driver"}


def slow(base, pert, name, pct):
    pct = int(pct)
    k0, c0 = launches(base)
    k1, c1 = launches(pert)
    if set(k0) != set(k1):
        problem(f"slow: the launches differ ({len(set(k0) ^ set(k1))} keys)")
        return
    total0 = total1 = 0
    exact = True  # every duration times (100 + PCT) a multiple of 100: the total is exactly that too
    for key, (demangled, short, dur, rest, _) in k0.items():
        d1 = k1[key][2]
        if short == name:
            total0 += dur
            total1 += d1
            exact = exact and dur * (100 + pct) % 100 == 0
            if d1 != (dur * (100 + pct) + 50) // 100:
                problem(f"slow: {short} {key} lasts {d1} ns, not {dur} ns + {pct}%")
        elif d1 != dur:
            problem(f"slow: {short} {key} lasts {d1} ns, not {dur} ns as without --slow-kernel")
        if (k1[key][0], k1[key][1], k1[key][3]) != (demangled, short, rest):
            problem(f"slow: {short} {key} changed beyond its timing")
    if total0 == 0:
        problem(f"slow: no launch of {name}")
    elif exact and total1 * 100 != total0 * (100 + pct):
        problem(f"slow: {name}'s total is {total1} ns, not exactly {100 + pct}% of {total0} ns")
    if untimed(c0) != untimed(c1):
        problem("slow: the calls differ (beyond their durations)")


def drop_or_insert(base, pert, n, drop):
    n = int(n)
    what = "drop" if drop else "insert"
    k0, c0 = launches(base)
    k1, c1 = launches(pert)
    (small, small_c), (big, big_c) = ((k1, c1), (k0, c0)) if drop else ((k0, c0), (k1, c1))
    if len(big) - len(small) != n:
        problem(f"{what}: {len(k0)} launches became {len(k1)}, not {len(k0) - n if drop else len(k0) + n}")
    for key, v in small.items():
        if big.get(key) != v:
            problem(f"{what}: launch {key} changed")
    gone = set(big) - set(small)
    if len(gone) != n:
        problem(f"{what}: {len(gone)} launches differ, not {n}")
    # the calls that differ are exactly those of these launches, a launch call and any backtrace row each
    if small_c - big_c:
        problem(f"{what}: {sum((small_c - big_c).values())} calls are not in the run with more launches")
    extra = big_c - small_c
    launch_calls = Counter(k[1] for k in extra.elements()
                           if k[3] == "cudaLaunchKernel_v7000" or (k[2], k[3]) == ("cuda_runtime", "cudaLaunchKernel"))
    if launch_calls != Counter(key[-1] for key in gone) or len({k[1] for k in extra}) != len(launch_calls):
        problem(f"{what}: the calls that differ ({sorted(extra)[:4]}) are not those of the launches "
                f"{sorted(gone)[:4]}")
    sqlite = base.endswith(".sqlite")
    skip = EXPORT_LAUNCH_TABLES | {"ANALYSIS_DETAILS"} if sqlite else TRACE_LAUNCH_CATS | {"Trace"}
    if not drop:  # the new launches end the run: the session's end and the trace's tail move
        skip |= set() if sqlite else {"Record Window End", "Iteration Start: PyTorch Profiler", "thread_name",
                                      "thread_sort_index", "process_name", "process_labels", "process_sort_index"}
    same_others(base, pert, skip, what)


def rename(base, pert, old, new):
    k0, c0 = launches(base)
    k1, c1 = launches(pert)
    if set(k0) != set(k1) or c0 != c1:
        problem("rename: the launches or calls differ")
        return
    renamed = 0
    for key, (demangled, short, dur, rest, mangled) in k0.items():
        d1, s1, dur1, rest1, m1 = k1[key]
        if (dur1, rest1) != (dur, rest):
            problem(f"rename: launch {key} changed beyond its name")
        if short != old:
            if (d1, s1, m1) != (demangled, short, mangled):
                problem(f"rename: {short} {key} was renamed")
            continue
        renamed += 1
        if s1 != new or base_name(d1) != new or d1.replace(new, old, 1) != demangled:
            problem(f"rename: {key} is '{d1}' (base '{base_name(d1)}', short '{s1}'), not '{demangled}' with {new}")
        if mangled is not None and (new not in m1 or m1 == mangled):
            problem(f"rename: mangled name '{m1}' of {key} does not name {new}")
    if not renamed:
        problem(f"rename: no launch of {old}")
    skip = {"CUPTI_ACTIVITY_KIND_KERNEL", "StringIds"} if base.endswith(".sqlite") else {"kernel"}
    same_others(base, pert, skip, "rename")


def main(argv):
    commands = {"agree": (agree, 2), "slow": (slow, 4), "drop": (lambda b, p, n: drop_or_insert(b, p, n, True), 3),
                "insert": (lambda b, p, n: drop_or_insert(b, p, n, False), 3), "rename": (rename, 4)}
    if len(argv) < 2 or argv[1] not in commands or len(argv) - 2 != commands[argv[1]][1]:
        print(__doc__, file=sys.stderr)
        return 2
    commands[argv[1]][0](*argv[2:])
    for p in problems[:20]:
        print(p)
    if len(problems) > 20:
        print(f"... and {len(problems) - 20} more")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
