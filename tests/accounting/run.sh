#!/usr/bin/env bash
# tests/accounting/run.sh BUILD_DIR: the suite of nstats's own reports and commands, the ones nsys
# does not have, so no reference output exists for them. Two parts:
#  - brute force: each tests/accounting/case_*.sh builds fixtures with BUILD_DIR/nsysgen, runs
#    BUILD_DIR/nstats on them and compares its numbers with an independent brute-force program,
#    BUILD_DIR/tests/brute_* (tests/accounting/brute_*.c: SQLite and nothing of nstats). A case
#    script gets NSTATS, NSYSGEN, BRUTE (the folder of the brute_* programs) and WORK (a scratch
#    folder of its own) in its environment and exits 0 when everything agreed; it prints what
#    disagreed.
#  - corpus: every entry of tests/accounting/corpus-commands runs on every export and PyTorch
#    profiler trace under shared/data/{real,captured}; each must exit 0 with nothing on stderr but
#    nstats's own notes.
# ACCOUNTING_CORPUS=0 skips the corpus part. Prints `accounting: N passed, M failed`.
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/corpus/lib.sh
source "$HERE/../corpus/lib.sh" # ROOT, SHARED, DATA
(($# == 1)) || { echo "usage: tests/accounting/run.sh BUILD_DIR" >&2; exit 2; }
B=$(cd "$1" && pwd)
export NSTATS=$B/nstats NSYSGEN=$B/nsysgen BRUTE=$B/tests LC_ALL=C.UTF-8
passed=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }

# ---- brute force --------------------------------------------------------------------------------
shopt -s nullglob
for c in "$HERE"/case_*.sh; do
	name=$(basename "$c" .sh)
	mkdir -p "$tmp/$name"
	if out=$(WORK=$tmp/$name timeout 600 bash "$c" 2>&1); then
		pass
	else
		fail "$name"
		printf '%s\n' "$out" | tail -n 30 | sed 's/^/    /'
	fi
done

# ---- corpus -------------------------------------------------------------------------------------
# Lines of stderr that are nstats's notes, not failures: a report skipped for want of data, and
# the notes the additions print on purpose.
NOTE='^(SKIPPED: |nstats: note: )'

corpus_case() { # corpus_case EXPORT COMMAND...: runs it; passes on exit 0 and only notes on stderr
	local e=$1 rc=0
	shift
	# shellcheck disable=SC2068
	timeout 300 "$NSTATS" $@ "$e" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if ((rc != 0)) || grep -Eqv "$NOTE" "$tmp/err"; then
		fail "corpus ${e#"$DATA/"}: nstats $* (exit $rc)"
		head -n 5 "$tmp/err" | sed 's/^/    /'
	else
		pass
	fi
}

if [[ ${ACCOUNTING_CORPUS:-1} != 0 && -f $HERE/corpus-commands ]]; then
	mapfile -t commands < <(read_list "$HERE/corpus-commands")
	while IFS= read -r e; do
		for cmd in "${commands[@]}"; do corpus_case "$e" "$cmd"; done
	done < <(find "$DATA/real" "$DATA/captured" -name '*.sqlite' -o -name '*.json.gz' | sort)
fi

echo "accounting: $passed passed, $failed failed"
((failed == 0))
