#!/usr/bin/env bash
# tests/cli/run.sh NSTATS: command-line behaviour, each test checking stdout, stderr and the exit
# status apart. The export comes from nsysgen beside NSTATS (build/nsysgen). Expectations follow
# nsys stats where it has the behaviour (file naming, tuples, SKIPPED lines), nstats's documented
# behaviour otherwise (exit codes, `nstats: error: ...` messages).
# Prints `cli: N passed, M failed`.
set -uo pipefail

NSTATS='' WORK='' OUT='' ERR='' RC=0 CUR=''
SHARED=${NSTATS_SHARED:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/../shared}
declare -i PASSED=0 FAILED=0 BAD=0

# ---- assertions: each failed one prints a line; a test passes when none failed -----------------

fail() { echo "FAIL $CUR: $*"; BAD+=1; }
# run ARGS...: NSTATS ARGS in WORK; sets OUT, ERR and RC
run() {
	(cd "$WORK" && "$NSTATS" "$@") >"$WORK/.out" 2>"$WORK/.err"
	RC=$?
	OUT=$(<"$WORK/.out") ERR=$(<"$WORK/.err")
}
rc_is() { [[ $RC == "$1" ]] || fail "exit status $RC, expected $1 (stderr: ${ERR:0:200})"; }
out_is() { [[ $OUT == "$1" ]] || fail "stdout is '${OUT:0:300}', expected '$1'"; }
err_is() { [[ $ERR == "$1" ]] || fail "stderr is '${ERR:0:300}', expected '$1'"; }
out_has() { [[ $OUT == *"$1"* ]] || fail "stdout lacks '$1': '${OUT:0:300}'"; }
# err_line REGEX: stderr is exactly one line, matching REGEX (extended)
err_line() {
	[[ $ERR != *$'\n'* && $ERR =~ $1 ]] || fail "stderr is '${ERR:0:300}', expected one line matching /$1/"
}
# file_is FILE CONSOLE: FILE holds what CONSOLE (a report's csv on the console) holds, less the
# empty line that nsys prints after each report on the console only
file_is() {
	[[ -f $WORK/$1 ]] || { fail "$1 was not written"; return; }
	sed '$ { /^$/ d; }' "$2" | cmp -s "$WORK/$1" - || fail "$1 differs from what the console got"
}
no_file() { [[ ! -e $WORK/$1 ]] || fail "$1 should not have been written"; }

t() { # t NAME: runs test_NAME in a fresh folder holding ex.sqlite
	CUR=$1 BAD=0
	rm -rf "$WORK/t" && mkdir "$WORK/t" && ln "$WORK/ex.sqlite" "$WORK/t/ex.sqlite"
	local saved=$WORK
	WORK=$WORK/t
	"test_$1"
	WORK=$saved
	if ((BAD)); then FAILED+=1; else PASSED+=1; fi
}

# ---- the tests ------------------------------------------------------------------------------------

test_help() {
	run --help; rc_is 0; err_is ""; out_has "usage: nstats COMMAND"; out_has "stats"
	run stats --help; rc_is 0; err_is ""; out_has "usage: nstats stats"
	local o
	for o in --report --format --output --force-overwrite --quiet --strict --timeunit; do out_has "$o"; done
}
test_version() {
	run --version; rc_is 0; err_is ""
	[[ $OUT =~ ^nstats\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "version line is '$OUT'"
}
test_no_arguments() { run; rc_is 2; out_is ""; [[ $ERR == usage:* ]] || fail "no usage on stderr: '${ERR:0:100}'"; }
test_unknown_command() { run frobnicate; rc_is 2; out_is ""; err_line "^nstats: error: .*frobnicate"; }
test_unknown_option() { run stats --bogus ex.sqlite; rc_is 2; out_is ""; err_line "^nstats: error: .*--bogus"; }
test_missing_option_value() { run stats ex.sqlite -r; rc_is 2; out_is ""; err_line "^nstats: error: .*-r"; }
test_unknown_report() { run stats -r nosuch ex.sqlite; rc_is 2; out_is ""; err_line "^nstats: error: .*'nosuch'"; }
test_bad_report_argument() {
	run stats -r cuda_api_sum:bogus ex.sqlite; rc_is 2; out_is ""; err_line "^nstats: error: .*'bogus'"
}
test_bad_format() { run stats -r cuda_api_sum -f nosuch ex.sqlite; rc_is 2; out_is ""; err_line "^nstats: error: .*'nosuch'"; }
test_bad_timeunit() { run stats -r cuda_api_sum --timeunit lightyears ex.sqlite; rc_is 2; out_is ""; err_line "^nstats: error: .*lightyears"; }

test_missing_file() { run stats -r cuda_api_sum missing.sqlite; rc_is 3; out_is ""; err_line "^nstats: error: missing\.sqlite: "; }
test_not_a_database() {
	echo "hello, not a database" >"$WORK/text.sqlite"
	run stats -r cuda_api_sum text.sqlite; rc_is 3; out_is ""; err_line "^nstats: error: text\.sqlite: "
}
test_empty_file() { : >"$WORK/empty.sqlite"; run stats -r cuda_api_sum empty.sqlite; rc_is 3; out_is ""; err_line "^nstats: error: empty\.sqlite: "; }
test_directory() { mkdir "$WORK/dir.sqlite"; run stats -r cuda_api_sum dir.sqlite; rc_is 3; out_is ""; err_line "^nstats: error: dir\.sqlite: "; }
test_one_bad_export_of_two() {
	# the good export is still reported; the exit status tells about the bad one
	run stats -q -r cuda_api_sum -f csv ex.sqlite missing.sqlite
	rc_is 3; out_has "Time (%),Total Time (ns)"; err_line "^nstats: error: missing\.sqlite: "
}

test_skipped() {
	# as nsys: SKIPPED on stdout and exit 0 ...
	run stats -r nvtx_sum ex.sqlite
	rc_is 0; err_is ""; out_has $'\nSKIPPED: ex.sqlite does not contain NV Tools Extension (NVTX) data.'
	# ... but with -q on stderr, alone (D13: nsys says nothing at all)
	run stats -q -r nvtx_sum ex.sqlite
	rc_is 0; out_is ""; err_is "SKIPPED: ex.sqlite does not contain NV Tools Extension (NVTX) data."
	run stats -q --strict -r nvtx_sum ex.sqlite
	rc_is 5; out_is ""; err_is "SKIPPED: ex.sqlite does not contain NV Tools Extension (NVTX) data."
	run stats -q --strict -r cuda_api_sum ex.sqlite; rc_is 0
	# a skipped report leaves no file (D13)
	run stats -q -r nvtx_sum -o . ex.sqlite; rc_is 0; no_file ex_nvtx_sum.csv
}
test_processing_line() {
	# without -q each report is announced; nstats names the report as given (D14)
	run stats -r cuda_gpu_kern_sum:base -f csv ex.sqlite
	rc_is 0; err_is ""
	[[ ${OUT%%$'\n'*} == "Processing [ex.sqlite] with [cuda_gpu_kern_sum:base]... " ]] ||
		fail "first line is '${OUT%%$'\n'*}'"
}
# the default set runs the graphics reports in nsys's order: each says why it skipped, none is
# "not implemented"
test_default_set_graphics() {
	run stats -f csv ex.sqlite
	rc_is 0
	local skipped
	skipped=$(grep -E '^SKIPPED: ex\.sqlite does not contain .*(KHR|Vulkan|DX1)' <<<"$OUT")
	[[ $skipped == "SKIPPED: ex.sqlite does not contain KHR Extension (KHR_DEBUG) data.
SKIPPED: ex.sqlite does not contain GPU KHR Extension (KHR_DEBUG) data.
SKIPPED: ex.sqlite does not contain Vulkan Debug Extension (Vulkan Debug Util) data.
SKIPPED: ex.sqlite does not contain GPU Vulkan Debug Extension (GPU Vulkan Debug markers) data.
SKIPPED: ex.sqlite does not contain DX11 CPU debug markers.
SKIPPED: ex.sqlite does not contain DX12 GPU debug markers.
SKIPPED: ex.sqlite does not contain DX12 CPU debug markers." ]] || fail "graphics SKIPPED lines: '${skipped:0:600}'"
	! grep -qE '(opengl|vulkan|dx1).* not implemented' <<<"$ERR" ||
		fail "a graphics report is noted as not implemented: '${ERR:0:300}'"
}
# odd graphics ranges (tests/cli/graphics-edge.sql) print what nsys 2024.2.3 printed for them
test_graphics_edge_cases() {
	if ! command -v sqlite3 >/dev/null; then echo "cli: note: no sqlite3 shell, graphics edge cases not run"; return; fi
	cp "$WORK/ex.sqlite" "$WORK/edge.sqlite"
	sqlite3 "$WORK/edge.sqlite" <"$(dirname "${BASH_SOURCE[0]}")/graphics-edge.sql" || { fail "graphics-edge.sql"; return; }
	run stats -q -r dx11_pix_sum -f csv edge.sqlite; rc_is 0; err_is ""
	out_is "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Range
466.7,280,2,140.0,140.0,90,190,70.7,frame
150.0,90,1,90.0,90.0,90,90,0.0,frame"
	run stats -q -r opengl_khr_range_sum -f column edge.sqlite; rc_is 0; err_is ""
	out_is "
 ** OpenGL KHR_debug Range Summary (opengl_khr_range_sum):

 Time (%)  Total Time (ns)  Instances  Avg (ns)  Med (ns)  Min (ns)  Max (ns)  StdDev (ns)  Range
 --------  ---------------  ---------  --------  --------  --------  --------  -----------  -----
    100.0              310          2     155.0     155.0        10       300        205.1  frame
      3.2               10          1      10.0      10.0        10        10          0.0       
      3.2               10          1      10.0      10.0        10        10          0.0      9
      3.2               10          1      10.0      10.0        10        10          0.0    100
      3.2               10          1      10.0      10.0        10        10          0.0     10
      3.2               10          1      10.0      10.0        10        10          0.0     ZZ"
	run stats -q -r opengl_khr_gpu_range_sum -f csv edge.sqlite; rc_is 0; err_is ""
	out_is "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Range
100.0,300,1,300.0,300.0,300,300,0.0,shadow pass"
}
test_bad_format_argument() {
	# D10: nsys ignores it silently
	run stats -r cuda_api_sum -f csv:bogus ex.sqlite; rc_is 2; out_is ""; err_line "^nstats: error: .*bogus"
}

test_output_dot() {
	run stats -q -r cuda_api_sum -f csv ex.sqlite; rc_is 0; cp "$WORK/.out" "$WORK/console.csv"
	run stats -q -r cuda_api_sum -f csv -o . ex.sqlite
	rc_is 0; out_is ""; err_is ""; file_is ex_cuda_api_sum.csv "$WORK/console.csv"
}
test_output_base_with_args() {
	run stats -q -r cuda_gpu_kern_sum:base -f csv ex.sqlite; rc_is 0; cp "$WORK/.out" "$WORK/console.csv"
	run stats -q -r cuda_gpu_kern_sum:base -f csv -o out ex.sqlite
	rc_is 0; out_is ""; err_is ""; file_is out_cuda_gpu_kern_sum_base.csv "$WORK/console.csv"
}
test_output_default_format_is_csv() {
	run stats -q -r cuda_api_sum -f csv ex.sqlite; cp "$WORK/.out" "$WORK/console.csv"
	run stats -q -r cuda_api_sum -o out ex.sqlite
	rc_is 0; file_is out_cuda_api_sum.csv "$WORK/console.csv"
}
test_refuses_overwrite() {
	run stats -q -r cuda_api_sum -f csv -o . ex.sqlite; rc_is 0
	echo "keep me" >"$WORK/ex_cuda_api_sum.csv"
	touch -d '2001-02-03 04:05:06' "$WORK/ex_cuda_api_sum.csv"
	run stats -q -r cuda_api_sum -f csv -o . ex.sqlite
	rc_is 4; out_is ""; err_line "^nstats: error: .*ex_cuda_api_sum\.csv"
	[[ $(<"$WORK/ex_cuda_api_sum.csv") == "keep me" ]] || fail "the existing file was changed"
	[[ $(stat -c %Y "$WORK/ex_cuda_api_sum.csv") == $(date -d '2001-02-03 04:05:06' +%s) ]] ||
		fail "the existing file's mtime was changed"
	run stats -q -r cuda_api_sum -f csv ex.sqlite; cp "$WORK/.out" "$WORK/console.csv"
	run stats -q -r cuda_api_sum -f csv -o . --force-overwrite ex.sqlite
	rc_is 0; err_is ""; file_is ex_cuda_api_sum.csv "$WORK/console.csv"
}
test_command_output() {
	run stats -q -r cuda_api_sum -f csv ex.sqlite; local want=$OUT
	run stats -q -r cuda_api_sum -f csv -o @cat ex.sqlite
	rc_is 0; err_is ""; out_is "$want"
	# the format of an @command output defaults to csv, as for files
	run stats -q -r cuda_api_sum -o @cat ex.sqlite; rc_is 0; out_is "$want"
}
test_tuples() {
	# -r a -r b -f column,csv -o -,. : a in column on the console, b in csv to ex_b.csv
	run stats -q -r cuda_gpu_kern_sum -f csv ex.sqlite; cp "$WORK/.out" "$WORK/kern.csv"
	run stats -q -r cuda_api_sum -f column ex.sqlite; local api_column=$OUT
	run stats -q -r cuda_api_sum -r cuda_gpu_kern_sum -f column,csv -o -,. ex.sqlite
	rc_is 0; err_is ""; out_is "$api_column"
	file_is ex_cuda_gpu_kern_sum.csv "$WORK/kern.csv"
	no_file ex_cuda_api_sum.csv; no_file ex_cuda_api_sum.column
	# the shorter list repeats its last element: both reports go to files, both in csv
	run stats -q -r cuda_api_sum,cuda_gpu_kern_sum -f csv -o . --force-overwrite ex.sqlite
	rc_is 0; out_is ""; [[ -f $WORK/ex_cuda_api_sum.csv ]] || fail "ex_cuda_api_sum.csv was not written"
}
test_export_untouched() {
	local before after
	before=$(sha256sum <"$WORK/ex.sqlite")$(stat -c %Y.%s "$WORK/ex.sqlite")
	run stats -q -r cuda_api_sum,cuda_gpu_trace,nvtx_sum,osrt_sum -f csv ex.sqlite; rc_is 0
	after=$(sha256sum <"$WORK/ex.sqlite")$(stat -c %Y.%s "$WORK/ex.sqlite")
	[[ $before == "$after" ]] || fail "the export's bytes or mtime changed"
	local extra
	extra=$(cd "$WORK" && ls -A | grep -v -x -e ex.sqlite -e .out -e .err)
	[[ -z $extra ]] || fail "the run left files beside the export: $extra"
}
test_write_error() {
	if [[ ! -w /dev/full ]]; then echo "cli: note: no /dev/full, write_error not checked"; return; fi
	(cd "$WORK" && "$NSTATS" stats -q -r cuda_api_sum -f csv ex.sqlite) >/dev/full 2>"$WORK/.err"
	RC=$? ERR=$(<"$WORK/.err")
	((RC != 0)) || fail "exit status 0 although stdout could not be written"
	[[ -n $ERR ]] || fail "nothing said on stderr about the failed write"
}

# a .nsys-rep stands for the .sqlite beside it when that is at least as new; otherwise, without
# nsys on PATH, the error names the export command to run
test_nsys_rep_uses_sqlite_beside_it() {
	touch -d '2020-01-01' "$WORK/ex.nsys-rep"
	run stats -q -r cuda_api_sum -f csv ex.nsys-rep; rc_is 0; err_is ""; out_has "Num Calls"
}
test_nsys_rep_without_export() {
	: >"$WORK/new.nsys-rep"
	PATH=/nonexistent run stats -q -r cuda_api_sum new.nsys-rep
	rc_is 3; out_is ""
	err_line "^nstats: error: new\.nsys-rep: .*nsys export --type=sqlite --output=new\.sqlite new\.nsys-rep$"
}

# D1 on the real --cudabacktrace export: each of its 5 launches once, one row per API
test_backtrace_rows_are_not_calls() {
	local saxpy=$SHARED/data/real/hpcgroup__pipit/pipit/tests/data/saxpy-mpi-cuda_nsys_perlmutter0.sqlite
	if [[ ! -f $saxpy ]]; then echo "cli: note: no $saxpy, backtrace test not run"; return; fi
	run stats -q -r cuda_kern_exec_trace -f csv "$saxpy"; rc_is 0; err_is ""
	local rows starts
	rows=$(sed '1d;/^$/d' <<<"$OUT" | wc -l)
	starts=$(sed '1d;/^$/d' <<<"$OUT" | cut -d, -f5 | sort -u | wc -l)
	[[ $rows == 5 && $starts == 5 ]] || fail "cuda_kern_exec_trace: $rows rows, $starts kernels; expected 5 and 5"
	run stats -q -r cuda_kern_exec_sum -f csv "$saxpy"; rc_is 0
	[[ $(sed -n 2p <<<"$OUT" | cut -d, -f4,5) == 5,3 ]] || fail "cuda_kern_exec_sum Count,QCount: $(sed -n 2p <<<"$OUT" | cut -d, -f4,5), expected 5,3"
	run stats -q -r cuda_api_sum -f csv "$saxpy"; rc_is 0
	local names dups launches
	names=$(sed '1d;/^$/d' <<<"$OUT" | awk -F, '{ print $NF }')
	dups=$(sort <<<"$names" | uniq -d)
	[[ -z $dups ]] || fail "cuda_api_sum lists these APIs twice: $dups"
	launches=$(awk -F, '$NF == "cudaLaunchKernel" { print $3 }' <<<"$OUT")
	[[ $launches == 5 ]] || fail "cuda_api_sum: cudaLaunchKernel Num Calls $launches, expected 5"
}

# um_sum's rows= as nsys's LIMIT takes it; a value that is not a number is a usage error (D13)
test_um_sum_rows() {
	"$(dirname "$NSTATS")/nsysgen" -q --seed 21 --processes 2 --kernels 4 --memcpy 0 --memset 0 \
		--nvtx 0 --osrt 0 --um 80 -o "$WORK/um.sqlite" >/dev/null || { fail "nsysgen --um failed"; return; }
	local all
	run stats -q -r um_sum:rows=-1 -f csv um.sqlite; rc_is 0; err_is ""
	all=$(sed '1d;/^$/d' <<<"$OUT" | wc -l)
	((all > 10)) || fail "rows=-1 gave $all rows; the export has more than 10 addresses"
	run stats -q -r um_sum -f csv um.sqlite; rc_is 0
	[[ $(sed '1d;/^$/d' <<<"$OUT" | wc -l) == 10 ]] || fail "the default is not 10 rows"
	run stats -q -r um_sum:rows=3 -f csv um.sqlite; rc_is 0
	[[ $(sed '1d;/^$/d' <<<"$OUT" | wc -l) == 3 ]] || fail "rows=3 did not give 3 rows"
	run stats -q -r um_sum:rows=0 -f csv um.sqlite; rc_is 0; out_is ""
	run stats -q -r um_sum:rows=x -f csv um.sqlite
	rc_is 2; out_is ""; err_line "^nstats: error: report 'um_sum': argument rows: invalid int value: 'x'$"
}

# D25: equal totals from two OPENMP_EVENT_KIND_* tables come in table name order, every run
test_openmp_ties_in_table_name_order() {
	command -v sqlite3 >/dev/null || { echo "cli: note: no sqlite3, D25 test not run"; return; }
	cp "$WORK/ex.sqlite" "$WORK/omp.sqlite"
	sqlite3 -batch -bail "$WORK/omp.sqlite" "
		INSERT INTO StringIds VALUES (900001, 'task_b'), (900002, 'parallel_a');
		CREATE TABLE OPENMP_EVENT_KIND_TASK (start INTEGER, end INTEGER, nameId INTEGER);
		CREATE TABLE OPENMP_EVENT_KIND_PARALLEL (start INTEGER, end INTEGER, nameId INTEGER);
		INSERT INTO OPENMP_EVENT_KIND_TASK VALUES (0, 400, 900001);
		INSERT INTO OPENMP_EVENT_KIND_PARALLEL VALUES (0, 400, 900002);" || { fail "sqlite3 failed"; return; }
	local i
	for i in 1 2 3; do
		run stats -q -r openmp_sum -f csv omp.sqlite; rc_is 0
		[[ $(sed '1d;/^$/d' <<<"$OUT" | cut -d, -f9 | tr '\n' ' ') == "parallel_a task_b " ]] ||
			fail "run $i: names in the order $(sed '1d;/^$/d' <<<"$OUT" | cut -d, -f9 | tr '\n' ' ')"
	done
}

# D26: a MEMCPY table without virtualAddress: the migrations count, their address is unknown
test_um_without_virtual_address() {
	command -v sqlite3 >/dev/null || { echo "cli: note: no sqlite3, D26 test not run"; return; }
	"$(dirname "$NSTATS")/nsysgen" -q --seed 24 --processes 1 --kernels 4 --memcpy 0 --memset 0 \
		--nvtx 0 --osrt 0 --um 14 -o "$WORK/um.sqlite" >/dev/null || { fail "nsysgen --um failed"; return; }
	sqlite3 -batch -bail "$WORK/um.sqlite" "ALTER TABLE CUPTI_ACTIVITY_KIND_MEMCPY DROP COLUMN virtualAddress" ||
		{ fail "sqlite3 failed"; return; }
	run stats -q -r um_total_sum -f csv um.sqlite; rc_is 0; err_is ""
	[[ $(sed -n 2p <<<"$OUT") =~ ^[0-9.]+,[0-9.]+,[0-9]+,[0-9]+,,$ ]] ||
		fail "um_total_sum: '$(sed -n 2p <<<"$OUT")', expected both totals and no address range"
	run stats -q -r um_sum -f csv um.sqlite; rc_is 0; err_is ""
	[[ $(sed -n 2p <<<"$OUT") == ,* ]] || fail "um_sum: the first row has an address: '$(sed -n 2p <<<"$OUT")'"
}

# ---- time and NVTX filters ------------------------------------------------------------------------

# nvtx_export: $WORK/nv.sqlite, an export with NVTX ranges on several threads (made once)
nvtx_export() {
	local top=${WORK%/t}
	[[ -f $top/nv.sqlite ]] || "$(dirname "$NSTATS")/nsysgen" -q --seed 9 --processes 1 --threads 3 \
		--kernels 10 --memcpy 20 --memset 2 --nvtx 120 --osrt 150 -o "$top/nv.sqlite" >/dev/null
	ln -f "$top/nv.sqlite" "$WORK/nv.sqlite"
}
test_filter_help() {
	run stats --help; rc_is 0; out_has "--filter-time [START]/[END]"; out_has "--filter-nvtx RANGE[@DOMAIN][/INDEX]"
}
test_filter_time_errors() {
	local arg
	declare -A why=([5]="must contain a slash" [/]="at least one time value"
		[abc/5]="numeric conversion at 'abc'" [.5us/]="numeric conversion at '.5us'"
		[1x/2]="unknown unit at 'x'" [1e1.5/9]="unknown unit at '.5'" [10/20/30]="unknown unit at '/30'"
		[5/3]="start time must be less than or equal to the end time"
		[1ms/2]="start time must be less than or equal to the end time")
	for arg in "${!why[@]}"; do
		run stats -r cuda_api_sum --filter-time "$arg" ex.sqlite; rc_is 2; out_is ""
		err_line "^nstats: error: stats: illegal --filter-time argument '.*': .*${why[$arg]}"
	done
	run stats -r cuda_api_sum ex.sqlite --filter-time; rc_is 2; out_is ""; err_line "^nstats: error: .*--filter-time"
}
test_filter_report_argument_errors() {
	run stats -r cuda_api_sum:start=abc ex.sqlite; rc_is 2; out_is ""
	err_line "^nstats: error: report 'cuda_api_sum': argument start: invalid int value 'abc'$"
	run stats -r cuda_api_sum:end=1s ex.sqlite; rc_is 2; err_line "argument end: invalid int value '1s'$"
	run stats -r cuda_api_sum:nvtx ex.sqlite; rc_is 2; err_line "argument nvtx: expected one argument$"
}
# --filter-time S/E is start=S:end=E for every report, in any unit; a report's own wins
test_filter_time_is_report_arguments() {
	local want
	run stats -q -r cuda_gpu_trace:start=105000000:end=1002003004 -f csv ex.sqlite; rc_is 0; want=$OUT
	[[ $(wc -l <<<"$want") -gt 2 ]] || fail "the window holds no rows: '$want'"
	run stats -q -r cuda_gpu_trace -f csv --filter-time 105ms/1s2ms3us4ns ex.sqlite; rc_is 0; out_is "$want"
	run stats -q -r cuda_gpu_trace -f csv --filter-time 1.05e8/1002003004 ex.sqlite; out_is "$want"
	run stats -q -r cuda_gpu_trace:start=105_000_000:end=1002003004 -f csv --filter-time 0/1 ex.sqlite; out_is "$want"
	run stats -q -r cuda_gpu_trace -f csv --filter-time 0/1 ex.sqlite; rc_is 0; out_is ""
}
test_filter_nvtx_not_found() {
	nvtx_export
	run stats -r osrt_sum --filter-nvtx nosuch nv.sqlite; rc_is 0
	out_has "SKIPPED: NVTX range 'nosuch' could not be found in nv.sqlite."
	run stats --strict -r osrt_sum --filter-nvtx MPI_Allreduce nv.sqlite; rc_is 5
	# the export's lack of the report's tables is said first
	run stats -r osrt_sum --filter-nvtx nosuch ex.sqlite; rc_is 0
	out_has "SKIPPED: ex.sqlite does not contain OS Runtime trace data."
}
# D40: an NVTX range that never ended filters from its start on, with no end (nsys fails)
test_filter_nvtx_open_range() {
	nvtx_export
	cp "$WORK/nv.sqlite" "$WORK/open.sqlite"
	local name='data loader: next batch' open want
	open=$(sqlite3 "$WORK/open.sqlite" "UPDATE NVTX_EVENTS SET end = NULL WHERE rowid = (SELECT rowid
		FROM NVTX_EVENTS WHERE text = '$name' ORDER BY start LIMIT 1); SELECT changes()")
	[[ $open == 1 ]] || fail "no open range made"
	run stats -q -r nvtx_sum -f csv --filter-nvtx "$name" open.sqlite; rc_is 0; err_is ""
	want=$OUT
	[[ $(wc -l <<<"$want") -gt 2 ]] || fail "no ranges in the filter of an open range: '$want'"
	run stats -q -r nvtx_sum:end=9223372036854775807 -f csv --filter-nvtx "$name" open.sqlite
	rc_is 0; out_is "$want"
	run stats -q -r nvtx_sum:end=118000000 -f csv --filter-nvtx "$name" open.sqlite
	[[ $OUT != "$want" ]] || fail "an explicit end does not bound the open range's window"
}

# D16: a domain created on several threads makes nsys fail nvtx_pushpop_trace; nstats prints what nsys
# prints for the same export without the extra DomainCreate rows
test_domain_on_several_threads() {
	local opts="--seed 13 --processes 2 --threads 2 --kernels 20 --memcpy 6 --memset 2 --nvtx 40 --osrt 0"
	local root expected nsysgen=${NSYSGEN:-$(dirname "$NSTATS")/nsysgen}
	root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	# shellcheck disable=SC2086
	"$nsysgen" -q $opts --nvtx-domain-threads -o "$WORK/domains.sqlite" >/dev/null || fail "nsysgen failed"
	local r
	for r in nvtx_pushpop_trace nvtx_kern_sum nvtx_gpu_proj_sum nvtx_gpu_proj_trace; do
		expected=$root/tests/golden/expected/nvtx-domains-plain/$r.csv
		[[ -s $expected ]] || { fail "$expected: no reference output"; continue; }
		run stats -q -r "$r" -f csv domains.sqlite; rc_is 0; err_is ""
		[[ $OUT == "$(cat "$expected")" ]] || fail "$r differs from nsys on the export without the extra domain rows"
	done
}

# network_congestion's ticks_threshold= takes an integer; a valid one runs the report
test_ticks_threshold() {
	local -a bad=()
	for bad in abc 1.5 1e4 ''; do
		run stats -q -r "network_congestion:ticks_threshold=$bad" -f csv ex.sqlite
		rc_is 2; out_is ""; err_line "^nstats: error: .*ticks_threshold.*'$bad'"
	done
	run stats -q -r network_congestion:ticks_threshold=-5:ticks_threshold=20000 -f csv ex.sqlite
	rc_is 0; out_is ""; err_is "SKIPPED: ex.sqlite does not contain NIC or IB switch metrics."
}

# ---- D21: the CUDA graph note of the kernel reports -----------------------------------------------

# CUPTI_ACTIVITY_KIND_GRAPH_TRACE as nsys 2024.2.3 creates it (shared/docs/schema-2024.2.3-full.sql)
GRAPH_TRACE_SQL='CREATE TABLE CUPTI_ACTIVITY_KIND_GRAPH_TRACE (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    deviceId                    INTEGER   NOT NULL,                    -- Device ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    greenContextId              INTEGER,                               -- Green context ID.
    streamId                    INTEGER   NOT NULL,                    -- Stream ID.
    correlationId               INTEGER,                               -- REFERENCES CUPTI_ACTIVITY_KIND_RUNTIME(correlationId)
    globalPid                   INTEGER,                               -- Serialized GlobalId.
    graphId                     INTEGER   NOT NULL,                    -- REFERENCES CUDA_GRAPH_EVENTS(graphId)
    graphExecId                 INTEGER   NOT NULL                     -- REFERENCES CUDA_GRAPH_EVENTS(graphExecId)
);'
KERNEL_REPORTS="cuda_gpu_kern_sum cuda_gpu_kern_gb_sum cuda_gpu_sum cuda_gpu_trace cuda_kern_exec_sum
	cuda_kern_exec_trace nvtx_kern_sum cuda_gpu_kern_launch_trace"

# with_graphs SRC DST: DST is SRC with graph launches beside some of its kernels, of long and
# different durations (their sum needs grouping)
with_graphs() {
	cp "$WORK/$1" "$WORK/$2"
	sqlite3 "$WORK/$2" "$GRAPH_TRACE_SQL
		INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE SELECT start + 100, start + 100 + rowid * 1234567,
			deviceId, contextId, NULL, streamId, correlationId + 100000, globalPid, rowid, rowid
		FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid % 4 = 3;" || fail "cannot add graph rows"
}

# graph_note EXPORT REPORT [S E]: the note expected for REPORT on EXPORT (in WORK), the graph rows
# counted by sqlite3, only those overlapping [S, E) when given
graph_note() {
	local where='' n ns
	(($# == 4)) && where="WHERE (start >= $3 AND start < $4) OR (end >= $3 AND end < $4) OR (start < $3 AND end >= $4)"
	read -r n ns < <(sqlite3 -separator ' ' "$WORK/$1" \
		"SELECT count(*), coalesce(sum(end - start), 0) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE $where")
	ns=$(sed -E ':a; s/([0-9])([0-9]{3})($|,)/\1,\2\3/; ta' <<<"$ns")
	if ((n == 1)); then
		echo "nstats: note: $2 on $1: 1 CUDA graph launch ($ns ns of GPU time in CUPTI_ACTIVITY_KIND_GRAPH_TRACE) is not in this report: its kernels were traced at graph level (--cuda-graph-trace=graph)"
	elif ((n > 1)); then
		echo "nstats: note: $2 on $1: $n CUDA graph launches ($ns ns of GPU time in CUPTI_ACTIVITY_KIND_GRAPH_TRACE) are not in this report: their kernels were traced at graph level (--cuda-graph-trace=graph)"
	fi
}

# every kernel report: stdout byte for byte what it is without the graph rows, and on stderr what
# it was plus one note with the right numbers; -q or not
test_graph_note_on_kernel_reports() {
	with_graphs ex.sqlite g.sqlite
	local r plain_out plain_err note
	for r in $KERNEL_REPORTS; do
		note=$(graph_note g.sqlite "$r")
		[[ -n $note ]] || { fail "no graph rows in the fixture"; return; }
		run stats -q -r "$r" -f csv ex.sqlite; plain_out=$OUT plain_err=${ERR//ex.sqlite/g.sqlite}
		[[ $plain_err != *"nstats: note:"* ]] || fail "$r: a note without graph rows: $plain_err"
		run stats -q -r "$r" -f csv g.sqlite; rc_is 0
		[[ $OUT == "$plain_out" ]] || fail "$r: stdout changed with graph rows"
		[[ $ERR == "${plain_err:+$plain_err$'\n'}$note" ]] || fail "$r: stderr '$ERR', expected '$note'"
	done
	# cuda_gpu_kern_dist's Busy (%) counts graph executions as busy time, so only its note is checked
	run stats -q -r cuda_gpu_kern_dist -f csv g.sqlite; rc_is 0
	err_is "$(graph_note g.sqlite cuda_gpu_kern_dist)"
	run stats -r cuda_gpu_kern_sum g.sqlite; rc_is 0
	err_is "$(graph_note g.sqlite cuda_gpu_kern_sum)"
	out_has "Processing [g.sqlite] with [cuda_gpu_kern_sum]"
	# reports without kernels say nothing
	run stats -q -r cuda_api_sum -r cuda_gpu_mem_time_sum -f csv g.sqlite; rc_is 0; err_is ""
}

# the note counts the graph rows the report's filter keeps, one launch in the singular
test_graph_note_follows_the_filter() {
	with_graphs ex.sqlite g.sqlite
	local lo hi
	read -r lo hi < <(sqlite3 -separator ' ' "$WORK/g.sqlite" "SELECT start, start + 1 FROM
		CUPTI_ACTIVITY_KIND_GRAPH_TRACE ORDER BY start LIMIT 1")
	[[ $(graph_note g.sqlite x "$lo" "$hi") == *": 1 CUDA graph launch ("* ]] || fail "the window holds not one launch"
	run stats -q -r cuda_gpu_trace -f csv --filter-time "$lo/$hi" g.sqlite; rc_is 0
	err_is "$(graph_note g.sqlite cuda_gpu_trace "$lo" "$hi")"
	read -r lo hi < <(sqlite3 -separator ' ' "$WORK/g.sqlite" "SELECT min(start) + 1000000, max(start) - 1
		FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE")
	run stats -q -r "cuda_gpu_kern_sum:start=$lo:end=$hi" -f csv g.sqlite; rc_is 0
	err_is "$(graph_note g.sqlite cuda_gpu_kern_sum "$lo" "$hi")"
	# a window without graph launches: no graph note (only the one that the window misses the
	# capture, D53)
	run stats -q -r cuda_gpu_kern_sum -f csv --filter-time 0/1 g.sqlite; rc_is 0
	[[ $ERR != *"CUDA graph"* && $ERR != *$'\n'* &&
	   $ERR == "nstats: note: g.sqlite: --filter-time 0/1 (ns) overlaps nothing: the capture spans "* ]] ||
		fail "a note for a window without graph launches: $ERR"
}

# an export whose kernels all ran in graphs has no kernel table: the report is skipped, and says
# why its numbers would be empty; an empty graph table is no graph launch
test_graph_note_when_skipped() {
	"${NSYSGEN:-$(dirname "$NSTATS")/nsysgen}" -q --seed 12 --processes 1 --kernels 0 --memcpy 4 \
		--memset 0 --other-api 2 --nvtx 0 --osrt 0 -o "$WORK/nok.sqlite" >/dev/null || fail "nsysgen failed"
	cp "$WORK/nok.sqlite" "$WORK/nokg.sqlite"
	sqlite3 "$WORK/nokg.sqlite" "$GRAPH_TRACE_SQL
		INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE SELECT start, end + 5000, deviceId, contextId, NULL,
			streamId, correlationId, globalPid, 1, 1 FROM CUPTI_ACTIVITY_KIND_MEMCPY;" || fail "sqlite3 failed"
	run stats -q -r cuda_gpu_kern_sum -f csv nokg.sqlite; rc_is 0; out_is ""
	err_is "SKIPPED: nokg.sqlite does not contain CUDA kernel data."$'\n'"$(graph_note nokg.sqlite cuda_gpu_kern_sum)"
	sqlite3 "$WORK/nokg.sqlite" "DELETE FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE" || fail "sqlite3 failed"
	run stats -q -r cuda_gpu_kern_sum -f csv nokg.sqlite; rc_is 0
	err_is "SKIPPED: nokg.sqlite does not contain CUDA kernel data."
}

# ---- nstats analyze: the same driver over the rules ------------------------------------------------

# name -- title of each entry of a --help-reports / --help-rules listing, without argument hints;
# nstats's own additions left out
catalog_of() { sed -n -E '/ \(nstats addition\)$/d; s/^  ([a-z_0-9]+)(\[[^ ]*\])? -- (.*)$/\1 -- \3/p'; }

# every report and rule of nsys 2024.2.3, with its title (the reference's listings, as it printed
# them, are tests/cli/nsys-help-{reports,rules}.txt)
test_catalog_is_the_references() {
	local here want
	here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	want=$(catalog_of <"$here/nsys-help-reports.txt")
	[[ $(wc -l <<<"$want") == 38 ]] || fail "the report listing has $(wc -l <<<"$want") entries"
	run stats --help-reports; rc_is 0
	# nstats's own reports are marked as such and are not nsys's
	local own
	own=$(catalog_of <<<"$OUT" | grep -v ' (nstats addition)$')
	[[ $own == "$want" ]] ||
		fail "reports differ from nsys's: $(diff <(echo "$own") <(echo "$want") | head -5 | tr '\n' ' ')"
	want=$(catalog_of <"$here/nsys-help-rules.txt")
	run analyze --help-rules; rc_is 0
	[[ $(catalog_of <<<"$OUT") == "$want" ]] ||
		fail "rules differ from nsys's: $(diff <(catalog_of <<<"$OUT") <(echo "$want") | head -5 | tr '\n' ' ')"
	[[ $(wc -l <<<"$want") == 7 ]] || fail "the rule listing has $(wc -l <<<"$want") entries"
}

test_analyze_help() {
	run analyze --help; rc_is 0; err_is ""; out_has "usage: nstats analyze"
	local o
	for o in --rule --format --output --force-overwrite --quiet --timeunit --help-rules --help-formats; do
		out_has "$o"
	done
	run analyze --help-rules; rc_is 0; err_is ""
	for o in cuda_memcpy_async cuda_memcpy_sync cuda_memset_sync cuda_api_sync gpu_gaps gpu_time_util dx12_mem_ops; do
		out_has "  $o -- "
	done
	run analyze --help-rules gpu_gaps; rc_is 0; out_has "gpu_gaps -- GPU Gaps"; out_has "gap"
	run analyze --help-rules nosuch; rc_is 2; out_is ""; err_line "^nstats: error: rule 'nosuch'"
}
test_analyze_default_set() {
	# nsys's default rule set, in its order, when no -r is given
	run analyze -f csv ex.sqlite; rc_is 0; err_is ""
	local order
	order=$(grep -o '^Processing \[ex.sqlite\] with \[[a-z0-9_]*\]' <<<"$OUT" | sed 's/.*\[//; s/\]$//' | tr '\n' ' ')
	[[ $order == "cuda_memcpy_async cuda_memcpy_sync cuda_memset_sync cuda_api_sync gpu_gaps gpu_time_util dx12_mem_ops " ]] ||
		fail "default rules: '$order'"
	out_has "SKIPPED: ex.sqlite could not be analyzed because it does not contain the required DX12 data. Does the application use DX12 APIs?"
}
test_analyze_unknown_rule() {
	run analyze -r nosuch ex.sqlite; rc_is 2; out_is ""; err_line "^nstats: error: rule 'nosuch' could not be found"
	# a report is not a rule
	run analyze -r cuda_api_sum ex.sqlite; rc_is 2; out_is ""; err_line "^nstats: error: rule 'cuda_api_sum'"
}
test_analyze_bad_arguments() {
	run analyze -r gpu_gaps:bogus=1 ex.sqlite; rc_is 2; out_is ""; err_line "^nstats: error: rule 'gpu_gaps': unknown argument 'bogus'"
	run analyze -r gpu_gaps:gap=half ex.sqlite; rc_is 2; out_is ""; err_line "^nstats: error: rule 'gpu_gaps': gap=half"
	run analyze -r gpu_time_util:chunks=0 ex.sqlite; rc_is 2; out_is ""; err_line "^nstats: error: .*chunks=0"
	run analyze -r gpu_time_util:chunks=1001 ex.sqlite; rc_is 2; out_is ""; err_line "^nstats: error: .*chunks=1001"
	run analyze -r cuda_api_sync:rows ex.sqlite; rc_is 2; out_is ""; err_line "^nstats: error: .*rows"
	# checked before any work: the good rule before it does not run
	run analyze -r cuda_api_sync,gpu_gaps:gap=x ex.sqlite; rc_is 2; out_is ""
}
test_gaps_rows_are_the_longest() {
	# D63: rows=N is the head of rows=-1 (which equals nsys on every golden fixture): the N
	# longest gaps of every process and device, where nsys shows N others
	"$(dirname "$NSTATS")/nsysgen" -q --seed 11 --processes 2 --threads 2 --kernels 10 --memcpy 4 \
		--memset 2 --other-api 4 --nvtx 0 --osrt 0 --vulkan 60 --opengl 60 -o "$WORK/g.sqlite" \
		>/dev/null || { fail "nsysgen failed"; return; }
	run analyze -q -f csv -r gpu_gaps:gap=0:rows=-1 g.sqlite; rc_is 0
	local all=$OUT n
	for n in 1 2 3 8; do
		run analyze -q -f csv -r gpu_gaps:gap=0:rows=$n g.sqlite; rc_is 0
		[[ $(grep -c '^[0-9]' <<<"$OUT") == "$n" ]] || fail "rows=$n printed $(grep -c '^[0-9]' <<<"$OUT") rows"
		[[ $(grep '^[0-9]' <<<"$OUT") == "$(grep '^[0-9]' <<<"$all" | head -n "$n")" ]] ||
			fail "rows=$n is not the head of rows=-1"
	done
	# the longest gap is there whatever N
	[[ $(grep -c '^[0-9]' <<<"$all") -gt 8 ]] || fail "too few gaps to tell: $(grep -c '^[0-9]' <<<"$all")"
}
test_nvtx_reports_do_not_need_calls_in_start_order() {
	# ranges meet launches without a sort where each thread's calls are in start order by row,
	# as nsys writes them; with the rows reversed the reports must not change
	command -v sqlite3 >/dev/null || { echo "cli: note: no sqlite3, row order test not run"; return; }
	"$(dirname "$NSTATS")/nsysgen" -q --seed 5 --processes 2 --threads 3 --kernels 300 --memcpy 40 \
		--memset 10 --other-api 20 --nvtx 80 --osrt 0 -o "$WORK/n.sqlite" >/dev/null ||
		{ fail "nsysgen failed"; return; }
	cp "$WORK/n.sqlite" "$WORK/r.sqlite"
	sqlite3 -batch -bail "$WORK/r.sqlite" "
		CREATE TEMP TABLE t AS SELECT * FROM CUPTI_ACTIVITY_KIND_RUNTIME ORDER BY start DESC;
		DELETE FROM CUPTI_ACTIVITY_KIND_RUNTIME;
		INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME SELECT * FROM t;" || { fail "sqlite3 failed"; return; }
	local r
	for r in nvtx_gpu_proj_sum nvtx_gpu_proj_trace nvtx_kern_sum cuda_gpu_kern_sum:nvtx-name; do
		run stats -q -f csv -r "$r" n.sqlite; rc_is 0
		local want=$OUT
		[[ $(wc -l <<<"$want") -gt 5 ]] || fail "$r: too few rows to tell"
		run stats -q -f csv -r "$r" r.sqlite; rc_is 0
		[[ $OUT == "$want" ]] || fail "$r changes with the order of the runtime rows"
	done
}
test_calls_sharing_a_launch_key() {
	# a kernel whose (process, correlationId) two calls share joins both, as nsys's SQL join
	# does; the expected files are nsys 2024.2.3's output on this export (nsys stats -q -f csv
	# -r REPORT), made with tests/cli/shared-key.sql from the nsysgen options below
	command -v sqlite3 >/dev/null || { echo "cli: note: no sqlite3, shared key test not run"; return; }
	local dir r
	dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	"$(dirname "$NSTATS")/nsysgen" -q --seed 3 --processes 1 --threads 1 --kernels 6 --memcpy 0 \
		--memset 0 --other-api 0 --nvtx 0 --osrt 0 --launch-ranges 4 -o "$WORK/k.sqlite" \
		>/dev/null || { fail "nsysgen failed"; return; }
	sqlite3 -batch -bail "$WORK/k.sqlite" <"$dir/shared-key.sql" || { fail "sqlite3 failed"; return; }
	for r in cuda_kern_exec_trace nvtx_kern_sum nvtx_gpu_proj_trace cuda_api_gpu_sum; do
		run stats -q -f csv -r "$r" k.sqlite; rc_is 0
		cmp -s "$WORK/.out" "$dir/shared-key/$r.csv" || fail "$r differs from nsys's output"
	done
}
test_analyze_files() {
	# files named as nsys names them, the rule's arguments included
	run analyze -q -r cuda_api_sync:rows=2 -f csv ex.sqlite; rc_is 0; cp "$WORK/.out" "$WORK/console.csv"
	run analyze -q -r cuda_api_sync:rows=2 -f csv -o out ex.sqlite
	rc_is 0; out_is ""; err_is ""; file_is out_cuda_api_sync_rows=2.csv "$WORK/console.csv"
	run analyze -q -r cuda_api_sync:rows=2 -f csv -o out ex.sqlite; rc_is 4
	run analyze -q -r cuda_api_sync:rows=2 -f csv -o out --force-overwrite ex.sqlite; rc_is 0
	# a skipped rule leaves no file
	run analyze -q -r dx12_mem_ops -o . ex.sqlite; rc_is 0; no_file ex_dx12_mem_ops.csv
}
test_analyze_row_limit_footer() {
	# column says when rows= cut the list; csv does not
	run analyze -q -r gpu_gaps:gap=0:rows=1 ex.sqlite; rc_is 0
	out_has $'\n\nOnly the top 1 results are displayed. More data may be available.'
	run analyze -q -r gpu_gaps:gap=0:rows=1 -f csv ex.sqlite; rc_is 0
	[[ $OUT != *"Only the top"* ]] || fail "csv has the footer"
	[[ $(sed '1d;/^$/d' <<<"$OUT" | wc -l) == 1 ]] || fail "rows=1 gave $(sed '1d;/^$/d' <<<"$OUT" | wc -l) rows"
}

# D45 on the real --cudabacktrace export: each copy once, joined to its call, never to the call's
# backtrace record (whose name has no _vNNNN suffix)
test_analyze_nothing_found_has_no_columns() {
	# DX12 memory operations that call for no warning: nsys's result then has no columns, which
	# the table and hdoc styles show (bytes as the reference prints them)
	"${NSYSGEN:-$(dirname "$NSTATS")/nsysgen}" -q --seed 1 --processes 1 --kernels 2 --memcpy 0 --memset 0 \
		--other-api 0 --nvtx 0 --osrt 0 --dx12-mem 4 -o "$WORK/dx.sqlite" >/dev/null || fail "nsysgen failed"
	local none=$'\n ** DX12 Memory Operations (dx12_mem_ops):\n\nThere were no problems detected related to memory operations.'
	run analyze -q -r dx12_mem_ops -f table dx.sqlite; rc_is 0; out_is "+--+"$'\n'"$none"
	run analyze -q -r dx12_mem_ops -f column dx.sqlite; rc_is 0; out_is "$none"
	run analyze -q -r dx12_mem_ops -f hdoc dx.sqlite; rc_is 0
	out_has $'<h1>DX12 Memory Operations (dx12_mem_ops)</h1>\n<table>\n  </tbody>\n</table>\n'
}
test_rules_backtrace_rows_are_not_calls() {
	local saxpy=$SHARED/data/real/hpcgroup__pipit/pipit/tests/data/saxpy-mpi-cuda_nsys_perlmutter0.sqlite
	if [[ ! -f $saxpy ]]; then echo "cli: note: no $saxpy, backtrace test not run"; return; fi
	run analyze -q -r cuda_memcpy_sync:rows=-1 -f csv "$saxpy"; rc_is 0; err_is ""
	local starts rows
	rows=$(sed '1d;/^$/d' <<<"$OUT" | wc -l)
	starts=$(sed '1d;/^$/d' <<<"$OUT" | cut -d, -f2 | sort -u | wc -l)
	((rows > 0)) || fail "cuda_memcpy_sync: no rows"
	[[ $(sed '1d;/^$/d' <<<"$OUT" | awk -F, '$NF !~ /_v[0-9]+$/' | wc -l) == 0 ]] ||
		fail "cuda_memcpy_sync lists backtrace records (unversioned names)"
	[[ $rows == "$starts" ]] || fail "cuda_memcpy_sync: $rows rows for $starts copies"
}

# ---- nstats check: the audit of an export (an nstats addition) -----------------------------------

CHECK_FINDINGS="schema backtrace_rows orphan_gpu_rows launches_without_gpu duplicate_gpu_rows
	correlation_collisions bad_durations stream_overlap open_ranges truncated_capture graph_trace_rows
	capture_options"

test_check_help() {
	run check --help; rc_is 0; err_is ""; out_has "usage: nstats check"
	local o f
	for o in --format --strict --report --quiet --output --force-overwrite; do out_has "$o"; done
	for f in $CHECK_FINDINGS; do out_has $'\n'"  $f"; done
	out_has "6 --strict and a finding"
	run --help; rc_is 0; out_has "check"
}
test_check_usage_errors() {
	run check; rc_is 2; out_is ""; [[ $ERR == usage:* ]] || fail "no usage on stderr"
	run check -f csv ex.sqlite; rc_is 2; out_is ""; err_line "^nstats: error: check: unknown format 'csv'"
	run check -r nosuch ex.sqlite; rc_is 2; out_is ""; err_line "^nstats: error: check: report or rule 'nosuch'"
	run check --bogus ex.sqlite; rc_is 2; out_is ""; err_line "^nstats: error: check: unknown option '--bogus'"
	# an export it cannot read: stats's code and message, and no JSON
	printf 'not a database' >"$WORK/bad.sqlite"
	run stats bad.sqlite; local stats_err=$ERR
	run check -f json bad.sqlite; rc_is 3; out_is ""; err_is "$stats_err"
	run check nosuch.sqlite; rc_is 3; out_is ""; err_line "^nstats: error: nosuch.sqlite: "
}
# The real --cudabacktrace export: its 38 backtrace records are named, in text and in JSON
test_check_backtrace_export() {
	local saxpy=$SHARED/data/real/hpcgroup__pipit/pipit/tests/data/saxpy-mpi-cuda_nsys_perlmutter0.sqlite
	if [[ ! -f $saxpy ]]; then echo "cli: note: no $saxpy, check test not run"; return; fi
	run check "$saxpy"; rc_is 0; err_is ""
	out_has $'\nFOUND   backtrace_rows: 38 CUDA backtrace records among the runtime rows\n        CUPTI_ACTIVITY_KIND_RUNTIME: 38\n        excluded from every report: a backtrace record is not a call\n        e.g. CUPTI_ACTIVITY_KIND_RUNTIME rowid 11: globalTid=302119224788637 correlationId=135 eventClass=67 callchainId=0 name="cudaMalloc"\n'
	out_has $'\nSchema: 2.9.1 (nsys 2022.2.1.31)\n'
	out_has $'\nok      orphan_gpu_rows: 0 '
	out_has $'\nn/a     capture_options: not checked: no META_DATA_CAPTURE table'
	[[ $(tail -n 1 <<<"$OUT") == "Found: backtrace_rows" ]] || fail "last line is '$(tail -n 1 <<<"$OUT")'"
	run check -f json "$saxpy"; rc_is 0; err_is ""
	out_has '{"name":"backtrace_rows","title":"CUDA backtrace records among the runtime rows","status":"found","informational":false,"checked":true,"count":38,"note":"excluded from every report: a backtrace record is not a call","explained_by":null,'
	out_has '"parts":[{"name":"CUPTI_ACTIVITY_KIND_RUNTIME","count":38}],"examples":[{"table":"CUPTI_ACTIVITY_KIND_RUNTIME","rowid":11,"fields":{"globalTid":302119224788637,"correlationId":135,"eventClass":67,"callchainId":0,"name":"cudaMalloc"}},'
	out_has '"schema_version":"2.9.1","product_version":"2022.2.1.31","found":1,'
	run check --strict -q "$saxpy"; rc_is 6; out_is ""; err_is ""
}
test_check_strict() {
	local gen=${NSYSGEN:-$(dirname "$NSTATS")/nsysgen}
	# ex.sqlite has one process, no fault: clean
	run check --strict ex.sqlite; rc_is 0; err_is ""; [[ $(tail -n 1 <<<"$OUT") == "Clean: nothing found" ]] || fail "not clean"
	run check --strict -q ex.sqlite; rc_is 0; out_is ""; err_is ""
	"$gen" -q --seed 11 --processes 1 --kernels 20 --memcpy 20 --memset 2 --other-api 8 --nvtx 0 \
		--osrt 0 --dup-gpu-rows 2 -o "$WORK/dup.sqlite" >/dev/null || fail "nsysgen failed"
	run check --strict dup.sqlite; rc_is 6; err_is ""; out_has $'\nFOUND   duplicate_gpu_rows: 2 '
	run check dup.sqlite; rc_is 0
	# the worst of several exports
	run check --strict -q ex.sqlite dup.sqlite; rc_is 6
	run check -q ex.sqlite nosuch.sqlite; rc_is 3
}
test_check_json() {
	command -v sqlite3 >/dev/null || { echo "cli: note: no sqlite3, check JSON test not run"; return; }
	local gen=${NSYSGEN:-$(dirname "$NSTATS")/nsysgen}
	"$gen" -q --seed 11 --processes 1 --kernels 20 --memcpy 4 --memset 2 --other-api 8 --nvtx 20 \
		--osrt 0 --open-ranges 1 -o "$WORK/odd.sqlite" >/dev/null || fail "nsysgen failed"
	# a range name with a quote, a backslash, a control character and a newline
	sqlite3 "$WORK/odd.sqlite" "UPDATE NVTX_EVENTS SET text = 'a\"b\\c' || char(1) || char(10) || 'd' WHERE end IS NULL AND eventType IN (59, 60)" ||
		{ fail "sqlite3 failed"; return; }
	run check -f json odd.sqlite; rc_is 0; err_is ""
	out_has '"name":"a\"b\\c\u0001\nd"'
	[[ $OUT == "{"*"]}" ]] || fail "not one object"
	if command -v python3 >/dev/null; then
		python3 -c 'import json,sys; json.loads(sys.stdin.read())' <<<"$OUT" || fail "invalid JSON"
	fi
	run check odd.sqlite; rc_is 0; out_has 'name="a\"b\\c\x01\x0ad"'
	# several exports: an array of objects
	run check -f json ex.sqlite odd.sqlite; rc_is 0
	[[ $OUT == "[{"*"]}]" ]] || fail "not an array of objects"
	[[ $(grep -c '^\(\[\|,\)\?{"export":' <<<"$OUT") == 2 ]] || fail "not two exports"
	if command -v python3 >/dev/null; then
		python3 -c 'import json,sys; assert len(json.loads(sys.stdin.read())) == 2' <<<"$OUT" || fail "invalid JSON array"
	fi
}
test_check_output_file() {
	run check -f json -o out.json ex.sqlite; rc_is 0; out_is ""; err_is ""
	[[ -s $WORK/out.json ]] || fail "out.json was not written"
	run check -o out.json ex.sqlite; rc_is 4; out_is ""; err_line "^nstats: error: out.json: .*--force-overwrite"
	run check -o out.json --force-overwrite ex.sqlite; rc_is 0; out_is ""
	grep -q '^Export: ex.sqlite$' "$WORK/out.json" || fail "out.json is not the text report"
}
test_check_reports_option() {
	run check -r cuda_gpu_kern_sum:base,cuda_api_sum -r osrt_sum ex.sqlite; rc_is 0; err_is ""
	out_has $'\ninfo    schema: 1 requested reports that read a table the export lacks\n        OSRT_API: 1\n'
	out_has 'e.g. OSRT_API: needed by="osrt_sum"'
}

# ---- escaping: hostile names through every format, read back by strict parsers -------------------
# (tests/cli/strict_check.py; deviations D3-D6). The names are those of the export's kernels,
# rewritten in StringIds: quotes, commas, tabs, CR/LF, markup, entities, backslashes, invalid UTF-8.

ESCAPE_REPORTS=cuda_gpu_kern_sum,cuda_gpu_kern_sum:mangled,cuda_gpu_trace,cuda_kern_exec_trace,cuda_kern_exec_sum,cuda_gpu_kern_dist,cuda_gpu_kern_launch_trace,cuda_gpu_kern_gb_sum

hostile_export() { # hostile_export FILE: ex.sqlite with each kernel name made hostile
	cp "$WORK/ex.sqlite" "$WORK/$1"
	sqlite3 "$WORK/$1" "UPDATE StringIds SET value = CASE id % 7
		WHEN 0 THEN 'quote\"d, comma' WHEN 1 THEN 'tab' || char(9) || 'bed'
		WHEN 2 THEN 'new' || char(10) || 'line' || char(13) || 'cr'
		WHEN 3 THEN '<script>alert(\"x\")</script>' WHEN 4 THEN 'amp & <b>bold</b> &amp; &lt;'
		WHEN 5 THEN CAST(X'626164FFFE80C32D757466' AS TEXT) ELSE 'sq''uote\back\slash' END || ' #' || id
		WHERE id IN (SELECT demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL
			UNION SELECT shortName FROM CUPTI_ACTIVITY_KIND_KERNEL
			UNION SELECT mangledName FROM CUPTI_ACTIVITY_KIND_KERNEL)"
}
strict() { # strict FORMAT FILE: the file passes the strict parser of its format
	local why
	why=$(python3 "$(dirname "${BASH_SOURCE[0]}")/strict_check.py" "$1" "$WORK/$2" 2>&1) || fail "$why"
	if [[ $1 == json ]] && command -v jq >/dev/null; then
		why=$(jq -e . "$WORK/$2" 2>&1 >/dev/null) || fail "jq: $2: $why"
	fi
}
have_strict_parsers() {
	command -v sqlite3 >/dev/null && command -v python3 >/dev/null && return 0
	echo "note $CUR: no sqlite3 or python3, skipped"
	return 1
}

test_escaping_strict_parsers() {
	have_strict_parsers || return 0
	hostile_export h.sqlite
	local f x
	local -i n=0
	for f in csv tsv json hdoc htable; do
		run stats -q -r "$ESCAPE_REPORTS" -f "$f" -o "s_$f" h.sqlite; rc_is 0; err_is ""
		run analyze -q -f "$f" -o "a_$f" h.sqlite; rc_is 0
		for x in "$WORK"/[sa]_"$f"_*; do strict "$f" "${x#"$WORK/"}"; n+=1; done
	done
	((n >= 5 * 8)) || fail "only $n files were written"
	run check -f json h.sqlite; rc_is 0; printf '%s\n' "$OUT" >"$WORK/check.json"; strict json check.json
}
test_escaping_names_survive() { # escaped, not dropped: each hostile name is there, read back
	have_strict_parsers || return 0
	hostile_export h.sqlite
	run stats -q -r cuda_gpu_kern_sum -f json h.sqlite; rc_is 0
	local names
	names=$(printf '%s' "$OUT" | python3 -c 'import json, sys; print("|".join(sorted(r["Name"].split(" #")[0] for r in json.load(sys.stdin))))')
	[[ $names == *'<script>alert("x")</script>'* && $names == *'quote"d, comma'* && $names == *$'tab\tbed'* &&
		$names == *$'new\nline\rcr'* && $names == *'bad'$'\ufffd\ufffd\ufffd\ufffd''-utf'* ]] ||
		fail "names read back from json: $names"
	run stats -q -r cuda_gpu_kern_sum -f htable h.sqlite; rc_is 0
	out_has '&lt;script&gt;alert("x")&lt;/script&gt;'; out_has 'amp &amp; &lt;b&gt;bold&lt;/b&gt; &amp;amp; &amp;lt;'
}
test_escaping_checker_refuses() { # the strict parsers are strict: each catches what it must
	have_strict_parsers || return 0
	local -a bad=()
	printf 'a,b\n1,x"y\n' >"$WORK/q.csv" && bad+=("csv q.csv")
	printf 'a,b\n1,"x\n' >"$WORK/open.csv" && bad+=("csv open.csv")
	printf 'a,b\n1,2,3\n' >"$WORK/wide.csv" && bad+=("csv wide.csv")
	printf 'a\tb\n1\tx\ty\n' >"$WORK/t.tsv" && bad+=("tsv t.tsv")
	printf '[{"a": "\xff"}]\n' >"$WORK/u.json" && bad+=("json u.json")
	printf '[{"a": NaN}]\n' >"$WORK/n.json" && bad+=("json n.json")
	printf '<table><tr><td><script>x</script></td></tr></table>\n' >"$WORK/s.html" && bad+=("htable s.html")
	printf '<table><tr><td>a & b</td></tr></table>\n' >"$WORK/a.html" && bad+=("htable a.html")
	local b
	for b in "${bad[@]}"; do
		python3 "$(dirname "${BASH_SOURCE[0]}")/strict_check.py" ${b% *} "$WORK/${b#* }" >/dev/null &&
			fail "strict_check.py accepts ${b#* }"
	done
}

# tables_read_twice: the tables NSTATS_TIMING says were read more than once in the last run
tables_read_twice() {
	sed -n -E 's/^nstats: timing: read ([A-Za-z0-9_]+) .*/\1/p' "$WORK/.err" | sort | uniq -d | tr '\n' ' '
}
test_each_table_read_once() { # per run, whatever a report's arguments ask (nvtx-name, rules too)
	"${NSYSGEN:-$(dirname "$NSTATS")/nsysgen}" -q --seed 13 --processes 2 --kernels 300 --memcpy 40 \
		--memset 10 --nvtx 30 --osrt 30 --launch-ranges 200 -o "$WORK/once.sqlite" >/dev/null ||
		{ fail "nsysgen failed"; return; }
	local r twice
	run stats --help-reports
	for r in $(sed -n -E 's/^  ([a-z_0-9]+).*/\1/p' <<<"$OUT") cuda_gpu_kern_sum:nvtx-name \
		cuda_gpu_trace:nvtx-name,nvtx_gpu_proj_trace,nvtx_kern_sum; do
		NSTATS_TIMING=1 run stats -q -f csv -r "$r" once.sqlite
		twice=$(tables_read_twice)
		[[ -z $twice ]] || fail "$r reads $twice more than once"
	done
	run analyze --help-rules
	for r in $(sed -n -E 's/^  ([a-z_0-9]+).*/\1/p' <<<"$OUT"); do
		NSTATS_TIMING=1 run analyze -q -r "$r" once.sqlite
		twice=$(tables_read_twice)
		[[ -z $twice ]] || fail "rule $r reads $twice more than once"
	done
	NSTATS_TIMING=1 run stats -q once.sqlite
	[[ $ERR == *"timing: read CUPTI_ACTIVITY_KIND_KERNEL"* ]] || fail "no timing lines: ${ERR:0:200}"
	twice=$(tables_read_twice)
	[[ -z $twice ]] || fail "the default set reads $twice more than once"
}
test_tables_freed_after_their_last_job() { # peak memory: the heaviest job's, not all tables'
	"${NSYSGEN:-$(dirname "$NSTATS")/nsysgen}" -q --seed 13 --processes 2 --kernels 300 --memcpy 40 \
		--memset 10 --nvtx 30 --osrt 30 -o "$WORK/free.sqlite" >/dev/null ||
		{ fail "nsysgen failed"; return; }
	local one
	# one thread: tables freed after each job (with two, a summary computed ahead defers it)
	NSTATS_READ_THREADS=1 NSTATS_TIMING=1 run stats -q -f csv free.sqlite; rc_is 0
	[[ $(grep -c "timing: freed" "$WORK/.err") -ge 3 ]] || fail "the default set frees no table: ${ERR:0:300}"
	[[ -z $(tables_read_twice) ]] || fail "the default set reads $(tables_read_twice) twice"
	# two: the same output, and the tables freed by the last job at the latest
	local alone=$OUT
	NSTATS_READ_THREADS=2 NSTATS_TIMING=1 run stats -q -f csv free.sqlite; rc_is 0
	out_is "$alone"
	grep -q "timing: freed" "$WORK/.err" || fail "two threads: the default set frees no table"
	# a table a later job reads again stays; the output is that of each report alone
	NSTATS_READ_THREADS=1 NSTATS_TIMING=1 run stats -q -f csv -r cuda_api_sum -r nvtx_sum -r cuda_api_sum free.sqlite
	rc_is 0
	[[ -z $(tables_read_twice) ]] || fail "$(tables_read_twice) was freed while a later job reads it"
	local both=$OUT
	run stats -q -f csv -r cuda_api_sum free.sqlite; one=$OUT
	run stats -q -f csv -r nvtx_sum free.sqlite
	[[ $both == "$one"$'\n\n'"$OUT"$'\n\n'"$one" ]] || fail "trimmed run differs from the reports alone"
}

# Tests of one topic may live in their own file beside this one, tests/cli/cases/TOPIC.sh, with
# test_ functions that use the assertions above.
for case_file in "$(dirname "${BASH_SOURCE[0]}")"/cases/*.sh; do
	[[ -e $case_file ]] && source "$case_file"
done

main() {
	(($# == 1)) || { echo "usage: tests/cli/run.sh NSTATS" >&2; exit 2; }
	NSTATS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
	local nsysgen=${NSYSGEN:-$(dirname "$NSTATS")/nsysgen}
	[[ -x $NSTATS ]] || { echo "cli: $1: not an executable" >&2; exit 2; }
	[[ -x $nsysgen ]] || { echo "cli: $nsysgen: not an executable (set NSYSGEN)" >&2; exit 2; }
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/nstats-cli.XXXXXX")
	trap 'rm -rf "$WORK"' EXIT
	"$nsysgen" -q --seed 11 --processes 1 --kernels 20 --memcpy 20 --memset 2 --other-api 8 \
		--nvtx 0 --osrt 0 -o "$WORK/ex.sqlite" >/dev/null || { echo "cli: nsysgen failed" >&2; exit 1; }
	export LC_ALL=C.UTF-8
	local name
	# CLI_ONLY=REGEX runs the tests whose names match, while working on them
	for name in $(declare -F | awk '$3 ~ /^test_/ { sub(/^test_/, "", $3); print $3 }'); do
		[[ -n ${CLI_ONLY:-} && ! $name =~ $CLI_ONLY ]] && continue
		t "$name"
	done
	echo "cli: $PASSED passed, $FAILED failed"
	((PASSED + FAILED > 0)) && ((FAILED == 0))
}

main "$@"
