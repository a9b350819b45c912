#!/bin/sh
# The order of a lesson's streams (issue #32, tests/fixtures/conv1d's pipeline stage): a probe of copy
# order between the legacy stream and a created stream (tests/gpu/stream_order.cu: the explicit event
# the worker now uses must never be wrong; how often the legacy order alone was wrong is printed), then
# the conv1d pipeline stage, as a fresh worker each time, at the sizes where its first chunk came out
# wrong before: every run must be correct.
. tests/lib.sh
$B device >/dev/null 2>&1
if [ $? -eq 3 ]; then skip "gpu stream_order: no GPU"; exit 0; fi
cuda=${CUDA_HOME:-/usr/local/cuda}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cc=$($B device --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["cc"])')
if $cuda/bin/nvcc -std=c++17 -arch=sm_$cc tests/gpu/stream_order.cu -o "$T/probe" >"$T/nvcc.log" 2>&1; then
	"$T/probe" "${STREAM_ORDER_TRIALS:-300}" >"$T/probe.out" 2>&1; rc=$?
	sed 's/^/    /' "$T/probe.out"
	if [ $rc -eq 0 ]; then pass "gpu stream_order probe: a copy on a created stream after an event on stream 0 always saw the stream-0 copy"
	else fail "gpu stream_order probe: exit $rc (the explicit event did not order the copies)"; fi
else
	fail "gpu stream_order probe: nvcc failed"; head -5 "$T/nvcc.log"
fi
L="--lessons tests/fixtures/conv1d"
for set in "n=7 R=64" "n=7 R=8" "n=1000 R=64" "n=1000003 R=5"; do
	args=""; for s in $set; do args="$args --set $s"; done
	bad=0 first=""
	i=0; while [ $i -lt "${STREAM_ORDER_RUNS:-12}" ]; do
		# shellcheck disable=SC2086
		$B $L run conv1d/pipeline $args --no-counters --reps 3 --json >"$T/r.json" 2>"$T/r.err"
		st=$(python3 -c 'import json,sys
try:
    r = json.load(open(sys.argv[1]))["results"][0]
    print("ok" if r.get("status") == "ok" and r.get("checked") and r.get("passed") else "%s first_bad %s: %s" % (r.get("status"), r.get("first_bad"), r.get("message", "")[:120]))
except Exception as e: print("nojson", e)' "$T/r.json")
		[ "$st" = ok ] || { bad=$((bad + 1)); [ -n "$first" ] || first=$st; }
		i=$((i + 1))
	done
	if [ $bad -eq 0 ]; then pass "gpu stream_order conv1d/pipeline at $set: $i of $i fresh runs correct"
	else fail "gpu stream_order conv1d/pipeline at $set: $bad of $i runs wrong ($first)"; fi
done
