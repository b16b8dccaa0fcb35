#!/usr/bin/env bash
# tests/diff/run.sh BUILD_DIR: `nstats diff`. Every number is checked against what the tests
# compute themselves (python3's sqlite3 and csv modules, nothing of nstats): an export against
# itself gives zero deltas, every status "same" and every launch matched; swapping the two sides
# negates every delta; kern_diff's totals and instances on the real before/after pair
# (GindaChen__nsys-ai mfu_2gpu_*) are the SQL sums of the kernel rows; launch_diff finds exactly
# the launches a copy of an export lost, gained or renamed, and on real PyTorch traces the kernel a
# copy slowed, the launches it dropped and copied and the kernel it renamed; launch_diff matches a
# longest common subsequence of each pair of streams (Python's own); an nsys export and
# the same run as a PyTorch trace agree on every GPU number; the gate fails exactly when a kernel
# or a device grew beyond it. Prints `diff: N passed, M failed`.
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SHARED=${NSTATS_SHARED:-$HERE/../../../shared}
NSTATS='' NSYSGEN='' WORK='' OUT='' ERR='' RC=0 CUR=''
declare -i PASSED=0 FAILED=0 BAD=0
REAL=$SHARED/data/real/GindaChen__nsys-ai/tests/fixtures

fail() { echo "FAIL $CUR: $*"; BAD+=1; }
run() {
	(cd "$WORK" && "$NSTATS" "$@") >"$WORK/.out" 2>"$WORK/.err"
	RC=$?
	OUT=$(<"$WORK/.out") ERR=$(<"$WORK/.err")
}
rc_is() { [[ $RC == "$1" ]] || fail "exit status $RC, expected $1 (stderr: ${ERR:0:300})"; }
err_is() { [[ $ERR == "$1" ]] || fail "stderr is '${ERR:0:300}', expected '$1'"; }
err_line() {
	[[ $ERR != *$'\n'* && $ERR =~ $1 ]] || fail "stderr is '${ERR:0:300}', expected one line matching /$1/"
}
# py CHECK ARGS...: runs tests/diff/check.py CHECK ARGS...; a failure prints its lines
py() {
	local msg
	msg=$(python3 "$HERE/check.py" "$@" 2>&1) || fail "$1: $msg"
}

t() {
	CUR=$1 BAD=0
	"test_$1"
	if ((BAD)); then FAILED+=1; else PASSED+=1; fi
}

# diff_csv A B REPORT OUT: one report of `nstats diff A B` as csv in OUT
diff_csv() {
	run diff -q -r "$3" -f csv "$1" "$2"
	rc_is 0
	printf '%s\n' "$OUT" >"$WORK/$4"
}

# ---- an export against itself, and the two sides swapped ----------------------------------------

each_export() {
	local e
	for e in "$WORK/ex.sqlite" "$WORK/b.sqlite" "$REAL/mfu_2gpu_before.sqlite"; do
		[[ -f $e ]] && echo "$e"
	done
}

test_itself_gives_zero_deltas() {
	local e r
	for e in $(each_export); do
		for r in kern_diff launch_diff gpu_time_diff api_diff mem_diff nvtx_diff; do
			diff_csv "$e" "$e" "$r" self.csv
			py zero "$WORK/self.csv"
		done
	done
}

test_swapping_negates_every_delta() {
	local r
	for r in kern_diff launch_diff gpu_time_diff api_diff mem_diff nvtx_diff; do
		diff_csv "$WORK/ex.sqlite" "$WORK/b.sqlite" "$r" ab.csv
		diff_csv "$WORK/b.sqlite" "$WORK/ex.sqlite" "$r" ba.csv
		py swapped "$WORK/ab.csv" "$WORK/ba.csv"
	done
}

test_every_format_parses() {
	local f
	for f in csv tsv json; do
		run diff -q -r kern_diff,launch_diff,gpu_time_diff,api_diff,mem_diff,nvtx_diff -f "$f" \
			-o "$WORK/fmt" "$WORK/ex.sqlite" "$WORK/b.sqlite"
		rc_is 0
		for out in "$WORK"/fmt_*."$f"; do
			python3 "$HERE/../cli/strict_check.py" "$f" "$out" >/dev/null 2>&1 ||
				fail "$out is not strict $f"
		done
	done
	for f in column table hdoc htable; do
		run diff -q -r kern_diff,launch_diff -f "$f" "$WORK/ex.sqlite" "$WORK/b.sqlite"
		rc_is 0
		[[ -n $OUT ]] || fail "no $f output"
	done
}

# ---- numbers against SQL ----------------------------------------------------------------------

test_kern_diff_is_the_sums_of_the_kernel_rows() {
	[[ -f $REAL/mfu_2gpu_before.sqlite ]] || { echo "diff: note: no ../shared, real pair skipped"; return; }
	diff_csv "$REAL/mfu_2gpu_before.sqlite" "$REAL/mfu_2gpu_after.sqlite" kern_diff real.csv
	py kern_sums "$WORK/real.csv" "$REAL/mfu_2gpu_before.sqlite" "$REAL/mfu_2gpu_after.sqlite" exact
	run diff -q -r kern_diff -f csv --names base "$REAL/mfu_2gpu_before.sqlite" "$REAL/mfu_2gpu_after.sqlite"
	printf '%s\n' "$OUT" >"$WORK/base.csv"
	py kern_sums "$WORK/base.csv" "$REAL/mfu_2gpu_before.sqlite" "$REAL/mfu_2gpu_after.sqlite" base
	diff_csv "$WORK/ex.sqlite" "$WORK/b.sqlite" kern_diff gen.csv
	py kern_sums "$WORK/gen.csv" "$WORK/ex.sqlite" "$WORK/b.sqlite" exact
}

# A copy of ex.sqlite with three launches deleted, one launch copied 1 us later on its stream,
# and one launch's kernel renamed: launch_diff must find exactly those.
test_launch_diff_finds_what_changed() {
	cp "$WORK/ex.sqlite" "$WORK/edited.sqlite"
	python3 "$HERE/check.py" edit "$WORK/edited.sqlite" >"$WORK/expect.txt" || fail "edit failed"
	diff_csv "$WORK/ex.sqlite" "$WORK/edited.sqlite" launch_diff edited.csv
	py launches "$WORK/edited.csv" "$WORK/expect.txt" "$WORK/ex.sqlite"
}

# ---- nsysgen's perturbations: regressions of a known size ------------------------------------

# gen NAME OPTIONS...: WORK/NAME.sqlite, the suite's base run with OPTIONS added
gen() {
	local name=$1
	shift
	"$NSYSGEN" -q --seed 11 --processes 2 --devices 2 --streams 2 --kernels 200 --memcpy 30 \
		--memset 6 --other-api 10 --nvtx 30 --osrt 0 "$@" -o "$WORK/$name.sqlite" >/dev/null ||
		fail "nsysgen $*"
}

test_a_slowed_kernel_and_nothing_else() {
	gen slow --slow-kernel saxpy:50
	run diff -q -r kern_diff -f csv --names base "$WORK/ex.sqlite" "$WORK/slow.sqlite"
	rc_is 0
	printf '%s\n' "$OUT" >"$WORK/slow.csv"
	py only "$WORK/slow.csv" saxpy slower 50.0
	diff_csv "$WORK/ex.sqlite" "$WORK/slow.sqlite" launch_diff slow-launches.csv
	py launch_counts "$WORK/slow-launches.csv" 0 0 saxpy
}

test_dropped_inserted_and_renamed_launches() {
	gen drop --drop-launches 3
	diff_csv "$WORK/ex.sqlite" "$WORK/drop.sqlite" launch_diff drop.csv
	py launch_counts "$WORK/drop.csv" 3 0 -
	gen insert --insert-launches 2
	diff_csv "$WORK/ex.sqlite" "$WORK/insert.sqlite" launch_diff insert.csv
	py launch_counts "$WORK/insert.csv" 0 2 -
	gen rename --rename-kernel saxpy:axpy_renamed
	run diff -q -r kern_diff -f csv --names base "$WORK/ex.sqlite" "$WORK/rename.sqlite"
	printf '%s\n' "$OUT" >"$WORK/rename.csv"
	py only "$WORK/rename.csv" saxpy removed - axpy_renamed added -
}

test_the_gate_on_a_known_regression() {
	gen slow12 --slow-kernel saxpy:12
	run diff -q -r kern_diff -f csv --names base --gate 10 "$WORK/ex.sqlite" "$WORK/slow12.sqlite"
	rc_is 7
	err_line '^nstats: gate: kernel saxpy: \+12\.0% \([0-9]+ ns -> [0-9]+ ns, gate 10%\)$'
	run diff -q -r kern_diff -f csv --names base --gate 13 "$WORK/ex.sqlite" "$WORK/slow12.sqlite"
	rc_is 0
	err_is ""
}

# ---- two profilers: an export against the same run as a PyTorch trace ----------------------------

# nsysgen writes one run both ways. Every GPU number agrees; only what depends on the capture's
# span differs: nsys's session runs from before the first OS runtime call to the export's end,
# torch.profiler's Trace span is the profiler's own window, shorter.
test_nsys_against_kineto() {
	gen twin --kineto "$WORK/twin.pt.trace.json.gz"
	local r span='Capture Span (ns),Idle (ns),Capture Util (%)'
	for r in kern_diff launch_diff gpu_time_diff; do
		run diff -q -r "$r" -f csv --names base "$WORK/twin.sqlite" "$WORK/twin.pt.trace.json.gz"
		rc_is 0
		printf '%s\n' "$OUT" >"$WORK/twin-$r.csv"
		py zero "$WORK/twin-$r.csv" "$span"
	done
	# a trace against the same trace with a kernel slowed, as two runs under torch.profiler
	gen slowtwin --slow-kernel saxpy:50 --kineto "$WORK/slowtwin.pt.trace.json"
	run diff -q -r kern_diff -f csv --names base "$WORK/twin.pt.trace.json.gz" "$WORK/slowtwin.pt.trace.json"
	rc_is 0
	printf '%s\n' "$OUT" >"$WORK/slowtwin.csv"
	py only "$WORK/slowtwin.csv" saxpy slower 50.0
}

# ---- real PyTorch traces --------------------------------------------------------------------------

HTA=$SHARED/data/real/facebookresearch__HolisticTraceAnalysis/tests/data

test_a_real_trace_against_itself() {
	local e r
	for e in "$HTA"/*/*.json.gz "$HTA"/*/*/*.json.gz; do
		[[ -f $e ]] || continue
		for r in kern_diff launch_diff gpu_time_diff api_diff mem_diff nvtx_diff; do
			diff_csv "$e" "$e" "$r" self.csv
			py zero "$WORK/self.csv"
		done
	done
}

# A copy of a real trace, perturbed by check.py with json alone: the diff finds exactly the
# kernel slowed, the launches dropped and copied, and the kernel renamed, and kern_diff's numbers
# are the traces' own sums.
test_a_real_trace_against_a_perturbed_copy() {
	local e
	for e in "$HTA"/nccl_parser_config/nccl_data.json.gz \
		"$HTA"/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz \
		"$HTA"/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz; do
		[[ -f $e ]] || continue
		python3 "$HERE/check.py" perturb_trace "$e" "$WORK/perturbed.json.gz" >"$WORK/expect.txt" ||
			{ fail "perturb_trace $e: $(<"$WORK/expect.txt")"; continue; }
		diff_csv "$e" "$WORK/perturbed.json.gz" kern_diff trace-kern.csv
		py trace_kern "$WORK/trace-kern.csv" "$WORK/expect.txt" "$e" "$WORK/perturbed.json.gz"
		diff_csv "$e" "$WORK/perturbed.json.gz" launch_diff trace-launch.csv
		py trace_launches "$WORK/trace-launch.csv" "$WORK/expect.txt" "$e"
	done
}

# Two real traces of different runs (2,679 and 4,350 launches on stream 0/7, far more than 2,000
# differences), the real before/after exports and two generated ones: every pair of streams has
# exactly as many launches matched as the longest common subsequence that Python computes, both
# ways round, with nothing said on stderr about a script that may not be shortest.
test_launch_diff_is_a_longest_common_subsequence() {
	local pairs=("$WORK/ex.sqlite" "$WORK/b.sqlite")
	[[ -f $HTA/nccl_parser_config/nccl_data.json.gz ]] &&
		pairs+=("$HTA/nccl_parser_config/nccl_data.json.gz"
			"$HTA/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz")
	[[ -f $REAL/mfu_2gpu_before.sqlite ]] &&
		pairs+=("$REAL/mfu_2gpu_before.sqlite" "$REAL/mfu_2gpu_after.sqlite")
	local i a b
	for ((i = 0; i < ${#pairs[@]}; i += 2)); do
		for a in "${pairs[i]}" "${pairs[i + 1]}"; do
			b=${pairs[i]}
			[[ $a == "$b" ]] && b=${pairs[i + 1]}
			run diff -q -r launch_diff -f csv "$a" "$b"
			rc_is 0
			err_is ""
			printf '%s\n' "$OUT" >"$WORK/lcs.csv"
			py launch_lcs "$WORK/lcs.csv" "$a" "$b"
		done
	done
}

# The same real traces with too little work allowed to prove a shortest script (work=1000): the
# rows are still both streams' launches in order, and every format says the pair may not be
# shortest: a line on stderr (csv), the footer (column), notes.footer (json:typed).
test_launch_diff_past_the_work_says_so() {
	local a=$HTA/nccl_parser_config/nccl_data.json.gz
	local b=$HTA/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz
	[[ -f $a && -f $b ]] || return
	run diff -q -r launch_diff:work=1000 -f csv "$a" "$b"
	rc_is 0
	err_line '^nstats: note: launch_diff: the alignment of streams A 0/7 -> B 0/7 may not be shortest: '
	printf '%s\n' "$OUT" >"$WORK/past.csv"
	py launch_lcs "$WORK/past.csv" "$a" "$b" valid
	run diff -q -r launch_diff:work=1000 -f column "$a" "$b"
	[[ $OUT == *"Not proven shortest: streams A 0/7 -> B 0/7 differ"* ]] ||
		fail "no footer: ${OUT: -300}"
	run diff -q -r launch_diff:work=1000 -f json:typed "$a" "$b"
	python3 -c 'import json, sys
d = json.load(sys.stdin)
def notes(x):
    if isinstance(x, dict):
        if isinstance(x.get("notes"), dict):
            yield x["notes"]
        for v in x.values():
            yield from notes(v)
    elif isinstance(x, list):
        for v in x:
            yield from notes(v)
assert any("Not proven shortest: streams A 0/7 -> B 0/7" in n.get("footer", "") for n in notes(d))' \
		<<<"$OUT" || fail "json:typed has no footer note"
	run diff -q -r launch_diff:work=-1 "$a" "$b"
	rc_is 2
	err_line "^nstats: error: report 'launch_diff': work=-1: not a whole number >= 0$"
}

# ---- the gate --------------------------------------------------------------------------------

test_gate() {
	[[ -f $REAL/mfu_2gpu_before.sqlite ]] || return
	local a=$REAL/mfu_2gpu_before.sqlite b=$REAL/mfu_2gpu_after.sqlite
	# ncclDevKernel_SendRecv grew from 25,401,752 to 33,742,101 ns: +32.8% (SQL sums, above)
	run diff -q -r kern_diff -f csv --gate 10 "$a" "$b"
	rc_is 7
	err_line '^nstats: gate: kernel ncclDevKernel_SendRecv\(ncclDevKernelArgsStorage<\(unsigned long\)4096>\): \+32\.8% \(25401752 ns -> 33742101 ns, gate 10%\)$'
	[[ $OUT == *$'verdict,,,32.8,10,FAIL'* ]] || fail "no failing verdict row: ${OUT: -200}"
	run diff -q -r kern_diff -f csv --gate 33 "$a" "$b"
	rc_is 0
	[[ $OUT == *$'verdict,,,,33,pass'* ]] || fail "no passing verdict row: ${OUT: -200}"
	# below --gate-min on both sides: left out
	run diff -q -r kern_diff -f csv --gate 10 --gate-min 34ms "$a" "$b"
	rc_is 0
	run diff -q -f json -r kern_diff --gate 10 "$a" "$b"
	rc_is 7
	python3 -c 'import json, sys
docs, text = [], sys.stdin.read()
dec = json.JSONDecoder(); i = 0
while i < len(text):
    if text[i].isspace(): i += 1; continue
    d, i = dec.raw_decode(text, i); docs.append(d)
v = [r for r in docs[-1] if r["Check"] == "verdict"]
assert v and v[0]["Result"] == "FAIL", v' <<<"$OUT" || fail "the JSON verdict is not FAIL"
	run diff -q --gate 0 "$a" "$a"
	rc_is 0
}

# ---- usage and input errors ---------------------------------------------------------------------

test_errors() {
	run diff "$WORK/ex.sqlite"
	rc_is 2
	err_line '^nstats: error: diff: two captures to compare, baseline and candidate \(see nstats diff --help\)$'
	run diff --names fuzzy "$WORK/ex.sqlite" "$WORK/ex.sqlite"
	rc_is 2
	err_line "^nstats: error: diff: --names takes exact or base, not 'fuzzy'$"
	run diff --gate x "$WORK/ex.sqlite" "$WORK/ex.sqlite"
	rc_is 2
	err_line "^nstats: error: diff: --gate: report 'verdict': gate=x: not a whole number >= 0$"
	run diff -r kern_difff "$WORK/ex.sqlite" "$WORK/ex.sqlite"
	rc_is 2
	err_line "^nstats: error: report 'kern_difff' could not be found; did you mean kern_diff\? \(see nstats diff --help-reports\)$"
	run diff -r kern_diff:tolerance=-1 "$WORK/ex.sqlite" "$WORK/ex.sqlite"
	rc_is 2
	run diff "$WORK/ex.sqlite" "$WORK/missing.sqlite"
	rc_is 3
	err_line "^nstats: error: $WORK/missing.sqlite: No such file or directory$"
	run diff --help
	rc_is 0
	[[ $OUT == *"--gate-min TIME"* && $OUT == *"7 --gate"* ]] || fail "--help lacks the gate"
}

test_files_are_named_after_both() {
	run diff -r kern_diff -o . -f csv "$WORK/ex.sqlite" "$WORK/b.sqlite"
	rc_is 0
	[[ -f $WORK/ex_vs_b_kern_diff.csv ]] || fail "no ex_vs_b_kern_diff.csv: $(ls "$WORK")"
}

main() {
	(($# == 1)) || { echo "usage: tests/diff/run.sh BUILD_DIR" >&2; exit 2; }
	local b
	b=$(cd "$1" && pwd)
	NSTATS=$b/nstats NSYSGEN=$b/nsysgen
	[[ -x $NSTATS && -x $NSYSGEN ]] || { echo "diff: $1 lacks nstats or nsysgen" >&2; exit 2; }
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/nstats-diff.XXXXXX")
	trap 'rm -rf "$WORK"' EXIT
	"$b/nsysgen" -q --seed 11 --processes 2 --devices 2 --streams 2 --kernels 200 --memcpy 30 \
		--memset 6 --other-api 10 --nvtx 30 --osrt 0 -o "$WORK/ex.sqlite" >/dev/null &&
		"$b/nsysgen" -q --seed 12 --processes 2 --devices 2 --streams 2 --kernels 240 \
			--memcpy 20 --memset 8 --other-api 10 --nvtx 30 --osrt 0 -o "$WORK/b.sqlite" \
			>/dev/null || { echo "diff: nsysgen failed" >&2; exit 1; }
	export LC_ALL=C.UTF-8
	local name
	for name in $(declare -F | awk '$3 ~ /^test_/ { sub(/^test_/, "", $3); print $3 }'); do
		t "$name"
	done
	echo "diff: $PASSED passed, $FAILED failed"
	((PASSED + FAILED > 0)) && ((FAILED == 0))
}

main "$@"
