#!/bin/sh
# Unknown names get the nearest known one (#51 item 8), from the same helper as misspelt stage names:
# a --set name (N for n, BLOK for BLOCK) and a text placeholder ({gbsp} for {gbps}).
. tests/lib.sh
expect "nearest: --set N= suggests n" 2 "unknown setting 'N' for bandwidth/coalesced; did you mean 'n'\?" $B run bandwidth/coalesced --set N=5
expect "nearest: --set BLOK= suggests BLOCK" 2 "unknown setting 'BLOK' for bandwidth/coalesced; did you mean 'BLOCK'\?" $B run bandwidth/coalesced --set BLOK=5
expect "nearest: a name near none gets the list only" 2 "unknown setting 'TILE' for bandwidth/coalesced \(known: BLOCK, n, a\)" $B run bandwidth/coalesced --set TILE=5
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
mkdir -p "$T/lessons" "$T/kernels"
cp lessons/bandwidth.yaml "$T/lessons/"; cp -r kernels/bandwidth "$T/kernels/"
sed -i '0,/{gbps}/s/{gbps}/{gbsp}/' "$T/lessons/bandwidth.yaml"
expect "nearest: a placeholder {gbsp} suggests gbps, at file:line:col" 4 \
	"bandwidth.yaml:[0-9]+:[0-9]+: unknown measurement '\{gbsp\}' in the text; did you mean 'gbps'\?" $B --lessons "$T" check --arch sm_90
# A text's {time_vs_ID} names a stage: a misspelt one gets the nearest stage's name (#46 item 4).
cp tests/fixtures/gemv/lessons/gemv.yaml "$T/lessons/bandwidth.yaml"
mkdir -p "$T/kernels/gemv"; cp tests/fixtures/gemv/kernels/gemv/* "$T/kernels/gemv/"
sed -i 's/explain: "One thread per row:/explain: "{speedup_vs_naiv}. One thread per row:/' "$T/lessons/bandwidth.yaml"
expect "nearest: a text's {speedup_vs_naiv} names no stage, and suggests speedup_vs_naive" 4 \
	"bandwidth.yaml:[0-9]+:[0-9]+: '\{speedup_vs_naiv\}' in the text names no stage of this lesson \('naiv'\); did you mean 'speedup_vs_naive'\?" $B --lessons "$T" list
