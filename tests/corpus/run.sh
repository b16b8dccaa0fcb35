#!/usr/bin/env bash
# tests/corpus/run.sh NSTATS: the corpus suite. Runs every report of tests/corpus/reports, in csv
# and column, on every export under shared/data/{real,captured}, the way shared/tools/oracle-outputs
# ran nsys 2024.2.3, and compares the output byte for byte with shared/data/oracle-2024.2.3. A case
# that differs passes only when tests/corpus/deviations.tsv lists it under an id that
# docs/deviations.md describes, and then only when it is verified, where it can be: where
# tests/corpus/patched-expected holds the reference's output for a patched copy of the export
# (make-patched-expected.sh: the reference refused the original or got it wrong, D1/D2/D15/D45),
# nstats's output must be exactly that; a csv case listed under D3 (quoting) must be the
# reference's csv once quoted the reference's way (d3-requote.awk). Any other listed case passes
# unverified, and the run names and counts those. Where shared/data has ground-truth files
# (ground-truth.tsv), each of their tables is compared with nstats's csv too, by numbers
# (groundtruth.awk); a table that the reference itself disagrees with (where it refused the
# export: on the patched copy) is not compared, and is named.
# shared/ is ../shared beside the repository, or $NSTATS_SHARED. CORPUS_JOBS (default 2) exports
# run at a time; CORPUS_REPORTS="a rule:b" checks only those entries. Prints `corpus: N matched,
# M deviated as listed (V verified against the reference on a patched copy), K failed, S skipped`.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/corpus/lib.sh
source "$HERE/lib.sh" # ROOT, SHARED, DATA, ORACLE
PATCHED=$HERE/patched-expected

# report_list: the entries of tests/corpus/reports, or of $CORPUS_REPORTS (space-separated) when
# set, to check a few while working on them
report_list() {
	if [[ -n ${CORPUS_REPORTS:-} ]]; then tr ' ' '\n' <<<"$CORPUS_REPORTS"; else read_list "$HERE/reports"; fi
}

# ---- one export (run by xargs, in a process of its own) ---------------------------------------
# Writes WORK/res/<export>.tsv: STATUS <TAB> EXPORT <TAB> REPORT <TAB> FORMAT <TAB> NOTE, with
# STATUS matched, verified or deviated (listed; NOTE = the id), failed (NOTE = why, on the lines
# after) or skipped.

# oracle_dir EXPORT: the reference's outputs for shared/data/EXPORT
oracle_dir() {
	local rel=${1#real/}
	echo "$ORACLE/${rel%.sqlite}"
}

# patched_dir EXPORT: the reference's outputs for a patched copy of it (may not exist)
patched_dir() {
	local rel=${1#real/}
	echo "$PATCHED/${rel%.sqlite}"
}

record() { # record STATUS EXPORT REPORT FORMAT NOTE [DETAIL]
	printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$RES"
	[[ -z ${6:-} ]] || printf "%s\n" "${6%$'\n'}" >>"$RES"
}

# judge EXPORT REPORT FORMAT DETAIL: a difference is a failure unless the listing covers it; a
# listed case must still be what the reference prints for a patched copy, where there is one
# (OUT: the folder with nstats's outputs)
judge() {
	local id pdir pe pm why
	if ! id=$(deviation_of "$1" "$2" "$3"); then
		record failed "$1" "$2" "$3" "" "$4"
		return 0
	fi
	pdir=$(patched_dir "$1")
	if [[ $3 != gt ]] && pe=$(patched_file "$pdir" "$2" "$(fmt_ext "$3")" "$OUT/$2.$3.pexp"); then
		pm=$(patched_file "$pdir" "$2" msg "$OUT/$2.$3.pmsg") || pm=/dev/null
		why=$(check_one "$pe" "$pm" "$OUT/$2.$3.out")
		if [[ -z $why ]]; then
			record verified "$1" "$2" "$3" "$id"
		else
			record failed "$1" "$2" "$3" "" "    listed as $id, but not what the reference prints for a patched copy (${pdir#"$ROOT/"}):"$'\n'"$why"
		fi
	elif [[ $id == D3 && $3 == csv ]]; then
		# only the quoting differs by design: nstats's csv quoted the reference's way must be the
		# reference's csv
		pe=$(expected_file "$(oracle_dir "$1")" "$2" csv)
		LC_ALL=C awk -f "$HERE/d3-requote.awk" "$OUT/$2.csv.out" >"$OUT/$2.csv.d3"
		why=$(check_one "$pe" "$(expected_file "$(oracle_dir "$1")" "$2" msg)" "$OUT/$2.csv.out" "$OUT/$2.csv.d3")
		if [[ -z $why ]]; then
			record verified "$1" "$2" "$3" "$id"
		else
			record failed "$1" "$2" "$3" "" "    listed as $id, but differs from the reference in more than the quoting (tests/corpus/d3-requote.awk):"$'\n'"$why"
		fi
	else
		record deviated "$1" "$2" "$3" "$id"
	fi
}

one_export() {
	local nstats=$1 work=$2 rel=$3 safe dir exp
	local -a reports
	safe=${rel//[^A-Za-z0-9._-]/_}
	RES=$work/res/$safe.tsv
	: >"$RES"
	exp=$(oracle_dir "$rel")
	if [[ ! -d $exp ]]; then
		record skipped "$rel" '*' '*' "no reference outputs in ${exp#"$DATA/"}"
		return 0
	fi
	dir=$work/x/$safe
	OUT=$dir
	mkdir -p "$dir"
	# run from a folder that holds the export under its own name, as the reference's messages show it
	ln -s "$DATA/$rel" "$dir/${rel##*/}"
	mapfile -t reports < <(report_list)
	(cd "$dir" && run_cases "$nstats" "${rel##*/}" "$dir" "${reports[@]}")
	[[ ! -e $dir/.together ]] || record failed "$rel" '*' together "" "$(<"$dir/.together")"
	check_cases "$exp" "$dir" "${reports[@]}" | judge_all "$rel"
	ground_truth "$rel" "$dir"
}

# judge_all EXPORT: reads check_cases's verdicts and records them
judge_all() {
	local word report fmt why="" pending=""
	while IFS= read -r line; do
		case $line in
		"ok "* | "bad "*)
			[[ -z $pending ]] || judge "$1" $pending "$why"
			read -r word report fmt <<<"$line"
			pending="" why=""
			if [[ $word == ok ]]; then record matched "$1" "$report" "$fmt" ""; else pending="$report $fmt"; fi
			;;
		*) why+=$line$'\n' ;;
		esac
	done
	[[ -z $pending ]] || judge "$1" $pending "$why"
}

# ground_truth EXPORT DIR: the tables of the export's ground-truth files against nstats's csv
ground_truth() {
	local rel=$1 dir=$2 e g reports opts o report wanted exp why ref how
	local -a args
	while IFS=$'\t' read -r e g reports opts; do
		[[ $e == "$rel" ]] || continue
		args=()
		[[ $opts == - ]] || for o in $opts; do args+=(-v "$o"); done
		exp=$(oracle_dir "$rel")
		while read -r report; do
			[[ $report != rule:* ]] || continue # the ground truth has no rule tables
			wanted=no
			[[ $reports == '*' || ,$reports, == *",$report,"* ]] && wanted=yes
			[[ $wanted == yes ]] || continue
			if ! awk "${args[@]}" -v report="$report" -f "$HERE/groundtruth.awk" "$DATA/$g" "$DATA/$g" \
				>"$dir/$report.gt" 2>/dev/null; then
				[[ $reports == '*' ]] ||
					record skipped "$rel" "$report" gt "no $report table in ${g#real/}"
				continue
			fi
			# the reference has the table (for the export, or else for a patched copy of it): compare
			# only what the reference agrees with
			ref=$exp/$report.csv how=""
			if [[ ! -f $ref ]] && ref=$(patched_file "$(patched_dir "$rel")" "$report" csv "$dir/$report.gtref"); then
				how=" (on a patched copy)"
			fi
			if [[ -f $ref ]] &&
				! awk -v mode=match "${args[@]}" -f "$HERE/groundtruth.awk" "$dir/$report.gt" "$ref" >/dev/null; then
				record skipped "$rel" "$report" gt "nsys 2024.2.3$how disagrees with ${g#real/} too"
				continue
			fi
			if why=$(awk -v mode=match "${args[@]}" -f "$HERE/groundtruth.awk" "$dir/$report.gt" "$dir/$report.csv.out"); then
				record matched "$rel" "$report" gt "${g#real/}"
			else
				judge "$rel" "$report" gt "    against ${g#real/}: $why"
			fi
		done < <(report_list)
	done < <(grep -v '^#' "$HERE/ground-truth.tsv")
}

# ---- the whole run ------------------------------------------------------------------------------

summary() { # reads the records; prints failures, what was not compared, and the counts
	local results=$1 status e r f note
	local -i matched=0 deviated=0 verified=0 requoted=0 failed=0 skipped=0 gt_ok=0
	local failing="" notcompared="" unverified=""
	while IFS= read -r line; do
		case $line in
		matched$'\t'* | verified$'\t'* | deviated$'\t'* | failed$'\t'* | skipped$'\t'*) ;;
		*) [[ -n $failing ]] && printf '%s\n' "$line"; continue ;;
		esac
		IFS=$'\t' read -r status e r f note <<<"$line"
		failing=""
		case $status in
		matched) matched+=1; [[ $f == gt ]] && gt_ok+=1 ;;
		verified) deviated+=1; if [[ $note == D3 ]]; then requoted+=1; else verified+=1; fi ;;
		deviated) deviated+=1; unverified+="  unverified: $e $r $f ($note)"$'\n' ;;
		failed) failed+=1; failing=1; echo "FAIL $e $r $f" ;;
		skipped) skipped+=1; notcompared+="  not compared: $e $r $f: $note"$'\n' ;;
		esac
	done <"$results"
	printf '%s' "$notcompared"
	[[ -z $unverified ]] || printf 'listed cases that deviate unverified:\n%s' "$unverified"
	echo "corpus: ground truth: $gt_ok tables agree"
	echo "corpus: $requoted csv cases listed under D3 agree with the reference but for the quoting"
	echo "corpus: $((deviated - verified - requoted)) listed cases deviate unverified"
	echo "corpus: $matched matched, $deviated deviated as listed ($verified verified against the reference on a patched copy), $failed failed, $skipped skipped"
	((matched + deviated + failed > 0)) || { echo "corpus: no case ran" >&2; return 1; }
	((failed == 0))
}

main() {
	(($# == 1)) || { echo "usage: tests/corpus/run.sh NSTATS" >&2; exit 2; }
	if [[ ! -d $DATA ]]; then
		echo "corpus: skipped (no ../shared/data)"
		exit 0
	fi
	local nstats
	nstats=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
	[[ -x $nstats ]] || { echo "corpus: $1: not an executable" >&2; exit 2; }
	[[ -d $ORACLE ]] || { echo "corpus: no reference outputs in $ORACLE" >&2; exit 1; }
	[[ -n $(report_list) ]] || { echo "corpus: no reports in tests/corpus/reports" >&2; exit 1; }
	load_deviations "$HERE/deviations.tsv" "$ROOT/docs/deviations.md" || exit 1
	work=$(mktemp -d "${TMPDIR:-/tmp}/nstats-corpus.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	mkdir -p "$work/res" "$work/x"
	(cd "$DATA" && find -L real captured -name '*.sqlite' -type f -print0 2>/dev/null | sort -z) >"$work/exports"
	[[ -s $work/exports ]] || { echo "corpus: no *.sqlite under $DATA/{real,captured}" >&2; exit 1; }
	xargs -0 -n1 -P"${CORPUS_JOBS:-2}" "$0" --one "$nstats" "$work" <"$work/exports" ||
		{ echo "corpus: the harness itself failed on an export (see above)" >&2; exit 1; }
	find "$work/res" -name '*.tsv' -print0 | sort -z | xargs -0 cat >"$work/all"
	summary "$work/all"
}

if [[ ${1:-} == --one ]]; then
	load_deviations "$HERE/deviations.tsv" "$ROOT/docs/deviations.md" >/dev/null
	one_export "$2" "$3" "$4"
else
	main "$@"
fi
