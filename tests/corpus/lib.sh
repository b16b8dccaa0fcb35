# lib.sh: sourced by tests/corpus/run.sh and tests/golden/run.sh.
# Runs nstats on one export the way shared/tools/oracle-outputs ran nsys, post-processes its output
# the same way, and compares it with a folder of expected outputs; also reads deviations.tsv.

# Reports of a list file: one name a line, '#' starts a comment.
read_list() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1"
}

# run_case NSTATS DIR BASENAME REPORT FMT OUT
# Runs `NSTATS stats --report REPORT --format FMT BASENAME` in DIR with LC_ALL=C.UTF-8 and writes
#   OUT.out  what stdout says besides SKIPPED/ERROR/WARNING/Processing lines ('' when only blanks)
#   OUT.msg  the SKIPPED/ERROR/WARNING lines of stdout and stderr, sorted, unique
#   OUT.err  stderr as it was;  OUT.rc  the exit status
run_case() {
	local nstats=$1 dir=$2 base=$3 report=$4 fmt=$5 out=$6 rc=0
	(cd "$dir" && LC_ALL=C.UTF-8 exec "$nstats" stats --report "$report" --format "$fmt" "$base") \
		>"$out.raw" 2>"$out.err" || rc=$?
	echo "$rc" >"$out.rc"
	grep -h -E '^(SKIPPED|ERROR|WARNING)' "$out.raw" "$out.err" | sort -u >"$out.msg" || true
	sed -E '/^(SKIPPED|ERROR|WARNING|Processing \[)/d' "$out.raw" >"$out.out"
	[[ -n $(tr -d '[:space:]' <"$out.out") ]] || : >"$out.out"
	rm -f "$out.raw"
}

# fmt_ext FMT: the file ending oracle-outputs gives a format's output.
fmt_ext() { if [[ $1 == column ]]; then echo column.txt; else echo "$1"; fi; }

# expected_file EXPDIR REPORT SUFFIX: the expected file, or /dev/null where the reference left none
# (oracle-outputs removes files that would be empty).
expected_file() {
	local f="$1/$2.$3"
	if [[ -f $f ]]; then echo "$f"; else echo /dev/null; fi
}

# compare_case EXPDIR REPORT FMT OUT: 0 when OUT.out, OUT.msg and the exit status are what the
# reference gives; otherwise prints why (a short diff) and returns 1.
compare_case() {
	local expdir=$1 report=$2 fmt=$3 out=$4 ok=0 exp_out exp_msg rc
	exp_out=$(expected_file "$expdir" "$report" "$(fmt_ext "$fmt")")
	exp_msg=$(expected_file "$expdir" "$report" msg)
	rc=$(<"$out.rc")
	# nsys exits 0 also when a report is skipped; only a reference ERROR allows a failure
	if [[ $rc != 0 ]] && ! grep -q '^ERROR' "$exp_msg"; then
		echo "    exit status $rc (expected 0); stderr: $(head -c 300 "$out.err" | tr '\n' ' ')"
		ok=1
	fi
	if ! cmp -s "$exp_msg" "$out.msg"; then
		echo "    messages differ:"
		diff -u --label "expected $report.msg" --label "nstats" "$exp_msg" "$out.msg" | sed -n '3,10s/^/    /p'
		ok=1
	fi
	if ! cmp -s "$exp_out" "$out.out"; then
		echo "    output differs:"
		diff -u --label "expected $report.$(fmt_ext "$fmt")" --label "nstats" "$exp_out" "$out.out" |
			sed -n '3,22s/^/    /p'
		ok=1
	fi
	return $ok
}

# ---- deviations.tsv: EXPORT-GLOB <TAB> REPORT-GLOB <TAB> FORMAT-GLOB <TAB> D-ID <TAB> note ----

DEV_EXPORT=() DEV_REPORT=() DEV_FORMAT=() DEV_ID=()

# load_deviations TSV DOC: reads the listing; fails when a row is malformed or names an id that
# DOC (docs/deviations.md) does not describe.
load_deviations() {
	local tsv=$1 doc=$2 line n=0 e r f id rest bad=0
	[[ -f $tsv ]] || return 0
	while IFS= read -r line || [[ -n $line ]]; do
		n=$((n + 1))
		[[ $line =~ ^[[:space:]]*(#|$) ]] && continue
		IFS=$'\t' read -r e r f id rest <<<"$line"
		if [[ -z $e || -z $r || -z $f || ! $id =~ ^D[0-9]+$ ]]; then
			echo "deviations: $tsv:$n: want EXPORT-GLOB<TAB>REPORT-GLOB<TAB>FORMAT-GLOB<TAB>D<n><TAB>note"
			bad=1; continue
		fi
		if [[ ! -f $doc ]] || ! grep -q -E "(^|[^A-Za-z0-9])$id([^0-9]|$)" "$doc"; then
			echo "deviations: $tsv:$n: $id is not described in ${doc#"$ROOT/"}"
			bad=1; continue
		fi
		DEV_EXPORT+=("$e") DEV_REPORT+=("$r") DEV_FORMAT+=("$f") DEV_ID+=("$id")
	done <"$tsv"
	return $bad
}

# deviation_of EXPORT REPORT FORMAT: prints the id of the first listed deviation that covers the
# case (globs as in bash's [[ == ]], where * also matches '/'); returns 1 when none does.
deviation_of() {
	local i
	for i in "${!DEV_ID[@]}"; do
		# shellcheck disable=SC2053 # the listing holds globs
		if [[ $1 == ${DEV_EXPORT[i]} && $2 == ${DEV_REPORT[i]} && $3 == ${DEV_FORMAT[i]} ]]; then
			echo "${DEV_ID[i]}"
			return 0
		fi
	done
	return 1
}
