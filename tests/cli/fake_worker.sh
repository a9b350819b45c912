#!/bin/sh
# The engine against a worker that misbehaves (tests/fake_worker.c, through CUDACLIMB_WORKER), with
# no GPU: a right run, a fault, a hang, noise, a garbled reply, a worker that dies mid-reply, another
# protocol version, no greeting; each gives its verdict in one line and cudaclimb keeps going; after
# a fault the next run gets a fresh worker.
. tests/lib.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cuda=${CUDA_HOME:-/usr/local/cuda}
if ! cc -std=c11 -D_GNU_SOURCE -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$cuda/include tests/fake_worker.c src/core/result.c src/core/util.c -o "$tmp/fake" 2>"$tmp/cc.log"; then
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
# A cudaclimb killed with SIGKILL takes its worker with it (PR_SET_PDEATHSIG): a hung worker left
# behind would keep the GPU busy and hold its turn in the queue with nobody to stop it.
CC_FAKE=hang $B --lessons tests/fixtures/exercise run demo/scale --timeout 60 >/dev/null 2>&1 &
cpid=$!
child() { grep -l "^PPid:[[:space:]]*$1\$" /proc/[0-9]*/status 2>/dev/null | sed -n 's|^/proc/\([0-9]*\)/status$|\1|p' | head -1; }
i=0; w=; while [ $i -lt 100 ] && [ -z "$w" ]; do sleep 0.05; w=$(child $cpid); i=$((i + 1)); done
sleep 0.3   # the job sent: the worker is in its hang
kill -9 $cpid; wait $cpid 2>/dev/null
i=0; while [ $i -lt 40 ] && [ -n "$w" ] && kill -0 "$w" 2>/dev/null; do sleep 0.05; i=$((i + 1)); done
if [ -z "$w" ]; then fail "fake worker: no worker process seen under cudaclimb (pid $cpid)"
elif kill -0 "$w" 2>/dev/null; then fail "fake worker: the hung worker $w outlived its cudaclimb, killed with SIGKILL, by 2 s"; kill -9 "$w"
else pass "fake worker: a hung worker ends with its cudaclimb (killed with SIGKILL)"; fi
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
# Steps: a stage of a memset and a launch lists both, in run's table and in --json.
expect "fake worker: run's table of a stage's steps" 0 "^  2   launch reduce_vector +0 +[0-9]+,1,1 +256,1,1 .* 0\.2500 +0\.2500 +0\.5000$" env CC_FAKE=ok $B run reduction/vector --reps 3
# Several workers (--gpu 0,1): a bench spreads over both, each result names its worker, and a worker
# that faults on every run leaves the other running.
CC_FAKE=ok $B bench reduction --reps 3 --gpu 0,1 --json >"$tmp/two.json" 2>/dev/null
CC_FAKE=ok CC_FAKE_FAULT_GPU=1 $B bench reduction --reps 3 --gpu 0,1 --json >"$tmp/fault1.json" 2>/dev/null
python3 - "$tmp/two.json" "$tmp/fault1.json" <<'PY'
import json, sys
def results(path):
    try:
        return json.load(open(path))["results"]
    except Exception as e:
        print("FAIL fake worker: no JSON from %s (%s)" % (path, e)); return []
two, f1 = results(sys.argv[1]), results(sys.argv[2])
ran = {r["runner"] for r in two}
ok = len(two) == 11 and all(r["status"] == "ok" for r in two) and ran == {"local gpu 0", "local gpu 1"}
print("%s fake worker: two workers share a bench, each result names its worker (%s)" % ("PASS" if ok else "FAIL", sorted(ran)))
steps = [r["steps"] for r in two if r["stage"] == "vector"]
ok = steps and [s["kind"] for s in steps[0]] == ["memset", "launch"] and steps[0][1]["entry"] == "reduce_vector" and steps[0][1]["end_ms"] == 0.5
print("%s fake worker: --json lists a stage's steps" % ("PASS" if ok else "FAIL"))
bad = [r["stage"] for r in f1 if r["status"] == "fault" and r["runner"] != "local gpu 1"]
good = [r["stage"] for r in f1 if r["status"] == "ok" and r["runner"] == "local gpu 0"]
ok = len(f1) == 11 and not bad and any(r["status"] == "fault" for r in f1) and len(good) >= 5
print("%s fake worker: a worker that faults leaves the other running (%d right on gpu 0)" % ("PASS" if ok else "FAIL", len(good)))
PY
expect "fake worker: --gpu refuses a list it cannot read" 2 "--gpu takes a GPU number or a list" $B bench reduction --gpu 0,x
