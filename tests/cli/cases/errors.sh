# Errors that help: the closest names of a name that is not found (D50), both spellings of time
# units (D51), one line instead of the usage (D52), a --filter-time that misses the capture and
# NVTX ranges by their printed name (D53), and report arguments that carry ':' (D54).

# ---- did you mean (D50) --------------------------------------------------------------------------

test_suggest_report() {
	run stats -r cuda_gpu_kern_summ ex.sqlite; rc_is 2; out_is ""
	err_is "nstats: error: report 'cuda_gpu_kern_summ' could not be found; did you mean cuda_gpu_kern_sum? (see nstats stats --help-reports)"
	run stats -r cuda_gpu_kern_sum:bsae ex.sqlite; rc_is 2; out_is ""
	err_is "nstats: error: report 'cuda_gpu_kern_sum': unknown argument 'bsae'; did you mean base? (see nstats stats --help-reports cuda_gpu_kern_sum)"
	# the filter arguments every report takes are names too
	run stats -r cuda_api_sum:strat=5 ex.sqlite; rc_is 2
	err_is "nstats: error: report 'cuda_api_sum': unknown argument 'strat'; did you mean start? (see nstats stats --help-reports cuda_api_sum)"
	run stats --help-reports nvtx_summ; rc_is 2; out_is ""
	err_is "nstats: error: report 'nvtx_summ' could not be found; did you mean nvtx_sum? (see nstats stats --help-reports)"
	# nothing close: no suggestion at all
	run stats -r frobnicate ex.sqlite; rc_is 2
	err_is "nstats: error: report 'frobnicate' could not be found (see nstats stats --help-reports)"
}
test_suggest_at_most_three() {
	# a prefix of many names: the first three, in catalog order
	run stats -r cuda_gpu_kern ex.sqlite; rc_is 2
	local want
	want=$("$NSTATS" stats --help-reports | sed -n 's/^  \(cuda_gpu_kern[a-z_]*\) -- .*/\1/p' | head -3 |
		paste -sd, | sed 's/,\([^,]*\)$/ or \1/; s/,/, /g')
	[[ $want == *" or "* ]] || fail "fewer than 2 reports start with cuda_gpu_kern: '$want'"
	err_is "nstats: error: report 'cuda_gpu_kern' could not be found; did you mean $want? (see nstats stats --help-reports)"
}
test_suggest_rule_diff_check() {
	run analyze -r gpu_gap ex.sqlite; rc_is 2; out_is ""
	err_is "nstats: error: rule 'gpu_gap' could not be found; did you mean gpu_gaps? (see nstats analyze --help-rules)"
	run diff -r kern_dif ex.sqlite ex.sqlite; rc_is 2; out_is ""
	err_is "nstats: error: report 'kern_dif' could not be found; did you mean kern_diff? (see nstats diff --help-reports)"
	run check -r cuda_api_summ ex.sqlite; rc_is 2; out_is ""
	err_is "nstats: error: check: report or rule 'cuda_api_summ' could not be found; did you mean cuda_api_sum? (see nstats stats --help-reports, nstats analyze --help-rules)"
}
test_suggest_format() {
	run stats -r cuda_api_sum -f cvs ex.sqlite; rc_is 2; out_is ""
	err_is "nstats: error: unknown format 'cvs'; did you mean csv?"
	run stats --help-formats jsno; rc_is 2; out_is ""
	err_is "nstats: error: unknown format 'jsno'; did you mean json?"
	run stats -r cuda_api_sum -f csv:nohd ex.sqlite; rc_is 2
	err_is "nstats: error: format 'csv': argument 'nohd': unknown argument; did you mean nohdr or nohdrunit?"
	# json has no nohdr: what it has instead
	run stats -r cuda_api_sum -f json:nohdr ex.sqlite; rc_is 2
	err_is "nstats: error: format 'json': argument 'nohdr': unknown argument; did you mean nohdrunit?"
	run stats -r cuda_api_sum -f csv:time=usecs ex.sqlite; rc_is 2
	err_is "nstats: error: format 'csv': argument 'time=usecs': unknown unit for this category; did you mean usec?"
	run stats -r cuda_api_sum -f csv:tmie=us ex.sqlite; rc_is 2
	err_is "nstats: error: format 'csv': argument 'tmie=us': unknown category; did you mean time?"
	run stats -r cuda_api_sum --timeunit usecs ex.sqlite; rc_is 2
	err_is "nstats: error: --timeunit: unknown unit 'usecs'; did you mean usec? (ns or nsec, us or usec, ms or msec, s, sec or seconds, or the start of one)"
}
test_suggest_option_command() {
	run stats --filtre-time 1/2 ex.sqlite; rc_is 2; out_is ""
	err_is "nstats: error: stats: unknown option '--filtre-time'; did you mean --filter-time? (see nstats stats --help)"
	run stats --filter-tim=1/2 ex.sqlite; rc_is 2
	err_is "nstats: error: stats: unknown option '--filter-tim'; did you mean --filter-time? (see nstats stats --help)"
	run check --stirct ex.sqlite; rc_is 2
	err_is "nstats: error: check: unknown option '--stirct'; did you mean --strict? (see nstats check --help)"
	run stat ex.sqlite; rc_is 2; out_is ""
	err_is "nstats: error: unknown command 'stat'; did you mean stats? (see nstats --help)"
	run anaylze ex.sqlite; rc_is 2
	err_is "nstats: error: unknown command 'anaylze'; did you mean analyze? (see nstats --help)"
	run frobnicate; rc_is 2
	err_is "nstats: error: unknown command 'frobnicate' (see nstats --help)"
}

# ---- time units, both spellings (D51) -------------------------------------------------------------

test_time_unit_spellings() {
	local us sec
	run stats -q -r cuda_api_sum -f csv:time=us ex.sqlite; rc_is 0; us=$OUT
	[[ ${us%%$'\n'*} == *"Total Time (us)"* ]] || fail "time=us header: '${us%%$'\n'*}'"
	local u
	for u in usec microseconds USEC; do
		run stats -q -r cuda_api_sum -f csv:time=$u ex.sqlite; rc_is 0; err_is ""; out_is "$us"
	done
	run stats -q -r cuda_api_sum -f csv:dur=usec ex.sqlite; rc_is 0; out_is "$us"
	for u in us usec u micro; do
		run stats -q -r cuda_api_sum -f csv --timeunit $u ex.sqlite; rc_is 0; err_is ""; out_is "$us"
	done
	run stats -q -r cuda_api_sum -f csv:time=sec ex.sqlite; rc_is 0; sec=$OUT
	[[ ${sec%%$'\n'*} == *"Total Time (sec)"* ]] || fail "time=sec header"
	for u in s seconds; do
		run stats -q -r cuda_api_sum -f csv:time=$u ex.sqlite; rc_is 0; out_is "$sec"
		run stats -q -r cuda_api_sum -f csv --timeunit $u ex.sqlite; rc_is 0; out_is "$sec"
	done
	# "mi" starts microseconds and milliseconds
	run stats -q -r cuda_api_sum --timeunit mi ex.sqlite; rc_is 2
	[[ $ERR == "nstats: error: --timeunit: unknown unit 'mi'"* ]] || fail "ambiguous prefix: '$ERR'"
}
test_time_unit_spellings_help() {
	run stats --help; out_has "ns or nsec, us or usec, ms or msec, s, sec"
	run stats --help-formats csv; rc_is 0
	out_has "us         microseconds (also usec, microseconds)"
	out_has "sec        seconds (also s, seconds)"
}

# ---- one line, not the usage (D52) ----------------------------------------------------------------

test_no_export_one_line() {
	run stats -r cuda_api_sum; rc_is 2; out_is ""
	err_is "nstats: error: stats: no export given (nstats stats --help shows the options)"
	run analyze -q; rc_is 2
	err_is "nstats: error: analyze: no export given (nstats analyze --help shows the options)"
	run check --strict; rc_is 2
	err_is "nstats: error: check: no export given (nstats check --help shows the options)"
	run stats ex.sqlite -r; rc_is 2; out_is ""
	err_is "nstats: error: stats: option '-r' needs a value"
	run stats ex.sqlite --filter-time; rc_is 2
	err_is "nstats: error: stats: option '--filter-time' needs a value"
	# no argument at all: the usage, as one exploring wants it
	run stats; rc_is 2; out_is ""; [[ $ERR == "usage: nstats stats "* ]] || fail "no usage: '${ERR:0:80}'"
	run check; rc_is 2; [[ $ERR == "usage: nstats check "* ]] || fail "no usage: '${ERR:0:80}'"
}

# ---- a --filter-time that misses the capture (D53) -----------------------------------------------

# "FIRST LAST": the first start and last end of every table with both columns, by sqlite3
capture_span() {
	local t lo='' hi='' a b
	for t in $(sqlite3 "$1" "SELECT name FROM sqlite_master WHERE type = 'table'"); do
		IFS='|' read -r a b < <(sqlite3 "$1" "SELECT min(start), max(coalesce(end, start)) FROM \"$t\"" 2>/dev/null) || continue
		[[ -n $a ]] || continue
		[[ -z $lo ]] || ((a < lo)) || a=$lo
		[[ -z $hi ]] || ((b > hi)) || b=$hi
		lo=$a hi=$b
	done
	echo "$lo $hi"
}
grouped() { sed ':a; s/\B[0-9]\{3\}\>/,&/; ta' <<<"$1"; }

test_filter_time_misses_capture() {
	local lo hi span empty
	read -r lo hi < <(capture_span "$WORK/ex.sqlite")
	((lo > 1000 && hi < 100000000000)) || fail "the capture's span is odd: $lo $hi"
	span="the capture spans $(grouped "$lo") ns to $(grouped "$hi") ns ($(awk -v v="$lo" 'BEGIN { printf "%.3g", v / 1e9 }') s to $(awk -v v="$hi" 'BEGIN { printf "%.3g", v / 1e9 }') s)"
	run stats -r cuda_api_sum,cuda_gpu_sum -f csv --filter-time 0/1 ex.sqlite; rc_is 0; empty=$OUT
	# stdout stays what nsys prints; the note comes once for the export, even with -q
	run stats -r cuda_api_sum,cuda_gpu_sum -f csv --filter-time 60.2/60.3 ex.sqlite; rc_is 0; out_is "$empty"
	err_is "nstats: note: ex.sqlite: --filter-time 60.2/60.3 (ns) overlaps nothing: $span"
	run stats -q -r cuda_api_sum -f csv --filter-time 60.2s/60.3s ex.sqlite; rc_is 0; out_is ""
	err_is "nstats: note: ex.sqlite: --filter-time 60.2s/60.3s overlaps nothing: $span"
	run stats -q -r cuda_api_sum -f csv --filter-time "$((hi + 1))/" ex.sqlite; rc_is 0
	err_is "nstats: note: ex.sqlite: --filter-time $((hi + 1))/ (ns) overlaps nothing: $span"
	# a window that touches the first start or the last end says nothing
	run stats -q -r cuda_api_sum -f csv --filter-time "/$lo" ex.sqlite; rc_is 0; err_is ""
	run stats -q -r cuda_api_sum -f csv --filter-time "$hi/" ex.sqlite; rc_is 0; err_is ""
	# per export, once each
	ln ex.sqlite "$WORK/ex2.sqlite" 2>/dev/null || cp "$WORK/ex.sqlite" "$WORK/ex2.sqlite"
	run stats -q -r cuda_api_sum,cuda_gpu_sum --filter-time 1/2 ex.sqlite ex2.sqlite; rc_is 0
	[[ $(grep -c "^nstats: note: ex.sqlite: --filter-time 1/2 (ns) overlaps nothing" <<<"$ERR") == 1 &&
	   $(grep -c "^nstats: note: ex2.sqlite: --filter-time 1/2 (ns) overlaps nothing" <<<"$ERR") == 1 &&
	   $(wc -l <<<"$ERR") == 2 ]] || fail "not one note per export: '$ERR'"
}

# ---- NVTX ranges by their printed name, and what is there when one is not (D53) ------------------

test_filter_nvtx_printed_form() {
	nvtx_export
	local want
	run stats -q -r nvtx_sum -f csv --filter-nvtx MPI_Irecv@MPI/1 nv.sqlite; rc_is 0; want=$OUT
	[[ $(wc -l <<<"$want") -gt 2 ]] || fail "MPI_Irecv@MPI/1 holds no rows: '$want'"
	# nvtx_sum prints it "MPI:MPI_Irecv"
	run stats -q -r nvtx_sum -f csv nv.sqlite; out_has ",MPI:MPI_Irecv"
	run stats -q -r nvtx_sum -f csv --filter-nvtx MPI:MPI_Irecv/1 nv.sqlite; rc_is 0; err_is ""; out_is "$want"
	# in a report argument a single ':' ends the argument: the printed form goes in quotes
	run stats -q -r 'nvtx_sum:nvtx="MPI:MPI_Irecv/1"' -f csv nv.sqlite; rc_is 0; err_is ""; out_is "$want"
	run stats -q -r nvtx_sum:nvtx=MPI:MPI_Irecv/1 -f csv nv.sqlite; rc_is 2
	err_is "nstats: error: report 'nvtx_sum': unknown argument 'MPI_Irecv/1' (see nstats stats --help-reports nvtx_sum)"
}
test_filter_nvtx_index_past_the_last() {
	nvtx_export
	local n
	n=$(sqlite3 "$WORK/nv.sqlite" "SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (59, 60, 70, 71)
		AND textId = (SELECT id FROM StringIds WHERE value = 'backward') AND text IS NULL")
	((n > 1)) || fail "backward has $n ranges"
	# stdout keeps nsys's SKIPPED line; the note says once what is there
	run stats -r osrt_sum,nvtx_sum --filter-nvtx "backward/$n" nv.sqlite; rc_is 0
	out_is "Processing [nv.sqlite] with [osrt_sum]... "$'\n'"SKIPPED: NVTX range 'backward/$n' could not be found in nv.sqlite."$'\n\n'"Processing [nv.sqlite] with [nvtx_sum]... "$'\n'"SKIPPED: NVTX range 'backward/$n' could not be found in nv.sqlite."
	err_is "nstats: note: nv.sqlite: --filter-nvtx backward/$n finds no range: there are $n ranges backward, /0 to /$((n - 1))"
	run stats -q -r osrt_sum --filter-nvtx "MPI:MPI_Irecv/99" nv.sqlite; rc_is 0
	[[ $ERR == "nstats: note: nv.sqlite: --filter-nvtx MPI:MPI_Irecv/99 finds no range: there are "*" ranges MPI_Irecv@MPI, /0 to /"*$'\n'"SKIPPED: NVTX range 'MPI:MPI_Irecv/99' could not be found in nv.sqlite." ]] ||
		fail "stderr is '$ERR'"
	# the last one is there: no note
	run stats -q -r osrt_sum --filter-nvtx "backward/$((n - 1))" nv.sqlite; rc_is 0; err_is ""
}
test_filter_nvtx_closest_names() {
	nvtx_export
	run stats -r osrt_sum --filter-nvtx backwrad nv.sqlite; rc_is 0
	out_is "Processing [nv.sqlite] with [osrt_sum]... "$'\n'"SKIPPED: NVTX range 'backwrad' could not be found in nv.sqlite."
	err_is "nstats: note: nv.sqlite: --filter-nvtx backwrad finds no range: did you mean backward?"
	# a range of a named domain, without its domain; with -q the note comes first
	run stats -q -r osrt_sum --filter-nvtx MPI_Irecv nv.sqlite; rc_is 0; out_is ""
	err_is "nstats: note: nv.sqlite: --filter-nvtx MPI_Irecv finds no range: did you mean MPI_Irecv@MPI?"$'\n'"SKIPPED: NVTX range 'MPI_Irecv' could not be found in nv.sqlite."
	run stats -q -r osrt_sum --filter-nvtx MPI:MPI_Irevc nv.sqlite; rc_is 0
	err_is "nstats: note: nv.sqlite: --filter-nvtx MPI:MPI_Irevc finds no range: did you mean MPI_Irecv@MPI?"$'\n'"SKIPPED: NVTX range 'MPI:MPI_Irevc' could not be found in nv.sqlite."
	# nothing close: nsys's message alone
	run stats -q -r osrt_sum --filter-nvtx nosuch nv.sqlite; rc_is 0
	err_is "SKIPPED: NVTX range 'nosuch' could not be found in nv.sqlite."
	# no NVTX data at all: the SKIPPED line says so, nothing more
	run stats -q -r osrt_sum --filter-nvtx backwrad ex.sqlite; rc_is 0
	err_is "SKIPPED: ex.sqlite does not contain OS Runtime trace data."
}

# ---- report arguments that carry ':' (D54) ---------------------------------------------------------

# nv.sqlite with its ranges 'backward' renamed flash_attn::_flash_attn_forward and 'validate'
# renamed a:b,c
op_export() {
	nvtx_export
	cp "$WORK/nv.sqlite" "$WORK/op.sqlite"
	sqlite3 "$WORK/op.sqlite" "UPDATE StringIds SET value = 'flash_attn::_flash_attn_forward' WHERE value = 'backward';
		UPDATE StringIds SET value = 'a:b,c' WHERE value = 'validate'"
}
test_argument_with_double_colons() {
	op_export
	local want
	run stats -q -r nvtx_sum -f csv --filter-nvtx backward nv.sqlite; rc_is 0
	want=$(sed 's/,backward$/,flash_attn::_flash_attn_forward/; s/,validate$/,"a:b,c"/' <<<"$OUT")
	[[ $want == *flash_attn::_flash_attn_forward* ]] || fail "backward is not in its own window: '$want'"
	run stats -q -r nvtx_sum -f csv --filter-nvtx flash_attn::_flash_attn_forward op.sqlite; rc_is 0; out_is "$want"
	run stats -q -r nvtx_sum:nvtx=flash_attn::_flash_attn_forward -f csv op.sqlite; rc_is 0; err_is ""; out_is "$want"
	run stats -q -r nvtx_sum:nvtx=flash_attn::_flash_attn_forward/0 -f csv op.sqlite; rc_is 0; out_is "$want"
	# an argument after such a value
	run stats -q -r cuda_gpu_kern_sum:nvtx=flash_attn::_flash_attn_forward:base -f csv op.sqlite; rc_is 0; err_is ""
	local base
	base=$OUT
	run stats -q -r cuda_gpu_kern_sum:base -f csv --filter-nvtx flash_attn::_flash_attn_forward op.sqlite; out_is "$base"
}
test_argument_in_quotes() {
	op_export
	local want
	run stats -q -r nvtx_sum -f csv --filter-nvtx validate nv.sqlite; rc_is 0
	want=$(sed 's/,backward$/,flash_attn::_flash_attn_forward/; s/,validate$/,"a:b,c"/' <<<"$OUT")
	[[ $want == *'"a:b,c"'* ]] || fail "validate is not in its own window: '$want'"
	run stats -q -r 'nvtx_sum:nvtx="a:b,c"' -f csv op.sqlite; rc_is 0; err_is ""; out_is "$want"
	# the quoted comma does not split -r's list; the one after it does
	run stats -q -r 'nvtx_sum:nvtx="a:b,c",nvtx_sum:nvtx="a:b,c"' -f csv op.sqlite; rc_is 0
	out_is "$want"$'\n\n'"$want"
	run stats -q -r 'nvtx_sum:nvtx="a:b' op.sqlite; rc_is 2; out_is ""
	err_is "nstats: error: report 'nvtx_sum': argument 'nvtx=\"a:b': the quote never closes"
}
test_argument_quoting_help() {
	run stats --help; out_has 'In an argument "::" belongs to the value (nvtx=ns::op), and a value'
	run stats --help-reports nvtx_sum; rc_is 0
	out_has $'      All also take start=NS, end=NS and nvtx=RANGE[@DOMAIN][/INDEX].\n      In an argument "::"'
}

# ---- a capture too big for the machine (NSTATS_MEMORY_LIMIT) ------------------------------------

test_memory_limit_refuses_before_reading() {
	NSTATS_MEMORY_LIMIT=1K run stats ex.sqlite; rc_is 1; out_is ""
	err_line '^nstats: error: ex\.sqlite: its tables take at least [0-9.]+ KiB of memory to read \([0-9]+ rows\), more than the 1\.0 KiB there are$'
	NSTATS_MEMORY_LIMIT=1K run report ex.sqlite -o page.html; rc_is 1
	[[ ! -e $WORK/page.html ]] || fail "a refused page was written"
	NSTATS_MEMORY_LIMIT=1G run stats -q -r cuda_gpu_kern_sum -f csv ex.sqlite; rc_is 0
	local want=$OUT
	run stats -q -r cuda_gpu_kern_sum -f csv ex.sqlite; rc_is 0; out_is "$want"
	# a value that is not a size is refused, not taken as no limit
	local bad
	for bad in 12X 1.5G G 0 99999999999999999999; do
		NSTATS_MEMORY_LIMIT=$bad run stats ex.sqlite; rc_is 2; out_is ""
		err_line "^nstats: error: NSTATS_MEMORY_LIMIT='$bad' is not a size: a number of bytes, or with K, M or G after it$"
	done
}

# ---- reader threads (NSTATS_READ_THREADS) --------------------------------------------------------

test_read_threads_checked() {
	run stats -q -r cuda_gpu_kern_sum -f csv ex.sqlite; rc_is 0
	local want=$OUT n bad
	for n in 0 1 2 3 64; do
		NSTATS_READ_THREADS=$n run stats -q -r cuda_gpu_kern_sum -f csv ex.sqlite; rc_is 0
		out_is "$want"
	done
	for bad in 65 -1 two 1.5 2K; do
		NSTATS_READ_THREADS=$bad run stats ex.sqlite; rc_is 2; out_is ""
		err_line "^nstats: error: NSTATS_READ_THREADS='$bad' is not a number of threads from 1 to 64 \\(0: the default\\)$"
	done
}
