#!/usr/bin/env bash
# tests/corpus/make-patched-expected.sh: regenerates tests/corpus/patched-expected/ (not run by CI;
# it needs the reference, shared/tools/nsys-oracle, and shared/data).
#
# Where nsys 2024.2.3 refuses an old or trimmed export, or counts backtrace rows as calls, nstats
# answers anyway (docs/deviations.md D1, D2, D15, D45, D49), and the stored reference output cannot say
# whether nstats's answer is right. This script takes each such case, copies the export with
# tests/corpus/patch-export.sh (patches that the reference needs and that cannot change the right
# answer), runs the reference on the copy with shared/tools/oracle-outputs (the copy has the
# original's basename, so the messages name the same file), and keeps what it printed:
#   patched-expected/<the export's folder under oracle-2024.2.3>/REPORT.csv, REPORT.column.txt,
#   REPORT.msg (when it said something), and patches.txt (what patch-export.sh changed); a file
#   over 64 KiB is stored gzipped as REPORT.csv.gz or REPORT.column.txt.gz; an empty output (the
#   csv of a report without rows) as an empty file.
# tests/corpus/run.sh compares a listed case with these files byte for byte.
#
# The cases: every (export, report) of the corpus that tests/corpus/deviations.tsv lists under D1,
# D2, D15, D20, D45 or D49, and every other one where the stored reference output refused the export for a reason
# that a patch answers (missing ENUM_* table, greenContextId, TARGET_INFO_GPU, ThreadNames, "no such column").
# A case is kept only when the reference prints a report on the patched copy; the listed ones
# where it does not are named at the end (they stay unverified). An unlisted case that the
# reference still refuses (nothing to patch: no GPU table at all) is left out silently: nstats
# has to refuse it too, and the stored reference output checks that.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/corpus/lib.sh
source "$HERE/lib.sh" # ROOT, SHARED, DATA, ORACLE
OUTROOT=$HERE/patched-expected
IDS=" D1 D2 D15 D20 D45 D49 "
REFUSED='does not contain ENUM_|greenContextId|TARGET_INFO_GPU|ThreadNames|no such column'
BIG=65536

[[ -d $DATA && -d $ORACLE ]] || { echo "make-patched-expected: no $DATA or $ORACLE" >&2; exit 1; }
"$SHARED/tools/nsys-oracle" >/dev/null
load_deviations "$HERE/deviations.tsv" "$ROOT/docs/deviations.md" || exit 1
mapfile -t reports < <(read_list "$HERE/reports")

work=$(mktemp -d "${TMPDIR:-/tmp}/nstats-patched.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/new"
kept=0 refused="" unlisted=""

while IFS= read -r -d '' rel; do
	odir=${rel#real/} odir=${odir%.sqlite}
	[[ -d $ORACLE/$odir ]] || continue
	want=() listed=" "
	for r in "${reports[@]}"; do
		id="" n=$(case_name "$r")
		for f in "${FORMATS[@]}"; do id=$(deviation_of "$rel" "$n" "$f") && break; done
		if [[ $IDS == *" $id "* ]]; then
			want+=("$r") listed+="$r "
		elif grep -q -E "^(SKIPPED|ERROR).*($REFUSED)" "$ORACLE/$odir/$n.msg" 2>/dev/null; then
			want+=("$r")
		fi
	done
	((${#want[@]})) || continue
	base=${rel##*/}
	rm -rf "$work/db" "$work/out"
	mkdir -p "$work/db"
	"$HERE/patch-export.sh" "$DATA/$rel" "$work/db/$base" >"$work/patches"
	"$SHARED/tools/oracle-outputs" "$work/db/$base" "$work/out" "${want[@]}"
	dest=$work/new/$odir
	for r in "${want[@]}"; do
		n=$(case_name "$r")
		if [[ ! -f $work/out/$n.csv && ! -f $work/out/$n.column.txt ]]; then
			# an unlisted case that still refuses: nothing to verify, nstats must refuse too
			[[ $listed != *" $r "* ]] ||
				refused+="  $rel $r: $(head -n1 "$work/out/$n.msg" 2>/dev/null || echo 'no output')"$'\n'
			continue
		fi
		mkdir -p "$dest"
		for ext in csv column.txt msg; do
			f=$work/out/$n.$ext
			# oracle-outputs leaves out an output that is empty: here an empty file says so
			[[ -f $f ]] || { [[ $ext == msg ]] || : >"$dest/$n.$ext"; continue; }
			# big traces are stored compressed (run.sh reads either)
			if (($(stat -c %s "$f") > BIG)); then gzip -9n <"$f" >"$dest/$n.$ext.gz"; else cp "$f" "$dest/"; fi
		done
		kept=$((kept + 1))
		[[ $listed == *" $r "* ]] ||
			unlisted+="  $rel $r (list it in deviations.tsv, or run.sh fails it and never reads this)"$'\n'
	done
	[[ ! -d $dest ]] || { echo "# $rel: what tests/corpus/patch-export.sh changed"; cat "$work/patches"; } >"$dest/patches.txt"
	echo "$rel: ${want[*]}"
done < <(cd "$DATA" && find -L real captured -name '*.sqlite' -type f -print0 2>/dev/null | sort -z)

rm -rf "$OUTROOT"
mv "$work/new" "$OUTROOT"
echo "make-patched-expected: $kept reports kept in ${OUTROOT#"$ROOT/"}"
[[ -z $refused ]] || printf 'the reference still refuses the patched copy (left unverified):\n%s' "$refused"
[[ -z $unlisted ]] || printf 'kept, but not listed under D1, D2, D15, D20, D45 or D49:\n%s' "$unlisted"
