#!/usr/bin/env bash
# tests/fuzz/run.sh BUILD NSYSGEN SECONDS FUZZER...: seeds each harness's
# corpus (once, in BUILD/corpus/NAME) and runs it for SECONDS. A crash,
# leak or sanitizer report leaves its input in BUILD/crashes and fails.
set -euo pipefail
b=$(mkdir -p "$1" && cd "$1" && pwd) gen=$2 secs=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$b/crashes"
"$here/seeds.sh" "$b/corpus" "$gen"
fail=0
for f in "$@"; do
	echo "fuzz_$f: ${secs}s"
	log="$b/fuzz_$f.log"
	# the export and trace harnesses need inputs bigger than libFuzzer's default 4 KB; the trace
	# harness has a dictionary of the traces' keys and categories; pages reads exports as export
	# does, and replays export's regressions
	max=4096 dict=() regress=$here/regress/$f
	[[ $f == export || $f == kineto || $f == pages ]] && max=1048576
	[[ $f == pages ]] && regress=$here/regress/export
	[[ -f $here/$f.dict ]] && dict=(-dict="$here/$f.dict")
	if ! timeout $((secs + 120)) "$b/fuzz_$f" -max_total_time="$secs" -max_len="$max" "${dict[@]}" \
		-rss_limit_mb=4096 -timeout=30 -close_fd_mask=2 -print_final_stats=1 \
		-artifact_prefix="$b/crashes/${f}-" "$b/corpus/$f" "$regress" >"$log" 2>&1; then
		echo "fuzz_$f: FAILED (see $log, inputs in $b/crashes)"
		grep -m 20 -E 'ERROR|SUMMARY|runtime error|Test unit written' "$log" || tail -n 20 "$log"
		fail=1
	else
		grep -E 'stat::number_of_executed_units|stat::peak_rss_mb' "$log" | tr '\n' ' '
		echo
	fi
done
exit $fail
