#!/bin/sh
# Each lesson is scored in its own metric (#19): GFLOP/s (or TFLOP/s) for the compute-bound sgemm
# and tensorcore, GB/s for the others, in the bench table, its "Fastest stage" line and the JSON;
# no GFLOP/s column for a lesson without a flops model. No GPU needed: recorded results answer.
. tests/lib.sh
S=tests/cli/fixtures/replay-sgemm.json
R=tests/tui/fixtures/replay-bandwidth.json
# expect_not NAME EXIT PATTERN COMMAND...: the exit status, and output that does NOT match PATTERN.
expect_not() {
	name=$1 want=$2 pat=$3; shift 3
	out=$("$@" 2>&1); got=$?
	if [ "$got" != "$want" ]; then fail "$name: exit $got, expected $want"; printf '%s\n' "$out" | head -20 | sed 's/^/    /'; return; fi
	if printf '%s\n' "$out" | grep -Eq -- "$pat"; then fail "$name: output has /$pat/"; printf '%s\n' "$out" | grep -E -- "$pat" | head -5 | sed 's/^/    /'; return; fi
	pass "$name"
}
# The sgemm recording predates the tf32x3 stage: a bench of every stage exits 1 (a stage asked for
# is not in the recording) and shows the rest.
expect "sgemm bench: fastest stage in TFLOP/s" 1 "Fastest stage: warptile at 30\.4 TFLOP/s \(45% of the FP32 peak\)" $B --replay $S bench sgemm
expect_not "sgemm bench: fastest stage not in GB/s" 1 "Fastest stage: .* GB/s" $B --replay $S bench sgemm
expect "sgemm bench: GFLOP/s and its % of peak lead the table" 1 "^stage +median ms +\(min - max\) +GFLOP/s +%peak +GB/s " $B --replay $S bench sgemm
expect "sgemm bench: a row in GFLOP/s" 1 "^warptile +4\.5210 .* 30400\.0 +45\.4% +44\.5 " $B --replay $S bench sgemm
expect "sgemm bench: ratio to the baseline in the metric" 1 "^warptile .* 0\.72x" $B --replay $S bench sgemm
expect "sgemm bench: the model in flops" 1 "GFLOP/s counts the lesson's model \(2 \* m \* n \* k flops\)" $B --replay $S bench sgemm
expect "sgemm json: metric" 1 '^\{"schema": 1, "metric": "GFLOP/s", "device": ' $B --replay $S bench sgemm --json
expect "sgemm run json: metric" 0 '^\{"schema": 1, "metric": "GFLOP/s", "device": ' $B --replay $S run sgemm/warptile --json
expect "bandwidth bench: fastest stage in GB/s" 0 "Fastest stage: vectorized at 2990 GB/s \(96% of the copy attainable bandwidth\)" $B --replay $R bench bandwidth
expect "bandwidth bench: GB/s and its % of peak lead the table" 0 "^stage +median ms +\(min - max\) +GB/s +%peak +%theo +GFLOP/s " $B --replay $R bench bandwidth
expect "bandwidth json: metric" 0 '^\{"schema": 1, "metric": "GB/s", "device": ' $B --replay $R run bandwidth/coalesced --json
expect_not "transpose: no GFLOP/s column (no flops model)" 3 "^stage .*GFLOP/s" $B run transpose/naive --arch sm_90
expect "transpose: a GB/s table" 3 "^stage +median ms +\(min - max\) +GB/s +%peak" $B run transpose/naive --arch sm_90
expect_not "reduction: no GFLOP/s column (no flops model)" 3 "^stage .*GFLOP/s" $B run reduction/reduce0 --arch sm_90
expect "tensorcore: scored in GFLOP/s" 3 "^stage +median ms +\(min - max\) +GFLOP/s +%peak" $B run tensorcore/wmma_global --arch sm_90
