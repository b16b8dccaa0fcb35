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

# make_fixture NSYSGEN NAME OPTIONS DIR: writes DIR/NAME.sqlite
make_fixture() {
	local -a opts
	read -r -a opts <<<"$3"
	"$1" -q "${opts[@]}" -o "$4/$2.sqlite" >/dev/null ||
		{ echo "golden: nsysgen failed on fixture $2 ($3)" >&2; return 1; }
}

abspath() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
