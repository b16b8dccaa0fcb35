#!/usr/bin/env bash
# tests/tsan/run.sh BUILD_DIR CC CFLAGS: the parallel reader under ThreadSanitizer. BUILD_DIR holds
# nstats and nsysgen built with -fsanitize=thread (make tsan). On an export big enough that two
# reader threads read tables at the same time (every table nstats reads, several of them over
# 65,536 rows), nstats runs the default report set, the traces, check, the page, the Perfetto
# export (whose packets are packed on a thread of their own), a comparison (its two sides
# computed at once) and a PyTorch trace read back (its rows inserted on a thread of their own)
# with two reader threads, timing lines on (they come from the reader threads), and each
# must exit 0 without a ThreadSanitizer report and print exactly what one reader thread prints;
# then, on an export of 1.1M kernels, the same with four readers and the big tables read in parts.
# First, a deliberate race built with the same CC and CFLAGS must be reported: without that a
# build where the sanitizer is not in effect would pass here without looking.
set -uo pipefail
(($# == 3)) || { echo "usage: tests/tsan/run.sh BUILD_DIR CC CFLAGS" >&2; exit 2; }
b=$1 cc=$2 cflags=$3
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/nstats-tsan.XXXXXX")
trap 'rm -rf "$work"' EXIT
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "tsan: FAIL: $*"; }

# shellcheck disable=SC2086
if ! $cc $cflags -o "$work/race" "$here/race.c" -pthread 2>"$work/race.err"; then
	bad "cannot build the deliberate race: $(head -1 "$work/race.err")"
elif "$work/race" >/dev/null 2>"$work/race.err"; then
	bad "ThreadSanitizer did not report the deliberate race (is -fsanitize=thread in effect?)"
elif ! grep -q 'WARNING: ThreadSanitizer: data race' "$work/race.err"; then
	bad "the deliberate race failed without a ThreadSanitizer report: $(head -1 "$work/race.err")"
else
	ok
fi

db=$work/mid.sqlite
if ! "$b/nsysgen" -q --seed 7 --kernels 150000 --memcpy 80000 --memset 70000 --other-api 90000 \
	--nvtx 70000 --osrt 70000 --threads 3 -o "$db" 2>"$work/gen.err"; then
	bad "nsysgen: $(head -1 "$work/gen.err")"
	echo "tsan: $pass passed, $fail failed"
	exit 1
fi

# same NAME ARGS...: nstats ARGS with two reader threads (timing on) and with one, same stdout
same() {
	local name=$1 rc
	shift
	NSTATS_TIMING=1 "$b/nstats" "$@" >"$work/$name.two" 2>"$work/$name.err"
	rc=$?
	if ((rc != 0)); then
		bad "$name: exit $rc: $(grep -m1 -A3 'ThreadSanitizer' "$work/$name.err" || head -3 "$work/$name.err")"
		return
	fi
	if ! grep -q 'timing: read' "$work/$name.err"; then
		bad "$name: no table was read (no timing line)"
		return
	fi
	NSTATS_READ_THREADS=1 "$b/nstats" "$@" >"$work/$name.one" 2>/dev/null
	if cmp -s "$work/$name.two" "$work/$name.one"; then ok; else bad "$name: two readers and one differ"; fi
}

same default stats "$db"
same traces stats -r cuda_gpu_trace,cuda_kern_exec_trace,cuda_api_trace,nvtx_gpu_proj_trace -f csv "$db"
same check check -f json "$db"
same page report "$db" -o -
same perfetto export --type perfetto "$db" -o -
# a comparison computes its two sides at once (diff/table.c, diff_both_sides)
same diff diff "$db" "$db" -r gpu_time_diff,kern_diff,api_diff --gate 5
# a PyTorch trace is inserted into SQLite by a second thread (input/memdb.c) while it is parsed
if "$b/nstats" export --type chrome-json "$db" -o "$work/kineto.json" 2>"$work/kineto.err"; then
	same kineto stats -r cuda_gpu_kern_sum,cuda_api_sum "$work/kineto.json"
else
	bad "export --type chrome-json: $(head -1 "$work/kineto.err")"
fi
# tables of over 2^20 rows are cut into parts, each read on a thread of its own and merged
big=$work/big.sqlite
if "$b/nsysgen" -q --seed 7 --kernels 1100000 --memcpy 1000 --memset 1000 --other-api 1000 \
	--nvtx 1000 --osrt 1000 --threads 3 -o "$big" 2>"$work/gen.err"; then
	NSTATS_READ_THREADS=4 same parts stats -r cuda_gpu_kern_sum,cuda_api_sum,cuda_kern_exec_trace \
		-f csv "$big"
	grep -q 'KERNEL from its pages in [0-9]* parts' "$work/parts.err" ||
		bad "parts: the kernel table was not read in parts"
else
	bad "nsysgen: $(head -1 "$work/gen.err")"
fi
echo "tsan: $pass passed, $fail failed"
((fail == 0))
