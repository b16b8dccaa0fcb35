#!/usr/bin/env bash
# tests/install/run.sh BUILD_DIR: the library as other programs get it. `make install` into a
# DESTDIR puts exactly the files the README lists in their places; examples/ builds against the
# installed header and pkg-config alone and prints the per-kernel totals `nstats stats -r
# cuda_gpu_kern_sum` prints; the installed manual page shows every option of every command; the
# installed bash completion script is the one `nstats completion bash` makes and bash takes it; the library exports the functions of nstats.h and nothing else, and its objects keep the
# header's promises (no stdout/stderr/printf/puts/perror/getenv, no writable global data);
# `make uninstall` removes exactly what was installed. Prints `install: N passed, M failed`.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
(($# == 1)) || { echo "usage: tests/install/run.sh BUILD_DIR" >&2; exit 2; }
B=$1
WORK=$(mktemp -d "${TMPDIR:-/tmp}/nstats-install.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
DEST=$WORK/dest PREFIX=/opt/nstats-test
D=$DEST$PREFIX
passed=0 failed=0

ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL install: $*"; }
check() { # check NAME COMMAND...: passes when COMMAND succeeds
	local name=$1
	shift
	if "$@"; then ok; else fail "$name"; fi
}

cd "$ROOT" || exit 1
# A make of its own: not the jobserver or the variables of a make this suite may run under.
unset MAKEFLAGS MFLAGS MAKELEVEL
if ! make -s --no-print-directory B="$B" install DESTDIR="$DEST" PREFIX="$PREFIX" >"$WORK/make.log" 2>&1; then
	cat "$WORK/make.log"
	echo "install: 0 passed, 1 failed (make install)"
	exit 1
fi

# ---- the files, in the usual places
want="bin/nstats include/nstats/nstats.h lib/libnstats.a lib/libnstats.so lib/libnstats.so.0
lib/libnstats.so.0.4.0 lib/pkgconfig/nstats.pc share/man/man1/nstats.1
share/bash-completion/completions/nstats"
# nstats-mpi beside nstats where the build had mpicc
[[ -x $B/nstats-mpi ]] && want+=" bin/nstats-mpi"
got=$(cd "$D" && find . \( -type f -o -type l \) | sed 's|^\./||' | sort | tr '\n' ' ')
check "installed files: $got" [ "$got" == "$(tr ' \n' '\n\n' <<<"$want" | sed '/^$/d' | sort | tr '\n' ' ')" ]
check "soname" bash -c "objdump -p '$D/lib/libnstats.so.0.4.0' | grep -q 'SONAME *libnstats.so.0$'"
[[ -x $B/nstats-mpi ]] && check "bin/nstats-mpi is the build's" cmp -s "$B/nstats-mpi" "$D/bin/nstats-mpi"
check "libnstats.so -> libnstats.so.0" [ "$(readlink "$D/lib/libnstats.so")" == libnstats.so.0 ]

# ---- a program that knows only the installed header and pkg-config
export PKG_CONFIG_PATH=$D/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$DEST
flags=$(pkg-config --cflags --libs nstats) || fail "pkg-config nstats"
check "pkg-config points into the install" grep -q -- "-I$D/include" <<<"$flags"
if cc -std=c11 -Wall -Wextra -Werror "$ROOT"/examples/*.c $flags -o "$WORK/example" 2>"$WORK/cc.log"; then
	ok
	export_=$B/example.sqlite
	[[ -f $export_ ]] || make -s --no-print-directory B="$B" "$export_" >/dev/null
	LD_LIBRARY_PATH=$D/lib "$WORK/example" "$export_" >"$WORK/example.out" || fail "example exited $?"
	# nstats's own Total Time and Name columns, as the same tab-separated pairs
	"$B/nstats" stats -q -r cuda_gpu_kern_sum -f csv "$export_" |
		python3 -c 'import csv, sys
r = csv.reader(sys.stdin); h = next(r)
t, n = h.index("Total Time (ns)"), h.index("Name")
for row in filter(None, r): print(row[t] + "\t" + row[n])' >"$WORK/stats.out"
	check "example prints cuda_gpu_kern_sum's totals" cmp -s "$WORK/example.out" "$WORK/stats.out"
	check "example read some kernels" [ -s "$WORK/example.out" ]
	check "example is linked to the installed libnstats.so.0" \
		bash -c "LD_LIBRARY_PATH='$D/lib' ldd '$WORK/example' | grep -q '$D/lib/libnstats.so.0'"
	static=$(pkg-config --static --libs nstats)
	check "example links statically too" cc -std=c11 "$ROOT"/examples/*.c $flags "$D/lib/libnstats.a" \
		$static -o "$WORK/example-static"
else
	cat "$WORK/cc.log"
	fail "examples/ does not build against the install"
fi

# ---- the manual page: every option of every command
if command -v man >/dev/null 2>&1; then
	MANWIDTH=200 man -l "$D/share/man/man1/nstats.1" >"$WORK/man.txt" 2>"$WORK/man.err"
	check "man -l renders without warnings" [ ! -s "$WORK/man.err" ]
	for cmd in stats analyze check; do
		for o in $("$B/nstats" "$cmd" --help | grep -oE '^  (-[a-z], )?--[a-z-]+' | grep -oE -- '--[a-z-]+'); do
			grep -q -- "$o" "$WORK/man.txt" || fail "nstats.1 lacks $cmd $o"
		done
		grep -q "nstats $cmd" "$WORK/man.txt" || fail "nstats.1 lacks the $cmd command"
	done
	for r in $("$B/nstats" stats --help-reports | awk '/ -- / { print $1 }'); do
		grep -q -- "$r" "$WORK/man.txt" || fail "nstats.1 lacks report $r"
	done
	ok
else
	echo "install: note: no man here; the page's rendering is not checked"
fi

# ---- the bash completion script: the program's own, and bash takes it
comp=$D/share/bash-completion/completions/nstats
check "installed completion is nstats completion bash" cmp -s "$comp" <("$B/nstats" completion bash)
check "the completion script registers itself for nstats" \
	bash -c "source '$comp' && complete -p nstats | grep -q -- '-F _nstats nstats'"

# ---- the library's promises, read off its objects
bad=$(nm -A "$B/libnstats.a" 2>/dev/null |
	grep -E ' U (stdout|stderr|printf|vprintf|puts|putchar|perror|getenv|secure_getenv|exit)$')
check "library objects call no stdout/stderr/printf/puts/perror/getenv/exit: $bad" [ -z "$bad" ]
data=$(cd "$WORK" && ar x "$ROOT/$B/libnstats.a" 2>/dev/null; for o in "$WORK"/*.o; do
	size -A "$o" | awk -v o="${o##*/}" '($1 == ".data" || $1 == ".bss") && $2 > 0 { print o, $1 }'
done)
check "library objects have no writable global data: $data" [ -z "$data" ]
declared=$(sed -n 's/^[a-z][a-z_ *]*[ *]\(nst_[a-z_]*\)(.*/\1/p' include/nstats/nstats.h | sort -u)
exported=$(nm -D --defined-only "$D/lib/libnstats.so" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort -u)
check "libnstats.so exports exactly nstats.h's functions" [ "$declared" == "$exported" ]
[[ $declared == "$exported" ]] || diff <(echo "$declared") <(echo "$exported")

# ---- uninstall removes exactly that
touch "$D/lib/someone-elses.so"
make -s --no-print-directory B="$B" uninstall DESTDIR="$DEST" PREFIX="$PREFIX" >/dev/null 2>&1
left=$(cd "$D" && find . \( -type f -o -type l \) | sed 's|^\./||' | tr '\n' ' ')
check "uninstall leaves only what it did not install: $left" [ "$left" == "lib/someone-elses.so " ]

echo "install: $passed passed, $failed failed"
((failed == 0))
