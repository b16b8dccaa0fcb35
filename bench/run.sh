#!/usr/bin/env bash
# bench/run.sh [BUILD_DIR]: nstats against nsys 2024.2.3 (when ../shared/tools/nsys-oracle can
# install it) and against the floor, the sqlite3 shell summing exactly the columns that nstats
# reads for the case, on two generated exports. Prints one markdown table per export: median wall
# time and peak memory per case, and the ratios reference/nstats, nstats/floor and the memory of
# nstats over the reference's.
#   the launches export: N kernel launches, N/10 memcpy, N/20 memset, N/5 other CUDA calls,
#     N/10 NVTX ranges, N/10 OS runtime calls; cases: the default report set (also read on one
#     thread, NSTATS_READ_THREADS=1, to show what the second reader is worth),
#     cuda_kern_exec_trace and cuda_gpu_trace to csv, gpu_time_sum
#   the NVTX export: N kernel launches inside about N NVTX ranges nested on the launching threads
#     (nsysgen --launch-ranges), N/10 memcpy, N/20 memset, N/5 other calls; cases, to csv:
#     nvtx_kern_sum, nvtx_gpu_proj_sum, nvtx_gpu_proj_trace, cuda_gpu_kern_sum:nvtx-name
#   comparisons: the launches export against its twin with one kernel 10% slower and 100
#     launches dropped (nsysgen --slow-kernel, --drop-launches): `nstats diff`'s default set,
#     kern_diff, the gate, launch_diff and agree (the twin against its own PyTorch trace) to
#     csv, against `nstats stats -r gpu_time_sum,cuda_gpu_kern_sum` on both exports one after
#     the other (time and memory: the two runs' sums); and the same run as a
#     PyTorch profiler trace (nsysgen --kineto, .json.gz): `nstats stats -r cuda_gpu_kern_sum`
#     on it against what most tools do first, python3's json.load(gzip.open(F))
#   the timeline and the page, on the launches export: `export --type perfetto` and `--type
#     chrome-json` against `stats -r cuda_gpu_trace -f csv`, each writing a file (-o), as a user
#     does: writing gigabytes is a good part of both at 10M; `report` against the default report
#     set; each with the size of what it wrote
# Knobs:
#   NSTATS_BENCH_LAUNCHES   N (default 1000000; 10000000 for the 10M scale)
#   NSTATS_BENCH_RUNS       runs per nstats and floor case (default 5)
#   NSTATS_BENCH_REF        0 skips the reference everywhere (shown as "not run"); nstats's own
#                           reports (gpu_time_sum) have none
#   NSTATS_BENCH_REF_RUNS   runs per reference case (default 3)
#   NSTATS_BENCH_REF_LIMIT  seconds one reference run gets (default 600); a run past it is
#                           killed and shown as "> LIMIT s, did not finish"
#   NSTATS_BENCH_NVTX       0 skips the NVTX export; only runs nothing else
#   NSTATS_BENCH_DIFF       0 skips the comparisons (below)
#   NSTATS_BENCH_OUTPUTS    0 skips the timeline and the page (below)
#   NSTATS_BENCH_CASES      space-separated case names (the first word of a row: default,
#                           one-reader, cuda_kern_exec_trace, nvtx_kern_sum, ...); unset runs all
# Exports are made once, in BUILD_DIR/bench/start-order, and reused; at 10M each takes about two
# minutes to make and 1.5 to 2 GB of disk. Their CUDA tables are in start order (nsysgen
# --start-order), as nsys writes them: every GPU table of the 60 real exports in ../shared/data is.
set -euo pipefail
B=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/lib.sh"
launches=${NSTATS_BENCH_LAUNCHES:-1000000}
runs=${NSTATS_BENCH_RUNS:-5}
ref_runs=${NSTATS_BENCH_REF_RUNS:-3}
limit=${NSTATS_BENCH_REF_LIMIT:-600}
nvtx_mode=${NSTATS_BENCH_NVTX:-1}
cases=${NSTATS_BENCH_CASES:-}
work=$B/bench/start-order
mkdir -p "$work"
bench_need_measure "$B"
measure=$B/measure

# make_export DB WHAT NSYSGEN_OPTIONS...: a launches export in start order, unless it is there
make_export() {
	local db=$1
	shift 2
	bench_make_launches "$B" "$db" "$launches" --start-order "$@"
}

ref_note="reference: nsys 2024.2.3, killed after $limit s"
nsys=$(bench_nsys)
[[ ${NSTATS_BENCH_REF:-1} != 0 ]] || ref_note="reference: not run (NSTATS_BENCH_REF=0)"
[[ -n $nsys || ${NSTATS_BENCH_REF:-1} == 0 ]] || ref_note="reference: not installed (shared/tools/nsys-oracle failed)"

# ---- floors: the columns each case reads, summed by sqlite3 -------------------------------------

call_cols=(start end nameId eventClass callchainId globalTid correlationId returnValue)
gpu_time_cols=(start end deviceId streamId globalPid)
nvtx_cols=(start end eventType globalTid textId domainId text endGlobalTid)
floor_default=$bench_floor_default
floor_exec_trace="$(bench_cols CUPTI_ACTIVITY_KIND_RUNTIME "${call_cols[@]}")
 $(bench_cols CUPTI_ACTIVITY_KIND_KERNEL start end globalPid correlationId demangledName deviceId gridX gridY gridZ blockX blockY blockZ)"
gpu_ids=(correlationId deviceId contextId greenContextId streamId)
floor_gpu_trace="$(bench_cols CUPTI_ACTIVITY_KIND_KERNEL start end "${gpu_ids[@]}" demangledName gridX gridY gridZ \
	blockX blockY blockZ registersPerThread staticSharedMemory dynamicSharedMemory)
 $(bench_cols CUPTI_ACTIVITY_KIND_MEMCPY start end bytes "${gpu_ids[@]}" copyKind srcKind dstKind)
 $(bench_cols CUPTI_ACTIVITY_KIND_MEMSET start end bytes "${gpu_ids[@]}" memKind) $(bench_cols TARGET_INFO_GPU id deviceId name)"
floor_gpu_time="$(bench_cols CUPTI_ACTIVITY_KIND_KERNEL "${gpu_time_cols[@]}") $(bench_cols CUPTI_ACTIVITY_KIND_MEMCPY "${gpu_time_cols[@]}")
 $(bench_cols CUPTI_ACTIVITY_KIND_MEMSET "${gpu_time_cols[@]}") $(bench_cols ANALYSIS_DETAILS duration)"
floor_nvtx_kern="$(bench_cols NVTX_EVENTS "${nvtx_cols[@]}") $(bench_cols CUPTI_ACTIVITY_KIND_RUNTIME "${call_cols[@]}")
 $(bench_cols CUPTI_ACTIVITY_KIND_KERNEL start end demangledName correlationId globalPid)"
floor_nvtx_proj="$(bench_cols NVTX_EVENTS "${nvtx_cols[@]}" rowid) $(bench_cols CUPTI_ACTIVITY_KIND_RUNTIME "${call_cols[@]}")
 $(bench_cols CUPTI_ACTIVITY_KIND_KERNEL start end correlationId globalPid)
 $(bench_cols CUPTI_ACTIVITY_KIND_MEMCPY start end bytes correlationId globalPid)
 $(bench_cols CUPTI_ACTIVITY_KIND_MEMSET start end bytes correlationId globalPid)"

# ---- measuring ------------------------------------------------------------------------------------


# ref_timed COMMAND...: the reference under the limit: "seconds MiB", "killed -" when a run
# was killed at the limit, "failed -", or "none -" when there is no reference to run
ref_timed() {
	[[ -n $nsys ]] || { echo "none -"; return; }
	local rc=0
	"$measure" "$ref_runs" timeout "$limit" "$nsys" "$@" 2>/dev/null || rc=$?
	((rc == 0)) || { ((rc == 124)) && echo "killed -" || echo "failed -"; }
}

wanted() { local w=${1%% *}; [[ -z $cases || " $cases " == *" ${w%:} "* ]]; }

# row LABEL DB FLOOR_SQL REF STATS_ARGS...: one table row, when NSTATS_BENCH_CASES wants LABEL's
# first word; REF "addition" for nstats's own reports, which the reference does not have, or
# "same" for a variant of nstats alone (run with NSTATS_ENV in its environment)
row() {
	local label=$1 db=$2 floor=$3 ref=$4
	shift 4
	wanted "$label" || return 0
	local ns nm rs rm fs _ speed
	read -r ns nm < <(bench_timed "$runs" env ${NSTATS_ENV:-} "$B/nstats" stats -q "$@" "$db")
	read -r fs _ < <(bench_timed "$runs" sqlite3 -readonly "$db" "$floor")
	if [[ $ref == addition ]]; then rs="n/a (nstats addition)" rm=-
	elif [[ $ref == same ]]; then rs="n/a (nstats variant)" rm=-
	else read -r rs rm < <(ref_timed stats -q "$@" "$db"); fi
	speed=$(bench_ratio "$rs" "$ns")
	case $rs in
	killed) rs="> $limit s, did not finish"; speed="> $(bench_ratio "$limit" "$ns")" ;;
	none) rs="not run" ;;
	failed) rs="failed" ;;
	esac
	echo "| $label | $ns | $nm | $rs | $rm | $fs | $speed | $(bench_ratio "$ns" "$fs") | $(bench_ratio "$nm" "$rm") |"
}

header() {
	echo
	echo "| $1 | nstats s | nstats MiB | nsys s | nsys MiB | floor s | nsys/nstats | nstats/floor | MiB nstats/nsys |"
	echo "|---|---|---|---|---|---|---|---|---|"
}

[[ -z $nsys ]] || ref_note+=", median of $ref_runs runs"
echo "$launches launches; nstats and floor: medians of $runs runs; $ref_note"

if [[ $nvtx_mode != only ]]; then
	db=$work/launches-$launches.sqlite
	make_export "$db" "$launches launches" --nvtx $((launches / 10)) --osrt $((launches / 10))
	header "case ($launches launches)"
	row "default report set" "$db" "$floor_default" ref
	NSTATS_ENV=NSTATS_READ_THREADS=1 row "one-reader: default set, NSTATS_READ_THREADS=1" \
		"$db" "$floor_default" same
	row "cuda_kern_exec_trace -f csv" "$db" "$floor_exec_trace" ref -r cuda_kern_exec_trace -f csv
	row "cuda_gpu_trace -f csv" "$db" "$floor_gpu_trace" ref -r cuda_gpu_trace -f csv
	row "gpu_time_sum" "$db" "$floor_gpu_time" addition -r gpu_time_sum
fi

if [[ $nvtx_mode != 0 ]]; then
	ndb=$work/nvtx-launches-$launches.sqlite
	make_export "$ndb" "$launches launches in about $launches NVTX ranges" --nvtx 0 --osrt 0 --launch-ranges "$launches"
	header "case -f csv ($launches launches, $launches NVTX ranges)"
	row "nvtx_kern_sum" "$ndb" "$floor_nvtx_kern" ref -r nvtx_kern_sum -f csv
	row "nvtx_gpu_proj_sum" "$ndb" "$floor_nvtx_proj" ref -r nvtx_gpu_proj_sum -f csv
	row "nvtx_gpu_proj_trace" "$ndb" "$floor_nvtx_proj" ref -r nvtx_gpu_proj_trace -f csv
	row "cuda_gpu_kern_sum:nvtx-name" "$ndb" "$floor_nvtx_kern" ref -r cuda_gpu_kern_sum:nvtx-name -f csv
fi

# ---- comparisons, and reading a PyTorch trace ----------------------------------------------------

# diff_row LABEL BASELINE_TIME BASELINE_MIB ARGS...: nstats diff ARGS against a baseline measured
# in the same run
diff_row() {
	local label=$1 bs=$2 bm=$3
	shift 3
	wanted "$label" || return 0
	local ds dm
	read -r ds dm < <(bench_timed "$runs" "$B/nstats" diff -q "$@")
	echo "| $label | $ds | $dm | $bs | $bm | $(bench_ratio "$ds" "$bs") | $(bench_ratio "$dm" "$bm") |"
}

if [[ ${NSTATS_BENCH_DIFF:-1} != 0 && $nvtx_mode != only ]]; then
	twin=$work/launches-$launches-slower.sqlite
	trace=$work/launches-$launches-slower.pt.trace.json.gz
	[[ -f $twin && -f $trace ]] || rm -f "$twin" "$trace"
	make_export "$twin" "$launches launches, one kernel 10% slower, 100 dropped" \
		--nvtx $((launches / 10)) --osrt $((launches / 10)) --slow-kernel gemm_tile:10 \
		--drop-launches 100 --kineto "$trace"
	read -r s1 m1 < <(bench_timed "$runs" "$B/nstats" stats -q -r gpu_time_sum,cuda_gpu_kern_sum "$db")
	read -r s2 m2 < <(bench_timed "$runs" "$B/nstats" stats -q -r gpu_time_sum,cuda_gpu_kern_sum "$twin")
	base_s=$(awk -v a="$s1" -v b="$s2" 'BEGIN { printf "%.3f", a + b }')
	base_m=$(awk -v a="$m1" -v b="$m2" 'BEGIN { printf "%.1f", a + b }')
	echo
	echo "| comparison ($launches launches against a twin) | diff s | diff MiB | baseline s | baseline MiB | diff/baseline s | diff/baseline MiB |"
	echo "|---|---|---|---|---|---|---|"
	diff_row "diff: default set (gpu_brief, kern_brief)" "$base_s" "$base_m" "$db" "$twin"
	diff_row "kern_diff -f csv (instances tested)" "$base_s" "$base_m" -r kern_diff -f csv "$db" "$twin"
	diff_row "verdict: --gate 50 (passes)" "$base_s" "$base_m" --gate 50 -r verdict -f csv "$db" "$twin"
	diff_row "launch_diff -f csv" "$base_s" "$base_m" -r launch_diff -f csv "$db" "$twin"
	diff_row "agree -f csv (the twin as its own trace)" "$base_s" "$base_m" -r agree -f csv --names base "$twin" "$trace"
	if wanted "kineto"; then
		read -r ks km < <(bench_timed "$runs" "$B/nstats" stats -q -r cuda_gpu_kern_sum "$trace")
		read -r ps pm < <(bench_timed "$ref_runs" python3 -c 'import gzip, json, sys; json.load(gzip.open(sys.argv[1]))' "$trace")
		echo
		echo "| reading a PyTorch trace ($launches launches, .json.gz) | nstats s | nstats MiB | python3 json.load s | python3 MiB | python/nstats s | nstats/python MiB |"
		echo "|---|---|---|---|---|---|---|"
		echo "| kineto: stats -r cuda_gpu_kern_sum | $ks | $km | $ps | $pm | $(bench_ratio "$ps" "$ks") | $(bench_ratio "$km" "$pm") |"
	fi
fi

# ---- the timeline and the page -------------------------------------------------------------------

# out_row LABEL BASELINE_TIME BASELINE_MIB OUTPUT COMMAND...: nstats COMMAND (which writes OUTPUT)
# against a baseline measured in the same run, with OUTPUT's size
out_row() {
	local label=$1 bs=$2 bm=$3 out=$4
	shift 4
	wanted "$label" || return 0
	local s m
	read -r s m < <(bench_timed "$runs" "$B/nstats" "$@" --force-overwrite -o "$out")
	local mib
	mib=$(awk -v n="$(stat -c %s "$out" 2>/dev/null || echo 0)" 'BEGIN { printf "%.1f", n / 1048576 }')
	echo "| $label | $s | $m | $mib | $bs | $bm | $(bench_ratio "$s" "$bs") | $(bench_ratio "$m" "$bm") |"
}

if [[ ${NSTATS_BENCH_OUTPUTS:-1} != 0 && $nvtx_mode != only ]] &&
	"$B/nstats" export --help >/dev/null 2>&1 && "$B/nstats" report --help >/dev/null 2>&1; then
	read -r ts tm < <(bench_timed "$runs" "$B/nstats" stats -q -r cuda_gpu_trace -f csv "$db" \
		--force-overwrite -o "$work/timeline")
	rm -f "$work/timeline_cuda_gpu_trace.csv"
	read -r rs rm < <(bench_timed "$runs" "$B/nstats" stats -q "$db")
	echo
	echo "| timeline and page ($launches launches) | nstats s | nstats MiB | output MiB | baseline s | baseline MiB | /baseline s | /baseline MiB |"
	echo "|---|---|---|---|---|---|---|---|"
	out_row "perfetto: export --type perfetto (baseline: stats -r cuda_gpu_trace -f csv -o FILE)" "$ts" "$tm" \
		"$work/timeline.perfetto" export --type perfetto "$db"
	out_row "chrome-json: export --type chrome-json (same baseline)" "$ts" "$tm" \
		"$work/timeline.json" export --type chrome-json "$db"
	out_row "report: the HTML page (baseline: stats, the default report set)" "$rs" "$rm" \
		"$work/report.html" report "$db"
fi
