#!/usr/bin/env bash
# tests/run-all.sh BUILD_DIR: every test suite against BUILD_DIR's binaries, in turn: unit (the
# cmocka binaries in BUILD_DIR/tests), cli, golden, corpus, accounting, hostile. Each prints its own
# summary; the last line counts suites: `N passed, M failed`. Exit status 1 when one failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
(($# == 1)) || { echo "usage: tests/run-all.sh BUILD_DIR" >&2; exit 2; }
b=$1
passed=0 failed=0 failing=()

suite() { # suite NAME COMMAND...
	local name=$1
	shift
	echo "== $name"
	if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)) failing+=("$name"); fi
}

shopt -s nullglob
units=("$b"/tests/test_*)
suite unit "$here/run-unit.sh" "${units[@]}"
suite cli "$here/cli/run.sh" "$b/nstats"
suite golden "$here/golden/run.sh" "$b/nstats" "$b/nsysgen"
suite corpus "$here/corpus/run.sh" "$b/nstats"
suite accounting "$here/accounting/run.sh" "$b"
suite hostile "$here/hostile/run.sh" "$b"
echo "$passed passed, $failed failed${failing[*]:+ (${failing[*]})}"
((failed == 0))
