#!/bin/sh
# The report of fair timing over real recordings (tests/fixtures/recorded/h100-0493c88-*-timing.json,
# bench --stage on an H100): the Timing table with the SM clock, FLOP/cycle beside TFLOP/s and the
# per-pair ratio [p20, p80]; the board's power (W, median and highest) where it was read, "-" in these
# recordings from before it was; the method with the L2 flush where it was done (sgemm) and not (bandwidth:
# its poisoning covers it); the inputs; --json keeps the fields. No GPU needed.
. tests/lib.sh
S=tests/fixtures/recorded/h100-0493c88-sgemm-timing.json
W=tests/fixtures/recorded/h100-0493c88-bandwidth-timing.json
expect "timing: warptile's row: clock, FLOP/cycle, the ratio per pair, the baseline's clock and FLOP/cycle" 0 \
	"^warptile +69 +46\.7 +1980 \(1980-1980\) +- +178\.7  baseline 0\.905x \[0\.903, 0\.909\] +2\.6669 +1980 +197\.2$" \
	$B --replay $S bench sgemm --stage warptile --no-counters
expect "timing: the baseline's own row" 0 "^baseline +145 +51\.6 +1980 \(1980-1980\) +- +197\.4  - " $B --replay $S bench sgemm --stage warptile --no-counters
expect "timing: sgemm's L2 flushed, outside the events" 0 "^L2 flushed before each repetition, outside the events, by writing 105 MB \(2x its size\)" \
	$B --replay $S bench sgemm --stage warptile --no-counters
expect "timing: the inputs" 0 "^Inputs: A, B: f32, uniform in \[-1, 1\]; seed 16786970649088045269\.$" $B --replay $S bench sgemm --stage warptile --no-counters
expect "timing: the fastest stage's ratio per pair" 0 "Fastest stage: warptile at 46\.7 TFLOP/s .* in the same run; 0\.905x \[0\.903, 0\.909\] per pair" \
	$B --replay $S bench sgemm --stage warptile --no-counters
expect "timing: bandwidth's poisoning covers the L2" 0 "^L2 not flushed apart: the outputs' poisoning writes at least twice its size" \
	$B --replay $W bench bandwidth --stage coalesced --no-counters
expect "timing: a memcpy baseline has no FLOP/cycle" 0 "^baseline +[0-9]+ +[0-9]+ +1980 \(1980-1980\) +- +-  - " $B --replay $W bench bandwidth --stage coalesced --no-counters
expect "timing: --json keeps the clock, the pair and the flush" 0 '"pair": "baseline".*"sm_clock_mhz": 1980.*"flop_per_cycle_sm": 178\.67.*"l2_flush": 1' \
	$B --replay $S bench sgemm --stage warptile --no-counters --json
# The power column and its line of the method, from a copy of the recording with power planted.
P=$(mktemp); trap 'rm -f "$P"' EXIT
sed 's/"sm_clock_mhz": 1980,/"sm_clock_mhz": 1980, "power_w": 612.4, "power_max_w": 655.9,/' $S >"$P"
expect "timing: the power beside the clock" 0 "^warptile +69 +46\.7 +1980 \(1980-1980\) +612 \(656\) +178\.7  baseline" \
	$B --replay "$P" bench sgemm --stage warptile --no-counters
expect "timing: the method says how the power was read" 0 "^board power \(W: median and highest\) read through NVML beside the clock" \
	$B --replay "$P" bench sgemm --stage warptile --no-counters
expect "bench --stage: an unknown stage is refused" 2 "no stage 'nosuch' in this lesson" $B --replay $S bench sgemm --stage nosuch
