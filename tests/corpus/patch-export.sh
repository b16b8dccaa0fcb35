#!/usr/bin/env bash
# tests/corpus/patch-export.sh SRC.sqlite DST.sqlite: copies an export to DST and patches the copy
# so that nsys 2024.2.3 accepts it for the CUDA reports of tests/corpus/reports, without changing
# what the export means. SRC is only read (copied with cp; every statement runs on DST). Prints
# what it changed, one patch a line ("nothing" when the copy is the original byte for byte).
#
# tests/corpus/make-patched-expected.sh runs the reference on such copies: where the reference
# refuses an old or trimmed export and nstats answers anyway (docs/deviations.md D1, D2, D15), the
# reference's output on the patched copy is what nstats must print for the original. So every
# patch below must leave the correct answer of every report as it is. Each one is neutral because:
#
#  enum     ENUM_CUDA_MEMCPY_OPER, ENUM_CUDA_MEM_KIND (the only ENUM_* tables the CUDA reports of
#           tests/corpus/reports read), created when missing, with exactly the rows nsys 2024.2.3
#           writes (shared/docs/enums-2024.2.3.txt). They are lookup tables of fixed labels for
#           the codes already stored in copyKind/srcKind/dstKind/memKind; exports before schema
#           3.0 have no ENUM_* tables because those labels were built into the tools then. An
#           export that has the tables keeps its own.
#  green    greenContextId (NULL) added to CUPTI_ACTIVITY_KIND_KERNEL/_MEMCPY/_MEMSET where the
#           column is missing. Green contexts came with CUDA 12.4 (2024); the real exports that
#           lack the column are from nsys 2023.3 and older, so nothing in them ran on one (the
#           synthetic GindaChen__nsys-ai healthy_* simply have no such data). For work outside a
#           green context nsys writes NULL (2024.5, pipit cloverleaf) or 0 (most others); the
#           reference prints both as an empty GreenCtx cell.
#  gpu.id   TARGET_INFO_GPU keyed by deviceId (no id column, as in PolPuigPuy__OpenACC_Project_PolPuig):
#           the column renamed id. deviceId and id are the same field (the CUDA device id that the
#           GPU work rows refer to), renamed in later schemas; keeping both would make the
#           reference's joins ambiguous.
#  gpu      no TARGET_INFO_GPU but TARGET_INFO_CUDA_GPU (lockfuehrer__beast_ressoruces/report2):
#           TARGET_INFO_GPU created with vmId, id, name, busLocation copied from TARGET_INFO_CUDA_GPU's
#           vmId, deviceId, name, pciBusId: the same facts about the same devices, in the table
#           that newer nsys writes them to.
#  gpu.none neither TARGET_INFO_GPU nor TARGET_INFO_CUDA_GPU, while GPU rows are there (GindaChen__nsys-ai
#           mfu_2gpu_*): TARGET_INFO_GPU created empty, with the DDL of nsys 2024.2.3. The table only
#           names the devices (the reference LEFT JOINs it: a device it does not list is printed
#           " (id)"), so an empty one says what the export says: no names (D49).
#  threads  no ThreadNames while there are calls to list (GindaChen__nsys-ai healthy_*): ThreadNames
#           created empty, with the DDL of nsys 2024.2.3. It only names threads (the reference LEFT
#           JOINs it: a thread it does not list gets empty T-Pri and Thread Name) (D49).
#  column   a column that the reference selects but a trimmed or synthetic export lacks (the
#           reference errors with "no such column"), added as NULL: the export holds no value for
#           it, and NULL is how an export says "no value"; nstats reads a missing column as NULL.
#           Only globalPid (KERNEL, and MEMCPY/MEMSET for the rules) gets a value instead: when
#           every CUDA runtime call of the export comes from one process, each kernel's, copy's and
#           memset's globalPid is that process's (its globalTid with the thread bits cleared,
#           the value the reference joins on): no other process could have launched it. With several processes it is left alone (nstats
#           refuses those too, D15).
#  backtrace  CUPTI_ACTIVITY_KIND_RUNTIME rows with callchainId set or eventClass 67 deleted:
#           they are the CUDA backtrace records of --cudabacktrace, a second record of a call
#           that has its own row (same correlationId), not calls (D1). Removing them removes no
#           call, no GPU work and no time from the capture.
set -euo pipefail

(($# == 2)) || { echo "usage: tests/corpus/patch-export.sh SRC.sqlite DST.sqlite" >&2; exit 2; }
src=$1 dst=$2
[[ -f $src ]] || { echo "patch-export: $src: no such file" >&2; exit 2; }
if [[ -e $dst ]] && [[ $src -ef $dst ]]; then
	echo "patch-export: DST is SRC; it never writes SRC" >&2
	exit 2
fi
cp -- "$src" "$dst"
chmod u+w -- "$dst"

q() { sqlite3 -batch -bail "$dst" "$@"; }
has_table() { [[ $(q "SELECT count(*) FROM sqlite_master WHERE type='table' AND name='$1'") != 0 ]]; }
has_col() { [[ $(q "SELECT count(*) FROM pragma_table_info('$1') WHERE name='$2'") != 0 ]]; }

K=CUPTI_ACTIVITY_KIND_KERNEL R=CUPTI_ACTIVITY_KIND_RUNTIME
MC=CUPTI_ACTIVITY_KIND_MEMCPY MS=CUPTI_ACTIVITY_KIND_MEMSET
sql="" done=()

# enum: the rows of nsys 2024.2.3 (shared/docs/enums-2024.2.3.txt), DDL of its schema
enum_ddl() {
	printf 'CREATE TABLE %s (\n    id INTEGER NOT NULL PRIMARY KEY,\n    name TEXT,\n    label TEXT\n);\n' "$1"
}
if ! has_table ENUM_CUDA_MEMCPY_OPER; then
	sql+=$(enum_ddl ENUM_CUDA_MEMCPY_OPER)
	sql+="
INSERT INTO ENUM_CUDA_MEMCPY_OPER VALUES
  (0, 'CUDA_MEMCPY_KIND_UNKNOWN', 'Unknown'),
  (1, 'CUDA_MEMCPY_KIND_HTOD', 'Host-to-Device'),
  (2, 'CUDA_MEMCPY_KIND_DTOH', 'Device-to-Host'),
  (3, 'CUDA_MEMCPY_KIND_HTOA', 'Host-to-Array'),
  (4, 'CUDA_MEMCPY_KIND_ATOH', 'Array-to-Host'),
  (5, 'CUDA_MEMCPY_KIND_ATOA', 'Array-to-Array'),
  (6, 'CUDA_MEMCPY_KIND_ATOD', 'Array-to-Device'),
  (7, 'CUDA_MEMCPY_KIND_DTOA', 'Device-to-Array'),
  (8, 'CUDA_MEMCPY_KIND_DTOD', 'Device-to-Device'),
  (9, 'CUDA_MEMCPY_KIND_HTOH', 'Host-to-Host'),
  (10, 'CUDA_MEMCPY_KIND_PTOP', 'Peer-to-Peer'),
  (11, 'CUDA_MEMCPY_KIND_UVM_HTOD', 'Unified Host-to-Device'),
  (12, 'CUDA_MEMCPY_KIND_UVM_DTOH', 'Unified Device-to-Host'),
  (13, 'CUDA_MEMCPY_KIND_UVM_DTOD', 'Unified Device-to-Device');
"
	done+=("enum ENUM_CUDA_MEMCPY_OPER")
fi
if ! has_table ENUM_CUDA_MEM_KIND; then
	sql+=$(enum_ddl ENUM_CUDA_MEM_KIND)
	sql+="
INSERT INTO ENUM_CUDA_MEM_KIND VALUES
  (0, 'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE', 'Pageable'),
  (1, 'CUDA_MEMOPR_MEMORY_KIND_PINNED', 'Pinned'),
  (2, 'CUDA_MEMOPR_MEMORY_KIND_DEVICE', 'Device'),
  (3, 'CUDA_MEMOPR_MEMORY_KIND_ARRAY', 'Array'),
  (4, 'CUDA_MEMOPR_MEMORY_KIND_MANAGED', 'Managed'),
  (5, 'CUDA_MEMOPR_MEMORY_KIND_DEVICE_STATIC', 'Device Static'),
  (6, 'CUDA_MEMOPR_MEMORY_KIND_MANAGED_STATIC', 'Managed Static'),
  (7, 'CUDA_MEMOPR_MEMORY_KIND_UNKNOWN', 'Unknown');
"
	done+=("enum ENUM_CUDA_MEM_KIND")
fi

# green
for t in "$K" "$MC" "$MS"; do
	if has_table "$t" && ! has_col "$t" greenContextId; then
		sql+="ALTER TABLE $t ADD COLUMN greenContextId INTEGER;"$'\n'
		done+=("green $t.greenContextId = NULL")
	fi
done

# gpu.id / gpu
if has_table TARGET_INFO_GPU; then
	if ! has_col TARGET_INFO_GPU id && has_col TARGET_INFO_GPU deviceId; then
		sql+="ALTER TABLE TARGET_INFO_GPU RENAME COLUMN deviceId TO id;"$'\n'
		done+=("gpu.id TARGET_INFO_GPU.deviceId renamed id")
	fi
elif has_table TARGET_INFO_CUDA_GPU; then
	sql+="CREATE TABLE TARGET_INFO_GPU (vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT, busLocation TEXT);"$'\n'
	sql+="INSERT INTO TARGET_INFO_GPU (vmId, id, name, busLocation)"
	sql+=" SELECT vmId, deviceId, name, pciBusId FROM TARGET_INFO_CUDA_GPU;"$'\n'
	done+=("gpu TARGET_INFO_GPU from TARGET_INFO_CUDA_GPU (vmId, deviceId, name, pciBusId)")
elif has_table "$K" || has_table "$MC" || has_table "$MS"; then
	sql+="CREATE TABLE TARGET_INFO_GPU (vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT, busLocation TEXT,"
	sql+=" isDiscrete INTEGER, l2CacheSize INTEGER, totalMemory INTEGER, memoryBandwidth INTEGER);"$'\n'
	done+=("gpu.none TARGET_INFO_GPU created empty")
fi

# threads
if ! has_table ThreadNames && { has_table "$R" || has_table VULKAN_API; }; then
	sql+="CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER);"$'\n'
	done+=("threads ThreadNames created empty")
fi

# column: what a trimmed export lacks that the reference's CUDA reports select (TABLE COLUMN TYPE)
# (found by running the reference on GindaChen__nsys-ai healthy_*, which lack all of them)
optional=(
	"$K globalPid INTEGER"
	"$K contextId INTEGER" "$MC contextId INTEGER" "$MS contextId INTEGER"
	"$K registersPerThread INTEGER" "$K staticSharedMemory INTEGER" "$K dynamicSharedMemory INTEGER"
	"$MC srcKind INTEGER" "$MC dstKind INTEGER"
	"$MC globalPid INTEGER" "$MS globalPid INTEGER" "$MC srcDeviceId INTEGER" "$MC dstDeviceId INTEGER"
	"$R returnValue INTEGER"
)
for spec in "${optional[@]}"; do
	read -r t c ty <<<"$spec"
	if ! has_table "$t" || has_col "$t" "$c"; then continue; fi
	if [[ $c == globalPid ]]; then
		# the one process of the runtime calls, or nothing
		if ! has_table "$R" || ! has_col "$R" globalTid; then continue; fi
		pids=$(q "SELECT count(DISTINCT globalTid >> 24), min(globalTid >> 24) << 24 FROM $R")
		[[ ${pids%%|*} == 1 ]] || continue
		sql+="ALTER TABLE $t ADD COLUMN $c $ty;"$'\n'"UPDATE $t SET $c = ${pids#*|};"$'\n'
		done+=("column $t.$c = ${pids#*|} (the one process of $R)")
		continue
	fi
	sql+="ALTER TABLE $t ADD COLUMN $c $ty;"$'\n'
	done+=("column $t.$c = NULL")
done

# backtrace
if has_table "$R"; then
	cond=()
	has_col "$R" callchainId && cond+=("callchainId IS NOT NULL")
	has_col "$R" eventClass && cond+=("eventClass = 67")
	if ((${#cond[@]})); then
		where=${cond[0]}
		((${#cond[@]} == 1)) || where+=" OR ${cond[1]}"
		n=$(q "SELECT count(*) FROM $R WHERE $where")
		if ((n > 0)); then
			sql+="DELETE FROM $R WHERE $where;"$'\n'
			done+=("backtrace $n rows of $R deleted ($where)")
		fi
	fi
fi

if ((${#done[@]} == 0)); then
	echo nothing
	exit 0
fi
q "BEGIN; $sql COMMIT;"
printf '%s\n' "${done[@]}"
