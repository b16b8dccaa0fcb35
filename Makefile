# nstats build.  `make` builds build/nstats (and build/nstats-mpi where
# Open MPI's mpicc is); `make run` installs what is
# missing, builds, and prints the default reports of the bundled example;
# `make test` runs every test; `make bench` runs the benchmark.
CC      ?= cc
OPT     ?= -O2 -g
CFLAGS  += -std=c11 -Wall -Wextra -Werror -D_XOPEN_SOURCE=700 $(OPT)
CPPFLAGS += -Iinclude -Isrc
# protobuf-c packs the Perfetto traces of `nstats export` (src/trace)
PROTOBUF_C_LIBS := $(shell pkg-config --libs libprotobuf-c 2>/dev/null || echo -lprotobuf-c)
LDLIBS  += -lsqlite3 -lyajl -lz -lm -pthread $(PROTOBUF_C_LIBS)
# The nstats command takes SQLite, YAJL, protobuf-c and zlib from their static archives (Debian's
# -dev packages ship them) where all four are there: a run on a small export is mostly process
# start, and binding those libraries' symbols at start-up was a sixth of it (docs/benchmarks.md).
# The C library stays shared (locales, and valgrind's malloc).  STATIC_DEPS=0 links them all
# shared; the library (libnstats.so, libnstats.a) and the test programs always do.
STATIC_ARCHIVES := libsqlite3.a libyajl_s.a libprotobuf-c.a libz.a
STATIC_DEPS ?= $(if $(strip $(foreach a,$(STATIC_ARCHIVES),$(if $(findstring /,$(shell $(CC) -print-file-name=$(a))),,x))),0,1)
STATIC_LDLIBS := -Wl,-Bstatic -lsqlite3 -lyajl_s -lprotobuf-c -lz -Wl,-Bdynamic -lm -pthread
CLI_LDLIBS = $(if $(filter 1,$(STATIC_DEPS)),$(STATIC_LDLIBS),$(LDLIBS))
B       ?= build

LIB_SRC  := $(shell find src -name '*.c' ! -path 'src/cli/*' ! -path 'src/mpi/*' | sort)
CLI_SRC  := $(shell find src/cli -name '*.c' | sort)
TEST_SRC := $(sort $(wildcard tests/unit/test_*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(B)/obj/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(B)/obj/%.o)
TESTS    := $(TEST_SRC:tests/unit/%.c=$(B)/tests/%)
NSYSGEN_OBJ := $(patsubst %.c,$(B)/obj/%.o,$(sort $(wildcard tools/nsysgen/*.c)))
# brute-force references for nstats's own reports: SQLite only, nothing of nstats
BRUTE    := $(patsubst tests/accounting/%.c,$(B)/tests/%,$(sort $(wildcard tests/accounting/brute_*.c)))
EXAMPLE  := $(B)/example.sqlite

# nstats-mpi: nstats with `recipe` under mpirun (src/mpi), where mpicc is.  A second binary,
# because libmpi linked into nstats would cost every command its start-up; nstats execs it when
# mpirun started it.
MPICC    ?= mpicc
MPI_SRC  := $(sort $(wildcard src/mpi/*.c))
MPI_OBJ  := $(MPI_SRC:%.c=$(B)/obj/%.o)
ifneq ($(shell command -v $(MPICC) 2>/dev/null),)
NSTATS_MPI := $(B)/nstats-mpi
MPI_NOTE := nstats-mpi: built with Open MPI
else
NSTATS_MPI :=
MPI_NOTE := nstats-mpi: not built, no mpicc (apt-get install libopenmpi-dev)
endif

PREFIX  ?= /usr/local
VERSION := $(shell sed -n 's/^\#define NSTATS_VERSION "\(.*\)"/\1/p' include/nstats/nstats.h)
SONAME  := libnstats.so.$(firstword $(subst ., ,$(VERSION)))
SHLIB   := libnstats.so.$(VERSION)
# The shared library's objects: position-independent, built only for it.
PIC_OBJ := $(LIB_SRC:%.c=$(B)/pic/%.o)
# src/db/schema.sql, made into C by the rule below, is part of the library
LIB_OBJ += $(B)/obj/gen/schema_sql.o
PIC_OBJ += $(B)/pic/gen/schema_sql.o
# src/trace/perfetto_trace.proto, made into C by protoc-c (the rule below)
LIB_OBJ += $(B)/obj/gen/perfetto_trace.pb-c.o
PIC_OBJ += $(B)/pic/gen/perfetto_trace.pb-c.o

.PHONY: all shared install uninstall deps run test unit cli golden corpus accounting hostile mpi valgrind bench clean sanitize tsan fuzz fuzz-build fuzz-smoke export report
all: $(B)/nstats $(B)/nsysgen $(NSTATS_MPI)
	@echo '$(MPI_NOTE)'

deps:
	@tools/install-deps.sh

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(B)/libnstats.a: $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(B)/nstats: $(CLI_OBJ) $(B)/libnstats.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(CLI_LDLIBS)

# mpicc for what includes mpi.h and for the link; its recipe_mpi() wins over nstats's weak one
$(B)/obj/src/mpi/%.o: src/mpi/%.c
	@mkdir -p $(dir $@)
	$(MPICC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(B)/nstats-mpi: $(CLI_OBJ) $(MPI_OBJ) $(B)/libnstats.a
	$(MPICC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# ---- the library for other programs, and the install (README.md, Install)
$(B)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC -MMD -MP -c $< -o $@

# Only the functions of include/nstats/nstats.h are exported (libnstats.map).
$(B)/$(SHLIB): $(PIC_OBJ) src/libnstats.map
	$(CC) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=src/libnstats.map \
		-Wl,--no-undefined $(LDFLAGS) -o $@ $(PIC_OBJ) $(LDLIBS)

shared: $(B)/$(SHLIB)

# The manual page is the program's own (nstats --manual): made from the
# tables its --help prints.
$(B)/nstats.1: $(B)/nstats
	$(B)/nstats --manual >$@

# The bash completion script is the program's own too (nstats completion
# bash): made from the same tables, it completes what this build knows.
$(B)/nstats.bash: $(B)/nstats
	$(B)/nstats completion bash >$@

BASHCOMP := share/bash-completion/completions
INSTALLED := bin/nstats bin/nstats-mpi lib/libnstats.a lib/$(SHLIB) lib/$(SONAME) lib/libnstats.so \
	include/nstats/nstats.h lib/pkgconfig/nstats.pc share/man/man1/nstats.1 $(BASHCOMP)/nstats
D := $(DESTDIR)$(PREFIX)

install: $(B)/nstats $(NSTATS_MPI) $(B)/libnstats.a $(B)/$(SHLIB) $(B)/nstats.1 $(B)/nstats.bash
	install -d $(D)/bin $(D)/lib/pkgconfig $(D)/include/nstats $(D)/share/man/man1 $(D)/$(BASHCOMP)
	install -m 755 $(B)/nstats $(D)/bin/nstats
	$(if $(NSTATS_MPI),install -m 755 $(NSTATS_MPI) $(D)/bin/nstats-mpi)
	install -m 644 $(B)/libnstats.a $(D)/lib/libnstats.a
	install -m 755 $(B)/$(SHLIB) $(D)/lib/$(SHLIB)
	ln -sf $(SHLIB) $(D)/lib/$(SONAME)
	ln -sf $(SONAME) $(D)/lib/libnstats.so
	install -m 644 include/nstats/nstats.h $(D)/include/nstats/nstats.h
	install -m 644 $(B)/nstats.1 $(D)/share/man/man1/nstats.1
	install -m 644 $(B)/nstats.bash $(D)/$(BASHCOMP)/nstats
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$${prefix}/lib' 'includedir=$${prefix}/include' '' \
		'Name: nstats' 'Description: statistics and trace reports from Nsight Systems SQLite exports' \
		'Version: $(VERSION)' 'Requires.private: sqlite3 yajl zlib libprotobuf-c' \
		'Libs: -L$${libdir} -lnstats' \
		'Libs.private: -lm -pthread' 'Cflags: -I$${includedir}' >$(D)/lib/pkgconfig/nstats.pc

uninstall:
	rm -f $(addprefix $(D)/,$(INSTALLED))
	-rmdir $(D)/include/nstats 2>/dev/null


# The library's CREATE TABLE texts (the exports src/input builds in memory): src/db/schema.sql as
# one C string, made as nsysgen's is below
$(B)/gen/schema_sql.c: src/db/schema.sql
	@mkdir -p $(dir $@)
	{ echo '/* Made from $< by the Makefile. */' && echo 'extern const char nst_schema_sql[];' && \
	  echo 'const char nst_schema_sql[] =' && sed -e 's/[\\"?]/\\&/g' -e 's/^/    "/' -e 's/$$/\\n"/' $< && \
	  echo '    ;'; } >$@.tmp && mv $@.tmp $@

$(B)/obj/gen/schema_sql.o: $(B)/gen/schema_sql.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(B)/pic/gen/schema_sql.o: $(B)/gen/schema_sql.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fPIC -c $< -o $@

# Perfetto's trace packets (the subset nstats writes) as protobuf-c's C, made at build time and
# never committed; what includes the header waits for it.
$(B)/gen/perfetto_trace.pb-c.c: src/trace/perfetto_trace.proto
	@mkdir -p $(dir $@)
	protoc-c --c_out=$(B)/gen --proto_path=src/trace $<

$(B)/gen/perfetto_trace.pb-c.h: $(B)/gen/perfetto_trace.pb-c.c ;

$(B)/obj/src/trace/perfetto.o $(B)/pic/src/trace/perfetto.o: $(B)/gen/perfetto_trace.pb-c.h
$(B)/obj/src/trace/perfetto.o $(B)/pic/src/trace/perfetto.o: CPPFLAGS += -I$(B)/gen

$(B)/obj/gen/perfetto_trace.pb-c.o: $(B)/gen/perfetto_trace.pb-c.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -I$(B)/gen -c $< -o $@

$(B)/pic/gen/perfetto_trace.pb-c.o: $(B)/gen/perfetto_trace.pb-c.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -I$(B)/gen -fPIC -c $< -o $@

# nsysgen's CREATE TABLE texts: schema.sql as one C string, each line quoted with its backslashes,
# quotes and '?' (no trigraphs) escaped, so that the binary needs no file beside it
$(B)/gen/nsysgen_schema.c: src/db/schema.sql
	@mkdir -p $(dir $@)
	{ echo '/* Made from $< by the Makefile. */' && echo 'extern const char SCHEMA_SQL[];' && \
	  echo 'const char SCHEMA_SQL[] =' && sed -e 's/[\\"?]/\\&/g' -e 's/^/    "/' -e 's/$$/\\n"/' $< && \
	  echo '    ;'; } >$@.tmp && mv $@.tmp $@

$(B)/obj/nsysgen_schema.o: $(B)/gen/nsysgen_schema.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

# its objects go through $(B)/obj/%.o, whose -MMD rebuilds them when nsysgen.h changes
$(B)/nsysgen: $(NSYSGEN_OBJ) $(B)/obj/nsysgen_schema.o
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS) -lz

$(B)/tests/%: tests/unit/%.c $(B)/libnstats.a
	@mkdir -p $(B)/tests
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS) -lcmocka

# The API test sees only the public header, as a program using the
# library does, and reads two generated exports.
API_B := $(B)/tests/api-b.sqlite
$(API_B): $(B)/nsysgen
	@mkdir -p $(B)/tests
	$(B)/nsysgen -q --seed 7 --processes 2 --devices 2 --streams 2 --kernels 300 \
		--memcpy 40 --memset 10 --nvtx 40 --osrt 40 --force -o $@ >/dev/null

$(B)/tests/test_api: tests/unit/test_api.c $(B)/libnstats.a $(EXAMPLE) $(API_B)
	$(CC) -Iinclude $(CFLAGS) -DAPI_EXPORT_A='"$(abspath $(EXAMPLE))"' \
		-DAPI_EXPORT_B='"$(abspath $(API_B))"' $(LDFLAGS) -o $@ $< $(B)/libnstats.a \
		$(LDLIBS) -lcmocka

$(B)/tests/brute_%: tests/accounting/brute_%.c tests/accounting/brute.h
	@mkdir -p $(B)/tests
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< -lsqlite3 -lm

$(EXAMPLE): $(B)/nsysgen
	$(B)/nsysgen --example --force -o $@

run: deps
	@$(MAKE) --no-print-directory all $(EXAMPLE)
	$(B)/nstats stats $(EXAMPLE)

unit: $(TESTS)
	@tests/run-unit.sh $(TESTS)

cli: all $(EXAMPLE)
	@tests/cli/run.sh $(B)/nstats

golden: all
	@tests/golden/run.sh $(B)/nstats $(B)/nsysgen

corpus: $(B)/nstats
	@tests/corpus/run.sh $(B)/nstats

accounting: all $(BRUTE)
	@tests/accounting/run.sh $(B)

hostile: all
	@tests/hostile/run.sh $(B)

# nstats export against the reports, in Perfetto's and Chrome's decoders' terms
export: all $(EXAMPLE)
	@tests/export/run.sh $(B)

recipe: all ; @tests/recipe/run.sh $(B)

# recipe under mpirun against -j 1 (skipped without nstats-mpi or mpirun)
mpi: all ; @tests/recipe/mpi.sh $(B)

# nstats report's pages in headless Chromium (its part skipped without it), parsed, checked
report: all ; @tests/report/run.sh $(B)

# make test: builds (on every core unless make was given -j) and runs the suites SUITES names
# (all of them when empty) through tests/run-all.sh, which runs TEST_JOBS at a time (default: the
# number of cores) and prints each one's output whole, in order, with its time.
SUITES   ?=
NPROC    := $(shell nproc 2>/dev/null || echo 2)
TEST_PAR  = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC))

test: deps
	@$(MAKE) --no-print-directory $(TEST_PAR) all $(TESTS) $(BRUTE)
	@tests/run-all.sh $(B) $(SUITES)

# make sanitize: everything built again in build-san with ASan and UBSan, and the suites where a
# memory error or undefined behaviour can hide run on it: unit, cli, hostile (bad exports, every
# report, rule and format on one export), accounting (nstats's own reports against brute force,
# and its commands on every export of shared/data), diff, recipe, export, report (the page on
# fixtures, real and hostile exports, loaded in Chromium), and golden on SAN_GOLDEN only. The byte
# comparisons of every golden fixture and of the corpus are the normal pass's job (make test): a
# second copy of all of them under ASan cost most of CI's time. Every report, rule and format
# still runs under ASan here (golden below, hostile's unchanged-export.sh, cli's escaping tests),
# and the corpus's reports run on real exports under valgrind in .ci/run.
SAN_SUITES := unit cli golden accounting hostile diff recipe export report
# The golden fixtures under ASan+UBSan, and why each: together they give rows to every report and
# rule entry of tests/corpus/reports and tests/golden/extra-reports (rule:gpu_gaps at its default
# 500 ms finds nothing in any fixture; gap=0 and gap=1 do), cross every size at which nstats
# changes algorithm, and take every reading path that a fixture exists for:
#   mid-sums, mid-traces  the size switches: radix sort past 256 values, columns of 131072 rows
#                         and more mapped whole, column format streaming after 100 rows, the
#                         sparse correlationId index (--corr-stride)
#   small                 the CUDA, NVTX and OS runtime reports, the rules (cuda_api_sync with
#                         process= and thread=)
#   multiproc             several processes and devices, correlationIds shared by the processes
#   graphics              Vulkan, OpenGL, DX11 and DX12 reports
#   um-many               unified memory, OpenMP, OpenACC, WDDM; cuda_memcpy_async, cuda_memset_sync
#   mpi-net-video         MPI, network, NVIDIA video; cuda_kern_exec_sum:nvtx-name
#   dx12-mem              dx12_mem_ops
#   graphs                graph-level CUDA graph rows (the graph note), overlap on several streams
#   nvtx-edges            odd NVTX nesting: a chain 8 deep, equal starts and ends, twins,
#                         zero-length and crossing ranges, a range never popped
#   backtrace noenums nogreen   rows nstats leaves out, no ENUM tables, no greenContextId column
#   filter-time filter-pushpop-thread filter-startend-main filter-nvtx-notfound   the time and
#                         NVTX filters: a window, a push/pop range of a thread, a start/end range
#                         of a process, a range that is not there (reports run on no rows)
SAN_GOLDEN := mid-sums mid-traces small multiproc graphics um-many mpi-net-video dx12-mem graphs \
	nvtx-edges backtrace noenums nogreen filter-time filter-pushpop-thread filter-startend-main \
	filter-nvtx-notfound

sanitize: export ASAN_OPTIONS ?= detect_leaks=1:halt_on_error=1
sanitize: export UBSAN_OPTIONS ?= halt_on_error=1:print_stacktrace=1
sanitize:
	@GOLDEN_FIXTURES="$(SAN_GOLDEN)" $(MAKE) --no-print-directory B=build-san \
		OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		LDFLAGS="-fsanitize=address,undefined" SUITES="$(SAN_SUITES)" test

# make tsan: nstats and nsysgen built again in build-tsan with ThreadSanitizer, and the parallel
# reader run on an export where two tables are read at once (tests/tsan/run.sh says what runs)
TSAN_OPT := -O1 -g -fsanitize=thread -fno-omit-frame-pointer
tsan:
	@$(MAKE) --no-print-directory $(TEST_PAR) B=build-tsan OPT="$(TSAN_OPT)" LDFLAGS="-fsanitize=thread" \
		build-tsan/nstats build-tsan/nsysgen
	@tests/tsan/run.sh build-tsan "$(CC)" "$(TSAN_OPT)"

# nstats under valgrind on a few exports in every format, VALGRIND_JOBS runs at a time (.ci/run)
valgrind: all $(EXAMPLE)
	@tests/valgrind/run.sh $(B)

$(B)/measure: bench/measure.c
	@mkdir -p $(B)
	$(CC) $(CFLAGS) -o $@ $<

bench: all $(B)/measure
	bench/run.sh $(B)

# ---- fuzzing (libFuzzer, clang; docs/testing.md, Fuzzing)
# The library and the CLI's objects are built again in build-fuzz with
# coverage and sanitizers; each harness runs FUZZ_SECONDS on its corpus in
# build-fuzz/corpus/NAME, seeded by tests/fuzz/seeds.sh.
FUZZ_SECONDS ?= 60
FUZZERS  := export pages options text kineto part
FUZZ_B   := build-fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CLI := $(filter-out $(FUZZ_B)/obj/src/cli/main.o,$(CLI_SRC:%.c=$(FUZZ_B)/obj/%.o))

fuzz-build:
	@$(MAKE) --no-print-directory $(TEST_PAR) B=$(FUZZ_B) CC=clang \
		OPT="-O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link $(FUZZ_SAN)" \
		$(FUZZ_B)/libnstats.a $(FUZZ_CLI)
	@for f in $(FUZZERS); do \
		extra=; case $$f in export|pages) extra=tests/fuzz/sqlite_mutator.c;; esac; \
		clang $(CPPFLAGS) -std=c11 -Wall -Wextra -Werror -D_XOPEN_SOURCE=700 -O1 -g \
			-fsanitize=fuzzer $(FUZZ_SAN) -o $(FUZZ_B)/fuzz_$$f tests/fuzz/fuzz_$$f.c $$extra \
			tests/fuzz/fuzz_common.c $(FUZZ_CLI) $(FUZZ_B)/libnstats.a $(LDLIBS) || exit 1; \
	done

fuzz: fuzz-build $(B)/nsysgen
	@tests/fuzz/run.sh $(FUZZ_B) $(B)/nsysgen $(FUZZ_SECONDS) $(FUZZERS)

fuzz-smoke: fuzz-build $(B)/nsysgen
	@tests/fuzz/run.sh $(FUZZ_B) $(B)/nsysgen 10 $(FUZZERS)

clean:
	rm -rf build build-san build-tsan build-fuzz build-dev

-include $(shell find $(B)/obj $(B)/pic -name '*.d' 2>/dev/null)
