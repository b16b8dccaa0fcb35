# shellcheck shell=bash
# lib.sh: sourced by tests/corpus/run.sh, make-patched-expected.sh and tests/golden/run.sh.
# Runs nstats on one export the way shared/tools/oracle-outputs ran nsys, post-processes its output
# the same way, and compares it with a folder of expected outputs; also reads deviations.tsv.
# Forks are what costs time here, so each step handles every case of an export in one go.

FORMATS=(csv column)

# Where the repository and the shared data are: shared/ is ../shared beside the repository, or
# $NSTATS_SHARED.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SHARED=${NSTATS_SHARED:-$ROOT/../shared}
DATA=$SHARED/data
ORACLE=$DATA/oracle-2024.2.3

# read_list FILE: its names, one a line, without '#' comments and blank lines
read_list() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1"
}

# fmt_ext FMT: the file ending oracle-outputs gives a format's output
fmt_ext() { if [[ $1 == column ]]; then echo column.txt; else echo "$1"; fi; }

# case_name ENTRY: the name of a list entry's output files, as oracle-outputs names them: a rule
# (`rule:NAME[:ARG...]`) without its prefix, ':' in arguments as '_'
case_name() { local n=${1#rule:}; echo "${n//:/_}"; }
# case_name_to VAR ENTRY: the same into VAR, without a subshell (the suites call it per case)
case_name_to() { local n=${2#rule:}; printf -v "$1" '%s' "${n//:/_}"; }

# case_cmd ENTRY: the nstats command words that run it (`analyze --rule` for `rule:` entries)
case_cmd() { if [[ $1 == rule:* ]]; then echo "analyze --rule ${1#rule:}"; else echo "stats --report $1"; fi; }

# expected_file EXPDIR REPORT SUFFIX: the expected file, or /dev/null where the reference left none
# (oracle-outputs removes files that would be empty, and names a report with arguments
# `report_arg`, for `report:arg`)
expected_file() {
	local f=$1/${2//:/_}.$3
	if [[ -f $f ]]; then echo "$f"; else echo /dev/null; fi
}
# expected_file_to VAR EXPDIR REPORT SUFFIX: the same into VAR, without a subshell
expected_file_to() {
	local f=$2/${3//:/_}.$4
	[[ -f $f ]] || f=/dev/null
	printf -v "$1" '%s' "$f"
}

# single_cases NSTATS BASENAME OUT ENTRY...: one nstats process per case, stdout, stderr and the
# exit status of each in OUT/R.F.out, .err and .rc
single_cases() {
	local nstats=$1 base=$2 out=$3 entry report fmt rc
	local -a cmd
	shift 3
	for entry; do
		case_name_to report "$entry"
		read -r -a cmd <<<"$(case_cmd "$entry")"
		for fmt in "${FORMATS[@]}"; do
			rc=0
			LC_ALL=C.UTF-8 "$nstats" "${cmd[@]}" --format "$fmt" "$base" \
				>"$out/$report.$fmt.out" 2>"$out/$report.$fmt.err" || rc=$?
			echo "$rc" >"$out/$report.$fmt.rc"
		done
	done
}

# batch_cases NSTATS BASENAME OUT COMMAND ENTRY...: every ENTRY (all of them `stats` reports, or
# all `rule:` entries for `analyze`) in every format of FORMATS through one nstats process on the
# console (reports and formats pair up in order), its stdout cut into the R.F.out that each case
# would have printed alone: on the console nsys and nstats print, per report, its Processing line,
# its output and its empty line, and flush stdout before the next report begins. Each R.F.err is
# left empty and each R.F.rc says 0. The batch cannot stand for the single runs (and the caller
# runs the cases one by one, which says which case failed and why) when it returns
#  1: a SKIPPED, ERROR or WARNING line on stderr (stderr cannot be split between the reports, and
#     those lines belong to a case's .msg; nstats says SKIPPED on stdout unless -q, not given
#     here), or a stdout that is not exactly, in order, each case's Processing line and what
#     follows it (checked by putting the pieces together again and comparing the bytes);
#  2: a status other than 0 or a sanitizer report: which report caused it cannot be told.
# OUT/.batch.out, .err and .rc keep the batch's stdout, stderr and status when it is not used.
batch_cases() {
	local nstats=$1 base=$2 out=$3 verb=$4 opt=--report entry report fmt f rc=0
	local -a args=() pieces=()
	shift 4
	[[ $verb == analyze ]] && opt=--rule
	: >"$out/.batch.list"
	for fmt in "${FORMATS[@]}"; do
		for entry; do
			args+=("$opt" "${entry#rule:}" --format "$fmt")
			case_name_to report "$entry"
			pieces+=("$out/$report.$fmt.out")
			printf 'Processing [%s] with [%s]... \t%s\n' "$base" "${entry#rule:}" "${pieces[-1]}" >>"$out/.batch.list"
		done
	done
	LC_ALL=C.UTF-8 "$nstats" "$verb" "${args[@]}" "$base" >"$out/.batch.out" 2>"$out/.batch.err" || rc=$?
	echo "$rc" >"$out/.batch.rc"
	((rc == 0)) || return 2
	! grep -q -E 'Sanitizer|runtime error:' "$out/.batch.err" || return 2
	! grep -q -E '^(SKIPPED|ERROR|WARNING)' "$out/.batch.err" || return 1
	# each case's piece begins at its Processing line; anything before the first one, a missing one
	# or one out of order fails the batch
	LC_ALL=C awk -v list="$out/.batch.list" '
		BEGIN {
			while ((getline l <list) > 0) { split(l, p, "\t"); n++; head[n] = p[1]; file[n] = p[2] }
			k = 0
		}
		k < n && $0 == head[k + 1] { if (k) close(file[k]); k++ }
		k == 0 { bad = 1; exit }
		{ print >file[k] }
		END { exit bad || k != n }' "$out/.batch.out" || return 1
	cat -- "${pieces[@]}" | cmp -s - "$out/.batch.out" || return 1
	for f in "${pieces[@]}"; do
		: >"${f%.out}.err"
		echo 0 >"${f%.out}.rc"
	done
	rm -f "$out/.batch.out" "$out/.batch.err" "$out/.batch.rc" "$out/.batch.list"
}

# run_group NSTATS BASENAME OUT COMMAND ENTRY...: the cases of ENTRY through batch_cases, or one by
# one (single_cases) where the batch cannot stand for them, or always with TEST_BATCH=0 (as before
# batching: slower; to compare). Fails when the batch exited non-zero or with a sanitizer report
# but every case passes alone: the fault is then in running them together, and no case's files
# would show it; OUT/.together says why (indented lines), and the caller fails on it.
run_group() {
	local brc=0 entry report fmt rc
	if [[ ${TEST_BATCH:-1} != 0 ]]; then
		batch_cases "$@" && return 0 || brc=$?
	fi
	single_cases "$1" "$2" "$3" "${@:5}"
	((brc == 2)) || return 0
	for entry in "${@:5}"; do
		case_name_to report "$entry"
		for fmt in "${FORMATS[@]}"; do
			read -r rc <"$3/$report.$fmt.rc"
			[[ $rc == 0 ]] || return 0
			! grep -q -E 'Sanitizer|runtime error:' "$3/$report.$fmt.err" || return 0
		done
	done
	{
		echo "    nstats $4 with all $(($# - 4)) entries in one process exited $(<"$3/.batch.rc"), though each case passes alone; its stderr:"
		head -n 30 "$3/.batch.err" | sed 's/^/    /'
	} >>"$3/.together"
}

# run_cases NSTATS BASENAME OUT REPORT... runs, in the current folder, with LC_ALL=C.UTF-8,
# `NSTATS stats --report R --format F BASENAME` for each REPORT and format (`NSTATS analyze
# --rule R` for an entry `rule:R`; its files are named by case_name), then post-processes
# the outputs the way oracle-outputs did, writing for each case R.F:
#   OUT/R.F.out  stdout without SKIPPED/ERROR/WARNING/Processing lines (emptied when only blanks)
#   OUT/R.F.msg  the SKIPPED/ERROR/WARNING lines of stdout and stderr, sorted, once each
#   OUT/R.F.err  stderr;  OUT/R.F.rc  the exit status;  OUT/R.F.err.san  there when stderr
#                holds a sanitizer report
# A process costs more than most reports (and far more under a sanitizer), so the cases run in
# batches, one nstats process for all the stats entries and one for all the rule entries
# (run_group); a batch that cannot stand for its single runs is run again one case per
# process, the way oracle-outputs ran nsys. Either way each case gets the same files.
#   OUT/.together  there when a batch failed though each of its cases passes alone: why
#                  (indented lines); the caller must fail then
run_cases() {
	local nstats=$1 base=$2 out=$3 entry report fmt f
	local -a files=() stats=() rules=()
	local -A keep=()
	shift 3
	for entry; do
		if [[ $entry == rule:* ]]; then rules+=("$entry"); else stats+=("$entry"); fi
		case_name_to report "$entry"
		for fmt in "${FORMATS[@]}"; do
			: >"$out/$report.$fmt.msg"
			files+=("$out/$report.$fmt.out" "$out/$report.$fmt.err")
		done
	done
	rm -f "$out/.together"
	if ((${#stats[@]})); then run_group "$nstats" "$base" "$out" stats "${stats[@]}"; fi
	if ((${#rules[@]})); then run_group "$nstats" "$base" "$out" analyze "${rules[@]}"; fi
	# one pass over all: each case's messages into its .msg; prints the outputs that have more
	# than blanks besides those lines (an empty file never reaches FNR == 1, and needs nothing)
	while IFS= read -r f; do
		if [[ $f == "SAN "* ]]; then : >"${f#SAN }.san"; else keep[$f]=1; fi
	done < <(awk '
		function flush(   i, j, t, f) {
			for (i = 2; i <= n; i++)
				for (j = i; j > 1 && m[j - 1] > m[j]; j--) { t = m[j]; m[j] = m[j - 1]; m[j - 1] = t }
			f = cur ".msg"
			for (i = 1; i <= n; i++) if (i == 1 || m[i] != m[i - 1]) print m[i] >f
			if (n) close(f)
			n = 0
		}
		FNR == 1 {
			c = FILENAME; sub(/\.(out|err)$/, "", c)
			if (c != cur) { flush(); cur = c }
			isout = FILENAME ~ /\.out$/
		}
		!isout && /(Sanitizer|runtime error:)/ && !(FILENAME in san) { san[FILENAME] = 1; print "SAN " FILENAME }
		/^(SKIPPED|ERROR|WARNING)/ { m[++n] = $0; next }
		isout && !/^Processing \[/ && /[^ \t\r\f\v]/ && !(FILENAME in text) { text[FILENAME] = 1; print FILENAME }
		END { flush() }' "${files[@]}")
	sed -i -E '/^(SKIPPED|ERROR|WARNING|Processing \[)/d' "${files[@]/%.err/.out}"
	for f in "${files[@]}"; do
		[[ $f == *.out && -z ${keep[$f]:-} ]] && : >"$f"
	done
	return 0
}

# check_cases EXPDIR OUT REPORT...: compares each case that run_cases left in OUT with EXPDIR's
# REPORT.csv, REPORT.column.txt and REPORT.msg (a missing one means: nothing), and the exit status
# with 0 (nsys exits 0 also when it skips a report; only a reference ERROR allows another), and
# finds no sanitizer report. Prints
# `ok R F`, or `bad R F` followed by indented lines that say why (short diffs).
check_cases() {
	local expdir=$1 out=$2 entry report fmt ext e a eo em o m rc why md od
	local -A sum=()
	local -a files=()
	shift 2
	for entry; do
		case_name_to report "$entry"
		expected_file_to em "$expdir" "$report" msg
		for fmt in "${FORMATS[@]}"; do
			ext=$fmt
			[[ $fmt == column ]] && ext=column.txt # as fmt_ext says
			expected_file_to eo "$expdir" "$report" "$ext"
			files+=("$eo" "$out/$report.$fmt.out" "$em" "$out/$report.$fmt.msg")
		done
	done
	# one checksum run for all the files; diff only where they differ
	while read -r e a; do sum[$a]=$e; done < <(md5sum -- "${files[@]}")
	set -- "${files[@]}"
	while (($#)); do
		eo=$1 o=$2 em=$3 m=$4
		shift 4
		report=${o##*/} fmt=${report%.out} fmt=${fmt##*.} report=${report%."$fmt".out}
		md=0 od=0
		[[ ${sum[$em]} == "${sum[$m]}" ]] || md=1
		[[ ${sum[$eo]} == "${sum[$o]}" ]] || od=1
		read -r rc <"${o%.out}.rc"
		why=""
		# the common case without a fork
		[[ $rc == 0 && ! -e ${o%.out}.err.san && $md$od == 00 ]] || why=$(why_case "$eo" "$em" "$o" $md $od)
		if [[ -z $why ]]; then echo "ok $report $fmt"; else echo "bad $report $fmt"; printf '%s\n' "$why"; fi
	done
}

# why_case EXPOUT EXPMSG OUT MSGDIFF OUTDIFF [OUTFILE]: the indented lines that say why the case
# run_cases left as OUT (R.F.out) is not what EXPOUT and EXPMSG hold (MSGDIFF, OUTDIFF: 1 where
# the files differ; OUTFILE: the output compared, when not OUT itself); nothing when it is
why_case() {
	local eo=$1 em=$2 o=$3 m=${3%.out}.msg rc of=${6:-$3}
	rc=$(<"${o%.out}.rc")
	if [[ $rc != 0 ]] && ! grep -q '^ERROR' "$em"; then
		echo "    exit status $rc (expected 0); stderr: $(head -c 300 "${o%.out}.err" | tr '\n' ' ')"
	fi
	if [[ -e ${o%.out}.err.san ]]; then
		echo "    sanitizer report: $(grep -m1 -E 'Sanitizer|runtime error:' "${o%.out}.err")"
	fi
	if (($4)); then
		echo "    messages differ:"
		diff -u --label "expected ${em##*/}" --label nstats "$em" "$m" | sed -n '3,10s/^/    /p'
	fi
	if (($5)); then
		echo "    output differs:"
		diff -u --label "expected ${eo##*/}" --label nstats "$eo" "$of" | sed -n '3,22s/^/    /p'
	fi
	return 0
}

# check_one EXPOUT EXPMSG OUT [OUTFILE]: why_case for one case, comparing the files itself
check_one() {
	local md=0 od=0
	cmp -s "$2" "${3%.out}.msg" || md=1
	cmp -s "$1" "${4:-$3}" || od=1
	why_case "$1" "$2" "$3" $md $od "${4:-$3}"
}

# ---- patched-expected/: the reference's output on a patched copy (make-patched-expected.sh) ----

# patched_file PDIR REPORT SUFFIX TMP: the stored file PDIR/REPORT.SUFFIX, or its .gz unpacked to
# TMP; returns 1 when there is neither
patched_file() {
	if [[ -f $1/$2.$3 ]]; then
		echo "$1/$2.$3"
	elif [[ -f $1/$2.$3.gz ]]; then
		gzip -dc "$1/$2.$3.gz" >"$4" && echo "$4"
	else
		return 1
	fi
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
