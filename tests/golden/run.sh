#!/usr/bin/env bash
# tests/golden/run.sh NSTATS NSYSGEN: the golden suite. Makes each export of fixtures.txt with
# NSYSGEN (the same bytes every time), runs every report of tests/corpus/reports and
# tests/golden/extra-reports (reports with arguments; `rule:` entries through `nstats analyze`) in csv and column
# the way shared/tools/oracle-outputs ran nsys, and compares byte for byte with
# tests/golden/expected/<fixture>/ (written by make-expected.sh from the reference), or, for a
# fixture with as=TWIN, with the reference's output on its twin (only on the entries that match
# its only=GLOB, when it has one). A difference passes only when
# tests/corpus/deviations.tsv lists it (export glob `golden/<fixture>`).
# GOLDEN_FIXTURES="a b" and GOLDEN_REPORTS="r rule:s" (globs) check only those, while working on
# them. Prints `golden: N matched, M deviated as listed, K failed`.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# picked WORD GLOBS: whether WORD matches one of the blank-separated GLOBS, or GLOBS is empty
picked() {
	local g
	[[ -z $2 ]] && return 0
	for g in $2; do
		# shellcheck disable=SC2053 # a glob
		[[ $1 == $g ]] && return 0
	done
	return 1
}

main() {
	(($# == 2)) || { echo "usage: tests/golden/run.sh NSTATS NSYSGEN" >&2; exit 2; }
	local nstats nsysgen name opts key verdict report fmt line only r
	local -i matched=0 deviated=0 failed=0 twins=0
	local expect
	local -a all reports
	nstats=$(abspath "$1") nsysgen=$(abspath "$2")
	[[ -x $nstats && -x $nsysgen ]] || { echo "golden: $1 or $2 is not an executable" >&2; exit 2; }
	mapfile -t all < <(golden_reports)
	((${#all[@]})) || { echo "golden: no reports in tests/corpus/reports" >&2; exit 1; }
	load_deviations "$ROOT/tests/corpus/deviations.tsv" "$ROOT/docs/deviations.md" || exit 1
	# a subset (make sanitize runs one) must name fixtures that exist, or it would shrink unseen
	local -A known=()
	while IFS=$'\t' read -r name _; do known[$name]=1; done < <(fixtures)
	for name in ${GOLDEN_FIXTURES:-}; do
		[[ $name == *[*?[]* || -n ${known[$name]:-} ]] ||
			{ echo "golden: GOLDEN_FIXTURES names '$name', which tests/golden/fixtures.txt does not have" >&2; exit 1; }
	done
	work=$(mktemp -d "${TMPDIR:-/tmp}/nstats-golden.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	while IFS=$'\t' read -r name twin only opts; do
		key=golden/$name
		reports=()
		# shellcheck disable=SC2053 # only= is a glob
		for r in "${all[@]}"; do [[ $r == $only ]] && picked "$r" "${GOLDEN_REPORTS:-}" && reports+=("$r"); done
		picked "$name" "${GOLDEN_FIXTURES:-}" && ((${#reports[@]})) || continue
		expect=$HERE/expected/$name
		[[ $twin == - ]] || expect=$HERE/expected/$twin
		if [[ ! -d $expect ]]; then
			echo "FAIL $key: no $expect (run tests/golden/make-expected.sh)"
			failed+=1
			continue
		fi
		mkdir "$work/$name"
		make_fixture "$nsysgen" "$name" "$opts" "$work/$name"
		(cd "$work/$name" && run_cases "$(with_opts "$nstats" "$opts" "$work/$name")" "$name.sqlite" "$work/$name" "${reports[@]}")
		if [[ -e $work/$name/.together ]]; then
			echo "FAIL $key: the reports together"
			cat "$work/$name/.together"
			failed+=1
		fi
		if [[ $twin != - ]]; then
			# the twin's messages name the twin's file
			mkdir "$work/expected-$name"
			for f in "$expect"/*; do
				sed "s/$twin\.sqlite/$name.sqlite/g" "$f" >"$work/expected-$name/${f##*/}"
			done
			expect=$work/expected-$name
			twins+=1
		fi
		verdict=""
		while IFS= read -r line; do
			case $line in
			"ok "*) matched+=1; verdict="" ;;
			"bad "*)
				read -r _ report fmt <<<"$line"
				if deviation_of "$key" "$report" "$fmt" >/dev/null; then
					deviated+=1; verdict=""
				else
					failed+=1; verdict=1
					echo "FAIL $key $report $fmt"
				fi
				;;
			*) [[ -z $verdict ]] || printf '%s\n' "$line" ;;
			esac
		done < <(check_cases "$expect" "$work/$name" "${reports[@]}")
	done < <(fixtures)
	[[ -z ${GOLDEN_FIXTURES:-}${GOLDEN_REPORTS:-} ]] ||
		echo "golden: a subset: GOLDEN_FIXTURES='${GOLDEN_FIXTURES:-}' GOLDEN_REPORTS='${GOLDEN_REPORTS:-}'"
	echo "golden: $matched matched ($twins fixtures against the reference on their twin), $deviated deviated as listed, $failed failed"
	((matched + deviated + failed > 0)) || { echo "golden: no case ran" >&2; exit 1; }
	((failed == 0))
}

main "$@"
