#!/bin/sh
# Save-to-verdict latency of `cudaclimb watch`, a benchmark (not a test): the learner's file is the
# stage's own kernel (so every check runs and the verdict is a pass), saved N times unchanged
# (the compile comes from the cache) and N times with a new comment (a cold compile). watch prints
# "verdict in N ms after the save", measured from the moment it notices the save to the verdict on
# screen; the diagnosis runs after that and is waited for before the next save.
# Usage: scripts/watch-latency.sh [LESSON/STAGE] [N]      (default bandwidth/coalesced, 8)
set -u
B=${CUDACLIMB:-build/cudaclimb}
ex=${1:-bandwidth/coalesced}
n=${2:-8}
tmp=$(mktemp -d); trap 'kill $wp 2>/dev/null; rm -rf "$tmp"' EXIT
export CUDACLIMB_WORK=$tmp/work
lesson=${ex%/*} stage=${ex#*/}
kernel=kernels/$lesson/$($B show "$lesson" | sed -n "s/^[0-9]*\. $stage - .*\[\(.*\), .*\]\$/\1/p")
[ -f "$kernel" ] || { echo "no stage $ex"; exit 2; }
cp "$kernel" "$tmp/mine.cu"
export CUDACLIMB_TRACE=$tmp/trace     # each job's submit-to-result time, for where the time goes
$B watch "$ex" "$tmp/mine.cu" >"$tmp/out" 2>&1 &
wp=$!
# wait_tries K: until watch has finished K tries (its "(try K) watching" line), at most 60 s.
wait_tries() { t=0; while [ $t -lt 600 ] && [ "$(grep -c ') watching ' "$tmp/out")" -lt "$1" ]; do sleep 0.1; t=$((t + 1)); done; }
wait_tries 1
k=1
for i in $(seq "$n"); do            # the same bytes again: the compile is cached
	cp "$kernel" "$tmp/mine.cu.new" && mv "$tmp/mine.cu.new" "$tmp/mine.cu"
	k=$((k + 1)); wait_tries $k
done
grep -o 'verdict in [0-9]* ms' "$tmp/out" | awk '{print $3}' >"$tmp/cached"
for i in $(seq "$n"); do            # a new comment each time: a cold compile
	{ cat "$kernel"; echo "// edit $i $$"; } >"$tmp/mine.cu.new" && mv "$tmp/mine.cu.new" "$tmp/mine.cu"
	k=$((k + 1)); wait_tries $k
done
kill $wp 2>/dev/null; wait $wp 2>/dev/null
grep -o 'verdict in [0-9]* ms' "$tmp/out" | awk '{print $3}' | tail -n +$((n + 1)) >"$tmp/cold"
[ -n "${OUT:-}" ] && { cp "$tmp/out" "$OUT/watch-latency.log"; cp "$tmp/trace" "$OUT/watch-latency-trace.log"; }
median() { sort -n "$1" | awk '{v[NR] = $1} END {if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2); else print "-"}'; }
echo "watch $ex, save to verdict, $n saves each way ($(grep -c '^PASSED' "$tmp/out") of $(grep -c '^[A-Z ]*: ' "$tmp/out") verdicts PASSED)"
echo "  cached compile: median $(median "$tmp/cached") ms  (each: $(tr '\n' ' ' <"$tmp/cached"))"
echo "  cold compile:   median $(median "$tmp/cold") ms  (each: $(tr '\n' ' ' <"$tmp/cold"))"
