# `nstats report`: one HTML page. Its numbers are checked against the reports' csv
# (tests/report/check_numbers.py); the browser, the strict HTML parser and the hostile names are
# tests/report/run.sh's.

report_gen() { "${NSYSGEN:-$(dirname "$NSTATS")/nsysgen}" -q "$@" >/dev/null || fail "nsysgen $* failed"; }
report_numbers() { # report_numbers PAGE INPUT... [-- OPTION...]: the page's tables against the csv
	python3 "$(dirname "${BASH_SOURCE[0]}")/../../report/check_numbers.py" "$NSTATS" "$@" >"$WORK/.check" ||
		fail "the page's numbers differ from the reports': $(head -c 600 "$WORK/.check")"
}
# the files of WORK, but for the inputs: what a failed run must not leave
report_left() {
	(cd "$WORK" && find . -mindepth 1 ! -name '*.sqlite' ! -name .out ! -name .err ! -name .check \
		-printf '%P\n' | sort)
}

test_report_help() {
	run report --help
	rc_is 0; err_is ""
	[[ $OUT == "usage: nstats report [OPTION...] INPUT... -o FILE.html"* ]] || fail "usage: ${OUT:0:100}"
	local o
	for o in --output --force-overwrite --top --title --filter-time --filter-nvtx; do
		out_has "$o"
	done
}

test_report_needs_output() {
	run report ex.sqlite
	rc_is 2; out_is ""
	err_is "nstats: error: report: -o FILE is required: the page is written to a file (see nstats report --help)"
	[[ -z $(report_left) ]] || fail "left: $(report_left)"
}

test_report_writes_page() {
	run report ex.sqlite -o page.html
	rc_is 0; out_is ""; err_is ""
	[[ -f $WORK/page.html ]] || { fail "no page.html"; return; }
	[[ $(head -c 15 "$WORK/page.html") == '<!DOCTYPE html>' ]] || fail "not an HTML document"
	grep -qF "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">" \
		"$WORK/page.html" || fail "no Content-Security-Policy that forbids fetches"
	# the only URL is the SVG namespace, which names and fetches nothing
	local urls
	urls=$(grep -oE '(https?|wss?|ftp)://[^"]*' "$WORK/page.html" | sort -u)
	[[ $urls == "http://www.w3.org/2000/svg" ]] || fail "URLs in the page: $urls"
	[[ $(report_left) == page.html ]] || fail "left beside the page: $(report_left)"
	local mode
	mode=$(stat -c %a "$WORK/page.html")
	[[ $mode == 644 ]] || fail "page mode $mode, expected 644"
	report_numbers "$WORK/page.html" "$WORK/ex.sqlite"
}

test_report_sections() {
	report_gen --example -o "$WORK/example.sqlite"
	run report example.sqlite -o page.html
	rc_is 0
	local id
	for id in overview gpu kernels memory api nvtx gaps; do
		grep -q "<section id=\"$id\">" "$WORK/page.html" || fail "no section $id"
	done
	# the example has CUDA backtrace records: check's finding is on top, in words
	grep -q '<li data-finding="backtrace_rows" data-v="31">' "$WORK/page.html" ||
		fail "no backtrace_rows finding"
	local n
	n=$(sqlite3 "$WORK/example.sqlite" 'SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass = 67')
	[[ $n == 31 ]] || fail "sqlite3 counts $n backtrace records, the page 31"
}

test_report_refuses_overwrite() {
	echo old >"$WORK/page.html"
	run report ex.sqlite -o page.html
	rc_is 4; out_is ""
	err_is "nstats: error: page.html: output file exists (--force-overwrite replaces it)"
	[[ $(<"$WORK/page.html") == old ]] || fail "page.html was changed"
	run report ex.sqlite -o page.html --force-overwrite
	rc_is 0; out_is ""; err_is ""
	[[ $(head -c 15 "$WORK/page.html") == '<!DOCTYPE html>' ]] || fail "page.html not replaced"
	[[ $(report_left) == page.html ]] || fail "left beside the page: $(report_left)"
}

test_report_dev_full() {
	[[ -c /dev/full ]] || { echo "cli: note: no /dev/full, report_dev_full not checked"; return; }
	run report ex.sqlite -o /dev/full
	rc_is 4; out_is ""
	err_is "nstats: error: /dev/full: write failed: No space left on device"
	# standard output on a full disk: said once, by the command
	local err
	err=$(cd "$WORK" && "$NSTATS" report -o - ex.sqlite 2>&1 >/dev/full; echo "rc=$?")
	[[ $err == $'nstats: error: standard output: write failed: No space left on device\nrc=4' ]] ||
		fail "-o - to /dev/full: $err"
}

# -o - writes the page to standard output, the same bytes as -o FILE
test_report_stdout() {
	run report -o page.html ex.sqlite
	rc_is 0
	run report -o - ex.sqlite
	rc_is 0; err_is ""
	[[ $OUT == "$(<"$WORK/page.html")" ]] || fail "the page on stdout differs from -o page.html"
	[[ ! -e $WORK/- ]] || fail "a file named - was written"
}

test_report_unwritable_folder() {
	run report ex.sqlite -o nosuch/page.html
	rc_is 4; out_is ""
	err_is "nstats: error: nosuch/page.html: No such file or directory"
}

test_report_bad_input_leaves_nothing() {
	run report ex.sqlite missing.sqlite -o page.html
	rc_is 3; out_is ""
	err_line "^nstats: error: missing\.sqlite: "
	[[ -z $(report_left) ]] || fail "left: $(report_left)"
}

test_report_bad_top() {
	run report --top 0 ex.sqlite -o page.html
	rc_is 2; out_is ""
	err_is "nstats: error: report: --top: expected an integer from 1 to 1000, found '0'"
	no_file page.html
}

test_report_bad_filter_time() {
	run report --filter-time 5/x ex.sqlite -o page.html
	rc_is 2; out_is ""
	err_line "^nstats: error: report: illegal --filter-time argument '5/x': "
	no_file page.html
}

test_report_top() {
	run report --top 3 ex.sqlite -o page.html
	rc_is 0; err_is ""
	local n
	n=$(python3 - "$WORK/page.html" <<'PY'
import re, sys
t = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'<table class="rows" data-report="cuda_gpu_kern_dist:rows=3".*?</table>', t, re.S)
print(m.group(0).count("<tr>") - 1 if m else -1)
PY
)
	[[ $n == 3 ]] || fail "$n kernel rows, expected 3"
	report_numbers "$WORK/page.html" "$WORK/ex.sqlite"
}

test_report_filter() {
	run report --filter-time 118ms/121ms ex.sqlite -o page.html
	rc_is 0; err_is ""
	grep -q "under a filter" "$WORK/page.html" || fail "the page does not say it is filtered"
	report_numbers "$WORK/page.html" "$WORK/ex.sqlite" -- --filter-time 118ms/121ms
}

test_report_title_escaped() {
	run report --title '<script>alert("x")</script> & '"'"'q'"'" ex.sqlite -o page.html
	rc_is 0; err_is ""
	grep -qF '<title>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;</title>' \
		"$WORK/page.html" || fail "title not escaped"
	! grep -qF '<script>alert' "$WORK/page.html" || fail "the title's script is in the page"
}

test_report_two_inputs() {
	report_gen --seed 3 --kernels 200 -o "$WORK/b.sqlite"
	run report ex.sqlite b.sqlite -o page.html
	rc_is 0; out_is ""; err_is ""
	grep -q '<section id="diff">' "$WORK/page.html" || fail "no diff section"
	grep -q '<section id="kernels">' "$WORK/page.html" && fail "a one-input section on a diff page"
	grep -q 'data-report="kern_diff"' "$WORK/page.html" || fail "no kern_diff table"
	report_numbers "$WORK/page.html" "$WORK/ex.sqlite" "$WORK/b.sqlite"
}

test_report_ranks() {
	local r
	for r in 0 1 2 3; do report_gen --ranks 4 --rank $r --kernels 200 -o "$WORK/r$r.sqlite"; done
	run report r0.sqlite r1.sqlite r2.sqlite r3.sqlite -o page.html
	rc_is 0; out_is ""; err_is ""
	grep -q '<section id="ranks">' "$WORK/page.html" || fail "no ranks section"
	# the heat map: one strip per rank and GPU (report_numbers checks their buckets)
	local strips
	strips=$(grep -c '^<g data-rank="[0-9]*" data-device="[0-9]*" data-bucket-time="[0-9]*"><text x="124" y="[0-9.]*" text-anchor="end">rank ' "$WORK/page.html")
	[[ $strips == 8 ]] || fail "$strips strips in the heat map, expected 8 (4 ranks x 2 GPUs)"
	report_numbers "$WORK/page.html" "$WORK"/r{0,1,2,3}.sqlite
}

test_report_says_what_is_absent() {
	report_gen --seed 4 --kernels 50 --nvtx 0 --launch-ranges 0 -o "$WORK/n.sqlite"
	run report n.sqlite -o page.html
	rc_is 0; err_is ""
	grep -qF '<p class="absent">No NVTX ranges in this capture.</p>' "$WORK/page.html" ||
		fail "the page does not say there are no NVTX ranges"
}

test_report_graph_note() {
	report_gen --seed 9 --kernels 300 --graphs 4 --overlap --nvtx 0 -o "$WORK/g.sqlite"
	run report g.sqlite -o page.html
	rc_is 0; out_is ""; err_is ""
	local n
	n=$(sqlite3 "$WORK/g.sqlite" 'SELECT count(*) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE')
	grep -q "data-hidden-graph-launches=\"$n\">Not shown: $n CUDA graph launches" "$WORK/page.html" ||
		fail "the page does not say that $n graph launches are not in the kernels"
}

test_report_never_replaces_an_input() {
	local sum
	sum=$(sha256sum <"$WORK/ex.sqlite")
	run report ex.sqlite -o ./ex.sqlite --force-overwrite
	rc_is 2; out_is ""
	err_is "nstats: error: ./ex.sqlite: is an input (ex.sqlite): writing there would replace it"
	[[ $(sha256sum <"$WORK/ex.sqlite") == "$sum" ]] || fail "ex.sqlite changed"
}

test_report_says_its_filter() {
	run report --filter-nvtx 'no such range' ex.sqlite -o page.html
	rc_is 0; err_is ""
	grep -qF 'under a filter: only what overlaps the NVTX range <code>no such range</code>' \
		"$WORK/page.html" || fail "the page does not say its NVTX filter"
	run report --filter-time 1ms/ ex.sqlite -o page2.html
	rc_is 0; err_is ""
	grep -qF 'under a filter: only what overlaps the time from 1000000 ns to the end' \
		"$WORK/page2.html" || fail "the page does not say its time filter"
}
