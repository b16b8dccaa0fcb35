#!/usr/bin/env bash
# bench/run.sh [BUILD_DIR]: nstats against nsys 2024.2.3 (when
# ../shared/tools/nsys-oracle can install it) and against the floor, the
# sqlite3 shell scanning the same columns, on a generated export.
# Prints one markdown table: median wall time and peak memory per case,
# and the ratios reference/nstats and nstats/floor.
#   NSTATS_BENCH_LAUNCHES  kernel launches in the export (default 1000000)
#   NSTATS_BENCH_RUNS      runs per nstats/floor case (default 5)
#   NSTATS_BENCH_REF_RUNS  runs per reference case (default 3)
# A second table times the NVTX/GPU reports (nvtx_kern_sum, nvtx_gpu_proj_*,
# nvtx-name) on an export with as many NVTX ranges as kernel launches, all
# around launches on the launching threads (nsysgen --launch-ranges):
#   NSTATS_BENCH_NVTX=0         skips it; =only runs only it
#   NSTATS_BENCH_REF_LIMIT      seconds the reference gets per run there
#                               (default 600); a run past it is shown as
#                               "> LIMIT" (did not finish)
set -euo pipefail
B=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
launches=${NSTATS_BENCH_LAUNCHES:-1000000}
runs=${NSTATS_BENCH_RUNS:-5}
ref_runs=${NSTATS_BENCH_REF_RUNS:-3}
work=$B/bench
mkdir -p "$work"
db=$work/launches-$launches.sqlite
measure=$B/measure

if [[ ${NSTATS_BENCH_NVTX:-1} != only && ! -f $db ]]; then
	echo "bench: generating $db ($launches launches)" >&2
	"$B/nsysgen" -q --seed 1 --kernels "$launches" --memcpy $((launches / 10)) \
		--memset $((launches / 20)) --other-api $((launches / 5)) \
		--processes 2 --threads 4 --devices 2 --streams 4 --kernel-names 40 \
		--nvtx $((launches / 10)) --osrt $((launches / 10)) -o "$db"
fi

nsys=
if [[ -x $root/../shared/tools/nsys-oracle ]]; then
	nsys=$("$root/../shared/tools/nsys-oracle" 2>/dev/null) || nsys=
fi

cols() { # the columns a report set reads from one table, summed by sqlite3
	local table=$1; shift
	local expr="" c
	for c in "$@"; do expr+="${expr:+,}total(\"$c\")"; done
	printf 'SELECT %s FROM %s;' "$expr" "$table"
}
# each floor reads exactly the columns that nstats reads for the case
memops="$(cols CUPTI_ACTIVITY_KIND_MEMCPY start end bytes copyKind) $(cols CUPTI_ACTIVITY_KIND_MEMSET start end bytes)"
nvtx=$(cols NVTX_EVENTS start end eventType textId text globalTid domainId)
osrt=$(cols OSRT_API start end eventClass nameId)
floor_default="$(cols CUPTI_ACTIVITY_KIND_RUNTIME start end nameId eventClass callchainId)
 $(cols CUPTI_ACTIVITY_KIND_KERNEL start end demangledName) $memops $nvtx $osrt"
floor_exec="$(cols CUPTI_ACTIVITY_KIND_RUNTIME start end eventClass globalTid correlationId nameId returnValue callchainId)
 $(cols CUPTI_ACTIVITY_KIND_KERNEL start end globalPid correlationId demangledName deviceId gridX gridY gridZ blockX blockY blockZ)"

row() { # name, runs, command...
	local name=$1 n=$2; shift 2
	local r
	if r=$("$measure" "$n" "$@"); then echo "$name $r"; else echo "$name - -"; fi
}

results=$(
	[[ ${NSTATS_BENCH_NVTX:-1} == only ]] && exit 0
	row "default-nstats" "$runs" "$B/nstats" stats -q "$db"
	row "default-floor" "$runs" sqlite3 -readonly "$db" "$floor_default"
	[[ -n $nsys ]] && row "default-nsys" "$ref_runs" "$nsys" stats -q "$db"
	row "exec_trace-nstats" "$runs" "$B/nstats" stats -q -r cuda_kern_exec_trace -f csv "$db"
	row "exec_trace-floor" "$runs" sqlite3 -readonly "$db" "$floor_exec"
	[[ -n $nsys ]] && row "exec_trace-nsys" "$ref_runs" "$nsys" stats -q -r cuda_kern_exec_trace -f csv "$db"
	true
)

get() { awk -v k="$1" -v f="$2" '$1 == k { print $f }' <<<"$results"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || a == "-" || b == "-" || b == 0) print "-"; else printf "%.1fx", a / b }'; }

[[ ${NSTATS_BENCH_NVTX:-1} == only ]] || {
echo "| case ($launches launches) | nstats s | nstats MiB | nsys s | nsys MiB | floor s | nsys/nstats | nstats/floor | MiB nstats/nsys |"
echo "|---|---|---|---|---|---|---|---|---|"
for c in default exec_trace; do
	ns=$(get "$c-nstats" 2); nm=$(get "$c-nstats" 3)
	rs=$(get "$c-nsys" 2); rm=$(get "$c-nsys" 3)
	fs=$(get "$c-floor" 2)
	label=$c; [[ $c == default ]] && label="default report set"; [[ $c == exec_trace ]] && label="cuda_kern_exec_trace -f csv"
	echo "| $label | ${ns:--} | ${nm:--} | ${rs:--} | ${rm:--} | ${fs:--} | $(ratio "$rs" "$ns") | $(ratio "$ns" "$fs") | $(ratio "$nm" "$rm") |"
done
}

# ---- NVTX ranges around launches ----------------------------------------------------------
[[ ${NSTATS_BENCH_NVTX:-1} == 0 ]] && exit 0
limit=${NSTATS_BENCH_REF_LIMIT:-600}
ndb=$work/nvtx-launches-$launches.sqlite
if [[ ! -f $ndb ]]; then
	echo "bench: generating $ndb ($launches launches, $launches NVTX ranges)" >&2
	"$B/nsysgen" -q --seed 1 --kernels "$launches" --memcpy $((launches / 10)) \
		--memset $((launches / 20)) --other-api $((launches / 5)) \
		--processes 2 --threads 4 --devices 2 --streams 4 --kernel-names 40 \
		--nvtx 0 --osrt 0 --launch-ranges "$launches" -o "$ndb"
fi
ref_row() { # name, runs, command...: the reference under the time limit
	local name=$1 n=$2; shift 2
	local r
	if r=$("$measure" "$n" timeout "$limit" "$@"); then echo "$name $r"; else echo "$name >$limit -"; fi
}
ncases=(nvtx_kern_sum nvtx_gpu_proj_sum nvtx_gpu_proj_trace cuda_gpu_kern_sum:nvtx-name)
nresults=$(
	for c in "${ncases[@]}"; do
		row "$c-nstats" "$runs" "$B/nstats" stats -q -r "$c" -f csv "$ndb"
		[[ -n $nsys ]] && ref_row "$c-nsys" "$ref_runs" "$nsys" stats -q -r "$c" -f csv "$ndb"
	done
	true
)
nget() { awk -v k="$1" -v f="$2" '$1 == k { print $f }' <<<"$nresults"; }
nratio() { [[ $1 == ">"* ]] && { echo "$(ratio "${1#>}" "$2" | sed 's/^/>/')"; return; }; ratio "$1" "$2"; }
echo
echo "| case -f csv ($launches launches, $launches NVTX ranges) | nstats s | nstats MiB | nsys s | nsys MiB | nsys/nstats |"
echo "|---|---|---|---|---|---|"
for c in "${ncases[@]}"; do
	ns=$(nget "$c-nstats" 2); nm=$(nget "$c-nstats" 3)
	rs=$(nget "$c-nsys" 2); rm=$(nget "$c-nsys" 3)
	rs=${rs/>/> }
	echo "| $c | ${ns:--} | ${nm:--} | ${rs:--} | ${rm:--} | $(nratio "${rs// /}" "$ns") |"
done
