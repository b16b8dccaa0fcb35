# shellcheck shell=bash
# Reports whose missing table only names things (D49), `nstats check` naming the reports that will
# be skipped, and the note that says how many rows a report left out on purpose (D1, D20).
# Sourced by tests/cli/run.sh.

MFU=$SHARED/data/real/GindaChen__nsys-ai/tests/fixtures/mfu_2gpu_before.sqlite
HEALTHY=$SHARED/data/real/GindaChen__nsys-ai/tests/fixtures/healthy_1pct.sqlite
SAXPY_BT=$SHARED/data/real/hpcgroup__pipit/pipit/tests/data/saxpy-mpi-cuda_nsys_perlmutter0.sqlite

# labels_copy SRC DST SQL: WORK/DST is a copy of WORK/SRC changed by SQL; fails the test without sqlite3
labels_copy() {
	command -v sqlite3 >/dev/null || { echo "cli: note: no sqlite3 shell, $CUR not run"; return 1; }
	cp "$WORK/$1" "$WORK/$2" && chmod u+w "$WORK/$2" && sqlite3 "$WORK/$2" "$3" || { fail "cannot make $2"; return 1; }
}

# ---- D49: a missing table that only names things ---------------------------------------------

# without TARGET_INFO_GPU every GPU row is still listed, its Device without the name: exactly the
# rows printed when the table is there, but with the names taken out
test_gpu_trace_without_gpu_names() {
	labels_copy ex.sqlite nogpu.sqlite "DROP TABLE TARGET_INFO_GPU" || return
	local names named lines
	names=$(sqlite3 "$WORK/ex.sqlite" "SELECT DISTINCT name FROM TARGET_INFO_GPU")
	[[ -n $names ]] || { fail "the fixture names no GPU"; return; }
	run stats -q -r cuda_gpu_trace -f csv ex.sqlite; rc_is 0; err_is ""
	named=$OUT
	while IFS= read -r n; do named=${named//"$n ("/" ("}; done <<<"$names"
	run stats -q -r cuda_gpu_trace -f csv nogpu.sqlite; rc_is 0; err_is ""
	out_is "$named"
	run stats -q -r cuda_gpu_trace -f column ex.sqlite
	lines=$(wc -l <<<"$OUT")
	run stats -q -r cuda_gpu_trace -f column nogpu.sqlite; rc_is 0; err_is ""
	[[ $(wc -l <<<"$OUT") == "$lines" ]] || fail "column: not as many lines as with the GPU names"
	# Device is " (deviceId)" for every row, in start order
	run stats -q -r cuda_gpu_trace -f csv nogpu.sqlite
	local want
	want=$(sqlite3 "$WORK/ex.sqlite" "SELECT ' (' || deviceId || ')' FROM (SELECT start, deviceId, 0 AS k, rowid AS r
		FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT start, deviceId, 1, rowid FROM CUPTI_ACTIVITY_KIND_MEMCPY
		UNION ALL SELECT start, deviceId, 2, rowid FROM CUPTI_ACTIVITY_KIND_MEMSET) ORDER BY start, k, r")
	[[ $(sed 1d <<<"$OUT" | python3 -c 'import csv, sys; [print(r[16]) for r in csv.reader(sys.stdin)]') == "$want" ]] ||
		fail "the Device column is not ' (deviceId)' of each GPU row"
}

# the real 2-GPU captures have no TARGET_INFO_GPU: nsys skips cuda_gpu_trace, nstats lists them
test_gpu_trace_of_a_capture_without_gpu_names() {
	[[ -f $MFU ]] || { echo "cli: note: no $MFU, $CUR not run"; return; }
	run stats -q -r cuda_gpu_trace -f csv "$MFU"; rc_is 0; err_is ""
	local rows want devices
	rows=$(sed '1d;/^$/d' <<<"$OUT" | python3 -c 'import csv, sys; print(sum(1 for _ in csv.reader(sys.stdin)))')
	want=$(sqlite3 "$MFU" "SELECT (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL) +
		(SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY) + (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET)")
	[[ $rows == "$want" ]] || fail "$rows rows, expected $want"
	devices=$(sed '1d;/^$/d' <<<"$OUT" | python3 -c 'import csv, sys; print(" ".join(sorted({r[16] for r in csv.reader(sys.stdin)})))')
	[[ $devices == " (0)  (1)" ]] || fail "devices '$devices'"
}

# without ThreadNames the calls are listed with an empty T-Pri and Thread Name
test_api_trace_without_thread_names() {
	labels_copy ex.sqlite nothreads.sqlite "DROP TABLE ThreadNames" || return
	[[ $(sqlite3 "$WORK/ex.sqlite" "SELECT count(*) = count(DISTINCT globalTid) FROM ThreadNames") == 1 ]] ||
		{ fail "the fixture names a thread twice"; return; }
	run stats -q -r cuda_api_trace -f csv ex.sqlite; rc_is 0; err_is ""
	local want
	want=$(python3 -c 'import csv, sys
w = csv.writer(sys.stdout, lineterminator="\n")
for i, r in enumerate(csv.reader(sys.stdin.read().splitlines())):
    w.writerow(r if i == 0 else r[:7] + ["", ""])' <<<"$OUT")
	run stats -q -r cuda_api_trace -f csv nothreads.sqlite; rc_is 0; err_is ""
	out_is "$want"
}

# without TARGET_INFO_WDDM_CONTEXTS every queue is listed with Node Ord 0: the rows printed when the
# table is there, Node Ord aside (nsys 2024.2.3 prints the same for the table emptied)
test_wddm_without_contexts() {
	"$(dirname "$NSTATS")/nsysgen" -q --seed 21 --processes 2 --kernels 2 --memcpy 0 --memset 0 --nvtx 0 \
		--osrt 0 --wddm 20 -o "$WORK/wddm.sqlite" >/dev/null || { fail "nsysgen --wddm failed"; return; }
	labels_copy wddm.sqlite nocontexts.sqlite "DROP TABLE TARGET_INFO_WDDM_CONTEXTS" || return
	run stats -q -r wddm_queue_sum -f csv wddm.sqlite; rc_is 0; err_is ""
	local want
	want=$(python3 -c 'import csv, sys
w = csv.writer(sys.stdout, lineterminator="\n")
rows = list(csv.reader(sys.stdin.read().splitlines()))
assert len(rows) > 2 and any(r[14] != "0" for r in rows[1:])
for i, r in enumerate(rows):
    w.writerow(r if i == 0 else r[:14] + ["0"])' <<<"$OUT") || { fail "no queue with a Node Ord"; return; }
	run stats -q -r wddm_queue_sum -f csv nocontexts.sqlite; rc_is 0; err_is ""
	out_is "$want"
	# with no packets either, nsys's message
	labels_copy nocontexts.sqlite nowddm.sqlite "DROP TABLE WDDM_QUEUE_PACKET_START_EVENTS;
		DROP TABLE WDDM_DMA_PACKET_START_EVENTS" || return
	run stats -q -r wddm_queue_sum nowddm.sqlite; rc_is 0; out_is ""
	err_is "SKIPPED: nowddm.sqlite does not contain WDDM context data."
}

# where there is nothing to list either, nsys's message stays, and it names the missing label table
test_label_tables_keep_nsys_message_without_rows() {
	labels_copy ex.sqlite bare.sqlite "DROP TABLE ThreadNames; DROP TABLE TARGET_INFO_GPU;
		DROP TABLE CUPTI_ACTIVITY_KIND_RUNTIME; DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL;
		DROP TABLE CUPTI_ACTIVITY_KIND_MEMCPY; DROP TABLE CUPTI_ACTIVITY_KIND_MEMSET" || return
	run stats -q -r cuda_gpu_trace bare.sqlite; rc_is 0; out_is ""
	err_is "SKIPPED: bare.sqlite file does not contain TARGET_INFO_GPU table."
	run stats -q -r cuda_api_trace bare.sqlite; rc_is 0; out_is ""
	err_is "SKIPPED: bare.sqlite file does not contain ThreadNames table."
	run stats -q -r vulkan_api_trace bare.sqlite; rc_is 0; out_is ""
	err_is "SKIPPED: bare.sqlite file does not contain ThreadNames table."
	# with the label tables, the message is about the data
	run stats -q -r cuda_gpu_trace -r cuda_api_trace -r vulkan_api_trace ex.sqlite
	[[ $ERR == *"SKIPPED: ex.sqlite does not contain Vulkan API trace data." ]] || fail "vulkan_api_trace: '$ERR'"
}

# ---- the note on rows left out on purpose (D1, D20) -----------------------------------------

CALL_REPORTS="cuda_api_sum cuda_api_trace cuda_api_gpu_sum cuda_kern_exec_trace cuda_kern_exec_sum nvtx_kern_sum"

# backtrace_rows EXPORT [LO HI]: the CUDA backtrace records of EXPORT that --filter-time LO/HI keeps
# (a row stays when it overlaps the window, as nsys's filter has it), counted by sqlite3
backtrace_rows() {
	local where="(callchainId IS NOT NULL OR eventClass = 67)"
	[[ -z ${2:-} ]] || where+=" AND ((start >= $2 AND start < $3) OR (end >= $2 AND end < $3) OR (start < $2 AND end >= $3))"
	sqlite3 "$1" "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE $where"
}

# each report that leaves the backtrace records out says how many, once, after its output; -q
# silences it
test_backtrace_note() {
	[[ -f $SAXPY_BT ]] || { echo "cli: note: no $SAXPY_BT, $CUR not run"; return; }
	command -v sqlite3 >/dev/null || { echo "cli: note: no sqlite3 shell, $CUR not run"; return; }
	local n r
	n=$(backtrace_rows "$SAXPY_BT")
	((n > 1)) || { fail "no backtrace records in $SAXPY_BT"; return; }
	for r in $CALL_REPORTS; do
		run stats -r "$r" -f csv "$SAXPY_BT"; rc_is 0
		err_is "nstats: note: $r on $SAXPY_BT: $n CUDA backtrace records excluded; nsys counts them as calls"
		out_has "Processing [$SAXPY_BT] with [$r]"
		run stats -q -r "$r" -f csv "$SAXPY_BT"; rc_is 0; err_is ""
	done
	# reports that never count calls say nothing, nor do exports without backtrace records
	run stats -r cuda_gpu_kern_sum -r cuda_gpu_trace -f csv "$SAXPY_BT"; rc_is 0; err_is ""
	run stats -r cuda_api_sum -f csv ex.sqlite; rc_is 0; err_is ""
	# one note per report, in their order, after each report's own output
	run stats -r cuda_api_sum -r nvtx_kern_sum -f csv "$SAXPY_BT"; rc_is 0
	err_is "nstats: note: cuda_api_sum on $SAXPY_BT: $n CUDA backtrace records excluded; nsys counts them as calls
nstats: note: nvtx_kern_sum on $SAXPY_BT: $n CUDA backtrace records excluded; nsys counts them as calls"
}

# the note counts the records the report's filter keeps; one in the singular
test_backtrace_note_follows_the_filter() {
	[[ -f $SAXPY_BT ]] || { echo "cli: note: no $SAXPY_BT, $CUR not run"; return; }
	command -v sqlite3 >/dev/null || { echo "cli: note: no sqlite3 shell, $CUR not run"; return; }
	local lo hi n all
	all=$(backtrace_rows "$SAXPY_BT")
	read -r lo hi < <(sqlite3 -separator ' ' "$SAXPY_BT" "SELECT min(start), max(start) FROM (SELECT start FROM
		CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass = 67 ORDER BY start LIMIT 10 OFFSET 5)")
	n=$(backtrace_rows "$SAXPY_BT" "$lo" "$hi")
	((n > 1 && n < all)) || { fail "the window holds $n of $all records"; return; }
	run stats -r cuda_api_sum -f csv --filter-time "$lo/$hi" "$SAXPY_BT"; rc_is 0
	err_is "nstats: note: cuda_api_sum on $SAXPY_BT: $n CUDA backtrace records excluded; nsys counts them as calls"
	n=$(backtrace_rows "$SAXPY_BT" "$lo" "$((lo + 1))")
	[[ $n == 1 ]] || { fail "the window [$lo, $((lo + 1))) holds $n records"; return; }
	run stats -r cuda_api_trace -f csv --filter-time "$lo/$((lo + 1))" "$SAXPY_BT"; rc_is 0
	err_is "nstats: note: cuda_api_trace on $SAXPY_BT: 1 CUDA backtrace record excluded; nsys counts it as a call"
}

# ---- nstats check names the reports that will be skipped -------------------------------------

# on a real export, each requested report or rule that will print SKIPPED is named with the reason
# that nsys's SKIPPED line gives (the reference's outputs for the export), in text and in JSON;
# cuda_gpu_trace, which nsys skips there for a table that only names the GPUs, runs (D49)
test_check_names_skipped_reports() {
	[[ -f $MFU ]] || { echo "cli: note: no $MFU, $CUR not run"; return; }
	local base=${MFU##*/} oracle=$SHARED/data/oracle-2024.2.3/GindaChen__nsys-ai/tests/fixtures/mfu_2gpu_before
	[[ -d $oracle ]] || { echo "cli: note: no $oracle, $CUR not run"; return; }
	ln -s "$MFU" "$WORK/$base"
	local list="osrt_sum cuda_api_sum cuda_gpu_trace nvtx_sum um_sum mpi_event_trace network_congestion
		vulkan_api_trace wddm_queue_sum cuda_memset_sync gpu_gaps" r n=0 k=0 lines="" json=""
	for r in $list; do
		n=$((n + 1))
		[[ -f $oracle/$r.msg && $r != cuda_gpu_trace ]] || continue
		grep -q '^SKIPPED: ' "$oracle/$r.msg" || { fail "$r.msg is not a SKIPPED line"; return; }
		k=$((k + 1))
		lines+="        $r: $(<"$oracle/$r.msg")"$'\n'
		json+="$r	$(sed 's/^SKIPPED: //' "$oracle/$r.msg")"$'\n'
	done
	((k > 5)) || { fail "only $k of the reports are skipped"; return; }
	run check -r "$(tr -s ' \t\n' ',' <<<"$list" | sed 's/,$//')" "$base"; rc_is 0; err_is ""
	out_has $'\n'"info    skipped_reports: $k requested reports that print SKIPPED on this export"$'\n'"$lines        $k of $n requested reports print SKIPPED on this export, each named with its reason"$'\n'
	run check -f json -r "$(tr -s ' \t\n' ',' <<<"$list" | sed 's/,$//')" "$base"; rc_is 0; err_is ""
	[[ $(python3 -c 'import json, sys
f = [f for f in json.load(sys.stdin)["findings"] if f["name"] == "skipped_reports"][0]
assert f["status"] == "info" and f["count"] == len(f["parts"])
for p in f["parts"]: print(p["name"] + "\t" + p["reason"])' <<<"$OUT") == "${json%$'\n'}" ]] ||
		fail "the JSON parts are not the skipped reports with nsys's reasons"
	# an export where nothing is skipped says so
	run check -r cuda_api_sum,cuda_gpu_trace ex.sqlite; rc_is 0
	out_has $'\nok      skipped_reports: 0 requested reports that print SKIPPED on this export\n'
}

# a report that fails on the export (its kernel table has no end) is not named as skipped, and the
# audit of the rest goes on: stats says why with its own error
test_check_skipped_reports_with_a_failing_report() {
	labels_copy ex.sqlite noend.sqlite 'ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN "end"' || return
	run stats -q -r cuda_gpu_kern_sum noend.sqlite; rc_is 3
	err_is "nstats: error: noend.sqlite: CUPTI_ACTIVITY_KIND_KERNEL lacks start or end"
	run check -r cuda_gpu_kern_sum,nvtx_sum noend.sqlite; rc_is 0; err_is ""
	out_has $'\ninfo    skipped_reports: 1 requested reports that print SKIPPED on this export\n        nvtx_sum: SKIPPED: noend.sqlite does not contain NV Tools Extension (NVTX) data.\n        1 of 2 requested reports print SKIPPED on this export, each named with its reason\n'
}
