# shellcheck shell=bash
# ---- threads: reports computed ahead, tables read in parts -----------------------------------------

# On an export big enough for the summaries to be computed ahead on a second thread (32 MiB), every
# output (the console with its Processing and SKIPPED lines, typed JSON documents, files) is the
# same byte for byte as on one thread.
test_summaries_ahead_write_what_one_thread_writes() {
	"${NSYSGEN:-$(dirname "$NSTATS")/nsysgen}" -q --seed 5 --kernels 300000 --memcpy 20000 \
		--memset 5000 --nvtx 2000 --osrt 2000 -o "$WORK/ahead.sqlite" >/dev/null ||
		{ fail "nsysgen failed"; return; }
	local args n one
	for args in "stats ahead.sqlite" \
		"stats -q -f json:typed -r cuda_api_sum,cuda_gpu_trace,cuda_gpu_kern_sum,nvtx_sum,um_sum ahead.sqlite" \
		"stats -q -f csv -r cuda_gpu_kern_sum,cuda_kern_exec_trace,osrt_sum -o DIR/r ahead.sqlite"; do
		for n in 1 2; do
			mkdir -p "$WORK/t$n"
			# shellcheck disable=SC2086
			NSTATS_READ_THREADS=$n NSTATS_TIMING=1 run ${args//DIR/t$n}; rc_is 0
			[[ $n == 1 ]] && one=$OUT$'\n'$(grep -v "timing:" "$WORK/.err")
		done
		[[ $OUT$'\n'$(grep -v "timing:" "$WORK/.err") == "$one" ]] ||
			fail "$args: two threads print otherwise than one"
		grep -q "timing: summaries computed ahead" "$WORK/.err" ||
			fail "$args: no summary was computed ahead"
	done
	local f
	for f in "$WORK"/t1/*; do
		cmp -s "$f" "$WORK/t2/${f##*/}" || fail "${f##*/}: two threads wrote otherwise than one"
	done
	[[ -e $WORK/t1/r_cuda_kern_exec_trace.csv ]] || fail "no file written: $(ls "$WORK/t1")"
}
