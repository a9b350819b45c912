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
command -v script >/dev/null || { echo "watch-latency: needs script(1) (util-linux) to give watch a terminal"; exit 2; }
tmp=$(mktemp -d); wp=; kp=; trap 'kill $wp $kp 2>/dev/null; rm -rf "$tmp"' EXIT
export CUDACLIMB_WORK=$tmp/work
lesson=${ex%/*} stage=${ex#*/}
kernel=kernels/$lesson/$($B show "$lesson" | sed -n "s/^[0-9]*\. $stage - .*\[\(.*\), .*\]\$/\1/p")
[ -f "$kernel" ] || { echo "no stage $ex"; exit 2; }
cp "$kernel" "$tmp/mine.cu"
export CUDACLIMB_TRACE=$tmp/trace     # each job's submit-to-result time, for where the time goes
# watch on a terminal, as a learner runs it: without one it moves on to the next exercise after a
# pass, and the saves below would go unjudged. Its keys come from a FIFO held open (no EOF, which
# watch reads as q); the lines it writes end in CR LF there.
mkfifo "$tmp/keys"
sleep 100000 >"$tmp/keys" & kp=$!
script -qfec "$B watch '$ex' '$tmp/mine.cu'" /dev/null <"$tmp/keys" >"$tmp/out" 2>&1 &
wp=$!
# wait_tries K: until watch has finished K tries (its "(try K) watching" line), at most 60 s; says so
# when it gave up, so that a watch that stopped trying shows instead of a silent wait.
tries() { grep -c ') watching ' "$tmp/out"; }
wait_tries() {
	t=0; while [ $t -lt 600 ] && [ "$(tries)" -lt "$1" ]; do sleep 0.1; t=$((t + 1)); done
	[ "$(tries)" -ge "$1" ] || echo "watch-latency: no try $1 within 60 s (watch ended or moved on?)" >&2
}
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
printf q >"$tmp/keys" 2>/dev/null       # q ends watch; then the rest, whatever state they are in
t=0; while [ $t -lt 50 ] && kill -0 $wp 2>/dev/null; do sleep 0.1; t=$((t + 1)); done
kill $wp $kp 2>/dev/null; wait $wp 2>/dev/null
tr -d '\r' <"$tmp/out" >"$tmp/out.lf" && mv "$tmp/out.lf" "$tmp/out"
grep -o 'verdict in [0-9]* ms' "$tmp/out" | awk '{print $3}' | tail -n +$((n + 1)) >"$tmp/cold"
[ -n "${OUT:-}" ] && { cp "$tmp/out" "$OUT/watch-latency.log"; cp "$tmp/trace" "$OUT/watch-latency-trace.log"; }
median() { sort -n "$1" | awk '{v[NR] = $1} END {if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2); else print "-"}'; }
echo "watch $ex, save to verdict, $n saves each way ($(grep -c '^PASSED' "$tmp/out") of $(grep -c '^[A-Z ]*: ' "$tmp/out") verdicts PASSED)"
echo "  cached compile: median $(median "$tmp/cached") ms  (each: $(tr '\n' ' ' <"$tmp/cached"))"
echo "  cold compile:   median $(median "$tmp/cold") ms  (each: $(tr '\n' ' ' <"$tmp/cold"))"
