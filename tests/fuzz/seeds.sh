#!/usr/bin/env bash
# tests/fuzz/seeds.sh DIR NSYSGEN: the seed corpus of each harness, made
# once into DIR/NAME (never committed: the export seeds are generated).
# Export seeds are small nsysgen fixtures without the enum tables that no
# report reads, so that libFuzzer's mutations land on rows that matter.
set -euo pipefail
dir=$1 gen=$2
keep="'ENUM_CUDA_MEMCPY_OPER','ENUM_CUDA_MEM_KIND','ENUM_D3D12_HEAP_TYPE','ENUM_D3D12_PAGE_PROPERTY','ENUM_NET_DEVICE_ID','ENUM_NSYS_EVENT_TYPE','ENUM_WDDM_ENGINE_TYPE'"

export_seed() { # export_seed NAME NSYSGEN-OPTION...
	local out=$dir/export/$1
	shift
	[[ -s $out ]] && return
	"$gen" --quiet --force -o "$out.tmp" "$@" >/dev/null
	sqlite3 "$out.tmp" "SELECT 'DROP TABLE ' || name || ';' FROM sqlite_master WHERE type = 'table'
		AND name LIKE 'ENUM\_%' ESCAPE '\' AND name NOT IN ($keep)" | sqlite3 "$out.tmp"
	sqlite3 "$out.tmp" "PRAGMA page_size = 512; VACUUM"
	mv "$out.tmp" "$out"
}

text_seed() { # text_seed NAME SELECTOR TEXT: the text harness picks its parser by the first byte
	printf '%b%s' "$2" "$3" >"$dir/text/$1"
}

mkdir -p "$dir/export" "$dir/pages" "$dir/options" "$dir/text" "$dir/kineto" "$dir/part"
export_seed cuda --seed 1 --kernels 4 --memcpy 2 --memset 1 --kernel-names 3 --other-api 2
export_seed nvtx --seed 2 --kernels 3 --nvtx 3 --osrt 3 --backtrace
export_seed overlap --seed 3 --kernels 5 --streams 2 --overlap --processes 2
# the page reader's harness starts from the same exports, and one whose call results take every
# integer width of the record format, negative (sign extension) and positive
for f in "$dir"/export/*; do [[ -e $dir/pages/${f##*/} ]] || cp "$f" "$dir/pages/"; done
if [[ ! -s $dir/pages/widths ]]; then
	cp "$dir/export/cuda" "$dir/pages/widths.tmp"
	sqlite3 "$dir/pages/widths.tmp" "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET returnValue =
		(CASE rowid % 2 WHEN 0 THEN -1 ELSE 1 END) * (CASE rowid % 7 WHEN 0 THEN 100
		WHEN 1 THEN 30000 WHEN 2 THEN 8000000 WHEN 3 THEN 2000000000 WHEN 4 THEN 100000000000000
		WHEN 5 THEN 9000000000000000000 ELSE 1 END); VACUUM"
	mv "$dir/pages/widths.tmp" "$dir/pages/widths"
fi

printf 'nothing\0' >"$dir/options/0"
printf '\0-r\ncuda_gpu_kern_sum:base,nvtx_sum\n-f\ncsv,json:time=us\n-o\nout\n--force-overwrite\nx.sqlite' >"$dir/options/1"
printf '\2-r\ngpu_gaps:gap=100\n-f\nhtable\n--filter-time\n1s/2s\nx.sqlite' >"$dir/options/2"
printf '\3-f\njson\n--strict\n-q\nx.sqlite' >"$dir/options/3"
printf '\1--filter-nvtx\nstep@app/3\n-r\ncuda_api_sum:start=5:end=9\n-f\ncolumn:nofmt:time=ms\nx.sqlite' >"$dir/options/4"
printf '\0--report-dir\nrd\n-r\nmine:start=1:end=9,bad,legacy\n--query-limit\n0.5\n-f\ncsv:time=us\n--force-export\nfalse\nx.sqlite' >"$dir/options/6"
printf '\1--report-dir\nrd\n--help-reports\nmine\n--sqlite\ny.sqlite\n--force-export\nx.nsys-rep' >"$dir/options/7"
printf '\2--sqlite\ny.sqlite\n--force-export=true\n-r\ngpu_gaps\nx.nsys-rep' >"$dir/options/8"
printf '\4-r\nkern_diff:tolerance=5,launch_diff\n--names\nbase\n--gate\n10\n--gate-min\n1ms\nx.sqlite\ny.sqlite' >"$dir/options/5"

text_seed time0 '\0' '1s2ms/2.5e6'
text_seed time1 '\0' '250us/'
text_seed nvtx '\1' 'step@app/3'
text_seed fmt0 '\2' 'column:time=us:nofmt:limit=5'
text_seed fmt1 '\2' 'csv:header=no:mem=KiB'
text_seed rep0 '\3' 'cuda_gpu_kern_sum:base:start=1:end=2:nvtx=x@y'
text_seed rep1 '\3' 'rgpu_gaps:gap=100:rows=-1'

# PyTorch profiler traces: the real ones of shared/data decompressed (those over 40 KB cut to their
# first 12 events of each phase and category, and their metadata), and the small hand-made ones of
# tests/hostile/make-bad-traces.sh that are read (its refused ones are regressions' business)
shared=${NSTATS_SHARED:-$(cd "$(dirname "$0")/../.." && pwd)/../shared}
if [[ -d $shared/data/real && -z $(ls "$dir/kineto" | grep '^real-') ]]; then
	find "$shared/data/real" -name '*.json.gz' | sort | python3 -c '
import gzip, json, os, sys
for path in sys.stdin.read().split():
    text = gzip.open(path).read()
    if len(text) > 40000:
        t = json.loads(text)
        seen, kept = {}, []
        for e in t["traceEvents"]:
            kind = (e.get("ph"), e.get("cat"))
            seen[kind] = seen.get(kind, 0) + 1
            if seen[kind] <= 12 or e.get("ph") == "M":
                kept.append(e)
        t["traceEvents"] = kept
        t.pop("INFO", None)
        text = json.dumps(t, indent=1).encode()
    name = os.path.basename(path)[:-len(".json.gz")]
    open(os.path.join(sys.argv[1], "real-" + name), "wb").write(text)
' "$dir/kineto"
fi
if [[ ! -s $dir/kineto/made-valid ]]; then
	tmp=$(mktemp -d)
	"$(dirname "$0")/../hostile/make-bad-traces.sh" "$tmp"
	for f in "$tmp"/read-trace-*; do
		b=${f##*/}
		b=${b#read-trace-}
		# 4 MiB, beyond the harness's inputs; the same text as valid
		[[ $b == long-tokens* || $b == plain* || $b == misnamed* ]] && continue
		b=${b%.gz}
		b=${b%.json}
		b=${b%.sqlite}
		if [[ $f == *.gz ]]; then gzip -dc "$f"; else cat "$f"; fi >"$dir/kineto/made-$b"
	done
	rm -rf "$tmp"
fi

# recipe parts: the harness puts a valid header before input whose first byte is odd; a part with no
# ranks and no records, one with a rank, one with a group of two values
printf '\1\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0' >"$dir/part/empty"
printf '\1\1\0\0\0\0\0\0\0\0\0\0\0\0\0\0\1\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0' >"$dir/part/rank"
printf '\1\0\0\0\0\0\0\0\0\1\0\0\0\0\0\0\0\0\0\1\0\0\0\0\1\0\0\0\0\0\2\0\0\0\0\0\0\0\3\1\0\0\0\0\0\0\0x\5\0\0\0\0\0\0\0\7\0\0\0\0\0\0\0' >"$dir/part/group"
