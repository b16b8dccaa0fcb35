#!/usr/bin/env bash
# tests/recipe/mpi.sh BUILD_DIR: `nstats recipe` under mpirun (BUILD_DIR/nstats execs nstats-mpi
# beside it). Makes a job of 5 exports with BUILD_DIR/nsysgen (one rank each with --ranks where
# nsysgen has it, else 5 seeds of one process, and an MPI export of two processes) and checks that:
#  - every recipe `nstats recipe --help-recipes` lists, and stragglers and gpu_time_util with
#    arguments, writes under mpirun -n 2 and -n 3 the very bytes of -j 1;
#  - -o DIR with --ranks process writes the same files, summary.txt included;
#  - a broken input among good ones: exit 3, one error line naming it, the output of -j 1 over the
#    good ones;
#  - more MPI ranks than inputs (--ranks input: ranks with nothing to send send nothing);
#  - an MPI rank that dies (killed while it waits on a FIFO it took for an export) ends the whole
#    run with a non-zero exit, not a hang;
#  - an nstats without nstats-mpi beside it says so under mpirun.
# Every mpirun runs under `timeout 120`. Skips (exit 0) when nstats-mpi or mpirun is missing.
# Prints `mpi: N passed, M failed`; exits 1 on a failure.
set -uo pipefail
(($# == 1)) || { echo "usage: tests/recipe/mpi.sh BUILD_DIR" >&2; exit 2; }
B=$(cd "$1" && pwd)
NSTATS=$B/nstats NSYSGEN=$B/nsysgen
export LC_ALL=C.UTF-8
if [[ ! -x $B/nstats-mpi ]] || ! command -v mpirun >/dev/null 2>&1; then
	echo "mpi: skipped: no $B/nstats-mpi or no mpirun (apt-get install libopenmpi-dev openmpi-bin)"
	exit 0
fi
passed=0 failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nstats-mpi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL mpi: $*"; }
finish() { echo "mpi: $passed passed, $failed failed"; ((failed == 0)); exit; }

# mpi N OUT ARGS...: `nstats ARGS` on N MPI ranks, stdout in OUT, stderr in OUT.err; sets RC
mpi() {
	local n=$1 out=$2
	shift 2
	timeout 120 mpirun --oversubscribe --allow-run-as-root -n "$n" "$@" </dev/null >"$out" 2>"$out.err"
	RC=$?
}
# local_run OUT ARGS...: `nstats ARGS` here, stdout in OUT, stderr in OUT.err; sets RC
local_run() {
	local out=$1
	shift
	"$NSTATS" "$@" </dev/null >"$out" 2>"$out.err"
	RC=$?
}
# same WHAT A B: A and B hold the same bytes (and B some)
same() {
	if [[ -s $3 ]] && cmp -s "$2" "$3"; then
		pass
	else
		fail "$1: differs from -j 1 (${2##*/} vs ${3##*/}): $(diff "$2" "$3" | head -c 600 | tr '\n' ' ')" \
			"stderr: $(head -c 300 "$3.err" | tr '\n' ' ')"
	fi
}
rc_is() { # rc_is WHAT WANT
	if [[ $RC == "$2" ]]; then pass; else fail "$1: exit status $RC, expected $2"; fi
}

# ---- the job ------------------------------------------------------------------------------------
gen_ok=1
# The help read whole first: `nsysgen --help | grep -q` under pipefail fails whenever grep stops
# reading before nsysgen has written all of it (SIGPIPE), which silently chose the other branch.
nsysgen_help=$("$NSYSGEN" --help 2>&1)
if grep -q -- '--rank ' <<<"$nsysgen_help"; then
	for r in 0 1 2 3; do
		"$NSYSGEN" -q --force --seed 31 --kernels 600 --ranks 4 --rank "$r" --iterations 4 \
			-o "rank$r.sqlite" >/dev/null || gen_ok=0
	done
else
	for r in 0 1 2 3; do
		"$NSYSGEN" -q --force --seed $((31 + r)) --kernels 2000 --processes 1 -o "rank$r.sqlite" \
			>/dev/null || gen_ok=0
	done
fi
"$NSYSGEN" -q --force --seed 35 --kernels 800 --processes 2 --mpi 60 --nvtx 40 -o mpi2.sqlite \
	>/dev/null || gen_ok=0
((gen_ok)) || { fail "nsysgen could not make the job"; finish; }
job=(rank0.sqlite rank1.sqlite rank2.sqlite rank3.sqlite mpi2.sqlite)

"$NSTATS" recipe --help-recipes >help.txt 2>&1
mapfile -t recipes < <(sed -n 's/^  \([a-z0-9_]*\) -- .*/\1/p' help.txt)
((${#recipes[@]})) || { fail "nstats recipe --help-recipes lists no recipe"; finish; }

# ---- every recipe: -j 1 and mpirun -n 2, -n 3 write the same bytes --------------------------------
# and two with arguments, which every part carries and every merge checks
specs=("${recipes[@]}")
for spec in stragglers:iteration=step gpu_time_util:buckets=7; do
	grep -q "^  ${spec%%:*} -- " help.txt && specs+=("$spec")
done
for r in "${specs[@]}"; do
	local_run "$r.j1" recipe "$r" -f csv -j 1 "${job[@]}"
	rc_is "$r -j 1" 0
	for n in 2 3; do
		mpi "$n" "$r.n$n" "$NSTATS" recipe "$r" -f csv -j 1 "${job[@]}"
		rc_is "$r on $n MPI ranks" 0
		same "$r on $n MPI ranks" "$r.j1" "$r.n$n"
	done
done

# ---- -o DIR, ranks numbered per process ------------------------------------------------------------
r=${recipes[0]}
local_run dir.j1 recipe "$r" --ranks process -o out.j1 -j 1 "${job[@]}"
mpi 3 dir.n3 "$NSTATS" recipe "$r" --ranks process -o out.n3 -j 1 "${job[@]}"
rc_is "-o DIR on 3 MPI ranks" 0
diff -r out.j1 out.n3 >dir.diff 2>&1
if (($? == 0)) && [[ -s out.n3/summary.txt ]]; then
	pass
else
	fail "-o DIR: the files differ from -j 1's: $(head -c 300 dir.diff)"
fi

# ---- a broken input among good ones -----------------------------------------------------------------
printf 'not an export\n' >broken.sqlite
good=(rank0.sqlite rank1.sqlite mpi2.sqlite)
local_run good.j1 recipe "$r" -f csv -j 1 "${good[@]}"
mpi 3 broken.n3 "$NSTATS" recipe "$r" -f csv -j 1 rank0.sqlite broken.sqlite rank1.sqlite mpi2.sqlite
rc_is "a broken input on 3 MPI ranks" 3
errors=$(grep -c '^nstats: error:' broken.n3.err)
line=$(grep '^nstats: error:' broken.n3.err)
if [[ $errors == 1 && $line == "nstats: error: broken.sqlite: "* ]]; then
	pass
else
	fail "a broken input: expected one error line naming broken.sqlite, got $errors: $line"
fi
same "a broken input: the good ones" good.j1 broken.n3

# ---- more MPI ranks than inputs -------------------------------------------------------------------------
local_run few.j1 recipe "$r" --ranks input -f csv -j 1 rank2.sqlite mpi2.sqlite
mpi 5 few.n5 "$NSTATS" recipe "$r" --ranks input -f csv -j 1 rank2.sqlite mpi2.sqlite
rc_is "5 MPI ranks, 2 inputs" 0
same "5 MPI ranks, 2 inputs" few.j1 few.n5

# ---- an MPI rank that dies -----------------------------------------------------------------------------
# MPI rank 1 takes the FIFO for its input, whose open waits for a writer that never comes, and is
# killed there: the other ranks wait for its groups, and mpirun must end them.
mkfifo stuck.sqlite
start=$SECONDS
mpi 3 dies.n3 bash -c 'if [[ ${OMPI_COMM_WORLD_RANK:-} == 1 ]]; then (sleep 2; kill -KILL $$) & fi
exec "$@"' _ "$NSTATS" recipe "$r" -f csv -j 1 rank0.sqlite stuck.sqlite rank1.sqlite
if ((RC != 0 && RC != 124)); then
	pass
else
	fail "an MPI rank killed: exit status $RC after $((SECONDS - start)) s (124: it hung)"
fi

# ---- no nstats-mpi beside nstats -----------------------------------------------------------------------
mkdir alone && cp "$NSTATS" alone/nstats
mpi 1 alone.n1 alone/nstats recipe "$r" -f csv rank0.sqlite
rc_is "nstats without nstats-mpi under mpirun" 2
if grep -q 'built without MPI' alone.n1.err; then
	pass
else
	fail "nstats without nstats-mpi: $(head -c 300 alone.n1.err)"
fi

finish
