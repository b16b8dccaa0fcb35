#!/usr/bin/env bash
# cuda_gpu_kern_dist against brute_kern_dist (nearest-rank percentiles by counting, two-pass mean
# and sample standard deviation, Busy (%) over per-device unions found piece by piece, the order
# of the rows), on fixtures with hundreds of launches of a few kernels (percentiles inside the
# distribution), kernels launched once (every percentile the one value), kernels on two devices,
# overlap on several streams and across processes, graphs, zero durations, exact duplicates,
# durations below zero, kernels without a deviceId; names demangled, base and mangled; whole and
# under --filter-time. A tampered percentile and a swapped row order must fail the check.
# shellcheck source=tests/accounting/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

agree() { # agree EXPORT NAMEARG NAMECOL [S E]
	local x=$1 arg=$2 col=$3 out
	shift 3
	local filter=()
	(($# == 2)) && filter=(--filter-time "$1/$2")
	checks=$((checks + 1))
	out=$("$NSTATS" stats -q "${filter[@]}" -r "cuda_gpu_kern_dist$arg" -f tsv "$x.sqlite" |
		"$BRUTE/brute_kern_dist" "$x.sqlite" "$col" "$@") || fail "$x$arg ${filter[*]}: $out"
}

check_all() {
	local x=$1 lo hi
	read -r lo hi < <(sqlite3 -separator ' ' "$x.sqlite" "SELECT min(start), max(end) FROM CUPTI_ACTIVITY_KIND_RUNTIME")
	agree "$x" "" demangledName
	agree "$x" ":base" shortName
	agree "$x" ":mangled" mangledName
	agree "$x" "" demangledName $((lo + (hi - lo) * 2 / 5)) $((lo + (hi - lo) * 3 / 5))
	agree "$x" ":base" shortName $((lo + (hi - lo) * 85 / 100)) $((lo + (hi - lo) * 90 / 100))
}

# about 200 launches of each of 3 kernels, on 2 devices, 3 processes, 3 overlapping streams
gen many --seed 51 --processes 3 --devices 2 --streams 3 --overlap --kernels 600 --kernel-names 3 \
	--memcpy 30 --memset 6 --graphs 20 --zero-durations 15 && check_all many
# more than 256 launches of each kernel: nstats sorts their durations by radix, not by qsort
gen mid --seed 54 --processes 2 --devices 2 --streams 2 --overlap --kernels 3000 --kernel-names 4 \
	--memcpy 20 --memset 4 && check_all mid
# more kernel names than launches: kernels launched once or twice
gen few --seed 52 --kernels 30 --kernel-names 40 --memcpy 4 --memset 2 && check_all few
"$NSYSGEN" -q --force -o example.sqlite --example && check_all example
# exact duplicates and durations below zero
cp many.sqlite odd.sqlite
sqlite3 odd.sqlite "
	INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid % 7 = 0;
	UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start - 11 WHERE rowid % 31 = 0;" || fail "making odd.sqlite"
check_all odd
# kernels of no device (the column dropped): one more device, of its own busy time
cp many.sqlite nodev.sqlite
sqlite3 nodev.sqlite "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN deviceId;" || fail "making nodev.sqlite"
check_all nodev

# the check can fail: a P90 one ns off; two rows swapped
"$NSTATS" stats -q -r cuda_gpu_kern_dist -f tsv many.sqlite >good.tsv
checks=$((checks + 1))
awk -F'\t' -v OFS='\t' 'NR == 2 { $7 = $7 + 1 } { print }' good.tsv |
	"$BRUTE/brute_kern_dist" many.sqlite demangledName >/dev/null && fail "a tampered P90 passed"
checks=$((checks + 1))
awk 'NR == 2 { row2 = $0; next } { print } NR == 3 { print row2 }' good.tsv | "$BRUTE/brute_kern_dist" many.sqlite demangledName >/dev/null &&
	fail "rows out of order passed"

# Total Time and Instances are cuda_gpu_kern_sum's, name by name
checks=$((checks + 1))
diff <("$NSTATS" stats -q -r cuda_gpu_kern_sum -f tsv odd.sqlite | awk -F'\t' '{ print $2, $3, $9 }') \
	<("$NSTATS" stats -q -r cuda_gpu_kern_dist -f tsv odd.sqlite | awk -F'\t' '{ print $2, $3, $11 }' |
		sed 1s/.*/"Total Time (ns) Instances Name"/) >/dev/null || fail "totals differ from cuda_gpu_kern_sum"

# graphs alone: no kernel table, skipped as cuda_gpu_kern_sum is
gen graphs-only --seed 53 --kernels 0 --memcpy 0 --memset 0 --other-api 4 --graphs 10
checks=$((checks + 1))
out=$("$NSTATS" stats -r cuda_gpu_kern_dist -f csv graphs-only.sqlite 2>&1)
[[ $? == 0 && $out == *"SKIPPED: graphs-only.sqlite does not contain CUDA kernel data."* ]] ||
	fail "graphs-only: $out"

echo "kern_dist: $checks checks, $fails failed"
((fails == 0))
