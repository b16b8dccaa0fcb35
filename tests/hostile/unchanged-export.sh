#!/usr/bin/env bash
# tests/hostile/unchanged-export.sh NSTATS EXPORT: every command on a copy of EXPORT, an export
# or a PyTorch profiler trace (the copy keeps its name's ending: .sqlite, .json.gz) (stats with
# every report in every format, analyze with every rule, check in both formats, the help
# commands with the export given, -o to files) must leave its bytes and mtime as they were;
# then the same commands must work on a read-only file (0444) in a read-only directory (0555),
# and, as root, on a file made immutable with `chattr +i` when the file system allows it.
set -uo pipefail
(($# == 2)) || { echo "usage: tests/hostile/unchanged-export.sh NSTATS EXPORT" >&2; exit 2; }
NSTATS=$1
W=$(mktemp -d "${TMPDIR:-/tmp}/nstats-unchanged.XXXXXX")
immutable=
cleanup() {
	[[ -n $immutable ]] && chattr -i "$immutable" 2>/dev/null
	chmod -R u+rwX "$W"
	rm -rf "$W"
}
trap cleanup EXIT
failed=0
fail() { failed=1; echo "unchanged-export: FAIL $*"; }
mkdir "$W/ro" "$W/out"
E=${2##*/}
E=e.${E#*.}
cp "$2" "$W/ro/$E"
touch -d '2001-02-03 04:05:06' "$W/ro/$E"
cp -p "$W/ro/$E" "$W/copy"

reports=$("$NSTATS" stats --help-reports | sed -n 's/^  \([a-z0-9_]*\) -- .*/\1/p' | paste -sd,)
rules=$("$NSTATS" analyze --help-rules | sed -n 's/^  \([a-z0-9_]*\) -- .*/\1/p' | paste -sd,)
[[ -n $reports && -n $rules ]] || fail "could not list the reports or rules"

# every_command EXPORT: each command, none may fail (SKIPPED is not a failure)
every_command() {
	local e=$1 f rc
	for f in column table csv tsv json hdoc htable; do
		timeout 120 "$NSTATS" stats -q -r "$reports" -f "$f" "$e" >/dev/null 2>"$W/err"
		rc=$?; ((rc == 0)) || fail "stats -f $f: status $rc: $(head -c 300 "$W/err")"
	done
	timeout 120 "$NSTATS" stats -q -r "$reports" -f csv -o "$W/out/r" --force-overwrite "$e" >/dev/null 2>"$W/err" ||
		fail "stats -o: $(head -c 300 "$W/err")"
	timeout 120 "$NSTATS" analyze -q -r "$rules" "$e" >/dev/null 2>"$W/err" || fail "analyze: $(head -c 300 "$W/err")"
	timeout 120 "$NSTATS" analyze -q -r "$rules" -f csv -o "$W/out/a" --force-overwrite "$e" >/dev/null 2>&1 ||
		fail "analyze -o"
	timeout 120 "$NSTATS" stats "$e" >/dev/null 2>&1 || fail "stats (default set)"
	timeout 120 "$NSTATS" check "$e" >/dev/null 2>&1 || fail "check"
	timeout 120 "$NSTATS" check -f json -o "$W/out/c.json" --force-overwrite "$e" >/dev/null 2>&1 || fail "check -f json -o"
	timeout 120 "$NSTATS" stats --help "$e" >/dev/null 2>&1 || fail "stats --help EXPORT"
	timeout 120 "$NSTATS" stats --help-reports ALL "$e" >/dev/null 2>&1 || fail "stats --help-reports ALL EXPORT"
	timeout 120 "$NSTATS" analyze --help-rules ALL "$e" >/dev/null 2>&1 || fail "analyze --help-rules ALL EXPORT"
	timeout 120 "$NSTATS" check --help "$e" >/dev/null 2>&1 || fail "check --help EXPORT"
}

unchanged() { # unchanged WHEN: bytes and mtime as in the copy
	cmp -s "$W/ro/$E" "$W/copy" || fail "$1: the export's bytes changed"
	[[ $(stat -c %Y "$W/ro/$E") == $(stat -c %Y "$W/copy") ]] || fail "$1: the export's mtime changed"
	local extra
	extra=$(ls -A "$W/ro" | grep -v -x "$E")
	[[ -z $extra ]] || fail "$1: files were left beside the export: $extra"
}

every_command "$W/ro/$E"
unchanged "writable"
chmod 0444 "$W/ro/$E"
chmod 0555 "$W/ro"
every_command "$W/ro/$E"
unchanged "read-only file and directory"
if ((EUID == 0)) && command -v chattr >/dev/null && chattr +i "$W/ro/$E" 2>/dev/null; then
	immutable=$W/ro/$E
	every_command "$W/ro/$E"
	unchanged "chattr +i"
	chattr -i "$W/ro/$E"; immutable=
else
	echo "unchanged-export: note: chattr +i not available here; the immutable file is not checked"
fi
exit $failed
