#!/usr/bin/env bash
# tests/golden/make-expected.sh [NSYSGEN]: writes tests/golden/expected/<fixture>/ from the reference
# nsys 2024.2.3 (shared/tools/oracle-outputs, which installs it on first use), for every fixture of
# fixtures.txt and every report of tests/corpus/reports and tests/golden/reports. Not run by CI;
# rerun it after changing fixtures.txt, nsysgen's output, or the report lists, and commit the
# result.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
nsysgen=$(abspath "${1:-$ROOT/build/nsysgen}")
oracle=$SHARED/tools/oracle-outputs
[[ -x $nsysgen ]] || { echo "make-expected: $nsysgen: build it first (make)" >&2; exit 1; }
[[ -x $oracle ]] || { echo "make-expected: $oracle: not found" >&2; exit 1; }
mapfile -t reports < <(read_list "$ROOT/tests/corpus/reports"; read_list "$HERE/reports")
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
rm -rf "$HERE/expected.new"
while IFS=$'\t' read -r name twin opts; do
	[[ $twin == - ]] || continue # compared with its twin's expected output
	make_fixture "$nsysgen" "$name" "$opts" "$work"
	"$oracle" "$work/$name.sqlite" "$HERE/expected.new/$name" "${reports[@]}"
	echo "make-expected: $name: $(ls "$HERE/expected.new/$name" | wc -l) files"
done < <(fixtures)
rm -rf "$HERE/expected"
mv "$HERE/expected.new" "$HERE/expected"
