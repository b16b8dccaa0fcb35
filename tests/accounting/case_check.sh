#!/usr/bin/env bash
# nstats check against brute_check on fixtures built to have each fault (nsysgen's export-fault
# options), alone and together, with backtraces, several processes sharing correlationIds or not, and
# overlapping streams. Every count and every breakdown line of `nstats check -f json` must equal the
# brute-force program's; the schema, skipped_reports and capture_options findings, which only inform,
# are left out here (tests/cli checks them). Also: --strict exits 6 on a faulty fixture and 0 on a clean one.
set -uo pipefail
: "${NSTATS:?}" "${NSYSGEN:?}" "${BRUTE:?}" "${WORK:?}"
bad=0

# The JSON of one export as "finding count" and "finding/part count" lines (one finding per line).
json_lines() {
	awk '/"checked":/ {
		match($0, /"name":"[a-z_]*"/); name = substr($0, RSTART + 8, RLENGTH - 9)
		if (name == "schema" || name == "skipped_reports" || name == "capture_options") next
		match($0, /"count":[-0-9null]*/); print name " " substr($0, RSTART + 8, RLENGTH - 8)
		rest = substr($0, index($0, "\"parts\":["))
		rest = substr(rest, 1, index(rest, "]"))
		while (match(rest, /\{"name":"[^"]*","count":[0-9]*\}/)) {
			part = substr(rest, RSTART, RLENGTH); rest = substr(rest, RSTART + RLENGTH)
			sub(/^\{"name":"/, "", part); sub(/\}$/, "", part); sub(/","count":/, " ", part)
			print name "/" part
		}
	}'
}

compare() { # compare NAME NSYSGEN-OPTIONS...
	local name=$1 f=$WORK/$1.sqlite
	shift
	"$NSYSGEN" --force -o "$f" "$@" || { echo "nsysgen failed: $name"; bad=1; return; }
	compare_file "$name"
}

compare_file() { # compare_file NAME: $WORK/NAME.sqlite, made already
	local name=$1 f=$WORK/$1.sqlite
	if ! "$NSTATS" check -f json "$f" >"$WORK/$name.json"; then
		echo "FAIL $name: nstats check exited $?"
		bad=1
		return
	fi
	json_lines <"$WORK/$name.json" | LC_ALL=C sort >"$WORK/$name.nstats"
	"$BRUTE/brute_check" "$f" | LC_ALL=C sort >"$WORK/$name.brute"
	if ! diff -u "$WORK/$name.brute" "$WORK/$name.nstats" >"$WORK/$name.diff"; then
		echo "FAIL $name: nstats check differs from brute force (- brute, + nstats)"
		cat "$WORK/$name.diff"
		bad=1
	fi
	# The comparison must have compared something: every finding's count line.
	(($(wc -l <"$WORK/$name.brute") >= 10)) || { echo "FAIL $name: brute force printed too little"; bad=1; }
}

small=(--kernels 300 --memcpy 60 --memset 30 --other-api 20 --nvtx 40 --osrt 10)
all=(--dup-gpu-rows 12 --orphan-gpu-rows 6 --stream-overlap 8 --bad-durations 9 --open-ranges 5
	--truncated 6 --graph-rows 4)
compare clean "${small[@]}" --no-collide --processes 2
compare collide "${small[@]}" --processes 4 --streams 3
# past 8 processes the dense count keeps 8 bytes an id, not 1
compare collide-wide "${small[@]}" --processes 10 --devices 2
compare backtrace "${small[@]}" --backtrace --processes 2
compare example --example
compare zero "${small[@]}" --zero-durations 15
compare dup "${small[@]}" --dup-gpu-rows 40 --streams 4 --overlap
compare orphan "${small[@]}" --orphan-gpu-rows 12 --processes 3
compare overlap "${small[@]}" --stream-overlap 25 --overlap --streams 3
compare durations "${small[@]}" --bad-durations 20
compare open "${small[@]}" --open-ranges 10 --nvtx-edges
compare truncated "${small[@]}" --truncated 12
compare graphs "${small[@]}" --graph-rows 7
for seed in 1 2 3; do
	compare "all-$seed" "${small[@]}" "${all[@]}" --seed "$seed" --processes 3 --streams 3 --overlap --backtrace
done
# Exports without KERNEL.globalPid (older or trimmed ones): calls pair by correlationId alone
if command -v sqlite3 >/dev/null; then
	"$NSYSGEN" --force -o "$WORK/nopid.sqlite" "${small[@]}" "${all[@]}" --processes 3 --overlap ||
		{ echo "nsysgen failed: nopid"; bad=1; }
	sqlite3 "$WORK/nopid.sqlite" "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN globalPid" ||
		{ echo "FAIL sqlite3 could not drop globalPid"; bad=1; }
	"$NSTATS" check -f json "$WORK/nopid.sqlite" | json_lines | LC_ALL=C sort >"$WORK/nopid.nstats"
	"$BRUTE/brute_check" "$WORK/nopid.sqlite" | LC_ALL=C sort >"$WORK/nopid.brute"
	diff -u "$WORK/nopid.brute" "$WORK/nopid.nstats" || { echo "FAIL nopid (- brute, + nstats)"; bad=1; }
	# nsysgen appends its copies, so its GPU tables are out of start order; nstats finds
	# duplicates in tables in start order another way (one merged pass), checked here on the
	# same faults with the tables rewritten in start order
	for name in dup all-1; do
		cp "$WORK/$name.sqlite" "$WORK/$name-sorted.sqlite"
		for t in KERNEL MEMCPY MEMSET; do
			tb=CUPTI_ACTIVITY_KIND_$t
			sqlite3 "$WORK/$name-sorted.sqlite" "CREATE TABLE s AS SELECT * FROM $tb ORDER BY start;
				DELETE FROM $tb; INSERT INTO $tb SELECT * FROM s; DROP TABLE s" ||
				{ echo "FAIL sqlite3 could not sort $tb"; bad=1; }
		done
		compare_file "$name-sorted"
		grep -Eq '^duplicate_gpu_rows [1-9]' "$WORK/$name-sorted.brute" ||
			{ echo "FAIL fixture $name-sorted has no duplicate_gpu_rows"; bad=1; }
	done
	# every process's kernels on stream 7 of their device, in start order (the sweep in row
	# order): streams of one id in three processes, which overlap each other in time and must
	# be kept apart
	cp "$WORK/all-1-sorted.sqlite" "$WORK/shared-stream.sqlite"
	sqlite3 "$WORK/shared-stream.sqlite" "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET streamId = 7" ||
		{ echo "FAIL sqlite3 could not rewrite shared-stream"; bad=1; }
	compare_file shared-stream
	# one id on 300 calls: past what the dense count keeps in a byte an id
	cp "$WORK/collide.sqlite" "$WORK/collide-300.sqlite"
	sqlite3 "$WORK/collide-300.sqlite" "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET correlationId = 1
		WHERE rowid IN (SELECT rowid FROM CUPTI_ACTIVITY_KIND_RUNTIME ORDER BY rowid LIMIT 300)" ||
		{ echo "FAIL sqlite3 could not rewrite collide-300"; bad=1; }
	compare_file collide-300
	grep -Eq '"fields":\{"correlationId":1,"processes":[0-9]+,"calls":300,' "$WORK/collide-300.json" ||
		{ echo "FAIL collide-300: correlationId 1 is not given its 300 calls"; bad=1; }
else
	echo "note: no sqlite3 shell, the export without KERNEL.globalPid and the exports in start order are not checked"
fi

# The faults must have been found at all, or the comparisons above prove little.
for f in dup:duplicate_gpu_rows orphan:orphan_gpu_rows overlap:stream_overlap durations:bad_durations \
	open:open_ranges truncated:truncated_capture graphs:graph_trace_rows backtrace:backtrace_rows \
	collide:correlation_collisions collide-wide:correlation_collisions; do
	grep -Eq "^${f#*:} [1-9]" "$WORK/${f%%:*}.brute" || { echo "FAIL fixture ${f%%:*} has no ${f#*:}"; bad=1; }
done
grep -q 'CUDA_GRAPH_TRACE_OPTIONS:MODE=Graph' "$WORK/graphs.json" ||
	{ echo "FAIL graphs: capture_options does not name CUDA_GRAPH_TRACE_OPTIONS:MODE"; bad=1; }

# The first id every process uses, with all 10 of them (the brute force counts ids and calls,
# not the processes of an id).
grep -Eq '"fields":\{"correlationId":[0-9]+,"processes":10,' "$WORK/collide-wide.json" ||
	{ echo "FAIL collide-wide: the first colliding id is not given 10 processes"; bad=1; }

# correlation_collisions' examples, from SQL: the three smallest ids of calls (no backtrace row,
# id not 0) in two or more processes, each with its call of least rowid in its lowest process,
# and the two lowest processes. collide is counted from the pairing's index, collide-300 (an id
# on 300 calls) from the columns.
collision_examples() { # collision_examples EXPORT: the examples as SQL gives them
	python3 - "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
calls = db.execute("""SELECT correlationId AS id, globalTid & -16777216 AS p, rowid FROM
    CUPTI_ACTIVITY_KIND_RUNTIME WHERE callchainId IS NULL AND eventClass != 67
    AND correlationId IS NOT NULL AND correlationId != 0 AND globalTid IS NOT NULL""").fetchall()
by_id = {}
for i, p, row in calls:
    by_id.setdefault(i, {}).setdefault(p, []).append(row)
for i in sorted(k for k, v in by_id.items() if len(v) > 1)[:3]:
    ps = sorted(by_id[i])
    print(min(by_id[i][ps[0]]), i, len(ps), sum(len(r) for r in by_id[i].values()), ps[0], ps[1])
PY
}
nstats_examples() { # nstats_examples JSON: the same from nstats check -f json
	grep correlation_collisions "$1" | grep -o '"rowid":[0-9]*,"fields":{"correlationId":[^}]*}' |
		sed -E 's/"rowid":([0-9]+),"fields":\{"correlationId":([0-9]+),"processes":([0-9]+),"calls":([0-9]+),"first globalPid":([0-9]+),"other globalPid":([0-9]+)\}/\1 \2 \3 \4 \5 \6/'
}
for name in collide collide-wide collide-300; do
	[[ -f $WORK/$name.json ]] || continue
	if ! diff <(collision_examples "$WORK/$name.sqlite") <(nstats_examples "$WORK/$name.json"); then
		echo "FAIL $name: correlation_collisions' examples differ from SQL's (< SQL, > nstats)"
		bad=1
	fi
done

# --strict: 6 when something was found, 0 on a fixture where nothing is.
"$NSTATS" check --strict -q "$WORK/dup.sqlite"
rc=$?
((rc == 6)) || { echo "FAIL --strict on a faulty fixture exited $rc, not 6"; bad=1; }
"$NSTATS" check --strict -q "$WORK/clean.sqlite"
rc=$?
((rc == 0)) || { echo "FAIL --strict on the clean fixture exited $rc, not 0"; bad=1; }
exit $bad
