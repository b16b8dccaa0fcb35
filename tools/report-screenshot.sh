#!/usr/bin/env bash
# tools/report-screenshot.sh [BUILD_DIR]: docs/report.png, the top of `nstats report`'s page for
# the bundled example (BUILD_DIR/example.sqlite, made with nsysgen --example when missing) as
# headless Chromium shows it in a window 1200 pixels wide, for the README and docs/report.md.
# Needs chromium (tools/install-deps.sh). Run it again when the page changes, and commit the PNG.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
b=$(cd "${1:-$root/build}" && pwd)
browser=$(command -v chromium || command -v chromium-browser || true)
[[ -n $browser ]] || { echo "report-screenshot: chromium not found (tools/install-deps.sh)" >&2; exit 1; }
[[ -x $b/nstats && -x $b/nsysgen ]] || { echo "report-screenshot: no $b/nstats or $b/nsysgen (make)" >&2; exit 1; }
[[ -f $b/example.sqlite ]] || "$b/nsysgen" --example -o "$b/example.sqlite" >/dev/null
work=$(mktemp -d "${TMPDIR:-/tmp}/nstats-shot.XXXXXX")
trap 'rm -rf "$work"' EXIT
# the page names its input as given: the path a reader would type
(cd "$root" && "$b/nstats" report --title "nstats report: the bundled example" \
	"$(realpath --relative-to="$root" "$b/example.sqlite")" -o "$work/example.html")
nonet=()
unshare -n true 2>/dev/null && nonet=(unshare -n)
"${nonet[@]}" "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
	--user-data-dir="$work/profile" --disable-extensions --disable-background-networking \
	--force-device-scale-factor=1 --window-size=1200,1100 --screenshot="$work/report.png" \
	"file://$work/example.html" >/dev/null 2>&1
mv "$work/report.png" "$root/docs/report.png"
echo "docs/report.png: $(stat -c %s "$root/docs/report.png") bytes"
