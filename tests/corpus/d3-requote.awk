# d3-requote.awk: reads a CSV that quotes the RFC 4180 way (what nstats writes) and writes it the
# way nsys 2024.2.3 does (docs/deviations.md D3): a field that holds a comma between double quotes,
# its own quotes not doubled; any other field raw, quotes, newlines and all. tests/corpus/run.sh
# compares the result with the reference's csv, so a case listed under D3 is checked for
# everything but the quoting. Run with LC_ALL=C.
{
	rec = pending ? rec "\n" $0 : $0
	# a record ends where its quotes are balanced (a quoted field may hold newlines)
	if (gsub(/"/, "\"", rec) % 2) { pending = 1; next }
	pending = 0
	if (index(rec, "\"") == 0) { print rec; next }
	out = ""; field = ""; inq = 0; nf = 0; n = length(rec)
	for (i = 1; i <= n; i++) {
		c = substr(rec, i, 1)
		if (inq) {
			if (c != "\"") field = field c
			else if (substr(rec, i + 1, 1) == "\"") { field = field "\""; i++ }
			else inq = 0
		} else if (c == "\"") inq = 1
		else if (c == ",") { out = out (nf++ ? "," : "") nsys(field); field = "" }
		else field = field c
	}
	print out (nf ? "," : "") nsys(field)
}
END { if (pending) printf "%s", rec }
function nsys(f) { return index(f, ",") ? "\"" f "\"" : f }
