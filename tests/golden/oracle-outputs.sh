#!/usr/bin/env bash
# tests/golden/oracle-outputs.sh DB OUTDIR REPORT...: shared/tools/oracle-outputs for the golden
# fixture DB (<fixture>.sqlite); a fixture with stats options (`-- OPTIONS`, common.sh) has nsys
# stats run with them, and its output put into the same files the same way.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
db=$1 out=$2
shift 2
name=$(basename "$db" .sqlite)
extra=$(fixtures | awk -F'\t' -v n="$name" '$1 == n { print $NF }')
extra=$(stats_opts "$extra")
[[ -n $extra ]] || exec "$SHARED/tools/oracle-outputs" "$db" "$out" "$@"

read -r -a opts <<<"$extra"
nsys=$("$SHARED/tools/nsys-oracle")
export LC_ALL=C.UTF-8
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
cp "$db" "$tmp/in.sqlite" # nsys wants the .sqlite ending
for r; do
	: >"$tmp/msg"
	name=${r#rule:}
	if [[ $r == rule:* ]]; then cmd=(analyze "${opts[@]}" --rule "$name"); else cmd=(stats "${opts[@]}" --report "$name"); fi
	for fmt in csv column; do
		f=$out/${name//:/_}.$(fmt_ext "$fmt")
		"$nsys" "${cmd[@]}" --format "$fmt" "$tmp/in.sqlite" >"$f" 2>"$tmp/err" || true
		sed -i -e "s|$tmp/in.sqlite|$(basename "$db")|g" "$f" "$tmp/err"
		grep -h -E '^(SKIPPED|ERROR|WARNING)' "$f" "$tmp/err" >>"$tmp/msg" || true
		sed -i -E '/^(SKIPPED|ERROR|WARNING|Processing \[)/d' "$f"
		[[ $(tr -d '[:space:]' <"$f") != "" ]] || rm -f "$f"
	done
	sort -u "$tmp/msg" >"$out/${name//:/_}.msg"
	[[ -s $out/${name//:/_}.msg ]] || rm -f "$out/${name//:/_}.msg"
done
