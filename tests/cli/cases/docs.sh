# tests/cli/cases/docs.sh: the examples of docs/guide.md (its ```console blocks) are what this
# nstats prints, through tools/doc-examples.py, on the bundled example beside NSTATS.

test_guide_examples() {
	local root b
	root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd) b=$(dirname "$NSTATS")
	if ! command -v python3 >/dev/null; then echo "cli: note: no python3, the guide's examples not run"; return; fi
	if [[ ! -f $b/example.sqlite ]]; then
		echo "cli: note: no $b/example.sqlite (make $b/example.sqlite), the guide's examples not run"
		return
	fi
	local out
	out=$(python3 "$root/tools/doc-examples.py" --build "$b" "$root/docs/guide.md" 2>&1) ||
		fail "docs/guide.md: an example is not what nstats prints: ${out:0:2000}"
}
