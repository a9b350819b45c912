#!/bin/sh
# Every sentence true (#47): each number a lesson's text quotes (a figure with a unit: 1.9x, 47%,
# 0.2 ms, 3000 GB/s) comes from a {placeholder}, or names its card (H100, H200) and is within 10% of
# that card's recording in assets/recorded/, or is listed with its reason in
# tests/cli/text_numbers.allow (tests/cli/text_numbers.py says how). And no stall placeholder reads
# "not among the top stalls" under either card's recording: a text names the stalls its stage has.
. tests/lib.sh
if ! command -v python3 >/dev/null; then skip "text numbers: python3 is needed to read the JSON"; exit 0; fi
python3 tests/cli/text_numbers.py "$B" tests/cli/text_numbers.allow assets/recorded
for f in assets/recorded/h100/*.json assets/recorded/h200/*.json; do
	l=$(basename "$f" .json); l=${l##*-}
	case $l in *.*) continue;; esac
	bad=$($B --replay "$f" show "$l" 2>&1 | grep -c 'not among the top stalls')
	if [ "$bad" != 0 ]; then fail "text numbers: $l under $(basename "$f"): $bad stall placeholders name a stall not among the top three"
	else pass "text numbers: $l's stall placeholders under $(basename "$f") name top stalls"; fi
done
# The test can fail: a copy of the lessons with the texts #47 found wrong planted back.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp -r lessons "$tmp/lessons"; ln -s "$PWD/kernels" "$tmp/kernels"
sed -i 's/takes 1.8% off CUB.s time on the H100/takes 2.5% off CUB'"'"'s time on the H100/' "$tmp/lessons/reduction.yaml"
sed -i 's/vanish in 0.29 ms on the H100, 0.23 ms on the H200)/vanish in 0.2 ms)/' "$tmp/lessons/timing.yaml"
sed -i 's/one small chunk each: 4 MiB, 0.076 ms of copying at the 55$/one small chunk each (about 0.1 ms of copying)./; /^      GB\/s the H100 and the H200 both measured each way.$/d' "$tmp/lessons/streams.yaml"
sed -i 's/against its 1.08 GB (on both cards)/against its 1.68 GB (on both cards)/' "$tmp/lessons/precision.yaml"
sed -i 's/(barrier {stall_barrier}, long_scoreboard$/(barrier {stall_barrier}, lg_throttle {stall_lg_throttle}, long_scoreboard/' "$tmp/lessons/precision_gemm.yaml"
out=$(CUDACLIMB_LESSONS=$tmp python3 tests/cli/text_numbers.py "$B" tests/cli/text_numbers.allow assets/recorded 2>&1)
case $out in
*"reduction: 2.5% is no figure of the H100 recording"*) pass "text numbers: a wrong figure naming its card (reduction's 2.5%) is caught";;
*) fail "text numbers: a wrong figure (reduction's 2.5% on the H100) was not caught"; printf '%s\n' "$out" | grep -v ^PASS | head -5 | sed 's/^/    /';;
esac
case $out in
*"timing/first_launch: 0.2_ms is no figure of the H200 recording"*) pass "text numbers: a figure off one card's recording (first_launch's 0.2 ms, 0.23 on the H200) is caught";;
*) fail "text numbers: a figure off the H200's recording (first_launch's 0.2 ms) was not caught";;
esac
case $out in
*"precision/bf16: 1.68_GB is no figure of the H100 recording"*"precision/bf16: 1.68_GB is no figure of the H200 recording"*)
	pass "text numbers: a figure said of both cards is checked against each (precision's 1.08 GB made 1.68)";;
*) fail "text numbers: a figure said of both cards and off both recordings (precision's 1.68 GB) was not caught";;
esac
case $out in
*"streams/pipeline: 0.1_ms names no card"*) pass "text numbers: a figure naming no card (the pipeline's 0.1 ms) is caught";;
*) fail "text numbers: a figure naming no card (the pipeline's 0.1 ms) was not caught";;
esac
expect "text numbers: a stall not among the top three reads so, not 0%" 0 "lg_throttle not among the top stalls" \
	env CUDACLIMB_LESSONS="$tmp" $B show precision_gemm/fp16
