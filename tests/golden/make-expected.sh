#!/usr/bin/env bash
# tests/golden/make-expected.sh [NSYSGEN]: writes tests/golden/expected/<fixture>/ from the reference
# nsys 2024.2.3 (shared/tools/oracle-outputs, which installs it on first use), for every fixture of
# fixtures.txt and every report of tests/corpus/reports. Not run by CI; rerun it after changing
# fixtures.txt, nsysgen's output, or the report list, and commit the result.
# ONLY="fixture..." remakes only those fixtures' folders and keeps the others.
# A fixture with stats options (`-- OPTIONS`, see common.sh) runs the reference with them, its
# output handled as oracle-outputs handles it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
nsysgen=$(abspath "${1:-$ROOT/build/nsysgen}")
oracle=$SHARED/tools/oracle-outputs
[[ -x $nsysgen ]] || { echo "make-expected: $nsysgen: build it first (make)" >&2; exit 1; }
[[ -x $oracle ]] || { echo "make-expected: $oracle: not found" >&2; exit 1; }
mapfile -t reports < <(read_list "$ROOT/tests/corpus/reports")
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

# oracle_with DB OUT OPTIONS REPORT...: oracle-outputs's files, nsys stats running with OPTIONS
oracle_with() {
	local LC_ALL=C.UTF-8
	export LC_ALL
	local db=$1 out=$2 r fmt ext tmp nsys
	local -a opts
	read -r -a opts <<<"$3"
	shift 3
	nsys=$("$SHARED/tools/nsys-oracle")
	tmp=$(mktemp -d "$work/oracle.XXXXXX")
	mkdir -p "$out"
	cp "$db" "$tmp/in.sqlite"
	for r; do
		for fmt in csv column; do
			ext=$(fmt_ext "$fmt")
			LC_ALL=C.UTF-8 "$nsys" stats "${opts[@]}" --report "$r" --format "$fmt" "$tmp/in.sqlite" \
				>"$out/$r.$ext" 2>"$tmp/err" || true
			sed -i -e "s|$tmp/in.sqlite|$(basename "$db")|g" "$out/$r.$ext" "$tmp/err"
			grep -h -E '^(SKIPPED|ERROR|WARNING)' "$out/$r.$ext" "$tmp/err" >>"$tmp/msg.$r" || true
			sed -i -E '/^(SKIPPED|ERROR|WARNING|Processing \[)/d' "$out/$r.$ext"
			[[ $(tr -d '[:space:]' <"$out/$r.$ext") == "" ]] && : >"$out/$r.$ext"
			[[ -s $out/$r.$ext ]] || rm -f "$out/$r.$ext"
		done
		sort -u "$tmp/msg.$r" >"$out/$r.msg" 2>/dev/null || true
		[[ -s $out/$r.msg ]] || rm -f "$out/$r.msg"
	done
}

only=" ${ONLY:-} "
rm -rf "$HERE/expected.new"
mkdir -p "$HERE/expected.new"
while IFS=$'\t' read -r name twin opts; do
	[[ $twin == - ]] || continue # compared with its twin's expected output
	if [[ -n ${ONLY:-} && $only != *" $name "* ]]; then
		[[ ! -d $HERE/expected/$name ]] || cp -r "$HERE/expected/$name" "$HERE/expected.new/$name"
		continue
	fi
	make_fixture "$nsysgen" "$name" "$opts" "$work"
	if [[ -n $(stats_opts "$opts") ]]; then
		oracle_with "$work/$name.sqlite" "$HERE/expected.new/$name" "$(stats_opts "$opts")" "${reports[@]}"
	else
		"$oracle" "$work/$name.sqlite" "$HERE/expected.new/$name" "${reports[@]}"
	fi
	echo "make-expected: $name: $(ls "$HERE/expected.new/$name" | wc -l) files"
done < <(fixtures)
rm -rf "$HERE/expected"
mv "$HERE/expected.new" "$HERE/expected"
