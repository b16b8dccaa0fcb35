#!/usr/bin/env bash
# nsysgen --kineto and the perturbations, checked by kineto_gen_check.py (python3's json, gzip and
# sqlite3 alone, nothing of nstats): the trace of a run holds the export's run event by event (kernels,
# copies, memsets with their start and duration in ns, calls by correlation, NVTX push/pop ranges as
# user annotations, External ids, flows, metadata), in plain and gzip form, the same bytes twice; the
# export is byte for byte the one without --kineto; each perturbation changes exactly what it says, in
# the export and in the trace, and leaves the rest as the same run without it has it.
# shellcheck source=tests/accounting/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
CHECK="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/kineto_gen_check.py"

check() { # check WHAT ARGS...: one check by kineto_gen_check.py
	local out
	checks=$((checks + 1))
	out=$(python3 "$CHECK" "$@" 2>&1) || fail "$*: $out"
}

same() { # same WHAT A B: the two files have the same bytes
	checks=$((checks + 1))
	cmp -s "$2" "$3" || fail "$1: $2 and $3 differ"
}

# one process per device: on a GPU, (stream, correlation) names one operation
RUN=(--seed 61 --processes 2 --threads 3 --devices 2 --streams 3 --kernels 400 --memcpy 60 --memset 20
	--other-api 60 --kernel-names 20 --nvtx 80 --osrt 20 --backtrace)
gen plain "${RUN[@]}" && gen run "${RUN[@]}" --kineto run.json && gen run-gz "${RUN[@]}" --kineto run.json.gz &&
	gen again "${RUN[@]}" --kineto again.json || exit 1
same "--kineto leaves the export as it is" plain.sqlite run.sqlite
same "the trace is a function of the options" run.json again.json
checks=$((checks + 1))
cmp -s run.json <(gzip -dc run.json.gz) || fail "the .gz trace is not the .json one compressed"
check agree run.sqlite run.json
check agree run-gz.sqlite run.json.gz

# launch ranges (push/pop and start/end around launches), overlap, zero durations, graphs, UM
# migrations (no Kineto form), every copy kind; and the bundled example
gen wide --seed 62 --processes 1 --threads 2 --devices 2 --streams 2 --overlap --kernels 300 --memcpy 80 \
	--memset 10 --zero-durations 12 --launch-ranges 150 --graphs 6 --um 10 --kineto wide.json && check agree wide.sqlite wide.json
"$NSYSGEN" -q --force --example -o example.sqlite --kineto example.json.gz || fail "nsysgen --example --kineto"
check agree example.sqlite example.json.gz

# perturbations, each against the same run without it, export and trace alike
P=(--seed 63 --processes 1 --threads 2 --devices 2 --streams 2 --kernels 300 --memcpy 30 --memset 10
	--other-api 20 --nvtx 40 --osrt 10 --backtrace --launch-ranges 30)
gen base "${P[@]}" --kineto base.json || exit 1
# a kernel of constant, even durations: exactly 1.5x; and one of jittered durations, rounded per launch
gen slow "${P[@]}" --slow-kernel vectorized_elementwise_kernel:50 --kineto slow.json &&
	check slow base.sqlite slow.sqlite vectorized_elementwise_kernel 50 &&
	check slow base.json slow.json vectorized_elementwise_kernel 50
gen slow-j "${P[@]}" --slow-kernel gemm_tile:37 --kineto slow-j.json &&
	check slow base.sqlite slow-j.sqlite gemm_tile 37 && check slow base.json slow-j.json gemm_tile 37
gen fast "${P[@]}" --slow-kernel saxpy:-20 && check slow base.sqlite fast.sqlite saxpy -20
gen drop "${P[@]}" --drop-launches 3 --kineto drop.json &&
	check drop base.sqlite drop.sqlite 3 && check drop base.json drop.json 3 && check agree drop.sqlite drop.json
gen insert "${P[@]}" --insert-launches 5 --kineto insert.json &&
	check insert base.sqlite insert.sqlite 5 && check insert base.json insert.json 5 &&
	check agree insert.sqlite insert.json
gen rename "${P[@]}" --rename-kernel reduce_kernel:fused_reduce --kineto rename.json &&
	check rename base.sqlite rename.sqlite reduce_kernel fused_reduce &&
	check rename base.json rename.json reduce_kernel fused_reduce && check agree rename.sqlite rename.json
gen rename-c "${P[@]}" --rename-kernel saxpy:daxpy && check rename base.sqlite rename-c.sqlite saxpy daxpy
# all four at once still agree with their trace
ALL=(--slow-kernel saxpy:25 --drop-launches 7 --insert-launches 4 --rename-kernel gemm_tile:gemm2)
gen all "${P[@]}" "${ALL[@]}" --kineto all.json.gz && check agree all.sqlite all.json.gz
# the same bytes again, and nothing printed without -q
checks=$((checks + 1))
out=$("$NSYSGEN" --force -o all2.sqlite --nvtx 0 --osrt 0 "${P[@]}" "${ALL[@]}" --kineto all2.json.gz 2>&1)
rc=$?
[[ $rc == 0 && -z $out ]] || fail "a perturbed run without -q: exit $rc, printed '$out'"
same "a perturbed export is a function of the options" all.sqlite all2.sqlite
same "a perturbed trace is a function of the options" all.json.gz all2.json.gz

# the checks can fail: a trace with one kernel 1 ns longer, a drop of 2 called a drop of 3
checks=$((checks + 1))
python3 -c 'import re, sys; t = open(sys.argv[1]).read(); i = t.index("\"cat\": \"kernel\"")
m = re.compile(r"\"dur\": (\d+)\.(\d{3})").search(t, i); ns = int(m[1]) * 1000 + int(m[2]) + 1
open(sys.argv[2], "w").write(t[:m.start()] + "\"dur\": %d.%03d" % (ns // 1000, ns % 1000) + t[m.end():])' run.json bad.json
python3 "$CHECK" agree run.sqlite bad.json >/dev/null 2>&1 && fail "a kernel of another duration passed"
gen drop2 "${P[@]}" --drop-launches 2 || exit 1
checks=$((checks + 1))
python3 "$CHECK" drop base.sqlite drop2.sqlite 3 >/dev/null 2>&1 && fail "a drop of 2 passed as a drop of 3"

# usage errors: unknown names, a bad NEW, more drops than launches
for bad in "--slow-kernel nosuch:10" "--slow-kernel saxpy" "--rename-kernel nosuch:x" "--rename-kernel saxpy:1x" \
	"--drop-launches 301" "--kineto base.sqlite"; do
	checks=$((checks + 1))
	# shellcheck disable=SC2086
	"$NSYSGEN" -q --force -o base.sqlite "${P[@]}" $bad >/dev/null 2>&1
	[[ $? == 2 ]] || fail "nsysgen $bad did not exit 2"
done

echo "kineto_gen: $checks checks, $fails failed"
((fails == 0))
