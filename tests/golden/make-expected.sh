#!/usr/bin/env bash
# tests/golden/make-expected.sh [NSYSGEN]: writes tests/golden/expected/<fixture>/ from the reference
# nsys 2024.2.3 (shared/tools/oracle-outputs, which installs it on first use), for every fixture of
# fixtures.txt and every report of tests/corpus/reports and tests/golden/extra-reports. Not run by
# CI; rerun it after changing fixtures.txt, nsysgen's output, or the report lists, and commit the
# result. GOLDEN_FIXTURES="a b" and GOLDEN_REPORTS="r rule:s" limit it to those fixtures and
# report entries: their files are written into expected/ in place, the others are left as they are.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
nsysgen=$(abspath "${1:-$ROOT/build/nsysgen}")
oracle=$HERE/oracle-outputs.sh # shared/tools/oracle-outputs, with a fixture's stats options
[[ -x $nsysgen ]] || { echo "make-expected: $nsysgen: build it first (make)" >&2; exit 1; }
[[ -x $oracle ]] || { echo "make-expected: $oracle: not found" >&2; exit 1; }
if [[ -n ${GOLDEN_REPORTS:-} ]]; then
	read -r -a reports <<<"$GOLDEN_REPORTS"
else
	mapfile -t reports < <(golden_reports)
fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
partial=${GOLDEN_FIXTURES:-}${GOLDEN_REPORTS:-}
dest=$HERE/expected.new
[[ -z $partial ]] || dest=$HERE/expected
rm -rf "$HERE/expected.new"
# the entries' files are replaced, so a file that the reference no longer writes goes too
forget() { local d=$1 r; shift; for r in "$@"; do r=${r#rule:}; rm -f "$d/${r//:/_}".{csv,column.txt,msg}; done; }
while IFS=$'\t' read -r name twin only opts; do
	[[ $twin == - ]] || continue # compared with its twin's expected output
	[[ -z ${GOLDEN_FIXTURES:-} || " $GOLDEN_FIXTURES " == *" $name "* ]] || continue
	picked=()
	# shellcheck disable=SC2053 # only= is a glob
	for r in "${reports[@]}"; do [[ $r == $only ]] && picked+=("$r"); done
	((${#picked[@]})) || continue
	make_fixture "$nsysgen" "$name" "$opts" "$work"
	[[ -z $partial || ! -d $dest/$name ]] || forget "$dest/$name" "${picked[@]}"
	"$oracle" "$work/$name.sqlite" "$dest/$name" "${picked[@]}"
	echo "make-expected: $name: $(ls "$dest/$name" | wc -l) files"
done < <(fixtures)
if [[ -z $partial ]]; then
	rm -rf "$HERE/expected"
	mv "$HERE/expected.new" "$HERE/expected"
fi
