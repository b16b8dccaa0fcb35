#!/usr/bin/env bash
# install-deps.sh: installs what building and testing nstats needs on a Debian machine (a C
# compiler, make, pkg-config, the SQLite library and shell, YAJL and zlib for PyTorch profiler
# traces, cmocka, valgrind, python3 and jq for the strict parsers of the escaping tests, Open MPI's
# mpicc and mpirun for nstats-mpi, which runs `nstats recipe` under mpirun, and for its tests,
# protobuf-c and its compiler for Perfetto traces (`nstats export --type perfetto`), and for the
# tests of the exports and the HTML page: protoc (--decode_raw) and Debian's python3 with its
# protobuf module (an independent decoder), html5lib (a strict HTML parser) and headless Chromium),
# only where missing. Quiet and quick when everything is there; one line per package it installs.
# Runs apt-get as root, or through sudo when that is available without a password.
set -euo pipefail

# package  command-or-file that shows it is present ("-" = ask dpkg only)
needs=(
	"gcc             cc"
	"make            make"
	"pkg-config      pkg-config"
	"libsqlite3-dev  /usr/include/sqlite3.h"
	"libyajl-dev     /usr/include/yajl/yajl_parse.h"
	"zlib1g-dev      /usr/include/zlib.h"
	"sqlite3         sqlite3"
	"libcmocka-dev   /usr/include/cmocka.h"
	"valgrind        valgrind"
	"python3         python3"
	"jq              jq"
	"libopenmpi-dev  mpicc"
	"openmpi-bin     mpirun"
	"libprotobuf-c-dev /usr/include/protobuf-c/protobuf-c.h"
	"protobuf-c-compiler protoc-c"
	"protobuf-compiler protoc"
	"python3-protobuf /usr/lib/python3/dist-packages/google/protobuf/__init__.py"
	"python3-html5lib /usr/lib/python3/dist-packages/html5lib/__init__.py"
	"chromium        chromium"
)

present() { # present PACKAGE PROBE
	local pkg=$1 probe=$2
	case $probe in
	/*) [[ -e $probe ]] && return 0 ;;
	*) command -v "$probe" >/dev/null 2>&1 && return 0 ;;
	esac
	[[ $(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null) == "install ok installed" ]]
}

die() { echo "install-deps: $*" >&2; exit 1; }

missing=()
for line in "${needs[@]}"; do
	read -r pkg probe <<<"$line"
	present "$pkg" "$probe" || missing+=("$pkg")
done
((${#missing[@]} == 0)) && exit 0

command -v apt-get >/dev/null 2>&1 ||
	die "missing ${missing[*]} and no apt-get here: install them by hand"
sudo=()
if ((EUID != 0)); then
	if ! command -v sudo >/dev/null 2>&1 || ! sudo -n true 2>/dev/null; then
		die "missing ${missing[*]}: run as root, or with password-less sudo, or install them by hand"
	fi
	sudo=(sudo -n)
fi

log=$(mktemp); trap 'rm -f "$log"' EXIT
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq >"$log" 2>&1 || { cat "$log" >&2; die "apt-get update failed"; }
for pkg in "${missing[@]}"; do
	echo "install-deps: installing $pkg"
	"${sudo[@]}" apt-get install -y -qq --no-install-recommends "$pkg" >"$log" 2>&1 ||
		{ cat "$log" >&2; die "could not install $pkg"; }
done
