#!/usr/bin/env bash
# Tables read from the export's pages (src/db/pages.c, the default) against the same tables read
# through SQLite (NSTATS_READER=sqlite): every report, every rule at its defaults and gap=0, check
# and the Perfetto export, on every export under shared/data and on fixtures with backtraces,
# several processes, every export fault, graphics and unified-memory rows, each export read both
# ways, byte for byte. It must also have read tables from pages at all: a reader that always
# declined would pass the comparisons.
set -uo pipefail
: "${NSTATS:?}" "${NSYSGEN:?}" "${WORK:?}"
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/corpus/lib.sh
source "$HERE/../corpus/lib.sh" # DATA
bad=0 paged=0 compared=0
mapfile -t names < <("$NSTATS" stats --help-reports | awk '/^  [a-z0-9_]+ -- / { print $1 }')
reports=$(IFS=,; echo "${names[*]}")
((${#names[@]} > 30)) || { echo "FAIL only ${#names[@]} reports listed"; exit 1; }

both() { # both NAME ARGS...: nstats ARGS from pages and through SQLite, same stdout and exit
	local name=$1 rc1=0 rc2=0
	shift
	NSTATS_TIMING=1 "$NSTATS" "$@" >"$WORK/pages.out" 2>"$WORK/pages.err" || rc1=$?
	NSTATS_READER=sqlite "$NSTATS" "$@" >"$WORK/sqlite.out" 2>/dev/null || rc2=$?
	grep -q 'from its pages' "$WORK/pages.err" && paged=$((paged + 1))
	compared=$((compared + 1))
	if ((rc1 != rc2)) || ! cmp -s "$WORK/pages.out" "$WORK/sqlite.out"; then
		echo "FAIL $name: nstats $* from pages (exit $rc1) and through SQLite (exit $rc2) differ"
		diff "$WORK/sqlite.out" "$WORK/pages.out" | head -n 6
		bad=1
	fi
}

one_export() { # one_export FILE
	local e=$1 n=${1##*/}
	both "$n" stats -q -r "$reports" -f csv "$e"
	both "$n" analyze -q -f csv "$e"
	both "$n" stats -q -r gpu_gaps:gap=0,gpu_time_util -f csv "$e"
	both "$n" check -f json "$e"
	both "$n" export --type perfetto "$e" -o -
}

small=(--kernels 400 --memcpy 80 --memset 40 --other-api 30 --nvtx 60 --osrt 20)
"$NSYSGEN" --force -o "$WORK/faults.sqlite" "${small[@]}" --processes 3 --streams 3 --overlap \
	--backtrace --dup-gpu-rows 12 --orphan-gpu-rows 6 --stream-overlap 8 --bad-durations 9 \
	--open-ranges 5 --truncated 6 --graph-rows 4 || { echo "FAIL nsysgen faults"; exit 1; }
"$NSYSGEN" --force -o "$WORK/kinds.sqlite" "${small[@]}" --vulkan 20 --opengl 20 --dx12 20 \
	--um 40 --openmp 30 --openacc 30 --wddm 30 --start-order || { echo "FAIL nsysgen kinds"; exit 1; }
one_export "$WORK/faults.sqlite"
one_export "$WORK/kinds.sqlite"
while IFS= read -r -d '' e; do
	one_export "$e"
done < <(find "$DATA" -name '*.sqlite' -print0 | sort -z)
echo "pages: $compared runs compared, $paged of them read tables from pages"
((paged * 2 > compared)) || { echo "FAIL most runs read no table from pages ($paged of $compared)"; bad=1; }
exit $bad
