#!/usr/bin/env bash
# gpu_time_sum against brute_gpu_time (union and sum piece by piece over the elementary time
# segments, per device, process and stream), on fixtures made to be hard: kernels overlapping on
# several streams of a device and across processes sharing a device, CUDA graph executions
# (graph-level tracing: no kernel rows) overlapping kernels, zero durations, exact duplicate rows,
# operations that end before they start, NULL globalPid, a table without deviceId, an export
# without ANALYSIS_DETAILS (span from the calls, backtrace records excluded), graphs alone; each
# with by=device|process|stream, three gap thresholds and time windows (--filter-time and
# start=/end=). Also: a tampered output must fail the check, and bad arguments are usage errors.
# shellcheck source=tests/accounting/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# agree EXPORT BY GAP [S E]: nstats's csv (window by --filter-time, and again by start=/end=)
# checked by brute force
agree() {
	local x=$1 by=$2 gap=$3 out
	shift 3
	local filter=() args=""
	if (($# == 2)); then
		filter=(--filter-time "$1/$2")
		args=":start=$1:end=$2"
	fi
	checks=$((checks + 1))
	out=$("$NSTATS" stats -q "${filter[@]}" -r "gpu_time_sum:by=$by:gap=$gap" -f csv "$x.sqlite" |
		"$BRUTE/brute_gpu_time" "$x.sqlite" "$by" "$gap" "$@") || fail "$x by=$by gap=$gap ${filter[*]}: $out"
	if [[ -n $args ]]; then
		checks=$((checks + 1))
		out=$("$NSTATS" stats -q -r "gpu_time_sum:by=$by:gap=$gap$args" -f csv "$x.sqlite" |
			"$BRUTE/brute_gpu_time" "$x.sqlite" "$by" "$gap" "$@") || fail "$x by=$by gap=$gap$args: $out"
	fi
}

check_all() { # check_all EXPORT: every grouping and gap, whole and in windows
	local x=$1 lo hi by gap
	read -r lo hi < <(sqlite3 -separator ' ' "$x.sqlite" "SELECT min(start), max(end) FROM CUPTI_ACTIVITY_KIND_RUNTIME")
	for by in device process stream; do
		for gap in 0 1000 20000; do agree "$x" "$by" "$gap"; done
		# windows through the middle of the activity and near its end, cutting operations
		agree "$x" "$by" 0 $((lo + (hi - lo) * 2 / 5)) $((lo + (hi - lo) * 3 / 5))
		agree "$x" "$by" 1000 $((lo + (hi - lo) * 85 / 100)) $((lo + (hi - lo) * 90 / 100))
	done
	agree "$x" device 1000 0 $((lo / 2)) # before anything: no row
}

# kernels on 3 streams per context, 3 processes on 2 devices (processes 0 and 2 share device 0),
# graphs and zero durations among them
gen overlap --seed 41 --processes 3 --devices 2 --streams 3 --overlap --kernels 300 --memcpy 40 \
	--memset 10 --graphs 30 --zero-durations 12 && check_all overlap
# several reports in one run share one measure by device (gpu_time_sum, cuda_gpu_kern_dist): each
# gap still counts its own gaps, whichever report measured first
seq=(gpu_time_sum:gap=20000 cuda_gpu_kern_dist gpu_time_sum:gap=0 gpu_time_sum gpu_time_sum:gap=0)
checks=$((checks + 1))
one=$("$NSTATS" stats -q "${seq[@]/#/-r}" -f csv overlap.sqlite 2>/dev/null)
alone=$(for r in "${seq[@]}"; do "$NSTATS" stats -q -r "$r" -f csv overlap.sqlite 2>/dev/null; done)
[[ $one == "$alone" ]] || fail "overlap: ${seq[*]} in one run differ from each alone"
# one device, four processes, four streams each
gen shared --seed 42 --processes 4 --devices 1 --streams 4 --overlap --kernels 200 --memcpy 20 \
	--memset 5 --graphs 20 && check_all shared
# one operation at a time per device, but graphs land on top of them
gen serial --seed 43 --kernels 150 --memcpy 20 --memset 5 --graphs 10 && check_all serial
"$NSYSGEN" -q --force -o example.sqlite --example && check_all example

# duplicates (every 5th kernel twice, exactly), kernels and copies that end before they start or
# at their start, copies of no process, memsets of no device (the column dropped)
cp overlap.sqlite odd.sqlite
sqlite3 odd.sqlite "
	INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid % 5 = 0;
	UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start - 7 WHERE rowid % 23 = 0;
	UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET end = start - 1 WHERE rowid % 9 = 0;
	UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET globalPid = NULL WHERE rowid % 4 = 0;
	ALTER TABLE CUPTI_ACTIVITY_KIND_MEMSET DROP COLUMN deviceId;" || fail "making odd.sqlite"
check_all odd
# duplicates only: the overlap they make is exactly the duplicated kernels' time
cp serial.sqlite dup.sqlite
sqlite3 dup.sqlite "DELETE FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE;
	INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid % 3 = 0;"
agree dup device 1000
want=$(sqlite3 dup.sqlite "SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid % 3 = 0 AND rowid <= 150")
got=$("$NSTATS" stats -q -r gpu_time_sum -f csv dup.sqlite | awk -F, 'NR > 1 { s += $7 } END { print s }')
checks=$((checks + 1))
[[ $got == "$want" ]] || fail "dup: Overlap $got, the duplicated kernels' time is $want"

# no ANALYSIS_DETAILS: the span of the CUDA calls, backtrace records (which start before their
# calls) left out
gen backtrace --seed 44 --processes 2 --kernels 80 --memcpy 10 --memset 4 --backtrace --graphs 6
sqlite3 backtrace.sqlite "DROP TABLE ANALYSIS_DETAILS" || fail "dropping ANALYSIS_DETAILS"
check_all backtrace
# graphs and nothing else: no kernel, memcpy or memset table at all
gen graphs-only --seed 45 --processes 2 --kernels 0 --memcpy 0 --memset 0 --other-api 4 --graphs 25 &&
	check_all graphs-only

# no GPU table: skipped, exit 0
gen cpu-only --seed 46 --kernels 0 --memcpy 0 --memset 0 --other-api 10
checks=$((checks + 1))
out=$("$NSTATS" stats -r gpu_time_sum -f csv cpu-only.sqlite 2>&1)
[[ $? == 0 && $out == *"SKIPPED: cpu-only.sqlite does not contain GPU operations"* ]] ||
	fail "cpu-only: $out"

# the check can fail: a busy time one ns off, a row missing
checks=$((checks + 1))
"$NSTATS" stats -q -r gpu_time_sum:by=stream -f csv overlap.sqlite >good.csv
awk -F, -v OFS=, 'NR == 3 { $6 = $6 + 1 } { print }' good.csv |
	"$BRUTE/brute_gpu_time" overlap.sqlite stream 1000 >/dev/null && fail "a tampered Busy passed"
checks=$((checks + 1))
sed 4d good.csv | "$BRUTE/brute_gpu_time" overlap.sqlite stream 1000 >/dev/null && fail "a missing row passed"

# bad arguments: usage errors before any work
for bad in by=host by gap=-1 gap=1.5 gap=abc gap; do
	checks=$((checks + 1))
	"$NSTATS" stats -q -r "gpu_time_sum:$bad" -f csv overlap.sqlite >/dev/null 2>err.txt
	rc=$?
	[[ $rc == 2 ]] && grep -q "^nstats: error: .*gpu_time_sum" err.txt || fail "gpu_time_sum:$bad: exit $rc, $(cat err.txt)"
done

# listed as nstats's own, with help that states the definitions (each help read whole first:
# `| grep -q` under pipefail fails when grep stops reading before nstats has written it all)
reports_help=$("$NSTATS" stats --help-reports)
for r in "gpu_time_sum -- GPU Time Summary" "cuda_gpu_kern_dist -- CUDA GPU Kernel Distribution"; do
	checks=$((checks + 1))
	grep -qxF "  $r (nstats addition)" <<<"$reports_help" || fail "--help-reports lacks '$r (nstats addition)'"
done
checks=$((checks + 1))
gpu_time_help=$("$NSTATS" stats --help-reports gpu_time_sum)
grep -q "ANALYSIS_DETAILS.duration" <<<"$gpu_time_help" || fail "gpu_time_sum's help"

echo "gpu_time: $checks checks, $fails failed"
((fails == 0))
