# `nstats recipe` as a user meets it: inputs from files, directories and @lists, worker
# processes, -o DIR, ranks, and every mistake in one line. The numbers themselves are checked by
# tests/recipe (brute force) and tests/unit/test_api.c (every way of splitting the work).

recipe_gen() { "${NSYSGEN:-$(dirname "$NSTATS")/nsysgen}" -q "$@" >/dev/null || fail "nsysgen $* failed"; }
# job/: three exports of one program, as three ranks without MPI_RANKS
recipe_job() {
	[[ -d $WORK/job ]] && return
	mkdir -p "$WORK/job"
	local r
	for r in 0 1 2; do
		recipe_gen --seed $((40 + r)) --processes 1 --devices 1 --kernels 60 --kernel-names 5 \
			--memcpy 10 --memset 2 --other-api 6 --nvtx 8 --osrt 0 -o "$WORK/job/rank$r.sqlite"
	done
}

test_recipe_help() {
	run recipe --help
	rc_is 0; err_is ""
	out_has "usage: nstats recipe NAME[:ARG...] [OPTION...] INPUT..."
	out_has "--ranks auto|input|process"
	run recipe --help-recipes
	rc_is 0
	out_has "  cuda_gpu_kern_sum -- CUDA GPU Kernel Summary"
	run recipe --help-recipes cuda_gpu_kern_sum
	rc_is 0
	out_has "imbalance"
	run recipe
	rc_is 2
	[[ $ERR == *"The recipes:"* ]] || fail "recipe alone lists no recipes: ${ERR:0:300}"
}

test_recipe_mistakes() {
	recipe_job
	run recipe cuda_gpu_kern_summ job
	rc_is 2; out_is ""
	err_line "^nstats: error: recipe 'cuda_gpu_kern_summ' could not be found; did you mean cuda_gpu_kern_sum\?"
	run recipe cuda_gpu_kern_sum:bse job
	rc_is 2; err_line "unknown argument 'bse'; did you mean base\?"
	run recipe cuda_gpu_kern_sum
	rc_is 2; err_line "^nstats: error: recipe: no inputs \(see nstats recipe --help\)$"
	run recipe cuda_gpu_kern_sum -j 0 job
	rc_is 2; err_line "-j takes a number of processes from 1 to 4096, not '0'"
	run recipe cuda_gpu_kern_sum --ranks proces job
	rc_is 2; err_line "--ranks takes auto, input or process, not 'proces'; did you mean process\?"
	run recipe gpu_time_util:buckets=2001 job
	rc_is 2; err_line "buckets=2001: not a whole number from 1 to 2000"
	run recipe gpu_time_util:buckets=0 job
	rc_is 2; err_line "buckets=0: not a whole number from 1 to 2000"
	run recipe cuda_gpu_kern_sum -f cvs job
	rc_is 2; err_line "did you mean csv"
	run recipe cuda_gpu_kern_sum @missing.txt
	rc_is 3; err_line "^nstats: error: missing.txt: No such file or directory$"
	mkdir -p "$WORK/empty"
	run recipe cuda_gpu_kern_sum empty
	rc_is 3; err_line "no inputs: the directories and lists given hold no export"
}

# A directory, a list and the files by name are the same inputs; -j does not change a byte.
test_recipe_inputs_and_workers() {
	recipe_job
	run recipe cuda_gpu_kern_sum -q -f csv -j 1 job/rank0.sqlite job/rank1.sqlite job/rank2.sqlite
	rc_is 0; err_is ""
	local want=$OUT
	[[ $want == *"Ranks,Imbalance,Name"* ]] || fail "no all-ranks header: ${want:0:200}"
	printf 'job/rank0.sqlite\n# a comment\n\njob/rank1.sqlite\njob/rank2.sqlite\n' >"$WORK/list.txt"
	local j
	for j in 1 2 3 8; do
		run recipe cuda_gpu_kern_sum -q -f csv -j $j job
		rc_is 0; out_is "$want"
		run recipe cuda_gpu_kern_sum -q -f csv -j $j @list.txt
		rc_is 0; out_is "$want"
	done
}

# Without MPI_RANKS each input is a rank, numbered in input order, and stderr says so once.
test_recipe_ranks_note() {
	recipe_job
	run recipe cuda_gpu_kern_sum -f csv job
	rc_is 0
	err_is "nstats: note: ranks numbered in input order: the 1st input has no MPI_RANKS"
	local ranks
	ranks=$(awk -F, '/^Rank,/ { on = 1; next } on && NF > 1 { print $1 }' <<<"$OUT" | sort -u | tr '\n' ' ')
	[[ $ranks == "0 1 2 " ]] || fail "ranks of the per-rank table: '$ranks'"
	run recipe cuda_gpu_kern_sum -f csv --ranks input job
	rc_is 0; err_is ""
}

# A broken input among good ones: one line naming it, the others' tables, exit 3.
test_recipe_broken_input() {
	recipe_job
	run recipe cuda_gpu_kern_sum -q -f csv job/rank0.sqlite job/rank1.sqlite
	local want=$OUT
	printf 'not an export' >"$WORK/broken.sqlite"
	local j
	for j in 1 2; do
		run recipe cuda_gpu_kern_sum -q -f csv -j $j job/rank0.sqlite broken.sqlite job/rank1.sqlite
		rc_is 3; out_is "$want"
		err_line "^nstats: error: broken.sqlite: "
	done
}

test_recipe_output_dir() {
	recipe_job
	run recipe cuda_gpu_kern_sum -q -o out job
	rc_is 0; out_is ""; err_is ""
	[[ $(cd "$WORK/out" && ls | tr '\n' ' ') == "cuda_gpu_kern_sum_all.csv cuda_gpu_kern_sum_rank.csv summary.txt " ]] ||
		fail "files of -o: $(ls "$WORK/out")"
	run recipe cuda_gpu_kern_sum -q -f csv job
	[[ $OUT == "$(cat "$WORK/out/cuda_gpu_kern_sum_all.csv")"$'\n\n'"$(cat "$WORK/out/cuda_gpu_kern_sum_rank.csv")" ]] ||
		fail "the files of -o differ from the console's csv"
	[[ $(head -n 2 "$WORK/out/summary.txt") == "nstats recipe cuda_gpu_kern_sum: 3 inputs, 3 ranks
ranks numbered in input order: the 1st input has no MPI_RANKS" ]] || fail "summary.txt: $(head -n 3 "$WORK/out/summary.txt")"
	run recipe cuda_gpu_kern_sum -q -o out job
	rc_is 4; err_line "out/cuda_gpu_kern_sum_all.csv: File exists \(--force-overwrite replaces it\)"
	run recipe cuda_gpu_kern_sum -q -o out --force-overwrite true job
	rc_is 0
}

# An input that is gone by the time it is read, or that is a FIFO (whose read would wait for a
# writer forever): one line each, the others read, no hang.
test_recipe_vanished_and_fifo_inputs() {
	recipe_job
	run recipe cuda_gpu_kern_sum -q -f csv job/rank0.sqlite
	local want=$OUT
	rm -f "$WORK/fifo.sqlite" && mkfifo "$WORK/fifo.sqlite"
	printf 'job/rank0.sqlite\njob/gone.sqlite\nfifo.sqlite\n' >"$WORK/some.txt"
	local j
	for j in 1 2; do
		(cd "$WORK" && timeout 60 "$NSTATS" recipe cuda_gpu_kern_sum -q -f csv -j $j @some.txt) \
			>"$WORK/.out" 2>"$WORK/.err"
		RC=$? OUT=$(<"$WORK/.out") ERR=$(<"$WORK/.err")
		rc_is 3; out_is "$want"
		# two workers may tell them in either order
		ERR=$(sort <<<"$ERR")
		err_is "nstats: error: fifo.sqlite: not a regular file
nstats: error: job/gone.sqlite: No such file or directory"
	done
	run stats -q -r cuda_api_sum fifo.sqlite
	rc_is 3; err_is "nstats: error: fifo.sqlite: not a regular file"
}

# json:typed on the console is one document: every table under its name, the ranks and the note.
test_recipe_typed_json() {
	recipe_job
	run recipe cuda_gpu_kern_sum -q -f csv job
	local rows
	rows=$(awk '/^Time/ { on = 1; next } /^$/ { on = 0 } on' <<<"$OUT" | wc -l)
	run recipe cuda_gpu_kern_sum -q -f json:typed job
	rc_is 0; err_is ""
	local got
	got=$(python3 -c 'import json, sys
d = json.loads(sys.stdin.read())
print(d["recipe"], d["inputs"], d["failed"], d["ranks"], sorted(d["tables"]), len(d["tables"]["all"]["rows"]),
      d["tables"]["rank"]["rows"][0]["Rank"], d["note"])' <<<"$OUT") || fail "not one JSON document: ${OUT:0:200}"
	[[ $got == "cuda_gpu_kern_sum 3 0 3 ['all', 'rank'] $rows 0 ranks numbered in input order: the 1st input has no MPI_RANKS" ]] ||
		fail "json:typed: $got"
}
