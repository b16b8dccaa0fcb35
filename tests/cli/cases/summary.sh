# `nstats summary` (one screen for a person) and rows=N of the summary reports. Numbers on the
# page are checked against the reports it names (`nstats stats -f csv`, tests/cli/summary_check.py)
# and sqlite3; widths are counted in characters (the ellipsis is one).

summary_gen() { "${NSYSGEN:-$(dirname "$NSTATS")/nsysgen}" "$@" >/dev/null || fail "nsysgen $* failed"; }
# s.sqlite: one process, one GPU, 6 kernels, 15 kinds of transfers, NVTX ranges
summary_export() {
	summary_gen -q --seed 5 --processes 1 --devices 1 --threads 1 --kernels 40 --kernel-names 6 \
		--memcpy 20 --memset 2 --other-api 8 --nvtx 12 --osrt 0 -o "$WORK/s.sqlite"
}
# widest: the most characters of a line of stdout
widest() { python3 -c 'import sys; print(max(len(l.rstrip("\n")) for l in sys.stdin))' <<<"$OUT"; }
# section_rows TITLE_PREFIX: the rows of that table on stdout (less its title and header)
section_rows() { awk -v t="$1" 'index($0, t) == 1 { on = 1; n = 0; next } /^$/ { on = 0 } on && n++' <<<"$OUT"; }
# names_distinct TITLE_PREFIX: the names (last column, after two spaces) of a table are distinct
names_distinct() {
	local names
	names=$(section_rows "$1" | sed -E 's/^.*[0-9]  //')
	[[ -n $names ]] || fail "no rows under '$1'"
	[[ $(sort <<<"$names" | uniq -d) == "" ]] || fail "names under '$1' collide: $(sort <<<"$names" | uniq -d)"
}
# check_page PAGE_ARGS... : every number of the page, in ns, against the reports' csv
check_page() {
	local top=$1 export=$2 r
	mkdir -p "$WORK/csv"
	for r in gpu_time_sum cuda_gpu_kern_dist:rows=$top cuda_gpu_mem_time_sum cuda_gpu_mem_size_sum \
		cuda_api_sum:rows=$top nvtx_sum:rows=$top; do
		"$NSTATS" stats -q -f csv -r "$r" "$WORK/$export" >"$WORK/csv/${r%%:*}.csv" || fail "stats -r $r failed"
	done
	printf '%s\n' "$OUT" >"$WORK/page"
	python3 "$(dirname "${BASH_SOURCE[0]}")/../summary_check.py" "$WORK/page" "$WORK/csv" ||
		fail "the page's numbers differ from the reports'"
}

test_summary_page_exact() {
	summary_export
	COLUMNS='' run summary --top 3 --color never s.sqlite
	rc_is 0; err_is ""
	out_is "s.sqlite
  Nsight Systems 2024.2.3.38, export schema 3.11.0
  Capture 119.067 ms, 1 process: ./stencil_mpi (pid 1230698)

GPUs: busy time of the capture (gpu_time_sum)
  Busy (ms)  Busy (%)  Idle (ms)  Overlap (ns)  Gaps  Device
     12.826      10.8    106.241             0    47  0

Top 3 kernels by total time (cuda_gpu_kern_dist)
  Total (us)  Busy (%)  Count  P50 (us)  P90 (us)  P99 (us)  Name
     900.479       7.0      9    85.991   235.450   235.450  void gemm_tile<(int…t *, int, int, int)
     117.021       0.9      3    37.688    41.675    41.675  ncclDevKernel_SendR…nsigned long)4096>)
      97.344       0.8      8    12.160    12.256    12.256  void reduce_sum<(in…e *, unsigned long)

  P50: nearest-rank median (nsys's Med is the mean of the two middle values)

Memory transfers (cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum)
  Count  Bytes (MB)  Time (ms)  Operation
      4     216.777     10.404  [CUDA memcpy Host-to-Device]
      1      16.777      0.840  [CUDA memcpy Unknown]
      3       2.101      0.179  [CUDA memcpy Device-to-Host]
      2     100.000      0.069  [CUDA memcpy Device-to-Device]
      1       1.049      0.054  [CUDA memcpy Host-to-Array]
      1      16.777      0.043  [CUDA memcpy Array-to-Device]
      1       4.194      0.029  [CUDA memcpy Peer-to-Peer]
      1       0.066      0.010  [CUDA memcpy Host-to-Host]
      1       0.061      0.008  [CUDA memcpy Unified Device-to-Host]
      2       4.198      0.005  [CUDA memset]
      1       0.004      0.002  [CUDA memcpy Unified Device-to-Device]
      1       0.004      0.002  [CUDA memcpy Unified Host-to-Device]
      1       0.000      0.001  [CUDA memcpy Array-to-Array]
      1       0.000      0.001  [CUDA memcpy Array-to-Host]
      1       0.000      0.001  [CUDA memcpy Device-to-Array]

Top 3 CUDA API functions by time (cuda_api_sum)
  Total (ms)  Time (%)  Calls  Mean (ms)  Name
       5.320      71.5      4      1.330  cudaMemcpy
       1.404      18.9      1      1.404  cudaMemcpyToSymbol
       0.209       2.8     40      0.005  cudaLaunchKernel

Top 3 NVTX ranges by time (nvtx_sum)
  Total (ms)  Time (%)  Count  Mean (ms)  Range
      22.406      59.1      3      7.469  MPI:MPI_Irecv
       7.276      19.2      2      3.638  checkpoint, save
       7.270      19.2      1      7.270  async prefetch

Findings (nstats check): nothing found"
}

test_summary_numbers_are_the_reports() {
	summary_export
	run summary --top 4 --timeunit nsec --width 300 s.sqlite
	rc_is 0; err_is ""
	check_page 4 s.sqlite
	# the capture line against the export itself
	local dur procs
	dur=$(sqlite3 "$WORK/s.sqlite" 'SELECT duration FROM ANALYSIS_DETAILS')
	procs=$(sqlite3 "$WORK/s.sqlite" 'SELECT count(*) FROM PROCESSES')
	[[ $(sed -n 3p <<<"$OUT") == "  Capture $dur ns, $procs process: "* ]] || fail "capture line: $(sed -n 3p <<<"$OUT")"
}

test_summary_capture_info() {
	summary_export
	run stats -q -f csv -r capture_info s.sqlite
	rc_is 0; err_is ""
	local q="SELECT 'Export Schema,' || value FROM META_DATA_EXPORT WHERE name = 'EXPORT_SCHEMA_VERSION';
		SELECT 'Nsight Systems Version,' || value FROM META_DATA_EXPORT WHERE name = 'EXPORT_PRODUCT_VERSION';
		SELECT 'Capture Start (ns),' || startTime FROM ANALYSIS_DETAILS;
		SELECT 'Capture End (ns),' || stopTime FROM ANALYSIS_DETAILS;
		SELECT 'Capture Duration (ns),' || duration FROM ANALYSIS_DETAILS;
		SELECT 'Process,' || name || ' (pid ' || pid || ')' FROM PROCESSES ORDER BY rowid;"
	out_is "Property,Value
$(sqlite3 "$WORK/s.sqlite" "$q")"
	run stats --help-reports capture_info; rc_is 0; out_has "capture_info -- Capture Information (nstats addition)"
}

test_summary_width() {
	summary_export
	local w
	for w in 40 57 80 100 133; do
		run summary --width "$w" s.sqlite; rc_is 0; err_is ""
		[[ $(widest) -le $w ]] || fail "--width $w: a line of $(widest) characters"
		names_distinct "Top 10 kernels"
		names_distinct "Memory transfers"
		names_distinct "Top 10 CUDA API"
	done
	# the memcpy kinds share their first 13 characters and many of their last: at 40 they still differ
	run summary --width 40 s.sqlite
	[[ $(section_rows "Memory transfers" | wc -l) == 15 ]] || fail "not 15 transfer kinds at width 40"
	COLUMNS=64 run summary s.sqlite; rc_is 0
	[[ $(widest) == 64 ]] || fail "COLUMNS=64: widest line $(widest)"
	COLUMNS='' run summary s.sqlite; rc_is 0
	[[ $(widest) == 100 ]] || fail "no COLUMNS, no terminal: widest line $(widest), expected 100"
	run summary --width 39 s.sqlite; rc_is 2; out_is ""
	err_is "nstats: error: summary: --width: expected an integer from 40 to 4000, found '39'"
}

test_summary_terminal() {
	command -v script >/dev/null || { echo "note: summary_terminal: no script(1), the terminal is not checked"; return; }
	summary_export
	local out
	# on a terminal: its width and colour, unless NO_COLOR
	out=$(cd "$WORK" && env -u COLUMNS -u NO_COLOR script -qec "stty cols 61; '$NSTATS' summary s.sqlite" /dev/null)
	[[ $out == *$'\033[1ms.sqlite\033[0m'* ]] || fail "no bold title on a terminal"
	out=$(cd "$WORK" && env -u COLUMNS NO_COLOR=1 script -qec "stty cols 61; '$NSTATS' summary s.sqlite" /dev/null)
	[[ $out != *$'\033'* ]] || fail "colour with NO_COLOR set"
	OUT=${out//$'\r'/}
	[[ $(widest) == 61 ]] || fail "a 61-column terminal: widest line $(widest)"
	out=$(cd "$WORK" && env -u COLUMNS script -qec "'$NSTATS' summary --color never s.sqlite" /dev/null)
	[[ $out != *$'\033'* ]] || fail "colour with --color never"
}

test_summary_color() {
	summary_export
	run summary s.sqlite; rc_is 0
	[[ $OUT != *$'\033'* ]] || fail "colour in a pipe"
	run summary --color always s.sqlite; rc_is 0
	[[ $OUT == *$'\033[1mTop 10 kernels by total time (cuda_gpu_kern_dist)\033[0m'* ]] || fail "no bold title with --color always"
	[[ $OUT == *$'\033[2m  Total (us)'* ]] || fail "no faint header with --color always"
	NO_COLOR=1 run summary --color always s.sqlite; rc_is 0
	[[ $OUT == *$'\033['* ]] || fail "--color always loses to NO_COLOR"
	NO_COLOR=1 run summary --color never s.sqlite
	[[ $OUT != *$'\033'* ]] || fail "colour with --color never"
	run summary --color sometimes s.sqlite; rc_is 2; out_is ""
	err_is "nstats: error: summary: --color: expected auto, always or never, found 'sometimes'"
}

test_summary_top() {
	summary_export
	run summary --top 2 s.sqlite; rc_is 0
	[[ $(section_rows "Top 2 kernels" | wc -l) == 2 ]] || fail "not 2 kernels"
	[[ $(section_rows "Top 2 CUDA API" | wc -l) == 2 ]] || fail "not 2 API functions"
	[[ $(section_rows "Top 2 NVTX" | wc -l) == 2 ]] || fail "not 2 NVTX ranges"
	# more than there are: all of them (6 kernels)
	run summary --top 50 s.sqlite; rc_is 0
	[[ $(section_rows "Top 50 kernels" | wc -l) == $(sqlite3 "$WORK/s.sqlite" \
		'SELECT count(DISTINCT demangledName) FROM CUPTI_ACTIVITY_KIND_KERNEL') ]] || fail "not every kernel"
	run summary --top 0 s.sqlite; rc_is 2; out_is ""
	err_is "nstats: error: summary: --top: expected an integer from 1 to 1000, found '0'"
	run summary --timeunit fortnights s.sqlite; rc_is 2; out_is ""
	err_is "nstats: error: summary: --timeunit: unknown unit 'fortnights' (auto, nsec, usec, msec or seconds)"
}

test_summary_empty_sections() {
	# ex.sqlite has no NVTX ranges
	run summary ex.sqlite; rc_is 0; err_is ""
	out_has $'\nTop 10 NVTX ranges by time (nvtx_sum): none in this export\n'
	# an export without GPU work: every GPU section says so in one line
	summary_gen -q --seed 3 --processes 1 --kernels 0 --memcpy 0 --memset 0 --other-api 3 --nvtx 4 \
		--osrt 0 -o "$WORK/cpu.sqlite"
	run summary cpu.sqlite; rc_is 0; err_is ""
	out_has $'\nGPUs: busy time of the capture (gpu_time_sum): none in this export\n'
	out_has $'\nTop 10 kernels by total time (cuda_gpu_kern_dist): none in this export\n'
	out_has $'\nMemory transfers (cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum): none in this export\n'
}

test_summary_findings() {
	summary_gen -q --seed 2 --processes 1 --kernels 30 --memcpy 4 --memset 0 --other-api 2 --nvtx 0 \
		--osrt 0 --dup-gpu-rows 2 -o "$WORK/dup.sqlite"
	run check -f json dup.sqlite; rc_is 0
	local n
	n=$(python3 -c 'import json, sys; print([f["count"] for f in json.load(sys.stdin)["findings"] if f["name"] == "duplicate_gpu_rows"][0])' <<<"$OUT")
	run summary --width 200 dup.sqlite; rc_is 0; err_is ""
	out_has $'\nFindings (nstats check)\n'
	out_has $'\n  ! duplicate_gpu_rows: '"$n "
}

test_summary_errors() {
	run summary; rc_is 2; out_is ""; [[ $ERR == "usage: nstats summary"* ]] || fail "no usage on stderr"
	run summary --bogus ex.sqlite; rc_is 2; out_is ""; err_line "^nstats: error: .*--bogus"
	run summary missing.sqlite; rc_is 3; out_is ""; err_line "^nstats: error: missing\.sqlite: "
	# one bad export of two: the good one is summarized, the status tells about the bad one
	run summary ex.sqlite missing.sqlite; rc_is 3; out_has "Top 10 kernels"; err_line "^nstats: error: missing\.sqlite: "
	run summary --help; rc_is 0; err_is ""; out_has "usage: nstats summary [OPTION...] EXPORT..."
	out_has "--timeunit auto|nsec|usec|msec|seconds"
	run --help; rc_is 0; out_has "summary"
}

test_summary_kineto() {
	summary_gen -q --seed 4 --processes 1 --kernels 30 --memcpy 6 --memset 2 --other-api 4 --nvtx 10 \
		--osrt 0 -o "$WORK/k.sqlite" --kineto "$WORK/k.json"
	run summary --top 5 --timeunit nsec --width 300 k.json; rc_is 0; err_is ""
	out_has $'k.json\n'
	check_page 5 k.json
	local real=$SHARED/data/real/facebookresearch__HolisticTraceAnalysis/tests/data/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz
	if [[ -f $real ]]; then
		cp "$real" "$WORK/hta.json.gz"
		run summary --timeunit nsec --width 400 hta.json.gz; rc_is 0; err_is ""
		check_page 10 hta.json.gz
	else
		echo "note: summary_kineto: $SHARED absent, the real PyTorch trace is skipped"
	fi
}

test_summary_real_export() {
	local real=$SHARED/data/real/GindaChen__nsys-ai/tests/fixtures/mfu_2gpu_before.sqlite
	[[ -f $real ]] || { echo "note: summary_real_export: $SHARED absent, skipped"; return; }
	ln -s "$real" "$WORK/mfu.sqlite"
	run summary --timeunit nsec --width 1000 mfu.sqlite; rc_is 0; err_is ""
	check_page 10 mfu.sqlite
	COLUMNS='' run summary mfu.sqlite; rc_is 0; err_is ""
	[[ $(widest) -le 100 ]] || fail "a line of $(widest) characters"
	[[ $(wc -l <<<"$OUT") -le 70 ]] || fail "$(wc -l <<<"$OUT") lines: not one screen"
	names_distinct "Top 10 kernels"
	local w
	for w in 40 60 80; do
		run summary --width "$w" mfu.sqlite; rc_is 0
		[[ $(widest) -le $w ]] || fail "--width $w: a line of $(widest) characters"
		names_distinct "Top 10 kernels"
	done
	out_has "  ! orphan_gpu_rows: "
}

# ---- rows=N ----------------------------------------------------------------------------------

test_rows_first_n_rows() {
	local r full
	for r in cuda_gpu_kern_sum cuda_api_sum cuda_gpu_mem_time_sum cuda_gpu_kern_dist gpu_time_sum; do
		run stats -q -f csv -r "$r" ex.sqlite; rc_is 0; full=$OUT
		[[ $(wc -l <<<"$full") -ge 3 ]] || fail "$r: too few rows to cut"
		run stats -q -f csv -r "$r:rows=3" ex.sqlite; rc_is 0; err_is ""
		[[ $OUT == "$(head -n 4 <<<"$full")" ]] || fail "$r:rows=3 is not the first 3 rows"
		run stats -q -f csv -r "$r:rows=1000" ex.sqlite; rc_is 0
		[[ $OUT == "$full" ]] || fail "$r:rows=1000 is not the whole report"
	done
	run stats -q -f column -r cuda_gpu_kern_sum:rows=2 ex.sqlite; rc_is 0
	[[ $(grep -c '^ *[0-9]' <<<"$OUT") == 2 ]] || fail "column: not 2 rows"
	run stats --help-reports cuda_gpu_kern_sum; rc_is 0
	out_has "rows=N keeps the first N rows, in the report's order (nstats addition)."
	out_has "Arguments: nvtx-name base mangled rows"
}

test_rows_bad_values() {
	local v
	for v in 0 -1 x 1.5 ''; do
		run stats -q -f csv -r "cuda_gpu_kern_sum:rows=$v" ex.sqlite; rc_is 2; out_is ""
		err_is "nstats: error: report 'cuda_gpu_kern_sum': argument rows: expected a positive integer, found '$v'"
	done
	run stats -q -f csv -r cuda_gpu_kern_sum:rows ex.sqlite; rc_is 2; out_is ""
	err_is "nstats: error: report 'cuda_gpu_kern_sum': argument rows: expected one argument"
	# a trace report takes no rows=
	run stats -q -f csv -r cuda_gpu_trace:rows=3 ex.sqlite; rc_is 2; out_is ""; err_line "^nstats: error: .*'rows'"
}
