# Reports of one's own (stats --report-dir, docs/custom-reports.md) and the options of nsys stats
# that concern the export of a .nsys-rep (--force-export, --sqlite). Sourced by tests/cli/run.sh.
# Expected rows and counts come from sqlite3 on the same export, never from nstats; every test
# that runs a query also checks that the export's bytes did not change.

# rd_make: DIR rd in WORK with the reports the tests run
rd_make() {
	mkdir -p "$WORK/rd"
	cat >"$WORK/rd/kern_by_name.sql" <<'EOF'
-- Kernels by name
-- The GPU time of each kernel name,
-- longest first.
SELECT s.value AS "Name", count(*) AS "Count",
       sum(k.end - k.start) AS "Total Time:dur_ns"
FROM CUPTI_ACTIVITY_KIND_KERNEL AS k
JOIN StringIds AS s ON s.id = k.shortName
GROUP BY s.value ORDER BY 3 DESC, 1;
EOF
	cat >"$WORK/rd/counts.sql" <<'EOF'
/* Row counts
 * The rows of a few tables that the filter keeps.
 */
SELECT (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL) AS "Kernels",
       (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME) AS "Calls",
       (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY) AS "Copies",
       (SELECT count(*) FROM main.CUPTI_ACTIVITY_KIND_KERNEL) AS "All Kernels",
       (SELECT count(*) FROM StringIds) AS "Strings"
EOF
	printf 'SELECT 1 AS "One"\n' >"$WORK/rd/untitled.sql"
	printf '# an nsys report script\n' >"$WORK/rd/legacy.py"
	printf 'not a report\n' >"$WORK/rd/README.md"
}
# export_sum FILE: the export's sha256, to compare before and after
export_sum() { sha256sum <"$WORK/$1" | cut -d' ' -f1; }
# same_export FILE SUM: the export's bytes are still SUM
same_export() { [[ $(export_sum "$1") == "$2" ]] || fail "$1 changed"; }

KERN_BY_NAME_SQL="SELECT s.value, count(*), sum(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL AS k
	JOIN StringIds AS s ON s.id = k.shortName GROUP BY s.value ORDER BY 3 DESC, 1"

test_report_dir_listed() {
	rd_make
	run stats --report-dir rd --help-reports
	rc_is 0
	[[ $(tail -n 3 <<<"$OUT") == "  counts -- Row counts (from rd)
  kern_by_name -- Kernels by name (from rd)
  untitled -- untitled (from rd)" ]] || fail "the list ends with: $(tail -n 3 <<<"$OUT")"
	out_has "  cuda_api_sum -- CUDA API Summary"
	err_is "nstats: note: rd/legacy.py is not listed: only .sql reports are supported"
	run stats --report-dir rd/ --help-reports ALL
	rc_is 0; out_has "  counts -- Row counts (from rd)"; out_has "  nvtx_sum -- NVTX Range Summary"
}
test_report_dir_help() {
	rd_make
	run stats --report-dir rd --help-reports kern_by_name
	rc_is 0; err_is ""
	out_is "  kern_by_name -- Kernels by name (from rd)

      The GPU time of each kernel name,
      longest first.

      Arguments: start end nvtx

      All also take start=NS, end=NS and nvtx=RANGE[@DOMAIN][/INDEX].
      In an argument \"::\" belongs to the value (nvtx=ns::op), and a value
      in double quotes is taken whole (nvtx=\"a:b,c\")."
	run stats --report-dir rd --help-reports counts
	rc_is 0; out_is "  counts -- Row counts (from rd)

      The rows of a few tables that the filter keeps.

      Arguments: start end nvtx

      All also take start=NS, end=NS and nvtx=RANGE[@DOMAIN][/INDEX].
      In an argument \"::\" belongs to the value (nvtx=ns::op), and a value
      in double quotes is taken whole (nvtx=\"a:b,c\")."
	# a built-in report is described as without the directory
	run stats --report-dir rd --help-reports nvtx_sum
	rc_is 0; out_has "  nvtx_sum -- NVTX Range Summary"
	run stats --report-dir rd --help-reports nosuch
	rc_is 2; out_is ""; err_is "nstats: error: report 'nosuch' could not be found (see nstats stats --help-reports)"
}
test_report_dir_csv() {
	rd_make
	local sum expect
	sum=$(export_sum ex.sqlite)
	expect="Name,Count,Total Time (ns)
$(sqlite3 -separator , "$WORK/ex.sqlite" "$KERN_BY_NAME_SQL")"
	run stats -q --report-dir rd -r kern_by_name -f csv ex.sqlite
	rc_is 0; err_is ""; out_is "$expect"
	# without -q: nsys's Processing line, and the empty line after the report on the console
	run stats --report-dir rd -r kern_by_name -f csv ex.sqlite
	rc_is 0; err_is ""; out_is "Processing [ex.sqlite] with [kern_by_name]... 
$expect"
	# to a file: PROCESSED, and the file holds what the console got
	run stats -q --report-dir rd -r kern_by_name -f csv ex.sqlite
	cp "$WORK/.out" "$WORK/console.csv"
	run stats --report-dir rd -r kern_by_name -f csv -o out ex.sqlite
	rc_is 0; err_is ""
	out_is "Processing [ex.sqlite] with [kern_by_name] to [out_kern_by_name.csv]... PROCESSED"
	file_is out_kern_by_name.csv "$WORK/console.csv"
	# an existing file is refused as for any report
	run stats -q --report-dir rd -r kern_by_name -f csv -o out ex.sqlite
	rc_is 4; out_is ""; err_is "nstats: error: out_kern_by_name.csv: output file exists (--force-overwrite replaces it)"
	same_export ex.sqlite "$sum"
}
test_report_dir_column() {
	rd_make
	local rows
	rows=$(sqlite3 -separator '|' "$WORK/ex.sqlite" "$KERN_BY_NAME_SQL")
	run stats -q --report-dir rd -r kern_by_name -f column ex.sqlite
	rc_is 0; err_is ""
	[[ $(sed -n 2p <<<"$OUT") == " ** Kernels by name (kern_by_name):" ]] || fail "title line: $(sed -n 2p <<<"$OUT")"
	# the header and the rows, their cells split where column puts two blanks
	[[ $(sed -n 4p <<<"$OUT" | sed -E 's/^ +//; s/ +$//; s/  +/|/g') == "Name|Count|Total Time (ns)" ]] ||
		fail "header: $(sed -n 4p <<<"$OUT")"
	[[ $(sed -n '6,$p' <<<"$OUT" | sed -E '/^$/d; s/^ +//; s/ +$//; s/  +/|/g') == "$rows" ]] ||
		fail "rows differ from sqlite3's: $(sed -n '6,$p' <<<"$OUT")"
}
test_report_dir_timeunit() {
	rd_make
	local ms us
	ms=$(sqlite3 -separator , "$WORK/ex.sqlite" "SELECT s.value, count(*), printf('%.4f', sum(k.end - k.start) / 1e6)
		FROM CUPTI_ACTIVITY_KIND_KERNEL AS k JOIN StringIds AS s ON s.id = k.shortName
		GROUP BY s.value ORDER BY sum(k.end - k.start) DESC, 1")
	us=$(sqlite3 -separator , "$WORK/ex.sqlite" "SELECT s.value, count(*), printf('%.3f', sum(k.end - k.start) / 1e3)
		FROM CUPTI_ACTIVITY_KIND_KERNEL AS k JOIN StringIds AS s ON s.id = k.shortName
		GROUP BY s.value ORDER BY sum(k.end - k.start) DESC, 1")
	run stats -q --report-dir rd -r kern_by_name -f csv --timeunit msec ex.sqlite
	rc_is 0; err_is ""; out_is "Name,Count,Total Time (ms)
$ms"
	run stats -q --report-dir rd -r kern_by_name -f csv:time=us ex.sqlite
	rc_is 0; err_is ""; out_is "Name,Count,Total Time (us)
$us"
	# an untagged column is left alone
	run stats -q --report-dir rd -r untitled -f csv --timeunit sec ex.sqlite
	rc_is 0; out_is "One
1"
}
test_report_dir_every_format() {
	rd_make
	local f sum
	sum=$(export_sum ex.sqlite)
	for f in column table csv tsv json hdoc htable; do
		run stats -q --report-dir rd -r kern_by_name -f "$f" ex.sqlite
		rc_is 0; err_is ""
		out_has gemm_tile
	done
	run stats -q --report-dir rd -r kern_by_name -f json ex.sqlite
	[[ $(python3 -c 'import json, sys; r = json.load(sys.stdin); print(sum(x["Count"] for x in r))' <<<"$OUT") == \
		$(sqlite3 "$WORK/ex.sqlite" "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL") ]] || fail "json counts: ${OUT:0:200}"
	run stats -q --report-dir rd -r kern_by_name -f hdoc ex.sqlite
	out_has "<h1>Kernels by name (kern_by_name)</h1>"
	# several reports, built-in and own, in one run, each with its format
	run stats -q --report-dir rd -r untitled,cuda_api_sum -f csv,json ex.sqlite
	rc_is 0; err_is ""; out_has "One
1"; out_has '"Name": "cudaMemcpy"'
	same_export ex.sqlite "$sum"
}

# filter_count TABLE WHERE: rows of TABLE in nv.sqlite that nsys's overlap test keeps for WHERE's
# window, spelled out for sqlite3 alone
overlap() { # overlap S E: nsys's overlap test of the window [S, E)
	echo "((start >= $1 AND start < $2) OR (\"end\" >= $1 AND \"end\" < $2) OR (start < $1 AND \"end\" >= $2))"
}
nv_make() {
	"${NSYSGEN:-$(dirname "$NSTATS")/nsysgen}" -q --seed 5 --processes 2 --kernels 60 --memcpy 20 --nvtx 20 \
		--osrt 10 -o "$WORK/nv.sqlite" >/dev/null || fail "nsysgen failed"
}
test_report_dir_filters() {
	rd_make; nv_make
	local sum s e o expect
	sum=$(export_sum nv.sqlite)
	read -r s e < <(sqlite3 -separator ' ' "$WORK/nv.sqlite" "SELECT min(start) + (max(\"end\") - min(start)) / 4,
		min(start) + (max(\"end\") - min(start)) / 2 FROM CUPTI_ACTIVITY_KIND_KERNEL")
	o=$(overlap "$s" "$e")
	expect=$(sqlite3 -separator , "$WORK/nv.sqlite" "SELECT (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE $o),
		(SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE $o), (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE $o),
		(SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL), (SELECT count(*) FROM StringIds)")
	# the filter must cut something, and not everything
	[[ ${expect%%,*} -gt 0 && ${expect%%,*} -lt 60 ]] || fail "the window keeps ${expect%%,*} of 60 kernels"
	run stats -q --report-dir rd -r counts -f csv --filter-time "$s/$e" nv.sqlite
	rc_is 0; err_is ""; out_is "Kernels,Calls,Copies,All Kernels,Strings
$expect"
	run stats -q --report-dir rd -r "counts:start=$s:end=$e" -f csv nv.sqlite
	rc_is 0; err_is ""; out_is "Kernels,Calls,Copies,All Kernels,Strings
$expect"
	# start= and end= win over --filter-time
	run stats -q --report-dir rd -r "counts:start=$s:end=$e" -f csv --filter-time 0/1 nv.sqlite
	rc_is 0; out_is "Kernels,Calls,Copies,All Kernels,Strings
$expect"
	# an NVTX range: its window and its thread, or its process when on the main thread
	local rs re gtid where_k where_r
	read -r rs re gtid < <(sqlite3 -separator ' ' "$WORK/nv.sqlite" "SELECT e.start, e.\"end\", e.globalTid
		FROM NVTX_EVENTS AS e LEFT JOIN StringIds AS s ON s.id = e.textId
		WHERE coalesce(e.text, s.value) = 'validate' AND e.eventType IN (59, 60, 70, 71) ORDER BY e.start LIMIT 1")
	[[ -n $rs ]] || { fail "no validate range in nv.sqlite"; return; }
	o=$(overlap "$rs" "$re")
	where_k="$o AND (globalPid >> 24) = ($gtid >> 24)"
	if (((gtid >> 24 & 0xFFFFFF) == (gtid & 0xFFFFFF))); then
		where_r="$o AND (globalTid >> 24) = ($gtid >> 24)"
	else
		where_r="$o AND globalTid = $gtid"
	fi
	expect=$(sqlite3 -separator , "$WORK/nv.sqlite" "SELECT (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE $where_k),
		(SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE $where_r),
		(SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE $where_k),
		(SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL), (SELECT count(*) FROM StringIds)")
	run stats -q --report-dir rd -r counts -f csv --filter-nvtx validate nv.sqlite
	rc_is 0; err_is ""; out_is "Kernels,Calls,Copies,All Kernels,Strings
$expect"
	run stats -q --report-dir rd -r counts:nvtx=validate -f csv nv.sqlite
	rc_is 0; out_is "Kernels,Calls,Copies,All Kernels,Strings
$expect"
	# a range that is not there: SKIPPED, as for a built-in report
	run stats --report-dir rd -r counts --filter-nvtx nosuch nv.sqlite
	rc_is 0; err_is ""; out_is "Processing [nv.sqlite] with [counts]... 
SKIPPED: NVTX range 'nosuch' could not be found in nv.sqlite."
	run stats -q --report-dir rd -r counts --filter-nvtx nosuch nv.sqlite
	rc_is 0; out_is ""; err_is "SKIPPED: NVTX range 'nosuch' could not be found in nv.sqlite."
	run stats -q --strict --report-dir rd -r counts --filter-nvtx nosuch nv.sqlite
	rc_is 5; out_is ""; err_is "SKIPPED: NVTX range 'nosuch' could not be found in nv.sqlite."
	run stats -q --report-dir rd -r counts:start=x nv.sqlite
	rc_is 2; out_is ""; err_is "nstats: error: report 'counts': argument start: invalid int value 'x'"
	run stats -q --report-dir rd -r counts:rows=3 nv.sqlite
	rc_is 2; out_is ""; err_is "nstats: error: report 'counts': unknown argument 'rows' (see nstats stats --help-reports counts)"
	same_export nv.sqlite "$sum"
}

# bad_report NAME TEXT: rd/NAME.sql holds TEXT (printf's format)
bad_report() { mkdir -p "$WORK/rd"; printf -- "$2" "${@:3}" >"$WORK/rd/$1.sql"; }
test_report_dir_query_errors() {
	local sum
	sum=$(export_sum ex.sqlite)
	bad_report syntax '-- Bad\nSELECT count(*)\nFROM StringIds\nWHERE id = = 3\n'
	bad_report table '-- Bad\nSELECT *\n  FROM NoSuchTable\n'
	bad_report column '-- Bad\n\nSELECT nosuch\n  FROM StringIds\n'
	bad_report two '-- Two\nSELECT 1;\n-- and\nSELECT 2;\n'
	bad_report comment_only '-- Nothing\n-- but this\n'
	bad_report param '-- Param\nSELECT value FROM StringIds WHERE id = :id\n'
	run stats -q --report-dir rd -r syntax ex.sqlite
	rc_is 2; out_is ""; err_is 'nstats: error: rd/syntax.sql:4: near "=": syntax error'
	run stats -q --report-dir rd -r table ex.sqlite
	rc_is 2; out_is ""; err_is "nstats: error: rd/table.sql:2: no such table: NoSuchTable"
	run stats -q --report-dir rd -r column ex.sqlite
	rc_is 2; out_is ""; err_is "nstats: error: rd/column.sql:3: no such column: nosuch"
	run stats -q --report-dir rd -r two ex.sqlite
	rc_is 2; out_is ""; err_is "nstats: error: rd/two.sql:4: a second statement: a report is one SELECT"
	run stats -q --report-dir rd -r comment_only ex.sqlite
	rc_is 2; out_is ""; err_is "nstats: error: rd/comment_only.sql:1: no SQL statement in the file"
	run stats -q --report-dir rd -r param ex.sqlite
	rc_is 2; out_is ""; err_is "nstats: error: rd/param.sql:2: parameter :id: a report takes no parameters"
	# a failing report does not stop the others; the exit status tells
	run stats -q --report-dir rd -r table,cuda_api_sum -f csv ex.sqlite
	rc_is 2; out_has "Name"; err_is "nstats: error: rd/table.sql:2: no such table: NoSuchTable"
	same_export ex.sqlite "$sum"
}
test_report_dir_refusals() {
	local sum r
	sum=$(export_sum ex.sqlite)
	bad_report insert '-- Write\nINSERT INTO StringIds VALUES (999999, %s)\n' "'x'"
	bad_report update '-- Write\nUPDATE StringIds SET value = %s\n' "'x'"
	bad_report delete '-- Write\nDELETE FROM StringIds\n'
	bad_report create '-- Write\nCREATE TABLE t (x)\n'
	bad_report drop '-- Write\nDROP TABLE StringIds\n'
	bad_report attach "-- Attach\nATTACH DATABASE '$WORK/other.db' AS o\n"
	bad_report detach '-- Detach\nDETACH DATABASE temp\n'
	bad_report load "-- Load\nSELECT load_extension('$WORK/nosuch.so')\n"
	bad_report pragma '-- Pragma\nPRAGMA user_version = 7\n'
	bad_report pragma_journal '-- Pragma\nPRAGMA journal_mode = WAL\n'
	bad_report begin '-- Begin\nBEGIN\n'
	bad_report vacuum "-- Vacuum\nVACUUM INTO '$WORK/copy.db'\n"
	bad_report write_cte '-- Write\nWITH x AS (SELECT 1) DELETE FROM StringIds\n'
	local -A want=(
		[insert]="INSERT" [update]="UPDATE" [delete]="DELETE" [create]="CREATE" [drop]="DROP"
		[attach]="ATTACH" [detach]="DETACH" [load]="load_extension()" [pragma]="PRAGMA user_version"
		[pragma_journal]="PRAGMA journal_mode" [begin]="BEGIN" [vacuum]="VACUUM"
		[write_cte]="DELETE"
	)
	for r in "${!want[@]}"; do
		run stats -q --report-dir rd -r "$r" ex.sqlite
		rc_is 2; out_is ""
		err_is "nstats: error: rd/$r.sql:2: refused: a report only reads the export (${want[$r]})"
	done
	[[ ! -e $WORK/other.db && ! -e $WORK/copy.db ]] || fail "a refused statement wrote a file"
	# the pragmas that only read the schema are allowed
	bad_report columns "-- Columns\nSELECT name FROM pragma_table_info('StringIds') ORDER BY cid\n"
	run stats -q --report-dir rd -r columns -f csv ex.sqlite
	rc_is 0; err_is ""; out_is "name
$(sqlite3 "$WORK/ex.sqlite" "SELECT name FROM pragma_table_info('StringIds') ORDER BY cid")"
	same_export ex.sqlite "$sum"
}
test_report_dir_files() {
	rd_make
	run stats --report-dir rd -r legacy ex.sqlite
	rc_is 2; out_is ""; err_is "nstats: error: rd/legacy.py: only .sql reports are supported (nstats cannot run nsys's Python report scripts)"
	run stats --report-dir rd --help-reports legacy
	rc_is 2; out_is ""; err_is "nstats: error: rd/legacy.py: only .sql reports are supported (nstats cannot run nsys's Python report scripts)"
	run stats --report-dir nosuch -r counts ex.sqlite
	rc_is 3; out_is ""; err_is "nstats: error: nosuch: No such file or directory"
	run stats --report-dir ex.sqlite -r counts ex.sqlite
	rc_is 3; out_is ""; err_is "nstats: error: ex.sqlite: Not a directory"
	mkdir "$WORK/e1"; : >"$WORK/e1/empty.sql"
	run stats --report-dir e1 -r empty ex.sqlite
	rc_is 2; out_is ""; err_is "nstats: error: e1/empty.sql: file is empty"
	mkdir "$WORK/e2"; printf 'SELECT 1\n' >"$WORK/e2/two words.sql"
	run stats --report-dir e2 --help-reports
	rc_is 2; out_is ""; err_is "nstats: error: e2/two words.sql: not a report name (letters, digits, '_' and '-' before .sql): rename the file"
	rm "$WORK/e2/two words.sql"; printf 'SELECT 1\n' >"$WORK/e2/two"$'\n'"lines.sql"
	run stats --report-dir e2 --help-reports
	rc_is 2; out_is ""; err_is "nstats: error: e2/two\\nlines.sql: not a report name (letters, digits, '_' and '-' before .sql): rename the file"
	mkdir "$WORK/e3"; printf -- '-- Mine\nSELECT 1\n' >"$WORK/e3/nvtx_sum.sql"
	run stats --report-dir e3 -r nvtx_sum ex.sqlite
	rc_is 2; out_is ""; err_is "nstats: error: e3/nvtx_sum.sql: a built-in report is named nvtx_sum: rename the file"
	mkdir "$WORK/e4"; cp "$WORK/rd/counts.sql" "$WORK/e4/"
	run stats --report-dir rd --report-dir e4 -r counts ex.sqlite
	rc_is 2; out_is ""; err_is "nstats: error: e4/counts.sql: report counts is also rd/counts.sql"
	mkdir "$WORK/e5"; ln -s nowhere "$WORK/e5/dangling.sql"
	run stats --report-dir e5 -r dangling ex.sqlite
	rc_is 3; out_is ""; err_is "nstats: error: e5/dangling.sql: No such file or directory"
	mkdir -p "$WORK/e6/dir.sql"
	run stats --report-dir e6 -r dir ex.sqlite
	rc_is 2; out_is ""; err_is "nstats: error: e6/dir.sql: not a regular file"
	mkdir "$WORK/e7"; printf 'SELECT 1\0 AS x\n' >"$WORK/e7/nul.sql"
	run stats --report-dir e7 -r nul ex.sqlite
	rc_is 2; out_is ""; err_is "nstats: error: e7/nul.sql: not a text file (it holds a NUL byte)"
	# the directories from two options
	mkdir "$WORK/e8"; printf -- '-- Eight\nSELECT 8 AS n\n' >"$WORK/e8/eight.sql"
	run stats -q --report-dir rd --report-dir e8 -r eight,untitled -f csv ex.sqlite
	rc_is 0; err_is ""; out_is "n
8

One
1"
	# analyze runs rules only: it has no --report-dir
	run analyze --report-dir rd ex.sqlite
	rc_is 2; out_is ""; err_is "nstats: error: analyze: unknown option '--report-dir' (see nstats analyze --help)"
}

# forever: a recursive CTE that never ends, one row a step
forever() {
	mkdir -p "$WORK/rd"
	printf -- '-- Forever\nWITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)\nSELECT x AS "N", x AS "T:dur_ns" FROM c\n' \
		>"$WORK/rd/forever.sql"
	printf -- '-- Never done\nWITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)\nSELECT count(*) AS "N" FROM c\n' \
		>"$WORK/rd/endless_count.sql"
}
test_report_dir_query_limit() {
	forever
	local sum t0
	sum=$(export_sum ex.sqlite)
	t0=$SECONDS
	run stats -q --report-dir rd -r endless_count --query-limit 1 ex.sqlite
	rc_is 1; out_is ""; err_is "nstats: error: rd/endless_count.sql: the query ran past its time limit of 1 s"
	((SECONDS - t0 < 20)) || fail "the limit of 1 s took $((SECONDS - t0)) s"
	# rows already written to a file: the file goes
	run stats -q --report-dir rd -r forever --query-limit 0.5 -f csv -o out ex.sqlite
	rc_is 1; out_is ""; err_is "nstats: error: rd/forever.sql: the query ran past its time limit of 0.5 s"
	no_file out_forever.csv
	for v in -1 x 1s ''; do
		run stats --report-dir rd -r forever --query-limit "$v" ex.sqlite
		rc_is 2; out_is ""
		err_is "nstats: error: stats: option '--query-limit' takes a number of seconds (0 for no limit), not '$v'"
	done
	same_export ex.sqlite "$sum"
}
# interrupt_run FILE ARGS...: nstats ARGS in the background, SIGINT once FILE exists (or after 5 s)
interrupt_run() {
	local file=$1 i
	shift
	(cd "$WORK" && exec "$NSTATS" "$@") >"$WORK/.out" 2>"$WORK/.err" &
	local pid=$!
	for ((i = 0; i < 50; i++)); do
		[[ -z $file || ! -s $WORK/$file ]] || break
		sleep 0.1
	done
	kill -INT "$pid"
	wait "$pid"
	RC=$?
	OUT=$(<"$WORK/.out") ERR=$(<"$WORK/.err")
}
test_report_dir_sigint() {
	forever
	local sum
	sum=$(export_sum ex.sqlite)
	# a query writing rows to a file: the file goes
	interrupt_run out_forever.csv stats --report-dir rd -r forever,cuda_api_sum -f csv -o out --query-limit 0 ex.sqlite
	rc_is 130; err_is "nstats: error: interrupted"
	out_is "Processing [ex.sqlite] with [forever] to [out_forever.csv]... "
	no_file out_forever.csv; no_file out_cuda_api_sum.csv
	# a query with no row yet, on the console
	interrupt_run "" stats -q --report-dir rd -r endless_count --query-limit 0 ex.sqlite
	rc_is 130; out_is ""; err_is "nstats: error: interrupted"
	same_export ex.sqlite "$sum"
}
test_report_dir_streams() {
	mkdir -p "$WORK/rd"
	local n rss_small rss_big
	[[ -x /usr/bin/time ]] || { echo "cli: note: no /usr/bin/time, report_dir_streams not run"; return; }
	# AddressSanitizer keeps freed memory in quarantine, so resident memory grows with every row
	# (asked of the file itself: `ldd | grep -q` under pipefail fails whenever grep stops reading first)
	if grep -qa __asan_init "$NSTATS"; then
		echo "cli: note: nstats is built with AddressSanitizer, report_dir_streams not run"
		return
	fi
	for n in 100000 1000000; do
		printf -- "-- Rows\nWITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT $n)\nSELECT x AS \"N\", 'row ' || x AS \"Text\" FROM c\n" \
			>"$WORK/rd/rows$n.sql"
		(cd "$WORK" && /usr/bin/time -f '%M' -o "$WORK/rss$n" "$NSTATS" stats -q --report-dir rd -r "rows$n" -f csv ex.sqlite) |
			sed '/^$/d' | tail -n 1 >"$WORK/last$n"
		[[ $(<"$WORK/last$n") == "$n,row $n" ]] || fail "last row of $n: $(cat "$WORK/last$n")"
	done
	rss_small=$(tail -n 1 "$WORK/rss100000") rss_big=$(tail -n 1 "$WORK/rss1000000")
	# ten times the rows, not ten times the memory
	((rss_big < rss_small * 3 / 2)) || fail "memory grows with the rows: $rss_small KB for 100000, $rss_big KB for 1000000"
}

# ---- the export of a .nsys-rep: --force-export and --sqlite, with an nsys that logs its calls ----

# fake_nsys: WORK/bin/nsys appends its arguments to WORK/nsys.log and writes a copy of ex.sqlite
# where --output= says
fake_nsys() {
	mkdir -p "$WORK/bin"
	cat >"$WORK/bin/nsys" <<EOF
#!/bin/sh
echo "\$*" >>"$WORK/nsys.log"
for a; do case \$a in --output=*) cp "$WORK/ex.sqlite" "\${a#--output=}";; esac; done
EOF
	chmod +x "$WORK/bin/nsys"
	: >"$WORK/nsys.log"
	printf 'a capture\n' >"$WORK/cap.nsys-rep"
	touch -d '2020-01-01 00:00:00' "$WORK/cap.nsys-rep"
}
nsys_calls() { cat "$WORK/nsys.log"; : >"$WORK/nsys.log"; }
CUDA_API_CSV=''
test_force_export() {
	fake_nsys
	run stats -q -r cuda_api_sum -f csv ex.sqlite
	local want=$OUT
	# no export beside it: made once, then reused while it is the newer
	PATH=$WORK/bin:$PATH run stats -q -r cuda_api_sum -f csv cap.nsys-rep
	rc_is 0; err_is ""; out_is "$want"
	[[ $(nsys_calls) == "export --type=sqlite --force-overwrite=true --output=cap.sqlite cap.nsys-rep" ]] ||
		fail "nsys was not asked to export cap.nsys-rep"
	PATH=$WORK/bin:$PATH run stats -q -r cuda_api_sum -f csv cap.nsys-rep
	rc_is 0; out_is "$want"; [[ -z $(nsys_calls) ]] || fail "an up-to-date export was made again"
	PATH=$WORK/bin:$PATH run stats -q -r cuda_api_sum -f csv --force-export false cap.nsys-rep
	rc_is 0; [[ -z $(nsys_calls) ]] || fail "--force-export false exported"
	for f in --force-export --force-export=true "--force-export true"; do
		# shellcheck disable=SC2086
		PATH=$WORK/bin:$PATH run stats -q -r cuda_api_sum -f csv $f cap.nsys-rep
		rc_is 0; err_is ""; out_is "$want"
		[[ $(nsys_calls) == "export --type=sqlite --force-overwrite=true --output=cap.sqlite cap.nsys-rep" ]] ||
			fail "$f did not export again"
	done
	PATH=$WORK/bin:$PATH run analyze -q -r gpu_gaps --force-export cap.nsys-rep
	rc_is 0; [[ $(nsys_calls) == "export --type=sqlite --force-overwrite=true --output=cap.sqlite cap.nsys-rep" ]] ||
		fail "analyze --force-export did not export again"
	# an export older than the .nsys-rep is made again
	touch -d '2019-01-01 00:00:00' "$WORK/cap.sqlite"
	PATH=$WORK/bin:$PATH run stats -q -r cuda_api_sum -f csv cap.nsys-rep
	rc_is 0; [[ $(nsys_calls) == "export --type=sqlite --force-overwrite=true --output=cap.sqlite cap.nsys-rep" ]] ||
		fail "an older export was used"
	# a .sqlite input ignores it (nsys refuses it), and nsys is not run
	PATH=$WORK/bin:$PATH run stats -q -r cuda_api_sum -f csv --force-export ex.sqlite
	rc_is 0; err_is ""; out_is "$want"; [[ -z $(nsys_calls) ]] || fail "nsys ran for a .sqlite input"
	run stats --force-export maybe ex.sqlite
	rc_is 2; out_is ""; err_is "nstats: error: stats: option '--force-export' takes true or false, not 'maybe'"
	# without nsys on PATH the export cannot be made
	rm "$WORK/cap.sqlite"
	PATH=/nonexistent run stats -q -r cuda_api_sum cap.nsys-rep
	rc_is 3; out_is ""
	err_is "nstats: error: cap.nsys-rep: no up-to-date SQLite export beside it and nsys is not on PATH; run: nsys export --type=sqlite --output=cap.sqlite cap.nsys-rep"
}
test_sqlite_option() {
	fake_nsys
	run stats -q -r cuda_api_sum -f csv ex.sqlite
	local want=$OUT sum
	sum=$(export_sum ex.sqlite)
	# the named file is written, then read, then reused
	PATH=$WORK/bin:$PATH run stats -q -r cuda_api_sum -f csv --sqlite mine.sqlite cap.nsys-rep
	rc_is 0; err_is ""; out_is "$want"
	[[ $(nsys_calls) == "export --type=sqlite --force-overwrite=true --output=mine.sqlite cap.nsys-rep" ]] ||
		fail "nsys was not asked to write mine.sqlite"
	[[ ! -e $WORK/cap.sqlite ]] || fail "cap.sqlite was written"
	PATH=$WORK/bin:$PATH run stats -q -r cuda_api_sum -f csv --sqlite mine.sqlite cap.nsys-rep
	rc_is 0; out_is "$want"; [[ -z $(nsys_calls) ]] || fail "an up-to-date mine.sqlite was made again"
	PATH=$WORK/bin:$PATH run stats -q -r cuda_api_sum -f csv --sqlite mine.sqlite --force-export cap.nsys-rep
	rc_is 0; [[ $(nsys_calls) == "export --type=sqlite --force-overwrite=true --output=mine.sqlite cap.nsys-rep" ]] ||
		fail "--force-export did not write mine.sqlite again"
	# an existing file older than the .nsys-rep is exported again (D44: nsys reads it)
	touch -d '2019-01-01 00:00:00' "$WORK/mine.sqlite"
	PATH=$WORK/bin:$PATH run stats -q -r cuda_api_sum -f csv --sqlite mine.sqlite cap.nsys-rep
	rc_is 0; out_is "$want"
	[[ $(nsys_calls) == "export --type=sqlite --force-overwrite=true --output=mine.sqlite cap.nsys-rep" ]] ||
		fail "an older mine.sqlite was read"
	# files named after the export (-o .) are named after --sqlite's, as nsys does
	PATH=$WORK/bin:$PATH run stats -r cuda_api_sum -f csv -o . --sqlite mine.sqlite cap.nsys-rep
	rc_is 0; out_is "Processing [mine.sqlite] with [cuda_api_sum] to [mine_cuda_api_sum.csv]... PROCESSED"
	PATH=$WORK/bin:$PATH run analyze -q -r gpu_gaps --sqlite other.sqlite cap.nsys-rep
	rc_is 0; [[ $(nsys_calls) == "export --type=sqlite --force-overwrite=true --output=other.sqlite cap.nsys-rep" ]] ||
		fail "analyze --sqlite did not write other.sqlite"
	# a .sqlite input ignores it (nsys refuses it): not read, not written
	PATH=$WORK/bin:$PATH run stats -q -r cuda_api_sum -f csv --sqlite none.sqlite ex.sqlite
	rc_is 0; err_is ""; out_is "$want"; no_file none.sqlite; [[ -z $(nsys_calls) ]] || fail "nsys ran"
	run stats --sqlite mine.sqlite cap.nsys-rep ex.sqlite
	rc_is 2; out_is ""; err_is "nstats: error: stats: --sqlite names the export of one input, and 2 are given"
	run stats --sqlite
	rc_is 2; out_is ""; err_is "nstats: error: stats: option '--sqlite' needs a value"
	same_export ex.sqlite "$sum"
}
test_export_takes_the_nsys_rep_options() { # the timeline of a .nsys-rep, as stats reads it
	fake_nsys
	run export --type chrome-json -o - ex.sqlite
	local want=$OUT
	PATH=$WORK/bin:$PATH run export --type chrome-json -o - --sqlite mine.sqlite cap.nsys-rep
	rc_is 0; err_is ""; out_is "$want"
	[[ $(nsys_calls) == "export --type=sqlite --force-overwrite=true --output=mine.sqlite cap.nsys-rep" ]] ||
		fail "nsys was not asked to write mine.sqlite"
	PATH=$WORK/bin:$PATH run export --type chrome-json -o - --sqlite mine.sqlite cap.nsys-rep
	rc_is 0; out_is "$want"; [[ -z $(nsys_calls) ]] || fail "an up-to-date mine.sqlite was made again"
	PATH=$WORK/bin:$PATH run export --type chrome-json -o - --sqlite mine.sqlite --force-export cap.nsys-rep
	rc_is 0; out_is "$want"
	[[ $(nsys_calls) == "export --type=sqlite --force-overwrite=true --output=mine.sqlite cap.nsys-rep" ]] ||
		fail "--force-export did not write mine.sqlite again"
	run export --type chrome-json -o - --sqlite mine.sqlite cap.nsys-rep ex.sqlite
	rc_is 2; out_is ""; err_is "nstats: error: export: --sqlite names the export of one input, and 2 are given"
	run export --type chrome-json -o - --force-export maybe ex.sqlite
	rc_is 2; out_is ""; err_is "nstats: error: export: option '--force-export' takes true or false, not 'maybe'"
}
