#!/bin/sh
# --roofline (run, bench): the chart after the table, in 80 columns, from the recorded H100 runs
# (--replay, no GPU needed); --json gives every result a "roofline" object and stays replayable.
. tests/lib.sh
S=tests/fixtures/recorded/h100-1707a90-sgemm.json
T=tests/fixtures/recorded/h100-1707a90-tensorcore.json
D=tests/fixtures/recorded/h100-e80026b-reduction.json
export LANG=C.UTF-8
# (exit 1: the recording has no tf32x3, a stage the bench asks for; the rest is drawn)
expect "roofline: bench sgemm, the chart's title" 1 "^Roofline of sgemm on NVIDIA H100 80GB HBM3 \(numbers: stages, B: baseline\)$" $B --replay $S bench sgemm --roofline
expect "roofline: bench sgemm, the fastest stage's line" 1 "^stage 9: 46.8 TFLOP/s at 331 flop/B \(DRAM\), bound by compute, 70% of the roof$" $B --replay $S bench sgemm --roofline
expect "roofline: bench sgemm, the roofs" 1 "^GFLOP/s  roofs: DRAM 2994 GB/s attainable, FP32 66.9 TFLOP/s; ridge 22.3 flop/B$" $B --replay $S bench sgemm --roofline
expect "roofline: bench sgemm, the names" 1 "^7 bankfree  8 cpasync  9 warptile  B cublasSgemm$" $B --replay $S bench sgemm --roofline
w=$($B --replay $S bench sgemm --roofline | sed -n '/^Roofline of/,$p' | wc -L)
if [ "$w" -le 80 ]; then pass "roofline: the chart fits 80 columns"; else fail "roofline: the chart is $w columns wide"; fi
n=$($B --replay $S bench sgemm --roofline | sed -n '/^Roofline of/,$p' | wc -l)
if [ "$n" -le 23 ]; then pass "roofline: the chart fits 24 lines"; else fail "roofline: the chart is $n lines"; fi
expect "roofline: run one stage, memory-bound" 0 "^stage 1: 498 GFLOP/s at 16.1 flop/B \(DRAM\), bound by memory, 1.0% of the roof$" $B --replay $S run sgemm/naive --roofline
expect "roofline: the tensor-core lesson against its BF16 roof" 0 "bound by compute, 65% of the roof$" $B --replay $T run tensorcore/wgmma_ws --roofline
expect "roofline: BF16 tensor roof" 0 "BF16 tensor 1071 TFLOP/s" $B --replay $T run tensorcore/wgmma_ws --roofline
out=$($B --replay $S run sgemm/warptile --roofline --ascii | sed -n '/^Roofline of/,$p')
if printf '%s\n' "$out" | LC_ALL=C grep -q '[^ -~]'; then fail "roofline --ascii: only ASCII"; printf '%s\n' "$out" | head -5; else pass "roofline --ascii: only ASCII"; fi
expect "roofline --ascii: the ridge and the roofs" 0 "///.*:" $B --replay $S run sgemm/warptile --roofline --ascii
expect "roofline: a lesson without flops says why" 0 "^stage 1: no flops in the lesson's model, so no point \(it is scored in GB/s\)$" $B --replay $D bench reduction --roofline
expect "roofline: no GPU: no roofs, and why" 3 "^no peaks to draw the roofs from: no GPU" env CUDA_VISIBLE_DEVICES= $B run bandwidth/coalesced --roofline
expect "roofline: not without the option" 0 "^sgemm - FP32" $B --replay $S run sgemm/9
if $B --replay $S run sgemm/9 | grep -q "^Roofline"; then fail "roofline: no chart without --roofline"; else pass "roofline: no chart without --roofline"; fi
# JSON: a roofline object per result (null where there is no point), and the file replays
expect "roofline --json: warptile's fields" 0 "\"roofline\": \{\"intensity\": 331\.4[0-9]*, \"bytes\": \"dram\", \"gflops\": 46767\.[0-9]*, \"bound\": \"compute\", \"roof_gflops\": 66908\.16[0-9]*, \"pct_of_roof\": 69\.89" $B --replay $S run sgemm/9 --json
expect "roofline --json: naive memory-bound" 0 "\"bound\": \"memory\", \"roof_gflops\": 4825[0-9.]*, \"pct_of_roof\": 1\.03" $B --replay $S run sgemm/1 --json
expect "roofline --json: null without flops" 0 "\"roofline\": null\}" $B --replay $D run reduction/reduce0 --json
tmp=$(mktemp)
$B --replay $S bench sgemm --json >"$tmp" 2>/dev/null
expect "roofline --json: the output replays" 0 "^warptile .* 46767\.0 " $B --replay "$tmp" run sgemm/warptile
rm -f "$tmp"
