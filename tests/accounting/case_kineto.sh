#!/usr/bin/env bash
# PyTorch profiler (Kineto) traces, the five of shared/data/real: nstats's numbers against
# brute_kineto.py (Python's json and gzip, exact decimals, nothing of nstats): per kernel name
# instances, total, min and max; per API name calls and total; per copy kind and memset count,
# time and bytes; the capture span. A tampered number and a missing row must fail that check.
# Then every report on each trace: the ones the trace has data for (cuda_gpu_kern_sum,
# cuda_gpu_kern_dist, cuda_gpu_trace, cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum, cuda_gpu_sum,
# gpu_time_sum, cuda_api_sum, nvtx_sum) in csv and json exit 0 with rows, or with SKIPPED where
# the trace has no such events; the default set in csv and json exits 0; every other report
# exits 0 with rows or SKIPPED naming the trace. Last, memory follows the events kept: a trace of
# 120 MB of text with few events kept is read in a small, bounded resident size.
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/accounting/lib.sh
source "$HERE/lib.sh"
export NSTATS_SHARED=${NSTATS_SHARED:-$HERE/../../../shared}
BRUTE_PY=$HERE/brute_kineto.py
TRACES=()
if [[ -d $NSTATS_SHARED/data ]]; then
	mapfile -t TRACES < <(find "$NSTATS_SHARED/data/real" -name '*.json.gz' -o -name '*.pt.trace.json' | sort)
	((${#TRACES[@]} == 5)) || fail "expected the 5 traces of shared/data/real, found ${#TRACES[@]}"
else # as the corpus suite: without ../shared the real traces are skipped, the rest runs
	echo "case_kineto: note: no $NSTATS_SHARED/data, the real traces are skipped"
fi
SUMS=cuda_gpu_kern_sum,cuda_api_sum,cuda_gpu_mem_time_sum,cuda_gpu_mem_size_sum,gpu_time_sum

# ---- brute force
i=0
for t in "${TRACES[@]}"; do
	i=$((i + 1))
	checks=$((checks + 1))
	"$NSTATS" stats -q -r "$SUMS" -f csv:mem=B -o "t$i" "$t" 2>/dev/null
	out=$(python3 "$BRUTE_PY" "$t" "t$i" 2>&1) || fail "$out"
	echo "$out" | tail -n 1
done

# the check can fail: one kernel's total 1 ns off; a kernel missing
if ((${#TRACES[@]})); then
	checks=$((checks + 1))
	cp t1_cuda_gpu_kern_sum.csv good.csv
	awk -F, -v OFS=, 'NR == 2 { $2 = $2 + 1 } { print }' good.csv >t1_cuda_gpu_kern_sum.csv
	python3 "$BRUTE_PY" "${TRACES[0]}" t1 >/dev/null 2>&1 && fail "a tampered kernel total passed"
	checks=$((checks + 1))
	sed 3d good.csv >t1_cuda_gpu_kern_sum.csv
	python3 "$BRUTE_PY" "${TRACES[0]}" t1 >/dev/null 2>&1 && fail "a missing kernel row passed"
	cp good.csv t1_cuda_gpu_kern_sum.csv
fi

# ---- every report
# only_skipped TRACE FILE N: FILE holds N lines, each "SKIPPED: TRACE does not contain ..."
only_skipped() {
	local n
	n=$(grep -c -F "SKIPPED: $1 does not contain " "$2")
	[[ $n == "$3" && $(wc -l <"$2") == "$3" ]]
}

# listed TRACE FMT COUNTS: the reports that read what a trace holds (COUNTS: brute_kineto.py
# --counts's line), each with rows, or SKIPPED when the trace has none of its events
listed() {
	local t=$1 fmt=$2 r skipped=0 c
	declare -A n
	read -r _ n[kernels] _ n[copies] _ n[calls] _ n[ranges] <<<"$3"
	n[gpu]=$((n[kernels] + n[copies]))
	declare -A needs=([cuda_gpu_kern_sum]=kernels [cuda_gpu_kern_dist]=kernels [cuda_gpu_trace]=gpu
		[cuda_gpu_mem_time_sum]=copies [cuda_gpu_mem_size_sum]=copies [cuda_gpu_sum]=gpu
		[gpu_time_sum]=kernels [cuda_api_sum]=calls [nvtx_sum]=ranges)
	rm -rf "out.$fmt" && mkdir "out.$fmt"
	checks=$((checks + 1))
	"$NSTATS" stats -q -r "$(IFS=,; echo "${!needs[*]}")" -f "$fmt" -o "out.$fmt/r" "$t" >/dev/null 2>err ||
		{ fail "$t: the listed reports, -f $fmt: exit $?: $(head -c 300 err)"; return; }
	for r in "${!needs[@]}"; do
		c=${n[${needs[$r]}]}
		checks=$((checks + 1))
		if ((c == 0)); then
			skipped=$((skipped + 1))
			[[ ! -e out.$fmt/r_$r.$fmt ]] || fail "$t: $r -f $fmt wrote rows, the trace has no ${needs[$r]}"
		elif [[ ! -s out.$fmt/r_$r.$fmt ]]; then
			fail "$t: $r -f $fmt: no output, the trace has $c ${needs[$r]}"
		elif [[ $fmt == json ]] && ! python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))' \
			"out.$fmt/r_$r.$fmt" 2>/dev/null; then
			fail "$t: $r -f json: not a JSON array of rows"
		elif [[ $fmt == csv ]] && (($(wc -l <"out.$fmt/r_$r.$fmt") < 2)); then
			fail "$t: $r -f csv: no rows"
		fi
	done
	checks=$((checks + 1))
	only_skipped "$t" err "$skipped" || fail "$t: the listed reports, -f $fmt: stderr: $(head -c 300 err)"
}

others=$("$NSTATS" stats --help-reports | sed -n 's/^  \([a-z0-9_]*\) -- .*/\1/p' |
	grep -v -x -E 'cuda_gpu_kern_sum|cuda_gpu_kern_dist|cuda_gpu_trace|cuda_gpu_mem_time_sum|cuda_gpu_mem_size_sum|cuda_gpu_sum|gpu_time_sum|cuda_api_sum|nvtx_sum')
for t in "${TRACES[@]}"; do
	counts=$(python3 "$BRUTE_PY" --counts "$t")
	for fmt in csv json; do
		listed "$t" "$fmt" "$counts"
		checks=$((checks + 1))
		"$NSTATS" stats -q -f "$fmt" "$t" >/dev/null 2>err || fail "$t: the default set, -f $fmt: exit $?"
		grep -q -v -F "SKIPPED: $t does not contain " err && fail "$t: the default set, -f $fmt: $(head -c 300 err)"
	done
	rm -rf others && mkdir others
	checks=$((checks + 1))
	"$NSTATS" stats -q -r "$(paste -sd, <<<"$others")" -f csv -o others/r "$t" >/dev/null 2>err ||
		fail "$t: the other reports: exit $?"
	ran=$(ls others | wc -l)
	only_skipped "$t" err $(($(wc -l <<<"$others") - ran)) ||
		fail "$t: the other reports: $ran wrote rows, the rest must say SKIPPED: $(head -c 300 err)"
done

# ---- memory follows the events kept, not the text: 120 MB of CPU operators with big args and
# 2000 kernels read in under 64 MB
python3 - big.json <<'PY'
import json, sys
with open(sys.argv[1], "w") as f:
    f.write('{"schemaVersion": 1, "traceEvents": [\n')
    pad = "x" * 2000
    for i in range(60000):
        f.write(json.dumps({"ph": "X", "cat": "cpu_op", "name": "aten::op", "pid": 1, "tid": 1,
                            "ts": i * 10, "dur": 5, "args": {"Input Dims": [[i, 3]], "pad": pad}}))
        f.write(",\n")
        if i % 30 == 0:
            f.write(json.dumps({"ph": "X", "cat": "kernel", "name": "k%d" % (i % 7), "pid": 0,
                                "tid": 7, "ts": i * 10 + 1, "dur": 2.5, "args": {"device": 0,
                                "context": 1, "stream": 7, "correlation": i, "registers per thread": 32,
                                "grid": [1, 1, 1], "block": [128, 1, 1]}}))
            f.write(",\n")
    f.write('{}]}\n')
PY
checks=$((checks + 1))
rss=$(/usr/bin/time -f %M "$NSTATS" stats -q -r cuda_gpu_kern_sum -f csv -o big big.json 2>&1 >/dev/null | tail -n 1)
kernels=$(tail -n +2 big_cuda_gpu_kern_sum.csv | awk -F, '{ n += $3 } END { print n }')
[[ $kernels == 2000 ]] || fail "big.json: $kernels kernels, not 2000"
# AddressSanitizer's shadow memory and quarantine are no part of nstats's size
if grep -qa __asan_init "$NSTATS"; then
	echo "big.json: resident size not checked under AddressSanitizer"
else
	((rss < 65536)) || fail "big.json ($(($(stat -c %s big.json) >> 20)) MB): $rss KiB resident, over 64 MiB"
	echo "big.json: $(($(stat -c %s big.json) >> 20)) MB of text read in $((rss >> 10)) MiB"
fi

echo "kineto: $checks checks, $fails failed"
((fails == 0))
