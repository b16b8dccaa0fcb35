#!/usr/bin/env bash
# cuda_gpu_kern_launch_trace against brute_launch_trace, row by row, on fixtures made for its hard
# cases: identical launches repeated on one stream (same kernel, grid, block), overlapping kernels on
# several streams and devices, CUDA backtrace records beside every call, correlationIds that collide
# across processes, and, edited in with sqlite3: kernels whose call is gone (their backtrace record
# is still there and must not stand in), exact duplicate kernel rows, equal starts on several
# streams, a second call with a kernel's correlationId before and after its launch, and a KERNEL
# table without globalPid. Names in the three modes, and a time filter (calls found outside it).
set -uo pipefail
: "${NSTATS:?}" "${NSYSGEN:?}" "${BRUTE:?}" "${WORK:?}"
brute=$BRUTE/brute_launch_trace
bad=0
checked=0

# same EXPORT LABEL NSTATS_ARGS BRUTE_ARGS: nstats's csv equals the brute force's, header included
same() {
	local e=$1 label=$2 nargs=$3 bargs=$4
	# shellcheck disable=SC2086
	"$NSTATS" stats -q $nargs -f csv "$e" 2>"$WORK/err" | sed '/^$/d' >"$WORK/got.csv" ||
		{ echo "FAIL $label: nstats exited $?: $(head -c 300 "$WORK/err")"; bad=$((bad + 1)); return; }
	# shellcheck disable=SC2086
	"$brute" "$e" $bargs >"$WORK/want.csv" || { echo "FAIL $label: brute force failed"; bad=$((bad + 1)); return; }
	local rows
	rows=$(($(wc -l <"$WORK/want.csv") - 1))
	if ((rows < 1)); then
		echo "FAIL $label: the fixture has no kernel row to compare"
		bad=$((bad + 1))
	elif ! cmp -s "$WORK/got.csv" "$WORK/want.csv"; then
		echo "FAIL $label: nstats differs from the brute force ($rows rows):"
		diff "$WORK/want.csv" "$WORK/got.csv" | head -n 10
		bad=$((bad + 1))
	else
		checked=$((checked + rows))
	fi
}

# holds EXPORT LABEL SQL: the fixture really has the case (SQL counts it)
holds() {
	local n
	n=$(sqlite3 "$1" "$3")
	((n > 0)) || { echo "FAIL $2: the fixture lacks its case ($3 gave $n)"; bad=$((bad + 1)); }
}

gen() { # gen NAME OPTIONS...: a fixture in WORK
	local name=$1
	shift
	"$NSYSGEN" -q --force "$@" -o "$WORK/$name.sqlite" >/dev/null || { echo "FAIL nsysgen $*"; exit 1; }
}

R=CUPTI_ACTIVITY_KIND_RUNTIME K=CUPTI_ACTIVITY_KIND_KERNEL

# ---- several processes, devices and streams; backtraces; identical launches -----------------------
gen multi --seed 41 --processes 3 --threads 2 --devices 2 --streams 3 --kernels 400 --kernel-names 3 \
	--memcpy 10 --memset 4 --other-api 10 --nvtx 0 --osrt 0 --overlap --backtrace
m=$WORK/multi.sqlite
holds "$m" "identical launches" "SELECT count(*) FROM (SELECT 1 FROM $K GROUP BY globalPid, deviceId,
	streamId, demangledName, gridX, gridY, gridZ, blockX, blockY, blockZ HAVING count(*) >= 3)"
holds "$m" "colliding correlationIds" "SELECT count(*) FROM (SELECT correlationId FROM $K
	GROUP BY correlationId HAVING count(DISTINCT globalPid) > 1)"
holds "$m" "backtrace records" "SELECT count(*) FROM $R WHERE callchainId IS NOT NULL"
holds "$m" "overlapping kernels" "SELECT count(*) FROM $K a JOIN $K b ON a.deviceId = b.deviceId
	AND a.globalPid = b.globalPid AND a.rowid < b.rowid AND a.start < b.end AND b.start < a.end"
same "$m" multi "-r cuda_gpu_kern_launch_trace" ""
same "$m" multi:base "-r cuda_gpu_kern_launch_trace:base" base
same "$m" multi:mangled "-r cuda_gpu_kern_launch_trace:mangled" mangled

# a window in the middle, starting where a kernel starts after its call ended: kernels that overlap
# it, their calls found wherever they are
read -r lo hi < <(sqlite3 -separator ' ' "$m" "SELECT k.start, k.start + (SELECT (max(end) - min(start)) / 3
	FROM $K) FROM $K k JOIN $R r ON r.correlationId = k.correlationId AND r.globalTid >> 24 =
	k.globalPid >> 24 AND r.callchainId IS NULL WHERE r.end < k.start ORDER BY k.start LIMIT 1 OFFSET 100")
same "$m" "multi window" "-r cuda_gpu_kern_launch_trace --filter-time $lo/$hi" "demangled $lo $hi"
same "$m" "multi start=/end=" "-r cuda_gpu_kern_launch_trace:start=$lo:end=$hi" "demangled $lo $hi"
holds "$m" "a call before the window" "SELECT count(*) FROM $K k JOIN $R r ON r.correlationId =
	k.correlationId AND r.globalTid >> 24 = k.globalPid >> 24 WHERE k.start >= $lo AND k.start < $hi
	AND r.end < $lo"

# ---- edited: lost calls, duplicate rows, equal starts, calls sharing an id -------------------------
cp "$m" "$WORK/edit.sqlite"
e=$WORK/edit.sqlite
sqlite3 "$e" "
	-- kernels whose call was not recorded: only their backtrace record is left
	DELETE FROM $R WHERE callchainId IS NULL AND correlationId % 9 = 0
		AND correlationId IN (SELECT correlationId FROM $K);
	-- exact duplicates of a few kernel rows (same process, stream, start, correlationId)
	INSERT INTO $K SELECT * FROM $K WHERE correlationId % 11 = 0;
	-- equal starts on several streams, devices and processes
	UPDATE $K SET start = 1000000 * (start / 1000000) WHERE correlationId % 5 = 0;
	UPDATE $K SET end = start + 1 WHERE end <= start;
	-- a second call with a launch's correlationId: after the launch (the launch stays the
	-- call) and, at a negative rowid, before it (it becomes the call)
	INSERT INTO $R (start, end, eventClass, globalTid, correlationId, nameId, returnValue, callchainId)
		SELECT start + 1, end - 1, 1, globalTid, correlationId,
		       (SELECT min(id) FROM StringIds), 0, NULL
		FROM $R WHERE callchainId IS NULL AND correlationId % 13 = 0;
	INSERT INTO $R (rowid, start, end, eventClass, globalTid, correlationId, nameId, returnValue, callchainId)
		SELECT -rowid, start + 2, end - 2, 1, globalTid, correlationId,
		       (SELECT max(id) FROM StringIds), 0, NULL
		FROM $R WHERE callchainId IS NULL AND correlationId % 17 = 0 AND rowid > 0;
" || { echo "FAIL editing the fixture"; exit 1; }
holds "$e" "kernels without a call" "SELECT count(*) FROM $K k WHERE NOT EXISTS (SELECT 1 FROM $R r
	WHERE r.correlationId = k.correlationId AND r.globalTid >> 24 = k.globalPid >> 24
	AND r.callchainId IS NULL)"
holds "$e" "duplicate kernel rows" "SELECT count(*) FROM (SELECT 1 FROM $K GROUP BY globalPid,
	deviceId, streamId, start, end, correlationId HAVING count(*) > 1)"
holds "$e" "equal starts" "SELECT count(*) FROM (SELECT 1 FROM $K GROUP BY start
	HAVING count(DISTINCT streamId) > 1)"
holds "$e" "calls sharing a launch's id" "SELECT count(*) FROM $R WHERE rowid < 0"
same "$e" edited "-r cuda_gpu_kern_launch_trace" ""
same "$e" "edited window" "-r cuda_gpu_kern_launch_trace --filter-time $lo/$hi" "demangled $lo $hi"

# ---- one process, a KERNEL table without globalPid: the only process is the kernels' ---------------
gen one --seed 42 --processes 1 --threads 3 --devices 2 --streams 2 --kernels 120 --kernel-names 2 \
	--memcpy 4 --memset 0 --other-api 4 --nvtx 0 --osrt 0 --overlap --backtrace
sqlite3 "$WORK/one.sqlite" "ALTER TABLE $K DROP COLUMN globalPid" || { echo "FAIL dropping globalPid"; exit 1; }
same "$WORK/one.sqlite" "no globalPid" "-r cuda_gpu_kern_launch_trace" ""
# with two processes the kernels' process is unknown: no PID, no call, instances over both
gen two --seed 43 --processes 2 --kernels 60 --kernel-names 2 --memcpy 0 --memset 0 --other-api 0 \
	--nvtx 0 --osrt 0
sqlite3 "$WORK/two.sqlite" "ALTER TABLE $K DROP COLUMN globalPid" || { echo "FAIL dropping globalPid"; exit 1; }
same "$WORK/two.sqlite" "no globalPid, two processes" "-r cuda_gpu_kern_launch_trace" ""

# ---- an export without kernels: skipped, as the other kernel reports are ---------------------------
gen none --seed 44 --processes 1 --kernels 0 --memcpy 4 --memset 0 --nvtx 0 --osrt 0
out=$("$NSTATS" stats -q -r cuda_gpu_kern_launch_trace -f csv "$WORK/none.sqlite" 2>&1)
[[ $? == 0 && $out == "SKIPPED: $WORK/none.sqlite does not contain CUDA kernel data." ]] ||
	{ echo "FAIL no kernels: '$out'"; bad=$((bad + 1)); }

echo "launch trace: $checked rows agreed, $bad failures"
((bad == 0))
