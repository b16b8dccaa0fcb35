#!/usr/bin/env bash
# tests/valgrind/run.sh BUILD_DIR: BUILD_DIR/nstats under valgrind (memcheck, leaks included) on
# BUILD_DIR/example.sqlite (`make build/example.sqlite`), five exports and a PyTorch profiler
# trace of shared/data, in every format: every report of tests/corpus/reports in one run, every
# rule in another, nstats's own reports in a third, check in text and JSON, `nstats export` in
# both types (and of two inputs at once under --filter-time), `nstats diff` of the example with
# each of the others in csv and column, every recipe over all of them, and `nstats report`'s page
# of each export, of the example against each, and of all as ranks. A
# valgrind error, or a run that does not
# exit 0, fails it. VALGRIND_JOBS runs go at a time (default: the number of cores); each run is a
# process of its own and shares nothing with the others. Ends with
# `valgrind: N exports x 7 formats, check, diff and recipes, clean`, or `valgrind: FAILED`.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DATA=${NSTATS_SHARED:-$ROOT/../shared}/data
FORMATS=(column table csv tsv json hdoc htable)

# one EXPORT ARGS...: nstats ARGS EXPORT under valgrind; prints what went wrong, if anything, and
# fails then
one() {
	local e=$1 rc=0 log
	shift
	log=$(mktemp)
	valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=99 \
		"$NSTATS" "$@" "$e" >/dev/null 2>"$log" || rc=$?
	if ((rc == 99)); then
		# one message, printed whole, so that parallel runs do not interleave their lines
		printf 'valgrind: errors in nstats %s %s:\n%s\n' "$1" "${e#"$DATA/"}" "$(head -n 40 "$log")"
	elif ((rc != 0)); then
		printf 'valgrind: nstats %s %s exited %d:\n%s\n' "$1" "${e#"$DATA/"}" "$rc" "$(head -n 5 "$log")"
	fi
	rm -f "$log"
	return $((rc != 0))
}

if [[ ${1:-} == --one ]]; then
	# from xargs: NSTATS, then one line of runs (below): the export and the arguments
	NSTATS=$2
	IFS=$'\t' read -r -a args <<<"$3"
	one "${args[0]}" "${args[@]:1}"
	exit
fi

(($# == 1)) || { echo "usage: tests/valgrind/run.sh BUILD_DIR" >&2; exit 2; }
B=$(cd "$1" && pwd)
NSTATS=$B/nstats
command -v valgrind >/dev/null || { echo "valgrind: not installed (tools/install-deps.sh)" >&2; exit 1; }
[[ -f $B/example.sqlite ]] || { echo "valgrind: no $B/example.sqlite (make $1/example.sqlite)" >&2; exit 1; }
list=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$ROOT/tests/corpus/reports")
reports=$(grep -v '^rule:' <<<"$list" | paste -sd, -)
rules=$(sed -n 's/^rule://p' <<<"$list" | paste -sd, -)
# nstats's own reports, as --help-reports marks them
additions=$("$NSTATS" stats --help-reports | awk '/\(nstats addition\)$/ { print $1 }' | paste -sd, -)
exports=("$B/example.sqlite")
for e in real/trixi-gpu__TrixiCUDA.jl/profile/report1.sqlite \
	real/hpcgroup__pipit/pipit/tests/data/saxpy-mpi-cuda_nsys_perlmutter0.sqlite \
	real/MohanadOdema__DLProf/nsys_profile.sqlite \
	real/GindaChen__nsys-ai/tests/fixtures/mfu_2gpu_before.sqlite \
	captured/nvtx_small.sqlite \
	real/facebookresearch__HolisticTraceAnalysis/tests/data/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz; do
	[[ -f $DATA/$e ]] && exports+=("$DATA/$e")
done

diffs=$("$NSTATS" diff --help-reports | awk '/ -- / && $1 != "verdict" { print $1 }' | paste -sd, -)
recipes=$("$NSTATS" recipe --help-recipes | awk '/ -- / { print $1 }')

# every run, one a line: EXPORT <TAB> its arguments, tab-separated; `nstats diff` compares the
# example with each export, in two formats
runs() {
	local e f
	for e in "${exports[@]:1}"; do
		for f in csv column; do
			printf '%s\t%s\n' "$e" "diff	-r	$diffs	-q	-f	$f	$B/example.sqlite"
		done
	done
	# every recipe over all the exports, each process a rank, read here; once by two workers
	local others r
	others=$(printf '%s\t' "${exports[@]:1}")
	for r in $recipes; do
		printf '%s\t%s\n' "$B/example.sqlite" "recipe	$r	-q	-f	csv	-j	1	--ranks	process	$others"
	done
	printf '%s\t%s\n' "$B/example.sqlite" "recipe	cuda_gpu_kern_sum	-q	-f	column	-j	2	$others"
	# the page of all of them as ranks, and of each (below) alone and against the example
	printf '%s\t%s\n' "$B/example.sqlite" "report	-o	/dev/null	$others"
	for e in "${exports[@]}"; do
		for f in "${FORMATS[@]}"; do
			printf '%s\t%s\n' "$e" "stats	-r	$reports	-q	-f	$f" \
				"$e" "analyze	-r	$rules	-q	-f	$f" \
				"$e" "stats	-r	$additions	-q	-f	$f"
		done
		printf '%s\t%s\n' "$e" "export	-q	-t	perfetto	-o	/dev/null" \
			"$e" "export	-q	-t	chrome-json	-o	/dev/null"
		printf '%s\t%s\n' "$e" check "$e" "check	-f	json" "$e" "report	-o	/dev/null"
		[[ $e == "$B/example.sqlite" ]] ||
			printf '%s\t%s\n' "$e" "report	-o	/dev/null	$B/example.sqlite"
	done
	if ((${#exports[@]} > 1)); then
		printf '%s\t%s\n' "$B/example.sqlite" "export	-q	-t	perfetto	--filter-time	110ms/	-o	/dev/null	${exports[1]}"
	fi
}

jobs=${VALGRIND_JOBS:-$(nproc 2>/dev/null || echo 2)}
bad=0
runs | tr '\n' '\0' | xargs -0 -n 1 -P "$jobs" "$0" --one "$NSTATS" || bad=1
((bad == 0)) || { echo "valgrind: FAILED"; exit 1; }
echo "valgrind: ${#exports[@]} exports x ${#FORMATS[@]} formats, check, diff and recipes, clean"
