# tests/cli/cases/completion.sh: `nstats completion bash`, sourced in a bash of its own, completes
# command lines as nstats's --help, --help-reports, --help-rules and --help-formats list them. The
# expected words are read off that help text here, not off the script, so an option, report or
# format added to the tables must show up in both.

# completes WORD...: what bash offers (COMPREPLY, sorted, one a line) for the last WORD of the
# command line WORD..., in WORK, with the script sourced and its function found through `complete`
completes() {
	(cd "$WORK" && bash --norc --noprofile -c '
		source "$1" || exit 9
		fn=$(complete -p nstats 2>/dev/null | sed -n "s/.* -F \([^ ]*\) nstats$/\1/p")
		[[ -n $fn ]] || { echo "no completion registered for nstats"; exit 9; }
		shift
		COMP_WORDS=("$@") COMP_CWORD=$(($# - 1)) COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}
		"$fn" nstats "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		((${#COMPREPLY[@]})) && printf "%s\n" "${COMPREPLY[@]}"
		true' _ "$WORK/nstats.bash" "$@") | sort
}

# The words of nstats's own help, each list sorted
help_commands() { "$NSTATS" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }'; }
help_options() { # CMD: every -s and --long that `nstats CMD --help` lists
	"$NSTATS" "$1" --help | sed -n -E 's/^  (-([a-zA-Z]), |    )--([a-z-]+).*/-\2 --\3/p' |
		tr ' ' '\n' | grep -v '^-$'
}
help_list() { # CMD LIST-OPTION: the names `nstats CMD --LIST-OPTION` lists
	"$NSTATS" "$1" "--$2" | sed -n -E 's/^  ([a-z_0-9]+) (--|  ).*/\1/p'
}
help_metavar() { # CMD LONG: the words of the option's metavar in `nstats CMD --help` (a|b|c)
	"$NSTATS" "$1" --help | sed -n -E "s/^  (-., |    )--$2 \\[?([a-z|]+)\\]?\$/\\2/p" | tr '|' '\n'
}
starting() { grep -E "^$1" | sort; } # PREFIX: the lines that start with it

# expect WANT WORD...: the completion of WORD... is exactly WANT (lines), and not nothing
expect() {
	local want=$1 got
	shift
	got=$(completes "$@")
	[[ -n $want ]] || fail "'$*': the help text lists nothing to expect"
	[[ $got == "$want" ]] || fail "'$*' completes to '${got//$'\n'/ }', expected '${want//$'\n'/ }'"
}

completion_script() {
	run completion bash; rc_is 0; err_is ""
	printf '%s\n' "$OUT" >"$WORK/nstats.bash"
}

test_completion_commands() {
	completion_script
	expect "$(help_commands | starting st)" nstats st
	expect "$(help_commands | sort)" nstats ''
	expect "$(help_options stats | starting --fil)" nstats stats --fil
	expect "$(help_options check | starting -)" nstats check -
	expect "$(help_options diff | starting --gate)" nstats diff --gate
}
test_completion_names() {
	completion_script
	expect "$(help_list stats help-reports | starting cuda_gpu_k)" nstats stats -r cuda_gpu_k
	expect "$(help_list stats help-reports | starting nvtx_)" nstats stats --report nvtx_
	expect "$(help_list analyze help-rules | starting gpu_)" nstats analyze -r gpu_
	expect "$(help_list diff help-reports | starting ke)" nstats diff -r ke
	expect "$(help_list stats help-formats | starting cs)" nstats stats -f cs
	expect "$(help_list diff help-formats | sort)" nstats diff --format ''
	# a list: the last element completes, after the ones before it
	expect "$(help_list stats help-formats | starting j | sed 's/^/csv,/')" nstats stats -f csv,j
	expect "$(help_metavar stats timeunit | starting m)" nstats stats --timeunit m
	expect "$(help_metavar check format | sort)" nstats check -f ''
	expect "$(help_metavar diff names | sort)" nstats diff --names ''
	# --help-reports=NAME, as bash splits it at the '='
	expect "$(help_list analyze help-rules | starting cuda_memcpy)" nstats analyze --help-rules = cuda_memcpy
}
test_completion_files() {
	completion_script
	mkdir "$WORK/runs"
	touch "$WORK/a.nsys-rep" "$WORK/b.pt.trace.json" "$WORK/c.json.gz" "$WORK/notes.txt"
	expect "$(printf '%s\n' a.nsys-rep b.pt.trace.json c.json.gz ex.sqlite runs/ | sort)" nstats stats ''
	expect "$(printf '%s\n' ex.sqlite)" nstats diff -q a.nsys-rep e
	expect "notes.txt" nstats stats -o no
	run completion zsh; rc_is 2; out_is ""; err_line "^nstats: error: completion: .*bash"
}
