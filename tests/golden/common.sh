# shellcheck shell=bash
# common.sh: sourced by tests/golden/run.sh and make-expected.sh.
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# ROOT, SHARED, DATA, ORACLE come from tests/corpus/lib.sh
# shellcheck source=tests/corpus/lib.sh
source "$HERE/../corpus/lib.sh"

# fixtures: prints NAME<TAB>TWIN<TAB>ONLY<TAB>OPTIONS for each fixture line (TWIN "-" when none;
# ONLY the glob of `only=GLOB`, the report entries the fixture is checked on, "*" when none; it
# follows as=TWIN when there is one, the name otherwise)
fixtures() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$HERE/fixtures.txt" |
		awk '{ name = $1; twin = "-"; only = "*"; $1 = "";
		       if ($2 ~ /^as=/) { twin = substr($2, 4); $2 = "" }
		       if ($3 ~ /^only=/) { only = substr($3, 6); $3 = "" }
		       else if ($2 ~ /^only=/) { only = substr($2, 6); $2 = "" }
		       sub(/^ +/, ""); print name "\t" twin "\t" only "\t" $0 }'
}

# golden_reports: the report entries of the golden suite: tests/corpus/reports, then
# tests/golden/extra-reports (rules with arguments and others that the corpus's reference outputs
# do not cover)
golden_reports() {
	read_list "$ROOT/tests/corpus/reports"
	read_list "$HERE/extra-reports"
}

# make_fixture NSYSGEN NAME OPTIONS DIR: writes DIR/NAME.sqlite
make_fixture() {
	local -a opts
	read -r -a opts <<<"$(gen_opts "$3")"
	"$1" -q "${opts[@]}" -o "$4/$2.sqlite" >/dev/null ||
		{ echo "golden: nsysgen failed on fixture $2 ($3)" >&2; return 1; }
}

abspath() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }

# ---- fixtures with stats options ----------------------------------------------------------------
# A fixture's options may end with `-- OPTIONS`: options of `stats` (of nsys and nstats alike) that
# every report of the fixture runs with, e.g. `-- --filter-time 1ms/2ms`; words split at blanks.

# gen_opts OPTIONS, stats_opts OPTIONS: the nsysgen part, the stats part
gen_opts() { if [[ $1 == *" -- "* ]]; then echo "${1%% -- *}"; else echo "$1"; fi; }
stats_opts() { if [[ $1 == *" -- "* ]]; then echo "${1#* -- }"; fi; }

# with_opts PROGRAM OPTIONS DIR: PROGRAM itself when OPTIONS has no stats part; else a script in
# DIR that runs PROGRAM with those options after its command word (`stats`)
with_opts() {
	local extra
	extra=$(stats_opts "$2")
	if [[ -z $extra ]]; then echo "$1"; return; fi
	printf '#!/usr/bin/env bash\nexec %q "$1" %s "${@:2}"\n' "$1" "$extra" >"$3/with-opts"
	chmod +x "$3/with-opts"
	echo "$3/with-opts"
}
