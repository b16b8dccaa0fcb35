# shellcheck shell=bash
# lib.sh: sourced by the case_*.sh scripts that count their checks the same way: the environment
# that tests/accounting/run.sh gives them, a scratch folder to work in, and fixtures by name.
set -uo pipefail
: "${NSTATS:?}" "${NSYSGEN:?}" "${BRUTE:?}" "${WORK:?}"
cd "$WORK" || exit 2
fails=0 checks=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

gen() { # gen NAME OPTIONS...: NAME.sqlite in WORK, without NVTX and OS runtime rows unless asked
	local name=$1
	shift
	"$NSYSGEN" -q --force -o "$name.sqlite" --nvtx 0 --osrt 0 "$@" || { fail "nsysgen $name"; return 1; }
}
