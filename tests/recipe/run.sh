#!/usr/bin/env bash
# tests/recipe/run.sh BUILD_DIR: `nstats recipe` against brute force. Makes two jobs with
# BUILD_DIR/nsysgen in a scratch folder:
#  - a 4-rank training job (one export per rank, MPI_RANKS in each): 6 steps of compute and NCCL
#    collectives, rank 1 twice as slow in steps 2 and 4, half of every NCCL kernel hidden behind
#    compute, and the ordinary content of nsysgen before them (about 2900 kernels in all);
#  - a mixed job: an MPI export of two processes (MPI_RANKS 0 and 1) and an export without
#    MPI_RANKS, whose ranks are therefore renumbered in input order;
# and, when the shared data is there (../shared beside the repository, or $NSTATS_SHARED), takes
# every export of shared/data/{real,captured} as one job of one rank each;
# runs BUILD_DIR/nstats recipe NAME -f csv -o DIR on each for every recipe below and checks every
# table with tests/recipe/brute.py (SQLite and nothing of nstats). Also checks that -j 1 and -j 3
# write the same bytes, and where nstats-mpi is built that mpirun -n 2 and -n 3 write those of -j 1.
# A recipe that `nstats recipe --help-recipes` does not list is skipped with a
# SKIP line (RECIPE_STRICT=1: it fails). Prints `recipe: N passed, M failed`; exits 1 on a failure.
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
(($# == 1)) || { echo "usage: tests/recipe/run.sh BUILD_DIR" >&2; exit 2; }
B=$(cd "$1" && pwd)
NSTATS=$B/nstats NSYSGEN=$B/nsysgen
export LC_ALL=C.UTF-8
passed=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }

# ---- the jobs -----------------------------------------------------------------------------------
mkdir -p "$tmp/train" "$tmp/mixed"
gen_ok=1
for r in 0 1 2 3; do
	"$NSYSGEN" -q --force --seed 11 --kernels 600 --ranks 4 --rank "$r" --iterations 6 \
		--slow-rank 1:2 --slow-iterations 2,4 --nccl-overlap 50 -o "$tmp/train/rank$r.sqlite" || gen_ok=0
done
"$NSYSGEN" -q --force --seed 12 --kernels 400 --processes 2 --mpi 60 --backtrace -o "$tmp/mixed/a-mpi.sqlite" || gen_ok=0
"$NSYSGEN" -q --force --seed 13 --kernels 300 --processes 1 -o "$tmp/mixed/b-plain.sqlite" || gen_ok=0
((gen_ok)) || { fail "nsysgen could not make the jobs"; echo "recipe: $passed passed, $failed failed"; exit 1; }
train=("$tmp"/train/rank{0,1,2,3}.sqlite)
mixed=("$tmp/mixed/a-mpi.sqlite" "$tmp/mixed/b-plain.sqlite")

# The generator's own promises (the known answers), from the exports alone.
if out=$(python3 "$HERE/known_answers.py" --ranks 4 --slow-rank 1:2 --slow-iterations 2,4 --nccl-overlap 50 \
	"${train[@]}" 2>&1); then
	pass
else
	fail "known answers of the training job"
	printf '%s\n' "$out" | head -n 20 | sed 's/^/    /'
fi

# ---- nstats recipe against brute force -----------------------------------------------------------
"$NSTATS" recipe --help-recipes >"$tmp/help.txt" 2>&1
if ! grep -q 'cuda_gpu_kern_sum' "$tmp/help.txt"; then
	fail "this nstats has no recipe command (nstats recipe --help-recipes):"
	head -n 3 "$tmp/help.txt" | sed 's/^/    /'
	echo "recipe: $passed passed, $failed failed"
	exit 1
fi

n=0 skipped=0
listed() { # listed RECIPE[:ARGS]: whether this nstats has the recipe; says SKIP (or fails) when not
	local name=${1%%:*}
	grep -Eq "^  $name -- " "$tmp/help.txt" && return 0
	if [[ ${RECIPE_STRICT:-0} != 0 ]]; then
		fail "nstats recipe has no $name"
	else
		echo "SKIP $1: not in this nstats (nstats recipe --help-recipes)"
		skipped=$((skipped + 1))
	fi
	return 1
}

check() { # check JOB RECIPE [--ranks MODE] INPUT...: nstats recipe on the inputs, then brute.py on its csv
	local job=$1 spec=$2 rc=0 ranks=()
	shift 2
	if [[ $1 == --ranks ]]; then
		ranks=(--ranks "$2")
		job="$job --ranks $2"
		shift 2
	fi
	listed "$spec" || return
	n=$((n + 1))
	local dir=$tmp/out$n
	timeout 300 "$NSTATS" recipe "$spec" "${ranks[@]}" -f csv -o "$dir" "$@" >"$tmp/stdout" 2>"$tmp/stderr" || rc=$?
	if ((rc != 0)); then
		fail "$job: nstats recipe $spec exited $rc"
		head -n 5 "$tmp/stderr" | sed 's/^/    /'
		return
	fi
	if python3 "$HERE/brute.py" "${ranks[@]}" "$spec" "$dir" "$@" >"$tmp/diff" 2>"$tmp/brute-stderr"; then
		pass
	else
		fail "$job: nstats recipe $spec disagrees with brute force"
		cat "$tmp/brute-stderr" "$tmp/diff" | head -n 20 | sed 's/^/    /'
	fi
}

for spec in cuda_gpu_kern_sum cuda_gpu_kern_sum:base cuda_gpu_kern_sum:mangled cuda_api_sum \
	cuda_gpu_mem_time_sum nvtx_sum nccl_sum mpi_sum nccl_overlap stragglers stragglers:iteration=step \
	gpu_time_util gpu_time_util:buckets=16 gpu_time_util:buckets=2000; do
	check train "$spec" "${train[@]}"
done
for spec in cuda_gpu_kern_sum cuda_api_sum cuda_gpu_mem_time_sum nvtx_sum nccl_sum mpi_sum gpu_time_util:buckets=10; do
	check mixed "$spec" "${mixed[@]}"
done

for spec in cuda_gpu_kern_sum nvtx_sum; do
	check mixed "$spec" --ranks input "${mixed[@]}"
done
# --ranks process: a process is a rank when it has rows the recipe reads
for spec in cuda_gpu_kern_sum cuda_api_sum nvtx_sum mpi_sum nccl_sum stragglers nccl_overlap gpu_time_util; do
	check mixed "$spec" --ranks process "${mixed[@]}" "${train[0]}"
done
# The mixed job's inputs have sessions that start at different UTC instants: stragglers compares
# starts on UTC.
for spec in stragglers nccl_overlap; do
	check mixed "$spec" "${mixed[@]}"
done
# The training job with its inputs out of rank order: the Rank column is still MPI_RANKS's, and
# "the lowest rank" of a tie is the first in input order (rank 2 here).
shuffled=("${train[2]}" "${train[0]}" "${train[3]}" "${train[1]}")
for spec in stragglers stragglers:iteration=step nccl_sum; do
	check shuffled "$spec" "${shuffled[@]}"
done

ROOT=$(cd "$HERE/../.." && pwd)
DATA=${NSTATS_SHARED:-$ROOT/../shared}/data
if [[ -d $DATA/real ]]; then
	mapfile -t real < <(find "$DATA/real" "$DATA/captured" -name '*.sqlite' | sort)
	for spec in cuda_gpu_kern_sum cuda_gpu_kern_sum:base cuda_api_sum cuda_gpu_mem_time_sum nvtx_sum nccl_sum \
		mpi_sum gpu_time_util; do
		check real "$spec" "${real[@]}"
	done
	# some of them have kernels without a globalPid: one process of no known id
	for spec in cuda_gpu_kern_sum mpi_sum stragglers nccl_overlap; do
		check real "$spec" --ranks process "${real[@]}"
	done
fi

same() { # same WHAT DIR1 DIR2: passes when the two outputs are the same bytes
	if diff -r "$2" "$3" >"$tmp/jdiff" 2>&1; then
		pass
	else
		fail "$1"
		head -n 10 "$tmp/jdiff" | sed 's/^/    /'
	fi
}

# A folder of exports and an @list are the files they name, in name order.
if listed cuda_gpu_kern_sum; then
	printf '%s\n' "# the job" "${train[@]}" "" >"$tmp/list"
	rm -rf "$tmp/files" "$tmp/dir" "$tmp/at"
	"$NSTATS" recipe cuda_gpu_kern_sum -f csv -o "$tmp/files" "${train[@]}" >/dev/null 2>&1
	"$NSTATS" recipe cuda_gpu_kern_sum -f csv -o "$tmp/dir" "$tmp/train" >/dev/null 2>&1
	"$NSTATS" recipe cuda_gpu_kern_sum -f csv -o "$tmp/at" "@$tmp/list" >/dev/null 2>&1
	same "train: a folder as input differs from its files" "$tmp/files" "$tmp/dir"
	same "train: an @list as input differs from its files" "$tmp/files" "$tmp/at"
	# A broken input: one line naming it, exit 3, and the others' tables as without it.
	printf 'not an export\n' >"$tmp/broken.sqlite"
	rm -rf "$tmp/broken"
	rc=0
	"$NSTATS" recipe cuda_gpu_kern_sum -f csv -o "$tmp/broken" "${train[@]:0:2}" "$tmp/broken.sqlite" \
		"${train[@]:2}" >/dev/null 2>"$tmp/broken-stderr" || rc=$?
	if ((rc == 3)) && grep -q 'broken.sqlite' "$tmp/broken-stderr"; then
		pass
	else
		fail "train: a broken input: exit $rc (expected 3), stderr:"
		head -n 5 "$tmp/broken-stderr" | sed 's/^/    /'
	fi
	for t in all rank; do
		same "train: the tables with a broken input differ from those without it ($t)" \
			"$tmp/files/cuda_gpu_kern_sum_$t.csv" "$tmp/broken/cuda_gpu_kern_sum_$t.csv"
	done
fi

# The same output however the inputs are shared out among workers.
for spec in cuda_gpu_kern_sum stragglers:iteration=step nccl_overlap; do
	listed "$spec" || continue
	rm -rf "$tmp/j1" "$tmp/j3"
	if "$NSTATS" recipe "$spec" -j 1 -f csv -o "$tmp/j1" "${train[@]}" >/dev/null 2>&1 &&
		"$NSTATS" recipe "$spec" -j 3 -f csv -o "$tmp/j3" "${train[@]}" >/dev/null 2>&1 &&
		diff -r "$tmp/j1" "$tmp/j3" >"$tmp/jdiff" 2>&1; then
		pass
	else
		fail "train: nstats recipe $spec: -j 1 and -j 3 differ (or failed)"
		head -n 10 "$tmp/jdiff" | sed 's/^/    /'
	fi
done

# -o - is the console, as in stats and export: the same text as without -o, and no directory "-".
if listed gpu_time_util; then
	mkdir -p "$tmp/dash"
	if (cd "$tmp/dash" && "$NSTATS" recipe gpu_time_util -q -o - "${train[@]}" >"$tmp/dash.out" 2>&1) &&
		"$NSTATS" recipe gpu_time_util -q "${train[@]}" >"$tmp/plain.out" 2>&1 &&
		cmp -s "$tmp/dash.out" "$tmp/plain.out" && [[ ! -e $tmp/dash/- ]]; then
		pass
	else
		fail "train: nstats recipe gpu_time_util -o - is not the console (or failed)"
	fi
fi

# Under mpirun (where nstats-mpi is built): the bytes of -j 1.
# Not under AddressSanitizer: LeakSanitizer counts Open MPI's own allocations as leaks (the mpi
# suite, run on the normal build, covers this path whole).
if [[ -x $B/nstats-mpi ]] && grep -qa __asan_init "$B/nstats-mpi"; then
	echo "SKIP mpirun: nstats-mpi is built with AddressSanitizer, whose leak check counts Open MPI's own memory"
elif [[ -x $B/nstats-mpi ]] && command -v mpirun >/dev/null; then
	for spec in cuda_gpu_kern_sum stragglers:iteration=step nccl_overlap; do
		listed "$spec" || continue
		for np in 2 3; do
			rm -rf "$tmp/j1" "$tmp/mpi"
			if "$NSTATS" recipe "$spec" -j 1 -f csv -o "$tmp/j1" "${train[@]}" >/dev/null 2>&1 &&
				OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 300 mpirun --oversubscribe \
					-n "$np" "$NSTATS" recipe "$spec" -f csv -o "$tmp/mpi" "${train[@]}" >"$tmp/mpi-out" 2>&1 &&
				diff -r "$tmp/j1" "$tmp/mpi" >"$tmp/jdiff" 2>&1; then
				pass
			else
				fail "train: mpirun -n $np nstats recipe $spec differs from -j 1 (or failed)"
				cat "$tmp/mpi-out" "$tmp/jdiff" 2>/dev/null | head -n 10 | sed 's/^/    /'
			fi
		done
	done
else
	echo "SKIP mpirun: no $B/nstats-mpi or no mpirun"
fi

((skipped == 0)) || echo "($skipped checks skipped: recipes this nstats does not have yet)"
echo "recipe: $passed passed, $failed failed"
((failed == 0))
