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

mkdir -p "$dir/export" "$dir/options" "$dir/text"
export_seed cuda --seed 1 --kernels 4 --memcpy 2 --memset 1 --kernel-names 3 --other-api 2
export_seed nvtx --seed 2 --kernels 3 --nvtx 3 --osrt 3 --backtrace
export_seed overlap --seed 3 --kernels 5 --streams 2 --overlap --processes 2

printf 'nothing\0' >"$dir/options/0"
printf '\0-r\ncuda_gpu_kern_sum:base,nvtx_sum\n-f\ncsv,json:time=us\n-o\nout\n--force-overwrite\nx.sqlite' >"$dir/options/1"
printf '\2-r\ngpu_gaps:gap=100\n-f\nhtable\n--filter-time\n1s/2s\nx.sqlite' >"$dir/options/2"
printf '\3-f\njson\n--strict\n-q\nx.sqlite' >"$dir/options/3"
printf '\1--filter-nvtx\nstep@app/3\n-r\ncuda_api_sum:start=5:end=9\n-f\ncolumn:nofmt:time=ms\nx.sqlite' >"$dir/options/4"
printf '\4-r\nkern_diff:tolerance=5,launch_diff\n--names\nbase\n--gate\n10\n--gate-min\n1ms\nx.sqlite\ny.sqlite' >"$dir/options/5"

text_seed time0 '\0' '1s2ms/2.5e6'
text_seed time1 '\0' '250us/'
text_seed nvtx '\1' 'step@app/3'
text_seed fmt0 '\2' 'column:time=us:nofmt:limit=5'
text_seed fmt1 '\2' 'csv:header=no:mem=KiB'
text_seed rep0 '\3' 'cuda_gpu_kern_sum:base:start=1:end=2:nvtx=x@y'
text_seed rep1 '\3' 'rgpu_gaps:gap=100:rows=-1'
