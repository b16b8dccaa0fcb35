#!/usr/bin/env bash
# gpu_gaps two ways (src/rules/gpu_gaps.c): where a report has loaded the GPU operations that
# gpu_time_sum measures (a page's GPU section) and they are the kernels, memcpys and memsets alone,
# the rule finds its gaps in them; otherwise, as `nstats analyze` runs it alone, in its own
# grouping (rules/gpu_busy.c). On each fixture the page's gaps (every one: --top 1000) must be the
# rows of `analyze -r gpu_gaps:gap=0:rows=1000`, as tests/report/check_numbers.py compares every
# table of a page with its report's csv. The fixtures: processes, devices, overlapping streams,
# zero durations, duplicated rows; every kernel twice, on a second device with the same times
# (its gaps tie two by two: the order of tied ones must hold); a kernel's copy that ends 1 ns
# before they both start (an end before its start sends the rule its own way, for the shared
# order, by start then end, would find a gap of 1 ns after it); two globalPids of one pid (the
# rule groups by pid).
set -uo pipefail
: "${NSTATS:?}" "${NSYSGEN:?}" "${WORK:?}"
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bad=0

both() { # both NAME: $WORK/NAME.sqlite, made already
	local name=$1 f=$WORK/$1.sqlite rows
	rows=$("$NSTATS" analyze -q -r gpu_gaps:gap=0:rows=1000 -f csv "$f" | wc -l)
	((rows > 4)) || { echo "FAIL $name: $rows lines of gaps, the fixture has too few"; bad=1; }
	"$NSTATS" report --top 1000 --force-overwrite -o "$WORK/$name.html" "$f" 2>"$WORK/$name.err"
	local rc=$?
	if ((rc != 0)); then
		echo "FAIL $name: nstats report exited $rc: $(head -c 300 "$WORK/$name.err")"
		bad=1
	elif ! python3 "$HERE/../report/check_numbers.py" "$NSTATS" "$WORK/$name.html" "$f" \
		>"$WORK/$name.numbers"; then
		echo "FAIL $name: the page's numbers differ from the reports'"
		grep -v ' 0 differ$' "$WORK/$name.numbers" | head -10
		bad=1
	fi
}

gen() { # gen NAME NSYSGEN-OPTIONS...
	local name=$1
	shift
	"$NSYSGEN" --force -q -o "$WORK/$name.sqlite" --nvtx 0 --osrt 0 "$@" ||
		{ echo "nsysgen failed: $name"; bad=1; return 1; }
}

rewrite() { # rewrite NAME SQL
	sqlite3 "$WORK/$1.sqlite" "$2" || { echo "FAIL $1: sqlite3 could not rewrite it"; bad=1; return 1; }
}

gen plain --kernels 400 --memcpy 60 --memset 20 && both plain
gen procs --processes 3 --devices 2 --streams 3 --kernels 500 --memcpy 40 && both procs
gen overlap --processes 2 --devices 1 --streams 4 --overlap --kernels 500 && both overlap
gen zero --kernels 300 --zero-durations 40 --memcpy 30 && both zero
gen dups --kernels 300 --dup-gpu-rows 30 --stream-overlap 20 --streams 3 && both dups
gen twin --processes 1 --devices 1 --kernels 300 --memcpy 0 --memset 0 &&
	rewrite twin "CREATE TEMP TABLE k AS SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL;
		UPDATE k SET deviceId = deviceId + 1; INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT * FROM k" &&
	both twin
gen badtie --processes 1 --devices 1 --streams 1 --kernels 200 --memcpy 0 --memset 0 &&
	rewrite badtie "CREATE TEMP TABLE k AS SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL
		ORDER BY start LIMIT 1 OFFSET 100; UPDATE k SET end = start - 1;
		INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT * FROM k" &&
	both badtie
gen samepid --processes 1 --devices 1 --streams 2 --kernels 300 --memcpy 0 --memset 0 &&
	rewrite samepid "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET globalPid = globalPid + (1 << 48)
		WHERE rowid % 2 = 0" &&
	both samepid
exit $bad
