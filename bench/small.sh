#!/usr/bin/env bash
# bench/small.sh [BUILD_DIR]: the default report set (`stats -q`) on every real and captured
# export under ../shared/data, against nsys 2024.2.3 (when ../shared/tools/nsys-oracle can
# install it), each export's runs next to each other so that both meet the host in the same
# state. Prints one markdown row per export (medians, to the microsecond: these take a few ms)
# and a summary: the slowest and median nstats time, the median nsys/nstats ratio, how many
# exports are at 15x or more and how many take at most 30 ms.
# Knobs: NSTATS_BENCH_RUNS (nstats runs per export, default 9), NSTATS_BENCH_REF_RUNS (nsys runs,
# default 3), NSTATS_BENCH_REF=0 (no nsys).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/lib.sh
source "$root/bench/lib.sh"
B=$(cd "${1:-$root/build}" && pwd)
bench_need_measure "$B"
runs=${NSTATS_BENCH_RUNS:-9} ref_runs=${NSTATS_BENCH_REF_RUNS:-3}
nsys=$(bench_nsys)
data=$root/../shared/data
[[ -d $data ]] || { echo "bench: $data: not found" >&2; exit 2; }

echo "| export | nstats s | nstats MiB | nsys s | nsys MiB | nsys/nstats |"
echo "|---|---|---|---|---|---|"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
find "$data/real" "$data/captured" -name '*.sqlite' | LC_ALL=C sort | while IFS= read -r f; do
	read -r s m < <("$B/measure" -u "$runs" "$B/nstats" stats -q "$f" 2>/dev/null || echo "- -")
	rs=- rm=-
	[[ -n $nsys ]] && read -r rs rm < <("$B/measure" -u "$ref_runs" "$nsys" stats -q "$f" 2>/dev/null || echo "- -")
	echo "$s $rs" >>"$out"
	echo "| ${f#"$data/"} | $s | $m | $rs | $rm | $(bench_ratio "$rs" "$s") |"
done
echo
awk '$1 ~ /^[0-9.]+$/ { t[n++] = $1; max = $1 > max ? $1 : max; if ($2 ~ /^[0-9.]+$/) { r[k++] = $2 / $1; fast += $2 / $1 >= 15 }
	quick += $1 <= 0.030 }
	function median(a, c,   i, j, x) {
		for (i = 1; i < c; i++) { x = a[i]; for (j = i; j > 0 && a[j - 1] > x; j--) a[j] = a[j - 1]; a[j] = x }
		return c % 2 ? a[int(c / 2)] : (a[c / 2 - 1] + a[c / 2]) / 2 }
	END {
		printf "%d exports: nstats median %.1f ms, slowest %.1f ms, %d at most 30 ms", n, 1000 * median(t, n),
			1000 * max, quick
		if (k) printf "; nsys/nstats median %.1fx, %d of %d at 15x or more", median(r, k), fast, k
		print "" }' "$out"
