# bench/lib.sh: what bench/run.sh and bench/scaling.sh share, sourced by both: the launches
# export, the floor of the default report set, measuring, ratios and finding nsys.

# bench_make_launches BUILD_DIR DB N [NSYSGEN_OPTIONS...]: the launches export of N kernel
# launches (N/10 memcpy, N/20 memset, N/5 other calls, N/10 NVTX ranges and OS runtime calls,
# 2 processes of 4 threads, 2 devices, 4 streams, 40 kernels), unless DB is there already,
# made by this nsysgen with these options: DB.made holds the nsysgen binary's checksum and the
# options. An export kept from another nsysgen or other options beside a twin made now
# compares two different runs (their launch orders differ from the first launch), so it is
# made again.
bench_make_launches() {
	local b=$1 db=$2 n=$3
	shift 3
	local args=(--seed 1 --kernels "$n" --memcpy $((n / 10)) --memset $((n / 20))
		--other-api $((n / 5)) --processes 2 --threads 4 --devices 2 --streams 4
		--kernel-names 40 "$@")
	local stamp
	stamp="$(sha256sum <"$b/nsysgen" | cut -c1-16) ${args[*]}"
	[[ -f $db && -f $db.made && $(<"$db.made") == "$stamp" ]] && return 0
	echo "bench: generating $db ($n launches $*)" >&2
	rm -f "$db" "$db.made"
	# --force: a PyTorch trace (--kineto) kept from the run made before is made again too
	"$b/nsysgen" -q --force "${args[@]}" -o "$db"
	printf '%s\n' "$stamp" >"$db.made"
}

bench_cols() { # TABLE COLUMN...: one SELECT that reads those columns of every row
	local table=$1 expr="" c
	shift
	for c in "$@"; do expr+="${expr:+,}total(\"$c\")"; done
	printf 'SELECT %s FROM %s;' "$expr" "$table"
}

# The columns the default report set reads
bench_memops="$(bench_cols CUPTI_ACTIVITY_KIND_MEMCPY start end bytes copyKind) $(bench_cols CUPTI_ACTIVITY_KIND_MEMSET start end bytes)"
bench_floor_default="$(bench_cols CUPTI_ACTIVITY_KIND_RUNTIME start end nameId eventClass callchainId)
 $(bench_cols CUPTI_ACTIVITY_KIND_KERNEL start end demangledName) $bench_memops
 $(bench_cols NVTX_EVENTS start end eventType textId text globalTid domainId) $(bench_cols OSRT_API start end eventClass nameId)"

bench_need_measure() {
	[[ -x $1/measure ]] || { echo "bench: $1/measure: build it first (make $1/measure)" >&2; exit 2; }
}

# bench_timed RUNS COMMAND...: "seconds MiB" (medians), or "- -" when the command failed.
# NSTATS_BENCH_SETTLE=S starts each run after S idle seconds: on a VM that hands freed memory back
# to its host (virtio-balloon free page reporting), a run right after another reuses pages the
# host still backs, which a run of 1 GB finds and one of 5 GB mostly does not (docs/benchmarks.md).
bench_timed() {
	local settle=${NSTATS_BENCH_SETTLE:-0}
	if [[ $settle == 0 ]]; then
		"$B/measure" "$@" 2>/dev/null || echo "- -"
		return
	fi
	local runs=$1 i all=""
	shift
	for ((i = 0; i < runs; i++)); do
		sleep "$settle"
		all+="$("$B/measure" 1 "$@" 2>/dev/null || echo "- -")"$'\n'
	done
	[[ $all == *-* ]] && { echo "- -"; return; }
	printf '%s %s\n' "$(bench_median 1 <<<"$all")" "$(bench_median 2 <<<"$all")"
}

# bench_median FIELD: the median of that field of the lines on stdin
bench_median() {
	awk -v f="$1" 'NF { print $f }' | sort -g |
		awk '{ a[NR] = $1 } END { print NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

bench_ratio() { # A B: A/B as "N.Nx" ("0.0Nx" below 0.1), "-" when either is missing
	awk -v a="$1" -v b="$2" 'BEGIN { if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/ || b == 0) print "-"
		else printf(a / b < 0.1 ? "%.2fx\n" : "%.1fx\n", a / b) }'
}

# bench_nsys: the path of nsys 2024.2.3 (../shared/tools/nsys-oracle installs it), or nothing
# when NSTATS_BENCH_REF=0 or it cannot be installed
bench_nsys() {
	[[ ${NSTATS_BENCH_REF:-1} != 0 && -x $root/../shared/tools/nsys-oracle ]] || return 0
	"$root/../shared/tools/nsys-oracle" 2>/dev/null || true
}
