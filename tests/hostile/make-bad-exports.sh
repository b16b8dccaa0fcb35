#!/usr/bin/env bash
# tests/hostile/make-bad-exports.sh NSYSGEN DIR: writes into DIR one bad export per case of
# the hostile-input list, each derived with the sqlite3 CLI from a small nsysgen fixture
# (DIR/base.sqlite), so that every case differs from a valid export by one defect only.
# Names: refuse-* must be refused with a one-line error; read-* must be read (exit 0).
# The locked-database and unreadable-file cases need a live process or a user: run.sh makes them.
set -euo pipefail
(($# == 2)) || { echo "usage: tests/hostile/make-bad-exports.sh NSYSGEN DIR" >&2; exit 2; }
gen=$1 dir=$2
command -v sqlite3 >/dev/null || { echo "make-bad-exports: sqlite3 CLI not found" >&2; exit 2; }
mkdir -p "$dir"
base=$dir/base.sqlite
"$gen" -q --force --kernels 20 --memcpy 20 --memset 4 --other-api 10 --nvtx 12 --osrt 10 \
	--processes 2 --devices 2 -o "$base"

# mut NAME SQL: a copy of the base with SQL applied.
mut() {
	cp "$base" "$dir/$1.sqlite"
	sqlite3 "$dir/$1.sqlite" "$2"
}
# loosen TABLE: the same table without its NOT NULL and type constraints, so that a case
# can store what nsys never writes (NULL, text) where the schema forbids it.
loosen() {
	printf 'CREATE TABLE hostile_tmp AS SELECT * FROM %s; DROP TABLE %s; ALTER TABLE hostile_tmp RENAME TO %s;' "$1" "$1" "$1"
}

# --- files that are no export at all
printf 'this is not a database\n' >"$dir/refuse-not-sqlite.sqlite"
: >"$dir/refuse-empty.sqlite"
# a header of zeros, as an interrupted `nsys export` leaves after allocating the file
head -c 65536 /dev/zero >"$dir/refuse-zero-header.sqlite"
# the first 4 pages of a real export: the header says more pages than the file has
page=$(sqlite3 "$base" 'PRAGMA page_size')
head -c $((page * 4)) "$base" >"$dir/refuse-truncated.sqlite"
# the header alone: SQLite magic, nothing after it
head -c 100 "$base" >"$dir/refuse-header-only.sqlite"
sqlite3 "$dir/refuse-other-program.sqlite" \
	"CREATE TABLE moz_places(id INTEGER PRIMARY KEY, url TEXT); INSERT INTO moz_places VALUES(1,'https://example.com');"
mut refuse-newer-schema "UPDATE META_DATA_EXPORT SET value='4.0.0' WHERE name='EXPORT_SCHEMA_VERSION';
	UPDATE META_DATA_EXPORT SET value='4' WHERE name='EXPORT_SCHEMA_VERSION_MAJOR';"

# --- missing tables and columns: reports that need them say SKIPPED, the rest run
mut read-no-stringids "DROP TABLE StringIds;"
mut read-no-kernel-table "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL;"
mut read-no-runtime-table "DROP TABLE CUPTI_ACTIVITY_KIND_RUNTIME;"
mut read-no-meta "DROP TABLE META_DATA_EXPORT;"
mut read-no-kernel-start "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN start;"
mut read-no-kernel-end "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN end;"
mut read-no-kernel-corrid "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN correlationId;"
mut read-no-runtime-corrid "ALTER TABLE CUPTI_ACTIVITY_KIND_RUNTIME DROP COLUMN correlationId;"
mut read-no-runtime-tid "ALTER TABLE CUPTI_ACTIVITY_KIND_RUNTIME DROP COLUMN globalTid;"
mut read-no-osrt-tid "ALTER TABLE OSRT_API DROP COLUMN globalTid;"
mut read-no-process-pid "ALTER TABLE PROCESSES DROP COLUMN globalPid;"
mut read-no-nvtx-text "ALTER TABLE NVTX_EVENTS DROP COLUMN text;"
mut read-no-stringids-value "$(loosen StringIds) ALTER TABLE StringIds DROP COLUMN value;"
mut read-empty-tables "DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL; DELETE FROM CUPTI_ACTIVITY_KIND_RUNTIME;
	DELETE FROM CUPTI_ACTIVITY_KIND_MEMCPY; DELETE FROM CUPTI_ACTIVITY_KIND_MEMSET;
	DELETE FROM NVTX_EVENTS; DELETE FROM OSRT_API; DELETE FROM StringIds;"

# --- values nsys never writes
for t in CUPTI_ACTIVITY_KIND_KERNEL CUPTI_ACTIVITY_KIND_RUNTIME CUPTI_ACTIVITY_KIND_MEMCPY OSRT_API NVTX_EVENTS; do
	loose+="$(loosen $t) "
done
mut read-text-start-end "$loose
	UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start='soon' WHERE rowid % 3 = 0;
	UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end='later' WHERE rowid % 3 = 1;
	UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET start='x', end='y' WHERE rowid % 4 = 0;
	UPDATE OSRT_API SET end='12abc' WHERE rowid % 2 = 0;
	UPDATE NVTX_EVENTS SET start='1e3' WHERE rowid % 2 = 0;"
# NULL in every column of the tables reports read (rows where every column is NULL, and rows
# where one column is), except start and end, which the schema says NOT NULL and nstats
# refuses as NULL (refuse-null-start-end): NVTX_EVENTS.end, which may be NULL, gets NULLs too
nulls() {
	local t=$1 c sql="" i=0
	for c in $(sqlite3 "$base" "SELECT name FROM pragma_table_info('$t') WHERE name NOT IN ('start', 'end')"); do
		sql+="UPDATE $t SET \"$c\"=NULL WHERE rowid % 7 = $((i++ % 7)) OR rowid = 1;"
	done
	printf '%s' "$sql"
}
nullsql=$loose
for t in CUPTI_ACTIVITY_KIND_KERNEL CUPTI_ACTIVITY_KIND_RUNTIME CUPTI_ACTIVITY_KIND_MEMCPY OSRT_API NVTX_EVENTS; do
	nullsql+="$(nulls $t)"
done
mut read-null-everywhere "$(loosen StringIds) $(loosen TARGET_INFO_GPU) $(loosen PROCESSES) $(loosen ThreadNames) $nullsql
	UPDATE StringIds SET value=NULL WHERE id % 5 = 0;
	UPDATE TARGET_INFO_GPU SET name=NULL; UPDATE PROCESSES SET name=NULL;
	UPDATE ThreadNames SET nameId=NULL;
	UPDATE META_DATA_EXPORT SET value=NULL WHERE name='EXPORT_SCHEMA_VERSION';
	UPDATE NVTX_EVENTS SET end=NULL WHERE rowid % 3 = 0;"
mut refuse-null-start-end "$loose
	UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start=NULL WHERE rowid = 2;
	UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET end=NULL WHERE rowid = 3;
	UPDATE OSRT_API SET end=NULL WHERE rowid = 4;
	UPDATE NVTX_EVENTS SET start=NULL WHERE rowid = 5;"
mut read-end-before-start "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start - 1000 WHERE rowid % 2 = 0;
	UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET end = start - 5 WHERE rowid % 3 = 0;
	UPDATE NVTX_EVENTS SET end = start - 7 WHERE rowid % 2 = 0;
	UPDATE OSRT_API SET end = start - 9 WHERE rowid % 2 = 0;"
min=-9223372036854775808 max=9223372036854775807
# times whose differences do not fit 64 bits are refused; ids and sizes are read as they are,
# but a sum of sizes that does not fit 64 bits is refused too
mut refuse-int64-times "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start=$min WHERE rowid % 4 = 0;
	UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end=$max WHERE rowid % 4 <= 1;
	UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET start=$min, end=$max WHERE rowid % 3 = 0;
	UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET start=$min WHERE rowid % 2 = 0;
	UPDATE NVTX_EVENTS SET start=$min, end=$max WHERE rowid % 3 = 0;
	UPDATE OSRT_API SET start=$min, end=$max WHERE rowid % 2 = 0;"
# the widest times nstats reads: durations of 2^62 - 1 ns, whose sums overflow from the second
lo=-2305843009213693952 hi=2305843009213693951
mut read-times-at-limit "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start=$lo, end=$hi WHERE rowid % 4 = 0;
	UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET start=$lo WHERE rowid % 5 = 0;
	UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET end=$hi WHERE rowid % 6 = 0;
	UPDATE NVTX_EVENTS SET start=$lo, end=$hi WHERE rowid % 3 = 0;
	UPDATE OSRT_API SET start=$lo, end=$hi WHERE rowid = 2;"
mut read-int64-ids "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET correlationId=$max, shortName=$min WHERE rowid % 5 = 0;
	UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET correlationId=$min, globalTid=$max WHERE rowid % 5 = 1;
	UPDATE OSRT_API SET nameId=$max WHERE rowid % 2 = 0;"
mut read-int64-bytes "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET bytes=$max WHERE rowid % 2 = 0;"
mut read-dangling-stringids "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET shortName = shortName + 1000000, demangledName = -3;
	UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET nameId = nameId + 1000000 WHERE rowid % 2 = 0;
	UPDATE OSRT_API SET nameId = -1; UPDATE NVTX_EVENTS SET textId = 987654321 WHERE textId IS NOT NULL;"
# a 1 MB kernel name and a 1 MB NVTX text
mut read-huge-strings "UPDATE StringIds SET value = printf('%.*c', 1048576, 'k') || value
	WHERE id = (SELECT shortName FROM CUPTI_ACTIVITY_KIND_KERNEL LIMIT 1);
	UPDATE NVTX_EVENTS SET text = printf('%.*c', 1048576, 'n') WHERE rowid = (SELECT min(rowid) FROM NVTX_EVENTS WHERE text IS NOT NULL);"
# names that break naive csv, tsv, json and html writers, and bytes that are not UTF-8
mut read-nasty-names "UPDATE StringIds SET value = CASE id % 7
		WHEN 0 THEN 'k\"quoted\"name' WHEN 1 THEN 'a,b,c' WHEN 2 THEN 'tab' || char(9) || 'here'
		WHEN 3 THEN 'line' || char(10) || 'break' || char(13) || char(10) WHEN 4 THEN '<script>alert(1)</script>&amp;'
		WHEN 5 THEN CAST(X'6BC3FFFE80' AS TEXT) || 'bad-utf8' ELSE '' END;
	UPDATE NVTX_EVENTS SET text = 'nv' || char(9) || '\"<b>' || char(10) || ',x' WHERE text IS NOT NULL;"
# graph executions and unified-memory migrations whose sums do not fit 64 bits
gbase=$dir/graph-um-base.sqlite
"$gen" -q --force --kernels 10 --memcpy 4 --memset 0 --other-api 4 --nvtx 0 --osrt 0 \
	--graphs 4 --um 20 -o "$gbase"
cp "$gbase" "$dir/read-graph-sum.sqlite"
sqlite3 "$dir/read-graph-sum.sqlite" "UPDATE CUPTI_ACTIVITY_KIND_GRAPH_TRACE SET start=$lo, end=$hi;"
cp "$gbase" "$dir/read-um-bytes-sum.sqlite"
sqlite3 "$dir/read-um-bytes-sum.sqlite" "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET bytes=$max WHERE copyKind IN (11, 12);
	DROP TABLE CUPTI_ACTIVITY_KIND_GRAPH_TRACE;"
rm "$gbase"
mv "$base" "$dir/read-valid.sqlite"
