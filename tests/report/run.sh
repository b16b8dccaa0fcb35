#!/usr/bin/env bash
# tests/report/run.sh BUILD_DIR: `nstats report` pages of a set of fixtures -- nsysgen exports,
# the bundled example, a few real exports and a PyTorch trace of shared/data, two inputs compared,
# a job of 4 ranks, and the hostile corpus's names (tests/hostile/make-bad-exports.sh) -- each:
#   - parsed by html5lib's strict parser, each SVG as XML, valid UTF-8, under 3 MB
#     (check_html.py, Debian's /usr/bin/python3);
#   - its tables equal to the reports' csv, cell for cell (check_numbers.py);
#   - in each chart, rows whose names differ have labels that differ (check_labels.py);
#   - loaded in headless Chromium, without network (unshare -n where it works): no console message
#     (--enable-logging prints them as CONSOLE lines), no request to the network in its net log
#     (check_netlog.py), the numbers of the DOM it dumps equal to the csv again, and a screenshot
#     in BUILD_DIR/report-screenshots/NAME.png; and at 1280 px (check_layout.py injects
#     measure_layout.js into a copy), every table row at most three lines tall and every cell
#     inside the viewport. Pages made to fail (a console.error, an <img> from http://, names
#     unclamped) show that the browser checks can fail.
# And the page of a 1M-launch export is about the size of a 10k one's (REPORT_BIG=0 skips it).
# Chromium missing: its part is skipped with a note, the rest runs. Ends with
# `report: N passed, M failed`.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
(($# == 1)) || { echo "usage: tests/report/run.sh BUILD_DIR" >&2; exit 2; }
b=$(cd "$1" && pwd)
NSTATS=$b/nstats GEN=$b/nsysgen
DATA=${NSTATS_SHARED:-$here/../../../shared}/data
SHOTS=$b/report-screenshots
WORK=$(mktemp -d "${TMPDIR:-/tmp}/nstats-report.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "report: FAIL $*"; }

PY=/usr/bin/python3
html5=1
$PY -c 'import html5lib' 2>/dev/null || { html5=0; echo "report: note: no html5lib for $PY: pages not parsed strictly"; }
browser=$(command -v chromium || command -v chromium-browser || true)
[[ -n $browser ]] || echo "report: note: chromium not found: pages not loaded in a browser (tools/install-deps.sh)"
# no network for the browser when this user may make a namespace of its own
NONET=()
unshare -n true 2>/dev/null && NONET=(unshare -n)
[[ -n $browser && ${#NONET[@]} == 0 ]] && echo "report: note: unshare -n fails here: the browser runs with the network (the net log still shows any request)"

# ---- fixtures ----------------------------------------------------------------------------------
mkdir -p "$WORK/in" "$WORK/pages" "$WORK/dom" "$SHOTS"
gen() { "$GEN" -q --force "$@" >/dev/null || fail "nsysgen $* failed"; }
gen --example -o "$WORK/in/example.sqlite"
gen --seed 5 --processes 1 --devices 1 --kernels 400 --kernel-names 30 --memcpy 20 --nvtx 40 -o "$WORK/in/small.sqlite"
gen --seed 9 --kernels 300 --graphs 4 --overlap --nvtx 0 -o "$WORK/in/graphs-no-nvtx.sqlite"
gen --seed 3 --kernels 200 -o "$WORK/in/candidate.sqlite"
for r in 0 1 2 3; do gen --ranks 4 --rank $r --kernels 300 -o "$WORK/in/rank$r.sqlite"; done
"$here/../hostile/make-bad-exports.sh" "$GEN" "$WORK/bad" >/dev/null 2>&1 || fail "make-bad-exports.sh failed"

# PAGES: NAME <TAB> inputs, tab-separated (paths under WORK/in, or absolute)
pages() {
	printf '%s\t%s\n' example "$WORK/in/example.sqlite" small "$WORK/in/small.sqlite" \
		graphs-no-nvtx "$WORK/in/graphs-no-nvtx.sqlite"
	printf '%s\t%s\t%s\n' diff "$WORK/in/example.sqlite" "$WORK/in/candidate.sqlite"
	printf '%s\t%s\t%s\t%s\t%s\n' ranks4 "$WORK"/in/rank{0,1,2,3}.sqlite
	printf '%s\t%s\n' hostile-names "$WORK/bad/read-nasty-names.sqlite" \
		hostile-huge "$WORK/bad/read-huge-strings.sqlite"
	local e n=0
	for e in real/trixi-gpu__TrixiCUDA.jl/profile/report1.sqlite \
		real/MohanadOdema__DLProf/nsys_profile.sqlite \
		real/GindaChen__nsys-ai/tests/fixtures/mfu_2gpu_before.sqlite \
		real/facebookresearch__HolisticTraceAnalysis/tests/data/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz; do
		n=$((n + 1))
		[[ -f $DATA/$e ]] && printf '%s\t%s\n' "real$n" "$DATA/$e"
	done
	# a real pair compared: PyTorch kernels whose names differ only in their middles
	e=$DATA/real/GindaChen__nsys-ai/tests/fixtures
	[[ -f $e/mfu_2gpu_before.sqlite && -f $e/mfu_2gpu_after.sqlite ]] &&
		printf '%s\t%s\t%s\n' real-pair "$e/mfu_2gpu_before.sqlite" "$e/mfu_2gpu_after.sqlite"
}

# ---- the browser -------------------------------------------------------------------------------
# browse NAME PAGE: loads PAGE; WORK/dom/NAME.html its DOM, WORK/NAME.console its console lines
# (of its own: source file://),
# WORK/NAME.netlog its net log, SHOTS/NAME.png a screenshot of the top 1200 x 6000 pixels
browse() {
	local name=$1 page=$2
	timeout 120 "${NONET[@]}" "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$WORK/profile-$name" --no-first-run --disable-extensions \
		--disable-background-networking --disable-component-update --disable-sync \
		--enable-logging=stderr --v=0 --log-net-log="$WORK/$name.netlog" \
		--window-size=1200,6000 --screenshot="$SHOTS/$name.png" --dump-dom "file://$page" \
		>"$WORK/dom/$name.html" 2>"$WORK/$name.stderr"
	local rc=$?
	# the page's messages; the browser's own pages (chrome://) log some of their own
	grep -a 'CONSOLE.*source: file://' "$WORK/$name.stderr" >"$WORK/$name.console"
	return $rc
}

# layout NAME PAGE: PAGE laid out at 1280 px (check_layout.py): every table row at most three
# lines tall and every cell inside the viewport; its report in WORK/NAME.layout
layout() {
	local name=$1 page=$2
	python3 "$here/check_layout.py" inject "$page" "$WORK/$name.measured.html" || return 2
	timeout 120 "${NONET[@]}" "$browser" --headless --no-sandbox --disable-gpu --disable-quic \
		--user-data-dir="$WORK/profile-layout-$name" --no-first-run --disable-extensions \
		--disable-background-networking --disable-component-update --disable-sync \
		--window-size=1280,6000 --dump-dom "file://$WORK/$name.measured.html" \
		>"$WORK/dom/$name.measured.html" 2>/dev/null
	python3 "$here/check_layout.py" read "$WORK/dom/$name.measured.html" >"$WORK/$name.layout"
}

# the browser checks, on pages made to fail them
self_test() {
	printf '<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title></head><body><p>t</p><script>console.error("deliberate")</script></body></html>\n' >"$WORK/console-error.html"
	browse self-console "$WORK/console-error.html"
	[[ -s $WORK/self-console.console ]] && ok || fail "a page's console.error was not seen (the console check cannot fail)"
	printf '<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title></head><body><img src="http://example.invalid/x.png" alt=""></body></html>\n' >"$WORK/fetch.html"
	browse self-fetch "$WORK/fetch.html"
	python3 "$here/check_netlog.py" "$WORK/self-fetch.netlog" >/dev/null && fail "a page's request to http:// was not seen (the net log check cannot fail)" || ok
	rm -f "$SHOTS"/self-*.png
	# the numbers check fails on a number changed by one
	sed 's/data-v="\([0-9]*\)"/data-v="1\1"/' "$WORK/pages/example.html" >"$WORK/changed.html"
	python3 "$here/check_numbers.py" "$NSTATS" "$WORK/changed.html" "$WORK/in/example.sqlite" >/dev/null &&
		fail "a changed number was not seen (the numbers check cannot fail)" || ok
	# the layout check fails on names shown whole on one line
	local wide=$WORK/pages/real-pair.html
	[[ -f $wide ]] || wide=$WORK/pages/hostile-names.html
	sed 's#</head>#<style>table.rows td.name .nm{display:block;-webkit-line-clamp:none}table.rows td{white-space:nowrap!important;max-width:none!important}</style></head>#' \
		"$wide" >"$WORK/unclamped.html"
	layout self-unclamped "$WORK/unclamped.html"
	(($? == 1)) && ok || fail "names on one line were not seen (the layout check cannot fail): $(head -c 300 "$WORK/self-unclamped.layout")"
}

# ---- each page ---------------------------------------------------------------------------------
check_page() { # check_page NAME INPUT...
	local name=$1 page=$WORK/pages/$1.html
	shift
	if ! timeout 120 "$NSTATS" report "$@" -o "$page" 2>"$WORK/$name.err" || [[ -s $WORK/$name.err ]]; then
		fail "$name: nstats report failed: $(head -c 300 "$WORK/$name.err")"
		return
	fi
	ok
	if ((html5)); then
		$PY "$here/check_html.py" "$page" && ok || fail "$name: the page does not parse"
	fi
	python3 "$here/check_numbers.py" "$NSTATS" "$page" "$@" >"$WORK/$name.numbers" && ok ||
		fail "$name: numbers differ from the reports': $(head -c 600 "$WORK/$name.numbers")"
	python3 "$here/check_labels.py" "$page" >"$WORK/$name.labels"
	(($? != 1)) && ok || fail "$name: names read alike in a chart: $(head -c 600 "$WORK/$name.labels")"
	[[ -n $browser ]] || return
	browse "$name" "$page" && ok || fail "$name: the browser failed (status $?): $(tail -c 300 "$WORK/$name.stderr")"
	[[ ! -s $WORK/$name.console ]] && ok || fail "$name: console messages: $(head -c 400 "$WORK/$name.console")"
	python3 "$here/check_netlog.py" "$WORK/$name.netlog" && ok || fail "$name: the page made requests"
	[[ -s $SHOTS/$name.png ]] && ok || fail "$name: no screenshot"
	python3 "$here/check_numbers.py" "$NSTATS" "$WORK/dom/$name.html" "$@" >"$WORK/$name.dom" && ok ||
		fail "$name: the DOM's numbers differ from the reports': $(head -c 600 "$WORK/$name.dom")"
	layout "$name" "$page" && ok || fail "$name: tables do not fit 1280 px: $(head -c 600 "$WORK/$name.layout")"
}

while IFS=$'\t' read -r -a args; do
	check_page "${args[@]}"
done < <(pages)
[[ -n $browser && -f $WORK/pages/example.html ]] && self_test

# the label check fails on a page whose chart labels were cut alike
if [[ -f $WORK/pages/example.html ]]; then
	sed 's/\(text-anchor="end">\)[^<]*[a-z][^<]*</\1same label</' "$WORK/pages/example.html" >"$WORK/alike.html"
	python3 "$here/check_labels.py" "$WORK/alike.html" >/dev/null
	(($? == 1)) && ok || fail "labels made alike were not seen (the label check cannot fail)"
fi

# ---- two medians named apart -------------------------------------------------------------------
# P50 (nearest rank) and nsys's Med (mean of the two middle values) each say which they are: in
# their header's tooltip and in a legend under every table that shows them
medians_named() { # medians_named PAGE
	local page=$WORK/pages/$1.html tables med p50
	tables=$(grep -c '<table class="rows"' "$page")
	med=$(grep -c '<th title="Med: nsys&#39;s median, the mean of the two middle values">Med</th>' "$page")
	p50=$(grep -c '<th title="P50: nearest-rank median, a duration that occurred">P50</th>' "$page")
	((med >= 3 && p50 == 1)) && ok || fail "$1: Med in $med headers, P50 in $p50, with their notes"
	(($(grep -c '<p class="legend">Med: nsys&#39;s median, the mean of the two middle values.</p>' "$page") == med)) &&
		ok || fail "$1: not one Med legend under each of the $med tables with Med"
	(($(grep -c '<p class="legend">P50: nearest-rank median, a duration that occurred.</p>' "$page") == p50)) &&
		ok || fail "$1: no P50 legend under the kernels' table"
	(($(grep -c '<p class="legend">' "$page") < tables)) && ok || fail "$1: a legend under every table"
}
[[ -f $WORK/pages/small.html ]] && medians_named small

# gpu_time_sum's Overlap is Kernel Sum - Kernel Union: its caption says so, not "ran at once"
if [[ -f $WORK/pages/small.html ]]; then
	grep -q 'Overlap: kernel time counted more than once, the sum of kernel durations minus their union' \
		"$WORK/pages/small.html" && ! grep -q 'ran at once' "$WORK/pages/small.html" && ok ||
		fail "small: the GPU table's caption does not say what Overlap is"
fi

# ---- bounded size ------------------------------------------------------------------------------
if [[ ${REPORT_BIG:-1} != 0 ]]; then
	gen --seed 2 --kernels 10000 -o "$WORK/in/k10.sqlite"
	gen --seed 2 --kernels 1000000 -o "$WORK/in/m1.sqlite"
	"$NSTATS" report "$WORK/in/k10.sqlite" -o "$WORK/k10.html" && "$NSTATS" report "$WORK/in/m1.sqlite" -o "$WORK/m1.html" ||
		fail "nstats report on the 10k or 1M export failed"
	small=$(stat -c %s "$WORK/k10.html" 2>/dev/null || echo 0) big=$(stat -c %s "$WORK/m1.html" 2>/dev/null || echo 0)
	if ((small > 0 && big < 3000000 && big * 10 < small * 15)); then
		ok
	else
		fail "the 1M-launch page has $big bytes, the 10k one $small: not bounded"
	fi
	echo "report: page of 10k launches $small bytes, of 1M launches $big bytes"
	# sections computed two at a time land as one thread writes them, byte for byte
	if NSTATS_READ_THREADS=1 "$NSTATS" report "$WORK/in/m1.sqlite" -o "$WORK/m1-one.html" &&
		cmp -s "$WORK/m1.html" "$WORK/m1-one.html"; then
		ok
	else
		fail "the 1M-launch page written on one thread differs from the page written on two"
	fi
	# the two sections that sort a whole table (kernels, api) never run at once
	if NSTATS_TIMING=1 "$NSTATS" report "$WORK/in/m1.sqlite" -o "$WORK/m1-timed.html" 2>"$WORK/m1.timing" &&
		grep -q 'began section kernels' "$WORK/m1.timing" &&
		awk '/timing: began section (kernels|api)$/ { if (open) bad = 1; open = 1 }
			/timing: wrote section (kernels|api) in/ { open = 0 }
			END { exit bad }' "$WORK/m1.timing"; then
		ok
	else
		fail "the kernels and api sections ran at once: $(grep section "$WORK/m1.timing" | tr '\n' ' ')"
	fi
fi
echo "report: $passed passed, $failed failed"
((failed == 0))
