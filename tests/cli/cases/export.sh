# `nstats export` as a user meets it: the options, every mistake in one line with its exit
# status, the output file (written whole or not at all, never over a file without
# --force-overwrite), standard output. What the traces hold is checked by tests/export.

test_export_help() {
	run export --help
	rc_is 0; err_is ""
	out_has "usage: nstats export --type perfetto|chrome-json [OPTION...] INPUT... -o FILE"
	out_has "--filter-nvtx RANGE[@DOMAIN][/INDEX]"
	run export
	rc_is 2; out_is ""
	[[ $ERR == *"usage: nstats export"* ]] || fail "export alone prints no usage: ${ERR:0:200}"
	run --help
	out_has "  export "
}

test_export_mistakes() {
	run export ex.sqlite -o t.json
	rc_is 2; out_is ""
	err_line "^nstats: error: export: which --type\? perfetto or chrome-json \(see nstats export --help\)$"
	run export -t protobuf -o t.pf ex.sqlite
	rc_is 2; err_is "nstats: error: export: --type takes perfetto or chrome-json, not 'protobuf'"
	run export -t perfetto ex.sqlite
	rc_is 2; err_is "nstats: error: export: where to? -o FILE (or -o - for standard output)"
	run export -t perfetto -o t.pf --filter-time 5 ex.sqlite
	rc_is 2; err_is "nstats: error: export: illegal --filter-time argument '5': the argument must contain a slash"
	run export -t perfetto -o t.pf missing.sqlite
	rc_is 3; err_is "nstats: error: missing.sqlite: No such file or directory"
	no_file t.pf
	printf 'not an export' >"$WORK/bad.sqlite"
	run export -t chrome-json -o t.json bad.sqlite
	rc_is 3; err_is "nstats: error: bad.sqlite: not an SQLite database (nsys export --type=sqlite makes one)"
	no_file t.json
	run export -t chrome-json -o t.json --filter-nvtx nosuch ex.sqlite
	rc_is 5; err_is "nstats: error: ex.sqlite does not contain NV Tools Extension (NVTX) data."
	no_file t.json
	[[ -z $(ls "$WORK" | grep -F '.tmp-') ]] || fail "a temporary file was left: $(ls "$WORK")"
}

# A bad input after a good one: no half file, and the good one's trace is not kept either.
test_export_no_half_file() {
	run export -t perfetto -o t.pf ex.sqlite missing.sqlite
	rc_is 3; err_is "nstats: error: missing.sqlite: No such file or directory"
	no_file t.pf
	[[ $(ls "$WORK") == ex.sqlite ]] || fail "files left: $(ls "$WORK")"
}

test_export_overwrite() {
	echo keep >"$WORK/t.json"
	run export -t chrome-json -o t.json ex.sqlite
	rc_is 4; out_is ""
	err_is "nstats: error: t.json: output file exists (--force-overwrite replaces it)"
	[[ $(<"$WORK/t.json") == keep ]] || fail "t.json was changed"
	run export -t chrome-json -o t.json --force-overwrite ex.sqlite
	rc_is 0; err_is ""; out_is ""
	[[ $(head -c 40 "$WORK/t.json") == '{"displayTimeUnit":"ns","traceEvents":['* ]] ||
		fail "t.json is no trace: $(head -c 80 "$WORK/t.json")"
	# a new file's mode, not mkstemp's 0600
	[[ $(stat -c %a "$WORK/t.json") == $(umask -S >/dev/null; printf '%o' $((0666 & ~$(umask)))) ]] ||
		fail "t.json has mode $(stat -c %a "$WORK/t.json")"
}

# /dev/full: the write error names the file, exit 4
test_export_write_error() {
	[[ -w /dev/full ]] || return 0
	run export -t perfetto -o /dev/full ex.sqlite
	rc_is 4; err_is "nstats: error: /dev/full: writing the trace failed: No space left on device"
	run export -t chrome-json -o /dev/full ex.sqlite
	rc_is 4; err_is "nstats: error: /dev/full: writing the trace failed: No space left on device"
	# standard output on a full disk: said once, by the command
	local err
	err=$(cd "$WORK" && "$NSTATS" export -t chrome-json -o - ex.sqlite 2>&1 >/dev/full; echo "rc=$?")
	[[ $err == $'nstats: error: standard output: writing the trace failed: No space left on device\nrc=4' ]] ||
		fail "-o - to /dev/full: $err"
	# packets fill many 1 MiB chunks: the packer's thread fails mid-stream, the walk hears of it
	"${NSYSGEN:-$(dirname "$NSTATS")/nsysgen}" -q --seed 5 --kernels 60000 -o "$WORK/big.sqlite" \
		>/dev/null || { fail "nsysgen --kernels 60000 failed"; return; }
	run export -t perfetto -o /dev/full big.sqlite
	rc_is 4; err_is "nstats: error: /dev/full: writing the trace failed: No space left on device"
}

test_export_stdout() {
	run export -t chrome-json -o - ex.sqlite
	rc_is 0; err_is ""
	[[ $OUT == '{"displayTimeUnit":"ns","traceEvents":['* && $OUT == *'"deviceProperties":['* ]] ||
		fail "stdout holds no trace: ${OUT:0:100}"
	(cd "$WORK" && "$NSTATS" export -t perfetto -o - ex.sqlite >p.out 2>p.err) || fail "perfetto to stdout failed"
	[[ -s $WORK/p.out && ! -s $WORK/p.err ]] || fail "no perfetto trace on stdout: $(<"$WORK/p.err")"
	run export -t perfetto -o p.pf ex.sqlite
	cmp -s "$WORK/p.out" "$WORK/p.pf" || fail "perfetto on stdout differs from -o FILE"
	# perfetto's binary on a terminal is refused, when there is one to try
	if command -v script >/dev/null; then
		local tty
		tty=$(cd "$WORK" && script -qec "$NSTATS export -t perfetto -o - ex.sqlite; echo rc=\$?" /dev/null)
		[[ $tty == *"perfetto's binary trace is not for a terminal"*"rc=2"* ]] ||
			fail "perfetto on a terminal: ${tty:0:200}"
	fi
}

# --force-overwrite never replaces an input with its trace
test_export_never_replaces_an_input() {
	cp "$WORK/ex.sqlite" "$WORK/before.sqlite"
	run export -t chrome-json --force-overwrite -o ex.sqlite ex.sqlite
	rc_is 2; out_is ""
	err_is "nstats: error: ex.sqlite: is an input (ex.sqlite): writing there would replace it"
	cmp -s "$WORK/ex.sqlite" "$WORK/before.sqlite" || fail "the input was changed"
}
