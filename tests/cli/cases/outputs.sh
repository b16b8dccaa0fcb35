# Outputs of a run over several exports: files told apart under one -o base (D55), the labels
# of -q on the console (D56), and json:typed, one JSON document per stream (D57, docs/json.md).
# Sourced by tests/cli/run.sh, whose assertions these use.

# tools_or_note: python3, jq and sqlite3 check what nstats wrote independently of it
tools_or_note() {
	command -v python3 >/dev/null && command -v jq >/dev/null && command -v sqlite3 >/dev/null &&
		return 0
	echo "note $CUR: no python3, jq or sqlite3, skipped"
	return 1
}

# console_of FILE ARGS...: what `nstats ARGS` prints on stdout, kept whole in WORK/FILE
console_of() {
	local file=$1
	shift
	(cd "$WORK" && "$NSTATS" "$@") >"$WORK/$file" 2>/dev/null || fail "nstats $* exited $?"
}

test_outputs_one_export_keeps_nsys_name() {
	run stats -q -r cuda_api_sum -o k ex.sqlite
	rc_is 0; out_is ""; err_is ""
	console_of ex.csv stats -q -r cuda_api_sum -f csv ex.sqlite
	file_is k_cuda_api_sum.csv "$WORK/ex.csv"
}

test_outputs_several_exports_named_apart() {
	cp "$WORK/ex.sqlite" "$WORK/b.sqlite"
	sqlite3 "$WORK/b.sqlite" "DELETE FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE rowid % 2 = 0" 2>/dev/null
	run stats -q -r cuda_api_sum,cuda_gpu_kern_sum -o k ex.sqlite b.sqlite
	rc_is 0; out_is ""; err_is ""
	no_file k_cuda_api_sum.csv
	console_of ex.csv stats -q -r cuda_api_sum -f csv ex.sqlite
	console_of b.csv stats -q -r cuda_api_sum -f csv b.sqlite
	console_of exk.csv stats -q -r cuda_gpu_kern_sum -f csv ex.sqlite
	file_is k_ex_cuda_api_sum.csv "$WORK/ex.csv"
	file_is k_b_cuda_api_sum.csv "$WORK/b.csv"
	file_is k_ex_cuda_gpu_kern_sum.csv "$WORK/exk.csv"
	[[ -f $WORK/k_b_cuda_gpu_kern_sum.csv ]] || fail "k_b_cuda_gpu_kern_sum.csv was not written"
	# without -q each file is named where it is written
	rm -f "$WORK"/k_*
	run stats -r cuda_api_sum -o k ex.sqlite b.sqlite
	rc_is 0; err_is ""
	out_has "Processing [ex.sqlite] with [cuda_api_sum] to [k_ex_cuda_api_sum.csv]... PROCESSED"
	out_has "Processing [b.sqlite] with [cuda_api_sum] to [k_b_cuda_api_sum.csv]... PROCESSED"
}

test_outputs_same_name_in_two_folders() {
	mkdir "$WORK/x" "$WORK/y"
	cp "$WORK/ex.sqlite" "$WORK/x/run.sqlite"
	cp "$WORK/ex.sqlite" "$WORK/y/run.sqlite"
	sqlite3 "$WORK/y/run.sqlite" "DELETE FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE rowid % 3 = 0" 2>/dev/null
	run stats -q -r cuda_api_sum -o k ex.sqlite x/run.sqlite y/run.sqlite
	rc_is 0; out_is ""; err_is ""
	console_of x.csv stats -q -r cuda_api_sum -f csv x/run.sqlite
	console_of y.csv stats -q -r cuda_api_sum -f csv y/run.sqlite
	file_is k_run-2_cuda_api_sum.csv "$WORK/x.csv"
	file_is k_run-3_cuda_api_sum.csv "$WORK/y.csv"
	[[ -f $WORK/k_ex_cuda_api_sum.csv ]] || fail "k_ex_cuda_api_sum.csv was not written"
	# "-o ." names files after each export, in its folder, as before
	run stats -q -r cuda_api_sum -o . x/run.sqlite y/run.sqlite
	rc_is 0; out_is ""; err_is ""
	file_is x/run_cuda_api_sum.csv "$WORK/x.csv"
	file_is y/run_cuda_api_sum.csv "$WORK/y.csv"
}

test_outputs_earlier_files_still_need_force() {
	cp "$WORK/ex.sqlite" "$WORK/b.sqlite"
	run stats -q -r cuda_api_sum -o k ex.sqlite b.sqlite; rc_is 0
	run stats -q -r cuda_api_sum -o k ex.sqlite b.sqlite
	rc_is 4; out_is ""
	err_is "nstats: error: k_ex_cuda_api_sum.csv: output file exists (--force-overwrite replaces it)
nstats: error: k_b_cuda_api_sum.csv: output file exists (--force-overwrite replaces it)"
	run stats -q -r cuda_api_sum -o k --force-overwrite ex.sqlite b.sqlite
	rc_is 0; out_is ""; err_is ""
}

test_outputs_analyze_several_exports() {
	cp "$WORK/ex.sqlite" "$WORK/b.sqlite"
	run analyze -q -r cuda_api_sync -o k ex.sqlite b.sqlite
	rc_is 0; out_is ""; err_is ""
	console_of ex.csv analyze -q -r cuda_api_sync -f csv ex.sqlite
	file_is k_ex_cuda_api_sync.csv "$WORK/ex.csv"
	file_is k_b_cuda_api_sync.csv "$WORK/ex.csv"
}

test_outputs_labels_with_quiet() {
	cp "$WORK/ex.sqlite" "$WORK/b.sqlite"
	sqlite3 "$WORK/b.sqlite" "DELETE FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE rowid % 2 = 0" 2>/dev/null
	local f
	for f in column csv tsv; do
		console_of one.txt stats -q -r cuda_api_sum,cuda_gpu_kern_sum -f $f ex.sqlite
		console_of two.txt stats -q -r cuda_api_sum,cuda_gpu_kern_sum -f $f b.sqlite
		console_of both.txt stats -q -r cuda_api_sum,cuda_gpu_kern_sum -f $f ex.sqlite b.sqlite
		# one export: no label, its tables as they were
		grep -q '^==> ' "$WORK/one.txt" && fail "$f: one export got a label"
		{ echo "==> ex.sqlite <=="; cat "$WORK/one.txt"; echo "==> b.sqlite <=="; cat "$WORK/two.txt"; } |
			cmp -s - "$WORK/both.txt" || fail "$f: two exports are not their tables under a label each"
	done
	# an export whose reports all skipped prints no label
	run stats -q -r nvtx_sum -f csv ex.sqlite b.sqlite
	rc_is 0; out_is ""
	# without -q the Processing lines say it, as before
	run stats -r cuda_api_sum -f csv ex.sqlite b.sqlite
	rc_is 0; [[ $OUT == *"==>"* ]] && fail "a label without -q"
}

test_outputs_plain_json_unchanged() {
	tools_or_note || return
	# nsys's shape: one array per report, "" for an empty value, no document around it
	run stats -q -r cuda_gpu_trace -f json ex.sqlite
	rc_is 0; err_is ""
	[[ $OUT == "["* ]] || fail "plain json does not start with ["
	python3 -c 'import json, sys
rows = json.load(sys.stdin)
assert isinstance(rows, list) and rows, "not a list of rows"
assert any(v == "" for r in rows for v in r.values()), "no empty value as \"\""
assert not any(v is None for r in rows for v in r.values()), "a null in plain json"' <<<"$OUT" ||
		fail "plain json changed shape"
}

test_outputs_typed_json_sum_is_sqlite3s() {
	tools_or_note || return
	run stats -q -r cuda_api_sum -f json:typed ex.sqlite
	rc_is 0; err_is ""
	local total calls want
	total=$(jq '[.exports[0].reports.cuda_api_sum.rows[]."Total Time (ns)"] | add' <<<"$OUT")
	calls=$(jq '[.exports[0].reports.cuda_api_sum.rows[]."Num Calls"] | add' <<<"$OUT")
	want=$(sqlite3 "$WORK/ex.sqlite" "SELECT sum(end - start) || ' ' || count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME")
	[[ "$total $calls" == "$want" ]] || fail "jq sums '$total $calls', sqlite3 '$want'"
	[[ $(jq -r '.nstats' <<<"$OUT") == "$("$NSTATS" --version | cut -d' ' -f2)" ]] || fail "no version"
}

# Every typed value against the same report's csv: an empty cell is null, an integer is the same
# integer (exact, not through a float), text stays text.
test_outputs_typed_json_values() {
	tools_or_note || return
	local r
	for r in cuda_gpu_trace cuda_api_trace cuda_gpu_kern_sum; do
		console_of plain.csv stats -q -r $r -f csv ex.sqlite
		console_of typed.json stats -q -r $r -f json:typed ex.sqlite
		python3 - "$WORK/plain.csv" "$WORK/typed.json" $r <<-'EOF' || fail "$r: typed values differ from csv"
			import csv, json, sys
			plain = list(csv.DictReader(l for l in open(sys.argv[1]) if l.strip()))
			typed = json.load(open(sys.argv[2]))["exports"][0]["reports"][sys.argv[3]]["rows"]
			assert len(plain) == len(typed) > 0, (len(plain), len(typed))
			for p, t in zip(plain, typed):
			    assert list(p) == list(t), (list(p), list(t))
			    for k, v in p.items():
			        x = t[k]
			        if v == "":
			            assert x is None, (k, x)
			        elif isinstance(x, bool) or isinstance(x, str):
			            assert x == v and not v.lstrip("-").isdigit(), (k, v, x)
			        elif isinstance(x, int):
			            assert x == int(v), (k, v, x)
			        else:
			            assert x == float(v), (k, v, x)
		EOF
	done
}

test_outputs_typed_json_one_document() {
	tools_or_note || return
	cp "$WORK/ex.sqlite" "$WORK/b.sqlite"
	run stats -r cuda_api_sum,nvtx_sum,cuda_gpu_kern_sum:base -f json:typed ex.sqlite b.sqlite
	rc_is 0
	python3 -c 'import json, sys
d = json.load(sys.stdin)
assert list(d) == ["nstats", "exports"], list(d)
assert [e["path"] for e in d["exports"]] == ["ex.sqlite", "b.sqlite"]
for e in d["exports"]:
    r = e["reports"]
    assert list(r) == ["cuda_api_sum", "nvtx_sum", "cuda_gpu_kern_sum:base"], list(r)
    assert r["nvtx_sum"] == {"skipped": e["path"] + " does not contain NV Tools Extension (NVTX) data."}, r["nvtx_sum"]
    assert len(r["cuda_api_sum"]["rows"]) > 0 and len(r["cuda_gpu_kern_sum:base"]["rows"]) > 0' <<<"$OUT" ||
		fail "not one document of two exports"
	# stdout is the document alone: the Processing and SKIPPED lines went to stderr
	[[ $ERR == "Processing [ex.sqlite] with [cuda_api_sum]... "* ]] || fail "stderr is '${ERR:0:200}'"
	[[ $ERR == *"SKIPPED: b.sqlite does not contain NV Tools Extension (NVTX) data."* ]] ||
		fail "no SKIPPED on stderr"
	# the same with -q: SKIPPED alone on stderr
	run stats -q -r nvtx_sum -f json:typed ex.sqlite
	rc_is 0; err_is "SKIPPED: ex.sqlite does not contain NV Tools Extension (NVTX) data."
	[[ $(jq -c . <<<"$OUT") == '{"nstats":"'"$("$NSTATS" --version | cut -d' ' -f2)"'","exports":[{"path":"ex.sqlite","reports":{"nvtx_sum":{"skipped":"ex.sqlite does not contain NV Tools Extension (NVTX) data."}}}]}' ]] ||
		fail "skipped-only document is '$OUT'"
}

test_outputs_typed_json_files() {
	tools_or_note || return
	cp "$WORK/ex.sqlite" "$WORK/b.sqlite"
	run stats -q -r cuda_api_sum,nvtx_sum -f json:typed -o k ex.sqlite b.sqlite
	rc_is 0; out_is ""
	no_file k_ex_nvtx_sum.json
	local x
	for x in ex b; do
		jq -e --arg p $x.sqlite '(.exports | length) == 1 and .exports[0].path == $p and
			(.exports[0].reports | keys) == ["cuda_api_sum"] and
			(.exports[0].reports.cuda_api_sum.rows | length) > 0' "$WORK/k_${x}_cuda_api_sum.json" \
			>/dev/null || fail "k_${x}_cuda_api_sum.json is not a document of its own"
	done
	# the rows are those of the console's document
	run stats -q -r cuda_api_sum -f json:typed b.sqlite
	[[ $(jq -c .exports[0].reports <<<"$OUT") == "$(jq -c .exports[0].reports "$WORK/k_b_cuda_api_sum.json")" ]] ||
		fail "the file's report differs from the console's"
}

test_outputs_typed_json_command() {
	tools_or_note || return
	cp "$WORK/ex.sqlite" "$WORK/b.sqlite"
	# one command for the whole run, reading one document
	run stats -q -r cuda_api_sum,cuda_gpu_kern_sum -f json:typed -o "@jq -c [.exports[].reports|keys]" \
		ex.sqlite b.sqlite
	rc_is 0; err_is ""
	out_is '[["cuda_api_sum","cuda_gpu_kern_sum"],["cuda_api_sum","cuda_gpu_kern_sum"]]'
}

test_outputs_typed_json_shares_no_stream() {
	run stats -q -r cuda_api_sum,cuda_gpu_kern_sum -f json:typed,csv ex.sqlite
	rc_is 2; out_is ""
	err_is "nstats: error: stats: the console holds the json:typed document of this run, and cannot take cuda_gpu_kern_sum as csv too (give it its own -o)"
	# each to its own stream is fine
	run stats -q -r cuda_api_sum,cuda_gpu_kern_sum -f json:typed,csv -o -,k ex.sqlite
	rc_is 0; err_is ""
	[[ -f $WORK/k_cuda_gpu_kern_sum.csv ]] || fail "k_cuda_gpu_kern_sum.csv was not written"
}

test_outputs_typed_json_unreadable_export() {
	tools_or_note || return
	run stats -q -r cuda_api_sum -f json:typed missing.sqlite ex.sqlite
	rc_is 3; err_line "^nstats: error: missing\.sqlite: "
	jq -e '.exports[0] == {"path": "missing.sqlite", "error": "missing.sqlite: No such file or directory"} and
		.exports[1].path == "ex.sqlite"' <<<"$OUT" >/dev/null || fail "document is '${OUT:0:300}'"
}

test_outputs_typed_json_rule_notes() {
	tools_or_note || return
	# what the column format prints around a rule's rows is in the document
	run analyze -q -r cuda_memset_sync -f json:typed ex.sqlite
	rc_is 0; err_is ""
	local noresult
	noresult=$(jq -r '.exports[0].reports.cuda_memset_sync.notes.noresult' <<<"$OUT")
	[[ -n $noresult && $noresult != null ]] || fail "no noresult note: '${OUT:0:300}'"
	run analyze -q -r cuda_memset_sync ex.sqlite
	out_has "$noresult"
}

test_outputs_typed_json_diff() {
	tools_or_note || return
	cp "$WORK/ex.sqlite" "$WORK/b.sqlite"
	run diff -q -r kern_diff -f json:typed ex.sqlite b.sqlite
	rc_is 0; err_is ""
	jq -e '.exports[0].path == "ex.sqlite" and .exports[0].candidate == "b.sqlite" and
		(.exports[0].reports.kern_diff.rows | length) > 0' <<<"$OUT" >/dev/null ||
		fail "document is '${OUT:0:300}'"
}

test_outputs_typed_json_help() {
	run stats --help-formats json
	rc_is 0; err_is ""
	out_has "[:typed]"
	out_has '{"nstats": VERSION, "exports": [{"path": EXPORT, "reports":'
	run stats -q -r cuda_api_sum -f csv:typed ex.sqlite
	rc_is 2; out_is ""; err_is "nstats: error: format 'csv': argument 'typed': unknown argument"
}

test_outputs_typed_json_hidden_graphs() {
	tools_or_note || return
	with_graphs ex.sqlite g.sqlite
	local want
	want=$(sqlite3 "$WORK/g.sqlite" "SELECT '{\"launches\":' || count(*) || ',\"ns\":' || sum(end - start) || '}'
		FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE")
	run stats -q -r cuda_gpu_kern_sum -f json:typed g.sqlite
	rc_is 0; err_is "$(graph_note g.sqlite cuda_gpu_kern_sum)"
	[[ $(jq -c .exports[0].reports.cuda_gpu_kern_sum.hidden_graphs <<<"$OUT") == "$want" ]] ||
		fail "hidden_graphs is not $want: '${OUT:0:300}'"
	# the rows are those of the export without graph rows; without them, no member at all
	run stats -q -r cuda_gpu_kern_sum -f json:typed ex.sqlite
	[[ $(jq -c .exports[0].reports.cuda_gpu_kern_sum.hidden_graphs <<<"$OUT") == null ]] ||
		fail "hidden_graphs without graph rows"
	local plain=$OUT
	run stats -q -r cuda_gpu_kern_sum -f json:typed g.sqlite
	[[ $(jq -c '.exports[0].reports.cuda_gpu_kern_sum.rows' <<<"$OUT") == "$(jq -c '.exports[0].reports.cuda_gpu_kern_sum.rows' <<<"$plain")" ]] ||
		fail "rows changed with graph rows"
}

test_outputs_typed_json_same_report_twice() {
	tools_or_note || return
	# no report hides another under the same key
	run stats -q -r cuda_api_sum,cuda_api_sum -f json:typed,json:typed:time=ms ex.sqlite
	rc_is 0; err_is ""
	[[ $(jq -c '.exports[0].reports | keys_unsorted' <<<"$OUT") == '["cuda_api_sum","cuda_api_sum#2"]' ]] ||
		fail "keys are $(jq -c '.exports[0].reports | keys_unsorted' <<<"$OUT")"
	jq -e '.exports[0].reports."cuda_api_sum#2".rows[0] | has("Total Time (ms)")' <<<"$OUT" >/dev/null ||
		fail "the second is not in ms"
	# the document's text has the key once: a reader that keeps the last of two keys would lose one
	[[ $(grep -c '^"cuda_api_sum": ' <<<"$OUT") == 1 ]] || fail "cuda_api_sum twice"
}
