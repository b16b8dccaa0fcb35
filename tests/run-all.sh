#!/usr/bin/env bash
# tests/run-all.sh BUILD_DIR [SUITE...]: test suites against BUILD_DIR's binaries; by default all
# of them: unit (the cmocka binaries in BUILD_DIR/tests), cli, golden, corpus, accounting, hostile,
# install, diff, recipe, mpi, export, report.
# The suites are independent (each works in a scratch folder of its own), so TEST_JOBS of them
# (default: the number of cores) run at a time. Each suite's output is kept apart and printed
# whole once it is done, in the order of the list, under a line that says when it started and how
# long it took; the last line counts suites: `N passed, M failed`. Exit status 1 when one failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
(($# >= 1)) || { echo "usage: tests/run-all.sh BUILD_DIR [SUITE...]" >&2; exit 2; }
b=$1
shift
order=("$@")
((${#order[@]})) || order=(unit cli golden corpus accounting hostile install diff recipe mpi export report)
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
((jobs >= 1)) || jobs=1

# suite_cmd NAME: the command that runs a suite, one word a line
suite_cmd() {
	case $1 in
	unit) echo "$here/run-unit.sh"; (shopt -s nullglob; for f in "$b"/tests/test_*; do echo "$f"; done) ;;
	cli) printf '%s\n' "$here/cli/run.sh" "$b/nstats" ;;
	golden) printf '%s\n' "$here/golden/run.sh" "$b/nstats" "$b/nsysgen" ;;
	corpus) printf '%s\n' "$here/corpus/run.sh" "$b/nstats" ;;
	accounting) printf '%s\n' "$here/accounting/run.sh" "$b" ;;
	hostile) printf '%s\n' "$here/hostile/run.sh" "$b" ;;
	install) printf '%s\n' "$here/install/run.sh" "$b" ;;
	diff) printf '%s\n' "$here/diff/run.sh" "$b" ;;
	recipe) printf '%s\n' "$here/recipe/run.sh" "$b" ;;
	mpi) printf '%s\n' "$here/recipe/mpi.sh" "$b" ;;
	export) printf '%s\n' "$here/export/run.sh" "$b" ;;
	report) printf '%s\n' "$here/report/run.sh" "$b" ;;
	*) return 1 ;;
	esac
}
declare -A seen=()
for name in "${order[@]}"; do
	suite_cmd "$name" >/dev/null || { echo "run-all: no suite '$name'" >&2; exit 2; }
	[[ -z ${seen[$name]:-} ]] || { echo "run-all: '$name' is named twice" >&2; exit 2; }
	seen[$name]=1
done

# The longest suites start first, so that the short ones fill the other lanes while they run
# (measured: corpus the most in make test, accounting in make sanitize, unit the least); printing
# keeps the list's order.
rank() { case $1 in corpus) echo 1 ;; accounting) echo 2 ;; golden) echo 3 ;; cli) echo 4 ;; diff) echo 5 ;; hostile) echo 6 ;; *) echo 9 ;; esac; }
mapfile -t start_order < <(for name in "${order[@]}"; do echo "$(rank "$name") $name"; done | sort -n -s -k1,1 | cut -d' ' -f2)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/nstats-run-all.XXXXXX")
declare -A pid_of=()
cleanup() {
	local p
	for p in "${pid_of[@]}"; do kill -- "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# Each suite says on this pipe that it has ended (a line is written at once, whole); bash's
# `wait -n` would miss a suite that ended before it was called.
mkfifo "$tmp/ended"
exec 3<>"$tmp/ended"

# launch NAME: runs the suite in the background, its output in tmp/NAME.log; tmp/NAME.time gets
# its start (HH:MM:SS, and in seconds) and its duration, tmp/NAME.rc its exit status
launch() {
	local name=$1
	local -a cmd
	mapfile -t cmd < <(suite_cmd "$name")
	(
		start=$(date +%s)
		echo "$(date +%H:%M:%S) $start" >"$tmp/$name.time"
		"${cmd[@]}" </dev/null >"$tmp/$name.log" 2>&1 3>&-
		rc=$?
		echo "$(($(date +%s) - start))" >>"$tmp/$name.time"
		echo "$rc" >"$tmp/$name.rc"
		echo "$name" >&3
	) &
	pid_of[$name]=$!
}

passed=0 failed=0 failing=() next=0 printed=0
# print_done: prints, in the list's order, every suite that has finished and has no unprinted
# suite before it
print_done() {
	local name rc started secs
	while ((printed < ${#order[@]})); do
		name=${order[printed]}
		[[ -f $tmp/$name.rc ]] || return 0
		read -r rc <"$tmp/$name.rc"
		{ read -r started _; read -r secs; } <"$tmp/$name.time"
		printf '== %s (started %s, took %dm%02ds)\n' "$name" "$started" $((secs / 60)) $((secs % 60))
		cat "$tmp/$name.log"
		if ((rc == 0)); then passed=$((passed + 1)); else failed=$((failed + 1)) failing+=("$name"); fi
		printed=$((printed + 1))
	done
}

running=0
while ((next < ${#start_order[@]} || running > 0)); do
	while ((running < jobs && next < ${#start_order[@]})); do
		launch "${start_order[next]}"
		next=$((next + 1)) running=$((running + 1))
	done
	read -r ended <&3
	wait "${pid_of[$ended]}" 2>/dev/null # its status is in tmp/NAME.rc
	unset "pid_of[$ended]"
	running=$((running - 1))
	print_done
done
print_done
echo "$passed passed, $failed failed${failing[*]:+ (${failing[*]})}"
((failed == 0))
