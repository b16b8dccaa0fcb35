#!/usr/bin/env bash
# tests/diff/run.sh BUILD_DIR: `nstats diff`. Every number is checked against what the tests
# compute themselves (python3's sqlite3 and csv modules, nothing of nstats): an export against
# itself gives zero deltas, every status "same" and every launch matched; swapping the two sides
# negates every delta; kern_diff's totals and instances on the real before/after pair
# (GindaChen__nsys-ai mfu_2gpu_*) are the SQL sums of the kernel rows; launch_diff finds exactly
# the launches a copy of an export lost, gained or renamed, and on real PyTorch traces the kernel a
# copy slowed, the launches it dropped and copied and the kernel it renamed; launch_diff matches a
# longest common subsequence of each pair of streams (Python's own); an nsys export and
# the same run as a PyTorch trace agree on every GPU number; agree counts the launches a trace or
# an export repeats or lacks and measures a duration bias as Python does from the files, with the
# sign test's interval in exact binomial fractions; the gate fails exactly when a kernel
# or a device grew beyond it; per iteration (iter_diff), a run of half the iterations is no
# change and a kernel slowed in every iteration is found, every number the SQL's of the iterations
# (check.py iters). Prints `diff: N passed, M failed`.
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

# column_fits FILE: every line of the table is as wide as its rule (in characters) and each
# Status is a whole word and every time aligned right, however many rows come before the first of
# its kind; prints what is not
column_fits() {
	python3 - "$1" <<'PY'
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
rule = next(i for i, l in enumerate(lines) if re.fullmatch(r" -+(  -+)+", l))
spans = [m.span() for m in re.finditer(r"-+", lines[rule])]
status = [k for k, (a, b) in enumerate(spans) if lines[rule - 1][a:b].strip() == "Status"][0]
rows = [l for l in lines[rule + 1:] if l]
bad = [l for l in rows if len(l) != len(lines[rule])]
words = {l[spans[status][0]:spans[status][1]].strip() for l in rows}
# numbers line up on the right: a time's cell is blank or ends at its column's edge
times = [(a, b) for a, b in spans if lines[rule - 1][a:b].strip().endswith("(ns)")]
ragged = [l for l in rows for a, b in times if l[a:b].strip() and l[b - 1] == " "]
if bad or ragged or not words <= {"matched", "added", "removed"} or len(rows) < 200:
    sys.exit(f"{len(bad)} of {len(rows)} rows differ in width from the rule, {len(ragged)} times "
             f"are not aligned right; statuses {sorted(words)}")
PY
}

test_launch_diff_columns_fit_every_row() {
	[[ -f $REAL/mfu_2gpu_before.sqlite ]] || { echo "diff: note: no ../shared, real pair skipped"; return; }
	local msg
	# its first rows are launches only A has: B's columns are empty there
	run diff -q -r launch_diff -f column "$REAL/mfu_2gpu_before.sqlite" "$REAL/mfu_2gpu_after.sqlite"
	rc_is 0
	printf '%s\n' "$OUT" >"$WORK/launch.txt"
	msg=$(column_fits "$WORK/launch.txt" 2>&1) || fail "launch_diff's columns do not fit every row: $msg"
	# autolines=N given: the first N rows size the columns, as in nsys (and the check sees it:
	# the first five are removed launches, with no B columns)
	run diff -q -r launch_diff -f column:autolines=5 "$REAL/mfu_2gpu_before.sqlite" "$REAL/mfu_2gpu_after.sqlite"
	rc_is 0
	printf '%s\n' "$OUT" >"$WORK/launch5.txt"
	column_fits "$WORK/launch5.txt" >/dev/null 2>&1 &&
		fail "autolines=5: later rows fit the first five's widths, or the check cannot fail"
}

# names_apart TABLE CSV: the Name column of a column-format table shows as many distinct texts
# as the csv has distinct names, each within its column, each a cut of a name of the csv
names_apart() {
	python3 - "$1" "$2" <<'PY'
import csv, re, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
names = {r["Name"] for r in csv.DictReader(open(sys.argv[2], encoding="utf-8"))}
rule = next(i for i, l in enumerate(lines) if re.fullmatch(r" -+(  -+)+", l))
a, b = [m.span() for m in re.finditer(r"-+", lines[rule]) if lines[rule - 1][m.start():m.end()].strip() == "Name"][0]
shown = {l[a:b].rstrip() for l in lines[rule + 1:] if l}
def cut_of(s, n):
    parts = s.split("\u2026")
    return n.startswith(parts[0]) and n.endswith(parts[-1]) and all(p in n for p in parts[1:-1])
strays = [s for s in shown if not any(cut_of(s, n) for n in names)]
if len(shown) != len(names) or strays:
    sys.exit(f"{len(names)} names read as {len(shown)} texts; not cut from a name: {strays[:3]}")
PY
}

test_shortened_names_stay_apart() {
	[[ -f $REAL/mfu_2gpu_before.sqlite ]] || { echo "diff: note: no ../shared, real pair skipped"; return; }
	local r msg
	# PyTorch's kernels of the pair differ in their middles, past the 100 characters of a column
	for r in kern_diff launch_diff; do
		diff_csv "$REAL/mfu_2gpu_before.sqlite" "$REAL/mfu_2gpu_after.sqlite" "$r" "$r-names.csv"
		run diff -q -r "$r" -f column "$REAL/mfu_2gpu_before.sqlite" "$REAL/mfu_2gpu_after.sqlite"
		printf '%s\n' "$OUT" >"$WORK/$r-names.txt"
		msg=$(names_apart "$WORK/$r-names.txt" "$WORK/$r-names.csv" 2>&1) || fail "$r: $msg"
	done
	# autolines=N: rows stream, names are cut on the right as nsys cuts them, some alike
	run diff -q -r kern_diff -f column:autolines=100 "$REAL/mfu_2gpu_before.sqlite" "$REAL/mfu_2gpu_after.sqlite"
	printf '%s\n' "$OUT" >"$WORK/cut-names.txt"
	names_apart "$WORK/cut-names.txt" "$WORK/kern_diff-names.csv" >/dev/null 2>&1 &&
		fail "names cut on the right read apart: the check cannot fail"
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

# nvtx_diff tests each name's ranges as kern_diff tests a kernel's instances: its PushPop rows
# against ranks.py, from each side's nvtx_pushpop_trace.
test_nvtx_diff_tests_the_ranges() {
	diff_csv "$WORK/ex.sqlite" "$WORK/b.sqlite" nvtx_diff nvtx.csv
	local s
	for s in ex b; do
		run stats -q -r nvtx_pushpop_trace -f csv "$WORK/$s.sqlite"
		rc_is 0
		printf '%s\n' "$OUT" >"$WORK/$s-pushpop.csv"
	done
	py nvtx_ranks "$WORK/nvtx.csv" "$WORK/ex-pushpop.csv" "$WORK/b-pushpop.csv"
}

# A copy of ex.sqlite with three launches deleted, one launch copied 1 us later on its stream,
# and one launch's kernel renamed: launch_diff must find exactly those.
test_launch_diff_finds_what_changed() {
	cp "$WORK/ex.sqlite" "$WORK/edited.sqlite"
	python3 "$HERE/check.py" edit "$WORK/edited.sqlite" >"$WORK/expect.txt" || fail "edit failed"
	diff_csv "$WORK/ex.sqlite" "$WORK/edited.sqlite" launch_diff edited.csv
	py launches "$WORK/edited.csv" "$WORK/expect.txt" "$WORK/ex.sqlite"
}

# ---- devices paired by their work -------------------------------------------------------------

# A copy of ex.sqlite with its devices renumbered (0 -> 3, 1 -> 2), as the same run on other GPUs:
# by default each device pairs with its copy and nothing differs; by id, nothing pairs.
test_renumbered_devices_pair_by_their_kernels() {
	cp "$WORK/ex.sqlite" "$WORK/renum.sqlite"
	py renumber "$WORK/renum.sqlite" 0:3,1:2
	diff_csv "$WORK/ex.sqlite" "$WORK/renum.sqlite" gpu_time_diff renum.csv
	py devices "$WORK/renum.csv" "$WORK/ex.sqlite" "$WORK/renum.sqlite" auto 0=3,1=2
	py zero "$WORK/renum.csv" Device
	run diff -q -r gpu_time_diff -f column "$WORK/ex.sqlite" "$WORK/renum.sqlite"
	rc_is 0
	[[ $OUT == *$'\nDevices paired by the kernels they ran: device 0 (A) = device 3 (B), device 1 (A) = device 2 (B)\n'* ]] ||
		fail "no note of the pairing: ${OUT:0:300}"
	run diff -q --devices id -r gpu_time_diff -f csv "$WORK/ex.sqlite" "$WORK/renum.sqlite"
	rc_is 0
	printf '%s\n' "$OUT" >"$WORK/renum-id.csv"
	py devices "$WORK/renum-id.csv" "$WORK/ex.sqlite" "$WORK/renum.sqlite" id -
	[[ $(grep -c '^[01],,' "$WORK/renum-id.csv") == 2 && $(grep -c '^,[23],' "$WORK/renum-id.csv") == 2 ]] ||
		fail "by id, devices 0 and 1 are not only in A and 2 and 3 only in B: $(cut -c1-20 "$WORK/renum-id.csv")"
	run diff -q -r gpu_time_diff -f column "$WORK/ex.sqlite" "$WORK/ex.sqlite"
	[[ $OUT != *"Devices paired"* ]] || fail "a note where every device keeps its id"
	run diff -q "$WORK/ex.sqlite" "$WORK/renum.sqlite"
	rc_is 0
	# the gate pairs them too: nothing grew; by id, every device of B is new
	run diff -q -r verdict --gate 1 -f csv "$WORK/ex.sqlite" "$WORK/renum.sqlite"
	rc_is 0
	[[ $OUT == *$'\n"GPU busy, device 0 (A) = 3 (B)",total,'* ]] || fail "no paired device row: $OUT"
	run diff -q -r verdict --gate 1 --devices id -f csv "$WORK/ex.sqlite" "$WORK/renum.sqlite"
	rc_is 7
	err_line '^nstats: gate: GPU busy, device [23]: only in the candidate, [0-9]+ ns \(gate 1%\) \(and 1 more\)$'
}

# Two runs of one program whose ranks swapped GPUs, the second with a kernel 50% slower: each
# device pairs with the one that ran its rank's kernels, and the busy times compared are those
# of one rank; two ranks of one job on GPUs 1 and 3 pair. A device left with copies and sets
# only pairs by its id.
test_two_runs_on_other_gpus() {
	gen swapped --slow-kernel saxpy:50
	py renumber "$WORK/swapped.sqlite" 0:1,1:0
	diff_csv "$WORK/ex.sqlite" "$WORK/swapped.sqlite" gpu_time_diff swapped-gpus.csv
	py devices "$WORK/swapped-gpus.csv" "$WORK/ex.sqlite" "$WORK/swapped.sqlite" auto 0=1,1=0
	diff_csv "$WORK/b.sqlite" "$WORK/ex.sqlite" gpu_time_diff other-run.csv
	py devices "$WORK/other-run.csv" "$WORK/b.sqlite" "$WORK/ex.sqlite" auto -
	run diff -q --devices id -r gpu_time_diff -f csv "$WORK/ex.sqlite" "$WORK/swapped.sqlite"
	printf '%s\n' "$OUT" >"$WORK/swapped-id.csv"
	py devices "$WORK/swapped-id.csv" "$WORK/ex.sqlite" "$WORK/swapped.sqlite" id 0=0,1=1
	# two ranks' exports of one job, rank 3 slowed, as rank 1 on GPU 1 and rank 3 on GPU 3
	local r
	for r in 1 3; do
		"$NSYSGEN" -q --seed 5 --ranks 4 --rank $r --devices 1 --iterations 6 --slow-rank 3:1.5 \
			--kernels 100 -o "$WORK/rank$r.sqlite" >/dev/null || fail "nsysgen --rank $r"
		py renumber "$WORK/rank$r.sqlite" 0:$r
	done
	diff_csv "$WORK/rank1.sqlite" "$WORK/rank3.sqlite" gpu_time_diff ranks.csv
	py devices "$WORK/ranks.csv" "$WORK/rank1.sqlite" "$WORK/rank3.sqlite" auto 1=3
	cp "$WORK/ex.sqlite" "$WORK/copies.sqlite"
	py drop_kernels "$WORK/copies.sqlite" 1
	py renumber "$WORK/copies.sqlite" 0:3
	diff_csv "$WORK/ex.sqlite" "$WORK/copies.sqlite" gpu_time_diff copies.csv
	py devices "$WORK/copies.csv" "$WORK/ex.sqlite" "$WORK/copies.sqlite" auto 0=3,1=1
}

# The real 2-GPU pair with the candidate's GPUs renumbered 0 -> 5, 1 -> 4: no id in common; both
# ranks ran nearly the same kernels, and the pairing is the rule's, computed from SQL.
test_a_real_pair_on_other_gpus() {
	[[ -f $REAL/mfu_2gpu_before.sqlite ]] || return
	cp "$REAL/mfu_2gpu_after.sqlite" "$WORK/after-renum.sqlite"
	py renumber "$WORK/after-renum.sqlite" 0:5,1:4
	diff_csv "$REAL/mfu_2gpu_before.sqlite" "$WORK/after-renum.sqlite" gpu_time_diff real-renum.csv
	py devices "$WORK/real-renum.csv" "$REAL/mfu_2gpu_before.sqlite" "$WORK/after-renum.sqlite" auto -
	diff_csv "$REAL/mfu_2gpu_before.sqlite" "$REAL/mfu_2gpu_after.sqlite" gpu_time_diff real.csv
	py devices "$WORK/real.csv" "$REAL/mfu_2gpu_before.sqlite" "$REAL/mfu_2gpu_after.sqlite" auto 0=0,1=1
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
	err_line '^nstats: gate: kernel saxpy: \+12\.0% \[\+1[12]\.[0-9]%, \+1[23]\.[0-9]%\], p = [0-9.e-]+ \(median [0-9.]+ ns -> [0-9.]+ ns, gate 10%\)$'
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

# ---- agree: two profilers' captures of one run -----------------------------------------------------

# agree_csv A B NAMES OUT [OPTION...]: agree of A and B as csv in WORK/OUT
agree_csv() {
	local a=$1 b=$2 names=$3 out=$4
	shift 4
	run diff -q -r agree -f csv --names "$names" "$@" "$a" "$b"
	rc_is 0
	printf '%s\n' "$OUT" >"$WORK/$out"
}

# WORK/agree.sqlite and the same run as a trace, WORK/agree.pt.trace.json.gz: the suite's base run
agree_base() {
	[[ -f $WORK/agree.sqlite ]] || gen agree --kineto "$WORK/agree.pt.trace.json.gz"
}

# An export against the same run as a trace: every kernel agrees, to the launch and the ns; a
# trace on a clock of its own says exactly the same.
test_agree_on_one_run_seen_twice() {
	agree_base
	agree_csv "$WORK/agree.sqlite" "$WORK/agree.pt.trace.json.gz" base agree.csv
	py agree "$WORK/agree.csv" "$WORK/agree.sqlite" "$WORK/agree.pt.trace.json.gz" base paired
	awk -F, 'NR > 1 && $NF != "agree" { bad = 1 } END { exit bad || NR < 2 }' "$WORK/agree.csv" ||
		fail "a row does not agree: $(<"$WORK/agree.csv")"
	gen offset --kineto "$WORK/offset.pt.trace.json" --kineto-clock-offset 987654321
	agree_csv "$WORK/agree.sqlite" "$WORK/offset.pt.trace.json" base offset.csv
	cmp -s "$WORK/agree.csv" "$WORK/offset.csv" || fail "a clock offset changed agree"
	agree_csv "$WORK/agree.sqlite" "$WORK/agree.sqlite" exact self-agree.csv
	py agree "$WORK/self-agree.csv" "$WORK/agree.sqlite" "$WORK/agree.sqlite" exact paired
}

# Launches written twice in a trace or an export are counted and left out, on either side.
test_agree_counts_duplicates() {
	agree_base
	gen dup --kineto "$WORK/dup.pt.trace.json.gz" --kineto-dup-kernels 7
	agree_csv "$WORK/agree.sqlite" "$WORK/dup.pt.trace.json.gz" base dup.csv
	py agree "$WORK/dup.csv" "$WORK/agree.sqlite" "$WORK/dup.pt.trace.json.gz" base paired
	[[ $(<"$WORK/dup.csv") == *"B counts "*" twice"* ]] || fail "no duplicate found: $(<"$WORK/dup.csv")"
	agree_csv "$WORK/dup.pt.trace.json.gz" "$WORK/agree.sqlite" base dup-swapped.csv
	py agree "$WORK/dup-swapped.csv" "$WORK/dup.pt.trace.json.gz" "$WORK/agree.sqlite" base paired
	# nsys against nsys: an export whose GPU rows are partly written twice
	gen dup-rows --dup-gpu-rows 12
	agree_csv "$WORK/agree.sqlite" "$WORK/dup-rows.sqlite" exact dup-rows.csv
	py agree "$WORK/dup-rows.csv" "$WORK/agree.sqlite" "$WORK/dup-rows.sqlite" exact paired
	[[ $(<"$WORK/dup-rows.csv") == *"B counts "*" twice"* ]] || fail "no duplicate row found"
}

# A trace that lost launches: B misses exactly those.
test_agree_finds_missed_launches() {
	agree_base
	gen missed --drop-launches 3 --kineto "$WORK/missed.pt.trace.json.gz"
	agree_csv "$WORK/agree.sqlite" "$WORK/missed.pt.trace.json.gz" base missed.csv
	py agree "$WORK/missed.csv" "$WORK/agree.sqlite" "$WORK/missed.pt.trace.json.gz" base subset
	local n
	n=$(grep -o 'B misses [0-9]* launch' "$WORK/missed.csv" | awk '{ s += $3 } END { print s + 0 }')
	[[ $n == 3 ]] || fail "B misses $n launches, 3 dropped: $(<"$WORK/missed.csv")"
}

# A trace whose kernels last 3% longer: every kernel's median difference and interval are about
# +3%, and its verdict says so; with --alpha 1 there is no interval and no verdict on durations.
test_agree_measures_a_bias() {
	agree_base
	gen bias --kineto "$WORK/bias.pt.trace.json.gz" --kineto-bias 3
	agree_csv "$WORK/agree.sqlite" "$WORK/bias.pt.trace.json.gz" base bias.csv
	py agree "$WORK/bias.csv" "$WORK/agree.sqlite" "$WORK/bias.pt.trace.json.gz" base paired
	awk -F, 'NR > 1 && $10 != "3.0" { bad = 1 } END { exit bad || NR < 2 }' "$WORK/bias.csv" ||
		fail "a median is not +3.0%: $(<"$WORK/bias.csv")"
	agree_csv "$WORK/agree.sqlite" "$WORK/bias.pt.trace.json.gz" base bias-untested.csv --alpha 1
	py agree "$WORK/bias-untested.csv" "$WORK/agree.sqlite" "$WORK/bias.pt.trace.json.gz" base paired 1
}

# Real traces against copies whose kernels each last a random 0.95 to 1.10 times as long: every
# kernel's median, interval (at two levels) and verdict are those of its own pairs.
test_agree_intervals_on_real_traces() {
	local e seed=1
	for e in "$HTA"/nccl_parser_config/nccl_data.json.gz \
		"$HTA"/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz; do
		[[ -f $e ]] || continue
		seed+=1
		python3 "$HERE/check.py" jitter_trace "$e" "$WORK/jitter.json.gz" "$seed" || fail "jitter $e"
		agree_csv "$e" "$WORK/jitter.json.gz" exact jitter.csv
		py agree "$WORK/jitter.csv" "$e" "$WORK/jitter.json.gz" exact paired
		agree_csv "$e" "$WORK/jitter.json.gz" exact jitter01.csv --alpha 0.01
		py agree "$WORK/jitter01.csv" "$e" "$WORK/jitter.json.gz" exact paired 0.01
	done
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

# Real traces against themselves per iteration: their ProfilerSteps and each device's busy time in
# them are the JSON's; a trace of one step has no iterations to compare.
test_a_real_trace_per_iteration() {
	local e
	for e in "$HTA"/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz \
		"$HTA"/nccl_parser_config/nccl_data.json.gz; do
		[[ -f $e ]] || continue
		diff_csv "$e" "$e" iter_diff trace-iters.csv
		py iters_trace "$WORK/trace-iters.csv" "$e"
	done
	e=$HTA/triton_example/triton_example.json.gz
	[[ -f $e ]] || return
	run diff -q -r iter_diff -f csv "$e" "$e"
	rc_is 0
	err_line "^SKIPPED: .*triton_example.json.gz has no iterations to compare"
}

# ---- the gate --------------------------------------------------------------------------------

test_gate() {
	[[ -f $REAL/mfu_2gpu_before.sqlite ]] || return
	local a=$REAL/mfu_2gpu_before.sqlite b=$REAL/mfu_2gpu_after.sqlite
	# ncclDevKernel_SendRecv's total grew from 25,401,752 to 33,742,101 ns (+32.8%, the SQL sums
	# above), but its instances did not move (66 and 62 of them, median +0.2%, p = 1 after Holm):
	# no kernel fails; the devices' busy time fell
	run diff -q -r kern_diff -f csv --gate 10 "$a" "$b"
	rc_is 0
	err_is ""
	[[ $OUT == *$'\nverdict,,,,,,,,10,pass'* ]] || fail "no passing verdict row: ${OUT: -200}"
	# swapped, the run with more iterations is the candidate: its devices were busier for longer
	# (+13% and more), every kernel's instances the same
	run diff -q -r verdict -f csv --gate 10 "$b" "$a"
	rc_is 7
	err_line '^nstats: gate: GPU busy, device 0: \+14\.0% \(240108749 ns -> 273817787 ns, gate 10%\)$'
	python3 -c 'import csv, sys
rs = list(csv.DictReader(sys.stdin))
bad = [r["Check"] for r in rs if r["Result"] == "FAIL" and r["Check"] != "verdict"]
assert bad == ["GPU busy, device 0"], bad' <<<"$OUT" ||
		fail "kernels fail on a run that only did more iterations: $OUT"
	# --gate's value reaches -r verdict
	run diff -q -r verdict -f csv --gate 50 "$b" "$a"
	rc_is 0
	run diff -q -r verdict -f csv "$b" "$a"
	rc_is 2
	err_line "gate=PCT is required \(or nstats diff --gate PCT\)"
	run diff -q -f json -r kern_diff --gate 10 "$b" "$a"
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

# Planted copies of a real export: what the verdicts must say of each (check.py plant).
test_verdicts_on_planted_copies() {
	[[ -f $REAL/mfu_2gpu_before.sqlite ]] || return
	local a=$REAL/mfu_2gpu_before.sqlite k
	# half of every kernel's instances: fewer, not slower
	python3 "$HERE/check.py" plant half "$a" "$WORK/half.sqlite" >/dev/null || fail "plant half"
	diff_csv "$a" "$WORK/half.sqlite" kern_diff half.csv
	py statuses "$WORK/half.csv" "~" - "~"
	py kern_sums "$WORK/half.csv" "$a" "$WORK/half.sqlite" exact
	run diff -q -r verdict --gate 5 -f csv "$a" "$WORK/half.sqlite"
	rc_is 0
	# jitter alone: nothing moves beyond the tolerance
	python3 "$HERE/check.py" plant jitter "$a" "$WORK/jitter.sqlite" >/dev/null || fail "plant jitter"
	diff_csv "$a" "$WORK/jitter.sqlite" kern_diff jitter.csv
	py statuses "$WORK/jitter.csv" "~" - "~" same
	py kern_sums "$WORK/jitter.csv" "$a" "$WORK/jitter.sqlite" exact
	run diff -q -r verdict --gate 1 -f csv "$a" "$WORK/jitter.sqlite"
	rc_is 0
	# the busiest kernel 8% slower: found, named, and the gate fails at 5% and passes at 10%
	k=$(python3 "$HERE/check.py" plant shift8 "$a" "$WORK/shift8.sqlite") || fail "plant shift8"
	diff_csv "$a" "$WORK/shift8.sqlite" kern_diff shift8.csv
	py statuses "$WORK/shift8.csv" slower "$k" "~"
	py kern_sums "$WORK/shift8.csv" "$a" "$WORK/shift8.sqlite" exact
	run diff -q -r verdict --gate 5 -f csv "$a" "$WORK/shift8.sqlite"
	rc_is 7
	[[ $ERR == "nstats: gate: kernel $k: +8.0% ["* ]] || fail "the gate does not name $k: $ERR"
	run diff -q -r verdict --gate 10 -f csv "$a" "$WORK/shift8.sqlite"
	rc_is 0
	# alpha 1: no test, every shift counts
	run diff -q -r verdict --gate 5 --alpha 1 -f csv "$a" "$WORK/jitter.sqlite"
	rc_is 0
	# one slow instance of six: the total grows, the median does not
	k=$(python3 "$HERE/check.py" plant outlier "$a" "$WORK/six.sqlite" "$WORK/six-slow.sqlite") ||
		fail "plant outlier"
	diff_csv "$WORK/six.sqlite" "$WORK/six-slow.sqlite" kern_diff six.csv
	py statuses "$WORK/six.csv" "~" "$k" "~"
	py kern_sums "$WORK/six.csv" "$WORK/six.sqlite" "$WORK/six-slow.sqlite" exact
	run diff -q -r verdict --gate 5 -f csv "$WORK/six.sqlite" "$WORK/six-slow.sqlite"
	rc_is 0
}

# ---- per iteration ------------------------------------------------------------------------------

# steps NAME OPTIONS...: WORK/NAME.sqlite, a short run and its training steps, each the same plan
# (a training loop) named ProfilerStep#N unless OPTIONS name them otherwise
steps() {
	local name=$1
	shift
	"$NSYSGEN" -q --seed 11 --kernels 20 --memcpy 4 --memset 2 --other-api 5 --nvtx 5 --osrt 0 \
		--ranks 1 --same-steps --step-name 'ProfilerStep#' "$@" --force -o "$WORK/$name.sqlite" >/dev/null ||
		fail "nsysgen $*"
}

# Half the iterations against all of them: the same work in each, so every row is ~, and the gate
# passes at 5% on each device's busy time per iteration where its total busy time doubles (the
# same pair with no iterations found fails on that total).
test_half_the_iterations_is_no_change() {
	steps half --iterations 20
	steps all --iterations 40
	diff_csv "$WORK/half.sqlite" "$WORK/all.sqlite" iter_diff half-all.csv
	py iters "$WORK/half-all.csv" "$WORK/half.sqlite" "$WORK/all.sqlite" exact
	py iter_statuses "$WORK/half-all.csv" "~" - "~"
	diff_csv "$WORK/all.sqlite" "$WORK/half.sqlite" iter_diff all-half.csv
	py iters "$WORK/all-half.csv" "$WORK/all.sqlite" "$WORK/half.sqlite" exact
	py iter_statuses "$WORK/all-half.csv" "~" - "~"
	run diff -q -r verdict --gate 5 -f csv "$WORK/half.sqlite" "$WORK/all.sqlite"
	rc_is 0
	err_is ""
	printf '%s\n' "$OUT" >"$WORK/half-gate.csv"
	# device 1 works only outside the steps: its total is checked
	py gate_basis "$WORK/half-gate.csv" "per iteration" "GPU busy, device 0"
	py gate_basis "$WORK/half-gate.csv" total "GPU busy, device 1"
	run diff -q -r verdict --gate 5 --per no-such-range -f csv "$WORK/half.sqlite" "$WORK/all.sqlite"
	rc_is 7
	err_line '^nstats: gate: GPU busy, device 0: \+[0-9.]+% \([0-9]+ ns -> [0-9]+ ns, gate 5%\)'
	# the note above the table says how many iterations each side has
	run diff -r iter_diff "$WORK/half.sqlite" "$WORK/all.sqlite"
	rc_is 0
	[[ $OUT == *"Iterations: A 20 (ProfilerStep#N), B 40 (ProfilerStep#N)"* ]] ||
		fail "no note of the iterations: ${OUT:0:300}"
}

# One kernel 20% slower in every iteration: its row alone is slower (the devices' busy time per
# iteration moves by its share, within tolerance or beyond), and the gate fails on it.
test_a_kernel_slower_in_every_iteration() {
	steps all --iterations 40
	steps steps-slow --iterations 40 --slow-kernel saxpy:20
	run diff -q -r iter_diff -f csv --names base "$WORK/all.sqlite" "$WORK/steps-slow.sqlite"
	rc_is 0
	printf '%s\n' "$OUT" >"$WORK/slow-iters.csv"
	py iters "$WORK/slow-iters.csv" "$WORK/all.sqlite" "$WORK/steps-slow.sqlite" base
	python3 -c 'import csv, sys
rs = [r for r in csv.DictReader(sys.stdin) if r["Kind"] == "kernel"]
bad = [(r["Name"], r["Status"]) for r in rs if (r["Status"] == "slower") != (r["Name"] == "saxpy")]
assert rs and not bad, bad' <"$WORK/slow-iters.csv" || fail "not saxpy alone slower: $(<"$WORK/slow-iters.csv")"
	run diff -q -r verdict --gate 5 --names base -f csv "$WORK/all.sqlite" "$WORK/steps-slow.sqlite"
	rc_is 7
	err_line '^nstats: gate: kernel saxpy: \+20\.0% '
	# the device's busy time per iteration grew by saxpy's share: beyond 1%, within 5%
	local want
	want=$(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import check, ranks
_, a = check.sql_iterations(sys.argv[2], "base"); _, b = check.sql_iterations(sys.argv[3], "base")
pct = ranks.ratio_shift(sorted(a["0"]), sorted(b["0"]))[0]
assert 1 < pct < 5, pct
print(f"{pct:.1f}")' "$HERE" "$WORK/all.sqlite" "$WORK/steps-slow.sqlite") || fail "device 0 per iteration: $want"
	for gate in 1 5; do
		run diff -q -r verdict --gate $gate --names base -f csv "$WORK/all.sqlite" "$WORK/steps-slow.sqlite"
		rc_is 7
		python3 -c 'import csv, sys
r = [r for r in csv.DictReader(sys.stdin) if r["Check"] == "GPU busy, device 0"][0]
want = "FAIL" if sys.argv[1] == "1" else "pass"
assert (r["Basis"], r["Change (%)"], r["Result"]) == ("per iteration", sys.argv[2], want), r' \
			"$gate" "$want" <<<"$OUT" || fail "device 0 at gate $gate: $OUT"
	done
}

# Ranges of another name, taken with --per; without it there are no iterations and iter_diff
# says SKIPPED (exit 0, or 5 with --strict).
test_iterations_of_another_name() {
	steps step-half --iterations 20 --step-name train_step
	steps step-all --iterations 40 --step-name train_step
	run diff -q -r iter_diff -f csv "$WORK/step-half.sqlite" "$WORK/step-all.sqlite"
	rc_is 0
	err_line "^SKIPPED: .*step-half.sqlite has no iterations to compare: fewer than two NVTX ranges named ProfilerStep#N \(nstats diff --per NAME takes ranges of another name\)$"
	[[ -z $OUT ]] || fail "rows without iterations: $OUT"
	run diff -q --strict -r iter_diff -f csv "$WORK/step-half.sqlite" "$WORK/step-all.sqlite"
	rc_is 5
	run diff -q -r iter_diff -f csv --per train_step "$WORK/step-half.sqlite" "$WORK/step-all.sqlite"
	rc_is 0
	printf '%s\n' "$OUT" >"$WORK/per.csv"
	py iters "$WORK/per.csv" "$WORK/step-half.sqlite" "$WORK/step-all.sqlite" exact train_step
	py iter_statuses "$WORK/per.csv" "~" - "~"
}

# Steps as torch.autograd.profiler.emit_nvtx names them ("ProfilerStep#3, op_id = 17") are
# iterations too; "ProfilerStep#3x" is none.
test_emit_nvtx_step_names() {
	steps all --iterations 40
	cp "$WORK/all.sqlite" "$WORK/emit.sqlite"
	python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE NVTX_EVENTS SET text = text || %s || rowid WHERE text LIKE %s" % (chr(39) + ", op_id = " + chr(39), chr(39) + "ProfilerStep#%" + chr(39)))
db.execute("UPDATE NVTX_EVENTS SET text = %s WHERE rowid = (SELECT max(rowid) FROM NVTX_EVENTS WHERE text LIKE %s)" % (chr(39) + "ProfilerStep#39x" + chr(39), chr(39) + "ProfilerStep#%" + chr(39)))
db.commit()' "$WORK/emit.sqlite" || fail "renaming the steps"
	diff_csv "$WORK/all.sqlite" "$WORK/emit.sqlite" iter_diff emit.csv
	py iters "$WORK/emit.csv" "$WORK/all.sqlite" "$WORK/emit.sqlite" exact
	[[ $(<"$WORK/emit.csv") == *$'\ndevice,0,40,39,'* ]] || fail "not 40 against 39 iterations: $(<"$WORK/emit.csv")"
}

# Ranges on every thread of two processes, overlapping (nsysgen's train_step ranges around host
# events): each launch is its process's latest-started range's, and a device or kernel counts in
# the iterations of the processes that used it.
test_iterations_of_several_processes() {
	run diff -q -r iter_diff -f csv --per train_step "$WORK/ex.sqlite" "$WORK/b.sqlite"
	rc_is 0
	printf '%s\n' "$OUT" >"$WORK/procs.csv"
	py iters "$WORK/procs.csv" "$WORK/ex.sqlite" "$WORK/b.sqlite" exact train_step
}

# A side without iterations: nothing per iteration is claimed; the gate checks totals.
test_a_side_without_iterations() {
	steps all --iterations 40
	steps unnamed --iterations 40 --step-name train_step
	run diff -q -r iter_diff -f csv "$WORK/all.sqlite" "$WORK/unnamed.sqlite"
	rc_is 0
	err_line "^SKIPPED: .*unnamed.sqlite has no iterations to compare"
	run diff -q -r verdict --gate 5 -f csv "$WORK/all.sqlite" "$WORK/unnamed.sqlite"
	rc_is 0
	printf '%s\n' "$OUT" >"$WORK/unnamed-gate.csv"
	py gate_basis "$WORK/unnamed-gate.csv" total
	# the default set leaves iter_diff to -r: it reads every NVTX range and CUDA call
	run diff -q -f csv "$WORK/all.sqlite" "$WORK/all.sqlite"
	rc_is 0
	[[ $OUT == *"Kind,"* ]] && fail "iter_diff rows in the default set"
}

# The same run as an export and as a PyTorch trace: the same iterations, the same busy time in
# each (the trace's own, from its JSON), every row ~.
test_iterations_nsys_against_kineto() {
	"$NSYSGEN" -q --seed 11 --kernels 20 --memcpy 4 --memset 2 --other-api 5 --nvtx 5 --osrt 0 \
		--ranks 1 --same-steps --step-name 'ProfilerStep#' --iterations 30 \
		-o "$WORK/twin-steps.sqlite" --kineto "$WORK/twin-steps.pt.trace.json.gz" >/dev/null ||
		fail "nsysgen --kineto"
	run diff -q -r iter_diff -f csv --names base "$WORK/twin-steps.sqlite" "$WORK/twin-steps.pt.trace.json.gz"
	rc_is 0
	printf '%s\n' "$OUT" >"$WORK/twin-steps.csv"
	py iters_twin "$WORK/twin-steps.csv" "$WORK/twin-steps.sqlite" "$WORK/twin-steps.pt.trace.json.gz"
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
	[[ $OUT == *"--per NAME"* ]] || fail "--help lacks --per"
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
