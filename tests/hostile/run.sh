#!/usr/bin/env bash
# tests/hostile/run.sh BUILD_DIR: nstats on bad exports (make-bad-exports.sh, plus a locked
# and an unreadable one made here) and bad PyTorch profiler traces (make-bad-traces.sh). Every command runs under `timeout 60`. A case listed in
# expected-errors.tsv must fail with exactly that one-line message and exit status; any
# other run must exit 0 with nothing on stderr, and its csv and json (and `nstats export`'s
# traces: the JSON by python, the Perfetto file by protoc --decode_raw) must parse. A crash, a
# hang, a sanitizer report or a different message fails. Then hostile reports of one's own
# (--report-dir, sql-reports.tsv) on an export and on a trace, unchanged-export.sh on both, and
# the pages of `nstats report` through a strict HTML parser (tests/report/check_html.py).
# Ends with `hostile: N passed, M failed`.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
(($# == 1)) || { echo "usage: tests/hostile/run.sh BUILD_DIR" >&2; exit 2; }
b=$(cd "$1" && pwd)
NSTATS=$b/nstats
for tool in sqlite3 python3; do
	command -v $tool >/dev/null || { echo "hostile: skipped ($tool not found)"; exit 0; }
done
WORK=$(mktemp -d "${TMPDIR:-/tmp}/nstats-hostile.XXXXXX")
locker=
cleanup() {
	[[ -n $locker ]] && kill "$locker" 2>/dev/null
	chmod -R u+rwX "$WORK" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT
passed=0 failed=0
fail() { failed=$((failed + 1)); echo "hostile: FAIL $*"; }

mkdir -p "$WORK/parse" "$WORK/pages"
"$here/make-bad-exports.sh" "$b/nsysgen" "$WORK/x" || { echo "hostile: make-bad-exports.sh failed"; exit 1; }
"$here/make-bad-traces.sh" "$WORK/x" || { echo "hostile: make-bad-traces.sh failed"; exit 1; }

# The reports whose csv and json are parsed: summaries and traces of every event kind the
# bad exports touch.
REPORTS=(cuda_api_sum cuda_gpu_kern_sum cuda_gpu_mem_size_sum cuda_gpu_trace nvtx_sum osrt_sum)

# COMMANDS: a label (matched by expected-errors.tsv) and its nstats arguments, the export last.
commands() {
	echo "stats|stats"
	echo "analyze|analyze"
	echo "check|check"
	echo "check-json|check -f json"
	echo "export-perfetto|export -q -t perfetto --force-overwrite -o $WORK/trace.pftrace"
	echo "export-json|export -q -t chrome-json --force-overwrite -o $WORK/trace.json"
	echo "report|report --force-overwrite -o $WORK/page.html"
	local r
	for r in "${REPORTS[@]}"; do
		echo "csv:$r|stats -q -f csv -r $r"
		echo "json:$r|stats -q -f json -r $r"
	done
}

# expected CASE LABEL: "RC<TAB>MESSAGE" of the first matching row of expected-errors.tsv.
expected() {
	local c l rc msg
	while IFS=$'\t' read -r c l rc msg; do
		[[ -z $c || $c == \#* ]] && continue
		# shellcheck disable=SC2053
		[[ $1 == $c && $2 == $l ]] && { printf '%s\t%s\n' "$rc" "$msg"; return; }
	done <"$here/expected-errors.tsv"
}

# parse_all: every kept csv and json output parsed in one python run (one start, not hundreds):
# csv strictly per RFC 4180 with one width per table, json by the standard strict parser.
# Bytes that are not UTF-8 pass through as surrogates: their escaping is tested elsewhere.
parse_all() {
	python3 - "$WORK/parse" <<'PY'
import csv, json, os, sys
bad = 0
csv.field_size_limit(sys.maxsize)  # the 1 MB names
for name in sorted(os.listdir(sys.argv[1])):
    text = open(os.path.join(sys.argv[1], name), encoding="utf-8", errors="surrogateescape", newline="").read()
    try:
        if name.endswith(".csv"):
            widths = {len(r) for r in csv.reader(text.splitlines(True), strict=True) if r}
            if len(widths) > 1:
                raise ValueError("rows of different widths: %s" % sorted(widths))
        elif text.strip():
            json.loads(text)
    except (ValueError, csv.Error) as e:
        bad += 1
        print("hostile: FAIL %s does not parse: %s" % (name, e))
sys.exit(1 if bad else 0)
PY
}

# protoc_decodes FILE: protoc --decode_raw reads the Perfetto trace (true without protoc)
protoc_decodes() {
	command -v protoc >/dev/null || return 0
	protoc --decode_raw <"$1" >/dev/null 2>&1
}

# check_run CASE LABEL RC [FILE]: compares one run's status and stderr with what is expected of
# it; FILE is the case's file (default CASE.sqlite), which the message names.
check_run() {
	local case=$1 label=$2 rc=$3 file=${4:-$1.sqlite} want err
	err=$(<"$WORK/err")
	want=$(expected "$case" "$label")
	if ((rc == 124 || rc == 137)); then fail "$case [$label]: hung (killed after 60 s)"; return; fi
	if ((rc >= 128)); then fail "$case [$label]: crashed (status $rc)"; return; fi
	# a row with status 0 lets a command through that an earlier row would refuse
	if [[ -n $want && $want != 0$'\t'* ]]; then
		local wrc=${want%%$'\t'*} wmsg=${want#*$'\t'}
		wmsg="nstats: error: $file: $wmsg"
		# a command that runs several reports says it once per report that needs the data
		[[ $rc == "$wrc" && -n $err && -z $(grep -vxF -e "$wmsg" -e '' <<<"$err") ]] && return 0
		fail "$case [$label]: status $rc, stderr: ${err:0:300}; expected status $wrc, stderr: $wmsg"
		return
	fi
	# with -q, a report that lacks its tables says SKIPPED on stderr
	[[ $rc == 0 ]] && ! grep -qv '^SKIPPED: ' <<<"$err" || [[ $rc == 0 && -z $err ]] ||
		{ fail "$case [$label]: status $rc, stderr: ${err:0:300}"; return; }
	case $label in
	csv:*) cp "$WORK/out" "$WORK/parse/$case.${label#*:}.csv" ;;
	json:*) cp "$WORK/out" "$WORK/parse/$case.${label#*:}.json" ;;
	check-json) cp "$WORK/out" "$WORK/parse/$case.check.json" ;;
	export-json) cp "$WORK/trace.json" "$WORK/parse/$case.trace.json" ;;
	export-perfetto) protoc_decodes "$WORK/trace.pftrace" || { fail "$case [$label]: protoc cannot decode the trace"; return 1; } ;;
	report) cp "$WORK/page.html" "$WORK/pages/$case.html" ;;
	esac
	return 0
}

run_case() { # run_case CASE [FILE [FILTER]]: every command on DIR/FILE (default CASE.sqlite), or
	# those whose label matches the grep pattern FILTER
	local case=$1 file=${2:-$1.sqlite} label args rc
	while IFS='|' read -r label args; do
		# shellcheck disable=SC2086
		(cd "$WORK/x" && timeout 60 "$NSTATS" $args "$file") >"$WORK/out" 2>"$WORK/err"
		rc=$?
		check_run "$case" "$label" "$rc" "$file" && passed=$((passed + 1))
	done < <(commands | grep -E "^(${3:-.*})\|")
}

for f in "$WORK"/x/*.sqlite; do
	c=$(basename "$f" .sqlite)
	run_case "$c"
done
# the traces, whose file names end in .json, .json.gz or anything (a trace known by its content);
# a refused trace is refused when it is opened, whatever the command: a few commands say so
for f in "$WORK"/x/*trace*; do
	c=${f##*/}
	c=${c%.gz}
	c=${c%.json}
	[[ $f == *.sqlite ]] && continue
	if [[ $c == refuse-* ]]; then
		run_case "$c" "${f##*/}" 'stats|analyze|check-json|csv:cuda_gpu_trace|json:nvtx_sum'
	else
		run_case "$c" "${f##*/}"
	fi
done

# A writer holds an exclusive lock: the immutable open reads the file anyway, without waiting.
cp "$WORK/x/read-valid.sqlite" "$WORK/x/read-locked.sqlite"
coproc LOCK { sqlite3 "$WORK/x/read-locked.sqlite" 2>&1; }
locker=$LOCK_PID
echo "BEGIN EXCLUSIVE; UPDATE StringIds SET value = value; SELECT 'locked';" >&"${LOCK[1]}"
read -r -t 10 line <&"${LOCK[0]}"
if [[ ${line:-} == locked ]]; then
	run_case read-locked
	echo "ROLLBACK;" >&"${LOCK[1]}"
else
	fail "read-locked: the writer could not take its lock (${line:-no answer})"
fi
kill "$locker" 2>/dev/null; wait "$locker" 2>/dev/null; locker=

# Unreadable: root reads through any mode, so the case runs as nobody when setpriv allows it.
cp "$WORK/x/read-valid.sqlite" "$WORK/x/refuse-unreadable.sqlite"
chmod 0200 "$WORK/x/refuse-unreadable.sqlite"
if ((EUID != 0)); then
	run_case refuse-unreadable
elif command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	chmod 0755 "$WORK" "$WORK/x"
	(cd "$WORK/x" && timeout 60 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$NSTATS" stats refuse-unreadable.sqlite) >"$WORK/out" 2>"$WORK/err"
	check_run refuse-unreadable stats $? && passed=$((passed + 1))
else
	echo "hostile: note: running as root without setpriv: refuse-unreadable not checked"
fi

# Hostile reports of one's own (make-bad-sql-reports.sh, sql-reports.tsv), run from an empty
# folder (a statement that wrote a file would leave it there) on an export and on a trace (whose
# export in memory the queries share with the built-in reports: one runs after each of them)
sql_reports() { # sql_reports FILE LABEL: every hostile report on WORK/x/FILE
	local file=$1 name want_rc want_msg rc err fmt kern
	kern=$(cd "$WORK/sqlrun" && timeout 60 "$NSTATS" stats -q -f csv -r cuda_gpu_kern_sum "$WORK/x/$file" 2>&1)
	while IFS=$'\t' read -r name want_rc want_msg; do
		[[ -z $name || $name == \#* ]] && continue
		for fmt in csv json; do
			(cd "$WORK/sqlrun" && timeout 60 "$NSTATS" stats -q -f $fmt --query-limit 1 --report-dir "$WORK/rd" \
				-r "$name" "$WORK/x/$file") >"$WORK/out" 2>"$WORK/err"
			rc=$? err=$(<"$WORK/err")
			if [[ $rc != "$want_rc" || $err != "${want_msg:+nstats: error: $WORK/rd/${want_msg#rd/}}" ]]; then
				fail "sql report $name on $file ($fmt): status $rc, stderr: ${err:0:300}; expected $want_rc, ${want_msg:-nothing}"
				continue
			fi
			passed=$((passed + 1))
			((rc == 0)) && cp "$WORK/out" "$WORK/parse/sql-$name-$2.$fmt"
		done
		(cd "$WORK/sqlrun" && timeout 60 "$NSTATS" stats -q -f csv --query-limit 1 --report-dir "$WORK/rd" \
			-r "$name,cuda_gpu_kern_sum" "$WORK/x/$file") >"$WORK/out" 2>/dev/null
		[[ $(<"$WORK/out") == *"$kern" ]] && passed=$((passed + 1)) ||
			fail "sql report $name on $file: cuda_gpu_kern_sum after it differs"
	done <"$here/sql-reports.tsv"
	[[ -z $(ls -A "$WORK/sqlrun") ]] || fail "sql reports on $file left files: $(ls -A "$WORK/sqlrun")"
}
"$here/make-bad-sql-reports.sh" "$WORK/rd" || { echo "hostile: make-bad-sql-reports.sh failed"; exit 1; }
mkdir -p "$WORK/sqlrun"
sum=$(sha256sum <"$WORK/x/read-valid.sqlite")
sql_reports read-valid.sqlite export
[[ $(sha256sum <"$WORK/x/read-valid.sqlite") == "$sum" ]] && passed=$((passed + 1)) ||
	fail "sql reports changed read-valid.sqlite"
sql_reports read-trace-valid.json.gz trace

n=$(ls "$WORK/parse" | wc -l)
parse_all && passed=$((passed + 1)) || fail "$n csv and json outputs: some do not parse"

# the pages of `nstats report`: strict HTML, SVG as XML, valid UTF-8, whatever the names held
if /usr/bin/python3 -c 'import html5lib' 2>/dev/null; then
	/usr/bin/python3 "$here/../report/check_html.py" "$WORK"/pages/*.html && passed=$((passed + 1)) ||
		fail "$(ls "$WORK/pages" | wc -l) report pages: some do not parse"
else
	echo "hostile: note: no html5lib for /usr/bin/python3: report pages not parsed"
fi

for e in read-valid.sqlite read-trace-valid.json.gz; do
	"$here/unchanged-export.sh" "$NSTATS" "$WORK/x/$e"
	u=$?
	((u == 0)) && passed=$((passed + 1)) || fail "unchanged-export.sh $e"
done
echo "hostile: $passed passed, $failed failed"
((failed == 0))
