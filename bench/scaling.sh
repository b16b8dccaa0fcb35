#!/usr/bin/env bash
# bench/scaling.sh [BUILD_DIR]: how the default report set's time and memory grow with the
# capture, for nstats, nsys 2024.2.3 and the floor (the sqlite3 shell summing the columns nstats
# reads), on launches exports of each size in NSTATS_SCALING (default "100000 1000000 10000000";
# add 100000000 for 100M: a 16 GB export that takes about 7 minutes to make). Writes
# BUILD_DIR/bench/scaling/scaling.csv, a markdown table on stdout, and docs/scaling.svg (two
# log-log panels, seconds and MiB against launches) through bench/scaling_svg.py.
#
# The exports are bench/run.sh's launches exports (NVTX and OS runtime rows included), but with
# their CUDA tables in the order nsysgen writes them rather than in start order (--start-order
# would sort 134M runtime rows at 100M, longer than making the export): every size is made the
# same way, so the curve compares like with like; bench/run.sh's start-ordered 10M export is
# faster to read by about a fifth.
# Knobs: NSTATS_SCALING, NSTATS_BENCH_RUNS (nstats and floor runs per size, default 3; at 100M
# and above NSTATS_SCALING_BIG_RUNS, default 1), NSTATS_BENCH_SETTLE (idle seconds before each
# nstats and floor run, default 0: bench/lib.sh says why), NSTATS_BENCH_REF=0 (no nsys), NSTATS_SCALING_REF_MAX (the largest size nsys
# is run on, default 10000000: about 160 s there, half an hour a run at 100M),
# NSTATS_BENCH_REF_LIMIT (seconds per nsys run, default 1200).
set -euo pipefail
B=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/lib.sh"
sizes=${NSTATS_SCALING:-100000 1000000 10000000}
runs=${NSTATS_BENCH_RUNS:-3}
ref_max=${NSTATS_SCALING_REF_MAX:-10000000}
limit=${NSTATS_BENCH_REF_LIMIT:-1200}
work=$B/bench/scaling
mkdir -p "$work"
bench_need_measure "$B"
nsys=$(bench_nsys)
csv=$work/scaling.csv

echo "launches,tool,seconds,mib,runs" >"$csv"
echo "| launches | export MB | nstats s | nstats MiB | nsys s | nsys MiB | floor s | floor MiB | nsys/nstats | nstats/floor |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for n in $sizes; do
	db=$work/launches-$n.sqlite
	bench_make_launches "$B" "$db" "$n" --nvtx $((n / 10)) --osrt $((n / 10))
	r=$runs
	((n < 100000000)) || r=${NSTATS_SCALING_BIG_RUNS:-1}
	read -r ns nm < <(bench_timed "$r" "$B/nstats" stats -q "$db")
	read -r fs fm < <(bench_timed "$r" sqlite3 -readonly "$db" "$bench_floor_default")
	rs=- rm=-
	if [[ -n $nsys ]] && ((n <= ref_max)); then
		read -r rs rm < <(bench_timed 1 timeout "$limit" "$nsys" stats -q "$db")
	fi
	echo "$n,nstats,$ns,$nm,$r" >>"$csv"
	echo "$n,floor,$fs,$fm,$r" >>"$csv"
	[[ $rs == - ]] || echo "$n,nsys,$rs,$rm,1" >>"$csv"
	mb=$(awk -v b="$(stat -c %s "$db")" 'BEGIN { printf "%.0f", b / 1e6 }')
	echo "| $n | $mb | $ns | $nm | ${rs/#-/not run} | $rm | $fs | $fm | $(bench_ratio "$rs" "$ns") | $(bench_ratio "$ns" "$fs") |"
done
python3 "$root/bench/scaling_svg.py" "$csv" "$root/docs/scaling.svg"
echo "wrote $csv and docs/scaling.svg" >&2
