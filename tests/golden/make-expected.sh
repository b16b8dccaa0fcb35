#!/usr/bin/env bash
# tests/golden/make-expected.sh [NSYSGEN]: writes tests/golden/expected/<fixture>/ from the reference
# nsys 2024.2.3 (shared/tools/oracle-outputs, which installs it on first use), for every fixture of
# fixtures.txt and every report of tests/corpus/reports and tests/golden/reports. Not run by CI;
# rerun it after changing fixtures.txt, nsysgen's output, or the report lists, and commit the
# result. FIXTURES="a b" and/or REPORTS="r1 r2" limit it to those fixtures and reports; their files
# are then written over the existing ones and every other expected file stays as it is.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
nsysgen=$(abspath "${1:-$ROOT/build/nsysgen}")
oracle=$HERE/oracle-outputs.sh # shared/tools/oracle-outputs, with a fixture's stats options
[[ -x $nsysgen ]] || { echo "make-expected: $nsysgen: build it first (make)" >&2; exit 1; }
[[ -x $oracle ]] || { echo "make-expected: $oracle: not found" >&2; exit 1; }
if [[ -n ${REPORTS:-} ]]; then read -r -a reports <<<"$REPORTS"
else mapfile -t reports < <(read_list "$ROOT/tests/corpus/reports"; read_list "$HERE/reports"); fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
rm -rf "$HERE/expected.new"
while IFS=$'\t' read -r name twin opts; do
	[[ $twin == - ]] || continue # compared with its twin's expected output
	[[ -z ${FIXTURES:-} || " $FIXTURES " == *" $name "* ]] || continue
	make_fixture "$nsysgen" "$name" "$opts" "$work"
	"$oracle" "$work/$name.sqlite" "$HERE/expected.new/$name" "${reports[@]}"
	echo "make-expected: $name: $(ls "$HERE/expected.new/$name" | wc -l) files"
done < <(fixtures)
if [[ -z ${FIXTURES:-}${REPORTS:-} ]]; then
	rm -rf "$HERE/expected"
	mv "$HERE/expected.new" "$HERE/expected"
else
	# the reports' files are replaced, so a file the reference no longer writes goes too
	for dir in "$HERE/expected.new"/*/; do
		name=$(basename "$dir")
		mkdir -p "$HERE/expected/$name"
		for r in "${reports[@]}"; do rm -f "$HERE/expected/$name/$r".{csv,column.txt,msg}; done
		cp "$dir"* "$HERE/expected/$name/" 2>/dev/null || true
	done
	rm -rf "$HERE/expected.new"
fi
