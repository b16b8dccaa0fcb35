# groundtruth.awk: compares report tables by their numbers, for ground-truth files that other nsys
# versions printed in other locales (POSIX awk; mawk and gawk both run it).
#
# Extract: awk -v report=R [-v csv=1] [-v ignore=1,4] -f groundtruth.awk GT GT
#   (the file twice: the first pass finds the decimal mark). Prints the rows of report R's first
#   table, one a line, fields TAB-separated, numbers plain ("1234.5"), column ignore=N left empty.
#   A text file's tables are found by their nsys titles ("Executing 'x' stats report",
#   " ** Title (x):", "Processing [..] with [../x.py]", the old "CUDA API Statistics:"), their
#   columns by the row of dashes under the header. csv=1: the whole file is R's CSV output.
# Match:   awk -v mode=match [-v tol=T] -f groundtruth.awk ROWS NSTATS.csv
#   0 when every extracted row has its own row in the CSV whose numbers include the row's numbers
#   (each within half a unit of its last shown digit, or T) and whose texts start with the row's
#   texts (a clipped "…" text matches by its prefix), with as many rows on both sides.

function canon(n) {
	if (n in OLD) return OLD[n]
	return n
}
function trim(s) { sub(/^[ \t\r]+/, "", s); sub(/[ \t\r]+$/, "", s); return s }
function isnum(s) { return s ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ }
# a number as the ground truth shows it, in plain C notation ("" when it is not one)
function plain(s,   t) {
	t = s
	if (t !~ /^-?[0-9][0-9.,]*$/) return isnum(t) ? t : ""
	if (DEC == ",") { gsub(/\./, "", t); sub(/,/, ".", t) } else gsub(/,/, "", t)
	return isnum(t) ? t : ""
}
function field(s,   p) { p = plain(s); if (s == "None" || s == "-") return ""; return p != "" ? p : s }
function emit(n, f,   i, line) {
	line = ""
	for (i = 1; i <= n; i++) line = line (i > 1 ? "\t" : "") ((i in IGN) ? "" : field(trim(f[i])))
	print line
	rows++
}
# splits one CSV line into f[1..n]; returns n
function csvsplit(s, f,   n, c, q, cur, i) {
	n = 0; cur = ""; q = 0
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (q) {
			if (c == "\"" && substr(s, i + 1, 1) == "\"") { cur = cur "\""; i++ }
			else if (c == "\"") q = 0
			else cur = cur c
		} else if (c == "\"") q = 1
		else if (c == ",") { f[++n] = cur; cur = "" }
		else cur = cur c
	}
	f[++n] = cur
	return n
}
# a title line names the report of the table below it
function title(s,   t) {
	if (match(s, /Executing '[a-z_]+' stats report/)) { t = substr(s, RSTART + 11); sub(/'.*/, "", t); return canon(t) }
	if (match(s, /^ \*\* .*\([a-z_]+\):/)) { t = substr(s, RSTART, RLENGTH - 2); sub(/.*\(/, "", t); return canon(t) }
	if (match(s, /with \[[^]]*\/[a-z_]+\.py\]/)) { t = substr(s, RSTART, RLENGTH - 4); sub(/.*\//, "", t); return canon(t) }
	if (s ~ /^CUDA API Statistics:/) return "cuda_api_sum"
	if (s ~ /^CUDA Kernel Statistics:/) return "cuda_gpu_kern_sum"
	if (s ~ /^CUDA Memory Operation Statistics \(by time\)/) return "cuda_gpu_mem_time_sum"
	if (s ~ /^CUDA Memory Operation Statistics \(by size/) return "cuda_gpu_mem_size_sum"
	if (s ~ /^Operating System Runtime API Statistics:/) return "osrt_sum"
	if (s ~ /^CUDA Kernel & Memory Operations Trace:/) return "cuda_gpu_trace"
	if (s ~ /^NVTX Push-Pop Range Statistics:/) return "-"
	return ""
}

BEGIN {
	split("nvtxsum:nvtx_sum osrtsum:osrt_sum cudaapisum:cuda_api_sum gpukernsum:cuda_gpu_kern_sum " \
	      "gpumemtimesum:cuda_gpu_mem_time_sum gpumemsizesum:cuda_gpu_mem_size_sum " \
	      "cudaapitrace:cuda_api_trace gputrace:cuda_gpu_trace kernexectrace:cuda_kern_exec_trace " \
	      "kernexecsum:cuda_kern_exec_sum gpusum:cuda_gpu_sum apigpusum:cuda_api_gpu_sum", pairs, " ")
	for (i in pairs) { split(pairs[i], kv, ":"); OLD[kv[1]] = kv[2] }
	n = split(ignore, ig, ",")
	for (i = 1; i <= n; i++) if (ig[i] != "") IGN[ig[i] + 0] = 1
	DEC = "."; state = 0; rows = 0
	if (tol == "") tol = 0
}

# ---- extract ----
mode != "match" && FNR == 1 { pass++ }
mode != "match" {
	line = $0
	if (FILENAME ~ /\.ipynb$/) {   # a notebook's output lines are JSON strings
		if (line !~ /^[ \t]*"/) next
		sub(/^[ \t]*"/, "", line); sub(/(\\n)?",?[ \t]*$/, "", line); gsub(/\\"/, "\"", line)
	}
	sub(/\r$/, "", line)
}
mode != "match" && pass == 1 {
	if (line ~ /^ +-?[0-9]+,[0-9] +/) DEC = ","   # a "Time (%)" of 23,0: decimal comma
	next
}
mode != "match" && csv {
	if (FNR == 1) next   # the header
	if (trim(line) == "") next
	n = csvsplit(line, f); emit(n, f); next
}
mode != "match" && state == 2 {   # rows of the wanted table
	if (trim(line) == "") { state = 3; next }
	for (i = 1; i <= ncol; i++) f[i] = substr(line, cs[i], (i < ncol ? ce[i] - cs[i] + 1 : length(line)))
	emit(ncol, f); next
}
mode != "match" && state < 2 {
	t = title(line)
	if (t != "") { cur = t; state = (t == report ? 1 : 0); next }
	if (state == 1 && line ~ /^ *-+( +-+)* *$/) {   # the dashes under the header give the columns
		ncol = 0; inrun = 0
		for (i = 1; i <= length(line); i++) {
			c = substr(line, i, 1)
			if (c == "-" && !inrun) { cs[++ncol] = i; inrun = 1 }
			if (c != "-" && inrun) { ce[ncol] = i - 1; inrun = 0 }
		}
		if (inrun) ce[ncol] = length(line)
		state = 2
	}
	next
}

# ---- match: ROWS then the nstats CSV ----
mode == "match" && FNR == NR { want[++nw] = $0; next }
mode == "match" && FNR == 1 { next }   # the CSV header
mode == "match" {
	if (trim($0) == "") next
	nh = csvsplit($0, f); have[++nv] = ""
	for (i = 1; i <= nh; i++) {
		v = trim(f[i])
		if (isnum(v)) { hn[nv, ++hnn[nv]] = v; if (v ~ /^-?[0-9]+$/) byint[v] = byint[v] " " nv }
		else if (v != "") ht[nv, ++htn[nv]] = v
	}
}
function digits_tol(s,   d) { d = index(s, ".") ? length(s) - index(s, ".") : 0; return 0.5 / (10 ^ d) + 1e-9 }
function abs(x) { return x < 0 ? -x : x }
# does nstats row r hold the numbers and texts of wanted row w?
function fits(r, w,   n, g, i, j, used, ok, v, p) {
	n = split(want[w], g, "\t")
	for (j = 1; j <= hnn[r]; j++) used[j] = 0
	for (i = 1; i <= n; i++) {
		if (g[i] == "") continue
		ok = 0
		if (isnum(g[i])) {
			for (j = 1; j <= hnn[r]; j++)
				if (!used[j] && abs(hn[r, j] - g[i]) <= digits_tol(g[i]) + tol) { used[j] = 1; ok = 1; break }
		} else {
			p = g[i]; sub(/…$/, "", p)
			for (j = 1; j <= htn[r]; j++) if (index(ht[r, j], p) == 1) { ok = 1; break }
		}
		if (!ok) return 0
	}
	return 1
}
END {
	if (mode != "match") { exit rows == 0 }
	if (nw != nv) { printf "%d rows in the ground truth, %d in nstats\n", nw, nv; exit 1 }
	for (w = 1; w <= nw; w++) {
		# rows holding the first whole number of the wanted row, or every row
		n = split(want[w], g, "\t"); key = ""
		for (i = 1; i <= n; i++) if (g[i] ~ /^-?[0-9]+$/) { key = g[i]; break }
		if (key != "") m = split(byint[key], cand, " ")
		else { m = nv; for (i = 1; i <= nv; i++) cand[i] = i }
		found = 0
		for (i = 1; i <= m && !found; i++) if (!(cand[i] in taken) && fits(cand[i], w)) { taken[cand[i]] = 1; found = 1 }
		if (!found) { gsub(/\t/, " | ", want[w]); printf "no nstats row has: %s\n", want[w]; exit 1 }
	}
	exit 0
}
