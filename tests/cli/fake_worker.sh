#!/bin/sh
# The engine against a worker that misbehaves (tests/fake_worker.c, through CUDACLIMB_WORKER), with
# no GPU: a right run, a fault, a hang, noise, a garbled reply, a worker that dies mid-reply, another
# protocol version, no greeting; each gives its verdict in one line and cudaclimb keeps going; after
# a fault the next run gets a fresh worker.
. tests/lib.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cuda=${CUDA_HOME:-/usr/local/cuda}
if ! cc -std=c11 -D_GNU_SOURCE -Isrc -I$cuda/include tests/fake_worker.c src/result.c src/util.c -o "$tmp/fake" 2>"$tmp/cc.log"; then
	fail "fake worker: did not build: $(head -3 "$tmp/cc.log")"; exit 0
fi
export CUDACLIMB_WORKER=$tmp/fake
F() { mode=$1; shift; CC_FAKE=$mode $B --lessons tests/fixtures/exercise "$@"; }
expect "fake worker: a right run" 0 "^scale +1\.0000 " F ok run demo/scale --reps 3
expect "fake worker: the device it describes" 0 "Fake GPU" F ok device
expect "fake worker: a fault is a fault" 1 "^scale .* fault" F fault run demo/scale
expect "fake worker: ... with the CUDA error" 1 "scale: the kernel failed: an illegal memory access" F fault run demo/scale
t0=$(date +%s)
expect "fake worker: a hang is stopped by the watchdog" 1 "did not finish within 2 s" F hang run demo/scale --timeout 2
[ $(( $(date +%s) - t0 )) -lt 10 ] && pass "fake worker: the hang ended in time" || fail "fake worker: the hang took $(( $(date +%s) - t0 )) s"
expect "fake worker: noise is not the protocol" 1 "scale: the GPU worker sent something that is not the protocol" F garbage run demo/scale
expect "fake worker: ... and its control bytes are not printed" 1 "not the protocol: '\?\? zzz noise'" F garbage run demo/scale
expect "fake worker: a garbled reply" 1 "scale: the GPU worker sent a garbled reply: 'ms_median not-a-number'" F garbled run demo/scale
expect "fake worker: a worker that dies mid-reply" 1 "scale: the GPU worker exited \(status 9\) while running" F die run demo/scale
expect "fake worker: another protocol version is named" 3 "speaks protocol 999 and this cudaclimb protocol" F version device
expect "fake worker: no greeting" 3 "did not greet as this protocol" F nohello device
# One engine: the first run faults, the next gets a fresh worker and is right.
CC_FAKE_STATE=$tmp/state CC_FAKE=fault-once $B bench bandwidth --reps 3 >"$tmp/bench" 2>&1
grep -q "^baseline .*fault" "$tmp/bench" && grep -Eq "^strided +1\.0000 " "$tmp/bench" && grep -Eq "^vectorized +1\.0000 " "$tmp/bench" && pass "fake worker: after a fault, a fresh worker runs the next stage" \
	|| { fail "fake worker: after a fault"; head -20 "$tmp/bench"; }
