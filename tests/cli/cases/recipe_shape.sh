# The summary-shape recipes against the reports they follow: one rank's table is what `stats`
# prints for that export, and the ranks of a job add up to its all-ranks table.

shape_gen() { "${NSYSGEN:-$(dirname "$NSTATS")/nsysgen}" -q "$@" >/dev/null || fail "nsysgen $* failed"; }
# mpi.sqlite: three processes in MPI_RANKS, NVTX with domains on several threads, backtraces;
# proj.sqlite: NVTX ranges around launches, for the GPU projection
shape_exports() {
	[[ -f $WORK/mpi.sqlite ]] && return
	shape_gen --processes 3 --mpi 20 --backtrace --nvtx 60 --nvtx-domain-threads --open-ranges 2 \
		-o "$WORK/mpi.sqlite"
	shape_gen --seed 2 --processes 2 --nvtx 0 --launch-ranges 30 -o "$WORK/proj.sqlite"
}

# shape_rows RECIPE ARGS...: the per-rank table of `recipe RECIPE ARGS` without its Rank column
shape_rows() {
	run recipe "$1" -q -f csv "${@:2}"
	rc_is 0
	awk '/^Rank,/ { on = 1; next } on && NF { print }' <<<"$OUT" | cut -d, -f2-
}

# stats_rows REPORT EXPORT: the rows of `stats -r REPORT -f csv EXPORT`, no header
stats_rows() {
	run stats -q -r "$1" -f csv "$2"
	rc_is 0
	sed '1 d; /^$/ d' <<<"$OUT"
}

test_recipe_shape_one_rank_is_the_report() {
	shape_exports
	local r f
	for r in cuda_api_sum cuda_gpu_mem_time_sum nvtx_sum; do
		for f in mpi.sqlite proj.sqlite; do
			local want got
			want=$(stats_rows $r $f)
			got=$(shape_rows $r --ranks input $f)
			[[ -n $want && $got == "$want" ]] || fail "$r on $f: '${got:0:200}' is not '${want:0:200}'"
		done
	done
}

# nvtx_gpu_proj_sum: the report's Total Proj Time, Range Instances, Proj Avg ... Proj StdDev and
# Range, in the recipe's column order (names with a comma, quoted, left out of the comparison)
test_recipe_shape_projection_is_the_report() {
	shape_exports
	local want got
	want=$(stats_rows nvtx_gpu_proj_sum proj.sqlite | grep -v '"' |
		awk -F, -v OFS=, '{ print $3, $5, $6, $7, $8, $9, $10, $1 }')
	got=$(shape_rows nvtx_gpu_proj_sum --ranks input proj.sqlite | grep -v '"' | cut -d, -f2-)
	[[ -n $want && $got == "$want" ]] || fail "'${got:0:200}' is not '${want:0:200}'"
}

# Per key (the columns after the statistics), the ranks' instances and totals add up to the all-ranks row's, and Ranks counts them.
test_recipe_shape_ranks_add_up() {
	shape_exports
	local r
	for r in cuda_api_sum cuda_gpu_mem_time_sum nvtx_sum nccl_sum mpi_sum; do
		run recipe $r -q -f csv mpi.sqlite
		rc_is 0
		local bad
		bad=$(awk -F, '
			function key(from,  k, i) { k = $from; for (i = from + 1; i <= NF; i++) k = k "," $i; return k }
			/^Time/ { t = "all"; next } /^Rank,/ { t = "rank"; next } !NF { next }
			t == "all"  { k = key(11); n[k] = $3; s[k] = $2; ranks[k] = $9 }
			t == "rank" { k = key(10); n2[k] += $4; s2[k] += $3; r2[k]++ }
			END {
				for (k in n) if (n[k] != n2[k] || s[k] != s2[k] || ranks[k] != r2[k]) print k
				if (length(n) == 0) print "no rows"
			}' <<<"$OUT")
		[[ -z $bad ]] || fail "$r: rows that do not add up: $bad"
	done
}

# mpi_sum leaves out an event without an end (rank 0's MPI_Finalize), which mpi_event_sum counts.
test_recipe_shape_mpi_events() {
	shape_exports
	run recipe mpi_sum -q -f csv mpi.sqlite
	rc_is 0
	[[ $OUT == *",2,1.5,MPI_Finalize"* ]] || fail "MPI_Finalize of two ranks: ${OUT:0:600}"
	local want got
	want=$(stats_rows mpi_event_sum mpi.sqlite | awk -F, '$10 == "MPI_Sendrecv" { print $2, $3 }')
	got=$(awk -F, '$11 == "MPI_Sendrecv" { print $2, $3 }' <<<"$OUT")
	[[ -n $want && $got == "$want" ]] || fail "MPI_Sendrecv: '$got', mpi_event_sum '$want'"
}
