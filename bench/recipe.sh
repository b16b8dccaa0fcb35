#!/usr/bin/env bash
# bench/recipe.sh [BUILD_DIR]: `nstats recipe cuda_gpu_kern_sum` over the exports of a generated
# job of RANKS ranks of N kernel launches each, read by one process (-j 1), by two worker processes
# (-j 2), by two MPI ranks (mpirun -n 2, when nstats-mpi and mpirun are there), against what two
# processes can do on this machine at all (two -j 1 runs at once on the two halves), against the obvious
# alternative: one `nstats stats -r cuda_gpu_kern_sum` per export in a shell loop (which gives no
# all-rank medians at all). Prints a markdown table: median wall time, the peak resident memory of
# the largest process of the run, and each time over (the -j 1 time / 2); then the peak of the -j 2
# run's own process (the one that merges), read from /proc while it runs.
# Knobs:
#   NSTATS_BENCH_RANKS      RANKS (default 64)
#   NSTATS_BENCH_LAUNCHES   N (default 1000000)
#   NSTATS_BENCH_RUNS       runs per case (default 3)
# The exports are made once, in BUILD_DIR/bench/ranks-RANKS-N (about 115 MB each at 1M).
set -euo pipefail
B=${1:-build}
ranks=${NSTATS_BENCH_RANKS:-64}
launches=${NSTATS_BENCH_LAUNCHES:-1000000}
runs=${NSTATS_BENCH_RUNS:-3}
nstats=$B/nstats measure=$B/measure
dir=$B/bench/ranks-$ranks-$launches
for x in "$nstats" "$measure" "$B/nsysgen"; do
	[[ -x $x ]] || { echo "bench: $x: build it first (make all $measure)" >&2; exit 2; }
done

# the job: one export per rank, the same program on each (nsysgen --ranks when it has it)
make_job() {
	mkdir -p "$dir"
	local r rank_opts=() help
	help=$("$B/nsysgen" --help 2>&1 || true)
	for ((r = 0; r < ranks; r++)); do
		local f=$dir/rank$(printf '%04d' "$r").sqlite
		[[ -s $f ]] && continue
		# one program on every rank; without --ranks, a seed of its own
		rank_opts=(--seed $((1000 + r)))
		[[ $help == *--ranks* ]] && rank_opts=(--seed 1000 --ranks "$ranks" --rank "$r")
		echo "bench: making $f" >&2
		"$B/nsysgen" -q "${rank_opts[@]}" --processes 1 --devices 1 \
			--streams 4 --kernels "$launches" --kernel-names 40 --memcpy 0 --memset 0 \
			--other-api 0 --nvtx 0 --osrt 0 -o "$f.tmp" >/dev/null
		mv "$f.tmp" "$f"
	done
}

row() { # row NAME COMMAND...: median seconds and peak MiB of the largest process
	local name=$1 out
	shift
	out=$("$measure" "$runs" "$@") || { printf '| %s | failed | | |\n' "$name"; return; }
	read -r secs mib <<<"$out"
	printf '| %s | %s | %s | %s |\n' "$name" "$secs" "$mib" \
		"$(awk -v s="$secs" -v h="$half" 'BEGIN { printf "%.2f", s / h }')"
}

# the peak resident memory of the process that merges and of its largest worker, polled while the
# -j 2 run goes: "MERGER_MIB WORKER_MIB"
peaks() {
	"$nstats" recipe cuda_gpu_kern_sum -q -f csv -j 2 "$dir" >/dev/null &
	local pid=$! merger=0 worker=0 v c
	while kill -0 "$pid" 2>/dev/null; do
		v=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
		[[ -n $v ]] && ((v > merger)) && merger=$v
		for c in $(cat "/proc/$pid/task/$pid/children" 2>/dev/null || true); do
			v=$(awk '/^VmHWM/ { print $2 }' "/proc/$c/status" 2>/dev/null || true)
			[[ -n $v ]] && ((v > worker)) && worker=$v
		done
		sleep 0.05
	done
	wait "$pid"
	echo $((merger / 1024)) $((worker / 1024))
}

make_job
one=$("$measure" "$runs" "$nstats" recipe cuda_gpu_kern_sum -q -f csv -j 1 "$dir")
read -r one_s one_mib <<<"$one"
half=$(awk -v s="$one_s" 'BEGIN { print s / 2 }')
echo "recipe cuda_gpu_kern_sum over $ranks exports of $launches launches ($(du -sh "$dir" | cut -f1)),"
echo "median of $runs runs, $(nproc) cores, $(date -u +%Y-%m-%d)"
echo
echo "| case | s | peak MiB (largest process) | s / (-j 1 s / 2) |"
echo "|---|---|---|---|"
printf '| -j 1 | %s | %s | %s |\n' "$one_s" "$one_mib" "2.00"
row "-j 2" "$nstats" recipe cuda_gpu_kern_sum -q -f csv -j 2 "$dir"
# what two processes get out of this machine: two -j 1 runs at once, each on half of the inputs,
# nothing merged (on a VM whose two cores are not two full cores, this is the ceiling of -j 2)
mapfile -t all < <(ls "$dir"/*.sqlite)
printf '%s\n' "${all[@]:0:${#all[@]}/2}" >"$dir.first"
printf '%s\n' "${all[@]:${#all[@]}/2}" >"$dir.second"
row "two -j 1 at once, halves, no merge" bash -c '"$0" recipe cuda_gpu_kern_sum -q -f csv -j 1 "@$1" &
	"$0" recipe cuda_gpu_kern_sum -q -f csv -j 1 "@$2"; wait' "$nstats" "$dir.first" "$dir.second"
if [[ -x $B/nstats-mpi ]] && command -v mpirun >/dev/null; then
	row "mpirun -n 2" mpirun --oversubscribe --allow-run-as-root -n 2 "$nstats" recipe \
		cuda_gpu_kern_sum -q -f csv "$dir"
else
	echo "| mpirun -n 2 | not built | | |"
fi
row "stats per export, shell loop" bash -c 'for f in "$1"/*.sqlite; do "$0" stats -q -r cuda_gpu_kern_sum -f csv "$f"; done' "$nstats" "$dir"
echo
read -r merger worker <<<"$(peaks)"
one_input=$("$measure" "$runs" "$nstats" stats -q -r cuda_gpu_kern_sum -f csv "$dir/rank0000.sqlite")
echo "the -j 2 run's peaks: the merging process $merger MiB, the largest worker $worker MiB;"
echo "stats -r cuda_gpu_kern_sum on one input: $one_input (s, MiB)"
