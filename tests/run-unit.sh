#!/usr/bin/env bash
# run-unit.sh BIN...: runs each cmocka unit-test binary; prints its output only when it fails,
# and one summary line `unit: N passed, M failed`. Exit status 1 when one failed or none ran.
set -uo pipefail
passed=0 failed=0
for bin in "$@"; do
	if out=$("$bin" 2>&1); then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		printf '%s\n' "$out" | tail -n 40
		echo "unit: FAILED ${bin##*/}"
	fi
done
echo "unit: $passed passed, $failed failed"
((passed + failed > 0)) || { echo "unit: no test binaries given" >&2; exit 1; }
((failed == 0))
