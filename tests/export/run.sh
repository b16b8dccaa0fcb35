#!/usr/bin/env bash
# tests/export/run.sh BUILD_DIR: `nstats export` checked against nstats's own reports and the
# exports themselves (check.py: every slice's time and duration to the ns, the counts of slices,
# tracks and flows) on generated exports, real ones of shared/data (one with --cudabacktrace) and
# a PyTorch profiler trace, also under --filter-time and --filter-nvtx; the Perfetto file decoded
# by protoc --decode_raw and by Python's protobuf from the project's .proto, the JSON by python
# and jq; the JSON read back by nstats (the GPU reports the same, but for the columns
# docs/export.md names); hostile names; several inputs kept apart.
# Ends with `export: N passed, M failed`.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
(($# == 1)) || { echo "usage: tests/export/run.sh BUILD_DIR" >&2; exit 2; }
b=$(cd "$1" && pwd)
NSTATS=$b/nstats
DATA=${NSTATS_SHARED:-$root/../shared}/data
PY=/usr/bin/python3
for tool in protoc jq sqlite3 $PY; do
	command -v "$tool" >/dev/null || { echo "export: skipped ($tool not found)"; exit 0; }
done
$PY -c 'import google.protobuf' 2>/dev/null ||
	{ echo "export: skipped (no python3-protobuf for $PY)"; exit 0; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/nstats-export.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "export: FAIL $*"; }

mkdir -p "$WORK/py" "$WORK/c"
protoc --python_out="$WORK/py" --proto_path="$root/src/trace" "$root/src/trace/perfetto_trace.proto" ||
	{ echo "export: protoc cannot read src/trace/perfetto_trace.proto"; exit 1; }

# check INPUT [OPTIONS...]: check.py on one input
check() {
	local out
	if out=$($PY "$here/check.py" "$NSTATS" "$@" 2>&1); then ok; else fail "$out"; fi
}
# check.py takes the input first, then the work folder and the module; the options last
check_one() { # check_one INPUT [OPTIONS...]
	local in=$1
	shift
	local out
	if out=$($PY "$here/check.py" "$NSTATS" "$in" "$WORK/c" "$WORK/py" "$@" 2>&1); then ok
	else fail "$out"; fi
}

# ---- generated exports
gen=$WORK/gen.sqlite
"$b/nsysgen" -q --seed 3 --processes 2 --devices 2 --streams 3 --kernels 3000 --memcpy 300 \
	--memset 60 --nvtx 300 --overlap -o "$gen" || { echo "export: nsysgen failed"; exit 1; }
"$b/nsysgen" -q --seed 5 --processes 3 --threads 3 --devices 2 --kernels 2000 --nvtx 0 \
	--launch-ranges 500 --backtrace -o "$WORK/ranges-bt.sqlite"
"$b/nsysgen" -q --seed 9 --kernels 200 --nvtx-edges --um 20 -o "$WORK/edges.sqlite"
"$b/nsysgen" -q --seed 11 --kernels 400 --memcpy 40 --kineto "$WORK/gen-kineto.json.gz" \
	-o "$WORK/gen-kineto.sqlite" 2>/dev/null || true
inputs=("$b/example.sqlite" "$gen" "$WORK/ranges-bt.sqlite" "$WORK/edges.sqlite")
[[ -f $WORK/gen-kineto.json.gz ]] && inputs+=("$WORK/gen-kineto.json.gz")
# ---- real exports and a PyTorch profiler trace
for e in real/hpcgroup__pipit/pipit/tests/data/saxpy-mpi-cuda_nsys_perlmutter0.sqlite \
	real/NVIDIA__Fuser/report2.sqlite real/MohanadOdema__DLProf/nsys_profile.sqlite \
	real/trixi-gpu__TrixiCUDA.jl/profile/report1.sqlite \
	real/GindaChen__nsys-ai/tests/fixtures/mfu_2gpu_before.sqlite captured/nvtx_small.sqlite \
	real/facebookresearch__HolisticTraceAnalysis/tests/data/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz; do
	if [[ -f $DATA/$e ]]; then inputs+=("$DATA/$e"); else echo "export: note: $e not in $DATA"; fi
done
for in in "${inputs[@]}"; do
	check_one "$in"
done

# ---- the backtrace export: its backtrace rows are in the export, and no slice
bt=$DATA/real/hpcgroup__pipit/pipit/tests/data/saxpy-mpi-cuda_nsys_perlmutter0.sqlite
if [[ -f $bt ]]; then
	n=$(sqlite3 "$bt" "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass = 67 OR callchainId IS NOT NULL")
	"$NSTATS" export -q -t chrome-json -o "$WORK/bt.json" "$bt"
	calls=$(jq '[.traceEvents[] | select(.cat == "cuda_runtime")] | length' "$WORK/bt.json")
	all=$(sqlite3 "$bt" "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME")
	[[ $n -gt 0 && $calls == $((all - n)) ]] && ok ||
		fail "backtrace export: $calls API slices for $all runtime rows of which $n are backtrace rows"
fi

# ---- filters: the slices that the reports keep, no more
span=$("$NSTATS" stats -q -r cuda_gpu_trace -f csv "$gen" | awk -F, 'NR > 1 { print $1 }' | sort -n |
	awk '{ v[NR] = $1 } END { print v[int(NR / 3)] "/" v[int(2 * NR / 3)] }')
check_one "$gen" --filter-time "$span"
check_one "$b/example.sqlite" --filter-time 110ms/
check_one "$b/example.sqlite" --filter-nvtx train_step
n_all=$(jq '.traceEvents | length' <("$NSTATS" export -q -t chrome-json -o - "$gen"))
n_cut=$(jq '.traceEvents | length' <("$NSTATS" export -q -t chrome-json -o - --filter-time "$span" "$gen"))
((n_cut > 0 && n_cut < n_all)) && ok || fail "--filter-time $span kept $n_cut of $n_all events"

# ---- the Perfetto file decodes without the .proto, the JSON with jq
for in in "$b/example.sqlite" "$gen"; do
	"$NSTATS" export -q -t perfetto --force-overwrite -o "$WORK/t.pftrace" "$in" &&
		protoc --decode_raw <"$WORK/t.pftrace" >"$WORK/raw.txt" && [[ -s $WORK/raw.txt ]] && ok ||
		fail "protoc --decode_raw on the trace of $in"
	"$NSTATS" export -q -t chrome-json --force-overwrite -o "$WORK/t.json" "$in" &&
		jq -e '.traceEvents | length > 0' "$WORK/t.json" >/dev/null && ok || fail "jq on the JSON of $in"
done
# the perfetto file is at most half the JSON's size
p=$(stat -c %s "$WORK/t.pftrace") j=$(stat -c %s "$WORK/t.json")
((2 * p <= j)) && ok || fail "perfetto $p bytes, JSON $j bytes: not half"

# ---- the JSON read back: the same GPU reports
# roundtrip INPUT: the reports on the export and on its JSON, in csv, the same: the args that
# Kineto's traces lack (static and dynamic shared memory, green context, the copy kinds of
# unified memory, which Kineto names "Memcpy Unknown") come back from the args nstats adds
roundtrip() {
	local in=$1 r
	"$NSTATS" export -q -t chrome-json --force-overwrite -o "$WORK/rt.json" "$in" || { fail "export $in"; return; }
	for r in cuda_gpu_kern_sum cuda_gpu_trace cuda_gpu_mem_time_sum cuda_gpu_mem_size_sum cuda_gpu_sum \
		cuda_gpu_kern_gb_sum; do
		"$NSTATS" stats -q -r $r -f csv "$in" >"$WORK/a.csv" 2>/dev/null
		"$NSTATS" stats -q -r $r -f csv "$WORK/rt.json" >"$WORK/b.csv" 2>/dev/null
		if cmp -s "$WORK/a.csv" "$WORK/b.csv" && [[ -s $WORK/a.csv ]]; then
			ok
		else
			fail "round trip of $in: $r differs"
			diff "$WORK/a.csv" "$WORK/b.csv" | head -n 4 | sed 's/^/    /'
		fi
	done
}
roundtrip "$b/example.sqlite"
roundtrip "$gen"
[[ -f $DATA/real/MohanadOdema__DLProf/nsys_profile.sqlite ]] && roundtrip "$DATA/real/MohanadOdema__DLProf/nsys_profile.sqlite"
# copies of unified memory (copyKind 11 to 13)
uvm=$DATA/real/hsiaogary__CUDA-course/An_Even_Easier_Introduction_to_CUDA/report1.sqlite
[[ -f $uvm ]] && roundtrip "$uvm"
# green contexts: no export here has one, so a copy of the example is given some
cp "$b/example.sqlite" "$WORK/green.sqlite"
sqlite3 "$WORK/green.sqlite" "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET greenContextId = 1 + rowid % 3;
	UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET greenContextId = 7 WHERE rowid % 2 = 0;
	UPDATE CUPTI_ACTIVITY_KIND_MEMSET SET greenContextId = 9;" && roundtrip "$WORK/green.sqlite"

# ---- hostile names: the same text in both formats, valid UTF-8, as stats -f json writes it
"$root/tests/hostile/make-bad-exports.sh" "$b/nsysgen" "$WORK/bad" >/dev/null 2>&1
nasty=$WORK/bad/read-nasty-names.sqlite
if [[ -f $nasty ]]; then
	"$NSTATS" export -q -t perfetto -o "$WORK/n.pftrace" "$nasty" &&
		"$NSTATS" export -q -t chrome-json -o "$WORK/n.json" "$nasty" &&
		"$NSTATS" stats -q -r cuda_gpu_trace,nvtx_pushpop_trace -f json -o "$WORK/n" "$nasty" 2>/dev/null
	$PY - "$WORK" <<'PY' && ok || fail "hostile names differ between the formats"
import json, sys
sys.path.insert(0, sys.argv[1] + '/py')
import perfetto_trace_pb2 as pb
w = sys.argv[1]
t = pb.Trace(); t.ParseFromString(open(w + '/n.pftrace', 'rb').read())
names = {n.iid: n.name for p in t.packet for n in p.interned_data.event_names}
cats = {c.iid: c.name for p in t.packet for c in p.interned_data.event_categories}
pk = sorted(names[p.track_event.name_iid] for p in t.packet
            if p.track_event.type == 1 and cats[p.track_event.category_iids[0]] in ('kernel', 'user_annotation'))
doc = json.load(open(w + '/n.json'))
jk = sorted(e['name'] for e in doc['traceEvents'] if e.get('cat') in ('kernel', 'user_annotation'))
gpu = json.load(open(w + '/n_cuda_gpu_trace.json'))
pp = json.load(open(w + '/n_nvtx_pushpop_trace.json'))
rk = sorted([r['Name'] for r in gpu if not r['Name'].startswith('[CUDA ')] + [r['Name'] for r in pp])
if not (pk == jk == rk) or not any('\ufffd' in n for n in pk) or not any('<script>' in n for n in pk):
    print(len(pk), len(jk), len(rk)); sys.exit(1)
PY
else
	fail "make-bad-exports.sh made no read-nasty-names.sqlite"
fi

# ---- several inputs: kept apart, each named after its file
"$NSTATS" export -q -t chrome-json -o "$WORK/two.json" "$b/example.sqlite" "$gen"
"$NSTATS" export -q -t chrome-json -o "$WORK/one-a.json" "$b/example.sqlite"
"$NSTATS" export -q -t chrome-json -o "$WORK/one-b.json" "$gen"
$PY - "$WORK" <<'PY' && ok || fail "two inputs are not kept apart"
import json, sys
w = sys.argv[1]
two, a, b = (json.load(open(f'{w}/{n}.json'))['traceEvents'] for n in ('two', 'one-a', 'one-b'))
X = lambda ev: [e for e in ev if e['ph'] == 'X' and e['cat'] != 'Trace']
if len(X(two)) != len(X(a)) + len(X(b)):
    sys.exit(1)
names = {e['pid']: e['args']['name'] for e in two if e['ph'] == 'M' and e['name'] == 'process_name'}
pa = {e['pid'] for e in X(two) if e['cat'] == 'cuda_runtime'}
# each input's processes: their names say which file, and no pid is shared
first = {p for p in pa if names[p].startswith('[example.sqlite] ')}
second = {p for p in pa if names[p].startswith('[gen.sqlite] ')}
if not first or not second or first & second or first | second != pa:
    sys.exit(1)
PY

echo "export: $passed passed, $failed failed"
((failed == 0))
