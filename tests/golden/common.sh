# shellcheck shell=bash
# common.sh: sourced by tests/golden/run.sh and make-expected.sh.
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# ROOT, SHARED, DATA, ORACLE come from tests/corpus/lib.sh
# shellcheck source=tests/corpus/lib.sh
source "$HERE/../corpus/lib.sh"

# fixtures: prints NAME<TAB>TWIN<TAB>OPTIONS for each fixture line (TWIN "-" when none)
fixtures() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$HERE/fixtures.txt" |
		awk '{ name = $1; twin = "-"; $1 = "";
		       if ($2 ~ /^as=/) { twin = substr($2, 4); $2 = "" }
		       sub(/^ +/, ""); print name "\t" twin "\t" $0 }'
}

# A fixture's options may end with `-- STATS-OPTIONS`: options of `stats` (both nsys's and
# nstats's) that every report of the fixture runs with, e.g. `-- --filter-time 1ms/2ms`;
# words are split at blanks.
# gen_opts OPTIONS, stats_opts OPTIONS: the nsysgen part, the stats part
gen_opts() { if [[ $1 == *" -- "* ]]; then echo "${1%% -- *}"; else echo "$1"; fi; }
stats_opts() { if [[ $1 == *" -- "* ]]; then echo "${1#* -- }"; fi; }

# make_fixture NSYSGEN NAME OPTIONS DIR: writes DIR/NAME.sqlite
make_fixture() {
	local -a opts
	read -r -a opts <<<"$(gen_opts "$3")"
	"$1" -q "${opts[@]}" -o "$4/$2.sqlite" >/dev/null ||
		{ echo "golden: nsysgen failed on fixture $2 ($3)" >&2; return 1; }
}

abspath() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
