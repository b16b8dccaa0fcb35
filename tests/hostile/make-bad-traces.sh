#!/usr/bin/env bash
# tests/hostile/make-bad-traces.sh DIR: writes into DIR the PyTorch profiler (Kineto) traces of the
# hostile-input list, each a small valid trace (read-trace-valid) with one defect, or a valid
# trace of an unusual kind. Names as make-bad-exports.sh's: refuse-* must be refused with a
# one-line error (expected-errors.tsv), read-* must be read (exit 0). The file's ending is part of
# the case: .json, .json.gz, or another one for a trace that only its content shows.
set -euo pipefail
(($# == 1)) || { echo "usage: tests/hostile/make-bad-traces.sh DIR" >&2; exit 2; }
mkdir -p "$1"
python3 - "$1" <<'PY'
import copy, gzip, json, os, re, sys

out = sys.argv[1]


def event(cat, name, ts, dur, pid, tid, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid, "ts": ts, "dur": dur,
            "args": args}


def kernel(name, ts, dur, corr, stream=7):
    return event("kernel", name, ts, dur, 0, stream, device=0, context=1, stream=stream,
                 correlation=corr, **{"registers per thread": 32, "grid": [4, 2, 1],
                                      "block": [128, 1, 1], "shared memory": 0})


BASE = {
    "schemaVersion": 1,
    "deviceProperties": [{"id": 0, "name": "NVIDIA A100-PG509-200", "totalGlobalMem": 42297524224,
                          "computeMajor": 8, "computeMinor": 0, "numSms": 108, "warpSize": 32}],
    "distributedInfo": {"rank": 3},
    "traceEvents": [
        event("user_annotation", "ProfilerStep#1", 1000, 900.5, 100, 100),
        event("cuda_runtime", "cudaLaunchKernel", 1010.25, 8.125, 100, 100, correlation=11),
        kernel("void at::native::add_kernel<float>(float*, int)", 1030.001, 4.5, 11),
        event("cuda_runtime", "cudaMemcpyAsync", 1040, 10, 100, 101, correlation=12),
        event("gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", 1045, 3.25, 0, 7, device=0,
              context=1, stream=7, correlation=12, bytes=4096),
        event("cuda_driver", "cuLaunchKernel", 1060, 6, 100, 101, correlation=13),
        kernel("triton_poi_fused_add_0", 1070, 2.25, 13, stream=9),
        event("cuda_runtime", "cudaMemsetAsync", 1080, 5, 100, 100, correlation=14),
        event("gpu_memset", "Memset (Device)", 1090, 1, 0, 7, device=0, context=1, stream=7,
              correlation=14, bytes=512),
        event("gpu_user_annotation", "ProfilerStep#1", 1030, 62, 0, 7),
        event("cpu_op", "aten::add", 1005, 50, 100, 100, **{"Input Dims": [[4, 4], []]}),
        {"ph": "s", "id": 11, "pid": 100, "tid": 100, "ts": 1010.25, "cat": "ac2g", "name": "ac2g"},
        {"name": "process_name", "ph": "M", "ts": 900, "pid": 100, "tid": 0, "args": {"name": "python3"}},
        {"name": "thread_name", "ph": "M", "ts": 900, "pid": 100, "tid": 101,
         "args": {"name": "thread 101 (pt_autograd_0)"}},
        {"name": "thread_name", "ph": "M", "ts": 900, "pid": 0, "tid": -1, "args": {"name": "Device 0"}},
        {"ph": "X", "cat": "Trace", "ts": 990, "dur": 1200, "pid": "Spans", "tid": "PyTorch Profiler",
         "name": "PyTorch Profiler (0)", "args": {"Op count": 0}},
        {},
    ],
    "traceName": "hostile.json",
    "baseTimeNanoseconds": 1727743122000000000,
}


def raw(number):
    """A number written exactly so (json.dumps would write a float's repr)."""
    return "@@%s@@" % number


def text_of(trace):
    return re.sub(r'"@@(.*?)@@"', r"\1", json.dumps(trace, indent=1))


def write(name, text):
    """text into DIR/name, gzip-compressed when the name ends in .gz; bytes as they are."""
    data = text if isinstance(text, bytes) else text.encode()
    if name.endswith(".gz") and isinstance(text, str):
        data = gzip.compress(data, mtime=0)
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


def mutate(name, change):
    t = copy.deepcopy(BASE)
    change(t)
    write(name, text_of(t))


def find(t, name):
    return next(e for e in t["traceEvents"] if e.get("name") == name)


def setarg(t, name, key, value):
    e = find(t, name)
    if value is None:
        del e["args"][key]
    else:
        e["args"][key] = value


valid = text_of(BASE)
write("read-trace-valid.json.gz", valid)
write("read-trace-plain.json", valid)
write("read-trace-misnamed.sqlite", valid)  # a trace is known by its content
write("read-trace-empty-events.json", '{"traceEvents": []}')
# a second gzip member, as `cat a.gz b.gz` makes: one text
gz = gzip.compress(valid[:500].encode(), mtime=0) + gzip.compress(valid[500:].encode(), mtime=0)
write("read-trace-two-members.json", gz)
# times with more decimals and exponents (rounded to the nearest ns), zero and negative durations
def decimals(t):
    t["traceEvents"][2:3] = [kernel("k", raw("1.0005e3"), raw("2.5e-3"), 11),
                             kernel("k", raw("1000.0004999"), 0, 21),
                             kernel("k", raw("1100.000"), raw("-1.25"), 22),
                             kernel("k", raw("1.2E+3"), raw("0.0000000000001"), 23)]
mutate("read-trace-decimals.json", decimals)
# ids beyond nsys's 24 bits (Kineto's truncated pthread ids), in calls, ranges and names
def big_ids(t):
    for e in t["traceEvents"]:
        if e.get("pid") == 100:
            e["pid"] = 2 ** 31 + 5
        if e.get("tid") == 101:
            e["tid"] = -549452224
mutate("read-trace-big-ids.json", big_ids)
# Kineto before 2022: categories Kernel, Runtime, Memcpy, Memset, GPU threads named as strings
def old(t):
    rename = {"kernel": "Kernel", "cuda_runtime": "Runtime", "gpu_memcpy": "Memcpy", "gpu_memset": "Memset"}
    for e in t["traceEvents"]:
        if e.get("cat") in rename:
            e["cat"] = rename[e["cat"]]
            if e["pid"] == 0:
                e["tid"] = "stream %d" % e["args"]["stream"]
mutate("read-trace-old-kineto.json", old)
# two processes in one trace whose calls share correlation ids: their GPU rows belong to neither
mutate("read-trace-two-processes.json", lambda t: t["traceEvents"].extend([
    event("cuda_runtime", "cudaLaunchKernel", 1200, 3, 200, 200, correlation=11),
    event("cuda_runtime", "cudaMemsetAsync", 1210, 3, 200, 200, correlation=14)]))
# a copy between devices, as Kineto writes CUPTI's peer-to-peer record: fromDevice, inDevice...
mutate("read-trace-p2p.json", lambda t: t["traceEvents"].append(event(
    "gpu_memcpy", "Memcpy PtoP (Device -> Device)", 1100, 7.5, 1, 11, fromDevice=1, inDevice=1,
    toDevice=0, fromContext=2, inContext=2, toContext=1, stream=11, correlation=15, bytes=1 << 22)))
# what is not read: unknown categories and phases, odd metadata, extra keys, null and nested values
mutate("read-trace-unknown.json", lambda t: t["traceEvents"].extend([
    {"ph": "X", "cat": "python_function", "name": "f", "ts": "soon", "dur": None},
    {"ph": "B", "cat": "kernel", "name": "k"}, {"ph": "i", "s": "g", "ts": 5},
    {"ph": 7, "cat": ["kernel"]}, {"cat": "kernel"}, {"ph": "X"},
    {"name": "process_name", "ph": "M", "pid": "Spans", "args": {"name": "x"}},
    {"name": "process_labels", "ph": "M", "pid": 0, "args": {"labels": "GPU 0"}},
    {"ph": "X", "cat": "kernel", "name": "k", "ts": 1200, "dur": 1, "pid": 0, "tid": 7,
     "args": {"device": 0, "context": 1, "stream": 7, "registers per thread": 8, "grid": [1, 1, 1],
              "block": [1, 1, 1], "extra": {"deep": [[[[{}]]]]}, "correlation": None}},
]))
# a name with characters that break naive writers (the base name of a kernel still found)
mutate("read-trace-nasty-names.json", lambda t: (
    find(t, "triton_poi_fused_add_0").__setitem__("name", 'k,"quoted"\tname\n<b>&amp;</b> é'),
    find(t, "ProfilerStep#1").__setitem__("name", "range\u2028,\"x\"")))

# --- refused: the file
write("refuse-trace-empty.json", "")
write("refuse-trace-truncated.json.gz", gzip.compress(valid.encode(), mtime=0)[:600])
write("refuse-trace-corrupt.json.gz", b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + b"\xff" * 64)
write("refuse-trace-gzip-not-json.json", gzip.compress(b"hello, world\n", mtime=0))
# --- refused: the JSON
write("refuse-trace-invalid.json", valid.replace('"traceEvents": [', '"traceEvents": [}', 1))
write("refuse-trace-cut.json", valid[:-40])
write("refuse-trace-trailing.json", valid + "\n{}")
write("refuse-trace-bad-utf8.json", valid.replace("ProfilerStep#1", "Profiler\xff", 1).encode("latin-1"))
write("refuse-trace-array.json", "[" + valid + "]")
write("refuse-trace-no-events.json", '{"schemaVersion": 1, "traceName": "x"}')
write("refuse-trace-events-object.json", '{"traceEvents": {"ph": "X"}}')
write("refuse-trace-events-twice.json", '{"traceEvents": [], "traceEvents": []}')
write("refuse-trace-number-event.json", '{"traceEvents": [{"ph": "M"}, 42]}')
write("refuse-trace-deep.json", '{"traceEvents": [{"ph": "X", "args": ' + "[" * 300 + "]" * 300 + "}]}")
write("refuse-trace-huge-string.json",
      '{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "' + "s" * (4 << 20) + 'x"}]}')
write("refuse-trace-huge-number.json", '{"traceEvents": [{"ph": "X", "ts": 1' + "0" * 1024 + "}]}")
# garbage before a long token is the first fault
write("refuse-trace-garbage-then-long.json", '{"traceEvents": [x, "' + "s" * (5 << 20) + '"]}')
# the longest string and number that are read
write("read-trace-long-tokens.json", '{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "'
      + "s" * (4 << 20) + '", "ts": 1' + "0" * 1023 + ', "dur": 0.' + "5" * 1022 + '}]}')
# --- refused: an event that lacks what its table needs
mutate("refuse-trace-no-ts.json", lambda t: find(t, "triton_poi_fused_add_0").pop("ts"))
mutate("refuse-trace-dur-string.json", lambda t: find(t, "triton_poi_fused_add_0").__setitem__("dur", "2.25"))
mutate("refuse-trace-ts-range.json", lambda t: find(t, "cudaMemsetAsync").__setitem__("ts", raw("1e400")))
mutate("refuse-trace-no-stream.json", lambda t: setarg(t, "triton_poi_fused_add_0", "stream", None))
mutate("refuse-trace-no-args.json", lambda t: find(t, "Memset (Device)").pop("args"))
mutate("refuse-trace-bad-grid.json", lambda t: setarg(t, "triton_poi_fused_add_0", "grid", [1, 2]))
mutate("refuse-trace-device-fraction.json", lambda t: setarg(t, "Memset (Device)", "device", 0.5))
mutate("refuse-trace-bytes-string.json", lambda t: setarg(t, "Memcpy HtoD (Pageable -> Device)", "bytes", "4096"))
mutate("refuse-trace-copy-kind-number.json", lambda t: setarg(t, "Memcpy HtoD (Pageable -> Device)", "copy kind", 1))
mutate("refuse-trace-smem-string.json", lambda t: setarg(t, "triton_poi_fused_add_0", "static shared memory", "48 KiB"))
mutate("refuse-trace-green-fraction.json", lambda t: setarg(t, "Memset (Device)", "green context", 1.5))
mutate("refuse-trace-tid-string.json", lambda t: find(t, "cuLaunchKernel").__setitem__("tid", "main"))
mutate("refuse-trace-no-name.json", lambda t: find(t, "cudaMemcpyAsync").pop("name"))
mutate("refuse-trace-nul-name.json", lambda t: find(t, "cudaMemcpyAsync").__setitem__("name", "cuda\u0000Memcpy"))
mutate("refuse-trace-thread-name.json", lambda t: find(t, "thread_name")["args"].__setitem__("name", 5))
mutate("refuse-trace-device-id.json", lambda t: t["deviceProperties"][0].pop("id"))
mutate("refuse-trace-end-overflow.json", lambda t: find(t, "cuLaunchKernel").update(ts=9e15, dur=3e15))
mutate("refuse-trace-span.json", lambda t: find(t, "cuLaunchKernel").update(ts=-4e15))
mutate("refuse-trace-base.json", lambda t: t.__setitem__("baseTimeNanoseconds", 1.5))
mutate("refuse-trace-rank.json", lambda t: t["distributedInfo"].__setitem__("rank", "zero"))
PY
